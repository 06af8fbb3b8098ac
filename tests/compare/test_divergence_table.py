"""Every row of the reference's divergence table, in all three eras.

Expectations are worked out by hand from the rules of each era (comments give the
reasoning); none is captured from the engine.
"""

import pytest
from eras import CR_ERAS, ERAS, has
from helpers import dealt, life, notes, perm, run

MOGG_AFTER_ASSIGNMENT = """
id: t-mogg
title: Mogg Fanatic after damage is assigned
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: piker, controller: A, card: Goblin Piker}
  - {id: hawk, controller: A, card: Squadron Hawk}
  - {id: fanatic, controller: B, card: Mogg Fanatic}
combat:
  attacks: {piker: B, hawk: B}
  blocks: {fanatic: piker}
actions:
  - {at: damage-on-stack, by: B, effect: activate, source: fanatic, target: hawk,
     if-missing: later}
"""


def counted(o: dict, player: str) -> dict:
    """A player's life, loss and poison (the outcome also lists their graveyard and hand)."""
    return {k: o["players"][player][k] for k in ("life", "lost", "poison")}


@pytest.mark.parametrize("era", ERAS)
def test_mogg_fanatic_sacrificed_after_assignment(era):
    o = run(MOGG_AFTER_ASSIGNMENT, era)
    # Piker and Fanatic trade in every era; the hawk's 1 damage reaches B in every era.
    assert perm(o, "piker")["zone"] == "graveyard"
    assert perm(o, "fanatic")["zone"] == "graveyard"
    assert life(o, "B") == 19
    if has(era, "damage-on-stack"):
        # 310.4a: the Fanatic's 1 damage on the stack still kills the Piker, and its
        # ability (activated with damage on the stack) kills the Hawk too.
        assert perm(o, "hawk")["zone"] == "graveyard"
        assert dealt(o, "fanatic", "piker") == [1]
    elif has(era, "prevention-step"):
        # Moved later, into the damage prevention step, where only prevention and
        # regeneration may be played (T.10.3): the sacrifice-and-shoot is not allowed.
        assert perm(o, "hawk")["zone"] == "battlefield"
        [refused] = notes(o, "action-not-allowed")
        assert refused["rule"] == "T.10.3" and refused["step"] == "damage-prevention"
    elif has(era, "prevention-before-damage"):
        # No window at all once damage dealing begins (p.24): nothing later to move to.
        assert perm(o, "hawk")["zone"] == "battlefield"
        [missing] = notes(o, "missing-window")
        assert "nor a later one" in missing["text"] and missing["rule"] == "p.24"
    else:
        # No window after assignment; moved later, the Fanatic is already dead.
        assert perm(o, "hawk")["zone"] == "battlefield"
        assert notes(o, "action-not-taken")


BOUNCE_AFTER_SPLIT = """
id: t-bounce
title: Unsummon a blocker once the split is known
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, power: 4, toughness: 4}
  - {id: x, controller: B, card: Grizzly Bears}
  - {id: y, controller: B, card: Grizzly Bears}
combat:
  attacks: {giant: B}
  blocks: {x: giant, y: giant}
  assign: {giant: {x: 2, y: 2}}
actions:
  - {at: damage-on-stack, by: B, effect: bounce, target: x, if-missing: earlier,
     card: Unsummon}
"""


@pytest.mark.parametrize("era", ERAS)
def test_bounce_after_split_is_known(era):
    o = run(BOUNCE_AFTER_SPLIT, era)
    assert perm(o, "x")["zone"] == "hand"
    assert perm(o, "y")["zone"] == "graveyard"
    if has(era, "damage-on-stack"):
        # x's 2 damage was on the stack with y's: 4 damage kills the 4/4 (310.4a);
        # the 2 assigned to x is not dealt (310.4c).
        assert perm(o, "giant")["zone"] == "graveyard"
        assert dealt(o, "giant", "x") == []
    else:
        # Bounced during declare blockers: x deals nothing, all 4 go to y.
        assert perm(o, "giant")["zone"] == "battlefield"
        assert perm(o, "giant")["damage"] == 2
        assert dealt(o, "giant", "y") == [4]


SPLIT_ONE_THREE = """
id: t-split
title: 4/4 blocked by two 2/2s, split 1/3
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, power: 4, toughness: 4}
  - {id: first, controller: B, power: 2, toughness: 2}
  - {id: second, controller: B, power: 2, toughness: 2}
combat:
  attacks: {giant: B}
  blocks: {first: giant, second: giant}
  order: {giant: [first, second]}
  assign: {giant: {first: 1, second: 3}}
"""


@pytest.mark.parametrize("era", ERAS)
def test_split_one_three(era):
    o = run(SPLIT_ONE_THREE, era)
    assert perm(o, "giant")["zone"] == "graveyard"  # 2 + 2 damage
    if has(era, "damage-order"):
        # 510.1c: first must get lethal (2) before second gets any: illegal, so the
        # default 2/2 is used and both blockers die.
        assert notes(o, "illegal-assignment")
        assert perm(o, "first")["zone"] == "graveyard"
        assert perm(o, "second")["zone"] == "graveyard"
    else:
        assert perm(o, "first") == {**perm(o, "first"), "zone": "battlefield", "damage": 1}
        assert perm(o, "second")["zone"] == "graveyard"
        assert not notes(o, "illegal-assignment")


GIANT_GROWTH_FIRST_IN_ORDER = """
id: t-growth
title: 5/5 against 3/3 and 4/4, Giant Growth on the first in order
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: five, controller: A, power: 5, toughness: 5}
  - {id: small, controller: B, power: 3, toughness: 3}
  - {id: big, controller: B, power: 4, toughness: 4}
combat:
  attacks: {five: B}
  blocks: {small: five, big: five}
  assign: {five: most-kills}
actions:
  - {at: damage-on-stack, by: B, effect: pump, target: small, power: 3, toughness: 3,
     if-missing: earlier, card: Giant Growth}
"""


