"""A readable narration of one era's outcome: step by step, each line with its rule, in
the words of the scenario's game (``comparator.games``)."""

from __future__ import annotations

from typing import Any

from comparator.text.language import _
from comparator.text.phrases import note_label, phrase


def fallback(e: dict[str, Any]) -> str:
    """An event no sentence is written for: its type and fields, never nothing."""
    return f"{e['type']}: " + ", ".join(f"{k}={v}" for k, v in e.items()
                                        if k not in ("step", "type"))


def narrate(outcome: dict[str, Any], title: str, era_name: str, game: Any) -> str:
    """`game`: the scenario's ``comparator.games.GameAdapter``."""
    sentence, titles = game.sentence, game.step_titles
    lines = [f"{title}", _("era: {era} — {name}").format(era=outcome["era"], name=_(era_name)),
             ""]
    entries: list[tuple[str, str]] = []
    notes_by_step: dict[str, list[dict[str, Any]]] = {}
    for n in outcome["notes"]:
        notes_by_step.setdefault(n.get("step", ""), []).append(n)
    for e in outcome["events"]:
        entries.append((e["step"], f"  {sentence(e)}  [{phrase(str(e['rule']))}]"))
    step = None
    shown_notes: set[str] = set()
    for s, line in entries:
        if s != step:
            _flush_notes(lines, notes_by_step.get(step or "", []), shown_notes, step)
            step = s
            lines.append(_(titles[s]) if s in titles else s)
        lines.append(line)
    _flush_notes(lines, notes_by_step.get(step or "", []), shown_notes, step)
    for s, notes in notes_by_step.items():
        if s not in shown_notes:
            lines.append(_(titles[s]) if s in titles else s)
            _flush_notes(lines, notes, shown_notes, s)
    lines += ["", _("Outcome")]
    return "\n".join(lines + game.outcome_lines(outcome))


def _flush_notes(lines: list[str], notes: list[dict[str, Any]], shown: set[str],
                 step: str | None) -> None:
    if step is None or step in shown:
        return
    shown.add(step)
    for n in notes:
        label = _("hint") if n["type"] == "hint" else _("note ({kind})").format(
            kind=note_label(n["type"]))
        lines.append("  " + _("{what}: {said}  [{rule}]").format(
            what=label, said=phrase(n["text"]), rule=phrase(str(n["rule"]))))
