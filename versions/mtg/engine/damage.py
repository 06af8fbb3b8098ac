"""Dealing damage: prevention, protection, marking, loyalty, life, and what it triggers.

What deathtouch and lifelink do with the damage is the era's (``Era.damage_dealt`` as it
is dealt, ``Era.damage_triggers`` for what it triggers): static in some eras, triggered
in others.
"""

from __future__ import annotations

from versions.mtg.engine.assigned import Dealt
from versions.mtg.engine.state import Board, Permanent, PlayerState, QuietLog
from versions.mtg.engine.triggers import ability_triggers
from versions.mtg.rules import era_of


def add_poison(board: Board, player: str, amount: int) -> None:
    """Poison counters for `player`; in Two-Headed Giant, where the era's text has the team
    share them (``Era.team_poison``), the team's (810.10 of 2025: "the poison counters are
    shared by the team")."""
    shared = board.table.two_headed and era_of(board).team_poison()
    for name in board.table.teammates(player) if shared else [player]:
        board.players[name].poison += amount


def _prevent(board: Board, source: str | None, target: str, amount: int, combat: bool) -> int:
    """Apply prevention of all combat damage, protection, and prevention shields (the
    source's, then the recipient's); return the damage still dealt."""
    src = board.permanents.get(source) if source else None
    if combat and (board.fog or (source is not None and source in board.fogged)):
        board.log.event("prevent", board.rule("prevent-all"), source=source, target=target,
                       amount=amount, reason="all-combat-damage")
        return 0
    if target in board.players:
        shield: PlayerState | Permanent = board.players[target]
        if src is not None and _player_protected(shield, src):  # type: ignore[arg-type]
            board.log.event("prevent", board.rule("protection"), source=source, target=target,
                           amount=amount, reason="protection")
            return 0
    else:
        perm = board.perm(target)
        if (not perm.prevention and (src is None or not src.colors)
                and not board.source_shields):
            return amount  # nothing could prevent it
        if perm.protected_from(src):
            board.log.event("prevent", board.rule("protection"), source=source, target=target,
                           amount=amount, reason="protection")
            return 0
        shield = perm
    if source is not None and board.source_shields.get(source):
        # The source's shield first (615.1: the affected player would choose the order;
        # rulesdiff takes this one, which leaves the recipient's shield for later damage).
        prevented = min(board.source_shields[source], amount)
        board.source_shields[source] -= prevented
        board.log.event("prevent", board.rule("prevent"), source=source, target=target,
                       amount=prevented, reason="from-source")
        amount -= prevented
    prevented = min(shield.prevention, amount)
    if prevented:
        shield.prevention -= prevented
        board.log.event("prevent", board.rule("prevent"), source=source, target=target,
                       amount=prevented)
    return amount - prevented


def _player_protected(player: PlayerState, src: Permanent) -> bool:
    """Protection on a player: from a color, or from creatures (502.7e; 702.16e)."""
    return any(q in src.colors or (q == "creatures" and src.is_creature)
               for q in player.protection)


def unprevented(board: Board, batch: list[tuple[str | None, str, int]],
                combat: bool = True) -> list[int]:
    """What of each packet of `batch` would still be dealt after prevention, were it dealt
    now: the board is left as it is (its shields, its log)."""
    trial = board.copy()
    trial.log = QuietLog(step=board.log.step)
    return [_prevent(trial, source, target, amount, combat) if amount > 0 else 0
            for source, target, amount in batch]


def deal(board: Board, batch: list[tuple[str | None, str, int]], combat: bool, rule: str) -> None:
    """Deal a batch of damage simultaneously: (source, target, amount) triples."""
    dealt: list[Dealt] = []
    for source, target, amount in batch:
        if amount <= 0:
            continue
        if combat and target in board.players and board.players[target].lost and \
                board.table.multiplayer and \
                not era_of(board).departed_damage(board, source, target):
            continue
        amount = _prevent(board, source, target, amount, combat)
        if amount <= 0:
            continue
        board.log.event("damage", rule, source=source, target=target, amount=amount,
                       combat=combat)
        _result(board, source, target, amount)
        dealt.append(Dealt(source, target, amount, combat))
    era_of(board).damage_dealt(board, dealt)
    _damage_triggers(board, dealt)


def _result(board: Board, source: str | None, target: str, amount: int) -> None:
    """What the damage does to what it is dealt to: life lost or poison counters for a
    player, loyalty lost, damage marked or -1/-1 counters (wither, infect) for a creature.
    A source that has left is looked at as it last was (its last known information)."""
    src = board.permanents.get(source) if source else None
    infect = src is not None and src.has("infect")
    if target in board.players:
        if infect:
            add_poison(board, target, amount)
            board.log.event("poison", board.rule("infect-player"), source=source, target=target,
                           amount=amount)
        else:
            board.change_life(target, -amount)
        return
    perm = board.perm(target)
    if perm.is_planeswalker and not perm.is_creature:
        perm.loyalty = (perm.loyalty or 0) - amount
    elif "battle" in perm.types and not perm.is_creature:
        perm.defense = (perm.defense or 0) - amount
        board.log.event("defense-removed", board.rule("battle-damage"), target=target,
                       amount=amount)
    elif infect or (src is not None and src.has("wither")):
        perm.minus += amount
        board.log.event("counters", board.rule("infect" if infect else "wither"), source=source,
                       target=target, amount=amount, kind="-1/-1")
    else:
        perm.damage += amount


def _damage_triggers(board: Board, dealt: list[Dealt]) -> None:
    for d in dealt:
        if d.target not in board.players and board.perm(d.target).on_battlefield:
            ability_triggers(board, d.target, "dealt-damage", other=d.source)
        if d.source is not None and d.combat and d.target in board.players:
            ability_triggers(board, d.source, "deals-combat-damage-to-player",
                             defending=d.target)
    era_of(board).damage_triggers(board, dealt)
