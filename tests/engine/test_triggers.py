"""Block triggers, keyword triggers and the era's deathtouch and lifelink, by era."""

import pytest
from eras import CR_ERAS, ERAS, has
from helpers import dealt, life, notes, perm, run

# Each era's own numbering, read from the text it cites (the Rulings Summary of 1999, the
# CR of 2009-05-01, 2009-07-08, 2010-07-16, 2025-02-07). Fifth: triggered abilities from
# the declaration of blockers (C.6.1c); "unblocked" (G.44.1).
BLOCKS_RULE = {"alpha": "p.24", "fourth": "C.6.1", "fifth": "C.6.1", "sixth": "309.3",
               "m10": "509.4a", "m11": "509.4a", "foundations": "509.3a"}
BECOMES_BLOCKED_RULE = {"alpha": "p.24", "fourth": "C.6.1", "fifth": "C.6.1",
                        "sixth": "309.4", "m10": "509.4c", "m11": "509.4c",
                        "foundations": "509.3c"}
UNBLOCKED_RULE = {"alpha": "p.24", "fourth": "G.44.1", "fifth": "G.44.1", "sixth": "410.9",
                  "m10": "509.4g", "m11": "509.4g", "foundations": "509.3g"}


def triggers(o, condition):
    return [e for e in o["events"] if e["type"] == "trigger" and e["condition"] == condition]


@pytest.mark.parametrize("era", ERAS)
def test_giant_badger_blocks(era):
    o = run("""
id: t-badger
title: Giant Badger blocks
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: badger, controller: B, card: Giant Badger}
combat:
  attacks: {giant: B}
  blocks: {badger: giant}
""", era)
    [t] = triggers(o, "blocks")
    assert t["rule"] == BLOCKS_RULE[era]
    # 4/4 after the trigger: kills the 3/3 giant and survives its 3 damage.
    assert perm(o, "badger") == {**perm(o, "badger"), "zone": "battlefield", "damage": 3,
                                 "power": 4, "toughness": 4}
    assert perm(o, "giant")["zone"] == "graveyard"


@pytest.mark.parametrize("era", ERAS)
def test_norwood_warrior_once_cave_tiger_per_blocker(era):
    o = run("""
id: t-becomes-blocked
title: Becomes blocked, and becomes blocked by a creature
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: warrior, controller: A, card: Norwood Warrior}
  - {id: tiger, controller: A, card: Cave Tiger}
  - {id: w1, controller: B, power: 0, toughness: 5}
  - {id: w2, controller: B, power: 0, toughness: 5}
  - {id: t1, controller: B, power: 0, toughness: 5}
  - {id: t2, controller: B, power: 0, toughness: 5}
combat:
  attacks: {warrior: B, tiger: B}
  blocks: {w1: warrior, w2: warrior, t1: tiger, t2: tiger}
""", era)
    assert [t["rule"] for t in triggers(o, "becomes-blocked")] == [BECOMES_BLOCKED_RULE[era]]
    assert len(triggers(o, "becomes-blocked-by-creature")) == 2
    assert (perm(o, "warrior")["power"], perm(o, "tiger")["power"]) == (3, 4)


@pytest.mark.parametrize("era", ERAS)
def test_loyal_sentry_destroys_both(era):
    o = run("""
id: t-sentry
title: Loyal Sentry blocks a creature
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, card: Craw Wurm}
  - {id: sentry, controller: B, card: Loyal Sentry}
combat:
  attacks: {wurm: B}
  blocks: {sentry: wurm}
""", era)
    assert perm(o, "wurm")["zone"] == "graveyard"
    assert perm(o, "sentry")["zone"] == "graveyard"
    assert dealt(o, "wurm", "sentry") == []  # both gone before combat damage


@pytest.mark.parametrize("era", ERAS)
def test_abyssal_nightstalker_unblocked_only(era):
    text = """
id: t-nightstalker
title: Attacks and isn't blocked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: stalker, controller: A, card: Abyssal Nightstalker}
  - {id: other, controller: A, card: Abyssal Nightstalker}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {stalker: B, other: B}
  blocks: {bear: other}
"""
    o = run(text, era)
    [t] = triggers(o, "attacks-unblocked")
    assert t["source"] == "stalker" and t["rule"] == UNBLOCKED_RULE[era]
    assert [e["target"] for e in o["events"] if e["type"] == "discard"] == ["B"]


