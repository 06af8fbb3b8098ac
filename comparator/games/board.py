"""A board as a picture shows it, in no game's terms: two sides (the defender above, the
attacker below), each a player's lines ("20 life", "5 shields") and their pieces, and who
attacks or blocks whom. Each game's adapter builds one from a scenario and, after combat,
from an era's outcome; the site draws it (``comparator.site.board_svg``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Piece:
    id: str
    name: str  # the card's name, else the id
    stats: str  # "2/2", "5000", "loyalty 3"
    notes: list[str] = field(default_factory=list)  # keywords, "tapped", "3 damage"
    gone: str | None = None  # where it went when it left the battlefield ("graveyard")
    changed: bool = False  # its stats or damage differ from before combat


@dataclass
class Side:
    player: str
    lines: list[str]  # "20 life", "poison 1", "5 shields"; a change as "20 → 17 life"
    pieces: list[Piece]
    lost: bool = False


@dataclass
class Link:
    source: str  # a piece's id
    target: str  # a piece's id, or a player's name
    kind: str  # "attacks" or "blocks"


@dataclass
class Board:
    top: Side  # the defending player's
    bottom: Side  # the attacking (active) player's
    links: list[Link]

    def pieces(self) -> list[Piece]:
        return [*self.top.pieces, *self.bottom.pieces]

    def describe(self) -> str:
        """The picture in words: its text alternative."""
        parts = []
        for side in (self.bottom, self.top):
            who = f"{side.player}" + (" (lost the game)" if side.lost else "")
            pieces = "; ".join(_said(p) for p in side.pieces) or "no creatures"
            parts.append(f"{who}: {', '.join(side.lines)}. {pieces}.")
        names = {p.id: p.name for p in self.pieces()}
        for link in self.links:
            parts.append(f"{names.get(link.source, link.source)} {link.kind} "
                         f"{names.get(link.target, link.target)}.")
        return " ".join(parts)


def _said(p: Piece) -> str:
    notes = f" ({', '.join(p.notes)})" if p.notes else ""
    gone = f", gone to the {p.gone}" if p.gone else ""
    return f"{p.name} {p.stats}{notes}{gone}"


def keyword_words(keywords: list[Any]) -> list[str]:
    """Keywords as written in a scenario: "trample", {"protection": "green"} ->
    "protection green"."""
    out = []
    for k in keywords:
        if isinstance(k, dict):
            out += [f"{name} {value}" for name, value in k.items()]
        else:
            out.append(str(k))
    return out


def two_sides(scenario: dict[str, Any], outcome: dict[str, Any] | None,
              piece: Callable[[dict[str, Any], dict[str, Any] | None], Piece],
              lines: Callable[[dict[str, Any], dict[str, Any] | None], list[str]]
              ) -> tuple[Side, Side]:
    """The defending and the attacking player's sides, each piece and player drawn by the
    game's own `piece` and `lines` from the scenario and, after combat, the outcome."""
    names = [p["name"] for p in scenario["players"]]
    active = scenario.get("active", names[0])
    defender = next((n for n in names if n != active), active)
    after = (outcome or {}).get("permanents", {})
    players_after = (outcome or {}).get("players", {})
    sides = {}
    for name in (active, defender):
        player = next(p for p in scenario["players"] if p["name"] == name)
        pieces = [piece(p, after.get(p["id"])) for p in scenario["permanents"]
                  if p["controller"] == name]
        sides[name] = Side(name, lines(player, players_after.get(name)), pieces,
                           bool(players_after.get(name, {}).get("lost")))
    return sides[defender], sides[active]
