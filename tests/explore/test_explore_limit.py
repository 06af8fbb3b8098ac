"""`--limit N` refuses a search of more than N lines of play (explore.md §6.1): not for an
estimate made before searching, not for options that are no line of play (block
declarations a restriction forbids). It also sets the work a search may do (positions
searched and lines played out, ``most_work``): a search within the lines but past that is
refused as work, so that an answer comes in seconds at the default limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import scenario
from typer.testing import CliRunner

import comparator.games.exploration as exploration
import comparator.games.mtg.explore as explore_module
from comparator.cli.main import app
from comparator.games.exploration import TooLarge, era_result
from comparator.games.mtg.explore import Explorer
from comparator.scenarios.loader import load

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"


def _lines(*args: str) -> tuple[int, dict[str, int] | str]:
    result = runner.invoke(app, ["explore", *args, "--json", "--no-store"])
    if result.exit_code == 2:
        return 2, " ".join(result.output.split())
    return result.exit_code, {e: v["lines"] for e, v in json.loads(result.stdout)["eras"].items()}


@pytest.mark.parametrize(("name", "era", "lines"), [
    # Four lines, each after forced steps: nine positions were once counted against it.
    ("ambush-commander-dies-while-its-land-attacks", "m10", 4),
    ("craw-giant-rampage", "m10", 114),  # estimated at about 1,700 before searching
])
def test_a_search_of_exactly_the_limit_is_explored_and_one_more_is_refused(name, era, lines):
    code, found = _lines(name, "--era", era, "--limit", str(lines))
    assert code in (0, 1) and found == {era: lines}
    code, said = _lines(name, "--era", era, "--limit", str(lines - 1))
    assert code == 2
    assert f"{era}: more than {lines - 1} lines of play (reached {lines})" in said
    assert "raise --limit" in said


def test_declarations_a_restriction_forbids_are_no_lines(tmp_path):
    # A menace attacker and three creatures that could block it: eight sets of blockers,
    # of which the three single blocks are illegal (702.110b). Five lines of play.
    path = tmp_path / "menace.yaml"
    path.write_text("\n".join([
        "id: menace-three", "title: menace and three possible blockers",
        "players: [{name: A}, {name: B}]", "active: A", "permanents:",
        "  - {id: m, controller: A, power: 0, toughness: 1, keywords: [menace]}",
        *[f"  - {{id: b{i}, controller: B, power: 0, toughness: 1}}" for i in (1, 2, 3)],
        "combat:", "  attacks: {m: B}", ""]))
    code, found = _lines(str(path), "--era", "foundations", "--blocks", "all", "--limit", "5")
    assert code in (0, 1) and found == {"foundations": 5}
    code, said = _lines(str(path), "--era", "foundations", "--blocks", "all", "--limit", "4")
    assert code == 2 and "more than 4 lines of play (reached 5)" in said


def test_the_estimate_leaves_a_search_that_fits_alone(monkeypatch):
    # The contract's §6.6 case in m10 has 95,336 lines; one probe estimates it at about
    # 2.2 million, 23 times too many: a limit of 100,000 must still explore it, by the
    # margin alone (the floor, under which no estimate refuses, taken away).
    monkeypatch.setattr(explore_module, "ESTIMATE_FLOOR", 0)
    case = str(BENCHMARKS / "explore-trampler-five-blockers.yaml")
    code, found = _lines(case, "--era", "m10", "--limit", "100000")
    assert code in (0, 1) and found == {"m10": 95336}


def test_work_past_its_bound_is_refused_as_work(monkeypatch):
    # Past the work its limit allows, the search stops, and says so as work, not as a count
    # of lines it has not finished counting.
    monkeypatch.setattr(exploration, "WORK_FLOOR", 0)
    s = load(ROOT / "data" / "scenarios" / "enormous-baloth-shared-blocker.yaml")
    with pytest.raises(TooLarge) as refused:
        Explorer(s, "m10", limit=200).run()
    assert refused.value.how == "work"
    assert refused.value.said() == (
        "more than 5 positions searched and lines played out, with the lines of play not "
        "all counted yet (the most work a limit of 200 lines of play allows)")


WALLS = """
id: walls
title: Sixty damage among three walls, every division its own outcome with --fields all
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: t, controller: A, power: 60, toughness: 30}
  - {id: w0, controller: B, power: 0, toughness: 100}
  - {id: w1, controller: B, power: 0, toughness: 100}
  - {id: w2, controller: B, power: 0, toughness: 100}
