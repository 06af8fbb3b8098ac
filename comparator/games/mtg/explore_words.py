"""A Magic line of play and outcome in words, for explore's human report."""

from __future__ import annotations

import json
from typing import Any

from versions.mtg.scenario import Scenario


def describe_decision(d: dict[str, Any], scenario: Scenario) -> str:
    who = d["player"]
    match d["kind"]:
        case "blocks":
            pairs = [f"{b} blocks {a if isinstance(a, str) else ', '.join(a)}"
                     for b, a in d["choice"].items()]
            return f"{who} declares blocks: " + ("; ".join(pairs) if pairs else "no blocks")
        case "order":
            return f"{who} orders {d['creature']}'s damage: " + ", then ".join(d["choice"])
        case "divide":
            parts = ", ".join(f"{n} to {k}" for k, n in d["choice"].items()) or "nothing"
            return f"{who} divides {d['creature']}'s combat damage: {parts}"
        case "act":
            a = scenario.actions[d["action"]]
            what = a.card or a.effect
            on = f" on {d['target']}" if d.get("target") else ""
            return f"{who} takes action {d['action']} ({what}{on})"
        case "pass":
            return f"{who} passes"
        case "trigger-order":
            return f"{who} puts triggers on the stack: " + ", then ".join(d["choice"])
    return json.dumps(d)


def losses(state: dict[str, Any], scenario: Scenario) -> str:
    """Who loses what in this outcome, in words."""
    start = {p.name: p.life for p in scenario.players}
    parts = []
    for p in scenario.players:
        mine = [pid for pid, s in state["permanents"].items()
                if s.get("controller") == p.name and s.get("zone") != "battlefield"]
        life = state["players"][p.name]["life"]
        bits = []
        if state["players"][p.name]["lost"]:
            bits.append("the game")
        if mine:
            bits.append(", ".join(mine))
        if life < start[p.name]:
            bits.append(f"{start[p.name] - life} life")
        elif life > start[p.name]:
            bits.append(f"nothing, and gains {life - start[p.name]} life")
        parts.append(f"{p.name} loses {' and '.join(bits) if bits else 'nothing'}")
    return "; ".join(parts)
