"""Spec §1.5: the order, intended amounts, the default division, the most-kills policy."""

import pytest
from eras import ERAS
from helpers import dealt, life, notes, perm, run

TWO_BEARS = """
id: t-choices
title: A 3/3 blocked by two bears
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, power: %d, toughness: %d%s}
  - {id: a, controller: B, card: Grizzly Bears}
  - {id: b, controller: B, card: Grizzly Bears}
combat:
  attacks: {giant: B}
  blocks: {a: giant, b: giant}
%s
"""


def bears(power: int = 3, keywords: str = "", combat: str = "") -> str:
    return TWO_BEARS % (power, power, keywords, combat)


def test_order_chosen_to_make_intended_amounts_legal_m10():
    # §1.5.1: b is assigned lethal (2), a less (1): b first, then a.
    o = run(bears(combat="  assign: {giant: {a: 1, b: 2}}"), "m10")
    [order] = [e for e in o["events"] if e["type"] == "damage-assignment-order"]
    assert order["order"] == ["b", "a"] and order["rule"] == "509.2"
    assert not notes(o, "illegal-assignment")
    assert (perm(o, "a")["damage"], perm(o, "b")["zone"]) == (1, "graveyard")


def test_order_defaults_to_blocks_listing_m10():
    # Two creatures assigned less than lethal: no order makes that legal; listing order.
    o = run(bears(combat="  assign: {giant: {a: 1, b: 1}}"), "m10")
    [order] = [e for e in o["events"] if e["type"] == "damage-assignment-order"]
    assert order["order"] == ["a", "b"]


@pytest.mark.parametrize("era", ERAS)
def test_default_division_without_trample_leftover_to_first(era):
    # §1.5.3: 2 to a (lethal), 1 to b; nothing left over. Without assign every era agrees.
    o = run(bears(), era)
    assert dealt(o, "giant", "a") == [2] and dealt(o, "giant", "b") == [1]


@pytest.mark.parametrize("era", ERAS)
def test_default_division_leftover_goes_to_first_creature(era):
    o = run(bears(6), era)
    # 2 to a, 2 to b, 2 left over without trample: back to a.
    assert dealt(o, "giant", "a") == [4] and dealt(o, "giant", "b") == [2]


@pytest.mark.parametrize("era", ERAS)
def test_default_division_leftover_tramples_over(era):
    o = run(bears(6, ", keywords: [trample]"), era)
    # Before Urza's Saga the 2 are redirected from a blocker, no longer combat damage.
    to_b = [e["amount"] for e in o["events"] if e["type"] == "damage"
            and e["source"] == "giant" and e["target"] == "B"]
    assert to_b == [2] and life(o, "B") == 18


@pytest.mark.parametrize("era", ERAS)
def test_amounts_that_no_longer_add_up_are_replaced(era):
    text = bears(combat="  assign: {giant: {a: 1, b: 2}}") + """actions:
  - {at: declare-blockers, by: A, effect: pump, target: giant, power: 1, toughness: 1}
"""
    o = run(text, era)
    [note] = notes(o, "illegal-assignment")
    assert "add up to 3" in note["text"] and "power is now 4" in note["text"]
    # The default (lethal in order, rest to the first) is used instead.
    assert perm(o, "a")["zone"] == "graveyard" and perm(o, "b")["zone"] == "graveyard"


@pytest.mark.parametrize("era", ERAS)
def test_most_kills_prefers_trample_damage_on_ties(era):
    o = run(bears(5, ", keywords: [trample]", "  assign: {giant: most-kills}"), era)
    # Both bears can die (2 + 2) and 1 tramples over: the most kills, then most to B.
    assert dealt(o, "giant", "a") == [2] and dealt(o, "giant", "b") == [2]
    assert life(o, "B") == 19
