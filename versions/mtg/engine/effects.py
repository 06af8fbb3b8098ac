"""The effects of spec §1.4, applied to the game state, each logged with its rule.

An effect whose object is gone when it would happen is not an error: it is not taken, and
the outcome carries a note (spec §1.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from versions.mtg.engine.damage import deal
from versions.mtg.engine.state import Board, PendingTrigger, Permanent
from versions.mtg.engine.triggers import becomes_blocked, life_gained
from versions.mtg.rules import era_of
from versions.mtg.scenario import Ability, Keyword


@dataclass
class Effect:
    """One effect to apply, whatever asked for it (an action, an activated or a triggered
    ability)."""

    name: str
    target: str | None = None
    power: int | None = None
    toughness: int | None = None
    amount: int | None = None
    keyword: Keyword | None = None
    kind: str | None = None  # counters: +1/+1 (None too), -1/-1, poison
    origin: str | None = None  # prevention: the source whose damage is prevented
    source: str | None = None  # the permanent whose ability this is (damage source)
    by: str | None = None  # the player who does it
    label: str | None = None  # the card, for the log
    # enter-blocking
    id: str | None = None
    controller: str | None = None
    attacker: str | None = None


class NotTaken(Exception):
    """The effect cannot happen now; the message says why."""


def destroy(game: Board, pid: str, rule: str, by: str | None = None) -> bool:
    """Destroy, with indestructible and regeneration shields applying. True if it died."""
    p = game.perm(pid)
    if p.has("indestructible"):
        game.log.event("indestructible", game.rule("indestructible"), target=pid)
        return False
    if p.regen_shields > 0:
        p.regen_shields -= 1
        p.damage = 0
        p.deathtouched = False
        p.tapped = True
        was_in_combat = game.in_combat(pid)
        game.remove_from_combat(pid)
        game.log.event("regenerate", game.rule("regenerate"), target=pid,
                       **({"removed-from-combat": True} if was_in_combat else {}))
        return False
    game.leave_battlefield(pid, "graveyard")
    game.log.event("destroy", rule, target=pid, **({"by": by} if by else {}))
    return True


def _permanent(game: Board, pid: str, what: str) -> Permanent:
    """A permanent named as a source: it may have left (its last known information)."""
    if pid not in game.permanents:
        raise NotTaken(f"{what}: no such permanent {pid!r}")
    return game.perm(pid)


def _creature(game: Board, pid: str | None, what: str) -> Permanent:
    if pid is None or pid not in game.permanents:
        raise NotTaken(f"{what}: no such permanent {pid!r}")
    p = game.perm(pid)
    if not p.on_battlefield:
        raise NotTaken(f"{pid} is no longer on the battlefield")
    return p


def apply(game: Board, e: Effect) -> None:
    """Apply one effect; raise NotTaken if it cannot happen."""
    handler = HANDLERS[e.name]
    handler(game, e)


def _pump(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "pump")
    p.pumps.append((e.power or 0, e.toughness or 0))
    game.log.event("pump", game.rule("pump"), target=p.id, power=e.power,
                   toughness=e.toughness, **_label(e))


def _damage(game: Board, e: Effect) -> None:
    target = e.target or ""
    if target not in game.players:
        p = _creature(game, target, "damage")
        if not (p.is_creature or p.is_planeswalker or "battle" in p.types):
            raise NotTaken(f"{target} can't be dealt damage")
    deal(game, [(e.source, target, e.amount or 0)], combat=False,
         rule=game.rule("noncombat-damage"))


def _destroy(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "destroy")
    destroy(game, p.id, game.rule("destroy"), by=e.source)


def _sacrifice(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "sacrifice")
    game.leave_battlefield(p.id, "graveyard")
    game.log.event("sacrifice", game.rule("sacrifice"), target=p.id, **_label(e))


def _regenerate(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "regenerate")
    p.regen_shields += 1
    game.log.event("regeneration-shield", game.rule("regenerate"), target=p.id, **_label(e))


def _prevent(game: Board, e: Effect) -> None:
    if e.origin is not None:
        _permanent(game, e.origin, "prevent")
        game.source_shields[e.origin] = game.source_shields.get(e.origin, 0) + (e.amount or 0)
        game.log.event("prevention-shield", game.rule("prevent"), source=e.origin,
                       amount=e.amount, **_label(e))
        return
    if e.target in game.players:
        game.players[e.target].prevention += e.amount or 0
    else:
        _creature(game, e.target, "prevent").prevention += e.amount or 0
    game.log.event("prevention-shield", game.rule("prevent"), target=e.target,
                   amount=e.amount, **_label(e))


def _prevent_all_combat_damage(game: Board, e: Effect) -> None:
    if e.origin is None:
        game.fog = True
    else:
        _permanent(game, e.origin, "prevent-all-combat-damage")
        game.fogged = game.fogged | {e.origin}
    game.log.event("prevent-all-combat-damage", game.rule("prevent-all"),
                   **({"source": e.origin} if e.origin else {}), **_label(e))


def _bounce(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "bounce")
    game.leave_battlefield(p.id, "hand")
    game.log.event("bounce", game.rule("bounce"), target=p.id, **_label(e))


def _tap(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "tap")
    if p.tapped:
        raise NotTaken(f"{p.id} is already tapped")
    p.tapped = True
    game.log.event("tap", game.rule("tap"), target=p.id, **_label(e))


def _remove_from_combat(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "remove-from-combat")
    if not game.in_combat(p.id) and not game.being_attacked(p.id):
        raise NotTaken(f"{p.id} is not in combat")
    game.remove_from_combat(p.id)
    game.log.event("remove-from-combat", game.rule("remove-from-combat"), target=p.id,
                   **_label(e))


def _grant(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "grant")
    assert e.keyword is not None
    p.granted.append(e.keyword)
    game.log.event("grant", game.rule("pump"), target=p.id, keyword=str(e.keyword), **_label(e))


def _gain_life(game: Board, e: Effect) -> None:
    if e.target not in game.players:
        raise NotTaken(f"{e.target!r} is not a player")
    game.players[e.target].life += e.amount or 0
    game.log.event("gain-life", game.rule("gain-life"), target=e.target, amount=e.amount,
                   **({"source": e.source} if e.source else {}), **_label(e))
    life_gained(game, e.target, e.amount or 0)


def _counters(game: Board, e: Effect) -> None:
    kind = e.kind or "+1/+1"
    if kind == "poison":
        if e.target not in game.players:
            raise NotTaken(f"{e.target!r} is not a player: poison counters go on players")
        game.players[e.target].poison += e.amount or 0
    else:
        p = _creature(game, e.target, "counters")
        if kind == "-1/-1":
            p.minus += e.amount or 0
        else:
            p.plus += e.amount or 0
    game.log.event("counters", game.rule("counters"), target=e.target, amount=e.amount,
                   kind=kind, **_label(e))


def _lose_life(game: Board, e: Effect) -> None:
    if e.target not in game.players:
        raise NotTaken(f"{e.target!r} is not a player")
    game.players[e.target].life -= e.amount or 0
    game.log.event("lose-life", game.rule("lose-life"), target=e.target, amount=e.amount,
                   **_label(e))


def _lose_keyword(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "lose-keyword")
    assert e.keyword is not None
    # Every instance it has now, printed or granted; one granted later is kept.
    p.losses.append((e.keyword.name, len(p.granted)))
    game.log.event("lose-keyword", game.rule("pump"), target=p.id, keyword=e.keyword.name,
                   **_label(e))


def _add_mana(game: Board, e: Effect) -> None:
    player = e.by or ""
    game.players[player].mana += e.amount or 0
    game.log.event("add-mana", game.rule("add-mana"), target=player, amount=e.amount,
                   **_label(e))


def _discard(game: Board, e: Effect) -> None:
    if e.target not in game.players:
        raise NotTaken(f"{e.target!r} is not a player")
    game.log.event("discard", game.rule("discard"), target=e.target, amount=e.amount or 1,
                   **_label(e))


def _become_blocked(game: Board, e: Effect) -> None:
    p = _creature(game, e.target, "become-blocked")
    if p.id not in game.attacks:
        raise NotTaken(f"{p.id} is not attacking")
    if p.id in game.blocked:
        raise NotTaken(f"{p.id} is already blocked")
    game.log.event("becomes-blocked", game.rule("blocked"), target=p.id, **_label(e))
    becomes_blocked(game, p.id, by=[])


def _enter_blocking(game: Board, e: Effect) -> None:
    attacker = e.attacker or ""
    a = _creature(game, attacker, "enter-blocking")
    assert e.id and e.controller is not None
    token = Permanent(
        id=e.id, name=e.label or e.id, controller=e.controller,
        printed_power=e.power or 0, printed_toughness=e.toughness or 0, printed_loyalty=None,
        base_keywords=[], abilities=[], colors=frozenset(), types=frozenset({"creature"}),
        token=True,
    )
    game.permanents[e.id] = token
    game.order.append(e.id)
    game.log.event("enter-blocking", game.rule("enter-blocking"), target=e.id, attacker=a.id,
                   **_label(e))
    if a.id not in game.attacks or game.defending_player(a.id) != e.controller:
        # 509.7a: it enters, but is never a blocking creature.
        return
    game.blocks[e.id] = [a.id]
    era_of(game).place_in_order(game, a.id, e.id)
    becomes_blocked(game, a.id, by=[e.id], entered=True)


def _label(e: Effect) -> dict[str, str]:
    return {"card": e.label} if e.label else {}


HANDLERS = {
    "pump": _pump,
    "damage": _damage,
    "destroy": _destroy,
    "sacrifice": _sacrifice,
    "regenerate": _regenerate,
    "prevent": _prevent,
    "bounce": _bounce,
    "tap": _tap,
    "remove-from-combat": _remove_from_combat,
    "grant": _grant,
    "gain-life": _gain_life,
    "counters": _counters,
    "lose-life": _lose_life,
    "lose-keyword": _lose_keyword,
    "prevent-all-combat-damage": _prevent_all_combat_damage,
    "add-mana": _add_mana,
    "discard": _discard,
    "become-blocked": _become_blocked,
    "enter-blocking": _enter_blocking,
}


def ability_effect(ability: Ability, target: str | None, source: str, by: str,
                   label: str | None) -> Effect:
    return Effect(
        name=ability.effect, target=target, power=ability.power, toughness=ability.toughness,
        amount=ability.amount, keyword=ability.keyword, kind=ability.kind, source=source,
        by=by, label=label,
    )


def resolve_trigger(game: Board, t: PendingTrigger) -> None:
    """Resolve one triggered ability from the stack."""
    src = game.perm(t.source)
    label = src.name
    if t.kind == "rampage":
        beyond = max(0, len(game.blockers_of(t.source)) - 1)
        bonus = (t.amount or 0) * beyond
        effect = Effect("pump", t.source, bonus, bonus, source=t.source, label=label)
    elif t.kind == "bushido":
        effect = Effect("pump", t.source, t.amount, t.amount, source=t.source, label=label)
    elif t.kind == "flanking":
        effect = Effect("pump", t.other, -1, -1, source=t.source, label=label)
    elif t.kind == "deathtouch":
        other = game.permanents.get(t.other or "")
        if other is None or not other.on_battlefield:
            _not_taken(game, t, f"{t.other} is no longer on the battlefield")
            return
        destroy(game, other.id, t.rule, by=t.source)
        return
    elif t.kind == "lifelink":
        effect = Effect("gain-life", src.controller, amount=t.amount, source=t.source,
                        label=label)
    else:
        ability = t.ability
        if ability.delay == "end-of-combat":
            game.delayed.append(PendingTrigger(
                source=t.source, controller=t.controller,
                ability=ability.model_copy(update={"delay": None}), rule=game.rule("delayed"),
                condition="end-of-combat", other=t.other, defending=t.defending))
            game.log.event("delayed-trigger", t.rule, source=t.source,
                           **({"creature": t.other} if t.other else {}))
            return
        target = {
            "self": t.source,
            "that-creature": t.other,
            "defending-player": t.defending,
            "controller": t.controller,
            None: None,
        }[ability.target]
        effect = ability_effect(ability, target, t.source, t.controller, label)
        if ability.for_each == "blocker":  # counted as it resolves
            n = len(game.blockers_of(t.source))
            effect.power, effect.toughness = (ability.power or 0) * n, (ability.toughness or 0) * n
    try:
        apply(game, effect)
    except NotTaken as why:
        _not_taken(game, t, str(why))


def _not_taken(game: Board, t: PendingTrigger, why: str) -> None:
    game.log.note("trigger-not-taken", game.rule("fizzle"),
                  f"{t.source}'s {t.condition} trigger did nothing: {why}", source=t.source)
