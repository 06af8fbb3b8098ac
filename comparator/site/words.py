"""How the site says things: a divergence's field in words ("bear's damage", "B's life")
with its state path kept for whoever wants it, a value as a reader takes it, an outcome as
the terminal's exploration report says it, and Japanese words marked as Japanese."""

from __future__ import annotations

import json
import re
from typing import Any

from comparator.text.language import N_, _, current

# Where a permanent went, said one way on every page: the board's pictures and captions
# say a piece "gone to the graveyard", tables give the zone its one name, "graveyard".
GONE = {"graveyard": N_("gone to the graveyard"), "gone": N_("gone: a token leaves no card"),
        "hand": N_("returned to its owner's hand"), "exile": N_("exiled"),
        # A card that left a multiplayer game with the player who owned it (800.4a).
        "left-game": N_("gone: left the game with its owner")}

# A field of a player or a permanent as a noun; a true-or-false field as what it says.
_NOUNS = {"life": N_("life"), "poison": N_("poison counters"), "damage": N_("damage"),
          "power": N_("power"), "toughness": N_("toughness"), "loyalty": N_("loyalty"),
          "defense": N_("defense"), "zone": N_("zone"), "keywords": N_("keywords"),
          "graveyard": N_("graveyard"), "hand": N_("hand"), "drawn": N_("cards drawn"),
          "shields": N_("shields"), "controller": N_("controller"), "mana": N_("mana pool"),
          "counters": N_("counters"), "attacking": N_("attack"), "blocking": N_("block")}
_WHETHER = {"lost": N_("whether {who} lost the game"), "tapped": N_("whether {who} is tapped"),
            "won": N_("whether {who} won the game")}


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
        return _(_WHETHER[field]).format(who=who)
    if field == "counters" and rest:
        return _("{who}'s {kind} counters").format(who=who, kind=".".join(rest))
    noun = _(_NOUNS[field]) if field in _NOUNS else field.replace("-", " ").replace("_", " ")
    if rest:
        noun = f"{noun} ({'.'.join(rest)})"
    return _("{who}'s {noun}").format(who=who, noun=noun)


def value_words(value: Any, zones: dict[str, str] | None = None) -> str:
    """A field's value as a reader takes it: yes or no, a list of names ("none" for an
    empty one: a graveyard, a keyword list), text bare, anything else as JSON."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    if isinstance(value, str):
        from comparator.text.phrases import zone_name

        return zone_name(value, zones)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return _(", ").join(value) if value else _("none")
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


_ENGLISH = re.compile(r"[A-Za-z]{2,}[,.;:]?\s+[A-Za-z]{2,}")


def japanese(text: Any) -> Any:
    """The text, escaped, each run of Japanese in it marked `<span lang="ja">`: read and
    drawn as Japanese (the CJK font stack of site.css), the English around it as English.
    On a Japanese page, English words with no Japanese among them (a scenario's prose as
    its author wrote it, a source's title) are marked `<span lang="en">` instead. A
    command or a name between backticks, as rulesdiff's sentences write them
    (`rulesdiff rules import`), is code."""
    from markupsafe import Markup

    parts = _TICKED.split("" if text is None else str(text))
    return Markup("").join(Markup("<code>{}</code>").format(part) if i % 2 else _marked(part)
                           for i, part in enumerate(parts))


_TICKED = re.compile(r"`([^`\n]+)`")


def _marked(text: str) -> Any:
    from markupsafe import Markup, escape

    if current() == "ja":
        if not _RUN.search(text) and _ENGLISH.search(text):
            return Markup('<span lang="en">{}</span>').format(text)
        return escape(text)
    out, at = [], 0
    for m in _RUN.finditer(text):
        out.append(escape(text[at:m.start()]))
        out.append(Markup('<span lang="ja">{}</span>').format(m.group(0)))
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)
