"""The human-readable diff: a table of diverging fields, then what made each era differ."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from comparator.compare.diffing import event_differences, log_difference, value_text, verdict
from comparator.games.registry import game_of
from comparator.text.language import N_, _
from comparator.text.phrases import field_label, note_label, phrase, step_name, title_of
from comparator.text.terminal import columns, cut, plain, say
from versions import eras_of

# The cell of an era that refuses the scenario: why is said under the table.
NOT_RUN = N_("not run")
# A player's fields that list cards by name (said in the language spoken, where known).
CARD_LISTS = ("graveyard", "hand")


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
            lines.append(_("{what}: {said}  [{rule}]").format(
                what=step_name(ev["step"], game), said=sentence(ev),
                rule=phrase(str(ev["rule"]))))
        for n in outcomes[era]["notes"]:
            lines.append(_("{what}: {said}  [{rule}]").format(
                what=note_label(n["type"]), said=phrase(n["text"]),
                rule=phrase(str(n["rule"]))))
        out[era] = lines
    return out


def render(doc: dict[str, Any], scenario: Any, console: Any,
           refused: dict[str, str] | None = None, quotes: Any = None) -> None:
    """`quotes`: a ``comparator.quoting.Quotes`` for --quote, else None."""
    outcomes = doc["outcomes"]
    eras = doc["eras"]
    say(console, f"{doc['scenario']} — {cut(title_of(scenario), 200)}", hang="  ")
    found = doc["divergences"]
    if found:
        # Ids are unique across players and permanents: a row drops the path's first part.
        game = game_of(scenario)
        zones = game.zone_words
        rows = [(d["path"].split(".", 1)[1],
                 {e: value_text(d["values"][e], zones, game.card_name
                                if d["path"].rsplit(".", 1)[-1] in CARD_LISTS else None)
                  for e in eras})
                for d in found]
        # An era that refuses the scenario keeps its column, in the order of history.
        order = list(eras_of(scenario.game))
        columns = sorted([*eras, *(e for e in refused or {} if e not in eras)],
                         key=lambda e: order.index(e) if e in order else len(order))
        rows = [(field_label(f), values) for f, values in rows]
        shown_rows = [(f, {e: values.get(e, _(NOT_RUN)) for e in columns})
                      for f, values in rows]
        if _table_width(shown_rows, columns) <= console.width:
            console.print(_table(shown_rows, columns))
        elif _table_width(rows, eras) <= console.width:
            console.print(_table(rows, eras))
        else:  # too wide for the terminal: each field, its values, the eras of each
            for field, shown in rows:
                by_value: dict[str, list[str]] = {}
                for era, value in shown.items():
                    by_value.setdefault(value, []).append(era)
                say(console, f"{field}: " + _("; ").join(
                    _("{value} in {eras}").format(value=value, eras=", ".join(where))
                    for value, where in by_value.items()))
        for era, lines in explanations(outcomes, game_of(scenario)).items():
            if lines:
                console.print(f"[bold]{era}[/bold]")
                for line in lines:
                    say(console, line, indent="  ")
                    for said in quotes.after(era, line) if quotes else ():
                        say(console, said, indent="      ", hang="")
    apart = event_differences(outcomes)
    if apart and not found:
        say(console, _("the states agree; the event logs differ: {how}").format(
            how=log_difference(outcomes)))
    say(console, verdict(outcomes, found) if outcomes else _("no era can run this scenario"))
    for era, why in (refused or {}).items():
        say(console, _("{era}: not run: {why}").format(era=era, why=phrase(why)))


def _table_width(rows: list[tuple[str, dict[str, str]]], eras: list[str]) -> int:
    """The width the divergence table needs to show every value whole."""
    widths = [max(columns(_("field")), *(columns(f) for f, _shown in rows))] + [
        max(columns(e), *(columns(shown[e]) for _field, shown in rows)) for e in eras]
    return sum(widths) + 3 * len(widths) + 1


def _table(rows: list[tuple[str, dict[str, str]]], eras: list[str]) -> Any:
    from rich.table import Table

    table = Table(show_header=True, header_style="bold")
    table.add_column(_("field"), no_wrap=True)
    for e in eras:
        table.add_column(e, no_wrap=True)
    for field, shown in rows:
        not_run = _(NOT_RUN)
        common, _count = Counter(v for v in shown.values() if v != not_run).most_common(1)[0]
        table.add_row(plain(field), *[f"[dim]{v}[/dim]" if v == not_run else plain(v)
                                      if v == common
                                      else f"[bold yellow]{plain(v)}[/bold yellow]"
                                      for v in shown.values()])
    return table
