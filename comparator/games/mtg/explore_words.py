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
            what = action_words(a, d.get("target"))
            return f"{who} plays {a.card}: {what}" if a.card else f"{who}: {what}"
        case "pass":
            return f"{who} passes"
        case "trigger-order":
            return f"{who} puts triggers on the stack: " + ", then ".join(d["choice"])
    return json.dumps(d)


def action_words(a: Any, target: str | None) -> str:
    """What an action does, as a sentence: "bear gets +3/+3", "wall is tapped"."""
    t = target or "it"
    n = a.amount
    match a.effect:
        case "pump":
            return f"{t} gets {a.power:+d}/{a.toughness:+d}"
        case "damage":
            return f"{n} damage to {t}"
        case "destroy" | "sacrifice" | "bounce" | "tap":
            verb = {"destroy": "destroyed", "sacrifice": "sacrificed",
                    "bounce": "returned to its owner's hand", "tap": "tapped"}[a.effect]
            return f"{t} is {verb}"
        case "regenerate":
            return f"a regeneration shield on {t}"
        case "prevent":
            return (f"the next {n} damage {a.from_} would deal is prevented" if a.from_
                    else f"the next {n} damage to {t} is prevented")
        case "remove-from-combat":
            return f"{t} is removed from combat"
        case "grant":
            return f"{t} gains {a.keyword}"
        case "lose-keyword":
            return f"{t} loses {a.keyword}"
        case "gain-life" | "lose-life":
            return f"{t} {a.effect.split('-')[0]}s {n} life"
        case "counters":
            return f"{n} {a.kind or '+1/+1'} counter(s) on {t}"
        case "prevent-all-combat-damage":
            return ("all combat damage " + (f"{a.from_} would deal " if a.from_ else "")
                    + "this turn is prevented")
        case "become-blocked":
            return f"{t} becomes blocked"
        case "enter-blocking":
            return f"{a.id} enters the battlefield blocking {a.attacker}"
        case "add-mana":
            return f"{a.by} adds {n} mana"
        case "discard":
            return f"{t} discards a card"
        case "activate":
            return f"{a.source} activates its ability {a.ability}" + (
                f" on {target}" if target else "")
    return f"{a.effect} on {t}"


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
