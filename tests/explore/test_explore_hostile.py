"""Hostile input, third round, the search's part (tests/hostile/blocks-*, explore-*): block
surveys of boards that once took minutes (costs to block, creatures that can't block
alone, lure and menace) answer in a moment or are refused in one line naming `--limit`;
a million damage divided among two indestructible blockers is counted before it is
listed; a refusal in one era's worker stops the search of the eras after it. Each case
runs as a real process under a clock; the counting that replaces walks is held to brute
force on random small boards."""

import random
import time
from pathlib import Path

import pytest
from helpers import scenario
from test_hostile_round2 import clean_exit, rulesdiff

from comparator.games.mtg.division_count import division_count
from versions import find_era
from versions.mtg.engine import block_search
from versions.mtg.engine.assignment import TOTAL, division_classes, targets_of
from versions.mtg.engine.blockers import potential_blockers
from versions.mtg.engine.blocks import (
    declarations,
    legal_count,
    most_obeyed_count,
    obeyed,
    requirements,
)
from versions.mtg.engine.setup import new_board

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
BOARDS = ["blocks-costs-6x6.yaml", "blocks-alone-8x8.yaml", "blocks-lure-menace-10x10.yaml"]
FAST = 15  # seconds: each case once took a minute or more


def _timed(*args: str):
    start = time.monotonic()
    result = rulesdiff(*args)
    return result, time.monotonic() - start


def _one_line_refusal(result, name: str) -> str:
    clean_exit(result, code=2)
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and "--limit" in lines[0], result.stderr
    return lines[0]


@pytest.mark.parametrize("name", BOARDS)
@pytest.mark.parametrize("question", [[], ["--can", "b0", "a0"], ["--can", "b5", "a3"]])
def test_block_surveys_of_hostile_boards_answer_in_a_moment(name, question):
    result, spent = _timed("blocks", str(HOSTILE / name), *question)
    out = clean_exit(result, code=0)
    assert spent < FAST, spent
    if question:  # each era can: nothing keeps one creature from blocking another here
        assert "yes, " in out and "no:" not in out


@pytest.mark.parametrize(("name", "more"), [
    # A real search of 9,277 lines of play in each era (seconds each): here under a limit.
    ("blocks-costs-6x6.yaml", ["--limit", "2000"]),
    ("blocks-alone-8x8.yaml", []), ("blocks-lure-menace-10x10.yaml", [])])
def test_best_blocks_of_hostile_boards_answer_or_refuse_in_a_moment(name, more):
    result, spent = _timed("blocks", str(HOSTILE / name), "--best", *more)
    assert spent < FAST, spent
    if result.returncode == 2:
        said = _one_line_refusal(result, name)
        assert "raise --limit" in said
    else:
        assert "blocks" in clean_exit(result, code=0)


def test_blocks_limit_refuses_a_survey_in_one_line():
    result, spent = _timed("blocks", str(HOSTILE / "blocks-lure-menace-10x10.yaml"),
                           "--limit", "50")
    said = _one_line_refusal(result, "blocks-lure-menace-10x10.yaml")
    assert "more than 50 block choices to examine" in said and "raise --limit" in said
    assert spent < FAST
    result = rulesdiff("blocks", str(HOSTILE / "blocks-alone-8x8.yaml"), "--can", "b0",
                       "a0", "--limit", "5")
    _one_line_refusal(result, "blocks-alone-8x8.yaml")


@pytest.mark.parametrize("more", [["--jobs", "1"], ["--jobs", "2"], ["--jobs", "7"]])
def test_a_million_damage_is_counted_before_it_is_divided(more):
    # Two indestructible blockers: every division of a million damage is a line. Sixth
    # (the first era in order that explores it) is refused at once, one era after another;
    # in parallel, whichever era is refused first ends the others' searches, which would
    # otherwise go on for minutes.
    result, spent = _timed("explore", str(HOSTILE / "explore-million-power.yaml"),
                           "--no-store", *more)
    said = _one_line_refusal(result, "explore-million-power.yaml")
    named = ("sixth",) if more == ["--jobs", "1"] else ("sixth", "m10", "m11", "foundations")
    assert any(f"{era}: {MILLION_REFUSED}" in said for era in named), said
    assert "raise --limit" in said
    assert spent < FAST, spent


# Past lethal damage the indestructible blockers' amounts are classes of divisions: the
# decision's 1,000,001 divisions are counted (a lower bound on the lines), not listed.
MILLION_REFUSED = ("more than 1000000 lines of play (at least 1000001, counted before they "
                   "were all searched)")


