"""Run scenarios in one or more eras. Nothing here touches the database, so `diff
--no-store` and `run` never import it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comparator.diffing import divergences
from comparator.loader import Problem, ScenarioError, load
from versions import ERAS, IllegalBlocks, find_era
from versions.scenario import Scenario


def era_ids(names: list[str] | None) -> list[str]:
    if not names:
        return [e.id for e in ERAS]
    return [find_era(n).id for n in names]


def illegal_blocks(illegal: IllegalBlocks, file: str) -> ScenarioError:
    """An era's refusal of the blocks, as a problem of the scenario file."""
    return ScenarioError([
        Problem(file, p.path, f"illegal block in {illegal.era}: {p.message} (rule {p.rule})")
        for p in illegal.problems])


def run_era(scenario: Scenario, era: str, file: str = "") -> dict[str, Any]:
    try:
        return find_era(era)().run(scenario)
    except IllegalBlocks as illegal:
        raise illegal_blocks(illegal, file) from None


def run_all(scenario: Scenario, eras: list[str], file: str = "") -> dict[str, dict[str, Any]]:
    return {era: run_era(scenario, era, file) for era in eras}


@dataclass
class Result:
    file: str
    scenario: Scenario
    outcomes: dict[str, dict[str, Any]]
    divergences: list[dict[str, Any]]

    def record(self) -> dict[str, Any]:
        return {"scenario": canonical_scenario(self.scenario), "outcomes": self.outcomes,
                "divergences": self.divergences}


def canonical_scenario(s: Scenario) -> dict[str, Any]:
    """The scenario as stored: resolved (cards merged in), in the file format's own keys."""
    return s.model_dump(mode="json", by_alias=True, exclude_none=True)


def run_file(path: Path, eras: list[str]) -> Result:
    scenario = load(path)
    outcomes = run_all(scenario, eras, str(path))
    return Result(str(path), scenario, outcomes, divergences(outcomes))


def run_files(paths: Iterable[Path], eras: list[str],
              progress: Callable[[], None] | None = None) -> list[Result]:
    out = []
    for p in paths:
        out.append(run_file(p, eras))
        if progress:
            progress()
    return out
