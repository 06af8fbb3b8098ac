"""Triggered abilities: noticing them, putting them on the stack, resolving them.

Abilities written on cards (spec §1.3) and the classic trigger keywords (rampage, bushido,
flanking) both become ``PendingTrigger``s; the era's triggered deathtouch and lifelink
(sixth) are added by ``versions.game.damage``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.game.state import Game, PendingTrigger
from versions.scenario import Ability

if TYPE_CHECKING:
    from versions.game.state import Permanent

TRIGGER_RULE_KEYS = {
    "blocks": "trigger-blocks",
    "blocks-creature": "trigger-blocks-creature",
    "becomes-blocked": "trigger-becomes-blocked",
    "becomes-blocked-by-creature": "trigger-becomes-blocked-by-creature",
    "attacks-unblocked": "trigger-attacks-unblocked",
    "deals-combat-damage-to-player": "trigger-damage",
    "dealt-damage": "trigger-damage",
}


def _passes(ability: Ability, other: Permanent | None) -> bool:
    f = ability.if_
    if f is None or other is None:
        return True
    if f.color and f.color not in other.colors:
        return False
    return not (f.not_color and f.not_color in other.colors)


def ability_triggers(
    game: Game, pid: str, condition: str, other: str | None = None,
    defending: str | None = None,
) -> None:
    """Every ability of `pid` whose trigger is `condition` triggers once. The `if:` filter
    reads the other creature's characteristics now, as the event happens (509.5f)."""
    perm = game.perm(pid)
    other_perm = game.permanents.get(other) if other else None
    for ability in perm.abilities:
        if ability.trigger != condition or not _passes(ability, other_perm):
            continue
        game.pending.append(PendingTrigger(
            source=pid, controller=perm.controller, ability=ability,
            rule=game.rule(TRIGGER_RULE_KEYS[condition]), condition=condition, other=other,
            defending=defending))


def keyword_trigger(game: Game, pid: str, kind: str, rule_key: str, other: str | None = None,
                    value: int = 0) -> None:
    perm = game.perm(pid)
    game.pending.append(PendingTrigger(
        source=pid, controller=perm.controller,
        ability=Ability(trigger="becomes-blocked", effect="pump", target="self", power=value,
                        toughness=value),
        rule=game.rule(rule_key), condition=kind, other=other, amount=value, kind=kind))


def put_on_stack(game: Game) -> None:
    """APNAP: the active player's triggers go on the stack first, so they resolve last."""
    if not game.pending:
        return
    names = list(game.players)
    i = names.index(game.active)
    turn = names[i:] + names[:i]
    for name in turn:
        for t in [t for t in game.pending if t.controller == name]:
            game.stack.append(t)
            game.log.event("trigger", t.rule, source=t.source, condition=t.condition,
                           **({"creature": t.other} if t.other else {}))
    game.pending.clear()
