"""Read an MTGJSON file the user has (`AtomicCards.json` or `AllPrintings.json`; never
downloaded) into a card library of every creature, planeswalker and battle.

What MTGJSON gives is mapped to the scenario vocabulary: name, mana value, colors, types,
power and toughness (`*` is not modelled), loyalty, defense, the keyword abilities the
card's text lists, and its Japanese name where MTGJSON's foreign data has one (`ja-name`,
which `--lang ja` shows). Each line of text is read as a list of keyword abilities ("Flying,
trample", "Rampage 2", "Protection from red", "CARDNAME can't block."); a line that is not
entirely such keywords is kept, whole, as the card's `not-modelled` text, which `run` and
`diff` name when a scenario uses the card.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from decimal import Decimal
from pathlib import Path
from typing import Any

from versions.common import BOUND
from versions.mtg.scenario import COLORS

COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
PERMANENT_TYPES = {"Creature": "creature", "Planeswalker": "planeswalker", "Battle": "battle"}

# A keyword ability as a line of text says it (lower case, reminder text removed, the
# card's own name written CARDNAME) -> the vocabulary's keyword.
PLAIN = {
    "flying": "flying", "reach": "reach", "first strike": "first-strike",
    "double strike": "double-strike", "trample": "trample", "deathtouch": "deathtouch",
    "lifelink": "lifelink", "vigilance": "vigilance", "menace": "menace",
    "defender": "defender", "indestructible": "indestructible", "fear": "fear",
    "shadow": "shadow", "flanking": "flanking", "banding": "banding", "wither": "wither",
    "infect": "infect",
    "cardname can't block": "cant-block",
    "cardname can't be blocked": "unblockable",
    "cardname blocks each combat if able": "must-block",
    "all creatures able to block cardname do so": "lure",
    "cardname can block any number of creatures": "can-block-any-number",
    "cardname can block an additional creature each combat": "can-block-additional",
    "trample over planeswalkers": "trample-over-planeswalkers",
    "cardname can't be blocked by more than one creature": "cant-be-blocked-by-more-than-one",
    "cardname can't attack or block alone": "cant-attack-or-block-alone",
    "cardname can't block unless a creature with greater power also blocks":
        "cant-block-unless-greater-power-blocks",
    "cardname can't be blocked unless all creatures defending player controls block it":
        "must-be-blocked-by-all",
    "you may have cardname assign its combat damage as though it weren't blocked":
        "assign-as-unblocked",
}
EXCEPT_BY = re.compile(r"^cardname can't be blocked except by (two|three|four|five|six|seven) "
                       r"or more creatures$")
NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
# Keywords that change nothing in a combat that begins as blockers are declared (they are
# about casting, or attacking): read, and counted as modelled.
NO_EFFECT_HERE = {"haste", "flash", "cardname attacks each combat if able"}
VALUED = re.compile(r"^(rampage|bushido) (\d+)$")
COLOR = r"(white|blue|black|red|green)"
PROTECTION = re.compile(rf"^protection from {COLOR}((?: and from {COLOR})*)$")
REMINDER = re.compile(r"\s*\([^)]*\)")


class MtgjsonError(Exception):
    """The file is not an MTGJSON card file: the message names the file and the field."""


@dataclass
class Imported:
    cards: list[dict[str, Any]]  # kept only when no `write` takes them as they come
    count: int = 0  # cards read (kept or written)
    creatures: int = 0
    planeswalkers: int = 0
    battles: int = 0
    creatures_fully_modelled: int = 0
    japanese_names: int = 0  # cards kept with their Japanese name
    # "where: field: why" for the first cards of the wrong shape; `skipped_count` counts all
    skipped: list[str] = dataclass_field(default_factory=list)
    skipped_count: int = 0

    def summary(self) -> dict[str, Any]:
        share = (self.creatures_fully_modelled / self.creatures) if self.creatures else 0.0
        return {"cards": self.count, "creatures": self.creatures,
                "planeswalkers": self.planeswalkers, "battles": self.battles,
                "creatures_fully_modelled": self.creatures_fully_modelled,
                "creatures_fully_modelled_share": round(share, 4),
                "japanese_names": self.japanese_names,
                "skipped": self.skipped_count}


# What one card object may hold, by the fields `library_entry` reads: a card with a field of
# another JSON type is skipped with its reason, never trusted.
_TEXT_FIELDS = ("name", "faceName", "type", "text")
_LIST_FIELDS = ("types", "colors")
_NUMBER_FIELDS = ("power", "toughness", "loyalty", "defense")
_VALUE_FIELDS = ("manaValue", "faceManaValue", "convertedManaCost")
MAX_TEXT = 10_000  # a card's rules text is a paragraph
MAX_FOREIGN = 100  # a card's printings in other languages (MTGJSON has about ten)
# The fields of one `foreignData` entry that `library_entry` reads.
_FOREIGN_FIELDS = ("language", "name", "faceName")
JAPANESE = "Japanese"  # MTGJSON's `language` for Japanese printings


def card_problem(card: Any) -> str | None:
    """Why a card object can't be read (a field of the wrong JSON type, a number out of
    bounds, an endless text), or None."""
    if not isinstance(card, dict):
        return "a card is a JSON object"
    if not isinstance(card.get("name"), str) or not card["name"]:
        return "name: a card has a name (a string)"
    for field in _TEXT_FIELDS:
        value = card.get(field)
        if value is not None and not isinstance(value, str):
            return f"{field}: a string, not {type(value).__name__}"
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return f"{field}: longer than {MAX_TEXT} characters"
    for field in _LIST_FIELDS:
        value = card.get(field)
        if value is not None and not (isinstance(value, list) and len(value) <= 50
                                      and all(isinstance(v, str) for v in value)):
            return f"{field}: a list of strings"
    for field in _NUMBER_FIELDS:
        value = card.get(field)
        if value is None or isinstance(value, str) and len(value) <= 20:
            continue  # "*", "1+*", "3": read by library_entry
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal) or \
                abs(value) > BOUND:
            return f"{field}: a number from -{BOUND} to {BOUND}, or a short string"
    for field in _VALUE_FIELDS:
        value = card.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(
                value, int | float | Decimal) or not 0 <= value <= BOUND):
            return f"{field}: a number from 0 to {BOUND}"
    return _foreign_problem(card.get("foreignData"))


def _foreign_problem(foreign: Any) -> str | None:
    """Why a card's `foreignData` (its names in other languages) can't be read, or None."""
    if foreign is None:
        return None
    if not isinstance(foreign, list) or len(foreign) > MAX_FOREIGN:
        return f"foreignData: a list of at most {MAX_FOREIGN} objects"
    for i, entry in enumerate(foreign):
        if not isinstance(entry, dict):
            return f"foreignData.{i}: an object"
        for field in _FOREIGN_FIELDS:
            value = entry.get(field)
            if value is not None and not (isinstance(value, str) and len(value) <= MAX_TEXT):
                return f"foreignData.{i}.{field}: a string of at most {MAX_TEXT} characters"
    return None


def read(path: Path, progress: Callable[[int, int], None] | None = None,
         write: Callable[[dict[str, Any]], None] | None = None) -> Imported:
    """Every creature, planeswalker and battle in the file, once each by name. The file is
    streamed (an AllPrintings.json is hundreds of megabytes): memory holds one card's set
    at a time, and with `write` each card goes out as it is read, none kept. A card of the
    wrong shape is skipped, with its reason (`Imported.skipped`); a file that is not
    MTGJSON is an MtgjsonError naming the file and the field. `progress` is told, now and
    then, the cards kept or skipped so far and the bytes of the file read."""
    import ijson

    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise MtgjsonError(f"{path}: not a regular file")
        f = path.open("rb")
    except OSError as exc:
        raise MtgjsonError(f"{path}: can't read it: {exc.strerror or exc}") from None
    out = Imported([])
    seen: set[str] = set()
    found_data = False
    try:
        with f:
            # use_float: yajl reads numbers natively and refuses an overflowing one (its
            # arbitrary-precision path is not to be trusted with 5,000 digits).
            for entries, (key, value) in enumerate(ijson.kvitems(f, "data", use_float=True)):
                found_data = True
                # Every 10 entries of `data`: a card's name (AtomicCards, 30,000 of them)
                # or a whole set (AllPrintings, 800 in a minute or so).
                if progress and entries % 10 == 0:
                    progress(out.count + out.skipped_count, f.tell())
                for where, card in _card_objects(path, str(key), value):
                    why = card_problem(card)
                    if why is not None:
                        out.skipped_count += 1
                        if len(out.skipped) < 50:
                            out.skipped.append(f"{where}: {why}")
                        continue
                    _add(out, seen, library_entry(card, source=f"MTGJSON {path.name}",
                                                  where=where), write)
    except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError,
            RecursionError, ValueError) as exc:
        raise MtgjsonError(f"{path}: not JSON, or not MTGJSON: "
                           f"{str(exc).splitlines()[0][:200]}") from None
    if not found_data:
        raise MtgjsonError(f"{path}: data: an MTGJSON file has a `data` map (AtomicCards: "
                           f"name -> faces; AllPrintings: set code -> set)")
    return out


def _add(out: Imported, seen: set[str], entry: dict[str, Any] | None,
         write: Callable[[dict[str, Any]], None] | None) -> None:
    if entry is None or entry["name"] in seen:
        return
    seen.add(entry["name"])
    out.count += 1
    out.japanese_names += "ja-name" in entry
    if write is None:
        out.cards.append(entry)
    else:
        write(entry)
    types = entry["types"]
    if "creature" in types:
        out.creatures += 1
        out.creatures_fully_modelled += "not-modelled" not in entry
    if "planeswalker" in types:
        out.planeswalkers += 1
    if "battle" in types:
        out.battles += 1


def _card_objects(path: Path, key: str, value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, list):  # AtomicCards: a card name -> its faces
        faces, where = value, f"data.{key}"
    elif isinstance(value, dict) and isinstance(value.get("cards"), list):  # AllPrintings
        faces, where = value["cards"], f"data.{key}.cards"
    else:
        raise MtgjsonError(f"{path}: data.{key}: neither a card's faces (AtomicCards) nor a "
                           f"set with `cards` (AllPrintings)")
    for i, face in enumerate(faces):
        yield f"{where}.{i}", face


def library_entry(card: dict[str, Any], source: str, where: str = "") -> dict[str, Any] | None:
    """The card library entry of one MTGJSON card object, or None if it is not a creature,
    planeswalker or battle."""
    types = [PERMANENT_TYPES[t] for t in card.get("types") or [] if t in PERMANENT_TYPES]
    if not types:
        return None
    name = card.get("faceName") or card["name"]
    ignored: list[str] = []
    entry: dict[str, Any] = {"name": name}
    if japanese := _japanese_name(card):
        entry["ja-name"] = japanese
    entry.update({
        "types": types,
        "type-line": card.get("type") or " ".join(card.get("types") or []),
    })
    if "Artifact" in (card.get("types") or []):
        entry["artifact"] = True
    value = card.get("faceManaValue", card.get("manaValue", card.get("convertedManaCost")))
    if isinstance(value, int | float):
        entry["mana-value"] = value
    for field in ("power", "toughness", "loyalty", "defense"):
        raw = card.get(field)
        if raw is None:
            continue
        number = _number(raw)
        if number is None:
            ignored.append(f"{field} {raw} (not a fixed number)")
        else:
            entry[field] = number
    entry["colors"] = [COLOR_OF[c] for c in card.get("colors") or [] if c in COLOR_OF]
    keywords, rest = _keywords(card.get("text") or "", name)
    if keywords:
        entry["keywords"] = keywords
    entry["oracle"] = card.get("text") or ""
    ignored += rest
    if ignored:
        entry["not-modelled"] = "; ".join(ignored)
    entry["source"] = f"{source} {where}".strip()
    return entry


def _japanese_name(card: dict[str, Any]) -> str | None:
    """The card's Japanese name, as MTGJSON's foreign data gives it (`foreignData`: each
    language's `name`, and a face's `faceName`), or None. A face of a split or double-faced
    card takes the Japanese face's name only: the whole card's is not the face's."""
    for entry in card.get("foreignData") or []:
        if entry.get("language") != JAPANESE:
            continue
        said = entry.get("faceName") if card.get("faceName") else entry.get("name")
        if isinstance(said, str) and said.strip():
            return said.strip()
    return None


