"""Reading a Magic scenario: the model, the whole-scenario checks (``checks``), and the
card library merged in (a permanent's `card:` brings its printed values, keywords and
abilities)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from comparator.games.mtg.cards import library
from comparator.loader import (
    Problem,
    ScenarioError,
    field_path,
    line_for,
    line_map,
    pydantic_problems,
    refuse_problems,
)
from versions.mtg.scenario import PermanentSpec, Scenario


def parse(text: str, file: str, raw: dict[str, Any]) -> Scenario:
    """The checked Scenario with its cards merged in; a ScenarioError with every problem
    (unknown cards too, even when the rest failed)."""
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as err:
        lines = line_map(text)  # only a file with problems pays for the line numbers
        problems = pydantic_problems(file, err, lines) + raw_card_problems(file, raw, lines)
        raise ScenarioError(problems) from None
    from comparator.games.mtg.checks import check_scenario

    refuse_problems(file, text, check_scenario(scenario))
    return resolve_cards(scenario)


def raw_card_problems(
    file: str, raw: dict[str, Any], lines: dict[tuple[Any, ...], int]
) -> list[Problem]:
    """Unknown card names, found even when the rest of the file failed to parse, so that
    one run of `validate` shows them too."""
    cards = library()
    out = []
    permanents = raw.get("permanents")
    for i, p in enumerate(permanents if isinstance(permanents, list) else []):
        name = p.get("card") if isinstance(p, dict) else None
        if isinstance(name, str) and name not in cards:
            loc = ("permanents", i, "card")
            out.append(Problem(file, field_path(loc), f"unknown card {name!r} (not in the card "
                               f"library)", line_for(lines, loc)))
    return out


def resolve_cards(scenario: Scenario) -> Scenario:
    """Merge each permanent's card into it: printed values unless overridden, the card's
    keywords and abilities plus the scenario's."""
    cards = library()
    permanents = []
    for spec in scenario.permanents:
        card = cards.get(spec.card) if spec.card else None
        if card is None:
            permanents.append(spec.model_copy(update={"types": spec.types or ["creature"]}))
            continue
        types = spec.types or (card.types + (["artifact"] if card.artifact else []))
        permanents.append(PermanentSpec.model_construct(**{
            **dict(spec),
            "name": card.name,
            "power": spec.power if spec.power is not None else card.power,
            "toughness": spec.toughness if spec.toughness is not None else card.toughness,
            "loyalty": spec.loyalty if spec.loyalty is not None else card.loyalty,
            "defense": spec.defense if spec.defense is not None else card.defense,
            "keywords": list(card.keywords) + list(spec.keywords),
            "abilities": list(card.abilities) + list(spec.abilities),
            "colors": spec.colors or list(card.colors),
            "types": types,
        }))
    return scenario.model_copy(update={"permanents": permanents})
