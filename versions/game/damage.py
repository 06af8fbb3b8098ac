"""Dealing damage: prevention, protection, marking, loyalty, life, and what it triggers.

Deathtouch and lifelink differ by era: static in m10 and foundations (the damage itself
destroys, via state-based actions, and gains life at the same moment), triggered in sixth
(each instance triggers; state-based actions come first). The era's switches decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from versions.game.state import Game, PendingTrigger
from versions.game.triggers import ability_triggers
from versions.scenario import Ability


@dataclass
class Dealt:
    source: str | None
    target: str
    amount: int
    combat: bool


def _prevent(game: Game, source: str | None, target: str, amount: int) -> int:
    """Apply protection and prevention shields; return the damage still dealt."""
    src = game.permanents.get(source) if source else None
    if target in game.players:
        shield = game.players[target]
    else:
        perm = game.perm(target)
        if perm.protected_from(src):
            game.log.event("prevent", game.rule("protection"), source=source, target=target,
                           amount=amount, reason="protection")
            return 0
        shield = perm
    prevented = min(shield.prevention, amount)
    if prevented:
        shield.prevention -= prevented
        game.log.event("prevent", game.rule("prevent"), source=source, target=target,
                       amount=prevented)
    return amount - prevented


def deal(game: Game, batch: list[tuple[str | None, str, int]], combat: bool, rule: str) -> None:
    """Deal a batch of damage simultaneously: (source, target, amount) triples."""
    dealt: list[Dealt] = []
    for source, target, amount in batch:
        if amount <= 0:
            continue
        amount = _prevent(game, source, target, amount)
        if amount <= 0:
            continue
        game.log.event("damage", rule, source=source, target=target, amount=amount,
                       combat=combat)
        if target in game.players:
            game.players[target].life -= amount
        else:
            perm = game.perm(target)
            if perm.is_planeswalker and not perm.is_creature:
                perm.loyalty = (perm.loyalty or 0) - amount
            else:
                perm.damage += amount
                if source and game.perm(source).has("deathtouch") and not \
                        game.era.triggered_deathtouch:
                    perm.deathtouched = True
        dealt.append(Dealt(source, target, amount, combat))
    _static_lifelink(game, dealt)
    _damage_triggers(game, dealt)


def _static_lifelink(game: Game, dealt: list[Dealt]) -> None:
    if game.era.triggered_lifelink:
        return
    totals: dict[str, int] = {}
    for d in dealt:
        if d.source and game.perm(d.source).has("lifelink"):
            totals[d.source] = totals.get(d.source, 0) + d.amount
    # 702.15e: separate sources give separate life-gain events; instances don't add up.
    for source, amount in totals.items():
        controller = game.perm(source).controller
        game.players[controller].life += amount
        game.log.event("gain-life", game.rule("lifelink"), source=source, target=controller,
                       amount=amount)


def _damage_triggers(game: Game, dealt: list[Dealt]) -> None:
    by_source: dict[str, int] = {}
    for d in dealt:
        if d.target not in game.players:
            recipient = game.perm(d.target)
            if recipient.on_battlefield:
                ability_triggers(game, d.target, "dealt-damage", other=d.source)
        if d.source is None:
            continue
        source = game.perm(d.source)
        if d.combat and d.target in game.players:
            ability_triggers(game, d.source, "deals-combat-damage-to-player",
                             defending=d.target)
        by_source[d.source] = by_source.get(d.source, 0) + d.amount
        if game.era.triggered_deathtouch and d.target not in game.players and \
                game.perm(d.target).is_creature:
            if not source.on_battlefield:
                if source.has("deathtouch"):  # read from its last known information
                    game.log.hint(game.rule("deathtouch"), (
                        f"{d.source} had left the battlefield when its damage was dealt, so "
                        f"its triggered deathtouch was not around to trigger "
                        f"({game.rule('deathtouch')}); {d.target} is only dealt damage."))
                continue
            for _ in range(source.count("deathtouch")):
                game.pending.append(PendingTrigger(
                    source=d.source, controller=source.controller,
                    ability=Ability(trigger="dealt-damage", effect="destroy",
                                    target="that-creature"),
                    rule=game.rule("deathtouch"), condition="deathtouch", other=d.target,
                    kind="deathtouch"))
    if not game.era.triggered_lifelink:
        return
    for source_id, amount in by_source.items():
        source = game.perm(source_id)
        if not source.on_battlefield:
            if source.lki and any(k.name == "lifelink" for k in source.lki.keywords):
                game.log.hint(game.rule("lifelink"), (
                    f"{source_id} had left the battlefield when its damage was dealt, so its "
                    f"triggered lifelink, which works only on the battlefield, did not trigger "
                    f"({game.rule('lifelink')})."))
            continue
        for _ in range(source.count("lifelink")):
            game.pending.append(PendingTrigger(
                source=source_id, controller=source.controller,
                ability=Ability(trigger="dealt-damage", effect="gain-life", target="controller",
                                amount=amount),
                rule=game.rule("lifelink"), condition="lifelink", amount=amount,
                kind="lifelink"))
