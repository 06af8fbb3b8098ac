"""A board as a picture shows it, in no game's terms: two sides (the defender above, the
attacker below), each a player's lines ("20 life", "5 shields") and their pieces, and who
attacks or blocks whom; in a multiplayer game, the other players' sides above the
defender's (``extra``), the farthest in turn order at the top. Each game's adapter builds
one from a scenario and, after combat, from an era's outcome; the site draws it
(``comparator.site.board_svg``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from comparator.text.language import N_, _
from comparator.text.phrases import term, zone_name


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
    kind: str  # "attacks", "blocks", or "took the attack on the way, of"


@dataclass
class Board:
    top: Side  # the defending player's
    bottom: Side  # the attacking (active) player's
    links: list[Link]
    # A multiplayer game's other players, drawn above `top`, the first at the very top.
    extra: list[Side] = field(default_factory=list)

    def sides(self) -> list[Side]:
        """Every side, from the top of the picture down."""
        return [*self.extra, self.top, self.bottom]

    def pieces(self) -> list[Piece]:
        return [p for side in self.sides() for p in side.pieces]

    def describe(self) -> str:
        """The picture in words: its text alternative."""
        parts = []
        for side in (self.bottom, self.top, *reversed(self.extra)):
            who = _("{player} (lost the game)") if side.lost else "{player}"
            pieces = _("; ").join(_said(p) for p in side.pieces) or _("no creatures")
            parts.append(_("{who}: {lines}. {pieces}.").format(
                who=who.format(player=side.player), lines=_(", ").join(side.lines),
                pieces=pieces))
        names = {p.id: p.name for p in self.pieces()}
        for link in self.links:
            parts.append(_(LINKS.get(link.kind, "{source} " + link.kind + " {target}.")).format(
                source=names.get(link.source, link.source),
                target=names.get(link.target, link.target)))
        return " ".join(parts)


# What a board's arrows say, in words.
LINKS = {"attacks": N_("{source} attacks {target}."),
         "blocks": N_("{source} blocks {target}."),
         "took the attack on the way, of": N_("{source} took the attack on the way, of "
                                              "{target}."),
         "is chosen to take the attack of": N_("{source} is chosen to take the attack of "
                                               "{target}.")}


def _said(p: Piece) -> str:
    notes = _(" ({notes})").format(notes=_(", ").join(p.notes)) if p.notes else ""
    gone = {None: "", "gone": _(", gone (a token leaves no card)"),
            "left-game": _(", gone: left the game with its owner")}.get(
        p.gone, _(", gone to the {zone}").format(zone=zone_name(p.gone or "")))
    return f"{p.name} {p.stats}{notes}{gone}"


def keyword_words(keywords: list[Any]) -> list[str]:
    """Keywords as written in a scenario: "trample", {"protection": "green"} ->
    "protection green"."""
    out = []
    for k in keywords:
        if isinstance(k, dict):
            out += [f"{term(name)} {value}" for name, value in k.items()]
        else:
            out.append(str(term(k)))
    return out


def every_side(scenario: dict[str, Any], outcome: dict[str, Any] | None,
               piece: Callable[[dict[str, Any], dict[str, Any] | None], Piece],
               lines: Callable[[dict[str, Any], dict[str, Any] | None], list[str]]
               ) -> tuple[Side, Side, list[Side]]:
    """The sides of a board of any number of players: the sides from the top of the picture down
    are the active player's opponents, the last in turn order at the top, then the active
    player's teammates, then the active player at the bottom; `top` is the last before the
    bottom (the only defender in a duel). Each player's lines start with their team where
    they have one."""
    names = [p["name"] for p in scenario["players"]]
    active = scenario.get("active", names[0])
    i = names.index(active)
    turn = names[i + 1:] + names[:i]
    team = {p["name"]: p.get("team") or p["name"] for p in scenario["players"]}
    mates = [n for n in turn if team[n] == team[active]]
    order = [n for n in reversed(turn) if n not in mates] + mates
    after = (outcome or {}).get("permanents", {})
    players_after = (outcome or {}).get("players", {})

    def side(name: str) -> Side:
        player = next(p for p in scenario["players"] if p["name"] == name)
        pieces = [piece(p, after.get(p["id"])) for p in scenario["permanents"]
                  if p["controller"] == name]
        said = lines(player, players_after.get(name))
        if player.get("team"):
            said = [f"team {player['team']}", *said]
        return Side(name, said, pieces, bool(players_after.get(name, {}).get("lost")))

    return side(order[-1]), side(active), [side(n) for n in order[:-1]]


def two_sides(scenario: dict[str, Any], outcome: dict[str, Any] | None,
              piece: Callable[[dict[str, Any], dict[str, Any] | None], Piece],
              lines: Callable[[dict[str, Any], dict[str, Any] | None], list[str]]
              ) -> tuple[Side, Side]:
    """The defending and the attacking player's sides of a duel, each piece and player
    drawn by the game's own `piece` and `lines` from the scenario and, after combat, the
    outcome."""
    top, bottom, _others = every_side(scenario, outcome, piece, lines)
    return top, bottom
