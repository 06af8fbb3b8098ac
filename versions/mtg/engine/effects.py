"""The effects of spec §1.4, applied to the game state, each logged with its rule.

An effect whose object is gone when it would happen is not an error: it is not taken, and
the outcome carries a note (spec §1.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from versions.mtg.engine.bands import band_blocked_by_effect, blocks_band_of
from versions.mtg.engine.damage import add_poison, deal
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
    exile_self: bool = False  # return-creature-cards: the source's card is exiled first
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


def destroy(board: Board, pid: str, rule: str, by: str | None = None) -> bool:
    """Destroy, with indestructible and regeneration shields applying. True if it died."""
    p = board.perm(pid)
    if p.has("indestructible"):
        board.log.event("indestructible", board.rule("indestructible"), target=pid)
        return False
    if p.regen_shields > 0:
        era_of(board).regenerates(board, pid)
        p.regen_shields -= 1
        p.damage = 0
        p.deathtouched = False
        p.tapped = True
        was_in_combat = board.in_combat(pid)
        board.remove_from_combat(pid)
        board.log.event("regenerate", board.rule("regenerate"), target=pid,
                       **({"removed-from-combat": True} if was_in_combat else {}))
        return False
    board.leave_battlefield(pid, "graveyard")
    board.log.event("destroy", rule, target=pid, **({"by": by} if by else {}))
    return True


def _permanent(board: Board, pid: str, what: str) -> Permanent:
    """A permanent named as a source: it may have left (its last known information)."""
    if pid not in board.permanents:
        raise NotTaken(f"{what}: no such permanent {pid!r}")
    return board.perm(pid)


def _creature(board: Board, pid: str | None, what: str) -> Permanent:
    if pid is None or pid not in board.permanents:
        raise NotTaken(f"{what}: no such permanent {pid!r}")
    p = board.perm(pid)
    if not p.on_battlefield:
        raise NotTaken(f"{pid} is no longer on the battlefield")
    return p


def apply(board: Board, e: Effect) -> None:
    """Apply one effect; raise NotTaken if it cannot happen."""
    if e.target in board.players and board.players[e.target].lost and \
            board.table.multiplayer:
        # A player who lost has left the game (102.5 of 2009-05-01; 104.5): nothing can
        # affect them any more.
        raise NotTaken(f"{e.target} has left the game")
    handler = HANDLERS[e.name]
    handler(board, e)


def _pump(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "pump")
    p.pumps.append((e.power or 0, e.toughness or 0))
    board.log.event("pump", board.rule("pump"), target=p.id, power=e.power,
                   toughness=e.toughness, **_label(e))


def _damage(board: Board, e: Effect) -> None:
    target = e.target or ""
    if target not in board.players:
        p = _creature(board, target, "damage")
        if not (p.is_creature or p.is_planeswalker or "battle" in p.types):
            raise NotTaken(f"{target} can't be dealt damage")
    deal(board, [(e.source, target, e.amount or 0)], combat=False,
         rule=board.rule("noncombat-damage"))


def _destroy(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "destroy")
    destroy(board, p.id, board.rule("destroy"), by=e.source)


def _sacrifice(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "sacrifice")
    board.leave_battlefield(p.id, "graveyard")
    board.log.event("sacrifice", board.rule("sacrifice"), target=p.id, **_label(e))


def _regenerate(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "regenerate")
    p.regen_shields += 1
    board.log.event("regeneration-shield", board.rule("regenerate"), target=p.id, **_label(e))


def _prevent(board: Board, e: Effect) -> None:
    if e.origin is not None:
        _permanent(board, e.origin, "prevent")
        board.source_shields[e.origin] = board.source_shields.get(e.origin, 0) + (e.amount or 0)
        board.log.event("prevention-shield", board.rule("prevent"), source=e.origin,
                       amount=e.amount, **_label(e))
        return
    if e.target in board.players:
        board.players[e.target].prevention += e.amount or 0
    else:
        _creature(board, e.target, "prevent").prevention += e.amount or 0
    board.log.event("prevention-shield", board.rule("prevent"), target=e.target,
                   amount=e.amount, **_label(e))


def _prevent_all_combat_damage(board: Board, e: Effect) -> None:
    if e.origin is None:
        board.fog = True
    else:
        _permanent(board, e.origin, "prevent-all-combat-damage")
        board.fogged = board.fogged | {e.origin}
    board.log.event("prevent-all-combat-damage", board.rule("prevent-all"),
                   **({"source": e.origin} if e.origin else {}), **_label(e))


def _bounce(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "bounce")
    board.leave_battlefield(p.id, "hand")
    board.log.event("bounce", board.rule("bounce"), target=p.id, **_label(e))


def _tap(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "tap")
    if p.tapped:
        raise NotTaken(f"{p.id} is already tapped")
    p.tapped = True
    board.log.event("tap", board.rule("tap"), target=p.id, **_label(e))


def _remove_from_combat(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "remove-from-combat")
    if not board.in_combat(p.id) and not board.being_attacked(p.id):
        raise NotTaken(f"{p.id} is not in combat")
    board.remove_from_combat(p.id)
    board.log.event("remove-from-combat", board.rule("remove-from-combat"), target=p.id,
                   **_label(e))


def _grant(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "grant")
    assert e.keyword is not None
    p.granted.append(e.keyword)
    board.log.event("grant", board.rule("pump"), target=p.id, keyword=str(e.keyword), **_label(e))


def _gain_life(board: Board, e: Effect) -> None:
    if e.target not in board.players:
        raise NotTaken(f"{e.target!r} is not a player")
    board.change_life(e.target, e.amount or 0)
    board.log.event("gain-life", board.rule("gain-life"), target=e.target, amount=e.amount,
                   **({"source": e.source} if e.source else {}), **_label(e))
    life_gained(board, e.target, e.amount or 0)


def _counters(board: Board, e: Effect) -> None:
    kind = e.kind or "+1/+1"
    if kind == "poison":
        if e.target not in board.players:
            raise NotTaken(f"{e.target!r} is not a player: poison counters go on players")
        add_poison(board, e.target, e.amount or 0)
    else:
        p = _creature(board, e.target, "counters")
        if kind == "-1/-1":
            p.minus += e.amount or 0
        else:
            p.plus += e.amount or 0
    board.log.event("counters", board.rule("counters"), target=e.target, amount=e.amount,
                   kind=kind, **_label(e))


def _lose_life(board: Board, e: Effect) -> None:
    if e.target not in board.players:
        raise NotTaken(f"{e.target!r} is not a player")
    board.change_life(e.target, -(e.amount or 0))
    board.log.event("lose-life", board.rule("lose-life"), target=e.target, amount=e.amount,
                   **_label(e))


def _lose_keyword(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "lose-keyword")
    assert e.keyword is not None
    # Every instance it has now, printed or granted; one granted later is kept.
    p.losses.append((e.keyword.name, len(p.granted)))
    board.log.event("lose-keyword", board.rule("pump"), target=p.id, keyword=e.keyword.name,
                   **_label(e))


def _add_mana(board: Board, e: Effect) -> None:
    player = e.by or ""
    board.players[player].mana += e.amount or 0
    board.log.event("add-mana", board.rule("add-mana"), target=player, amount=e.amount,
                   **_label(e))


def _discard(board: Board, e: Effect) -> None:
    if e.target not in board.players:
        raise NotTaken(f"{e.target!r} is not a player")
    board.log.event("discard", board.rule("discard"), target=e.target, amount=e.amount or 1,
                   **_label(e))


def _return_creature_cards(board: Board, e: Effect) -> None:
    """Each player returns all creature cards from their graveyard to their hand
    (Underworld Cerberus); with `exile_self`, the source's own card is exiled first."""
    if e.exile_self and e.source is not None:
        src = board.perm(e.source)
        own = next((c for c in board.players[src.controller].graveyard
                    if c.pid == e.source), None)
        if own is not None:
            board.move_card(own, src.controller, "exile")
            board.log.event("exiled", board.rule("exile-card"), target=e.source, **_label(e))
    for name, player in board.players.items():
        for card in [c for c in player.graveyard if c.creature]:
            board.move_card(card, name, "hand")
            board.log.event("returned-to-hand", board.rule("return-cards"), target=name,
                            what=card.name, source=e.source)


