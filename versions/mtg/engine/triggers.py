"""Triggered abilities: noticing them, putting them on the stack, resolving them.

Abilities written on cards (spec §1.3) and the classic trigger keywords (rampage, bushido,
flanking) both become ``PendingTrigger``s; the era's triggered deathtouch and lifelink
(where an era has them triggered) are added by the era's ``damage_triggers``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.mtg.engine.state import Board, PendingTrigger
from versions.mtg.rules import era_of
from versions.mtg.scenario import Ability

if TYPE_CHECKING:
    from versions.mtg.engine.state import Permanent

TRIGGER_RULE_KEYS = {
    "blocks": "trigger-blocks",
    "blocks-creature": "trigger-blocks-creature",
    "becomes-blocked": "trigger-becomes-blocked",
    "becomes-blocked-by-creature": "trigger-becomes-blocked-by-creature",
    "attacks-unblocked": "trigger-attacks-unblocked",
    # "attacks [a player] and isn't blocked": 508.3a's "attacks [a player]" (CR 2025) on
    # the unblocked trigger; the same rule number, the attack's target read too
    "attacks-player-unblocked": "trigger-attacks-unblocked",
    "deals-combat-damage-to-player": "trigger-damage",
    "dealt-damage": "trigger-damage",
    "gains-life": "trigger-gains-life",
}


def _passes(ability: Ability, other: Permanent | None) -> bool:
    f = ability.if_
    if f is None or other is None:
        return True
    if f.color and f.color not in other.colors:
        return False
    return not (f.not_color and f.not_color in other.colors)


def ability_triggers(
    board: Board, pid: str, condition: str, other: str | None = None,
    defending: str | None = None,
) -> None:
    """Every ability of `pid` whose trigger is `condition` triggers once. The `if:` filter
    reads the other creature's characteristics now, as the event happens (509.5f)."""
    perm = board.perm(pid)
    if not perm.abilities:
        return
    other_perm = board.permanents.get(other) if other else None
    for ability in perm.abilities:
        if ability.trigger != condition or not _passes(ability, other_perm):
            continue
        if not perm.on_battlefield:
            # Only leaves-the-battlefield abilities look back in time; none of ours do.
            board.log.hint(board.rule("trigger-left"), (
                f"{pid} had left the battlefield, so its {condition} ability no longer "
                f"existed and did not trigger ({board.rule('trigger-left')})."))
            continue
        board.pending.append(PendingTrigger(
            source=pid, controller=perm.controller, ability=ability,
            rule=board.rule(TRIGGER_RULE_KEYS[condition]), condition=condition, other=other,
            defending=defending))


def life_gained(board: Board, player: str, amount: int) -> None:
    """A life-gain event: "whenever you gain life" abilities of the player's permanents
    trigger, once per event (a source's gain is one event; 0 life is none: 119.9)."""
    if amount <= 0:
        return
    for pid in board.order:
        p = board.permanents[pid]
        if p.controller == player and p.on_battlefield and p.abilities:
            ability_triggers(board, pid, "gains-life")


def keyword_trigger(board: Board, pid: str, kind: str, rule_key: str, other: str | None = None,
                    value: int = 0) -> None:
    perm = board.perm(pid)
    board.pending.append(PendingTrigger(
        source=pid, controller=perm.controller,
        ability=Ability(trigger="becomes-blocked", effect="pump", target="self", power=value,
                        toughness=value),
        rule=board.rule(rule_key), condition=kind, other=other, amount=value, kind=kind))


def becomes_blocked(board: Board, attacker: str, by: list[str], entered: bool = False) -> None:
    """`attacker` becomes blocked by the creatures `by` (none when an effect blocks it).

    One function for every way: declared blockers, an effect (Curtain of Light), a creature
    put onto the battlefield blocking it (Flash Foliage). "Becomes blocked" abilities and
    the keywords that trigger on it (rampage, bushido) trigger once, and only if it was
    unblocked; "becomes blocked by a creature" ones once for each creature, flanking
    among them from Sixth on.
    """
    a = board.perm(attacker)
    defending = board.defending_player(attacker)
    was_blocked = attacker in board.blocked
    if attacker not in board.blocked:
        board.blocked.add(attacker)
        ability_triggers(board, attacker, "becomes-blocked", defending=defending)
        for value in a.values("rampage"):
            keyword_trigger(board, attacker, "rampage", "rampage", value=value)
        for value in a.values("bushido"):
            keyword_trigger(board, attacker, "bushido", "bushido", value=value)
    for blocker in by:
        if entered and not era_of(board).entered_blocker_triggers(board, attacker,
                                                                 was_blocked, blocker):
            continue  # the era's note says why
        ability_triggers(board, attacker, "becomes-blocked-by-creature", other=blocker,
                         defending=defending)
        # Flanking reads "becomes blocked by a creature without flanking" from Sixth on
        # (502.3a, 702.22a, 702.25a): it triggers where such abilities do, a creature put
        # onto the battlefield blocking included where the era says so (309.4, 509.4d of
        # 2010); before Sixth it names a creature "assigned to block" (A.19.2), which
        # one put into play blocking never was.
        if entered and not board.era.counts_band_blockers:
            continue
        if not board.perm(blocker).has("flanking") and \
                blocker in board.blockers_counted(attacker):
            for _ in range(a.count("flanking")):
                keyword_trigger(board, attacker, "flanking", "flanking", other=blocker)


def put_on_stack(board: Board) -> None:
    """APNAP: the active player's triggers go on the stack first, so they resolve last."""
    if not board.pending:
        return
    names = list(board.players)
    i = names.index(board.active)
    turn = names[i:] + names[:i]
    for name in turn:
        for t in [t for t in board.pending if t.controller == name]:
            board.stack.append(t)
            board.log.event("trigger", t.rule, source=t.source, condition=t.condition,
                           **({"creature": t.other} if t.other else {}))
    board.pending.clear()
