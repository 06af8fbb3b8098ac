"""Four behaviours the rules texts settle, each reasoned from them (issue 8)."""

import pytest
from eras import CR_ERAS, ERAS, has
from helpers import dealt, life, notes, perm, run


def events(o, type_):
    return [e for e in o["events"] if e["type"] == type_]


LEFT_WITH_DAMAGE_ON_STACK = """
id: t-left
title: A creature bounced with its combat damage on the stack
players: [{name: A}, {name: B}]
active: A
permanents:
  - id: raider
    controller: A
    power: 2
    toughness: 2
    abilities:
      - {trigger: deals-combat-damage-to-player, effect: gain-life, target: controller,
         amount: 3}
combat:
  attacks: {raider: B}
actions:
  - {at: damage-on-stack, by: A, effect: bounce, target: raider, card: Unsummon}
"""


@pytest.mark.parametrize("era", ERAS)
def test_a_source_that_left_deals_its_damage_but_does_not_trigger(era):
    o = run(LEFT_WITH_DAMAGE_ON_STACK, era)
    if has(era, "damage-on-stack"):
        # 310.4a-b (CR 2009-05-01): the damage on the stack is dealt from last known
        # information; 410.10d: only leaves-play abilities look back in time, so the
        # raider's "deals combat damage to a player" ability, no longer in play, doesn't
        # trigger.
        assert perm(o, "raider")["zone"] == "hand"
        assert life(o, "B") == 18 and life(o, "A") == 20
        assert not events(o, "trigger")
        assert any(n["rule"] == "410.10d" for n in notes(o, "hint"))
    else:
        # No damage on the stack: the window doesn't exist and the bounce is skipped
        # (if-missing: skip); the raider deals 2 and its ability gains A 3.
        assert perm(o, "raider")["zone"] == "battlefield"
        assert life(o, "B") == 18 and life(o, "A") == 23


FLASH_FOLIAGE_ON_A_SAMURAI = """
id: t-foliage
title: A token enters blocking an unblocked attacker with bushido, rampage and flanking
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: samurai, controller: A, power: 2, toughness: 2,
     keywords: [{bushido: 1}, {rampage: 1}, flanking]}
combat:
  attacks: {samurai: B}
actions:
  - {at: declare-blockers, by: B, effect: enter-blocking, id: saproling, controller: B,
     power: 1, toughness: 1, attacker: samurai, card: Flash Foliage}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # fifth: test_fifth.py
def test_entering_blocking_fires_every_becomes_blocked_trigger(era):
    o = run(FLASH_FOLIAGE_ON_A_SAMURAI, era)
    fired = sorted(e["condition"] for e in events(o, "trigger"))
    # The samurai was unblocked, so it becomes blocked: bushido and rampage trigger as for
    # a declared blocker (509.4c / 509.3c; 309.4 in sixth). Flanking reads "whenever this
    # creature becomes blocked by a creature without flanking": in sixth such abilities
    # trigger for a creature put into play as a blocker of an unblocked attacker (309.4),
    # and from M11 for any creature put onto the battlefield blocking (509.4d of
    # 2010-07-16, 509.3d of 2025-02-07: "In addition, it will trigger if a creature is put
    # onto the battlefield blocking that creature"); M10's 509.4d reads them "whenever a
    # creature blocks", and such a creature never "blocked" (509.7 of 2009-07-08).
    flanked = era != "m10"
    assert fired == (["bushido", "flanking", "rampage"] if flanked else ["bushido", "rampage"])
    # Bushido +1/+1; rampage counts blockers beyond the first: none. Flanked, the 1/1
    # token is 0/0 and gone before damage; else the 3/3 kills it and takes 1.
    assert perm(o, "samurai") == {**perm(o, "samurai"), "power": 3, "toughness": 3,
                                  "damage": 0 if flanked else 1, "zone": "battlefield"}
    assert perm(o, "saproling")["zone"] == "gone"
    assert life(o, "B") == 20


WALKER_REMOVED = """
id: t-walker-removed
title: The planeswalker being attacked is removed from combat
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
  - {id: giant, controller: A, card: Hill Giant}
  - {id: walker, controller: B, types: [planeswalker], loyalty: 4}
  - {id: wall, controller: B, power: 0, toughness: 4}
combat:
  attacks: {bear: walker, giant: walker}
  blocks: {wall: giant}
actions:
  - {at: declare-blockers, by: B, effect: remove-from-combat, target: walker}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_removing_the_attacked_planeswalker_from_combat(era):
    o = run(WALKER_REMOVED, era)
    # 506.4c (306.4c in sixth): the attackers stay attacking but attack nothing; the
    # unblocked bear deals no combat damage; the blocked giant still deals its 3 to the wall.
    assert not notes(o, "action-not-taken")
    assert perm(o, "walker") == {**perm(o, "walker"), "zone": "battlefield", "loyalty": 4}
    assert dealt(o, "bear", "walker") == [] and life(o, "B") == 20
    assert dealt(o, "giant", "wall") == [3]
    assert perm(o, "bear")["tapped"] is True


FIRST_STRIKE_GRANTED = """
id: t-fs-granted
title: First strike granted at declare blockers makes the first-strike step exist
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2}
  - {id: guard, controller: B, power: 2, toughness: 2}
combat:
  attacks: {knight: B}
  blocks: {guard: knight}
actions:
  - {at: declare-blockers, by: A, effect: grant, target: knight, keyword: first-strike}
  - {at: first-strike-damage, by: B, effect: pump, target: guard, power: 0, toughness: 2,
     if-missing: earlier}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # fifth: test_fifth.py
def test_first_strike_step_exists_when_granted_at_declare_blockers(era):
    o = run(FIRST_STRIKE_GRANTED, era)
    # The knight has first strike as combat damage begins (510.5 / 510.4; 310.5), so the
    # first-strike step and its window exist: the pump waits there, after the knight's 2
    # first-strike damage has killed the guard, and is not taken (its target is gone).
    assert not notes(o, "missing-window")
    assert perm(o, "guard")["zone"] == "graveyard"
    assert perm(o, "knight") == {**perm(o, "knight"), "zone": "battlefield", "damage": 0}
    [not_taken] = notes(o, "action-not-taken")
    assert not_taken["action"] == 1 and not_taken["step"] == "first-strike-damage"
