"""The human-readable exploration (explore contract §6.5): each era's value in words with its
line of play, one table of outcomes against eras, and the line that reaches each outcome
only one era reaches."""

from __future__ import annotations

import json
from typing import Any

from comparator.games.registry import game_of
from comparator.text.language import N_, _, current
from comparator.text.messages import message
from comparator.text.phrases import phrase, step_name, title_of
from comparator.text.terminal import clean, columns, cut, plain, say

TABLE_ROWS = 20  # rows shown unless --all
# Outcomes of one era only, each with its line of play, shown unless --all: an era whose
# rules open a whole family of outcomes (before Urza's Saga, trample carrying each excess
# to the player) would otherwise print hundreds of lines. The best-scored come first.
ONLY_IN_SHOWN = 5


def describe_line(line: list[dict[str, Any]], scenario: Any, indent: str) -> list[str]:
    if not line:
        return [indent + _("(no choice: every decision had one option)")]
    game = game_of(scenario)
    return [clean(indent + _("{step}: {said}  [{rule}]").format(
        step=step_name(d["step"], game), said=game.describe_decision(d, scenario),
        rule=phrase(str(d["rule"])))) for d in line]


def flat_state(state: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for kind in ("players", "permanents"):
        for name, fields in state[kind].items():
            for f, v in fields.items():
                out[f"{name}.{f}"] = v
    return out


def varying_fields(flats: list[dict[str, Any]]) -> list[str]:
    """The fields (``flat_state``'s) whose values are not the same in every outcome, a field
    some outcomes lack included: what the table describes outcomes by. Each field's values
    are compared once over all outcomes (not again for every outcome that has it: that
    took seconds for a few hundred)."""
    fields = {f for flat in flats for f in flat}
    return sorted(f for f in fields if len({json.dumps(fl.get(f)) for fl in flats}) > 1)


def cited_in(res: dict[str, Any]) -> list[str]:
    """The rule numbers an era's exploration cites (its notes, its best line), each once."""
    value = res.get("value") or {}
    return list(dict.fromkeys(str(d["rule"]) for d in [*res.get("notes", []),
                                                        *value.get("line", [])]
                              if d.get("rule")))


def render(doc: dict[str, Any], scenario: Any, console: Any, show_all: bool,
           quotes: Any = None) -> None:
    """`quotes`: a ``comparator.quoting.Quotes`` for --quote, else None."""
    from rich.table import Table

    game = game_of(scenario)
    losses, zones = game.losses, game.zone_words
    eras = list(doc["eras"])
    say(console, f"{doc['scenario']} — {cut(title_of(scenario), 200)}", hang="  ")
    say(console, _("objective: {objective} · blocks: {blocks} · fields: {fields}").format(
        objective=doc["objective"], blocks=doc["blocks"], fields=doc["fields"]))
    for era, res in doc["eras"].items():
        console.print()
        console.print(f"[bold]{era}[/bold]" + _(": {lines} line(s) of play, {outcomes} "
                                                "outcome(s)").format(
            lines=res["lines"], outcomes=len(res["outcomes"])), highlight=False)
        for note in res.get("notes", []):  # a trick unavailable or moved, lines refused
            if note["type"] == "lines-refused":
                say(console, _("note: {n} position(s) left out, which {era} refuses: {why}"
                               ).format(n=note["positions"], era=era,
                                        why=message(note["text"])),
                    indent="  ", hang="      ")
                continue
            say(console, _("note: {text}  [{rule}]").format(
                text=message(note["text"]), rule=phrase(str(note["rule"]))),
                indent="  ", hang="      ")
            for said in quotes.after(era, f"[{note['rule']}]") if quotes else ():
                say(console, said, indent="      ", hang="")
        value = res["value"]
        if value is None:
            console.print("  " + _("no legal line of play"), markup=False)
            continue
        say(console, _("with best play: {losses} (score {score})").format(
            losses=losses(value["state"], scenario), score=value["score"]), indent="  ")
        for line in describe_line(value["line"], scenario, ""):
            say(console, line, indent="    ")
            for said in quotes.after(era, line) if quotes else ():
                say(console, said, indent="        ", hang="")

    if not eras:  # every era named refused it (said on stderr): no table of nothing
        console.print()
        say(console, verdict(doc))
        return
    # One row per distinct outcome, over every era, described by the fields that vary.
    rows: dict[str, dict[str, Any]] = {}
    for era, res in doc["eras"].items():
        for i, o in enumerate(res["outcomes"]):
            key = json.dumps(o["state"], sort_keys=True)
            row = rows.setdefault(key, {"state": o["state"], "score": o["score"], "eras": {}})
            row["eras"][era] = (i, o["lines"])
    flats = {k: flat_state(r["state"]) for k, r in rows.items()}
    varying = varying_fields(list(flats.values()))
    ordered = sorted(rows.items(), key=lambda kv: ([-s for s in kv[1]["score"]], kv[0]))
    console.print()
    shown = ordered if show_all else ordered[:TABLE_ROWS]
    described = [(_(", ").join(said_field(f, v, zones) for f in varying  # an absent field: nothing
                               if (v := flats[key].get(f)) is not None) or _("(all alike)"),
                  ",".join(map(str, row["score"])),
                  [str(row["eras"][e][1]) if e in row["eras"] else "—" for e in eras])
                 for key, row in shown]
    fixed = sum(max(len(e), 3) + 3 for e in eras) + columns(_("score")) + 3 + 4
    if console.width - fixed >= 24:  # room enough for the outcomes' words
        table = Table(show_header=True, header_style="bold")
        table.add_column(_("outcome"))
        table.add_column(_("score"), no_wrap=True)
        for era in eras:
            table.add_column(era, justify="right", no_wrap=True)
        for words, score, cells in described:
            table.add_row(plain(words), score, *cells)
        console.print(table)
    else:  # too narrow for a column per era: each outcome, then its score and lines
        for words, score, cells in described:
            say(console, words)
            say(console, _("score {score} · lines: {lines}").format(score=score, lines=", ".join(
                f"{e} {c}" for e, c in zip(eras, cells, strict=True))), indent="  ")
    if len(ordered) > len(shown):
        console.print(_("({n} more outcome(s); --all shows them)").format(
            n=len(ordered) - len(shown)), markup=False)

    # With one era explored, every outcome is "only in" it: there is nothing to compare it
    # with, and the verdict says so (the JSON's `only_in` keeps the contract's indexes).
    for era, indexes in doc["only_in"].items() if len(eras) > 1 else ():
        for i in indexes if show_all else indexes[:ONLY_IN_SHOWN]:
            o = doc["eras"][era]["outcomes"][i]
            console.print()
            key = json.dumps(o["state"], sort_keys=True)
            words = _(", ").join(said_field(f, v, zones) for f in varying
                                 if (v := flats[key].get(f)) is not None)
            say(console, _("only in {era}: {outcome}").format(
                era=era, outcome=words or losses(o["state"], scenario)))
            for line in describe_line(o["example"], scenario, ""):
                say(console, line, indent="    ")
        if not show_all and len(indexes) > ONLY_IN_SHOWN:
            console.print()
            say(console, _("({n} more outcome(s) only {era} reaches; --all shows them)").format(
                n=len(indexes) - ONLY_IN_SHOWN, era=era))
    console.print()
    say(console, verdict(doc))


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def said_field(field: str, value: Any, zones: dict[str, str] | None = None) -> str:
    """One varying field of an outcome as a person says it: "bear graveyard", "B 17 life"
    (in Japanese: "bear：墓地", "B：ライフ17"; `zones`: the game's own names for zones)."""
    name, _dot, what = field.rpartition(".")
    if current() != "en":
        return _said_field(name, what, value, zones)
    if what in ("zone", "controller"):
        return f"{name} {_plain(value)}"
    if what == "lost":
        return f"{name} {'lost' if value else 'did not lose'}"
    if isinstance(value, bool):  # tapped
        return f"{name} {what if value else 'not ' + what}"
    return f"{name} {_plain(value)} {what}"


# An explored outcome's zone beyond the outcome's own: a shinobi summoned by Ninja Strike
# is back in its owner's deck at the end of the turn (Duel Masters).
_ZONES = {"deck": N_("deck")}


def _said_field(name: str, what: str, value: Any, zones: dict[str, str] | None) -> str:
    """``said_field`` in another language: the field named as `diff`'s table names it."""
    from comparator.text.phrases import NOUNS, zone_name

    if what == "zone":
        said = zone_name(value, {**_ZONES, **(zones or {})}) if isinstance(value, str) \
            else _plain(value)
    elif what == "controller":
        said = _("controlled by {player}").format(player=_plain(value))
    elif what == "lost":
        said = _("lost the game") if value else _("did not lose")
    elif what == "tapped" and isinstance(value, bool):
        said = _("tapped") if value else _("untapped")
    else:
        noun = _(NOUNS[what]) if what in NOUNS else what
        said = _("{field} {value}").format(field=noun, value=_plain(value))
    return _("{name}: {said}").format(name=name, said=said)


def verdict(doc: dict[str, Any]) -> str:
    if not doc["eras"]:
        return _("nothing explored: every era named refuses this scenario")
    if len(doc["eras"]) == 1:
        return _("only {era} was explored: nothing to compare").format(
            era=next(iter(doc["eras"])))
    if not doc["diverges"]:
        return _("every era reaches the same outcomes, with the same value")
    only = [e for e, ix in doc["only_in"].items() if ix]
    values = {}
    for e, res in doc["eras"].items():
        v = res["value"]
        values.setdefault(json.dumps(v and [v["score"], v["state"]], sort_keys=True), []).append(e)
    parts = []
    if only:
        parts.append(_("outcomes only some eras reach: {eras}").format(eras=", ".join(
            f"{e} ({len(doc['only_in'][e])})" for e in only)))
    if len(values) > 1:
        parts.append(_("values differ: {eras}").format(
            eras=" ≠ ".join(", ".join(g) for g in values.values())))
    if not parts:
        parts.append(_("the eras reach different sets of outcomes"))
    return _("diverges: {how}").format(how=_("; ").join(parts))
