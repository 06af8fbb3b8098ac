"""The card library: the shipped one (data/cards.yaml), with a user's library (made by
`rulesdiff cards import` from MTGJSON, or written by hand) merged over it when
`--cards FILE` or RULESDIFF_CARDS names one.

A card may carry its Japanese name (`ja-name`): what `--lang ja` says for it (``card_name``);
scenarios, ids and JSON keep the English name."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from comparator.files.locations import cards_file
from comparator.text.language import current
from versions.common import BOUND, Count, Number
from versions.mtg.scenario import Ability, Keyword, parse_keyword


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    name: str
    # The card's Japanese name where a source gives it (MTGJSON's foreign data, a Japanese
    # card list, MTG Wiki), and that source; never a translation of rulesdiff's own.
    ja_name: str | None = Field(default=None, alias="ja-name", min_length=1)
    ja_name_source: str = Field(default="", alias="ja-name-source")
    types: list[str]
    type_line: str = Field(default="", alias="type-line")  # optional in a library of yours
    power: Number | None = None
    toughness: Number | None = None
    loyalty: Count | None = None
    defense: Count | None = None
    mana_value: float | None = Field(default=None, alias="mana-value", ge=0, le=BOUND)
    artifact: bool = False
    colors: list[str] = []
    keywords: list[Keyword] = []
    abilities: list[Ability] = []
    oracle: str = ""
    not_modelled: str | None = Field(default=None, alias="not-modelled")
    source: str = ""  # where the card's facts come from (the shipped library says)

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, v: list) -> list[Keyword]:
        return [parse_keyword(k) for k in v]

    @property
    def is_permanent_card(self) -> bool:
        return bool({"creature", "planeswalker", "battle"} & set(self.types))


class CardLibraryError(Exception):
    """A card library file that can't be read: the message names the file and the field."""


USER_CARDS = "RULESDIFF_CARDS"


def library() -> dict[str, Card]:
    """The shipped cards, with the user's library (RULESDIFF_CARDS) merged over them."""
    return _merged(cards_file(), os.environ.get(USER_CARDS) or None)


def shipped_library() -> dict[str, Card]:
    """The shipped cards only (what generated datasets draw from: the same whatever the
    user's library)."""
    return _merged(cards_file(), None)


def not_modelled(card_names: list[str]) -> list[tuple[str, str]]:
    """(card, what of its text rulesdiff ignores) for each named card that has such text."""
    cards = library()
    return [(n, cards[n].not_modelled or "") for n in dict.fromkeys(card_names)
            if n in cards and cards[n].not_modelled]


def japanese_name(name: str) -> str | None:
    """The Japanese name of the card named `name` (its English name, as scenarios write
    it), where the card library knows one: the shipped library's, or the user's
    (RULESDIFF_CARDS, made by `cards import` from MTGJSON). None for a card without one, a
    name no card has (an id, a label), or a library that can't be read."""
    try:
        card = library().get(name) if isinstance(name, str) else None
    except CardLibraryError:
        return None
    return card.ja_name if card is not None else None


def card_name(name: str) -> str:
    """A card's name in the language spoken: under Japanese its Japanese name where the
    library knows it, else (and in English) `name` as written."""
    if current() == "ja":
        return japanese_name(name) or name
    return name


@cache
def _merged(shipped: Path, user: str | None) -> dict[str, Card]:
    cards = read_library(shipped)
    if user:
        cards = {**cards, **read_library(Path(user))}
    return cards


# A library of every creature MTGJSON knows is about 10 MB and 30,000 cards.
MAX_LIBRARY_BYTES = 200_000_000
MAX_LIBRARY_NODES = 20_000_000


def read_library(path: Path) -> dict[str, Card]:
    """A card library file, with the guards of a scenario file: a regular UTF-8 file of
    bounded size, no alias bomb, bounded numbers; any problem is one CardLibraryError
    naming the file and the field."""
    from comparator.files.documents import load_yaml
    from comparator.files.guarded import read_text_file

    try:
        raw = load_yaml(read_text_file(path, MAX_LIBRARY_BYTES, "card library"),
                        MAX_LIBRARY_NODES)
    except yaml.YAMLError as exc:
        raise CardLibraryError(f"{path}: not YAML: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise CardLibraryError(f"{path}: nested too deeply") from None
    except ValueError as exc:  # can't read it, not UTF-8, a number of thousands of digits
        message = str(exc)
        if "digits" in message:
            message = (f"{path}: a number of thousands of digits (numbers in a card library "
                       f"are at most {BOUND})")
        elif not message.startswith(str(path)):
            message = f"{path}: {message.splitlines()[0]}"
        raise CardLibraryError(message) from None
    entries = raw.get("cards") if isinstance(raw, dict) else None
    if not isinstance(entries, list):
        raise CardLibraryError(f"{path}: cards: a card library is a map with a `cards` list")
    out: dict[str, Card] = {}
    for i, entry in enumerate(entries):
        try:
            card = Card.model_validate(entry)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(x) for x in ("cards", i, *err["loc"]))
            raise CardLibraryError(f"{path}: {where}: {err['msg']}") from None
        except ValueError as exc:
            raise CardLibraryError(f"{path}: cards.{i}: {exc}") from None
        out[card.name] = card
    return out


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
