"""The window after attackers are declared and before blockers (`declare-attackers`, issue
24 point 8): every era has it (C.5.1; 308.1 of 2009-05-01; 508.3 of 2009-07-08; 508.2 of
2025-02-07); a would-be blocker tapped or removed there can't block."""

import pytest
from eras import ERAS
from helpers import life, perm, run, scenario

from comparator.explore.eras import explore
from versions import NotInEra
from versions.common import IllegalChoice

BOARD = """
id: t-before-blocks
title: Tapping a would-be blocker before blocks
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: icy, controller: A, types: [artifact], abilities: [{activated: tap, effect: tap}]}
  - {id: wall, controller: B, power: 0, toughness: 4}
combat:
  attacks: {ogre: B}
%s
actions:
  - {at: declare-attackers, by: A, effect: activate, source: icy, target: wall}
"""


@pytest.mark.parametrize("era", ERAS)
def test_a_creature_tapped_before_blocks_does_not_block(era):
    o = run(BOARD % "", era)
    assert life(o, "B") == 17 and perm(o, "wall")["tapped"] is True
    steps = [e["step"] for e in o["events"]]
    assert steps.index("declare-attackers") < steps.index("declare-blockers")


@pytest.mark.parametrize("era", ["fifth", "m11"])
def test_writing_the_tapped_creature_as_a_blocker_is_refused(era):
    with pytest.raises((IllegalChoice, NotInEra)):
        run(BOARD % "  blocks: {wall: ogre}", era)


def test_explore_offers_the_tap_and_then_no_block():
    doc = explore(scenario(BOARD % ""), ["fifth", "foundations"], blocks="all")
    for era in ("fifth", "foundations"):
        value = doc["eras"][era]["value"]
        assert value["score"] == [0, 0, 3], era
        kinds = [(d["step"], d["kind"]) for d in value["line"]]
        # Tapped, the wall can't block: the only declaration left is no blocks, which is
        # not a choice.
        assert kinds == [("declare-attackers", "act")]
        # Without the tap B would block with the wall: that line reaches B at 20.
        states = [o["state"]["players"]["B"]["life"] for o in doc["eras"][era]["outcomes"]]
        assert sorted(states) == [17, 20]


def test_a_combat_without_it_logs_what_it_always_did():
    plain = BOARD.split("actions:")[0] % ""
    o = run(plain, "m11")
    assert "declare-attackers" not in {e["step"] for e in o["events"]}
    assert life(o, "B") == 17  # no blocks written: unblocked
