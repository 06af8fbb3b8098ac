"""Banding's damage sharing, the same in every era that had it (A.11.13 and C.8.5-6 of
1999; 502.10h; 702.19j-k; 702.22j-k): the banding side divides the other creature's
damage, freely among the creatures, nothing to the player."""

import json

import pytest
from eras import ERAS, has
from helpers import dealt, life, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import find_scenario
from versions import find_era
from versions.mtg.engine.assignment import chooser, rules_for, targets_of
from versions.mtg.engine.setup import new_board

BOARD = """
id: t-banding
title: Banding blocker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 6, toughness: 6, keywords: [trample]}
  - {id: hero, controller: B, power: 1, toughness: 1, keywords: [banding]}
  - {id: bears, controller: B, card: Grizzly Bears}
combat:
  attacks: {wurm: B}
  blocks: {hero: wurm, bears: wurm}
%s
"""


@pytest.mark.parametrize("era", [e for e in ERAS if not has(e, "trample-redirects")])
def test_the_defender_divides_and_nothing_tramples_over(era):
    # Without banding a 6/6 trampler would put 1 and 2 on them and 3 on B. The defender
    # divides instead, all among the blockers: the intended 6 on the Hero is legal.
    o = run(BOARD % "  assign: {wurm: {hero: 6}}", era)
    assert dealt(o, "wurm", "hero") == [6] and dealt(o, "wurm", "B") == []
    assert perm(o, "bears") == {**perm(o, "bears"), "zone": "battlefield", "damage": 0}
    assert life(o, "B") == 20
    # A division that sends damage to the player is not one the defender may make: the
    # default then divides among the blockers (lethal to each in order, the rest to the
    # first).
    o = run(BOARD % "  assign: {wurm: {hero: 1, bears: 2, B: 3}}", era)
    assert dealt(o, "wurm", "B") == [] and life(o, "B") == 20
    assert dealt(o, "wurm", "hero") == [4] and dealt(o, "wurm", "bears") == [2]


def test_before_urzas_saga_trample_still_carries_over_what_the_defender_divides():
    # Fourth Edition FAQ: with a banding blocker "the defending player would get to
    # distribute the damage however he or she wanted. If the defending player chose to lose
    # only one of his or her Goblins, 2 points of trample damage would still carry over."
    # All 6 on the 1/1 Hero: 1 is lethal, 5 are redirected to B (A.27.Note).
    o = run(BOARD % "  assign: {wurm: {hero: 6}}", "fourth")
    assert dealt(o, "wurm", "hero") == [1] and redirected(o, "wurm") == [5]
    assert life(o, "B") == 15 and perm(o, "hero")["zone"] == "graveyard"
    assert perm(o, "bears")["zone"] == "battlefield"
    # Lethal to each (1 and 2), the rest on the Hero: 3 redirected, both blockers die.
    o = run(BOARD % "  assign: {wurm: {hero: 4, bears: 2}}", "fourth")
    assert redirected(o, "wurm") == [3] and life(o, "B") == 17
    assert {perm(o, b)["zone"] for b in ("hero", "bears")} == {"graveyard"}


def redirected(outcome: dict, source: str) -> list[int]:
    """Damage `source` dealt B once redirected: no longer combat damage (C.1.8)."""
    return [e["amount"] for e in outcome["events"] if e["type"] == "damage"
            and e["source"] == source and e["target"] == "B" and not e["combat"]]


def test_who_divides_and_by_what_rules():
    game = new_board(find_era("m10")(), __import__("helpers").scenario(BOARD % ""))
    game.blocks.update({"hero": ["wurm"], "bears": ["wurm"]})
    game.blocked.add("wurm")
    assert chooser(game, "wurm") == "B"  # the attacker's damage: the defending player
    assert chooser(game, "bears") == "B"  # no banding among what the Bears block
    targets = targets_of(game, "wurm")
    assert targets.overflow is None and targets.rule == "702.19j"
    assert [type(r).__name__ for r in rules_for(game, "wurm")] == ["Total"]


def test_explore_gives_the_division_to_the_defender():
    result = CliRunner().invoke(app, ["explore", str(find_scenario(
        "banding-blocker-divides-the-attackers-damage")), "--json", "--no-store"])
    doc = json.loads(result.output)
    for res in doc["eras"].values():
        divides = [d for o in res["outcomes"] for d in o["example"] if d["kind"] == "divide"
                   and d.get("creature", d.get("source")) in (None, "giant")]
        assert divides and all(d["player"] == "B" for d in divides)
