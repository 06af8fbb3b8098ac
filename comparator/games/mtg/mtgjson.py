"""Read an MTGJSON file the user has (`AtomicCards.json` or `AllPrintings.json`; never
downloaded) into a card library of every creature, planeswalker and battle.

What MTGJSON gives is mapped to the scenario vocabulary: name, mana value, colors, types,
power and toughness (`*` is not modelled), loyalty, defense, and the keyword abilities the
card's text lists. Each line of text is read as a list of keyword abilities ("Flying,
trample", "Rampage 2", "Protection from red", "CARDNAME can't block."); a line that is not
entirely such keywords is kept, whole, as the card's `not-modelled` text, which `run` and
`diff` name when a scenario uses the card.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    cards: list[dict[str, Any]]
    creatures: int = 0
    planeswalkers: int = 0
    battles: int = 0
    creatures_fully_modelled: int = 0

    def summary(self) -> dict[str, Any]:
        share = (self.creatures_fully_modelled / self.creatures) if self.creatures else 0.0
        return {"cards": len(self.cards), "creatures": self.creatures,
                "planeswalkers": self.planeswalkers, "battles": self.battles,
                "creatures_fully_modelled": self.creatures_fully_modelled,
                "creatures_fully_modelled_share": round(share, 4)}


def read(path: Path) -> Imported:
    """Every creature, planeswalker and battle in the file, once each by name."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MtgjsonError(f"{path}: can't read it: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MtgjsonError(f"{path}: not JSON: {exc}") from None
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        raise MtgjsonError(f"{path}: data: an MTGJSON file has a `data` map (AtomicCards: "
                           f"name -> faces; AllPrintings: set code -> set)")
    out = Imported([])
    seen: set[str] = set()
    for where, card in _card_objects(path, data):
        entry = library_entry(card, source=f"MTGJSON {path.name}", where=where)
        if entry is None or entry["name"] in seen:
            continue
        seen.add(entry["name"])
        out.cards.append(entry)
        types = entry["types"]
        if "creature" in types:
            out.creatures += 1
            out.creatures_fully_modelled += "not-modelled" not in entry
        if "planeswalker" in types:
            out.planeswalkers += 1
        if "battle" in types:
            out.battles += 1
    return out


def _card_objects(path: Path, data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for key, value in data.items():
        if isinstance(value, list):  # AtomicCards: a card name -> its faces
            faces = value
            where = f"data.{key}"
        elif isinstance(value, dict) and isinstance(value.get("cards"), list):  # AllPrintings
            faces = value["cards"]
            where = f"data.{key}.cards"
        else:
            raise MtgjsonError(f"{path}: data.{key}: neither a card's faces (AtomicCards) nor "
                               f"a set with `cards` (AllPrintings)")
        for i, face in enumerate(faces):
            if not isinstance(face, dict) or not isinstance(face.get("name"), str):
                raise MtgjsonError(f"{path}: {where}.{i}.name: a card has a name")
            yield f"{where}.{i}", face


def library_entry(card: dict[str, Any], source: str, where: str = "") -> dict[str, Any] | None:
    """The card library entry of one MTGJSON card object, or None if it is not a creature,
    planeswalker or battle."""
    types = [PERMANENT_TYPES[t] for t in card.get("types") or [] if t in PERMANENT_TYPES]
    if not types:
        return None
    name = card.get("faceName") or card["name"]
    ignored: list[str] = []
    entry: dict[str, Any] = {
        "name": name, "types": types,
        "type-line": card.get("type") or " ".join(card.get("types") or []),
    }
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


def _number(raw: Any) -> int | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and re.fullmatch(r"-?\d+", raw):
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
