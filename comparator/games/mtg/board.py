"""A Magic board as a picture shows it (``comparator.games.board``): each player's life and
poison, each permanent with its power and toughness (a planeswalker's loyalty, a battle's
defense), keywords, tapped and damage; who attacks what and who blocks whom. After combat,
from an era's outcome: what died (and where it went), damage marked, life changed."""

from __future__ import annotations

from typing import Any

from comparator.games.board import Board, Link, Piece, every_side, keyword_words
from comparator.games.mtg.cards import card_name
from comparator.text.language import N_, _


def board(scenario: dict[str, Any], outcome: dict[str, Any] | None = None) -> Board:
    top, bottom, extra = every_side(scenario, outcome, _piece, _player_lines)
    combat = scenario.get("combat", {})
    links = [Link(a, t, "attacks") for a, t in combat.get("attacks", {}).items()]
    for blocker, blocked in combat.get("blocks", {}).items():
        for attacker in blocked if isinstance(blocked, list) else [blocked]:
            links.append(Link(blocker, attacker, "blocks"))
    return Board(top, bottom, links, extra)


def _piece(p: dict[str, Any], after: dict[str, Any] | None) -> Piece:
    now = {**p, **{k: v for k, v in (after or {}).items() if v is not None}}
    # What combat did first (damage, tapped), then what the card is.
    notes = [_("{n} damage").format(n=now["damage"])] if now.get("damage") else []
    if now.get("tapped"):
        notes.append(_("tapped"))
    if p.get("card") and p.get("card") != p["id"]:
        notes.append(card_name(p["card"]))
    notes += keyword_words(p.get("keywords", []))
    gone = now.get("zone") if now.get("zone") not in (None, "battlefield") else None
    if gone == "gone" and not p.get("token"):
        gone = "left-game"  # a card, not a token: it left the game with its owner
    changed = after is not None and any(
        after.get(k) is not None and after.get(k) != p.get(k, 0 if k == "damage" else None)
        for k in ("power", "toughness", "damage", "loyalty"))
    types = p.get("types", ["creature"])
    stats, was = _stats(types, now), _stats(types, p)
    return Piece(p["id"], p["id"], _change(was, stats), notes, gone, changed)


def _stats(types: list[str], now: dict[str, Any]) -> str:
    if "planeswalker" in types:
        return _("loyalty {n}").format(n=now.get("loyalty", 0))
    if "battle" in types:
        return _("defense {n}").format(n=now.get("defense", now.get("loyalty", 0)))
    return f"{now.get('power', 0)}/{now.get('toughness', 0)}"


def _change(was: str, now: str) -> str:
    """"2/2 → 5/5"; "loyalty 5 → 2" rather than "loyalty 5 → loyalty 2"."""
    if was == now:
        return now
    word, _space, number = was.rpartition(" ")
    if word and now.startswith(word + " "):
        return f"{word} {number} → {now.removeprefix(word + ' ')}"
    return f"{was} → {now}"


def _player_lines(player: dict[str, Any], after: dict[str, Any] | None) -> list[str]:
    lines = []
    for field, said in (("life", N_("{n} life")), ("poison", N_("poison {n}"))):
        before = player.get(field, 20 if field == "life" else 0)
        now = (after or {}).get(field, before)
        if field == "poison" and not before and not now:
            continue
        lines.append(_(said).format(n=f"{before} → {now}" if now != before else now))
    return lines
