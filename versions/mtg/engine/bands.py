"""Attacking bands (banding): declared with the attackers, blocked together. A creature
blocking one member blocks every other member too, and an effect that blocks one blocks the
band (A.11.3, A.11.8 of the 1999 summary; 502.10e, 502.10g of 2009-05-01; 702.19h-i of
2009-2010; 702.22h-i of 2025). Who divides the blockers' damage among the band is the
banding rule every era shares (``assignment.banded``)."""

from __future__ import annotations

from versions.mtg.engine.state import Board
from versions.mtg.engine.triggers import becomes_blocked


def block_the_band(board: Board, blocker: str) -> None:
    """`blocker` blocks every other member of the bands it blocks a member of, even one it
    could not have been declared to block (A.17.Ruling.1: evasion is for declaring)."""
    blocking = board.blocks[blocker]
    for attacker in list(blocking):
        for member in board.band_of(attacker):
            if member not in blocking:
                blocking.append(member)
                board.blocked.add(member)
                board.band_blocks.add((blocker, member))
                board.log.event("band-blocked", board.rule("band-blocked"), source=blocker,
                                target=member, band=attacker)


def band_blocked_by_effect(board: Board, attacker: str) -> None:
    """An effect made `attacker` blocked: the rest of its band becomes blocked too."""
    for member in board.band_of(attacker):
        if member not in board.blocked:
            board.log.event("band-blocked", board.rule("band-effect"), target=member,
                            band=attacker)
            becomes_blocked(board, member, by=[])
