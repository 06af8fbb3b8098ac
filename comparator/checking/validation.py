"""Check scenario files and find every problem: the work behind `validate`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparator.compare.running import era_ids, run_all
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


def check_text(text: str, file: str) -> tuple[Any | None, Checked]:
    """One scenario's text checked as `validate` checks a file (the workbench's editor):
    the scenario, if it loads, and its problems and warnings."""
    out = Checked()
    try:
        scenario = parse(text, file)
    except ScenarioError as err:
        out.problems += err.problems
        return None, out
    _check_loaded(scenario, file, lambda: text, out)
    return scenario, out


def _check_loaded(scenario: Any, file: str, text: Callable[[], str], out: Checked) -> None:
    """What each era finds when it runs a loaded scenario, then its game's warnings."""
    from comparator.games.registry import game_of

    try:  # an era that can't run it leaves the file valid: refusals are kept apart
        run_all(scenario, era_ids(None), file, refused={})
    except ScenarioError as err:  # each illegal choice once, with every era refusing it
        out.problems += err.problems
        return
    found = list(game_of(scenario).warnings(scenario))
    if found:  # only a file with warnings pays for the line numbers
        lines = line_map(text())
        out.warnings += [Problem(file, field_path(loc), msg, line_for(lines, loc))
                         for loc, msg in found]


def validate_files(paths: Sequence[Path]) -> list[Problem]:
    """Every problem of the files (``check_files``' problems)."""
    return check_files(paths).problems
