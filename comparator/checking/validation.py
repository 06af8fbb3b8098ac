"""Check scenario files and find every problem: the work behind `validate`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparator.compare.diffing import divergences
from comparator.compare.running import Result, era_ids, run_all
from comparator.files.problems import Problem, ScenarioError, field_path, line_for, line_map
from comparator.scenarios.loader import load, parse, read_scenario_text


@dataclass
class Checked:
    problems: list[Problem] = field(default_factory=list)
    # Legal but surely not what the author meant (its game's warnings: an intended
    # division no era can use), each with its line.
    warnings: list[Problem] = field(default_factory=list)


def check_files(paths: Sequence[Path]) -> Checked:
    """Every problem of the files (their format and cross-checks, then what each era finds
    when it runs them, each problem once however many eras find it) and every warning of
    the valid ones: each file read and loaded once."""
    out = Checked()
    ids: dict[str, Path] = {}  # each id with the first file that has it
    for path in paths:
        try:
            scenario = load(path)
        except ScenarioError as err:
            out.problems += err.problems
            continue
        first = ids.setdefault(scenario.id, path)
        # An id names one scenario in a dataset (spec §1); one file named twice, however
        # spelt, is one file.
        if first != path and Path(first).resolve() != Path(path).resolve():
            lines = line_map(read_scenario_text(Path(path)))
            out.problems.append(Problem(
                str(path), "id", f"{scenario.id!r} is also the id of {first}: an id is "
                f"unique among the files of a dataset", line_for(lines, ("id",))))
        _check_loaded(scenario, str(path), lambda path=path: read_scenario_text(Path(path)),
                      out)
    return out


def check_text(text: str, file: str) -> tuple[Result | None, Checked]:
    """One scenario's text checked as `validate` checks a file (the workbench's editor):
    its problems and warnings, and, where every era that can runs it, what they found (as
    `diff` finds it: the eras ran once, for both)."""
    out = Checked()
    try:
        scenario = parse(text, file)
    except ScenarioError as err:
        out.problems += err.problems
        return None, out
    ran = _check_loaded(scenario, file, lambda: text, out)
    if ran is None:
        return None, out
    outcomes, refused = ran
    return Result(file, scenario, outcomes, divergences(outcomes), refused), out


def _check_loaded(scenario: Any, file: str, text: Callable[[], str], out: Checked
                  ) -> tuple[dict[str, Any], dict[str, str]] | None:
    """What each era finds when it runs a loaded scenario, then its game's warnings; the
    eras' outcomes and refusals, where none refused a written choice."""
    from comparator.games.registry import game_of

    refused: dict[str, str] = {}
    try:  # an era that can't run it leaves the file valid: refusals are kept apart
        outcomes = run_all(scenario, era_ids(None), file, refused=refused)
    except ScenarioError as err:  # each illegal choice once, with every era refusing it
        out.problems += err.problems
        return None
    found = list(game_of(scenario).warnings(scenario))
    if found:  # only a file with warnings pays for the line numbers
        lines = line_map(text())
        out.warnings += [Problem(file, field_path(loc), msg, line_for(lines, loc))
                         for loc, msg in found]
    return outcomes, refused


def validate_files(paths: Sequence[Path]) -> list[Problem]:
    """Every problem of the files (``check_files``' problems)."""
    return check_files(paths).problems
