"""In the last combat damage step, where nothing after a division can read an amount
short of lethal, a creature short of lethal survives whatever its amount: explore lists
those amounts as one class (``division_classes``'s `alike`, counted by dynamic
programming). The counts, outcomes, values and examples must be those of listing every
amount, and of brute force where it is small."""

import pytest
from helpers import explored_with_and_without, scenario

from comparator.games.exploration import era_result
from comparator.games.mtg.explore import Explorer
from versions import ERA_IDS


def board(power: int, keywords: str = "", actions: str = "", extra: str = "",
          blocks: str = "{w0: t, w1: t, w2: t}") -> str:
    return f"""
id: big-walls
title: An attacker into walls it can't kill, and a bear
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: t, controller: A, power: {power}, toughness: 30{keywords}}}
  - {{id: w0, controller: B, power: 0, toughness: 9}}
  - {{id: w1, controller: B, power: 1, toughness: 7}}
  - {{id: w2, controller: B, power: 2, toughness: 2}}
{extra}combat:
  attacks: {{t: B}}
  blocks: {blocks}
{actions}"""


OGRE = "  - {id: ogre, controller: B, power: 1, toughness: 1}\n"
TWIN = ("  - {id: u, controller: A, power: 5, toughness: 5}\n"
        "  - {id: twin, controller: B, power: 1, toughness: 6, keywords: [can-block-additional]}\n")

BOARDS = {
    "plain": board(12),
    "trample": board(12, ", keywords: [trample]"),
    "lifelink": board(10, ", keywords: [lifelink]"),
    "deathtouch": board(8, ", keywords: [deathtouch]"),
    "wither": board(8, ", keywords: [wither]"),
    "double-strike": board(6, ", keywords: [double-strike]"),
    "a pump and a shield": board(10, actions="""actions:
  - {at: [declare-blockers, damage-on-stack, combat-damage], by: B, effect: pump, target: [w0, w2],
     power: 0, toughness: 3, card: Giant Growth}
  - {at: [declare-blockers, damage-on-stack], by: B, effect: prevent, target: [w1, w2], amount: 2,
     card: Healing Salve}
"""),
    "a shock after damage": board(10, actions="""actions:
  - {at: [combat-damage, end-of-combat], by: A, effect: damage, target: [w0, w1], amount: 3,
     card: Shock}
"""),
    "a regeneration shield": board(10, extra=OGRE, actions="""actions:
  - {at: declare-blockers, by: B, effect: regenerate, target: [w1, w2], card: Regenerate}
"""),
    "two attackers share a blocker": board(9, extra=TWIN, blocks="{w0: t, w1: u, twin: [t, u]}")
    .replace("attacks: {t: B}", "attacks: {t: B, u: B}"),
}


# Found by review: a defending creature with banding gives the defending player t's
# division; u, assigning after it (its own player's, forced), damages the same blocker.
BOARDS["banding: another chooser after it"] = """
id: band-share
title: A defending band divides an attacker's damage; a later attacker's joins it
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: t, controller: A, power: 3, toughness: 30}
  - {id: u, controller: A, power: 2, toughness: 30}
  - {id: b2, controller: B, power: 0, toughness: 4, keywords: [can-block-additional]}
  - {id: b1, controller: B, power: 0, toughness: 10, keywords: [banding]}
combat:
  attacks: {t: B, u: B}
  blocks: {b1: t, b2: [t, u]}
"""


# Found by a fuzz: before Urza's Saga, a trampler's blocker dealt damage by another
# creature too refuses the line; whether the other's amount is 0 counts there.
BOARDS["a trampler's blockers before Urza's Saga"] = """
id: trampler-and-another
title: A trampler and another attacker, two blockers that may each block both
players: [{name: A}, {name: B, life: 3}]
active: A
permanents:
  - {id: a0, controller: A, power: 2, toughness: 3, keywords: [trample]}
  - {id: a1, controller: A, power: 4, toughness: 1}
  - {id: b0, controller: B, power: 1, toughness: 3, keywords: [can-block-additional]}
  - {id: b1, controller: B, power: 1, toughness: 3, keywords: [can-block-additional]}
combat:
  attacks: {a0: B, a1: B}
  blocks: {b0: [a0, a1], b1: [a0, a1]}
"""


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_short_of_lethal_in_one_class_equals_every_amount(name):
    s = scenario(BOARDS[name])
    compared = 0
    for era in ERA_IDS:
        found, every = explored_with_and_without(s, era, "short_classes")
        assert found == every, (name, era)
        compared += isinstance(found, dict)
    assert compared >= 4


@pytest.mark.parametrize("era", ["fourth", "sixth", "m10", "foundations"])
def test_short_of_lethal_equals_brute_force(era):
    s = scenario(board(7))
    explorer = Explorer(s, era)
    brute = Explorer(s, era, merge=False)
    assert era_result(explorer, explorer.run()) == era_result(brute, brute.run())


def test_walls_no_damage_can_kill_are_one_division():
    # 150 damage among four 0/200 walls: 585,276 divisions, each a line, one outcome;
    # every one of them a division short of lethal everywhere: one class, played once.
    walls = "\n".join([
        "id: walls", "title: walls", "players: [{name: A}, {name: B}]", "active: A",
        "permanents:", "  - {id: t, controller: A, power: 150, toughness: 30}",
        *[f"  - {{id: w{i}, controller: B, power: 0, toughness: 200}}" for i in range(4)],
        "combat:", "  attacks: {t: B}",
        "  blocks: {" + ", ".join(f"w{i}: t" for i in range(4)) + "}", ""])
    explorer = Explorer(scenario(walls), "foundations")
    found = era_result(explorer, explorer.run())
    assert found["lines"] == 585_276 and len(found["outcomes"]) == 1
    assert explorer.leaves == 1