combat:
  attacks: {t: B}
  blocks: {w0: t, w1: t, w2: t}
"""


def test_distinct_outcomes_cost_work_and_a_higher_limit_buys_it(monkeypatch):
    # Under free division all 60 damage goes to the three walls: C(62, 2) = 1891 ways, and
    # with damage shown each is an outcome of its own, so no class of divisions spares the
    # work. With 1000 of work for the default limit the search is refused as work, though
    # its lines are far under the limit; the limit raised to 5,000,000 (5000 of work)
    # explores it all.
    monkeypatch.setattr(exploration, "WORK_FLOOR", 0)
    monkeypatch.setattr(exploration, "WORK_PER_LINES", 1000)
    walls = scenario(WALLS)
    with pytest.raises(TooLarge) as refused:
        Explorer(walls, "foundations", fields="all").run()
    assert (refused.value.how, refused.value.reached) == ("work", 1000)
    explorer = Explorer(walls, "foundations", fields="all", limit=5_000_000)
    found = era_result(explorer, explorer.run())
    assert found["lines"] == 1891 and len(found["outcomes"]) == 1891
    assert sorted(tuple(o["state"]["permanents"][w]["damage"] for w in ("w0", "w1", "w2"))
                  for o in found["outcomes"])[:2] == [(0, 0, 60), (0, 1, 59)]


def test_nothing_explored_is_an_error_not_an_empty_result():
    # Every era named refuses the scenario (trample over planeswalkers arrived with M11's
    # era): exit 2 and the reason, never exit 0 with no era in the JSON.
    name = "trample-over-planeswalkers-past-the-walker"
    code, said = _lines(name, "--era", "sixth", "--era", "m10")
    assert code == 2
    assert "sixth can't run this scenario" in said and "(and 1 more era refuses it)" in said
    assert "nothing was explored" in said
    code, found = _lines(name, "--era", "m10", "--era", "m11")  # m11 explores it
    assert code in (0, 1) and list(found) == ["m11"]


def test_a_file_no_era_explores_beside_others_is_said_not_fatal(tmp_path):
    # Several files: the one every era named refuses is said on stderr; the others are
    # explored and printed, as `diff` does.
    result = runner.invoke(app, ["explore", "giant-growth-vs-assignment-order",
                                 "trample-over-planeswalkers-past-the-walker", "--era", "m10",
                                 "--json", "--no-store"])
    assert result.exit_code == 0, result.output
    docs = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [(d["scenario"], list(d["eras"])) for d in docs] == [
        ("giant-growth-vs-assignment-order", ["m10"]),
        ("trample-over-planeswalkers-past-the-walker", [])]


def _costly_blocks(tmp_path: Path, blockers: int) -> Path:
    # Eight attackers and blockers with a cost to block their controller can't pay: 9^n
    # declarations a restriction allows, one legal (no blocks). One line of play.
    path = tmp_path / f"costs{blockers}.yaml"
    path.write_text("\n".join([
        f"id: costs{blockers}", "title: blocks nobody can pay for",
        "players: [{name: A}, {name: B, mana: 0}]", "active: A", "permanents:",
        *[f"  - {{id: a{i}, controller: A, power: 0, toughness: 1}}" for i in range(8)],
        *[f"  - {{id: b{i}, controller: B, power: 0, toughness: 1, block-cost: 1}}"
          for i in range(blockers)],
        "combat:", "  attacks: {" + ", ".join(f"a{i}: B" for i in range(8)) + "}", ""]))
    return path


def test_legal_declarations_are_counted_by_a_bounded_walk(tmp_path):
    from versions import find_era
    from versions.mtg.engine.blocks import legal_count
    from versions.mtg.engine.setup import new_board

    board = new_board(find_era("foundations")(), load(_costly_blocks(tmp_path, 4)))
    assert legal_count(board, most=10, walked=9**4) == 1  # every declaration walked
    assert legal_count(board, most=10, walked=100) is None  # not enough to know


def test_declarations_too_many_to_walk_are_refused_at_once(tmp_path):
    # 9^7 declarations to walk for one legal one: refused in a moment, saying the count is
    # of declarations, not of lines (where it once walked them all, for minutes).
    code, said = _lines(str(_costly_blocks(tmp_path, 7)), "--era", "foundations",
                        "--blocks", "all")
    assert code == 2
    assert "a decision of up to 4782969 block declarations, too many to count the legal " \
           "ones (the limit is 1000000)" in said and "raise --limit" in said
