"""The names a Magic scenario's fields take, for an editor that offers them as lists (the
workbench's form): the timing windows, the effects, the keywords, the ability triggers and
costs, the colours and the cards of the library."""

from __future__ import annotations

from typing import Any, get_args

from versions.mtg.scenario import (
    COLORS,
    EFFECT_FIELDS,
    PLAIN_KEYWORDS,
    VALUED_KEYWORDS,
    WINDOWS,
    Ability,
)


def _choices(model: Any, name: str) -> list[str]:
    """The literal values a model's optional field allows, in the order written."""
    annotation = model.model_fields[name].annotation
    return [v for arg in get_args(annotation) for v in get_args(arg) if isinstance(v, str)]


def vocabulary() -> dict[str, Any]:
    from comparator.games.mtg.cards import library

    cards = library()
    return {
        "windows": [str(w) for w in WINDOWS],
        "effects": {name: list(fields) for name, fields in EFFECT_FIELDS.items()},
        "keywords": list(PLAIN_KEYWORDS),
        "valued_keywords": {k: t.__name__ for k, t in VALUED_KEYWORDS.items()},
        "colors": list(COLORS),
        "triggers": _choices(Ability, "trigger"),
        "activated": _choices(Ability, "activated"),
        "ability_targets": _choices(Ability, "target"),
        "if_missing": ["skip", "earlier", "later"],
        "counters": ["+1/+1", "-1/-1"],
        "cards": sorted(name for name, c in cards.items() if c.is_permanent_card),
        # A card's printed numbers: what a permanent of that card has unless it says
        # otherwise (the form shows them as the fields' placeholders).
        "card_stats": {name: {"power": c.power, "toughness": c.toughness,
                              "loyalty": c.loyalty}
                       for name, c in cards.items() if c.is_permanent_card},
        "action_cards": sorted(cards),
    }