def test_a_million_damage_in_one_era_is_refused_at_once():
    result, spent = _timed("explore", str(HOSTILE / "explore-million-power.yaml"),
                           "--no-store", "--era", "foundations")
    said = _one_line_refusal(result, "explore-million-power.yaml")
    assert f"foundations: {MILLION_REFUSED}" in said
    assert spent < 5, spent


def test_lure_and_menace_with_every_declaration_is_refused_at_once():
    # 11^10 declarations: counted, not walked, to size the search before it begins.
    result, spent = _timed("explore", str(HOSTILE / "blocks-lure-menace-10x10.yaml"),
                           "--no-store", "--blocks", "all", "--era", "foundations")
    said = _one_line_refusal(result, "blocks-lure-menace-10x10.yaml")
    assert "estimated before searching" in said
    assert spent < 5, spent


# -- the counts that replace walks, against brute force ----------------------------------------

ATTACKER_KEYWORDS = ["menace", "lure", "flying", "{cant-be-blocked-except-by: 3}",
                     "cant-be-blocked-by-more-than-one", "must-be-blocked-by-all"]
BLOCKER_KEYWORDS = ["must-block", "reach", "flying", "can-block-additional",
                    "can-block-any-number", "cant-attack-or-block-alone",
                    "cant-block-unless-greater-power-blocks"]


def _random_board(rng: random.Random) -> str:
    lines = []
    for i in range(rng.randint(1, 4)):
        kws = sorted({rng.choice(ATTACKER_KEYWORDS) for _ in range(rng.randint(0, 2))})
        lines.append(f"  - {{id: a{i}, controller: A, power: 2, toughness: 2, "
                     f"keywords: [{', '.join(kws)}]}}")
    for i in range(rng.randint(1, 4)):
        kws = sorted({rng.choice(BLOCKER_KEYWORDS) for _ in range(rng.randint(0, 2))})
        lines.append(f"  - {{id: b{i}, controller: B, power: {rng.randint(1, 3)}, "
                     f"toughness: 1, keywords: [{', '.join(kws)}]}}")
    attackers = [line.split("id: ")[1].split(",")[0] for line in lines if "controller: A" in line]
    return "\n".join([
        "id: random-board", "title: random", "players: [{name: A}, {name: B}]", "active: A",
        "permanents:", *lines, "combat:",
        "  attacks: {" + ", ".join(f"{a}: B" for a in attackers) + "}", ""])


@pytest.mark.parametrize("seed", range(4))
def test_can_block_and_the_legal_count_match_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(60):
        text = _random_board(rng)
        board = new_board(find_era(rng.choice(["sixth", "m11"]))(), scenario(text))
        every = list(declarations(board))
        best = most_obeyed_count(board)
        legal = sum(1 for d in every if obeyed(d, requirements(board)) >= best)
        assert block_search.count_obeying(board, best) == legal, text
        assert legal_count(board, most=10**6, walked=10**6) == legal, text
        for b in potential_blockers(board):
            for a in board.attacks:
                assert block_search.can_block(board, b, a) == any(
                    a in d.get(b, ()) for d in every), (text, b, a)


@pytest.mark.parametrize("seed", range(3))
def test_division_count_matches_the_divisions_listed(seed):
    rng = random.Random(seed)
    for _ in range(40):
        k = rng.randint(1, 4)
        keyword = rng.choice(["", "trample", "deathtouch"])
        blockers = [f"  - {{id: b{i}, controller: B, power: 1, toughness: "
                    f"{rng.randint(1, 4)}}}" for i in range(k)]
        text = "\n".join([
            "id: d", "title: d", "players: [{name: A}, {name: B}]", "active: A",
            "permanents:", f"  - {{id: a, controller: A, power: {rng.randint(0, 12)}, "
                           f"toughness: 50, keywords: [{keyword}]}}", *blockers,
            "combat:", "  attacks: {a: B}",
            "  blocks: {" + ", ".join(f"b{i}: a" for i in range(k)) + "}", ""])
        for era in ("sixth", "m10", "foundations"):
            board = new_board(find_era(era)(), scenario(text))
            targets = targets_of(board, "a")
            sure = {key: rng.choice([None, rng.randint(1, 5)]) for key in targets.keys}
            rules = rng.choice([None, (TOTAL,)])
            listed = [d for d, _ in division_classes(board, "a", targets, [], sure, rules)
                      if d not in targets.unblocked_options(board.perm("a").power)]
            for stop in (10**6, 3):
                found = division_count(board, "a", targets, [], sure, rules, stop)
                assert found is None or found == min(len(listed), stop + 1), (text, era)


# -- a lower bound on the lines, divisions counted and not listed ------------------------------

