"""Trample over planeswalkers (702.19c-f of the CR of 2022-04-29 and 2025-02-07), worked by
hand: past the blockers and the planeswalker's loyalty to its controller; no blockers
left (702.19d); the planeswalker removed from combat (702.19e)."""

import pytest
from helpers import life, notes, perm, run

BOARD = """
id: t-topw
title: Trample over planeswalkers
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: t, controller: A, power: 6, toughness: 6, keywords: [trample-over-planeswalkers]}
  - {id: w, controller: B, types: [planeswalker], loyalty: 4}
  - {id: bears, controller: B, card: Grizzly Bears}
combat:
  attacks: {t: w}
  blocks: {bears: t}
"""


@pytest.mark.parametrize("era", ["m11", "foundations"])
def test_an_intended_division_past_the_walker_needs_its_loyalty_first(era):
    o = run(BOARD + "  assign: {t: {bears: 2, w: 3, B: 1}}\n", era)
    # 3 is short of the loyalty (4): the division is refused and the default used
    # (2 to the bears, 4 to the walker, nothing left for B).
    assert notes(o, "illegal-assignment")
    assert life(o, "B") == 20 and perm(o, "w")["zone"] == "graveyard"


@pytest.mark.parametrize("era", ["m11", "foundations"])
def test_no_blockers_left_goes_to_the_walker_then_its_controller(era):
    text = BOARD + """actions:
  - {at: declare-blockers, by: B, effect: bounce, target: bears}
"""
    o = run(text, era)  # 702.19d: 4 to the walker (its loyalty), 2 to B
    assert perm(o, "w")["zone"] == "graveyard" and life(o, "B") == 18


@pytest.mark.parametrize("era", ["m11", "foundations"])
def test_the_walker_removed_from_combat_lets_damage_through_to_its_controller(era):
    text = BOARD + """actions:
  - {at: declare-blockers, by: B, effect: remove-from-combat, target: w}
"""
    o = run(text, era)  # 702.19e: lethal to the bears (2), the rest (4) to B
    assert perm(o, "bears")["zone"] == "graveyard" and life(o, "B") == 16
    assert perm(o, "w") == {**perm(o, "w"), "zone": "battlefield", "loyalty": 4}


def test_plain_trample_never_reaches_the_controller():
    o = run(BOARD.replace("trample-over-planeswalkers", "trample"), "foundations")
    assert life(o, "B") == 20 and perm(o, "w")["zone"] == "graveyard"
