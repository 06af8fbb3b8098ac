"""State-based actions ("state-based effects" in the older texts), cited in each era's numbering.

Whether damage from a deathtouch source is itself a state-based action is the era's
(``Era.deathtouch_sba``)."""

from __future__ import annotations

from versions.mtg.engine.effects import destroy
from versions.mtg.engine.state import Board, PlayerState
from versions.mtg.rules import era_of
from versions.mtg.table import Table

POISON = 10  # poison counters that lose the game


def check(board: Board) -> None:
    """Perform state-based actions until none apply, all applicable ones at once."""
    era = era_of(board)
    permanents = board.permanents
    while True:
        changed = False
        loses_now = era.loses_now(board)
        ended_by = "sba-life"
        table = board.table
        # Two-Headed Giant: the team's life (and, where the era's text says so, its poison)
        # is shared, and the team loses at 0 life (606.8a; 810.8c) or 15 poison (810.8d).
        life_rule = "mp-2hg-loses" if table.two_headed else "sba-life"
        shared_poison = era.team_poison() if table.two_headed else None
        losing: list[str] = []
        for player in board.players.values():
            if player.life <= 0 and not player.lost and loses_now:
                player.lost = True
                changed = True
                losing.append(player.name)
                board.log.event("loses", board.rule(life_rule), target=player.name,
                               life=player.life)
            # Ten poison counters lose at once in every era, even where life lost in
            # combat waits for the end of the attack (E.11.2 of 1999).
            if player.poison >= (shared_poison or POISON) and not player.lost:
                player.lost = True
                changed = True
                losing.append(player.name)
                board.log.event("loses", board.rule(
                    "mp-2hg-poison" if shared_poison else "sba-poison"),
                    target=player.name, poison=player.poison)
                ended_by = "mp-2hg-poison" if shared_poison else "sba-poison"
        if losing and table.multiplayer:
            leave_game(board, losing)  # unless the game ends with it
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
        if len({table.team(p.name) for p in alive}) <= 1 and len(board.players) > 1 and \
                not board.over:
            board.over = True
            if ended_by == "sba-life" and table.two_headed:
                ended_by = "mp-2hg-loses"
            board.log.note("game-over", board.rule(ended_by),
                          "the game is over: " + (_winners(table, alive) if alive else
                                                  "no player is left"))
        if not changed:
            return


def _winners(table: Table, alive: list[PlayerState]) -> str:
    names = [p.name for p in alive]
    team = table.team(names[0])
    if team != names[0]:
        return f"team {team} ({', '.join(table.teammates(names[0]))}) wins"
    return f"{names[0]} wins"


def leave_game(board: Board, losing: list[str]) -> None:
    """Players who lost a multiplayer game leave it, with their team where the team loses
    as one (606.8b, 607.5a; 810.8a, 809.5b), and all they own leaves with them (600.4a;
    800.4a): their permanents (rulesdiff takes the controller a file writes as the owner),
    which leave combat, and the cards in their graveyard and hand. The game goes on while
    players of two teams are left in it."""
    table = board.table
    departing = list(losing)
    for name in losing:
        team = table.teammates(name)
        emperor = table.emperor(name)
        if table.two_headed or (emperor == name):
            key = "mp-team-loses" if table.two_headed else "mp-emperor-loses"
            for mate in team:
                player = board.players[mate]
                if not player.lost:
                    player.lost = True
                    departing.append(mate)
                    board.log.event("loses", board.rule(key), target=mate, team=table.team(mate))
    left = {table.team(p.name) for p in board.players.values() if not p.lost}
    if len(left) <= 1:
        return  # the game is over (104.2a): the board stays as it ended, as in a duel
    zone = era_of(board).departed_zone
    for name in departing:
        gone = [pid for pid in board.order if board.permanents[pid].controller == name
                and board.permanents[pid].on_battlefield]
        for pid in gone:
            board.leave_battlefield(pid, zone)
        # Their cards already in a graveyard or hand go too (a token there is gone).
        for pid in board.order:
            p = board.permanents[pid]
            if p.controller == name and p.zone in ("graveyard", "hand"):
                p.zone = zone
                gone.append(pid)
        player = board.players[name]
        player.graveyard.clear()
        player.hand.clear()
        board.log.event("leaves-game", board.rule("mp-leaves"), target=name,
                       permanents=gone)