def _become_blocked(board: Board, e: Effect) -> None:
    p = _creature(board, e.target, "become-blocked")
    if p.id not in board.attacks:
        raise NotTaken(f"{p.id} is not attacking")
    if p.id in board.blocked:
        raise NotTaken(f"{p.id} is already blocked")
    board.log.event("becomes-blocked", board.rule("blocked"), target=p.id, **_label(e))
    becomes_blocked(board, p.id, by=[])
    band_blocked_by_effect(board, p.id)


def _enter_blocking(board: Board, e: Effect) -> None:
    attacker = e.attacker or ""
    a = _creature(board, attacker, "enter-blocking")
    assert e.id and e.controller is not None
    token = Permanent(
        id=e.id, name=e.label or e.id, controller=e.controller,
        printed_power=e.power or 0, printed_toughness=e.toughness or 0, printed_loyalty=None,
        base_keywords=[], abilities=[], colors=frozenset(), types=frozenset({"creature"}),
        token=True,
    )
    board.permanents[e.id] = token
    board.order.append(e.id)
    board.log.event("enter-blocking", board.rule("enter-blocking"), target=e.id, attacker=a.id,
                   **_label(e))
    if a.id not in board.attacks or board.defending_player(a.id) != e.controller:
        # 509.7a: it enters, but is never a blocking creature.
        return
    board.blocks[e.id] = [a.id]
    era_of(board).place_in_order(board, a.id, e.id)
    becomes_blocked(board, a.id, by=[e.id], entered=True)
    # It blocks the rest of the attacker's band too (702.22h: "becomes blocked by a
    # creature"), which becomes blocked by it as well.
    for member in blocks_band_of(board, e.id, a.id):
        era_of(board).place_in_order(board, member, e.id)
        becomes_blocked(board, member, by=[e.id], entered=True)


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
    "return-creature-cards": _return_creature_cards,
}


