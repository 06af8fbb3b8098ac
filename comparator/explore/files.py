"""Explore scenario files: the work behind `explore` and `dataset build --explore`, with
every reason a file can't be explored as one line for the user (ExploreError). Nothing
here touches the database, so `explore --no-store` never imports it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from comparator.compare.running import (
    RefusedError,
    choices_refused,
    expected_refusals,
    game_eras,
    illegal_choice,
    of_game,
    run_era,
)
from comparator.explore.eras import TooLarge, Unsupported, explore
from comparator.files.problems import Problem, ScenarioError
from comparator.games.exploration import DEFAULT_LIMIT
from comparator.games.registry import game_of
from versions import IllegalChoice

Reporter = Callable[[str, int], None]  # (era, lines of play searched so far)
# Given a scenario's id, what reports its search while it runs and is closed when it ends.
Searching = Callable[[str], AbstractContextManager[Reporter | None]]


class ExploreError(Exception):
    """A file that can't be explored: a search larger than its limit, players explore
    can't take, a choice an era refuses. One line for the user."""

    def __init__(self, text: str, problem: Problem | None = None):
        super().__init__(text)
        self.problem = problem  # where the line is a problem of the file

    @classmethod
    def of(cls, problem: Problem) -> ExploreError:
        return cls(str(problem), problem)

    def said(self) -> str:
        """The line in the language spoken."""
        from comparator.text.messages import message, problem_line

        return problem_line(self.problem) if self.problem is not None else message(str(self))


class TooLargeError(ExploreError):
    """A file whose search has more lines of play than its limit: known only once
    searched, so a dataset build says it and goes on."""


def _unwatched(_scenario_id: str) -> AbstractContextManager[Reporter | None]:
    return nullcontext()


def explore_file(path: Path | str, scenario: Any, eras: list[str],
                 objective: str = "material", fields: str = "end-of-turn",
                 blocks: str = "fixed", limit: int = DEFAULT_LIMIT,
                 searching: Searching | None = None, jobs: int = 1) -> dict[str, Any]:
    """The explore JSON (contract §6.4) of a loaded scenario in `eras`, with its eras'
    refusals under "refused"; the eras searched in `jobs` processes."""
    check_explorable(path, scenario, eras, blocks)
    # An era the file expects to refuse it is not explored with its written choices
    # (contract §2.1): it is said among the refusals, with the reason the era itself gives
    # (`run --era ERA` says the same), as an era that lacks a mechanic is. One that runs
    # them after all (an `expect` that is wrong: `verify` says so) is explored.
    expected = expected_refusals(scenario) if blocks == "fixed" else {}
    refusals = {e: why for e in of_game(scenario, eras)
                if e in expected and (why := era_refusal(scenario, e, path)) is not None}
    mine = [e for e in eras if e not in refusals]
    if not mine and refusals and all(why.illegal for why in refusals.values()):
        raise ExploreError(f"{path}: every era named refuses the written blocks, as its "
                           f"expect says: nothing to explore with them (try --blocks all)")
    with (searching or _unwatched)(scenario.id) as progress:
        try:
            doc = explore(scenario, mine, objective, fields, blocks, limit, progress, jobs)
        except TooLarge as big:
            raise TooLargeError(f"{path}: {big.era}: {big.said()}; {big.advice()}") from None
        except Unsupported as why:
            raise ExploreError(f"{path}: players: {why}") from None
        except IllegalChoice as illegal:
            raise ExploreError.of(illegal_choice(illegal, str(path)).problems[0]) from None
        except ScenarioError as err:
            raise ExploreError.of(err.problems[0]) from None
    searched = doc.pop("refused", {})
    # Said in the eras' order, whichever way each era came to refuse.
    said = {e: refusals[e].text if e in refusals else searched[e] for e in eras
            if e in refusals or e in searched}
    if said:
        doc["refused"] = said
    return doc


@dataclass(frozen=True)
class EraRefusal:
    """An era's refusal of a scenario as written, for the report."""

    text: str  # why, in the words `run --era ERA` says it (without the file)
    illegal: bool  # a written choice the era's rules forbid (not a mechanic it lacked)


def era_refusal(scenario: Any, era: str, path: Path | str) -> EraRefusal | None:
    """Why `era` refuses to run the scenario as written, as `run --era ERA` says it, or
    None if it runs it."""
    try:
        run_era(scenario, era, str(path))
    except RefusedError as refused:
        if refused.refusal.reason == "not-in-era":
            return EraRefusal(refused.refusal.text, illegal=False)
        first = refused.problems[0]  # the field, the rule broken and the eras' rules cited
        return EraRefusal(f"{first.path}: {first.message}" if first.path else first.message,
                          illegal=True)
    except ScenarioError as err:  # what else the file's run says is wrong: the file's error
        raise ExploreError.of(err.problems[0]) from None
    return None


def check_explorable(path: Path | str, scenario: Any, eras: list[str],
                     blocks: str = "fixed") -> None:
    """What refuses the file before any search (ExploreError): written choices an era
    refuses that its `expect` does not foresee, players the game's explorer can't take.
    Cheap (no search), so that `dataset build --explore` refuses a file before the first
    batch is stored, not once the batches before it are."""
    if blocks == "fixed" and (refused := choices_refused(scenario, eras)):
        # The written blocks, refused by these eras: said once, for all of them.
        raise ExploreError.of(illegal_choice(refused, str(path)).problems[0])
    explorer = game_of(scenario).explorer
    for era in of_game(scenario, eras):
        try:
            explorer(scenario, era, blocks=blocks)  # made, not run: what it can't take
        except Unsupported as why:
            raise ExploreError(f"{path}: players: {why}") from None


@dataclass
class Explored:
    path: Path
    scenario: Any
    doc: dict[str, Any]  # the explore JSON as printed
    refused: dict[str, str]  # era -> why it can't run the scenario; said apart from the JSON


def explore_files(scenarios: Iterable[tuple[Path, Any]], eras: list[str], objective: str,
                  fields: str, blocks: str, limit: int,
                  searching: Searching | None = None, jobs: int = 1) -> Iterator[Explored]:
    """Each loaded (path, scenario) explored in those of `eras` that are its game's, one at
    a time, so that the caller can say each one's refusals before the next runs."""
    for path, scenario in scenarios:
        try:
            mine = game_eras(scenario, eras, str(path))
        except ScenarioError as err:
            raise ExploreError.of(err.problems[0]) from None
        doc = explore_file(path, scenario, mine, objective, fields, blocks, limit, searching,
                           jobs)
        yield Explored(path, scenario, doc, doc.pop("refused", {}))


def nothing_explored(done: list[Explored]) -> str | None:
    """Why nothing at all was explored, where every era named refused every file: an
    error, as `run` in an era that refuses (a file some other file's eras explored beside
    is said on stderr, as any era's refusal)."""
    if not done or any(e.doc["eras"] for e in done):
        return None
    first = next((e for e in done if e.refused), None)
    if first is None:
        return None
    era, why = next(iter(first.refused.items()))
    n = len(first.refused) - 1
    more = f" (and {n} more {'era refuses' if n == 1 else 'eras refuse'} it)" if n else ""
    return f"{first.path}: {era} can't run this scenario: {why}{more}; nothing was explored"
