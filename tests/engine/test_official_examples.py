"""The official examples named in the reference, reproduced by hand from their sources."""

import pytest
from eras import ERAS
from helpers import dealt, divisions, life, notes, perm, run

GORGER = """
id: t-gorger
title: Vastwood Gorger (CR 510.1c examples)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: gorger, controller: A, card: Vastwood Gorger}
  - {id: guardian, controller: B, card: Pride Guardian}
  - {id: elves, controller: B, card: Llanowar Elves}
combat:
  attacks: {gorger: B}
  blocks: {guardian: gorger, elves: gorger}
  order: {gorger: [guardian, elves]}
"""


def test_vastwood_gorger_splits_m10():
    # "3 damage to the Guardian and 2 damage to the Elves, 4 ... and 1 ..., or 5 ..."
    assert divisions(GORGER, "m10", "gorger") == {
        (("elves", 2), ("guardian", 3)), (("elves", 1), ("guardian", 4)), (("guardian", 5),)}


def test_vastwood_gorger_after_giant_growth_m10():
    grown = GORGER + """actions:
  - {at: declare-blockers, by: B, effect: pump, target: guardian, power: 3, toughness: 3,
     card: Giant Growth}
"""
    # "Vastwood Gorger must assign its 5 damage to the Guardian."
    assert divisions(grown, "m10", "gorger") == {(("guardian", 5),)}
    o = run(grown, "m10")
    assert perm(o, "guardian")["damage"] == 5 and perm(o, "guardian")["zone"] == "battlefield"
    assert perm(o, "elves")["zone"] == "battlefield"


def test_vastwood_gorger_mending_hands_m10():
    # Prevention doesn't change what lethal damage is for the assignment.
    shielded = GORGER + """actions:
  - {at: declare-blockers, by: B, effect: prevent, target: guardian, amount: 4,
     card: Mending Hands}
"""
    assert divisions(shielded, "m10", "gorger") == {
        (("elves", 2), ("guardian", 3)), (("elves", 1), ("guardian", 4)), (("guardian", 5),)}


def test_vastwood_gorger_free_in_foundations():
    assert len(divisions(GORGER, "foundations", "gorger")) == 6  # 5/0 down to 0/5


REGROWER = """
id: t-regrower
title: Elvish Regrower blocked by a 2/3 and a 1/1 (CR after Foundations, 510.1c)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: regrower, controller: A, card: Elvish Regrower}
  - {id: two-three, controller: B, power: 2, toughness: 3}
  - {id: one-one, controller: B, power: 1, toughness: 1}
combat:
  attacks: {regrower: B}
  blocks: {two-three: regrower, one-one: regrower}
"""


def test_elvish_regrower_five_splits_foundations():
    # "may split 4/0, 3/1, 2/2, 1/3 or 0/4"
    assert divisions(REGROWER, "foundations", "regrower") == {
        (("two-three", 4),), (("one-one", 1), ("two-three", 3)),
        (("one-one", 2), ("two-three", 2)), (("one-one", 3), ("two-three", 1)),
        (("one-one", 4),)}


def test_elvish_regrower_ordered_m10():
    # The same block under m10 (order as listed): the 2/3 needs 3 before the 1/1.
    assert divisions(REGROWER, "m10", "regrower") == {
        (("two-three", 4),), (("one-one", 1), ("two-three", 3))}


MOGG_CR_EXAMPLE = """
id: t-mogg-510-2
title: Mogg Fanatic, Goblin Piker and Squadron Hawk (CR 510.2 example)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: hawk, controller: A, card: Squadron Hawk}
  - {id: piker, controller: A, card: Goblin Piker}
  - {id: fanatic, controller: B, card: Mogg Fanatic}
combat:
  attacks: {hawk: B, piker: B}
  blocks: {fanatic: piker}
actions:
  - {at: declare-blockers, by: B, effect: activate, source: fanatic, target: hawk}
"""


@pytest.mark.parametrize("era", ERAS)
def test_mogg_fanatic_cr_510_2_example(era):
    o = run(MOGG_CR_EXAMPLE, era)
    # "The Hawk is destroyed. The Piker deals and is dealt no combat damage this turn."
    assert perm(o, "hawk")["zone"] == "graveyard"
    assert perm(o, "piker") == {**perm(o, "piker"), "zone": "battlefield", "damage": 0}
    assert dealt(o, "piker", "B") == []
    assert life(o, "B") == 20


BEHEMOTH = """
id: t-behemoth
title: Skyshroud Behemoth against five blockers (Magic 2010 Rules Change, 2009)
players: [{name: Mark}, {name: Aaron}]
active: Mark
permanents:
  - {id: behemoth, controller: Mark, card: Skyshroud Behemoth}
  - {id: angel, controller: Aaron, card: Angel of Mercy}
  - {id: wall, controller: Aaron, card: Wall of Swords}
  - {id: troops, controller: Aaron, card: Standing Troops, damage: 2}
  - {id: hawk, controller: Aaron, card: Suntail Hawk}
  - {id: lions, controller: Aaron, card: Savannah Lions}
  - {id: warden, controller: Aaron, card: Ghost Warden}
combat:
  attacks: {behemoth: Aaron}
  blocks: {angel: behemoth, wall: behemoth, troops: behemoth, hawk: behemoth,
           lions: behemoth}
  order: {behemoth: [angel, wall, troops, hawk, lions]}
  assign: {behemoth: {angel: 3, troops: 2, hawk: 3, lions: 2}}
actions:
  - {at: declare-blockers, by: Mark, effect: destroy, target: wall, card: Terror}
  - {at: declare-blockers, by: Aaron, effect: grant, target: angel,
     keyword: {protection: green}, card: Shelter}
  - {at: declare-blockers, by: Aaron, effect: activate, source: warden, target: hawk}
  - {at: declare-blockers, by: Aaron, effect: prevent, target: hawk, amount: 1,
     card: Bandage}
"""


