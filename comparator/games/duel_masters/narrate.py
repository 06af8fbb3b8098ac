"""A Duel Masters outcome in words: each event of the attack's log as a sentence, the
steps' titles, and the end state, for `run` and the explanations of `diff`."""

from __future__ import annotations

from typing import Any

from comparator.text.language import N_, _
from comparator.text.narrate import fallback
from comparator.text.phrases import phrase, term, zone_name

STEP_TITLES = {
    "attack": N_("Attack"),
    "block": N_("Block step (ブロッククリーチャー指定ステップ)"),
    "battle": N_("Battle"),
    "direct-attack": N_("Direct attack"),
}


# Duel Masters' own name of a zone (the outcome JSON says "battlefield", as Magic's).
ZONE_WORDS = {"battlefield": N_("battle zone")}


def sentence(e: dict[str, Any]) -> str:
    """An event in words, in the language spoken; names as written."""
    t = e["type"]
    src, tgt, n = e.get("source"), e.get("target"), e.get("amount")
    match t:
        case "blocked":
            return _("{tgt} is blocked by {blockers}").format(
                tgt=tgt, blockers=", ".join(e["blockers"]))
        case "unblocked":
            return _("{tgt} is unblocked").format(tgt=tgt)
        case "trigger":
            return _("{src}'s {condition} ability triggers").format(
                src=src, condition=term(e["condition"], "duel-masters"))
        case "destroy":
            return _("{tgt} is destroyed").format(tgt=tgt)
        case "attack":
            return _("{src} attacks {tgt}").format(src=src, tgt=tgt)
        case "no-attack":
            return _("{src} does not attack {tgt}: {reason}").format(
                src=src, tgt=tgt, reason=phrase(e["reason"]))
        case "redirect":
            return _("{src} uses its {ability} ability: {tgt}'s attack now targets "
                     "{src}").format(src=src, ability=term(e["ability"]), tgt=tgt)
        case "block":
            return _("{src} blocks {tgt}").format(src=src, tgt=tgt)
        case "draw":
            return _("{tgt} draws {n} card(s)").format(tgt=tgt, n=n)
        case "battle":
            return _("{src} ({src_power}) battles {tgt} ({tgt_power})").format(
                src=src, src_power=e["powers"][0], tgt=tgt, tgt_power=e["powers"][1])
        case "no-battle":
            return _("{tgt} is gone: {src} battles nothing").format(tgt=tgt, src=src)
        case "break-shields":
            return _("{src} breaks {n} of {tgt}'s shields (they go to the hand)").format(
                src=src, n=n, tgt=tgt)
        case "wins":
            return _("{tgt} has no shields and the attack wasn't redirected: {src}'s player "
                     "wins").format(tgt=tgt, src=src)
        case "tap":
            return _("{tgt} is tapped").format(tgt=tgt)
        case "ninja-strike":
            return _("{tgt} summons {src} by Ninja Strike (the opponent's creature "
                     "{because})").format(tgt=tgt, src=src, because=term(e["because"]))
        case "ninja-strike-unusable":
            return _("{src} can't use Ninja Strike {n}: {mana} card(s) in the mana "
                     "zone").format(src=src, n=n, mana=e["mana"])
        case "power":
            return _("{tgt} gets +{n} power").format(tgt=tgt, n=n)
    return fallback(e)


def outcome_lines(outcome: dict[str, Any]) -> list[str]:
    lines = []
    for name, p in outcome["players"].items():
        lost = _(" — lost the game") if p["lost"] else ""
        lines.append("  " + _("{name}: {shields} shield(s), {hand} card(s) in hand ({drawn} "
                              "drawn){lost}").format(name=name, shields=p["shields"],
                                                     hand=p["hand"], drawn=p["drawn"],
                                                     lost=lost))
    for pid, p in outcome["permanents"].items():
        tapped = _(", tapped") if p["tapped"] else ""
        lines.append("  " + _("{id} ({controller}): {zone}, power {power}{tapped}").format(
            id=pid, controller=p["controller"], zone=zone_name(p["zone"], ZONE_WORDS),
            power=p["power"],
            tapped=tapped))
    return lines
