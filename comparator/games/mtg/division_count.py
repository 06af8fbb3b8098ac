"""How many options a divide decision has, counted before they are listed: the classes of
divisions ``versions.mtg.engine.assignment.division_classes`` would list, counted by the
same walk without building one. A creature of a million power divides it a million ways
among two blockers (C(N + k - 1, k - 1) among k): listing them takes seconds, and a search
refuses a decision of more options than its limit anyway (each is at least one line of
play). Counting goes key by key as the walk does, the last key's options counted at once,
so it costs about one step per option counted, and stops past the bound it is given.

Only the walk's common form is counted (the total, the damage assignment order and
trample: whether a partial division can still be completed legally depends only on
whether a creature before is short of lethal damage); for the others, None (they are
listed, within the caller's budget, as before)."""

from __future__ import annotations

from versions.mtg.engine.assigned import Assignment, Targets
from versions.mtg.engine.assignment import (
    IN_ORDER,
    TOTAL,
    TRAMPLE,
    DivisionRule,
    fixed_lethal,
    lethal_needed,
    rules_for,
)
from versions.mtg.engine.state import Board


class _Over(Exception):
    """Counting went past what it may: the count is not needed, or costs too much."""


def division_count(board: Board, source: str, targets: Targets, others: list[Assignment],
                   sure: dict[str, int | None], rules: tuple[DivisionRule, ...] | None,
                   stop: int) -> int | None:
    """How many classes ``division_classes`` lists for these arguments (the as-unblocked
    option aside: at most one more), counted up to `stop` + 1 (a count past `stop` is said
    as `stop` + 1); None where it is not the walk counted here, or counting would take
    more than a few times `stop` steps."""
    power = max(board.perm(source).power, 0)
    keys = targets.keys
    if targets.unblocked or not keys:
        return None
    rules = rules if rules is not None else rules_for(board, source)
    if not (set(rules) <= {TOTAL, IN_ORDER, TRAMPLE} and not targets.or_unblocked
            and not targets.beyond):
        return None
    in_order, trample = IN_ORDER in rules, TRAMPLE in rules
    creatures = set(targets.creatures)
    with fixed_lethal():
        needs = {c: lethal_needed(board, source, c, others) for c in creatures}
    last = len(keys) - 1
    steps = [0]
    most_steps = 4 * stop + 1000

    def fails(k: str, short: bool) -> bool:
        return short and (in_order if k in creatures else trample)

    def count(i: int, left: int, lethal: bool, short: bool) -> int:
        if i == len(keys):
            return 1 if (not left or lethal) else 0
        k = keys[i]
        n = sure.get(k)
        if i == last and not lethal and n is None:
            return 1 if (not left or not fails(k, short)) else 0
        if fails(k, short):  # only 0 to this key
            return count(i + 1, left, lethal, short)
        top = left if n is None else min(left, n - 1)
        if i == last:  # then only i == len(keys) follows: counted at once
            more = 1 if n is not None and left >= n else 0  # lethal to it
            return (top + 1 if lethal else (1 if left <= top else 0)) + more
        total = 0
        need = needs.get(k, 0) if k in creatures else 0
        for v in range(top + 1):
            steps[0] += 1
            if steps[0] > most_steps:
                raise _Over
            total += count(i + 1, left - v, lethal, short or (k in creatures and v < need))
            if total > stop:
                raise _Over
        if n is not None and left >= n:
            total += count(i + 1, left - n, True, short or (k in creatures and n < need))
        return total

    try:
        found = count(0, power, False, False)
    except _Over:
        if steps[0] > most_steps:
            return None
        return stop + 1
    return found if found <= stop else stop + 1
