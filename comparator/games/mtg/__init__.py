"""Magic: The Gathering, the main game: its scenario file (with the card library), its
explorer, and its words. Its eras are ``versions.mtg.ERAS``."""

from __future__ import annotations

from typing import Any

from comparator.games.mtg import board, checks, explore_words, narrate, schema
from comparator.games.mtg.blocks import blocks_refused
from comparator.games.mtg.cards import card_name
from comparator.games.mtg.loading import parse
from comparator.games.registry import GameAdapter
from versions import TITLES
from versions.mtg.scenario import GAME as GAME_ID
from versions.mtg.scenario import OUTCOME_DEFAULTS, Scenario


def not_modelled(scenario: Scenario) -> list[str]:
    """The text of the cards the scenario uses that rulesdiff does not model (an action's
    `card:` is a label: the action writes out what the card does)."""
    from comparator.games.mtg.cards import not_modelled as cards_not_modelled

    names = [p.card for p in scenario.permanents if p.card]
    return [f"{card}: not modelled: {text}" for card, text in cards_not_modelled(names)]


def vocabulary() -> dict[str, Any]:
    """The names of the file's fields, for the workbench's form (imported when asked)."""
    from comparator.games.mtg.vocabulary import vocabulary as names

    return names()


def explorer(*args: Any, **kwargs: Any) -> Any:
    """The game's explorer, imported at the first `explore`: `run` and `diff` need none of it
    (about 15 ms of start-up)."""
    from comparator.games.mtg.explore import Explorer

    return Explorer(*args, **kwargs)


GAME = GameAdapter(
    id=GAME_ID,
    title=TITLES[GAME_ID],
    model=Scenario,
    parse=parse,
    explorer=explorer,
    describe_decision=explore_words.describe_decision,
    losses=explore_words.losses,
    sentence=narrate.sentence,
    step_titles=narrate.STEP_TITLES,
    outcome_lines=narrate.outcome_lines,
    # Every event that changes what the outcome shows (or where damage goes): a kind left
    # out hides the event that decides a divergence (before Urza's Saga, trample's
    # redirection decides what the defender loses: issue 50).
    explaining=frozenset({
        "assign", "damage", "prevent", "destroy", "dies", "sacrifice", "bounce", "regenerate",
        "pump", "grant", "gain-life", "loses", "counters", "remove-from-combat",
        "damage-assignment-order", "indestructible", "enter-blocking", "becomes-blocked",
        "trample-redirect", "lose-life", "poison", "counters-removed", "defense-removed",
        "exiled", "returned-to-hand", "discard", "stops-being-creature", "lose-keyword",
        "tap",
    }),
    outcome_defaults=OUTCOME_DEFAULTS,
    schema=schema.scenario_schema,
    board=board.board,
    choices_refused=blocks_refused,
    warnings=lambda scenario: list(checks.warnings(scenario)),
    not_modelled=not_modelled,
    vocabulary=vocabulary,
    card_name=card_name,
)
