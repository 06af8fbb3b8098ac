"""A Duel Masters outcome in words: each event of the attack's log as a sentence, the
steps' titles, and the end state, for `run` and the explanations of `diff`."""

from __future__ import annotations

from typing import Any

from comparator.text.narrate import fallback

STEP_TITLES = {
    "attack": "Attack",
    "block": "Block step (ブロッククリーチャー指定ステップ)",
    "battle": "Battle",
    "direct-attack": "Direct attack",
}


def sentence(e: dict[str, Any]) -> str:
    t = e["type"]
    src, tgt, n = e.get("source"), e.get("target"), e.get("amount")
    match t:
        case "blocked":
            return f"{tgt} is blocked by {', '.join(e['blockers'])}"
        case "unblocked":
            return f"{tgt} is unblocked"
        case "trigger":
            return f"{src}'s {e['condition']} ability triggers"
        case "destroy":
            return f"{tgt} is destroyed"
        case "attack":
            return f"{src} attacks {tgt}"
        case "no-attack":
            return f"{src} does not attack {tgt}: {e['reason']}"
        case "redirect":
            return f"{src} uses its {e['ability']} ability: {tgt}'s attack now targets {src}"
        case "block":
            return f"{src} blocks {tgt}"
        case "draw":
            return f"{tgt} draws {n} card(s)"
        case "battle":
            return f"{src} ({e['powers'][0]}) battles {tgt} ({e['powers'][1]})"
        case "no-battle":
            return f"{tgt} is gone: {src} battles nothing"
        case "break-shields":
            return f"{src} breaks {n} of {tgt}'s shields (they go to the hand)"
        case "wins":
            return f"{tgt} has no shields and the attack wasn't redirected: {src}'s player wins"
        case "tap":
            return f"{tgt} is tapped"
        case "ninja-strike":
            return f"{tgt} summons {src} by Ninja Strike (the opponent's creature {e['because']})"
        case "ninja-strike-unusable":
            return f"{src} can't use Ninja Strike {n}: {e['mana']} card(s) in the mana zone"
        case "power":
            return f"{tgt} gets +{n} power"
    return fallback(e)


def outcome_lines(outcome: dict[str, Any]) -> list[str]:
    lines = []
    for name, p in outcome["players"].items():
        lost = " — lost the game" if p["lost"] else ""
        lines.append(f"  {name}: {p['shields']} shield(s), {p['hand']} card(s) in hand "
                     f"({p['drawn']} drawn){lost}")
    for pid, p in outcome["permanents"].items():
        tapped = ", tapped" if p["tapped"] else ""
        lines.append(f"  {pid} ({p['controller']}): {p['zone']}, power {p['power']}{tapped}")
    return lines
