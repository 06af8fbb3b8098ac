"""A Duel Masters board as a picture shows it (``comparator.games.board``): each player's
shields (and cards drawn after the attack), each creature with its power, keywords and
whether it is tapped; who attacks whom and which creatures were chosen to take the attack
(blocker, guardman). After the attack, from an era's outcome: what was destroyed, shields
broken, cards drawn."""

from __future__ import annotations

from typing import Any

from comparator.games.board import Board, Link, Piece, keyword_words, two_sides
from comparator.text.language import _
from comparator.text.phrases import term


def board(scenario: dict[str, Any], outcome: dict[str, Any] | None = None) -> Board:
    top, bottom = two_sides(scenario, outcome, _piece, _player_lines)
    combat = scenario.get("combat", {})
    if outcome is not None:
        links = _links_after(outcome["events"])
    else:
        attacks = combat.get("attacks", {})
        links = [Link(a, t, "attacks") for a, t in attacks.items()]
        redirect = combat.get("redirect", [])
        chosen = (redirect if isinstance(redirect, dict)
                  else {next(iter(attacks)): redirect} if attacks else {})
        links += [Link(c, attacker, "is chosen to take the attack of")
                  for attacker, cs in chosen.items() for c in cs]
    return Board(top, bottom, links)


def _links_after(events: list[dict[str, Any]]) -> list[Link]:
    """Who the attack ended on, who blocked it, and who took it on the way (a blocker or
    guardman whose redirection another followed), as the era's events tell."""
    target: dict[str, str] = {}
    took: dict[str, list[str]] = {}
    blocks: list[Link] = []
    for e in events:
        kind = e.get("type")
        if kind == "attack":
            target[e["source"]] = e["target"]
        elif kind == "redirect":
            target[e["target"]] = e["source"]
            took.setdefault(e["target"], []).append(e["source"])
        elif kind == "block":
            blocks.append(Link(e["source"], e["target"], "blocks"))
        elif kind == "battle":
            target[e["source"]] = e["target"]
    blockers = {link.source for link in blocks}
    links = [Link(a, t, "attacks") for a, t in target.items()]
    links += [Link(c, a, "took the attack on the way, of") for a, chain in took.items()
              for c in chain if c != target.get(a) and c not in blockers]
    return links + blocks


def _piece(p: dict[str, Any], after: dict[str, Any] | None) -> Piece:
    now = {**p, **{k: v for k, v in (after or {}).items() if v is not None}}
    notes = [_("tapped")] if now.get("tapped") else []
    notes += keyword_words(p.get("keywords", []))
    if p.get("abilities"):
        notes += [_("when it {trigger}: {effect}").format(
            trigger=term(a.get("trigger", ""), "duel-masters"), effect=term(a.get("effect", "")))
            for a in p["abilities"] if isinstance(a, dict) and a.get("trigger")]
    gone = now.get("zone") if now.get("zone") not in (None, "battlefield") else None
    changed = after is not None and after.get("power") not in (None, p.get("power"))
    stats = f"{now.get('power', 0)}"
    if changed:
        stats = f"{p.get('power', 0)} → {stats}"
    return Piece(p["id"], p["id"], stats, notes, gone, changed)


def _player_lines(player: dict[str, Any], after: dict[str, Any] | None) -> list[str]:
    before = player.get("shields", 5)
    now = (after or {}).get("shields", before)
    lines = [_("{n} shields").format(n=f"{before} → {now}" if now != before else now)]
    if (after or {}).get("drawn"):
        lines.append(_("drew {n}").format(n=after["drawn"]))
    return lines
