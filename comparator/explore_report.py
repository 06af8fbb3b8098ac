"""The human-readable exploration (explore contract §6.5): each era's value in words with its
line of play, one table of outcomes against eras, and the line that reaches each outcome
only one era reaches."""

from __future__ import annotations

import json
import textwrap
from typing import Any

from comparator.games import game_of
from comparator.terminal import clean, cut, plain

TABLE_ROWS = 20  # rows shown unless --all


def describe_line(line: list[dict[str, Any]], scenario: Any, indent: str) -> list[str]:
    if not line:
        return [f"{indent}(no choice: every decision had one option)"]
    describe = game_of(scenario).describe_decision
    return [clean(f"{indent}{d['step']}: {describe(d, scenario)}  [{d['rule']}]")
            for d in line]


def _flat(state: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for kind in ("players", "permanents"):
        for name, fields in state[kind].items():
            for f, v in fields.items():
                out[f"{name}.{f}"] = v
    return out


def render(doc: dict[str, Any], scenario: Any, console: Any, show_all: bool) -> None:
    from rich.table import Table

    losses = game_of(scenario).losses
    eras = list(doc["eras"])
    console.print(f"[bold]{plain(doc['scenario'])}[/bold] — {plain(cut(scenario.title, 200))}",
                  highlight=False)
    console.print(f"objective: {doc['objective']} · blocks: {doc['blocks']} · "
                  f"fields: {doc['fields']}", markup=False, highlight=False)
    for era, res in doc["eras"].items():
        console.print()
        console.print(f"[bold]{era}[/bold]: {res['lines']} line(s) of play, "
                      f"{len(res['outcomes'])} outcome(s)", highlight=False)
        for note in res.get("notes", []):  # a trick unavailable or moved in this era
            for line in textwrap.wrap(clean(f"{note['text']}  [{note['rule']}]"),
                                      width=max(console.width, 40), initial_indent="  note: ",
                                      subsequent_indent="        "):
                console.print(line, markup=False, highlight=False)
        value = res["value"]
        if value is None:
            console.print("  no legal line of play", markup=False)
            continue
        console.print(clean(f"  with best play: {losses(value['state'], scenario)} "
                            f"(score {value['score']})"), markup=False, highlight=False)
        for line in describe_line(value["line"], scenario, "    "):
            console.print(line, markup=False, highlight=False, soft_wrap=True)

    # One row per distinct outcome, over every era, described by the fields that vary.
    rows: dict[str, dict[str, Any]] = {}
    for era, res in doc["eras"].items():
        for i, o in enumerate(res["outcomes"]):
            key = json.dumps(o["state"], sort_keys=True)
            row = rows.setdefault(key, {"state": o["state"], "score": o["score"], "eras": {}})
            row["eras"][era] = (i, o["lines"])
    flats = {k: _flat(r["state"]) for k, r in rows.items()}
    varying = sorted({f for flat in flats.values() for f in flat
                      if len({json.dumps(fl.get(f)) for fl in flats.values()}) > 1})
    ordered = sorted(rows.items(), key=lambda kv: ([-s for s in kv[1]["score"]], kv[0]))
    console.print()
    table = Table(show_header=True, header_style="bold")
    table.add_column("outcome", overflow="fold")
    table.add_column("score", no_wrap=True)
    for era in eras:
        table.add_column(era, justify="right", min_width=len(era))
    shown = ordered if show_all else ordered[:TABLE_ROWS]
    for key, row in shown:
        # A field an outcome doesn't have (a destroyed creature's `tapped`) says nothing.
        words = ", ".join(_words(f, v) for f in varying
                          if (v := flats[key].get(f)) is not None) or "(all alike)"
        cells = [str(row["eras"][e][1]) if e in row["eras"] else "—" for e in eras]
        table.add_row(words, ",".join(map(str, row["score"])), *cells)
    console.print(table)
    if len(ordered) > len(shown):
        console.print(f"({len(ordered) - len(shown)} more outcome(s); --all shows them)",
                      markup=False)

    for era, indexes in doc["only_in"].items():
        for i in indexes:
            o = doc["eras"][era]["outcomes"][i]
            console.print()
            key = json.dumps(o["state"], sort_keys=True)
            words = ", ".join(_words(f, v) for f in varying
                              if (v := flats[key].get(f)) is not None)
            console.print(clean(f"only in {era}: {words or losses(o['state'], scenario)}"),
                          markup=False, highlight=False)
            for line in describe_line(o["example"], scenario, "    "):
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print()
    console.print(verdict(doc), markup=False, highlight=False)


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _words(field: str, value: Any) -> str:
    """One varying field of an outcome as a person says it: "bear graveyard", "B 17 life"."""
    name, _, what = field.rpartition(".")
    if what in ("zone", "controller"):
        return f"{name} {_plain(value)}"
    if what == "lost":
        return f"{name} {'lost' if value else 'did not lose'}"
    if isinstance(value, bool):  # tapped
        return f"{name} {what if value else 'not ' + what}"
    return f"{name} {_plain(value)} {what}"


def verdict(doc: dict[str, Any]) -> str:
    if not doc["diverges"]:
        return "every era reaches the same outcomes, with the same value"
    only = [e for e, ix in doc["only_in"].items() if ix]
    values = {}
    for e, res in doc["eras"].items():
        v = res["value"]
        values.setdefault(json.dumps(v and [v["score"], v["state"]], sort_keys=True), []).append(e)
    parts = []
    if only:
        parts.append("outcomes only some eras reach: " + ", ".join(
            f"{e} ({len(doc['only_in'][e])})" for e in only))
    if len(values) > 1:
        parts.append("values differ: " + " ≠ ".join(", ".join(g) for g in values.values()))
    if not parts:
        parts.append("the eras reach different sets of outcomes")
    return "diverges: " + "; ".join(parts)
