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
    choices_refused,
    expected_refusals,
    game_eras,
    illegal_choice,
    of_game,
)
from comparator.explore.eras import TooLarge, Unsupported, explore
from comparator.files.problems import ScenarioError
from comparator.games.exploration import DEFAULT_LIMIT
from versions import IllegalChoice

Reporter = Callable[[str, int], None]  # (era, lines of play searched so far)
# Given a scenario's id, what reports its search while it runs and is closed when it ends.
Searching = Callable[[str], AbstractContextManager[Reporter | None]]


class ExploreError(Exception):
    """A file that can't be explored: a search larger than its limit, players explore
    can't take, a choice an era refuses. One line for the user."""


def _unwatched(_scenario_id: str) -> AbstractContextManager[Reporter | None]:
    return nullcontext()


def explore_file(path: Path | str, scenario: Any, eras: list[str],
                 objective: str = "material", fields: str = "end-of-turn",
                 blocks: str = "fixed", limit: int = DEFAULT_LIMIT,
                 searching: Searching | None = None, jobs: int = 1) -> dict[str, Any]:
    """The explore JSON (contract §6.4) of a loaded scenario in `eras`, with its eras'
    refusals under "refused"; the eras searched in `jobs` processes."""
    if blocks == "fixed" and (refused := choices_refused(scenario, eras)):
        # The written blocks, refused by these eras: said once, for all of them.
        raise ExploreError(str(illegal_choice(refused, str(path)).problems[0]))
    # An era the file expects to refuse its written choices is not explored with them
    # (contract §2.1): it is said among the refusals, as an era that lacks a mechanic is.
    expected = set(expected_refusals(scenario)) if blocks == "fixed" else set()
    mine = [e for e in eras if e not in expected]
    if not mine:
        raise ExploreError(f"{path}: every era named refuses the written blocks, as its "
                           f"expect says: nothing to explore with them (try --blocks all)")
    with (searching or _unwatched)(scenario.id) as progress:
        try:
            doc = explore(scenario, mine, objective, fields, blocks, limit, progress, jobs)
            doc.setdefault("refused", {}).update(
                {e: "refuses the written blocks, as the file expects" for e in eras
                 if e in expected and e in of_game(scenario, eras)})
            return doc
        except TooLarge as big:
            raise ExploreError(f"{path}: {big.era}: {big.said()}; {big.advice()}") from None
        except Unsupported as why:
            raise ExploreError(f"{path}: players: {why}") from None
        except IllegalChoice as illegal:
            raise ExploreError(str(illegal_choice(illegal, str(path)).problems[0])) from None
        except ScenarioError as err:
            raise ExploreError(str(err.problems[0])) from None


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
            raise ExploreError(str(err.problems[0])) from None
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
