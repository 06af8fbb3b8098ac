"""Reading a Magic scenario: the model, the whole-scenario checks (``checks``), and the
card library merged in (a permanent's `card:` brings its printed values, keywords and
abilities)."""

from __future__ import annotations

import os
from typing import Any

from pydantic import ValidationError

from comparator.files.problems import (
    Problem,
    ScenarioError,
    field_path,
    line_for,
    line_map,
    pydantic_problems,
)
from comparator.games.mtg.cards import USER_CARDS, library
from comparator.text.terminal import cut
from versions.common import did_you_mean
from versions.mtg.scenario import PermanentSpec, Scenario, ZoneCard


def parse(text: str, file: str, raw: dict[str, Any]) -> Scenario:
    """The checked Scenario with its cards merged in; a ScenarioError with every problem
    (unknown cards too, even when the rest failed)."""
    return resolve_cards(checked(text, file, raw))


def checked(text: str, file: str, raw: dict[str, Any]) -> Scenario:
    """The Scenario as written, every check passed, its cards not yet merged in."""
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as err:
        lines = line_map(text)  # only a file with problems pays for the line numbers
        cards = raw_card_problems(file, raw, lines)
        # A permanent whose card is unknown lacks its power and toughness for that reason
        # alone: say the cause once, not its consequences.
        unknown = {p.path.rsplit(".", 1)[0] for p in cards}
        others = [p for p in pydantic_problems(file, err, lines)
                  if p.path.rsplit(".", 1)[0] not in unknown
                  or p.path.rsplit(".", 1)[1] not in ("power", "toughness")]
        raise ScenarioError(others + cards) from None
    from comparator.games.mtg.checks import check_scenario

    found = list(check_scenario(scenario))
    cards = library()
    if found or any(p.card is not None and p.card not in cards for p in scenario.permanents):
        lines = line_map(text)  # only a file with problems pays for the line numbers
        raise ScenarioError([Problem(file, field_path(loc), msg, line_for(lines, loc))
                             for loc, msg in found] + raw_card_problems(file, raw, lines))
    return scenario


def raw_card_problems(
    file: str, raw: dict[str, Any], lines: dict[tuple[Any, ...], int]
) -> list[Problem]:
    """Unknown card names, found even when the rest of the file failed to parse, so that
    one run of `validate` shows them too."""
    cards = library()
    out = []
    far: list[tuple[tuple[Any, ...], str]] = []  # unknown, and like no known card
    permanents = raw.get("permanents")
    for i, p in enumerate(permanents if isinstance(permanents, list) else []):
        name = p.get("card") if isinstance(p, dict) else None
        if isinstance(name, str) and name not in cards:
            loc = ("permanents", i, "card")
            near = did_you_mean(name, cards)
            if near or os.environ.get(USER_CARDS):
                out.append(Problem(file, field_path(loc), f"unknown card {cut(name, 60)!r} "
                                   f"(not in the card library){near}", line_for(lines, loc)))
            else:
                far.append((loc, name))
    if far:  # most likely the user's own cards, and their library not given: say it once
        loc = far[0][0]
        names = ", ".join(repr(cut(n, 60)) for _, n in far[:5]) + (
            f" and {len(far) - 5} more" if len(far) > 5 else "")
        out.append(Problem(file, field_path(loc), (
            f"unknown card{'s' if len(far) > 1 else ''} {names}: not in the shipped card "
            f"library; give your own with --cards FILE or {USER_CARDS} (docs/cards.md)"),
            line_for(lines, loc)))
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
    players = [p.model_copy(update={"graveyard": [_zone_card(c) for c in p.graveyard],
                                    "hand": [_zone_card(c) for c in p.hand]})
               for p in scenario.players]
    return scenario.model_copy(update={"permanents": permanents, "players": players})


def _zone_card(c: str | ZoneCard) -> str | ZoneCard:
    """A card of a graveyard or hand named from the library, written out (a name the
    library lacks is left for the checks to refuse)."""
    card = library().get(c) if isinstance(c, str) else None
    return c if card is None else ZoneCard(name=card.name, creature="creature" in card.types)
