"""Run a loaded scenario in one or more eras."""

from __future__ import annotations

from typing import Any

from comparator.loader import Problem, ScenarioError
from versions import ERAS, IllegalBlocks, find_era
from versions.scenario import Scenario


def era_ids(names: list[str] | None) -> list[str]:
    if not names:
        return [e.id for e in ERAS]
    return [find_era(n).id for n in names]


def run_era(scenario: Scenario, era: str, file: str = "") -> dict[str, Any]:
    try:
        return find_era(era)().run(scenario)
    except IllegalBlocks as illegal:
        raise ScenarioError([
            Problem(file, p.path, f"illegal block in {illegal.era}: {p.message} "
                    f"(rule {p.rule})")
            for p in illegal.problems
        ]) from None


def run_all(scenario: Scenario, eras: list[str], file: str = "") -> dict[str, dict[str, Any]]:
    return {era: run_era(scenario, era, file) for era in eras}