def _number(raw: Any) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int | float | Decimal) and raw == int(raw) and abs(raw) <= BOUND:
        return int(raw)
    if isinstance(raw, str) and re.fullmatch(r"-?\d{1,7}", raw) and abs(int(raw)) <= BOUND:
        return int(raw)
    return None


def _keywords(text: str, name: str) -> tuple[list[Any], list[str]]:
    """The keyword abilities of the card's text, and the lines that are not all keywords."""
    keywords: list[Any] = []
    rest: list[str] = []
    for line in text.splitlines():
        plain = REMINDER.sub("", line).strip()
        if not plain:
            continue
        found = _keyword_line(plain, name)
        if found is None:
            rest.append(line.strip())
        else:
            keywords += found
    return keywords, rest


def _keyword_line(line: str, name: str) -> list[Any] | None:
    said = line.replace(name, "CARDNAME").replace("this creature", "CARDNAME")
    said = said.rstrip(".").lower()
    found: list[Any] = []
    for part in re.split(r",\s*|;\s*", said):
        part = part.strip()
        if part in PLAIN:
            found.append(PLAIN[part])
        elif m := VALUED.match(part):
            found.append({m.group(1): int(m.group(2))})
        elif m := EXCEPT_BY.match(part):
            found.append({"cant-be-blocked-except-by": NUMBERS[m.group(1)]})
        elif part in NO_EFFECT_HERE:
            continue
        elif m := PROTECTION.match(part):
            found += [{"protection": c} for c in re.findall(COLOR, part) if c in COLORS]
        else:
            return None
    return found