@pytest.mark.parametrize("era", ERAS)
def test_giant_growth_on_first_in_order(era):
    o = run(GIANT_GROWTH_FIRST_IN_ORDER, era)
    assert perm(o, "five")["zone"] == "graveyard"  # 6 + 4 damage in every era
    small, big = perm(o, "small"), perm(o, "big")
    assert small["zone"] == "battlefield"
    if has(era, "damage-on-stack"):
        # Split chosen before the pump, against a 3/3 and a 4/4: every division kills at
        # most one; no trample; greatest first in blocks order is (5, 0). That was lethal
        # for the 3/3 when assigned, but the pump on the stack saves it.
        assert (small["damage"], big["zone"], big["damage"]) == (5, "battlefield", 0)
        kinds = [e["type"] for e in o["events"]]
        assert kinds.index("assign") < kinds.index("pump") < kinds.index("damage")
    elif has(era, "damage-order"):
        # Order small, big fixed; after the pump small needs 6: all 5 must go to it.
        assert (small["damage"], big["zone"], big["damage"]) == (5, "battlefield", 0)
    else:
        # Free division after seeing the pump: kill the 4/4, 1 left on the 6/6.
        assert (small["damage"], big["zone"]) == (1, "graveyard")


DEATHTOUCH_TRAMPLE = """
id: t-dt-trample
title: Deathtouch and trample 4/4 blocked by a 3/3
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: snake, controller: A, power: 4, toughness: 4, keywords: [deathtouch, trample]}
  - {id: wall, controller: B, power: 0, toughness: 3}
combat:
  attacks: {snake: B}
  blocks: {wall: snake}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_deathtouch_trample(era):
    o = run(DEATHTOUCH_TRAMPLE, era)
    assert perm(o, "wall")["zone"] == "graveyard"
    # sixth: triggered deathtouch doesn't make 1 lethal for trample (502.9b, 502.9d).
    # m10: lethal damage is still toughness-based, deathtouch or not (July 2009 list answer;
    # July 2010 bulletin: "if your creature had just trample, you'd have to assign 3").
    # m11 (702.2b) and foundations (702.2c): 1 is lethal for the assignment; 3 trample over.
    to_wall, b_life = {"sixth": (3, 19), "m10": (3, 19), "m11": (1, 17),
                       "foundations": (1, 17)}[era]
    assert dealt(o, "snake", "wall") == [to_wall]
    assert life(o, "B") == b_life


LIFELINK_AT_ONE = """
id: t-lifelink
title: Lifelink blocker with the defender at 1 life (Forsythe and Gottlieb, 2009)
players: [{name: A}, {name: B, life: 1}]
active: A
permanents:
  - {id: one, controller: A, power: 2, toughness: 2}
  - {id: two, controller: A, power: 2, toughness: 2}
  - {id: linker, controller: B, power: 3, toughness: 3, keywords: [lifelink]}
combat:
  attacks: {one: B, two: B}
  blocks: {linker: one}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_lifelink_blocker_at_low_life(era):
    o = run(LIFELINK_AT_ONE, era)
    if has(era, "damage-on-stack"):
        # B goes to -1; state-based effects make B lose before the lifelink trigger.
        assert counted(o, "B") == {"life": -1, "lost": True, "poison": 0}
    else:
        # "You'll lose 2 life and you'll gain 3 life at the exact same time ... 2 life."
        assert counted(o, "B") == {"life": 2, "lost": False, "poison": 0}


REGENERATION_VS_DEATHTOUCH = """
id: t-regen
title: A regenerating blocker dealt lethal damage by a deathtouch attacker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: viper, controller: A, power: 2, toughness: 2, keywords: [deathtouch]}
  - {id: skeleton, controller: B, power: 2, toughness: 2}
combat:
  attacks: {viper: B}
  blocks: {skeleton: viper}
actions:
  - {at: declare-blockers, by: B, effect: regenerate, target: skeleton}
"""


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_deathtouch_against_regeneration(era):
    o = run(REGENERATION_VS_DEATHTOUCH, era)
    assert perm(o, "viper")["zone"] == "graveyard"
    if has(era, "damage-on-stack"):
        # Lethal damage: regenerated by the shield; then the deathtouch trigger resolves
        # and destroys it again, with no shield left.
        assert perm(o, "skeleton")["zone"] == "graveyard"
    else:
        # One state-based destruction covers lethal damage and deathtouch together.
        assert perm(o, "skeleton") == {**perm(o, "skeleton"), "zone": "battlefield",
                                       "damage": 0, "tapped": True}


BLOCKERS_REMOVED = """
id: t-removed
title: Blockers all removed
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: plain, controller: A, power: 3, toughness: 3}
  - {id: tramp, controller: A, power: 3, toughness: 3, keywords: [trample]}
  - {id: p, controller: B, power: 1, toughness: 1}
  - {id: q, controller: B, power: 1, toughness: 1}
combat:
  attacks: {plain: B, tramp: B}
  blocks: {p: plain, q: tramp}
actions:
  - {at: declare-blockers, by: B, effect: bounce, target: p}
  - {at: declare-blockers, by: B, effect: bounce, target: q}
"""


@pytest.mark.parametrize("era", [e for e in ERAS if not has(e, "trample-redirects")])
def test_blockers_all_removed(era):
    o = run(BLOCKERS_REMOVED, era)
    # The plain attacker stays blocked and deals nothing; the trampler's 3 go to B.
    assert dealt(o, "plain", "B") == []
    assert dealt(o, "tramp", "B") == [3]
    assert life(o, "B") == 17
