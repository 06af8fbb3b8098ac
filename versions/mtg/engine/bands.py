"""Attacking bands (banding): declared with the attackers, blocked together. A creature
blocking one member blocks every other member too, and an effect that blocks one blocks the
band (A.11.3, A.11.8 of the 1999 summary; 502.10e, 502.10g of 2009-05-01; 702.19h-i of
2009-2010; 702.22h-i of 2025). Who divides the blockers' damage among the band is the
banding rule every era shares (``assignment.banded``)."""

from __future__ import annotations

from versions.mtg.engine.state import Board
from versions.mtg.engine.triggers import becomes_blocked


def block_the_band(board: Board, blocker: str) -> None:
    """A declared blocker blocks every other member of the bands it blocks a member of,
    even one it could not have been declared to block (A.17.Ruling.1: evasion is for
    declaring); those blocks were never declared (``Board.band_blocks``)."""
    for attacker in list(board.blocks[blocker]):
        for member in blocks_band_of(board, blocker, attacker):
            board.blocked.add(member)
            board.band_blocks.add((blocker, member))


def blocks_band_of(board: Board, blocker: str, attacker: str) -> list[str]:
    """`blocker`, blocking `attacker`, blocks the other members of its band too: those it
    did not block already, now added to its blocks (and said in the log)."""
    blocking = board.blocks[blocker]
    added = [m for m in board.band_of(attacker) if m not in blocking]
    for member in added:
        blocking.append(member)
        board.log.event("band-blocked", board.rule("band-blocked"), source=blocker,
                        target=member, band=attacker)
    return added


def band_blocked_by_effect(board: Board, attacker: str) -> None:
    """An effect made `attacker` blocked: the rest of its band becomes blocked too."""
    for member in board.band_of(attacker):
        if member not in board.blocked:
            board.log.event("band-blocked", board.rule("band-effect"), target=member,
                            band=attacker)
            becomes_blocked(board, member, by=[])
