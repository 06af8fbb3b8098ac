"""Check scenario files and find every problem: the work behind `validate`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from comparator.loader import Problem, ScenarioError, field_path, load
from comparator.running import era_ids, run_all


def warnings_of(paths: Sequence[Path]) -> list[Problem]:
    """What each valid file says that is legal but surely not what its author meant (its
    game's warnings: an intended division no era can use), each with its line."""
    from comparator.games import game_of
    from comparator.loader import line_for, line_map, read_scenario_text

    out: list[Problem] = []
    for path in paths:
        try:
            scenario = load(path)
        except ScenarioError:
            continue  # its problems are validate_files'
        found = list(game_of(scenario).warnings(scenario))
        if found:
            lines = line_map(read_scenario_text(Path(path)))
            out += [Problem(str(path), field_path(loc), msg, line_for(lines, loc))
                    for loc, msg in found]
    return out


def validate_files(paths: Sequence[Path]) -> list[Problem]:
    """Every problem of the files: their format and cross-checks, then what each era finds
    when it runs them (each problem once, however many eras find it)."""
    problems: list[Problem] = []
    for path in paths:
        try:
            scenario = load(path)
        except ScenarioError as err:
            problems += err.problems
            continue
        try:  # an era that can't run it leaves the file valid: refusals are kept apart
            run_all(scenario, era_ids(None), str(path), refused={})
        except ScenarioError as err:  # each illegal choice once, with every era refusing it
            problems += err.problems
    return problems
