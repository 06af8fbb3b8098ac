"""The walk that lists a creature's legal divisions of combat damage (``division_classes``)
prunes partial divisions by the rules of the era. Under the total, the damage assignment
order and trample it carries whether a creature before is short of lethal damage instead
of checking every partial division again: it must find exactly what checking each one
finds, and what checking every division of the power finds (the rules' definition)."""

import random
from typing import Any

import pytest
from helpers import scenario

import comparator.games.mtg.explore as explore_module
import versions.mtg.engine.assignment as assignment
from comparator.games.exploration import TooLarge
from comparator.games.mtg.explore import Explorer
from versions import ERA_IDS, NotInEra
from versions.mtg.engine.assignment import (
    DivisionRule,
    all_divisions,
    division_problem,
    divisions_count,
    rules_for,
)


class Checked(DivisionRule):
    """One of the era's rules, not recognised as one: the walk checks each partial
    division with it."""

    def __init__(self, rule: DivisionRule):
        self.rule = rule

    def problem(self, *args: Any, **kwargs: Any) -> str | None:
        return self.rule.problem(*args, **kwargs)


def walked_both_ways(real: Any, board: Any, source: str, targets: Any, others: Any,
                     sure: Any, rules: Any, canonical: Any, budget: Any,
                     alike: Any = None) -> tuple[Any, Any]:
    """`real`'s divisions, asserted the same as with every partial division checked; and
    the rules they were walked by."""
    rules = rules if rules is not None else rules_for(board, source)
    found = real(board, source, targets, others, sure, rules, canonical, budget)
    checked = real(board, source, targets, others, sure, tuple(Checked(r) for r in rules),
                   canonical, budget)
    assert found == checked, (source, targets, sure, rules)
    if alike:
        # Amounts short of lethal in one class (counted by dynamic programming): the same
        # divisions in all, each class's first one the first of the finer classes in it.
        coarse = real(board, source, targets, others, sure, rules, canonical, budget,
                      alike=alike)
        assert sum(n for _, n in coarse) == sum(n for _, n in found)
        assert {str(d) for d, _ in coarse} <= {str(d) for d, _ in found}
        return coarse, rules
    return found, rules


def random_combat(rng: random.Random, n: int) -> str:
    """One or two attackers, trampling or not, against one to four blockers in an order,
    some with damage marked or deathtouch, a pump or two before damage."""
    attackers = [f"a{i}" for i in range(1, rng.randint(1, 2) + 1)]
    blockers = [f"b{i}" for i in range(1, rng.randint(1, 4) + 1)]
    lines = [f"id: t-walk-{n}", "title: random", "players: [{name: A}, {name: B}]",
             "active: A", "permanents:"]
    for a in attackers:
        keywords = rng.sample(["trample", "deathtouch", "first-strike"], rng.randint(0, 2))
        lines.append(f"  - {{id: {a}, controller: A, power: {rng.randint(2, 9)}, "
                     f"toughness: 5, keywords: [{', '.join(keywords)}]}}")
    for b in blockers:
        keywords = rng.sample(["deathtouch", "indestructible"], rng.choice([0, 0, 1]))
        lines.append(f"  - {{id: {b}, controller: B, power: {rng.randint(0, 2)}, "
                     f"toughness: {rng.randint(1, 4)}, damage: {rng.choice([0, 0, 1])}, "
                     f"keywords: [{', '.join(keywords)}]}}")
    lines += ["combat:", f"  attacks: {{{', '.join(f'{a}: B' for a in attackers)}}}",
              f"  blocks: {{{', '.join(f'{b}: {rng.choice(attackers)}' for b in blockers)}}}"]
    pumps = rng.randint(0, 2)
    lines += ["actions:"] if pumps else []
    for _ in range(pumps):
        lines.append(f"  - {{at: declare-blockers, by: {rng.choice(['A', 'B'])}, "
                     f"effect: pump, target: {rng.choice(attackers + blockers)}, "
                     f"power: {rng.randint(0, 3)}, toughness: {rng.randint(0, 3)}}}")
    return "\n".join(lines) + "\n"


def test_the_walk_finds_what_checking_every_division_finds(monkeypatch):
    real = assignment.division_classes
    seen = {"decisions": 0, "against every division": 0, "prefix": 0}

    def both(board, source, targets, others, sure=None, rules=None, canonical=None,
             budget=None, alike=None):
        found, rules = walked_both_ways(real, board, source, targets, others, sure, rules,
                                        canonical, budget, alike)
        seen["decisions"] += 1
        seen["prefix"] += set(rules) <= {assignment.TOTAL, assignment.IN_ORDER,
                                         assignment.TRAMPLE}
        power = max(board.perm(source).power, 0)
        if targets.keys and not targets.unblocked and divisions_count(
                power, len(targets.keys)) <= 3_000:
            legal = real(board, source, targets, others, None, rules, canonical)
            every = [d for d in all_divisions(board, source, targets)
                     if division_problem(board, source, targets, d, others, True,
                                         rules) is None]
            assert sorted(map(sorted_items, (d for d, _ in legal))) == sorted(
                map(sorted_items, every)), (source, targets, rules)
            seen["against every division"] += 1
        return found

    monkeypatch.setattr(assignment, "division_classes", both)
    monkeypatch.setattr(explore_module, "division_classes", both)
    rng = random.Random(2026_12_03)
    for n in range(60):
        s = scenario(random_combat(rng, n))
        for era in ERA_IDS:
            try:
                Explorer(s, era, limit=20_000).run()
            except (TooLarge, NotInEra):
                continue
    assert seen["decisions"] > 500 and seen["prefix"] > 400, seen
    assert seen["against every division"] > 300, seen


def sorted_items(division: dict[str, int]) -> list[tuple[str, int]]:
    return sorted((k, v) for k, v in division.items() if v)


@pytest.mark.parametrize("era", ["m10", "m11", "foundations"])
def test_skyshroud_behemoths_divisions_are_the_same_either_way(era, monkeypatch):
    # Five blockers in an order, one with damage marked, tricks that change lethal damage.
    from comparator.files.locations import find_scenario
    from comparator.scenarios.loader import load

    real = assignment.division_classes
    calls = []

    def both(board, source, targets, others, sure=None, rules=None, canonical=None,
             budget=None, alike=None):
        found, _ = walked_both_ways(real, board, source, targets, others, sure, rules,
                                    canonical, budget, alike)
        calls.append(len(found))
        return found

    monkeypatch.setattr(explore_module, "division_classes", both)
    Explorer(load(find_scenario("skyshroud-behemoth-five-blockers")), era).run()
    assert len(calls) >= 16 and max(calls) > 5
