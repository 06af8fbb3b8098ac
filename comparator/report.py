"""The human-readable diff: a table of diverging fields, then what made each era differ."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from comparator.diffing import event_differences, log_difference, verdict
from comparator.games import game_of
from comparator.terminal import clean, cut, plain


def _key(e: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in e.items() if k not in ("rule", "step")},
                      sort_keys=True)


def explanations(outcomes: dict[str, dict[str, Any]], game: Any) -> dict[str, list[str]]:
    """For each era, the events not shared by every era that explain a state (`game`'s
    ``explaining``: who dealt what, who died, ...; the rest is noise), and its notes and
    hints."""
    sentence = game.sentence
    eras = list(outcomes)
    keys = {e: Counter(_key(ev) for ev in outcomes[e]["events"]) for e in eras}
    out: dict[str, list[str]] = {}
    for era in eras:
        lines = []
        for ev in outcomes[era]["events"]:
            if ev["type"] not in game.explaining:
                continue
            k = _key(ev)
            if all(keys[o][k] >= keys[era][k] for o in eras):
                continue  # the same thing happened everywhere: it explains nothing
            lines.append(f"{ev['step']}: {sentence(ev)}  [{ev['rule']}]")
        for n in outcomes[era]["notes"]:
            label = "hint" if n["type"] == "hint" else n["type"]
            lines.append(f"{label}: {n['text']}  [{n['rule']}]")
        out[era] = lines
    return out


def _cell(value: Any) -> str:
    """A value as a person reads it: strings bare, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def render(doc: dict[str, Any], scenario: Any, console: Any,
           refused: dict[str, str] | None = None) -> None:
    from rich.table import Table

    outcomes = doc["outcomes"]
    eras = doc["eras"]
    console.print(f"[bold]{plain(doc['scenario'])}[/bold] — {plain(cut(scenario.title, 200))}",
                  highlight=False)
    found = doc["divergences"]
    if found:
        table = Table(show_header=True, header_style="bold")
        # The field names the row: never cut it; values fold instead. Ids are unique across
        # players and permanents, so the row drops the JSON path's first part.
        rows = [(d["path"].split(".", 1)[1], d) for d in found]
        table.add_column("field", no_wrap=True, min_width=max(len(r) for r, _ in rows))
        for e in eras:
            table.add_column(e, overflow="fold", min_width=len(e))
        for row, d in rows:
            shown = {e: _cell(d["values"][e]) for e in eras}
            common, _ = Counter(shown.values()).most_common(1)[0]
            cells = [v if v == common else f"[bold yellow]{v}[/bold yellow]"
                     for v in shown.values()]
            table.add_row(row, *cells)
        console.print(table)
        for era, lines in explanations(outcomes, game_of(scenario)).items():
            if lines:
                console.print(f"[bold]{era}[/bold]")
                for line in lines:
                    console.print(f"  {clean(line)}", markup=False, highlight=False,
                                  soft_wrap=True)
    apart = event_differences(outcomes)
    if apart and not found:
        console.print(clean(f"the states agree; the event logs differ: "
                            f"{log_difference(outcomes)}"), markup=False, highlight=False)
    console.print(verdict(outcomes, found) if outcomes else "no era can run this scenario")
    for era, why in (refused or {}).items():
        console.print(f"{era}: not run: {clean(why)}", markup=False, highlight=False,
                      soft_wrap=True)
