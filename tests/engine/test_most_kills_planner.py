"""The `most-kills` policy planned by dynamic programming over the creatures in order
(versions/mtg/engine/assignment.py) against walking every legal division, end to end in every
era on random boards: tramplers, deathtouch on either side, marked damage, a second
attacker whose damage is assigned first; and 1.5 million divisions answered at once."""

import random

import pytest
from eras import has
from helpers import dealt, notes, run, scenario

from versions import ERA_IDS, NotInEra, find_era
from versions.mtg.engine import assignment, script
from versions.mtg.engine.assigned import Division
from versions.mtg.engine.assignment import Targets, divisions_count, most_kills
from versions.mtg.engine.setup import new_board


def random_board(rng: random.Random) -> str:
    kws = [k for k in ("trample", "deathtouch") if rng.random() < 0.4]
    second = rng.random() < 0.3  # another attacker, blocked by the first blocker too
    lines = [f"  - {{id: big, controller: A, power: {rng.randint(1, 9)}, toughness: 9, "
             f"keywords: [{', '.join(kws)}]}}"]
    if second:
        lines.append("  - {id: other, controller: A, power: 2, toughness: 2}")
    names = []
    for i in range(rng.randint(1, 4)):
        t = rng.randint(1, 4)
        own = ["deathtouch"] if rng.random() < 0.2 else []
        if second and i == 0:
            own.append("can-block-additional")
        lines.append(f"  - {{id: b{i}, controller: B, power: 1, toughness: {t}, "
                     f"damage: {rng.randint(0, t - 1)}, keywords: [{', '.join(own)}]}}")
        names.append(f"b{i}")
    rng.shuffle(names)  # the blocks' listing order is the default damage assignment order
    blocks = ", ".join(f"{n}: [other, big]" if second and n == "b0" else f"{n}: big"
                       for n in names)
    attacks = "{other: B, big: B}" if second else "{big: B}"
    return f"""
id: random-most-kills
title: random
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
{chr(10).join(lines)}
combat:
  attacks: {attacks}
  blocks: {{{blocks}}}
  assign: {{big: most-kills}}
"""


@pytest.mark.parametrize("era", ERA_IDS)
def test_planner_matches_walking_every_division(era, monkeypatch):
    rng = random.Random(era)
    boards = [random_board(rng) for _ in range(150)]
    # An era that did not have deathtouch (fifth) is given the boards without it.
    boards = [b for b in boards if not find_era(era)().refusal(scenario(b))]
    planned = [_run_or_refusal(text, era) for text in boards]
    monkeypatch.setattr(script, "most_kills", assignment.most_kills_by_enumeration)
    walked = [_run_or_refusal(text, era) for text in boards]
    for text, a, b in zip(boards, planned, walked, strict=True):
        assert a == b, text


def _run_or_refusal(text: str, era: str) -> object:
    """The outcome, or the refusal of an era whose texts don't settle the combat (fourth:
    a trampler's blocker dealt damage by another creature too)."""
    try:
        return run(text, era)
    except NotInEra as refusal:
        return refusal.why


def test_one_and_a_half_million_divisions_are_planned_not_walked():
    """Power 22 among 7 blockers and the player (trample): C(29, 7) = 1,560,780 divisions.
    Worked by hand: toughnesses 1..7 sum to 28 > 22, so at most six die; the six smallest
    (1+2+…+6 = 21) leave 1; no trample damage is possible without lethal to all seven, so
    that 1 goes, greatest first, to the earliest creature: 2 to t1 (toughness 1), the rest
    exact."""
    blockers = "\n".join(f"  - {{id: t{i}, controller: B, power: 0, toughness: {i}}}"
                         for i in range(1, 8))
    text = f"""
id: many-divisions
title: 22 damage among seven blockers
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: big, controller: A, power: 22, toughness: 30, keywords: [trample]}}
{blockers}
combat:
  attacks: {{big: B}}
  blocks: {{{', '.join(f't{i}: big' for i in range(1, 8))}}}
  assign: {{big: most-kills}}
"""
    assert divisions_count(22, 8) == 1_560_780
    for era in ERA_IDS:
        outcome = run(text, era)
        got = {f"t{i}": sum(dealt(outcome, "big", f"t{i}")) for i in range(1, 8)}
        if has(era, "trample-redirects"):
            # The same division; the point beyond t1's lethal damage is redirected to B
            # (A.27.Note), which is also why the planner puts it on a creature that dies.
            assert got == {"t1": 1, "t2": 2, "t3": 3, "t4": 4, "t5": 5, "t6": 6, "t7": 0}
            assert [e["amount"] for e in outcome["events"] if e["type"] == "damage"
                    and e["target"] == "B"] == [1]  # redirected: not combat damage
            continue
        assert got == {"t1": 2, "t2": 2, "t3": 3, "t4": 4, "t5": 5, "t6": 6, "t7": 0}, era
        assert sum(dealt(outcome, "big", "B")) == 0
        assert not notes(outcome, "policy-too-large")


def test_an_era_rule_the_planner_does_not_know_is_walked(monkeypatch):
    """A 4/4 blocked by a 1/1 and a 0/3: the planner would kill both (1 and 3). An era whose
    own rule allows only even amounts leaves (4, 0), (2, 2), (0, 4), each killing one; the
    greatest first in order is (4, 0)."""

    class Even(assignment.DivisionRule):
        def problem(self, game, source, targets, amounts, others, complete=True):
            return "odd" if complete and any(v % 2 for v in amounts.values()) else None

    text = """
id: even
title: even amounts only
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: big, controller: A, power: 4, toughness: 4}
  - {id: t1, controller: B, power: 1, toughness: 1}
  - {id: t3, controller: B, power: 0, toughness: 3}
combat:
  attacks: {big: B}
  blocks: {t1: big, t3: big}
"""
    game = new_board(find_era("foundations")(), scenario(text))
    targets = Targets(["t1", "t3"], rule="x")
    assert most_kills(game, "big", targets, []) == {"t1": 1, "t3": 3}
    # A new era's rule is a ``Division`` with its check in ``assignment.CHECKS``.
    monkeypatch.setitem(assignment.CHECKS, "even", Even())
    monkeypatch.setattr(type(game.era), "division_rules",
                        lambda self, g, s: (Division.TOTAL, "even"))
    assert most_kills(game, "big", targets, []) == {"t1": 4}
