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
            what = action_words(a, d.get("target"), scenario)
            if a.effect == "activate":
                return f"{who} activates {_source_name(a, scenario)}'s ability: {what}"
            return f"{who} plays {a.card}: {what}" if a.card else f"{who}: {what}"
        case "pass":
            return f"{who} passes"
        case "trigger-order":
            return f"{who} puts triggers on the stack: " + ", then ".join(d["choice"])
    return json.dumps(d)


def _source_name(a: Any, scenario: Scenario | None) -> str:
    p = scenario.permanent(a.source) if scenario is not None and a.source else None
    return (a.card or (p.card if p is not None else None) or a.source or "its source")


def action_words(a: Any, target: str | None, scenario: Scenario | None = None) -> str:
    """What an action (or an ability) does, as a sentence: "bear gets +3/+3", "wall is
    tapped"; an activation says what its ability does."""
    t = target or "it"
    n = getattr(a, "amount", None)
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
            origin = getattr(a, "from_", None)
            return (f"the next {n} damage {origin} would deal is prevented" if origin
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
            return f"{n} {getattr(a, 'kind', None) or '+1/+1'} counter(s) on {t}"
        case "prevent-all-combat-damage":
            origin = getattr(a, "from_", None)
            return ("all combat damage " + (f"{origin} would deal " if origin else "")
                    + "this turn is prevented")
        case "become-blocked":
            return f"{t} becomes blocked"
        case "enter-blocking":
            return f"{getattr(a, 'id', 'a creature')} enters the battlefield blocking " \
                   f"{getattr(a, 'attacker', 'an attacker')}"
        case "add-mana":
            return f"{getattr(a, 'by', 'its controller')} adds {n} mana"
        case "discard":
            return f"{t} discards a card"
        case "return-creature-cards":
            return "each player returns the creature cards in their graveyard to their hand"
        case "activate":
            p = scenario.permanent(a.source) if scenario is not None else None
            if p is not None and a.ability < len(p.abilities):
                ability = p.abilities[a.ability]
                aimed = a.source if ability.target == "self" else target
                return action_words(ability, aimed, scenario)
            return f"{a.source}'s ability {a.ability}" + (f" on {target}" if target else "")
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
