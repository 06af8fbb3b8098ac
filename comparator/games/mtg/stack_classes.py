"""Classes of combat damage with the same futures, for explore's search: damage on the
stack (``stack_class``), and damage dealt as soon as it is assigned (``dealt_class``).

Where combat damage waits on the stack (the `sixth` era: 310.4 of the 1999 and 2009-05-01
rules), every division of an attacker's damage is searched with both players' answers
before it is dealt: thousands of divisions, each with the same few answers. Most of those
searches repeat one another. Two positions that differ only in the damage on the stack
have the same lines of play and reach the same outcomes, up to a player's life, when:

- nothing left to happen reads an amount of that damage except the checks for lethal
  damage: no prevention or protection, no deathtouch, lifelink, wither or infect on a
  source, no triggered abilities, nothing that grows with the graveyards, no unused action
  that deals damage, prevents it, changes life or poison, or activates an ability;
- each creature dealt damage meets the same checks for lethal damage whatever actions are
  still taken (its damage marked plus what waits for it, against its toughness with every
  sum of the unused pumps and counters that can target it; and with no damage marked, if
  it may regenerate first, which removes its damage);
- each player dealt damage stays above 0 life: what waits for them only moves their life,
  so each outcome of one position is an outcome of the other with that player's life moved
  by the difference, and its score moved with it (the best line stays the best).

Since M10 the damage is dealt as soon as it is assigned (510.2): nothing acts between,
so the same classes hold for the division that completes the last combat damage step.

A planeswalker's or battle's damage, a protected creature's, and anything that fails these
conditions, is kept exact, source by source: those positions merge only with equal ones.
Explore's comparisons with brute force (tests/test_explore.py, tests/test_stack_classes.py)
check the result."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from comparator.encoding import sorted_json
from comparator.explore_tree import Reach
from versions.mtg.engine.assignment import Assignment
from versions.mtg.engine.availability import Availability
from versions.mtg.engine.combat import Combat, forced_division
from versions.mtg.engine.steps import ASSIGNING
from versions.mtg.scenario import Window

# Effects an unused action may have: none reads or changes an amount of damage, or life.
SAFE_EFFECTS = frozenset({
    "pump", "counters", "grant", "regenerate", "add-mana", "destroy", "sacrifice", "bounce",
    "tap", "discard", "lose-keyword", "return-creature-cards", "remove-from-combat"})
# Keywords that make an amount of damage matter beyond lethal, or a source's share of it.
DAMAGE_KEYWORDS = frozenset({"deathtouch", "lifelink", "wither", "infect", "protection"})


def waiting_window(combat: Combat, first_strike: bool) -> str | None:
    """Where this era's combat damage waits between assigning and dealing, players acting
    there: on the stack (sixth), in a damage prevention step (fourth, fifth); None where it
    is dealt at once (510.2 since M10)."""
    return next((w for w in (
        (Window.FIRST_STRIKE_DAMAGE_ON_STACK, Window.FIRST_STRIKE_DAMAGE_PREVENTION)
        if first_strike else (Window.DAMAGE_ON_STACK, Window.DAMAGE_PREVENTION))
        if combat.era.has_window(w)), None)


def stack_class(combat: Combat, actions: list[Any]) -> tuple[Any, dict[str, int]] | None:
    """The key of this position's class, with the damage each player is to be dealt (its
    shift); None where the position has no class (merged only with equal ones)."""
    if (not combat.on_stack or combat.step is not None
            # Damage on the stack (not a damage prevention step's, whose rules read the
            # amounts: only a dying creature may regenerate, and before Urza's Saga trample
            # redirects what a blocker is dealt past lethal).
            or combat.board.log.step != Window.DAMAGE_ON_STACK
            or any(t[0] in ASSIGNING for t in combat.agenda)):
        return None
    found = _classes(combat, actions, combat.on_stack)
    if found is None:
        return None
    return combat.key(on_stack=("classes", found[0])), found[1]


def dealt_class(combat: Combat, actions: list[Any],
                amounts: dict[str, int]) -> tuple[Any, dict[str, int]] | None:
    """The class of the position a division leads to where the damage is dealt as soon as
    it is assigned (510.2 since M10): the last division of the last combat damage step
    (the creatures assigning after it having nothing to divide), every division legal as
    it is offered. The same conditions as damage on the stack: nothing acts between, so
    the class is that of the damage the step deals."""
    step = combat.step
    if (step is None or step.first_strike or step.unchecked
            or waiting_window(combat, first_strike=False) is not None):
        return None
    with combat.divided(amounts):
        rest = []
        for creature in step.creatures[len(step.done):]:
            forced = forced_division(combat.board, creature, step.targets[creature], True)
            if forced is None:  # another division to choose: no class yet
                return None
            rest.append(Assignment(creature, forced))
        found = _classes(combat, actions, [*step.done, *rest])
        if found is None:
            return None
        return combat.key(assigned=("classes", found[0])), found[1]


def _classes(combat: Combat, actions: list[Any], waiting_damage: list[Any],
             ) -> tuple[tuple[Any, ...], dict[str, int]] | None:
    """What stands for `waiting_damage` (assignments) in the class key, and the damage it
    deals each player; None if an amount may matter otherwise than by lethal damage."""
    board = combat.board
    if (board.stack or board.pending or board.delayed or board.over or board.fog
            or board.fogged or board.source_shields):
        return None
    if not isinstance(combat.actions, Availability):
        return None
    used = combat.actions.used
    boosts = _unused_boosts(actions, used)
    if boosts is None:
        return None
    regenerating = any(a.effect == "regenerate" for i, a in enumerate(actions) if i not in used)
    if any(p.lost or p.prevention or p.protection for p in board.players.values()) or any(
            p.prevention or p.deathtouched or p.grows for p in board.permanents.values()):
        return None
    waiting: dict[str, int] = {}
    # Kept exact, damage is kept with its sources: a creature protected from one of them
    # is dealt the others' share only.
    shares: dict[str, list[tuple[str, int]]] = {}
    for a in waiting_damage:
        source = board.permanents.get(a.source)
        if source is None or any(source.has(k) for k in DAMAGE_KEYWORDS):
            return None
        for target, amount in a.amounts.items():
            waiting[target] = waiting.get(target, 0) + amount
            shares.setdefault(target, []).append((a.source, amount))
    classes: list[tuple[Any, ...]] = []
    shifts: dict[str, int] = {}
    for name, player in board.players.items():  # a player dealt nothing is shifted by 0
        amount = waiting.get(name, 0)
        if player.life - amount > 0:
            shifts[name] = amount
            classes.append((name, "life"))
        else:
            classes.append((name, tuple(sorted(shares.get(name, ())))))
    for target, amount in sorted(waiting.items()):
        if target in board.players:
            continue
        p = board.permanents[target]
        if (not p.on_battlefield or not p.is_creature or p.is_planeswalker
                or "battle" in p.types or any(k.name == "protection" for k in p.keywords)):
            classes.append((target, tuple(sorted(shares[target]))))
            continue
        sums = {0}
        for boost in boosts.get(target, ()):
            sums |= {s + boost for s in sums}
        # It dies of the damage if its damage marked plus `amount` reaches its toughness
        # with some sum of boosts: `amount` matters only by which of these it reaches.
        # Regenerating before the damage is dealt (a shield it has, or one an unused action
        # may give it, used up by a destruction) removes the damage marked.
        marked = {p.damage, 0} if p.regen_shields or regenerating else {p.damage}
        marks = sorted({p.toughness + s - m for s in sums for m in marked})
        reached = bisect_right(marks, amount)
        if reached != bisect_right(marks, 0):  # else as though it were dealt nothing
            classes.append((target, "lethal", tuple(marks), reached))
    return tuple(classes), shifts


def _unused_boosts(actions: list[Any], used: frozenset[int]) -> dict[str, list[int]] | None:
    """The toughness each unused action could still add to each permanent (negative for
    what shrinks it), or None if an unused action could do anything else that matters."""
    boosts: dict[str, list[int]] = {}
    for i, a in enumerate(actions):
        if i in used:
            continue
        if a.effect not in SAFE_EFFECTS:
            return None
        if a.effect == "grant" and (a.keyword is None or a.keyword.name in DAMAGE_KEYWORDS):
            return None
        if a.effect == "counters" and a.kind not in (None, "+1/+1", "-1/-1"):
            return None
        boost = (a.toughness or 0) if a.effect == "pump" else (
            (a.amount or 0) * (-1 if a.kind == "-1/-1" else 1) if a.effect == "counters"
            else 0)
        if boost:
            for t in a.targets:
                if t is None:
                    return None
                boosts.setdefault(t, []).append(boost)
    return boosts


def shifted(reach: Reach | None, shifts: dict[str, int], known: dict[str, int],
            states: dict[str, tuple[dict[str, Any], tuple[int, ...]]],
            move_score: Any) -> Reach | None:
    """What a position reaches, from what another of its class reaches (`known`: the
    damage waiting for each player there; `shifts`: here): each outcome with each
    player's life moved by the difference, registered in `states`."""
    moves = {p: shifts[p] - known[p] for p in shifts if shifts[p] != known[p]}
    if reach is None or not moves:
        return reach
    renamed: dict[str, str] = {}

    def moved(key: str) -> str:
        if key not in renamed:
            state, score = states[key]
            players = {n: {**p, "life": p["life"] - moves[n]} if n in moves else p
                       for n, p in state["players"].items()}
            new = {**state, "players": players}
            new_key = sorted_json(new)
            states.setdefault(new_key, (new, move_score(score, moves)))
            renamed[key] = new_key
        return renamed[key]

    score, key, line = reach.value
    return Reach({moved(k): v for k, v in reach.outcomes.items()}, reach.lines,
                 (move_score(score, moves), moved(key), line))
