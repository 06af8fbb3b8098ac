"""A Magic outcome in words: each event of the log as a sentence, the steps' titles, and
the end state, for `run` and the explanations of `diff`."""

from __future__ import annotations

from typing import Any

from comparator.games.mtg.cards import card_name
from comparator.text.language import N_, _
from comparator.text.narrate import fallback
from comparator.text.phrases import term, zone_name
from versions.mtg.scenario import Window

STEP_TITLES: dict[str, str] = {
    Window.DECLARE_ATTACKERS: N_("Declare attackers"),
    Window.DECLARE_BLOCKERS: N_("Declare blockers"),
    Window.FIRST_STRIKE_DAMAGE_ON_STACK: N_("First-strike combat damage on the stack"),
    Window.FIRST_STRIKE_DAMAGE_PREVENTION: N_("First-strike damage prevention step"),
    Window.FIRST_STRIKE_DAMAGE: N_("First-strike combat damage"),
    Window.DAMAGE_ON_STACK: N_("Combat damage on the stack"),
    Window.DAMAGE_PREVENTION: N_("Damage prevention step"),
    Window.COMBAT_DAMAGE: N_("Combat damage"),
    Window.END_OF_COMBAT: N_("End of combat"),
}

COSTS = {"sacrifice-self": N_("sacrifice it"), "tap": N_("tap it"),
         "sacrifice-creature": N_("sacrifice a creature"), "mana": N_("pay mana")}


def sentence(e: dict[str, Any]) -> str:
    """An event in words, in the language spoken; names as written (ids), but a card of the
    library under its Japanese name under Japanese, where it has one."""
    t = e["type"]
    src, tgt, n = e.get("source"), e.get("target"), e.get("amount")
    card = _(" ({card})").format(card=card_name(e["card"])) if e.get("card") else ""
    w = _words(e, t, src, tgt, n, card)
    return fallback(e) if w is None else w


