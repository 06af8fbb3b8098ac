"""Past lethal damage, an indestructible creature stays as it is whatever the amount, where
the outcomes don't show damage (`--fields end-of-turn`): explore lists such divisions as
one class (``Options.divisions``). The counts, outcomes and values must be those of
listing every amount."""

import pytest
from helpers import explored_with_and_without, scenario

from comparator.games.exploration import era_result
from comparator.games.mtg.explore import Explorer, Options

ERAS = ("fifth", "sixth", "m10", "m11", "foundations")  # indestructible: Mirage on


def walls(power: int, extra: str = "", keywords: str = "", actions: str = "") -> str:
    return f"""
id: walls
title: An attacker into three indestructible walls
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: t, controller: A, power: {power}, toughness: 30{keywords}}}
  - {{id: w0, controller: B, power: 0, toughness: 2, keywords: [indestructible]}}
  - {{id: w1, controller: B, power: 1, toughness: 3, keywords: [indestructible]}}
  - {{id: w2, controller: B, power: 0, toughness: 2{extra}}}
combat:
  attacks: {{t: B}}
  blocks: {{w0: t, w1: t, w2: t}}
{actions}"""


# What might read an amount past lethal: a toughness pump then the loss of
# indestructible, a shrink, noncombat damage, lifelink with a prevention shield, wither,
# trample, first strike (two damage steps), deathtouch.
BOARDS = {
    "plain": walls(9),
    "pump-then-lose-it": walls(7, actions="""actions:
  - {at: [declare-blockers, combat-damage], by: B, effect: pump, target: w0, power: 0,
     toughness: 4, card: Pump}
  - {at: [declare-blockers, combat-damage, end-of-combat], by: A, effect: lose-keyword,
     target: [w0, w1], keyword: indestructible, card: Strip}
"""),
    "shrink-and-shock": walls(7, actions="""actions:
  - {at: [declare-blockers, combat-damage], by: A, effect: pump, target: [w0, w1], power: 0,
     toughness: -2, card: Shrink}
  - {at: [combat-damage, end-of-combat], by: A, effect: damage, target: [w1, w2], amount: 1,
     card: Shock}
"""),
    "lifelink-and-prevention": walls(8, keywords=", keywords: [lifelink]", actions="""actions:
  - {at: declare-blockers, by: B, effect: prevent, target: [w0, w1], amount: 2, card: Guard}
"""),
    "wither": walls(8, keywords=", keywords: [wither]"),
    "trample": walls(9, keywords=", keywords: [trample]"),
    "first-strike": walls(6, keywords=", keywords: [double-strike]"),
    "deathtouch": walls(6, keywords=", keywords: [deathtouch]"),
}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_one_class_past_lethal_equals_every_amount(name):
    s = scenario(BOARDS[name])
    compared = 0
    for era in ERAS:
        found, every = explored_with_and_without(s, era, "indestructible_classes")
        assert found == every, (name, era)
        compared += isinstance(found, dict)
    assert compared >= 3


def test_fewer_divisions_listed_not_fewer_lines(monkeypatch):
    # 40 damage among three walls: every division a line (861), two outcomes (w2 dies or
    # not). Listed: each wall short of lethal (w0 0-1, w1 0-2, w2 0-1) or lethal and past
    # it, one at least lethal (the 40 must go somewhere): 3 * 4 * 3 - 2 * 3 * 2 = 24.
    listed = []
    real = Options.divisions

    def spy(self, combat, d):
        found = real(self, combat, d)
        listed.append(len(found))
        return found
    monkeypatch.setattr(Options, "divisions", spy)
    s = scenario(walls(40))
    explorer = Explorer(s, "foundations")
    explorer.short_classes = False  # amounts short of lethal listed one by one here
    found = era_result(explorer, explorer.run())
    every = Explorer(s, "foundations")
    every.indestructible_classes = every.short_classes = False
    assert found == era_result(every, every.run())
    assert found["lines"] == 861
    assert listed == [24, 861]


def test_all_fields_keep_every_amount():
    # --fields all shows the damage marked: every division is its own outcome.
    s = scenario(walls(6))
    explorer = Explorer(s, "foundations", fields="all")
    found = era_result(explorer, explorer.run())
    assert found["lines"] == len(found["outcomes"]) == 28
