"""A Magic outcome in words: each event of the log as a sentence, the steps' titles, and
the end state, for `run` and the explanations of `diff`."""

from __future__ import annotations

from typing import Any

from comparator.text.narrate import fallback
from versions.mtg.scenario import Window

STEP_TITLES: dict[str, str] = {
    Window.DECLARE_ATTACKERS: "Declare attackers",
    Window.DECLARE_BLOCKERS: "Declare blockers",
    Window.FIRST_STRIKE_DAMAGE_ON_STACK: "First-strike combat damage on the stack",
    Window.FIRST_STRIKE_DAMAGE_PREVENTION: "First-strike damage prevention step",
    Window.FIRST_STRIKE_DAMAGE: "First-strike combat damage",
    Window.DAMAGE_ON_STACK: "Combat damage on the stack",
    Window.DAMAGE_PREVENTION: "Damage prevention step",
    Window.COMBAT_DAMAGE: "Combat damage",
    Window.END_OF_COMBAT: "End of combat",
}

COSTS = {"sacrifice-self": "sacrifice it", "tap": "tap it",
         "sacrifice-creature": "sacrifice a creature", "mana": "pay mana"}


def sentence(e: dict[str, Any]) -> str:
    t = e["type"]
    src, tgt, n = e.get("source"), e.get("target"), e.get("amount")
    card = f" ({e['card']})" if e.get("card") else ""
    match t:
        case "block":
            return f"{src} blocks {tgt}"
        case "blocked":
            return f"{tgt} is blocked by {', '.join(e['blockers'])}"
        case "unblocked":
            return f"{tgt} is unblocked"
        case "damage-assignment-order":
            return f"{src}'s damage assignment order: {' > '.join(e['order'])}"
        case "assign":
            return f"{src} assigns {n} damage to {tgt}"
        case "damage-on-stack":
            return "the combat damage goes on the stack as one object"
        case "damage-prevention-step":
            # Neutral: the damage may be combat damage assigned, or damage trample
            # redirected as the previous step ended (no longer combat damage, C.1.8).
            return ("a damage prevention step: the damage waiting to be dealt can still be "
                    "prevented, and creatures it would destroy regenerated, before it takes "
                    "effect")
        case "tap":
            return f"{tgt} is tapped{card}"
        case "damage":
            kind = "combat damage" if e.get("combat") else "damage"
            return f"{src or 'a spell'} deals {n} {kind} to {tgt}"
        case "prevent":
            why = {"protection": " (protection)",
                   "all-combat-damage": " (all combat damage is prevented this turn)",
                   "from-source": f" ({src}'s prevention shield)"}.get(e.get("reason", ""), "")
            return f"{n} damage to {tgt} is prevented{why}"
        case "exiled":
            return f"{tgt}'s card is exiled from the graveyard{card}"
        case "returned-to-hand":
            return f"{tgt} returns {e.get('what')} from their graveyard to their hand"
        case "stops-being-creature":
            removed = " and is removed from combat" if e.get("removed-from-combat") else ""
            return (f"{tgt} stops being a creature, as {src}, whose effect made it one, "
                    f"leaves the battlefield{removed}")
        case "band-blocked":
            by = f"blocked by {src}" if src else "blocked"
            return f"{tgt} becomes {by} too, as a member of {e.get('band')}'s band"
        case "trample-redirect":
            return (f"trample redirects {n} of {src}'s unprevented damage to {tgt}, what is "
                    f"beyond lethal damage, to {e.get('to')}")
        case "prevention-ends":
            return (f"the prevention of {n} more damage to {tgt} ends with its damage "
                    f"prevention step")
        case "prevent-all-combat-damage":
            whose = f" that {src} would deal" if src else ""
            return f"all combat damage{whose} this turn will be prevented{card}"
        case "trigger":
            about = f" ({e['creature']})" if e.get("creature") else ""
            return f"{src}'s {e['condition']} ability triggers{about}"
        case "resolve":
            return f"{src}'s {e['condition']} ability resolves"
        case "delayed-trigger":
            return f"{src} sets up an end-of-combat trigger"
        case "first-strike-step":
            return f"first-strike damage step for {', '.join(e['creatures'])}"
        case "pump":
            return f"{tgt} gets {e['power']:+d}/{e['toughness']:+d} until end of turn{card}"
        case "grant":
            return f"{tgt} gains {e['keyword']} until end of turn{card}"
        case "destroy":
            return f"{tgt} is destroyed"
        case "dies":
            return f"{tgt} is put into its owner's graveyard"
        case "sacrifice":
            return f"{tgt} is sacrificed{card}"
        case "bounce":
            return f"{tgt} returns to its owner's hand{card}"
        case "regenerate":
            return f"{tgt} regenerates (tapped, damage removed, out of combat)"
        case "regeneration-shield":
            return f"{tgt} gets a regeneration shield{card}"
        case "prevention-shield":
            if tgt is None:
                return f"the next {n} damage {src} would deal will be prevented{card}"
            return f"the next {n} damage to {tgt} will be prevented{card}"
        case "indestructible":
            return f"{tgt} is indestructible and is not destroyed"
        case "remove-from-combat":
            return f"{tgt} is removed from combat{card}"
        case "gain-life":
            return f"{tgt} gains {n} life{card or (f' (from {src})' if src else '')}"
        case "counters":
            kind = e.get("kind", "+1/+1")
            by = f" from {src}'s damage" if src else card
            return f"{tgt} gets {n} {kind} counter(s){by}"
        case "poison":
            return f"{tgt} gets {n} poison counter(s) from {src}'s damage"
        case "defense-removed":
            return f"{n} defense counter(s) are removed from {tgt}"
        case "counters-removed":
            return f"{n} +1/+1 and {n} -1/-1 counter(s) are removed from {tgt}"
        case "lose-life":
            return f"{tgt} loses {n} life{card}"
        case "lose-keyword":
            return f"{tgt} loses {e['keyword']} until end of turn{card}"
        case "add-mana":
            return f"{tgt} adds {n} mana{card}"
        case "discard":
            return f"{tgt} discards {n} card(s){card}"
        case "activate":
            cost = COSTS.get(e.get("cost", ""), e.get("cost", "a cost"))
            return f"{src} activates its ability ({cost}: {e.get('effect', '?')}){card}"
        case "team-damage-to" if e.get("chosen") == "attack":
            return f"{src} attacks {tgt}, named as attackers were declared: its damage goes there"
        case "team-damage-to":
            return f"the active team chooses {tgt}, of the defending team, for {src}'s damage"
        case "declares-blockers":
            return f"{tgt} declares blockers: {', '.join(e['blockers']) or 'none'}"
        case "leaves-game":
            left = ", ".join(e["permanents"])
            return f"{tgt} leaves the game" + (f", and {left} with them" if left else "")
        case "loses" if "team" in e:
            return f"{tgt} loses the game with their team ({e['team']})"
        case "loses":
            if "poison" in e:
                return f"{tgt} has {e['poison']} poison counters and loses the game"
            return f"{tgt} has {e['life']} life and loses the game"
        case "becomes-blocked":
            return f"{tgt} becomes blocked{card}"
        case "enter-blocking":
            return f"{tgt} enters the battlefield blocking {e['attacker']}{card}"
        case "block-cost":
            return f"{tgt} must pay {n} mana in costs to block"
        case "pay":
            return f"{tgt} pays {n} mana"
        case "end-of-combat":
            return "end of combat step begins"
    return fallback(e)


def outcome_lines(outcome: dict[str, Any]) -> list[str]:
    lines = []
    for name, p in outcome["players"].items():
        lost = " — lost the game" if p["lost"] else ""
        poison = f", {p['poison']} poison" if p.get("poison") else ""
        lines.append(f"  {name}: {p['life']} life{poison}{lost}")
    for pid, p in outcome["permanents"].items():
        stats = f"{p['power']}/{p['toughness']}"
        extra = f", {p['damage']} damage" if p["damage"] else ""
        extra += ", tapped" if p["tapped"] else ""
        extra += f", loyalty {p['loyalty']}" if p["loyalty"] is not None else ""
        extra += f", defense {p['defense']}" if p.get("defense") is not None else ""
        extra += "".join(f", {n} {k} counter(s)" for k, n in p.get("counters", {}).items())
        lines.append(f"  {pid} ({p['controller']}): {p['zone']}, {stats}{extra}")
    return lines