def _words(e: dict[str, Any], t: str, src: Any, tgt: Any, n: Any, card: str) -> str | None:
    match t:
        case "block":
            return _("{src} blocks {tgt}").format(src=src, tgt=tgt)
        case "blocked":
            return _("{tgt} is blocked by {blockers}").format(
                tgt=tgt, blockers=", ".join(e["blockers"]))
        case "unblocked":
            return _("{tgt} is unblocked").format(tgt=tgt)
        case "damage-assignment-order":
            return _("{src}'s damage assignment order: {order}").format(
                src=src, order=" > ".join(e["order"]))
        case "assign":
            return _("{src} assigns {n} damage to {tgt}").format(src=src, n=n, tgt=tgt)
        case "damage-on-stack":
            return _("the combat damage goes on the stack as one object")
        case "damage-prevention-step":
            # Neutral: the damage may be combat damage assigned, or damage trample
            # redirected as the previous step ended (no longer combat damage, C.1.8).
            return _("a damage prevention step: the damage waiting to be dealt can still be "
                     "prevented, and creatures it would destroy regenerated, before it takes "
                     "effect")
        case "tap":
            return _("{tgt} is tapped{card}").format(tgt=tgt, card=card)
        case "damage":
            template = (N_("{src} deals {n} combat damage to {tgt}") if e.get("combat")
                        else N_("{src} deals {n} damage to {tgt}"))
            return _(template).format(src=src or _("a spell"), n=n, tgt=tgt)
        case "prevent":
            why = {"protection": _(" (protection)"),
                   "all-combat-damage": _(" (all combat damage is prevented this turn)"),
                   "from-source": _(" ({src}'s prevention shield)").format(src=src)
                   }.get(e.get("reason", ""), "")
            return _("{n} damage to {tgt} is prevented{why}").format(n=n, tgt=tgt, why=why)
        case "exiled":
            return _("{tgt}'s card is exiled from the graveyard{card}").format(tgt=tgt,
                                                                                card=card)
        case "returned-to-hand":
            return _("{tgt} returns {what} from their graveyard to their hand").format(
                tgt=tgt, what=card_name(e.get("what")))
        case "stops-being-creature":
            template = (N_("{tgt} stops being a creature, as {src}, whose effect made it one, "
                           "leaves the battlefield and is removed from combat")
                        if e.get("removed-from-combat") else
                        N_("{tgt} stops being a creature, as {src}, whose effect made it one, "
                           "leaves the battlefield"))
            return _(template).format(tgt=tgt, src=src)
        case "band-blocked":
            template = (N_("{tgt} becomes blocked by {src} too, as a member of {band}'s band")
                        if src else
                        N_("{tgt} becomes blocked too, as a member of {band}'s band"))
            return _(template).format(tgt=tgt, src=src, band=e.get("band"))
        case "trample-redirect":
            return _("trample redirects {n} of {src}'s unprevented damage to {tgt}, what is "
                     "beyond lethal damage, to {to}").format(n=n, src=src, tgt=tgt,
                                                             to=e.get("to"))
        case "prevention-ends":
            return _("the prevention of {n} more damage to {tgt} ends with its damage "
                     "prevention step").format(n=n, tgt=tgt)
        case "prevent-all-combat-damage":
            template = (N_("all combat damage that {src} would deal this turn will be "
                           "prevented{card}") if src else
                        N_("all combat damage this turn will be prevented{card}"))
            return _(template).format(src=src, card=card)
        case "trigger":
            about = _(" ({creature})").format(creature=e["creature"]) if e.get("creature") \
                else ""
            return _("{src}'s {condition} ability triggers{about}").format(
                src=src, condition=term(e["condition"]), about=about)
        case "resolve":
            return _("{src}'s {condition} ability resolves").format(
                src=src, condition=term(e["condition"]))
        case "delayed-trigger":
            return _("{src} sets up an end-of-combat trigger").format(src=src)
        case "first-strike-step":
            return _("first-strike damage step for {creatures}").format(
                creatures=", ".join(e["creatures"]))
        case "pump":
            return _("{tgt} gets {power}/{toughness} until end of turn{card}").format(
                tgt=tgt, power=f"{e['power']:+d}", toughness=f"{e['toughness']:+d}",
                card=card)
        case "grant":
            return _("{tgt} gains {keyword} until end of turn{card}").format(
                tgt=tgt, keyword=term(e["keyword"]), card=card)
        case "destroy":
            return _("{tgt} is destroyed").format(tgt=tgt)
        case "dies":
            return _("{tgt} is put into its owner's graveyard").format(tgt=tgt)
        case "sacrifice":
            return _("{tgt} is sacrificed{card}").format(tgt=tgt, card=card)
        case "bounce":
            return _("{tgt} returns to its owner's hand{card}").format(tgt=tgt, card=card)
        case "regenerate":
            return _("{tgt} regenerates (tapped, damage removed, out of combat)").format(
                tgt=tgt)
        case "regeneration-shield":
            return _("{tgt} gets a regeneration shield{card}").format(tgt=tgt, card=card)
        case "prevention-shield":
            if tgt is None:
                return _("the next {n} damage {src} would deal will be prevented{card}").format(
                    n=n, src=src, card=card)
            return _("the next {n} damage to {tgt} will be prevented{card}").format(
                n=n, tgt=tgt, card=card)
        case "indestructible":
            return _("{tgt} is indestructible and is not destroyed").format(tgt=tgt)
        case "remove-from-combat":
            return _("{tgt} is removed from combat{card}").format(tgt=tgt, card=card)
        case "gain-life":
            whence = card or (_(" (from {src})").format(src=src) if src else "")
            return _("{tgt} gains {n} life{whence}").format(tgt=tgt, n=n, whence=whence)
        case "counters":
            by = _(" from {src}'s damage").format(src=src) if src else card
            return _("{tgt} gets {n} {kind} counter(s){by}").format(
                tgt=tgt, n=n, kind=e.get("kind", "+1/+1"), by=by)
        case "poison":
            return _("{tgt} gets {n} poison counter(s) from {src}'s damage").format(
                tgt=tgt, n=n, src=src)
        case "defense-removed":
            return _("{n} defense counter(s) are removed from {tgt}").format(n=n, tgt=tgt)
        case "counters-removed":
            return _("{n} +1/+1 and {n} -1/-1 counter(s) are removed from {tgt}").format(
                n=n, tgt=tgt)
        case "lose-life":
            return _("{tgt} loses {n} life{card}").format(tgt=tgt, n=n, card=card)
        case "lose-keyword":
            return _("{tgt} loses {keyword} until end of turn{card}").format(
                tgt=tgt, keyword=term(e["keyword"]), card=card)
        case "add-mana":
            return _("{tgt} adds {n} mana{card}").format(tgt=tgt, n=n, card=card)
        case "discard":
            return _("{tgt} discards {n} card(s){card}").format(tgt=tgt, n=n, card=card)
        case "activate":
            cost = e.get("cost", "")
            cost = _(COSTS[cost]) if cost in COSTS else cost or _("a cost")
            return _("{src} activates its ability ({cost}: {effect}){card}").format(
                src=src, cost=cost, effect=e.get("effect", "?"), card=card)
        case "team-damage-to" if e.get("chosen") == "attack":
            return _("{src} attacks {tgt}, named as attackers were declared: its damage goes "
                     "there").format(src=src, tgt=tgt)
        case "team-damage-to":
            return _("the active team chooses {tgt}, of the defending team, for {src}'s "
                     "damage").format(tgt=tgt, src=src)
        case "declares-blockers":
            return _("{tgt} declares blockers: {blockers}").format(
                tgt=tgt, blockers=", ".join(e["blockers"]) or _("none"))
        case "leaves-game":
            left = ", ".join(e["permanents"])
            if left:
                return _("{tgt} leaves the game, and {left} with them").format(tgt=tgt,
                                                                              left=left)
            return _("{tgt} leaves the game").format(tgt=tgt)
        case "loses" if "team" in e:
            return _("{tgt} loses the game with their team ({team})").format(tgt=tgt,
                                                                             team=e["team"])
        case "loses":
            if "poison" in e:
                return _("{tgt} has {poison} poison counters and loses the game").format(
                    tgt=tgt, poison=e["poison"])
            return _("{tgt} has {life} life and loses the game").format(tgt=tgt,
                                                                        life=e["life"])
        case "becomes-blocked":
            return _("{tgt} becomes blocked{card}").format(tgt=tgt, card=card)
        case "enter-blocking":
            return _("{tgt} enters the battlefield blocking {attacker}{card}").format(
                tgt=tgt, attacker=e["attacker"], card=card)
        case "block-cost":
            return _("{tgt} must pay {n} mana in costs to block").format(tgt=tgt, n=n)
        case "pay":
            return _("{tgt} pays {n} mana").format(tgt=tgt, n=n)
        case "end-of-combat":
            return _("end of combat step begins")
    return None


def outcome_lines(outcome: dict[str, Any]) -> list[str]:
    lines = []
    for name, p in outcome["players"].items():
        lost = _(" — lost the game") if p["lost"] else ""
        poison = _(", {n} poison").format(n=p["poison"]) if p.get("poison") else ""
        lines.append("  " + _("{name}: {life} life{poison}{lost}").format(
            name=name, life=p["life"], poison=poison, lost=lost))
    for pid, p in outcome["permanents"].items():
        stats = f"{p['power']}/{p['toughness']}"
        extra = _(", {n} damage").format(n=p["damage"]) if p["damage"] else ""
        extra += _(", tapped") if p["tapped"] else ""
        extra += _(", loyalty {n}").format(n=p["loyalty"]) if p["loyalty"] is not None else ""
        extra += _(", defense {n}").format(n=p["defense"]) \
            if p.get("defense") is not None else ""
        extra += "".join(_(", {n} {kind} counter(s)").format(n=n, kind=k)
                         for k, n in p.get("counters", {}).items())
        lines.append("  " + _("{id} ({controller}): {zone}, {stats}{extra}").format(
            id=pid, controller=p["controller"], zone=zone_name(p["zone"]), stats=stats,
            extra=extra))
    return lines
