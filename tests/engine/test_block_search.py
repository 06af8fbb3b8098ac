"""The exact 509.1c search (versions/mtg/engine/block_search.py) against brute force: on a
thousand random small boards, the most requirements obeyed, the count of declarations and
the legal declarations, in order, are those that walking every declaration finds; and a
board far too large to walk is answered at once."""

import math
import random

import pytest
from helpers import scenario

from versions import find_era
from versions.mtg.engine import block_search
from versions.mtg.engine.blocks import (
    affordable,
    check_blocks,
    declarations,
    legal_declarations,
    most_obeyed,
    most_obeyed_count,
    obeyed,
    requirements,
    survey,
)
from versions.mtg.engine.setup import new_board

ATTACKER_KEYWORDS = ["menace", "lure", "flying", "lure", "menace",
                     "{cant-be-blocked-except-by: 3}", "cant-be-blocked-by-more-than-one",
                     "must-be-blocked-by-all"]
BLOCKER_KEYWORDS = ["must-block", "reach", "flying", "can-block-additional",
                    "can-block-any-number", "must-block", "cant-attack-or-block-alone",
                    "cant-block-unless-greater-power-blocks"]


def random_board(rng: random.Random, attackers: int, blockers: int) -> str:
    lines = []
    for i in range(attackers):
        kws = sorted({rng.choice(ATTACKER_KEYWORDS) for _ in range(rng.randint(0, 2))})
        lines.append(f"  - {{id: a{i}, controller: A, power: 2, toughness: 2, "
                     f"keywords: [{', '.join(kws)}]}}")
    for i in range(blockers):
        kws = sorted({rng.choice(BLOCKER_KEYWORDS) for _ in range(rng.randint(0, 2))})
        cost = ", block-cost: 1" if rng.random() < 0.15 else ""
        lines.append(f"  - {{id: b{i}, controller: B, power: {rng.randint(1, 3)}, "
                     f"toughness: 1, keywords: [{', '.join(kws)}]{cost}}}")
    attacks = ", ".join(f"a{i}: B" for i in range(attackers))
    return f"""
id: random-board
title: random
players: [{{name: A}}, {{name: B, mana: {rng.randint(0, 1)}}}]
active: A
permanents:
{chr(10).join(lines)}
combat:
  attacks: {{{attacks}}}
"""


def brute(game):
    reqs = requirements(game)
    every = list(declarations(game))
    free = list(declarations(game, include_costs=False))
    best = max(obeyed(d, reqs) for d in free)
    legal = [d for d in every if obeyed(d, reqs) >= best and affordable(game, d)]
    return best, len(every), legal


@pytest.mark.parametrize("seed", range(10))
def test_exact_search_matches_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(100):
        text = random_board(rng, rng.randint(1, 4), rng.randint(1, 4))
        game = new_board(find_era(rng.choice(["sixth", "m11"]))(), scenario(text))
        best, total, legal = brute(game)
        found, example = most_obeyed(game)
        assert found == best == most_obeyed_count(game), text
        if block_search.independent(game):
            assert block_search.each_most(game) == best, text
        assert example in list(declarations(game, include_costs=False)), text
        assert obeyed(example, requirements(game)) == best, text
        assert block_search.count(game) == total, text
        assert list(legal_declarations(game)) == legal, text
        # The search itself, which `legal_declarations` leaves for few declarations:
        reached = [d for d in block_search.reaching(game, best) if affordable(game, d)]
        assert reached == legal, text


def test_sixteen_by_sixteen_with_requirements_is_answered_exactly():
    """16 attackers (four lures, four with menace) and 16 blockers (four must block): about
    17^16 declarations, none walked. Worked by hand: every blocker can block one creature;
    12 blockers are required to block each of the 4 lures... each of the 16 blockers has a
    lure it is required to block, and blocking one obeys one lure requirement (capacity 1);
    the four that must block obey that too: 16 + 4 = 20."""
    attackers = [f"  - {{id: a{i}, controller: A, power: 2, toughness: 2, keywords: "
                 f"[{'lure' if i < 4 else 'menace' if i < 8 else ''}]}}" for i in range(16)]
    blockers = [f"  - {{id: b{i}, controller: B, power: 1, toughness: 1, keywords: "
                f"[{'must-block' if i < 4 else ''}]}}" for i in range(16)]
    text = f"""
id: big
title: sixteen by sixteen
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
{chr(10).join(attackers + blockers)}
combat:
  attacks: {{{', '.join(f'a{i}: B' for i in range(16))}}}
  blocks: {{b0: a0}}
"""
    game = new_board(find_era("foundations")(), scenario(text))
    best, example = most_obeyed(game)
    assert best == 20
    assert all(example[f"b{i}"][0] in {"a0", "a1", "a2", "a3"} for i in range(16))
    assert block_search.count(game) == 17 ** 16 - 16 * 4 * 16 ** 15 + _menace_correction()
    [problem] = check_blocks(game, {"b0": ("a0",)})
    assert "obey 2 of 68 requirements" in problem.message and "20 can be obeyed" in problem.message
    doc = survey(game, limit=100)
    assert doc["maximal"] == 100 and doc["complete"] is False
    assert all(d["maximal"] for d in doc["declarations"])


def _menace_correction() -> int:
    """Declarations where some of the four menace attackers has exactly one blocker were
    subtracted once per such attacker; inclusion-exclusion over the set S of menace
    attackers with exactly one blocker: sum over |S|=k of (-1)^k * C(4,k) * (16)_k *
    (17-k)^(16-k), where (16)_k picks the distinct lone blockers in order. The k = 1 term
    is the subtraction written in the test; this returns the rest (k = 2..4)."""
    from math import comb, perm

    return sum((-1) ** k * comb(4, k) * perm(16, k) * (17 - k) ** (16 - k)
               for k in range(2, 5))


def _walked(blockers, options):
    """Every choice of one option per blocker, the first blocker's the slowest to change:
    what `_combinations` yields, walked the plain way."""
    if not blockers:
        return [{}]
    out = []
    for choice in options(0):
        for rest in _walked(blockers[1:], lambda i: options(i + 1)):
            out.append(({blockers[0]: choice} if choice else {}) | rest)
    return out


def test_combinations_in_order_listed_or_walked():
    """`_combinations` multiplies the blockers' options where they are few in all, and
    walks them lazily otherwise: the same declarations in the same order either way."""
    rng = random.Random(3)
    tried = 0
    while tried < 300:
        sizes = [rng.choice([0, 1, 2, 5, 40, 300]) for _ in range(rng.randint(0, 4))]
        if math.prod(sizes) > 20_000:
            continue
        tried += 1
        table = [[()] + [(f"a{i}", f"x{j}") for j in range(k - 1)] if k else []
                 for i, k in enumerate(sizes)]
        blockers = [f"b{i}" for i in range(len(sizes))]
        found = list(block_search._combinations(blockers, lambda i, t=table: iter(t[i])))
        assert found == _walked(blockers, lambda i, t=table: t[i]), sizes


def test_combinations_never_hold_many_options_at_once():
    """Blockers with thousands of options each (any number of many attackers) are walked:
    the first declaration comes after reading a few hundred options, not all of them."""
    read = 0

    def options(i):
        nonlocal read
        for j in range(4096):
            read += 1
            yield () if j == 0 else (f"a{j}",)

    first = next(block_search._combinations([f"b{i}" for i in range(100)], options))
    assert first == {}
    assert read <= block_search.PRODUCT_OPTIONS + 200
