"""The games rulesdiff compares: each registers, in its own package here, what the
comparator needs of it beyond its eras (which ``versions`` lists): how its scenario file is
read and checked, its explorer, and the words its reports use. The comparator's commands
dispatch on a scenario's `game:` through ``game_of`` and know no game's own terms.

A package is imported only when a scenario of its game is met, so that running a Magic
scenario never loads Duel Masters' code, nor the reverse."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from versions import DEFAULT_GAME as DEFAULT
from versions import PACKAGES


@dataclass(frozen=True)
class GameAdapter:
    id: str
    title: str
    model: type  # the pydantic scenario model
    # (text, file, raw mapping) -> the checked scenario, or a ScenarioError
    parse: Callable[[str, str, dict[str, Any]], Any]
    explorer: Callable[..., Any]  # a comparator.explore_tree.GameExplorer
    describe_decision: Callable[[dict[str, Any], Any], str]  # a line of play's step
    losses: Callable[[dict[str, Any], Any], str]  # an explored outcome, in words
    sentence: Callable[[dict[str, Any]], str]  # an event of the log, in words
    step_titles: dict[str, str]
    outcome_lines: Callable[[dict[str, Any]], list[str]]  # the outcome, for `run`
    explaining: frozenset[str]  # event types that explain a divergence in `diff`
    outcome_defaults: dict[str, Any]  # outcome fields an `expect:` may leave out
    schema: Callable[[], dict[str, Any]]  # the JSON Schema of the scenario format
    # (canonical scenario, an era's outcome or None) -> its picture, a comparator.board.Board
    board: Callable[[dict[str, Any], dict[str, Any] | None], Any]
    # The first era whose rules refuse the written choices, before anything runs (Magic's
    # blocks); a game whose eras check them as they run has none.
    choices_refused: Callable[[Any, list[str]], Any] | None = None
    not_modelled: Callable[[Any], list[str]] = field(default=lambda scenario: [])
    # Legal but surely not what the author meant: (field location, "warning: ...").
    warnings: Callable[[Any], list[tuple[tuple[Any, ...], str]]] = field(
        default=lambda scenario: [])
    # Its own names for zones where they differ from Magic's ("battlefield": Duel Masters'
    # battle zone), marked for the catalog: the words a report gives a zone.
    zone_words: dict[str, str] = field(default_factory=dict)
    # A card's name in the language spoken (Magic's: its Japanese name under Japanese,
    # where the card library has one); a game without one keeps every name as written.
    card_name: Callable[[str], str] = field(default=lambda name: name)
    # The names its fields take, for an editor's lists (the workbench's form); a game
    # without one is edited as text only.
    vocabulary: Callable[[], dict[str, Any]] | None = None


def game_named(name: str) -> GameAdapter:
    module = import_module(f"comparator.games.{PACKAGES[name]}")
    game: GameAdapter = module.GAME
    return game


def game_id(raw: Any) -> str:
    """The game a scenario document names (Magic's by default); an unknown one is left for
    the model to refuse."""
    name = raw.get("game", DEFAULT) if isinstance(raw, dict) else DEFAULT
    return name if isinstance(name, str) and name in PACKAGES else DEFAULT


def game_of(scenario: Any) -> GameAdapter:
    return game_named(scenario.game)
