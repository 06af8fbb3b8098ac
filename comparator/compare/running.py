"""Run scenarios in one or more eras. Nothing here touches the database, so `diff
--no-store` and `run` never import it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparator.compare.diffing import divergences
from comparator.files.problems import Problem, ScenarioError, line_for, line_map, location
from comparator.games.registry import game_of
from comparator.scenarios.loader import load, read_scenario_text
from versions import ALL_ERAS, IllegalChoice, NotInEra, find_era, run


def era_ids(names: list[str] | None) -> list[str]:
    """The eras named, or every era of every game (each scenario runs those of its game)."""
    if not names:
        return [e.id for e in ALL_ERAS]
    return [find_era(n).id for n in names]


def era_place(era: str) -> tuple[int, str]:
    """Where an era comes in history, as a sort key: each game's eras oldest first
    (``versions.ALL_ERAS``); an era this rulesdiff does not know (a store written by
    another version may name one) after them all, by name."""
    order = [e.id for e in ALL_ERAS]
    return (order.index(era), "") if era in order else (len(order), era)


def of_game(scenario: Any, eras: list[str]) -> list[str]:
    """Those of `eras` that are eras of the scenario's game."""
    return [e for e in eras if find_era(e).game == scenario.game]


def illegal_choice(illegal: IllegalChoice | list[IllegalChoice], file: str) -> ScenarioError:
    """The eras' refusals of a choice the scenario writes, as problems of the file, each
    said once with the line it is on and every era that refuses it: "illegal block in
    fifth, sixth, m10: b can't block a: ... (rule C.6.Ruling.1 in fifth, 500.3 in sixth,
    509.1b in m10)"."""
    merged: dict[tuple[str, str, str], dict[str, list[str]]] = {}  # -> rule -> eras
    for one in illegal if isinstance(illegal, list) else [illegal]:
        for p in one.problems:
            rules = merged.setdefault((one.what, p.path, p.message), {})
            rules.setdefault(p.rule, []).append(one.era)
    lines = _lines_of(file)
    out = []
    for (what, path, message), rules in merged.items():
        eras = [e for r in rules.values() for e in r]
        cited = (f"rule {next(iter(rules))}" if len(rules) == 1 else "rule " + ", ".join(
            f"{r} in {', '.join(e)}" for r, e in rules.items()))
        out.append(Problem(file, path, f"{what} in {', '.join(eras)}: {message} ({cited})",
                           line_for(lines, location(path)) if lines else None))
    return ScenarioError(out)


def _lines_of(file: str) -> dict[tuple[Any, ...], int]:
    try:
        return line_map(read_scenario_text(Path(file)))
    except (ScenarioError, ValueError):
        return {}


def choices_refused(scenario: Any, eras: list[str]) -> list[IllegalChoice] | None:
    """The eras whose rules refuse the scenario's written choices before anything runs,
    if its game checks them so (Magic's blocks), or None; an era whose refusal the
    scenario expects is not among them."""
    check = game_of(scenario).choices_refused
    expected = expected_refusals(scenario)
    mine = [e for e in of_game(scenario, eras) if e not in expected]
    return check(scenario, mine) if check and mine else None


def not_in_era(refusal: NotInEra, file: str) -> ScenarioError:
    """An era's refusal to run the scenario, as a problem of the scenario file."""
    return ScenarioError([Problem(file, "", f"{refusal.era} can't run this scenario: "
                                            f"{refusal.why}")])


@dataclass(frozen=True)
class Refusal:
    """An era's refusal to run a scenario (contract §2.1): an illegal declaration, citing
    the rule, or a mechanic its rules lacked (`not-in-era`)."""

    era: str
    rule: str | None
    reason: str  # "illegal-choice" or "not-in-era"
    text: str

    def record(self) -> dict[str, Any]:
        return {"rule": self.rule, "reason": self.reason, "text": self.text}


