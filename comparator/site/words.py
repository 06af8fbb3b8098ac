"""How the site says things: a divergence's field in words ("bear's damage", "B's life")
with its state path kept for whoever wants it, a value as a reader takes it, an outcome as
the terminal's exploration report says it, and Japanese words marked as Japanese."""

from __future__ import annotations

import json
import re
from typing import Any

# Where a permanent went, said one way on every page: the board's pictures and captions
# say a piece "gone to the graveyard", tables give the zone its one name, "graveyard".
GONE = {"graveyard": "gone to the graveyard", "gone": "gone: a token leaves no card",
        "hand": "returned to its owner's hand", "exile": "exiled",
        # A card that left a multiplayer game with the player who owned it (800.4a).
        "left-game": "gone: left the game with its owner"}

# A field of a player or a permanent as a noun; a true-or-false field as what it says.
_NOUNS = {"life": "life", "poison": "poison counters", "damage": "damage",
          "power": "power", "toughness": "toughness", "loyalty": "loyalty",
          "defense": "defense", "zone": "zone", "keywords": "keywords",
          "graveyard": "graveyard", "hand": "hand", "drawn": "cards drawn",
          "shields": "shields", "controller": "controller", "mana": "mana pool",
          "counters": "counters", "attacking": "attack", "blocking": "block"}
_WHETHER = {"lost": "lost the game", "tapped": "is tapped", "won": "won the game"}


def field_words(path: str) -> str:
    """A state path as a person says it: "permanents.bear.damage" -> "bear's damage",
    "players.B.life" -> "B's life", "permanents.x.counters.+1/+1" -> "x's +1/+1
    counters", "players.B.lost" -> "whether B lost the game". A path of another shape is
    given as it is."""
    parts = path.split(".")
    if len(parts) < 3 or parts[0] not in ("players", "permanents"):
        return path
    who, field, rest = parts[1], parts[2], parts[3:]
    if field in _WHETHER and not rest:
        return f"whether {who} {_WHETHER[field]}"
    if field == "counters" and rest:
        return f"{who}'s {'.'.join(rest)} counters"
    noun = _NOUNS.get(field, field.replace("-", " ").replace("_", " "))
    if rest:
        noun = f"{noun} ({'.'.join(rest)})"
    return f"{who}'s {noun}"


def value_words(value: Any) -> str:
    """A field's value as a reader takes it: yes or no, a list of names ("none" for an
    empty one: a graveyard, a keyword list), text bare, anything else as JSON."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value) if value else "none"
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def field(path: str) -> dict[str, str]:
    """What a template shows of a divergence's field: its words and its state path."""
    return {"words": field_words(path), "path": path}


# -- explored outcomes, as the terminal's report says them --------------------------------


def outcomes(explored: dict[str, dict[str, Any]], losses: Any) -> dict[str, Any]:
    """Every distinct outcome the eras' players can reach, described by the fields that
    vary among them (the terminal report's words: "B 17 life, w1 graveyard"), best scored
    first, each with the eras that reach it and by how many lines of play. `losses` says
    an outcome in words where no field varies (one outcome in all)."""
    from comparator.explore import report

    rows: dict[str, dict[str, Any]] = {}
    for era, res in explored.items():
        for o in res["outcomes"]:
            key = json.dumps(o["state"], sort_keys=True)
            row = rows.setdefault(key, {"state": o["state"], "score": o["score"],
                                        "eras": {}})
            row["eras"][era] = o["lines"]
    flats = {k: report.flat_state(r["state"]) for k, r in rows.items()}
    varying = report.varying_fields(list(flats.values()))
    ordered = sorted(rows.items(), key=lambda kv: ([-s for s in kv[1]["score"]], kv[0]))
    eras = list(explored)
    out = []
    for key, row in ordered:
        said = ", ".join(report.said_field(f, v) for f in varying
                         if (v := flats[key].get(f)) is not None)
        out.append({"words": said or losses(row["state"]), "eras": row["eras"],
                    "everywhere": len(row["eras"]) == len(eras)})
    return {"rows": out, "eras": eras}


# -- Japanese --------------------------------------------------------------------------------

# Kana, the CJK ideographs, their punctuation and full-width forms; a run of them may hold
# digits, spaces and ASCII punctuation between them ("507.1a の 1 体以上").
_JA = "\u3000-\u303f\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff" \
      "\uf900-\ufaff\uff00-\uffef"
_RUN = re.compile(rf"[{_JA}](?:[{_JA}0-9\s.,:;!?/()\[\]'\"・-]*[{_JA}])?")


def japanese(text: Any) -> Any:
    """The text, escaped, each run of Japanese in it marked `<span lang="ja">`: read and
    drawn as Japanese (the CJK font stack of site.css), the English around it as English."""
    from markupsafe import Markup, escape

    text = "" if text is None else str(text)
    out, at = [], 0
    for m in _RUN.finditer(text):
        out.append(escape(text[at:m.start()]))
        out.append(Markup('<span lang="ja">{}</span>').format(m.group(0)))
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)