@pytest.mark.parametrize("era", ERAS)
def test_skyshroud_behemoth_article(era):
    o = run(BEHEMOTH, era)
    # "Standing Troops, Suntail Hawk, and Savannah Lions are destroyed"; the Angel's
    # damage is prevented by protection from green; 8 damage to the Behemoth.
    assert perm(o, "wall")["zone"] == "graveyard"
    assert perm(o, "angel") == {**perm(o, "angel"), "zone": "battlefield", "damage": 0}
    for pid in ("troops", "hawk", "lions"):
        assert perm(o, pid)["zone"] == "graveyard"
    assert perm(o, "behemoth") == {**perm(o, "behemoth"), "zone": "battlefield", "damage": 8}
    assert not notes(o, "illegal-assignment")


DEATHTOUCH_ORDER = """
id: t-m11
title: A 3/3 deathtouch attacker against 9/9, 7/7, 4/4, 2/2 (July 2010 Update Bulletin)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: snake, controller: A, power: 3, toughness: 3, keywords: [deathtouch]}
  - {id: nine, controller: B, power: 9, toughness: 9}
  - {id: seven, controller: B, power: 7, toughness: 7}
  - {id: four, controller: B, power: 4, toughness: 4}
  - {id: two, controller: B, power: 2, toughness: 2}
combat:
  attacks: {snake: B}
  blocks: {nine: snake, seven: snake, four: snake, two: snake}
  order: {snake: [nine, seven, four, two]}
"""


def test_m11_deathtouch_follows_the_order_m11():
    found = divisions(DEATHTOUCH_ORDER, "m11", "snake")
    # "assign 1 damage to the 9/9 ... 1 damage to the 7/7 ... 1 damage to the 4/4.
    # (You can't hit the 2/2 in this scenario.)"
    assert (("four", 1), ("nine", 1), ("seven", 1)) in found
    assert all("two" not in dict(d) for d in found)
    o = run(DEATHTOUCH_ORDER, "m11")
    assert [perm(o, p)["zone"] for p in ("nine", "seven", "four", "two")] == [
        "graveyard", "graveyard", "graveyard", "battlefield"]


def test_m10_deathtouch_ignores_the_order_m10():
    # M10 CR 702.2b (2009-07-08): a deathtouch creature divides "as he or she chooses among
    # any number of creatures blocking or blocked by it": the 2/2 can be hit, and every
    # division of 3 among the four is legal (C(6,3) = 20).
    found = divisions(DEATHTOUCH_ORDER, "m10", "snake")
    assert (("four", 1), ("seven", 1), ("two", 1)) in found
    assert (("two", 3),) in found and len(found) == 20
    # With no intended division the default follows the order with toughness-based lethal
    # damage (contract §4): all 3 to the 9/9, which deathtouch destroys (704.5h).
    o = run(DEATHTOUCH_ORDER, "m10")
    assert [perm(o, p)["zone"] for p in ("nine", "seven", "four", "two")] == [
        "graveyard", "battlefield", "battlefield", "battlefield"]


def test_m11_deathtouch_free_in_foundations():
    found = divisions(DEATHTOUCH_ORDER, "foundations", "snake")
    assert (("four", 1), ("seven", 1), ("two", 1)) in found


def test_deathtouch_trampler_bulletin_example_m11():
    text = """
id: t-m11-trample
title: A 4/4 deathtouch trampler blocked by a 3/3 (July 2010 Update Bulletin)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: snake, controller: A, power: 4, toughness: 4, keywords: [deathtouch, trample]}
  - {id: bear, controller: B, power: 3, toughness: 3}
combat:
  attacks: {snake: B}
  blocks: {bear: snake}
"""
    assert (("B", 3), ("bear", 1)) in divisions(text, "m11", "snake")
    assert (("B", 3), ("bear", 1)) in divisions(text, "foundations", "snake")
    # Before M11, lethal damage for trample was the blocker's toughness, deathtouch or not.
    assert (("B", 3), ("bear", 1)) not in divisions(text, "m10", "snake")
    assert (("B", 1), ("bear", 3)) in divisions(text, "m10", "snake")
    assert (("B", 3), ("bear", 1)) not in divisions(text, "sixth", "snake")


BALOTH = """
id: t-baloth
title: Enormous Baloth and Durkwood Boars share Foriysian Brigade (CR 510.1c example)
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: baloth, controller: A, power: 7, toughness: 7}
  - {id: boars, controller: A, power: 4, toughness: 4}
  - {id: armodon, controller: B, power: 3, toughness: 3, damage: 2}
  - {id: brigade, controller: B, power: 2, toughness: 4, keywords: [can-block-additional]}
  - {id: ape, controller: B, power: 5, toughness: 5}
  - {id: piker, controller: B, card: Goblin Piker}
combat:
  attacks: {baloth: B, boars: B}
  blocks: {armodon: baloth, brigade: [baloth, boars], ape: baloth, piker: boars}
  order: {baloth: [armodon, brigade, ape], boars: [brigade, piker]}
  assign:
    baloth: {armodon: 1, brigade: 1, ape: 5}
    boars: {brigade: 3, piker: 1}
"""


def test_assignment_checked_as_a_whole_m10():
    # The Baloth's 1 to the Brigade is legal only because the Boars assign 3 to it in the
    # same step (510.1c, 510.1e): the example's assignment must be kept as written.
    o = run(BALOTH, "m10")
    assert not notes(o, "illegal-assignment")
    assert dealt(o, "baloth", "ape") == [5]
    assert dealt(o, "boars", "brigade") == [3]
    assert perm(o, "brigade")["zone"] == "graveyard"