@pytest.mark.parametrize("era", ["m10", "m11"])
def test_a_million_damage_in_two_orders_is_refused_at_once(era):
    # Each of the two damage assignment orders alone fits the limit (999,997 divisions),
    # and the estimate (about 2 million) is under its margin: the divisions counted for
    # both orders refuse it before either is listed (was 162 s).
    result, spent = _timed("explore", str(HOSTILE / "explore-million-power.yaml"),
                           "--no-store", "--era", era)
    said = _one_line_refusal(result, "explore-million-power.yaml")
    assert f"{era}: more than 1000000 lines of play (at least 1999994" in said
    assert "raise --limit" in said
    assert spent < 5, spent


@pytest.mark.parametrize("era", ["sixth", "m10", "foundations"])
def test_a_bomb_a_few_times_the_limit_is_refused_in_seconds(era):
    # Millions of lines, estimated at 0.4 to 24 million (under a hundred times the limit):
    # searched until the lines counted passed the limit, 6 s to 97 s.
    result, spent = _timed("explore", str(HOSTILE / "explore-tricks-bomb.yaml"),
                           "--no-store", "--era", era)
    said = _one_line_refusal(result, "explore-tricks-bomb.yaml")
    assert f"{era}: more than 1000000 lines of play" in said and "raise --limit" in said
    assert spent < 8, spent


def _scenario_file(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def test_the_bound_never_passes_the_lines_counted(tmp_path):
    # The bound of each hostile board and of a few searches that fit, in each era that
    # explores them, against the lines a search counts.
    from comparator.games.mtg.explore import Explorer, Options
    from comparator.games.mtg.line_bound import LineBound
    from comparator.scenarios.loader import load
    from versions.mtg.play import exploration

    walls = "\n".join([
        "id: walls", "title: walls", "players: [{name: A}, {name: B}]", "active: A",
        "permanents:", "  - {id: t, controller: A, power: 30, toughness: 30}",
        *[f"  - {{id: w{i}, controller: B, power: 0, toughness: 2, keywords: "
          f"[indestructible]}}" for i in range(4)],
        "combat:", "  attacks: {t: B}",
        "  blocks: {" + ", ".join(f"w{i}: t" for i in range(4)) + "}", ""])
    names = [_scenario_file(tmp_path, "walls", walls),
             Path(__file__).resolve().parents[2] / "benchmarks"
             / "explore-trampler-five-blockers.yaml"]
    for path in names:
        scenario_ = load(path)
        for era in ("fifth", "sixth", "m10", "foundations"):
            if era == "fifth" and path == names[0]:
                continue  # no indestructible in fifth
            explorer = Explorer(scenario_, era, limit=10**8)
            lines = explorer.run().lines
            combat = exploration(find_era(era)(), scenario_)
            bound = LineBound(Options(combat, "fixed", 10**7), 10**8, 10**6).of(combat)
            assert bound is not None and 0 < bound <= lines, (path.name, era, bound, lines)
    # The walls: every line is a division, all counted.
    explorer = Explorer(load(names[0]), "foundations", limit=10**8)
    assert explorer.run().lines == 5456


def test_the_bound_never_passes_the_lines_counted_before_urzas_saga():
    # alpha and fourth refuse some lines as they are played (trample's redirection, what
    # comes between the strikes): the bound counts divisions only where no such refusal
    # can follow them. Every shipped scenario, written blocks and every declaration.
    from helpers import shipped_duels

    from comparator.games.mtg.explore import Explorer, Options
    from comparator.games.mtg.line_bound import LineBound
    from versions import NotInEra
    from versions.mtg.engine.combat import IllegalBlocks
    from versions.mtg.play import exploration

    counted = 0
    for path, s in shipped_duels():
        for era in ("alpha", "fourth"):
            for blocks in ("fixed", "all"):
                try:
                    found = Explorer(s, era, blocks=blocks, limit=10**7).run()
                except (NotInEra, IllegalBlocks):
                    continue
                lines = found.lines if found is not None else 0
                combat = exploration(find_era(era)(), s)
                bound = LineBound(Options(combat, blocks, 10**7), 10**8, 10**6).of(combat)
                assert bound is None or bound <= lines, (path.name, era, blocks, bound, lines)
                counted += bound is not None and bound > 0
    assert counted > 400


@pytest.mark.parametrize("era", ["alpha", "fourth"])
def test_a_bomb_before_urzas_saga_is_refused_by_its_bound(era):
    # The same bomb (a trampler blocked by three, no creature blocking two): its divisions
    # are counted, not played, there too (about ten seconds when only lines counted).
    result, spent = _timed("explore", str(HOSTILE / "explore-tricks-bomb.yaml"),
                           "--no-store", "--era", era)
    said = _one_line_refusal(result, "explore-tricks-bomb.yaml")
    assert f"{era}: more than 1000000 lines of play (at least" in said, said
    assert spent < 8, spent
