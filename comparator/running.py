"""Run scenarios in one or more eras. Nothing here touches the database, so `diff
--no-store` and `run` never import it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparator.diffing import divergences
from comparator.loader import Problem, ScenarioError, load
from versions import ALL_ERAS, IllegalBlocks, IllegalRedirect, NotInEra, find_era
from versions.scenario import Scenario


def era_ids(names: list[str] | None) -> list[str]:
    """The eras named, or every era of every game (each scenario runs those of its game)."""
    if not names:
        return [e.id for e in ALL_ERAS]
    return [find_era(n).id for n in names]


def of_game(scenario: Any, eras: list[str]) -> list[str]:
    """Those of `eras` that are eras of the scenario's game."""
    return [e for e in eras if find_era(e).game == scenario.game]


def illegal_blocks(illegal: IllegalBlocks, file: str) -> ScenarioError:
    """An era's refusal of the blocks, as a problem of the scenario file."""
    return ScenarioError([
        Problem(file, p.path, f"illegal block in {illegal.era}: {p.message} (rule {p.rule})")
        for p in illegal.problems])


def blocks_refused(scenario: Scenario, eras: list[str]) -> IllegalBlocks | None:
    """The first era, of those that run the scenario, whose rules refuse its written blocks
    (with its first problem), or None."""
    from versions.game.blocks import check_blocks, written

    if scenario.game != "mtg":
        return None  # another game's choices are checked by its eras as they run
    for era in of_game(scenario, eras):
        try:
            game = find_era(era)().combat(scenario).game
        except NotInEra:
            continue  # that era won't run it: not a problem of the blocks
        problems = check_blocks(game, written(scenario.combat))
        if problems:
            return IllegalBlocks(era, problems[:1])
    return None


def not_in_era(refusal: NotInEra, file: str) -> ScenarioError:
    """An era's refusal to run the scenario, as a problem of the scenario file."""
    return ScenarioError([Problem(file, "", f"{refusal.era} can't run this scenario: "
                                            f"{refusal.why}")])


def _run(scenario: Scenario, era: str, file: str) -> dict[str, Any]:
    try:
        return find_era(era)().run(scenario)
    except IllegalBlocks as illegal:
        raise illegal_blocks(illegal, file) from None
    except IllegalRedirect as illegal:
        raise ScenarioError([Problem(file, illegal.path, f"illegal in {illegal.era}: "
                                     f"{illegal.message} (rule {illegal.rule})")]) from None


def run_era(scenario: Scenario, era: str, file: str = "") -> dict[str, Any]:
    """One era's outcome; an illegal block or an era's refusal is a ScenarioError."""
    try:
        return _run(scenario, era, file)
    except NotInEra as refusal:
        raise not_in_era(refusal, file) from None


def run_all(scenario: Scenario, eras: list[str], file: str = "",
            refused: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """The outcomes of `eras`. An era that refuses the scenario (it uses what that era's
    rules did not have) is left out and its reason put in `refused`, if given; without
    it, the refusal is an error."""
    out = {}
    for era in of_game(scenario, eras):
        try:
            out[era] = _run(scenario, era, file)
        except NotInEra as refusal:
            if refused is None:
                raise not_in_era(refusal, file) from None
            refused[era] = refusal.why
    return out


@dataclass
class Result:
    file: str
    scenario: Scenario
    outcomes: dict[str, dict[str, Any]]  # the eras that ran it
    divergences: list[dict[str, Any]]
    refused: dict[str, str] = field(default_factory=dict)  # era -> why it can't run it

    def record(self) -> dict[str, Any]:
        return {"scenario": canonical_scenario(self.scenario), "outcomes": self.outcomes,
                "divergences": self.divergences}


def canonical_scenario(s: Scenario) -> dict[str, Any]:
    """The scenario as stored: resolved (cards merged in), in the file format's own keys."""
    return s.model_dump(mode="json", by_alias=True, exclude_none=True)


def run_scenario(scenario: Scenario, file: str, eras: list[str]) -> Result:
    if not of_game(scenario, eras):
        raise ScenarioError([Problem(file, "game", f"none of the eras named ({', '.join(eras)}) "
                                                   f"is an era of {scenario.game}")])
    refused: dict[str, str] = {}
    outcomes = run_all(scenario, eras, file, refused)
    return Result(file, scenario, outcomes, divergences(outcomes), refused)


def run_file(path: Path, eras: list[str]) -> Result:
    return run_scenario(load(path), str(path), eras)


def run_files(paths: Iterable[Path], eras: list[str],
              progress: Callable[[], None] | None = None) -> list[Result]:
    out = []
    for p in paths:
        out.append(run_file(p, eras))
        if progress:
            progress()
    return out