class RefusedError(ScenarioError):
    """`run` of an era that refuses the scenario: the problem, and the refusal itself."""

    def __init__(self, problems: list[Problem], refusal: Refusal) -> None:
        super().__init__(problems)
        self.refusal = refusal


def expected_refusals(scenario: Any) -> dict[str, Any]:
    """The eras the scenario's `expect` says refuse it, with what they cite."""
    return {era: e.refused for era, e in getattr(scenario, "expect", {}).items()
            if getattr(e, "refused", None) is not None}


def _refusal(era: str, exc: IllegalChoice | NotInEra) -> Refusal:
    if isinstance(exc, NotInEra):
        return Refusal(era, None, "not-in-era", exc.why)
    first = exc.problems[0]
    return Refusal(era, first.rule, "illegal-choice", first.message)


def run_era(scenario: Any, era: str, file: str = "") -> dict[str, Any]:
    """One era's outcome; an illegal block or an era's refusal is a RefusedError."""
    try:
        return run(era, scenario)
    except IllegalChoice as illegal:
        raise RefusedError(illegal_choice(illegal, file).problems,
                           _refusal(era, illegal)) from None
    except NotInEra as refusal:
        raise RefusedError(not_in_era(refusal, file).problems,
                           _refusal(era, refusal)) from None


def run_all(scenario: Any, eras: list[str], file: str = "",
            refused: dict[str, str] | None = None,
            refusals: dict[str, Refusal] | None = None) -> dict[str, dict[str, Any]]:
    """The outcomes of `eras`. An era that refuses the scenario because it uses what that
    era's rules did not have, or that the scenario expects to refuse it, is left out, its
    reason put in `refused` and its refusal in `refusals`, if given; without them, the
    refusal is an error, and an illegal choice no `expect` foresaw always is."""
    out = {}
    expected = expected_refusals(scenario)
    illegal: list[IllegalChoice] = []  # said once, for every era that refuses the choice
    for era in of_game(scenario, eras):
        try:
            out[era] = run(era, scenario)
        except IllegalChoice as refusal:
            if era not in expected:
                illegal.append(refusal)
                continue
            one = _refusal(era, refusal)
            if refusals is not None:
                refusals[era] = one
            if refused is not None:
                refused[era] = f"refused, as expected ({one.rule}): {one.text}"
        except NotInEra as refusal:
            if refused is None and refusals is None:
                raise not_in_era(refusal, file) from None
            if refused is not None:
                refused[era] = refusal.why
            if refusals is not None:
                refusals[era] = _refusal(era, refusal)
    if illegal:
        raise illegal_choice(illegal, file)
    return out


@dataclass
class Result:
    file: str
    scenario: Any
    outcomes: dict[str, dict[str, Any]]  # the eras that ran it
    divergences: list[dict[str, Any]]
    refused: dict[str, str] = field(default_factory=dict)  # era -> why it can't run it

    def record(self, stored: dict[str, Any] | None = None) -> dict[str, Any]:
        """What the store keeps of the result; `stored`: the scenario's ``scenario_json``,
        where it was made already."""
        return {"scenario": scenario_json(self.scenario) if stored is None else stored,
                "outcomes": self.outcomes, "divergences": self.divergences}


def scenario_json(s: Any) -> dict[str, Any]:
    """The scenario as stored: resolved (cards merged in), in the file format's own keys."""
    return s.model_dump(mode="json", by_alias=True, exclude_none=True)


def game_eras(scenario: Any, eras: list[str], file: str) -> list[str]:
    """Those of `eras` that are the scenario's game's; none is a problem of the file."""
    mine = of_game(scenario, eras)
    if not mine:
        raise ScenarioError([Problem(file, "game", f"none of the eras named ({', '.join(eras)}) "
                                                   f"is an era of {scenario.game}")])
    return mine


def run_scenario(scenario: Any, file: str, eras: list[str]) -> Result:
    game_eras(scenario, eras, file)
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
