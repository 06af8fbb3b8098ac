"""Dealing damage: prevention, protection, marking, loyalty, life, and what it triggers.

What deathtouch and lifelink do with the damage is the era's (``Era.damage_dealt`` as it
is dealt, ``Era.damage_triggers`` for what it triggers): static in some eras, triggered
in others.
"""

from __future__ import annotations

from versions.mtg.engine.assigned import Dealt
from versions.mtg.engine.state import Board, Permanent, PlayerState
from versions.mtg.engine.triggers import ability_triggers
from versions.mtg.rules import era_of


def _prevent(game: Board, source: str | None, target: str, amount: int, combat: bool) -> int:
    """Apply prevention of all combat damage, protection, and prevention shields (the
    source's, then the recipient's); return the damage still dealt."""
    src = game.permanents.get(source) if source else None
    if combat and (game.fog or (source is not None and source in game.fogged)):
        game.log.event("prevent", game.rule("prevent-all"), source=source, target=target,
                       amount=amount, reason="all-combat-damage")
        return 0
    if target in game.players:
        shield: PlayerState | Permanent = game.players[target]
        if src is not None and _player_protected(shield, src):  # type: ignore[arg-type]
            game.log.event("prevent", game.rule("protection"), source=source, target=target,
                           amount=amount, reason="protection")
            return 0
    else:
        perm = game.perm(target)
        if (not perm.prevention and (src is None or not src.colors)
                and not game.source_shields):
            return amount  # nothing could prevent it
        if perm.protected_from(src):
            game.log.event("prevent", game.rule("protection"), source=source, target=target,
                           amount=amount, reason="protection")
            return 0
        shield = perm
    if source is not None and game.source_shields.get(source):
        # The source's shield first (615.1: the affected player would choose the order;
        # rulesdiff takes this one, which leaves the recipient's shield for later damage).
        prevented = min(game.source_shields[source], amount)
        game.source_shields[source] -= prevented
        game.log.event("prevent", game.rule("prevent"), source=source, target=target,
                       amount=prevented, reason="from-source")
        amount -= prevented
    prevented = min(shield.prevention, amount)
    if prevented:
        shield.prevention -= prevented
        game.log.event("prevent", game.rule("prevent"), source=source, target=target,
                       amount=prevented)
    return amount - prevented


def _player_protected(player: PlayerState, src: Permanent) -> bool:
    """Protection on a player: from a color, or from creatures (502.7e; 702.16e)."""
    return any(q in src.colors or (q == "creatures" and src.is_creature)
               for q in player.protection)


def deal(game: Board, batch: list[tuple[str | None, str, int]], combat: bool, rule: str) -> None:
    """Deal a batch of damage simultaneously: (source, target, amount) triples."""
    dealt: list[Dealt] = []
    for source, target, amount in batch:
        if amount <= 0:
            continue
        amount = _prevent(game, source, target, amount, combat)
        if amount <= 0:
            continue
        game.log.event("damage", rule, source=source, target=target, amount=amount,
                       combat=combat)
        _result(game, source, target, amount)
        dealt.append(Dealt(source, target, amount, combat))
    era_of(game).damage_dealt(game, dealt)
    _damage_triggers(game, dealt)


def _result(game: Board, source: str | None, target: str, amount: int) -> None:
    """What the damage does to what it is dealt to: life lost or poison counters for a
    player, loyalty lost, damage marked or -1/-1 counters (wither, infect) for a creature.
    A source that has left is looked at as it last was (its last known information)."""
    src = game.permanents.get(source) if source else None
    infect = src is not None and src.has("infect")
    if target in game.players:
        player = game.players[target]
        if infect:
            player.poison += amount
            game.log.event("poison", game.rule("infect-player"), source=source, target=target,
                           amount=amount)
        else:
            player.life -= amount
        return
    perm = game.perm(target)
    if perm.is_planeswalker and not perm.is_creature:
        perm.loyalty = (perm.loyalty or 0) - amount
    elif "battle" in perm.types and not perm.is_creature:
        perm.defense = (perm.defense or 0) - amount
        game.log.event("defense-removed", game.rule("battle-damage"), target=target,
                       amount=amount)
    elif infect or (src is not None and src.has("wither")):
        perm.minus += amount
        game.log.event("counters", game.rule("infect" if infect else "wither"), source=source,
                       target=target, amount=amount, kind="-1/-1")
    else:
        perm.damage += amount


def _damage_triggers(game: Board, dealt: list[Dealt]) -> None:
    for d in dealt:
        if d.target not in game.players and game.perm(d.target).on_battlefield:
            ability_triggers(game, d.target, "dealt-damage", other=d.source)
        if d.source is not None and d.combat and d.target in game.players:
            ability_triggers(game, d.source, "deals-combat-damage-to-player",
                             defending=d.target)
    era_of(game).damage_triggers(game, dealt)