@pytest.mark.parametrize("era", ERAS)
def test_deathgazer_nonblack_only_at_end_of_combat(era):
    o = run("""
id: t-deathgazer
title: Deathgazer blocks a nonblack creature; a black one blocks it
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: gazer, controller: A, card: Deathgazer}
  - {id: rats, controller: B, power: 0, toughness: 4, colors: [black]}
  - {id: wall, controller: B, power: 0, toughness: 4, colors: [white]}
combat:
  attacks: {gazer: B}
  blocks: {rats: gazer, wall: gazer}
""", era)
    assert perm(o, "wall")["zone"] == "graveyard"
    assert perm(o, "rats")["zone"] == "battlefield"
    [destroy] = [e for e in o["events"] if e["type"] == "destroy"]
    assert destroy["step"] == "end-of-combat" and destroy["target"] == "wall"


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_rampage_bushido_flanking(era):
    o = run("""
id: t-keywords
title: Rampage, bushido and flanking
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: craw, controller: A, card: Craw Giant}
  - {id: lancer, controller: A, card: "Suq'Ata Lancer"}
  - {id: a1, controller: B, power: 0, toughness: 9}
  - {id: a2, controller: B, power: 0, toughness: 9}
  - {id: a3, controller: B, power: 0, toughness: 9}
  - {id: retainer, controller: B, card: Devoted Retainer}
combat:
  attacks: {craw: B, lancer: B}
  blocks: {a1: craw, a2: craw, a3: craw, retainer: lancer}
""", era)
    # Rampage 2, two blockers beyond the first: +4/+4.
    assert (perm(o, "craw")["power"], perm(o, "craw")["toughness"]) == (10, 8)
    # Bushido 1 (+1/+1) and flanking (-1/-1) on the Retainer: back to 1/1; dies to 2.
    assert perm(o, "retainer")["zone"] == "graveyard"
    assert dealt(o, "retainer", "lancer") == [1]


FLANKED_FOLIAGE = """
id: t-flanking-entered
title: A Saproling put onto the battlefield blocking a flanker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [flanking]}
combat:
  attacks: {knight: B}
actions:
  - {at: declare-blockers, by: B, effect: enter-blocking, id: saproling, controller: B,
     power: 1, toughness: 1, attacker: knight, card: Flash Foliage}
"""


@pytest.mark.parametrize("era", [e for e in ERAS if e != "alpha"])  # flanking: Mirage, 1996
def test_flanking_and_a_creature_put_onto_the_battlefield_blocking(era):
    # Flanking's words: before Sixth a creature "assigned to block" (A.19.2), which the
    # Saproling never was; from Sixth "becomes blocked by a creature without flanking"
    # (502.3a, 702.22a, 702.25a), which triggers for a creature put into play blocking an
    # unblocked attacker in sixth (309.4) and from M11 (509.4d of 2010-07-16: "In
    # addition, it will trigger if a creature is put onto the battlefield blocking that
    # creature"), but not in m10 (509.7 of 2009-07-08: it never "blocked").
    o = run(FLANKED_FOLIAGE, era)
    flanked = era in ("sixth", "m11", "foundations")
    flanking = [e for e in o["events"] if e.get("condition") == "flanking"
                or "flanking" in str(e.get("kind", ""))]
    assert bool(flanking) == flanked, o["events"]
    # Flanked, the 1/1 Saproling is 0/0 and gone before damage: the Knight takes none.
    assert perm(o, "knight")["damage"] == (0 if flanked else 1)
    assert perm(o, "saproling")["zone"] != "battlefield"


DEATHTOUCH_RESPONSE = """
id: t-dt-response
title: Regenerating in response to deathtouch
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: rats, controller: A, card: Typhoid Rats}
  - {id: giant, controller: B, card: Hill Giant}
combat:
  attacks: {rats: B}
  blocks: {giant: rats}
actions:
  - {at: combat-damage, by: B, effect: regenerate, target: giant}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_regenerate_in_response_to_deathtouch(era):
    o = run(DEATHTOUCH_RESPONSE, era)
    assert perm(o, "rats")["zone"] == "graveyard"
    if has(era, "triggered-deathtouch"):
        # The deathtouch trigger waits on the stack; the shield made in response saves it.
        assert perm(o, "giant")["zone"] == "battlefield"
        assert perm(o, "giant")["tapped"] is True
        assert [t["rule"] for t in triggers(o, "deathtouch")] == ["502.63a"]
    else:
        # 704.5h destroyed it with the damage: nothing left to regenerate.
        assert perm(o, "giant")["zone"] == "graveyard"
        assert notes(o, "action-not-taken")


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_two_lifelink_instances(era):
    o = run("""
id: t-two-lifelink
title: Two instances of lifelink
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: monk, controller: A, card: Rhox War Monk}
combat:
  attacks: {monk: B}
actions:
  - {at: declare-blockers, by: A, effect: grant, target: monk, keyword: lifelink}
""", era)
    assert life(o, "B") == 17
    # Each triggered instance gains 3 in sixth; static instances are redundant later.
    assert life(o, "A") == (26 if has(era, "triggered-lifelink") else 23)


@pytest.mark.parametrize("era", ERAS)
def test_unsummon_own_attacker(era):
    o = run("""
