"""Check scenario files and find every problem: the work behind `validate`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from comparator.loader import Problem, ScenarioError, load
from comparator.running import era_ids, run_all


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
        seen: set[str] = set()
        for era in era_ids(None):
            try:  # an era that can't run it leaves the file valid: refusals are kept apart
                run_all(scenario, [era], str(path), refused={})
            except ScenarioError as err:
                for p in err.problems:
                    if str(p) not in seen:
                        seen.add(str(p))
                        problems.append(p)
    return problems
