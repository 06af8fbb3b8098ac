"""Combat damage assignment: who a creature may assign to, the rules a division is checked
with, and the choices of spec §1.5 (the default division, the `most-kills` policy).

What is lethal and which rules a division must obey are the era's to say
(``Era.lethal_damage``, ``Era.division_rules``, which names ``Division`` rules); this module
checks them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import combinations
from math import comb
from typing import Any

from versions.mtg.engine.assigned import (
    Assignment,
    Division,
    Targets,
    assigned_to,
)
from versions.mtg.engine.state import Board
from versions.mtg.rules import era_of

OVERFLOW_LIMIT = 2_000_000  # divisions walked for an era's own division rules


def _attack_target_alive(board: Board, attacker: str) -> str | None:
    target = board.attacks.get(attacker)
    if target is None:
        return None
    if board.is_player(target):
        return target
    if target in board.not_attacked:  # removed from combat (506.4c): attacks nothing
        return None
    p = board.permanents[target]
    return target if p.on_battlefield and (p.is_planeswalker or "battle" in p.types) else None


def banded(board: Board, pid: str) -> bool:
    """Whether banding gives the other player the division of this creature's combat
    damage: an attacker blocked by a creature with banding, or a blocker blocking one
    (A.11.12-13 and C.8.5-6 of 1999; 502.10h; 702.19j-k, 702.22j-k)."""
    if pid in board.attacks:
        return any(board.perm(b).has("banding") for b in board.blockers_of(pid))
    return any(board.perm(a).has("banding") for a in board.blocks.get(pid, []))


def chooser(board: Board, pid: str) -> str:
    """Who divides this creature's combat damage: its controller, or under banding the
    other player (the defending player for an attacker, the active player for a blocker)."""
    if not banded(board, pid):
        return board.perm(pid).controller
    return board.defending_player(pid) if pid in board.attacks else board.active


def rules_for(board: Board, source: str) -> tuple[DivisionRule, ...]:
    """The rules a division of `source`'s damage obeys: the era's, or under banding only
    the total, divided among the creatures as the banding player chooses (no order, no
    lethal damage first, nothing to the player)."""
    if banded(board, source):
        return (TOTAL,)
    rules = tuple(CHECKS[d] for d in era_of(board).division_rules(board, source))
    if board.perm(source).has("trample-over-planeswalkers"):
        rules = (*rules, OVER_PLANESWALKERS)
    return rules


def targets_of(board: Board, pid: str) -> Targets:
    creature = board.perm(pid)
    if pid in board.attacks:
        if pid not in board.blocked:
            return Targets([], unblocked=_attack_target_alive(board, pid),
                           rule=board.rule("assign-unblocked"))
        blockers = board.blockers_of(pid)
        if pid in board.damage_orders:
            ordered = [b for b in board.damage_orders[pid] if b in blockers]
            blockers = ordered + [b for b in blockers if b not in ordered]
        over_walkers = creature.has("trample-over-planeswalkers")
        tramples = creature.has("trample") and era_of(board).trample_assigns_over(board, pid)
        overflow = _attack_target_alive(board, pid) if tramples or over_walkers else None
        beyond = None
        if over_walkers:
            target = board.attacks[pid]
            if overflow is not None and overflow in board.permanents:
                beyond = board.perm(overflow).controller  # 702.19c
            elif overflow is None and target in board.permanents:
                overflow = board.perm(target).controller  # removed from combat: 702.19e
        found = _blocked_targets(board, pid, blockers, overflow, beyond)
        found.redirects = creature.has("trample") and not tramples and bool(blockers)
        if creature.has("assign-as-unblocked") and not banded(board, pid):
            # It may instead assign all its damage to what it attacks (Thorn Elemental).
            found.or_unblocked = _attack_target_alive(board, pid)
        return found
    attackers = list(board.blocks.get(pid, []))
    if pid in board.damage_orders:
        ordered = [a for a in board.damage_orders[pid] if a in attackers]
        attackers = ordered + [a for a in attackers if a not in ordered]
    return Targets(attackers, rule=board.rule("banding" if banded(board, pid)
                                            else "assign-blocker"))


def _blocked_targets(board: Board, pid: str, blockers: list[str], overflow: str | None,
                     beyond: str | None) -> Targets:
    if not blockers and overflow and beyond:  # 702.19d: the walker, then its player
        return Targets([], overflow=overflow, beyond=beyond,
                       rule=board.rule("trample-over-planeswalkers"))
    if not blockers and overflow:
        return Targets([], unblocked=overflow, rule=board.rule("trample-no-blockers"))
    if banded(board, pid):  # divided among the blockers, by the defending player
        return Targets(blockers, rule=board.rule("banding"))
    rule = board.rule("trample-over-planeswalkers" if beyond else
                     "trample" if overflow else "assign-blocked")
    return Targets(blockers, overflow=overflow, rule=rule, beyond=beyond)


# While divisions of one creature are enumerated, the game and the other creatures'
# assignments don't change, so what is lethal for each target is asked of the era once.
# A context variable, not a global: each thread (a Dask worker's) has its own.
_FIXED_LETHAL: ContextVar[dict[tuple[str | None, str], int] | None] = ContextVar(
    "fixed_lethal", default=None)


@contextmanager
def fixed_lethal() -> Iterator[None]:
    token = _FIXED_LETHAL.set({})
    try:
        yield
    finally:
        _FIXED_LETHAL.reset(token)


def lethal_needed(board: Board, source: str | None, target: str, others: list[Assignment]) -> int:
    """What `source` must assign to `target` for it to count as lethal, in this era."""
    cache = _FIXED_LETHAL.get()
    if cache is None:
        return era_of(board).lethal_damage(board, source, target, others)
    key = (source, target)
    if key not in cache:
        cache[key] = era_of(board).lethal_damage(board, source, target, others)
    return cache[key]


class DivisionRule(ABC):
    """One rule a division of combat damage must obey. `amounts` may cover only the first
    keys of `targets.keys` (in the era's order, what it attacks last): `complete` says
    whether all are there; an incomplete division fails only if no completion could pass,
    which lets legal divisions be generated without trying every one.

    Every rule is monotone in the last key's amount: if giving it some amount fails, any
    larger amount fails too (generators stop at the first failure)."""

    @abstractmethod
    def problem(self, board: Board, source: str, targets: Targets, amounts: dict[str, int],
                others: list[Assignment], complete: bool = True) -> str | None: ...


class Total(DivisionRule):
    """Every point of the creature's power goes to something it may assign damage to."""

    def problem(self, board: Board, source: str, targets: Targets, amounts: dict[str, int],
                others: list[Assignment], complete: bool = True) -> str | None:
        power = board.perm(source).power
        allowed = targets.keys if not targets.unblocked else (targets.unblocked,)
        for key in amounts:
            if key not in allowed:
                return f"{key} is not something {source} can assign damage to now"
        total = sum(amounts.values())
        if total != max(power, 0) and (complete or total > max(power, 0)):
            return f"the amounts add up to {total}, but {source}'s power is now {power}"
        return None


class InOrder(DivisionRule):
    """A damage assignment order binds: nothing to a creature until every creature before
    it in the order is assigned lethal damage."""

    def problem(self, board: Board, source: str, targets: Targets, amounts: dict[str, int],
                others: list[Assignment], complete: bool = True) -> str | None:
        short: tuple[str, int] | None = None  # the first creature not assigned lethal damage
        for target in targets.creatures:
            amount = amounts.get(target, 0)
            if amount and short is not None:
                before, need = short
                return (f"{before} must be assigned lethal damage ({need}) before {target} "
                        f"in {source}'s damage assignment order")
            if short is None:
                need = lethal_needed(board, source, target, others)
                if amount < need:
                    short = (target, need)
        return None


class Trample(DivisionRule):
    """Trample: damage goes past the blockers only once each is assigned lethal damage."""

    def problem(self, board: Board, source: str, targets: Targets, amounts: dict[str, int],
                others: list[Assignment], complete: bool = True) -> str | None:
        if not targets.overflow or amounts.get(targets.overflow, 0) == 0:
            return None
        return blockers_short(board, source, targets, amounts, others,
                              f"tramples over to {targets.overflow}")


def blockers_short(board: Board, source: str, targets: Targets, amounts: dict[str, int],
                   others: list[Assignment], what: str) -> str | None:
    """The first blocker not assigned lethal damage, said as what it holds back."""
    for blocker in targets.creatures:
        need = lethal_needed(board, source, blocker, others)
        if amounts.get(blocker, 0) < need:
            return f"{blocker} must be assigned lethal damage ({need}) before any damage {what}"
    return None


class OverPlaneswalkers(DivisionRule):
    """Trample over planeswalkers (702.19c): damage goes past the planeswalker to its
    controller only once every blocker is assigned lethal damage and the planeswalker damage
    at least equal to its loyalty (counting what other creatures assign to it now)."""

    def problem(self, board: Board, source: str, targets: Targets, amounts: dict[str, int],
                others: list[Assignment], complete: bool = True) -> str | None:
        if not targets.beyond or amounts.get(targets.beyond, 0) == 0:
            return None
        short = blockers_short(board, source, targets, amounts, others,
                               f"goes past the planeswalker to {targets.beyond}")
        if short:
            return short
        walker = targets.overflow or ""
        need = loyalty_needed(board, walker, others)
        if amounts.get(walker, 0) < need:
            return (f"{walker} must be assigned damage equal to its loyalty ({need}) before "
                    f"any goes to {targets.beyond}")
        return None


def loyalty_needed(board: Board, walker: str, others: list[Assignment]) -> int:
    """Damage a planeswalker must be assigned before trample over planeswalkers goes past it:
    its loyalty, less what other creatures assign to it in the same step (702.19c)."""
    p = board.permanents.get(walker)
    if p is None or not p.is_planeswalker:
        return 0
    return max(0, (p.loyalty or 0) - assigned_to(walker, others))


TOTAL, IN_ORDER, TRAMPLE = Total(), InOrder(), Trample()
OVER_PLANESWALKERS = OverPlaneswalkers()
CHECKS: dict[Division, DivisionRule] = {
    Division.TOTAL: TOTAL, Division.IN_ORDER: IN_ORDER, Division.TRAMPLE: TRAMPLE,
    Division.OVER_PLANESWALKERS: OVER_PLANESWALKERS}


def division_problem(board: Board, source: str, targets: Targets, amounts: dict[str, int],
                     others: list[Assignment], complete: bool = True,
                     rules: tuple[DivisionRule, ...] | None = None) -> str | None:
    """Why this division breaks one of the era's rules for `source`, or None."""
    if complete and targets.as_unblocked(amounts, max(board.perm(source).power, 0)):
        return None  # all of it to what it attacks, as though it weren't blocked
    for rule in rules if rules is not None else rules_for(board, source):
        why = rule.problem(board, source, targets, amounts, others, complete)
        if why:
            return why
    return None


def default_division(
    board: Board, source: str, targets: Targets, earlier: list[Assignment]
) -> dict[str, int]:
    """Spec §1.5.3: lethal to each in order, the rest to the player (trample) or the first."""
    remaining = max(board.perm(source).power, 0)
    if targets.unblocked:
        return {targets.unblocked: remaining} if remaining else {}
    if not targets.creatures and not targets.beyond:
        return {}
    amounts: dict[str, int] = {}
    for target in targets.creatures:
        give = min(lethal_needed(board, source, target, earlier), remaining)
        amounts[target] = give
        remaining -= give
    if remaining and targets.beyond and targets.overflow:
        give = min(loyalty_needed(board, targets.overflow, earlier), remaining)
        amounts[targets.overflow] = give
        remaining -= give
        amounts[targets.beyond] = remaining
        remaining = 0
    if remaining:
        sink = targets.overflow or targets.creatures[0]
        amounts[sink] = amounts.get(sink, 0) + remaining
    return {k: v for k, v in amounts.items() if v}


def _compositions(total: int, parts: int):
    """Every way to write `total` as `parts` non-negative whole numbers, in order."""
    for bars in combinations(range(total + parts - 1), parts - 1):
        prev = -1
        out = []
        for b in bars:
            out.append(b - prev - 1)
            prev = b
        out.append(total + parts - 1 - prev - 1)
        yield out


def divisions_count(power: int, parts: int) -> int:
    return comb(power + parts - 1, parts - 1) if parts else 0


def legal_divisions(
    board: Board, source: str, targets: Targets, others: list[Assignment]
) -> list[dict[str, int]]:
    """Every legal division, in the contract's canonical order: amounts in the era's order,
    greatest first; taking all of it to what it attacks instead comes last."""
    return [d for d, _ in division_classes(board, source, targets, others)]


class TooManyDivisions(Exception):
    """More legal divisions than the caller's budget: a search refuses the decision."""

    def __init__(self, found: int):
        self.found = found
        super().__init__(f"more than {found - 1} divisions")


def division_classes(
    board: Board, source: str, targets: Targets, others: list[Assignment],
    sure: dict[str, int | None] | None = None, rules: tuple[DivisionRule, ...] | None = None,
    canonical: list[str] | None = None, budget: int | None = None,
    alike: dict[str, int] | None = None,
) -> list[tuple[dict[str, int], int]]:
    """Every legal division of `source`'s combat damage, as classes of divisions with the
    same future: (the class's first division in canonical order, how many it stands for).

    `sure[k]`: the damage from which `k` surely dies whatever else happens, so that any more
    changes nothing (None or absent: every amount counts). `alike[k]`: for a creature
    with a `sure` amount, the amount short of which it surely survives, each amount
    changing nothing either (nothing after this division reads them: the caller knows).
    `rules`: the rules to check (the era's by default). `canonical`: the recipients in the
    order divisions are sorted by (the era's order by default). Divisions are generated
    key by key in the era's order, a partial one dropped as soon as no completion of it
    could be legal."""
    power = max(board.perm(source).power, 0)
    option = [(o, 1) for o in targets.unblocked_options(power)]
    keys = targets.keys
    if targets.unblocked or not keys:
        default = default_division(board, source, targets, others)
        return [(default, 1), *[x for x in option if x[0] != default]]
    sure = sure or {}
    rules = rules if rules is not None else rules_for(board, source)
    canonical = canonical or keys
    out: list[tuple[dict[str, int], int]] = []

    def check(amounts: dict[str, int], complete: bool) -> str | None:
        return division_problem(board, source, targets, amounts, others, complete, rules)

    # Under the total, the order and trample, whether a partial division can still be
    # completed legally depends only on its last amount and on whether a creature before
    # it is short of lethal damage: carried along (`short`), not checked again each time.
    # The walk gives out the whole power, so a division whose parts all pass is legal.
    prefix = (set(rules) <= {TOTAL, IN_ORDER, TRAMPLE} and not targets.or_unblocked
              and not targets.beyond)
    in_order, trample = IN_ORDER in rules, TRAMPLE in rules
    creatures = set(targets.creatures)
    needs: dict[str, int] = {}

    def fails(k: str, partial: dict[str, int], short: bool) -> bool:
        """Whether `partial`, whose last key `k` is given more than 0, breaks a rule."""
        if not prefix:
            return check(partial, False) is not None
        return short and (in_order if k in creatures else trample)

    def walk(i: int, left: int, amounts: dict[str, int], lethal: list[str],
             short: bool = False) -> None:
        if i == len(keys) - 1 and not lethal and sure.get(keys[i]) is None:
            done = {**amounts, keys[i]: left} if left else amounts  # the rest to the last
            if (not (left and fails(keys[i], done, short)) if prefix
                    else check(done, True) is None):
                out.append((done, 1))
                if budget is not None and len(out) > budget:
                    raise TooManyDivisions(len(out))
            return
        if i == len(keys):
            if left and not lethal:
                return
            # What is left goes to a creature that surely dies: one division of the class.
            first = min(lethal, key=canonical.index) if lethal else None
            final = {**amounts, first: amounts[first] + left} if first else amounts
            # By the prefix rules, more to a creature already given an amount that passed
            # changes nothing: the whole is legal as every part of it was.
            if prefix or check(final, True) is None:
                out.append((final, comb(left + len(lethal) - 1, len(lethal) - 1)
                            if lethal else 1))
                if budget is not None and len(out) > budget:
                    raise TooManyDivisions(len(out))
            return
        k = keys[i]
        n = sure.get(k)
        top = left if n is None else min(left, n - 1)
        choices = [(v, False) for v in range(0, top + 1)]
        if n is not None and left >= n:
            choices.append((n, True))
        for v, is_lethal in choices:  # ascending: the rules are monotone in v
            partial = {**amounts, k: v} if v else amounts
            if v and fails(k, partial, short):
                break  # more to this key fails too
            walk(i + 1, left - v, partial, [*lethal, k] if is_lethal else lethal,
                 short or (k in creatures and v < needs[k]) if prefix else short)

    with fixed_lethal():
        if prefix:
            needs.update((c, lethal_needed(board, source, c, others)) for c in creatures)
        alike = {k: n for k, n in (alike or {}).items() if sure.get(k) is not None and n > 1}
        if prefix and alike and (power + 1) ** 2 * len(keys) <= ALIKE_WORK:
            out = _alike_classes(keys, power, sure, alike, creatures, needs, canonical,
                                 in_order, trample)
            if budget is not None and len(out) > budget:
                raise TooManyDivisions(len(out))
        else:
            walk(0, power, {}, [])
    out.sort(key=lambda item: [-item[0].get(k, 0) for k in canonical])
    return out + [x for x in option if all(x[0] != d for d, _ in out)]


# The most work `_alike_classes` may do, in amounts tried: about the square of the power
# for each recipient (a second's worth); past it, the divisions are walked one by one.
ALIKE_WORK = 4_000_000


def _alike_classes(keys: list[str], power: int, sure: dict[str, int | None],
                   alike: dict[str, int], creatures: set[str], needs: dict[str, int],
                   canonical: list[str], in_order: bool, trample: bool,
                   ) -> list[tuple[dict[str, int], int]]:
    """The legal divisions under the total, the order and trample, in classes by what
    each recipient's amount can change: for one with a `sure` amount, past it (dies), or
    each amount short of it, those short of `alike[k]` (survives) being one; for anything
    else, each amount. Counted
    by dynamic programming over (key, damage left, a creature before short of lethal):
    legality depends on nothing else under those rules. Each class's first division in
    canonical order stands for it."""
    # For the amounts of keys i.. (a division's tail), their positions in canonical order:
    # two tails of one class share what comes before them, so they compare as wholes do.
    rank = {k: canonical.index(k) for k in keys}
    read = [sorted(range(len(keys) - i), key=lambda j, i=i: rank[keys[i + j]])
            for i in range(len(keys))]
    Classes = dict[tuple[Any, ...], tuple[tuple[int, ...], int]]
    cache: dict[tuple[int, int, bool], Classes] = {}

    def label(k: str, v: int) -> Any:
        n = sure.get(k)
        if n is None:
            return v
        if v >= n:
            return "past"
        return "short" if v < alike.get(k, 0) else v

    def before(i: int, a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        """Whether tail `a` of keys i.. comes before `b` in canonical order (the greatest
        amounts first, read in canonical order)."""
        return [a[j] for j in read[i]] > [b[j] for j in read[i]]

    def rest(i: int, left: int, short: bool) -> Classes:
        """The classes of the amounts of keys i.. giving out `left`: label tuple ->
        (its first amounts, how many)."""
        found = cache.get((i, left, short))
        if found is not None:
            return found
        k = keys[i]
        last = i == len(keys) - 1
        found = {}
        for v in ([left] if last else range(left + 1)):
            if v and short and (in_order if k in creatures else trample):
                break  # more to this key fails too
            after = short or (k in creatures and v < needs[k])
            tails = {(): ((), 1)} if last else rest(i + 1, left - v, after)
            for labels, (amounts, n) in tails.items():
                whole = (label(k, v), *labels)
                mine = (v, *amounts)
                if whole in found:
                    first, m = found[whole]
                    found[whole] = (mine if before(i, mine, first) else first, m + n)
                else:
                    found[whole] = (mine, n)
        cache[(i, left, short)] = found
        return found

    return [({k: v for k, v in zip(keys, amounts, strict=True) if v}, n)
            for amounts, n in rest(0, power, False).values()]


def all_divisions(board: Board, source: str, targets: Targets) -> list[dict[str, int]]:
    """Every division of the whole power among what `source` may assign to, legal or not."""
    power = max(board.perm(source).power, 0)
    keys = targets.keys
    option = targets.unblocked_options(power)
    if targets.unblocked or not keys:
        return [default_division(board, source, targets, []), *option]
    return [{k: v for k, v in zip(keys, parts, strict=True) if v}
            for parts in _compositions(power, len(keys))] + [
        o for o in option if targets.or_unblocked not in keys]


def _is_lethal(board: Board, target: str, amounts_all: list[Assignment]) -> bool:
    return lethal_needed(board, None, target, amounts_all) == 0


def most_kills(
    board: Board, source: str, targets: Targets, earlier: list[Assignment]
) -> dict[str, int]:
    """Spec §1.5.4: most creatures with lethal damage, then most to the player, then the
    division whose amounts, read in order, are greatest first. Under the rules every era
    uses (the total, the order, trample) this is dynamic programming over the targets in
    order, not a walk over divisions; an era with a rule of its own is walked instead."""
    if targets.unblocked or not targets.keys:
        best = default_division(board, source, targets, earlier)
    else:
        rules = rules_for(board, source)
        if not set(rules) <= {TOTAL, IN_ORDER, TRAMPLE}:
            best = most_kills_by_enumeration(board, source, targets, earlier)
        else:
            best = _most_kills_planned(board, source, targets, earlier, rules)
    power = max(board.perm(source).power, 0)
    for option in targets.unblocked_options(power):
        # Assigning as though unblocked kills nothing: it wins only when nothing else
        # kills, and sends more to what it attacks.
        kills = sum(1 for c in targets.creatures
                    if _is_lethal(board, c, [*earlier, Assignment(source, best)]))
        over = sum(best.get(k, 0) for k in (targets.overflow, targets.beyond) if k)
        if kills == 0 and over < power:
            return option
    return best


def _most_kills_planned(board: Board, source: str, targets: Targets, earlier: list[Assignment],
                        rules: tuple[DivisionRule, ...]) -> dict[str, int]:
    power = max(board.perm(source).power, 0)
    creatures = targets.creatures
    # What each creature needs for the division to count it lethal (the order, trample),
    # and whether an amount leaves it with lethal damage (a kill): each depends only on
    # what this creature is given, with the other creatures' assignments fixed.
    need = [lethal_needed(board, source, c, earlier) for c in creatures]
    kills = [[_is_lethal(board, c, [*earlier, Assignment(source, {c: x})])
              for x in range(power + 1)] for c in creatures]
    in_order = IN_ORDER in rules
    gated = TRAMPLE in rules  # overflow only once every creature has lethal damage
    Value = tuple[int, int]  # (kills, damage to what it attacks)

    def redirected(j: int, v: int) -> int:
        """What trample before Urza's Saga would redirect of `v` on creature j."""
        return max(0, v - need[j]) if targets.redirects else 0

    memo: dict[tuple[int, int, bool], Value | None] = {}

    def best(j: int, left: int, short: bool) -> Value | None:
        """The best from creature j on with `left` damage, `short` if an earlier creature
        got less than lethal; None if no legal way."""
        if j == len(creatures):
            if not left:
                return (0, 0)
            if targets.overflow and not (gated and short):
                return (0, left)
            return None
        key = (j, left, short)
        if key not in memo:
            found: Value | None = None
            for v in range(left + 1) if not (in_order and short) else (0,):
                rest = best(j + 1, left - v, short or v < need[j])
                if rest is not None:
                    value = (rest[0] + kills[j][v], rest[1] + redirected(j, v))
                    found = value if found is None or value > found else found
            memo[key] = found
        return memo[key]

    goal = best(0, power, False)
    if goal is None:  # no legal division at all: the rules leave nothing to choose
        return default_division(board, source, targets, earlier)
    amounts: dict[str, int] = {}
    left, short = power, False
    for j, c in enumerate(creatures):
        # The greatest amount that still reaches the best: greatest first, in order.
        for v in range(left, -1, -1) if not (in_order and short) else (0,):
            rest = best(j + 1, left - v, short or v < need[j])
            if rest is not None and (rest[0] + kills[j][v], rest[1] + redirected(j, v)) == goal:
                break
        if v:
            amounts[c] = v
        goal = rest  # type: ignore[assignment]
        left, short = left - v, short or v < need[j]
    if left:
        amounts[targets.overflow] = left  # type: ignore[index]
    return amounts


def most_kills_by_enumeration(
    board: Board, source: str, targets: Targets, earlier: list[Assignment]
) -> dict[str, int]:
    """`most-kills` by walking every legal division: for division rules the planner does
    not know, and as the reference the planner is tested against."""
    power = max(board.perm(source).power, 0)
    if divisions_count(power, len(targets.keys)) > OVERFLOW_LIMIT:
        board.log.note(
            "policy-too-large", targets.rule,
            f"{source}: too many divisions to search for most-kills; the default is used",
            creature=source,
        )
        return default_division(board, source, targets, earlier)
    best: tuple | None = None
    best_amounts: dict[str, int] = {}
    for amounts in legal_divisions(board, source, targets, earlier):
        mine = Assignment(source, amounts)
        kills = sum(1 for c in targets.creatures if _is_lethal(board, c, [*earlier, mine]))
        over = sum(amounts.get(k, 0) for k in (targets.overflow, targets.beyond) if k)
        if targets.redirects:
            over += sum(max(0, amounts.get(c, 0) - lethal_needed(board, source, c, earlier))
                        for c in targets.creatures)
        key = (kills, over, tuple(amounts.get(k, 0) for k in targets.keys))
        if best is None or key > best:
            best, best_amounts = key, amounts
    return best_amounts