id: t-own-unsummon
title: Unsummon on your own attacker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: wall, controller: B, power: 0, toughness: 3}
combat:
  attacks: {giant: B}
  blocks: {wall: giant}
actions:
  - {at: damage-on-stack, by: A, effect: bounce, target: giant, card: Unsummon}
""", era)
    if has(era, "damage-on-stack"):
        assert perm(o, "giant")["zone"] == "hand"
        # Its 3 damage on the stack is dealt from its last known information.
        assert perm(o, "wall")["zone"] == "graveyard"
        assert any("310.4a" in n["text"] for n in notes(o, "hint"))
    else:
        # No damage-on-stack window (skip): it stays and kills the wall.
        assert perm(o, "giant")["zone"] == "battlefield"
        assert perm(o, "wall")["zone"] == "graveyard"
        assert notes(o, "missing-window")


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_planeswalker_attacked_and_trampled_over(era):
    o = run("""
id: t-walker
title: Damage to a planeswalker, and trample over a blocker onto it
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: lions, controller: A, card: Savannah Lions}
  - {id: craw, controller: A, power: 5, toughness: 5, keywords: [trample]}
  - {id: walker, controller: B, types: [planeswalker], loyalty: 6}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {lions: walker, craw: walker}
  blocks: {bear: craw}
""", era)
    # 2 from the Lions, 3 trampling over the bear: 6 - 5 = 1 loyalty left.
    assert perm(o, "walker") == {**perm(o, "walker"), "zone": "battlefield", "loyalty": 1}
    assert life(o, "B") == 20


@pytest.mark.parametrize("era", ERAS)
def test_nantuko_husk_sacrifices_its_blocked_partner(era):
    o = run("""
id: t-husk
title: Nantuko Husk sacrifices a creature with damage on the stack
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: husk, controller: A, card: Nantuko Husk}
  - {id: elder, controller: A, card: Sakura-Tribe Elder}
  - {id: giant, controller: B, card: Hill Giant}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {husk: B, elder: B}
  blocks: {giant: husk, bear: elder}
actions:
  - {at: damage-on-stack, by: A, effect: activate, source: husk, sacrifice: elder,
     if-missing: earlier}
""", era)
    assert perm(o, "elder")["zone"] == "graveyard"
    assert perm(o, "husk") == {**perm(o, "husk"), "zone": "battlefield", "power": 4}
    if has(era, "damage-on-stack"):
        # The Elder's 1 damage to the bear was on the stack before the sacrifice.
        assert dealt(o, "elder", "bear") == [1]
        assert perm(o, "giant")["damage"] == 2  # husk's damage locked in at 2
    else:
        assert dealt(o, "elder", "bear") == []
        assert perm(o, "giant")["zone"] == "graveyard"  # the 4/4 Husk deals 4


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_indestructible_and_a_looping_trigger_end(era):
    o = run("""
id: t-loop
title: An indestructible creature that damages itself whenever it is dealt damage
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: golem, controller: A, power: 2, toughness: 2, keywords: [indestructible],
     abilities: [{trigger: dealt-damage, effect: damage, target: self, amount: 1}]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {golem: B}
  blocks: {bear: golem}
""", era)
    assert perm(o, "golem")["zone"] == "battlefield"
    assert perm(o, "bear")["zone"] == "graveyard"
    assert notes(o, "loop")


@pytest.mark.parametrize("era", CR_ERAS)  # planeswalkers came after fifth
def test_attacks_a_player_and_is_not_blocked_not_a_planeswalker(era):
    o = run("""
id: t-attacks-player
title: Attacks a player and isn't blocked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: p, controller: A, power: 2, toughness: 2,
     abilities: [{trigger: attacks-player-unblocked, effect: counters, target: self,
                  amount: 1}]}
  - {id: w, controller: A, power: 2, toughness: 2,
     abilities: [{trigger: attacks-player-unblocked, effect: counters, target: self,
                  amount: 1}]}
  - {id: blocked, controller: A, power: 2, toughness: 2,
     abilities: [{trigger: attacks-player-unblocked, effect: counters, target: self,
                  amount: 1}]}
  - {id: walker, controller: B, types: [planeswalker], loyalty: 5}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {p: B, w: walker, blocked: B}
  blocks: {bear: blocked}
""", era)
    [t] = triggers(o, "attacks-player-unblocked")
    assert t["source"] == "p" and t["rule"] == UNBLOCKED_RULE[era]
    assert perm(o, "p")["counters"] == {"+1/+1": 1}
    assert perm(o, "w")["counters"] == {} and perm(o, "blocked")["counters"] == {}
    assert life(o, "B") == 17 and perm(o, "walker")["loyalty"] == 3