def ability_effect(ability: Ability, target: str | None, source: str, by: str,
                   label: str | None) -> Effect:
    return Effect(
        name=ability.effect, target=target, power=ability.power, toughness=ability.toughness,
        amount=ability.amount, keyword=ability.keyword, kind=ability.kind,
        exile_self=ability.exile_self, source=source, by=by, label=label,
    )


def resolve_trigger(board: Board, t: PendingTrigger) -> None:
    """Resolve one triggered ability from the stack."""
    src = board.perm(t.source)
    label = src.name
    if t.kind == "rampage":
        beyond = max(0, len(board.blockers_counted(t.source)) - 1)
        bonus = (t.amount or 0) * beyond
        effect = Effect("pump", t.source, bonus, bonus, source=t.source, label=label)
    elif t.kind == "bushido":
        effect = Effect("pump", t.source, t.amount, t.amount, source=t.source, label=label)
    elif t.kind == "flanking":
        effect = Effect("pump", t.other, -1, -1, source=t.source, label=label)
    elif t.kind == "deathtouch":
        other = board.permanents.get(t.other or "")
        if other is None or not other.on_battlefield:
            _not_taken(board, t, f"{t.other} is no longer on the battlefield")
            return
        destroy(board, other.id, t.rule, by=t.source)
        return
    elif t.kind == "lifelink":
        effect = Effect("gain-life", src.controller, amount=t.amount, source=t.source,
                        label=label)
    else:
        ability = t.ability
        if ability.delay == "end-of-combat":
            board.delayed.append(PendingTrigger(
                source=t.source, controller=t.controller,
                ability=ability.model_copy(update={"delay": None}), rule=board.rule("delayed"),
                condition="end-of-combat", other=t.other, defending=t.defending))
            board.log.event("delayed-trigger", t.rule, source=t.source,
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
            n = len(board.blockers_of(t.source))
            effect.power, effect.toughness = (ability.power or 0) * n, (ability.toughness or 0) * n
    try:
        apply(board, effect)
    except NotTaken as why:
        _not_taken(board, t, str(why))


def _not_taken(board: Board, t: PendingTrigger, why: str) -> None:
    board.log.note("trigger-not-taken", board.rule("fizzle"),
                  f"{t.source}'s {t.condition} trigger did nothing: {why}", source=t.source)
