"""A readable narration of one era's outcome: step by step, each line with its rule, in
the words of the scenario's game (``comparator.games``)."""

from __future__ import annotations

from typing import Any


def fallback(e: dict[str, Any]) -> str:
    """An event no sentence is written for: its type and fields, never nothing."""
    return f"{e['type']}: " + ", ".join(f"{k}={v}" for k, v in e.items()
                                        if k not in ("step", "type"))


def narrate(outcome: dict[str, Any], title: str, era_name: str, game: Any) -> str:
    """`game`: the scenario's ``comparator.games.GameAdapter``."""
    sentence, titles = game.sentence, game.step_titles
    lines = [f"{title}", f"era: {outcome['era']} — {era_name}", ""]
    entries: list[tuple[str, str]] = []
    notes_by_step: dict[str, list[dict[str, Any]]] = {}
    for n in outcome["notes"]:
        notes_by_step.setdefault(n.get("step", ""), []).append(n)
    for e in outcome["events"]:
        entries.append((e["step"], f"  {sentence(e)}  [{e['rule']}]"))
    step = None
    shown_notes: set[str] = set()
    for s, line in entries:
        if s != step:
            _flush_notes(lines, notes_by_step.get(step or "", []), shown_notes, step)
            step = s
            lines.append(titles.get(s, s))
        lines.append(line)
    _flush_notes(lines, notes_by_step.get(step or "", []), shown_notes, step)
    for s, notes in notes_by_step.items():
        if s not in shown_notes:
            lines.append(titles.get(s, s))
            _flush_notes(lines, notes, shown_notes, s)
    lines += ["", "Outcome"]
    return "\n".join(lines + game.outcome_lines(outcome))


def _flush_notes(lines: list[str], notes: list[dict[str, Any]], shown: set[str],
                 step: str | None) -> None:
    if step is None or step in shown:
        return
    shown.add(step)
    for n in notes:
        label = "hint" if n["type"] == "hint" else f"note ({n['type']})"
        lines.append(f"  {label}: {n['text']}  [{n['rule']}]")
