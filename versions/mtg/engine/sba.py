"""State-based actions ("state-based effects" in the older texts), cited in each era's numbering.

Whether damage from a deathtouch source is itself a state-based action is the era's
(``Era.deathtouch_sba``)."""

from __future__ import annotations

from versions.mtg.engine.effects import destroy
from versions.mtg.engine.state import Board
from versions.mtg.rules import era_of

POISON = 10  # poison counters that lose the game


def check(board: Board) -> None:
    """Perform state-based actions until none apply, all applicable ones at once."""
    era = era_of(board)
    permanents = board.permanents
    while True:
        changed = False
        loses_now = era.loses_now(board)
        ended_by = "sba-life"
        for player in board.players.values():
            if player.life <= 0 and not player.lost and loses_now:
                player.lost = True
                changed = True
                board.log.event("loses", board.rule("sba-life"), target=player.name,
                               life=player.life)
            # Ten poison counters lose at once in every era, even where life lost in
            # combat waits for the end of the attack (E.11.2 of 1999).
            if player.poison >= POISON and not player.lost:
                player.lost = True
                changed = True
                board.log.event("loses", board.rule("sba-poison"), target=player.name,
                               poison=player.poison)
                ended_by = "sba-poison"
        pairs = era.counter_pairs_removed()
        graveyard: list[tuple[str, str]] = []
        destroyed: list[tuple[str, str]] = []
        for pid in board.order:
            p = permanents[pid]
            if p.zone != "battlefield":
                continue
            if pairs and p.plus and p.minus:
                n = min(p.plus, p.minus)
                p.plus -= n
                p.minus -= n
                board.log.event("counters-removed", board.rule(pairs), target=pid, amount=n)
                changed = True
            if "creature" in p.types:
                toughness = p.toughness
                if toughness <= 0:
                    graveyard.append((pid, "sba-toughness"))
                elif (p.damage < toughness and not p.deathtouched) or p.has("indestructible"):
                    continue  # nothing to destroy it for (indestructible ignores both checks)
                elif p.damage >= toughness:
                    destroyed.append((pid, "sba-lethal"))
                elif key := era.deathtouch_sba(board, p):
                    destroyed.append((pid, key))
            elif p.is_planeswalker and (p.loyalty or 0) <= 0:
                graveyard.append((pid, "sba-loyalty"))
            elif "battle" in p.types and (p.defense or 0) <= 0:
                graveyard.append((pid, "sba-battle"))
        for p in permanents.values():
            if p.deathtouched:
                p.deathtouched = False
        for pid, key in graveyard:
            board.leave_battlefield(pid, "graveyard")
            board.log.event("dies", board.rule(key), target=pid)
            changed = True
        for pid, key in destroyed:
            destroy(board, pid, board.rule(key))
            changed = True
        alive = [p for p in board.players.values() if not p.lost]
        if len(alive) <= 1 and len(board.players) > 1 and not board.over:
            board.over = True
            board.log.note("game-over", board.rule(ended_by),
                          "the game is over: " + (f"{alive[0].name} wins" if alive else
                                                  "no player is left"))
        if not changed:
            return
