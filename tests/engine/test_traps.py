"""The traps other engines fell into (reference, "Traps every engine has fallen into")."""

import pytest
from eras import CR_ERAS, ERAS, has
from helpers import dealt, life, perm, run


@pytest.mark.parametrize("era", ERAS)
def test_trample_counts_marked_damage(era):
    o = run("""
id: t-marked
title: Trample over a blocker with damage already marked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tramp, controller: A, power: 5, toughness: 5, keywords: [trample]}
  - {id: wall, controller: B, power: 0, toughness: 4, damage: 2}
combat:
  attacks: {tramp: B}
  blocks: {wall: tramp}
""", era)
    # Lethal is 4 - 2 = 2, so 3 trample over.
    assert dealt(o, "tramp", "wall") == [2]
    assert life(o, "B") == 17


@pytest.mark.parametrize("era", [e for e in ERAS if not has(e, "trample-redirects")])
def test_trample_counts_damage_assigned_at_the_same_time(era):
    o = run("""
id: t-simultaneous
title: Trample over a blocker another attacker also damages
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: tramp, controller: A, power: 4, toughness: 4, keywords: [trample]}
  - {id: wall, controller: B, power: 0, toughness: 4, keywords: [can-block-additional]}
combat:
  attacks: {ogre: B, tramp: B}
  blocks: {wall: [ogre, tramp]}
""", era)
    # The ogre (assigned first) puts 3 on the wall, so the trampler needs only 1 there.
    assert dealt(o, "ogre", "wall") == [3]
    assert dealt(o, "tramp", "wall") == [1]
    assert life(o, "B") == 17
    assert perm(o, "wall")["zone"] == "graveyard"


@pytest.mark.parametrize("era", CR_ERAS)  # fifth: prevention only in its step (test_fifth)
def test_trample_ignores_prevention(era):
    o = run("""
id: t-prevention
title: Trample over a blocker shielded from damage
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tramp, controller: A, power: 4, toughness: 4, keywords: [trample]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {tramp: B}
  blocks: {bear: tramp}
actions:
  - {at: declare-blockers, by: B, effect: prevent, target: bear, amount: 2}
""", era)
    # Lethal is the bear's toughness (2), not 2 + the 2 that will be prevented.
    assert dealt(o, "tramp", "B") == [2]
    assert perm(o, "bear") == {**perm(o, "bear"), "zone": "battlefield", "damage": 0}
    assert life(o, "B") == 18


@pytest.mark.parametrize("era", ERAS)
def test_blocker_of_two_attackers_divides_its_damage(era):
    o = run("""
id: t-two-attackers
title: One creature blocking two attackers
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: left, controller: A, card: Grizzly Bears}
  - {id: right, controller: A, card: Grizzly Bears}
  - {id: watcher, controller: B, power: 4, toughness: 4, keywords: [can-block-additional]}
combat:
  attacks: {left: B, right: B}
  blocks: {watcher: [left, right]}
""", era)
    # 4 power divided 2 and 2, not 4 to each (and not split evenly by accident: lethal
    # to the first, the rest to the next).
    assert dealt(o, "watcher", "left") == [2]
    assert dealt(o, "watcher", "right") == [2]
    assert perm(o, "watcher")["zone"] == "graveyard"  # 2 + 2


ZERO_POWER_FIRST_STRIKER = """
id: t-second-step
title: A first striker with no power in the first step, pumped before the second
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
  - {id: sentry, controller: B, power: 0, toughness: 3, keywords: [first-strike]}
combat:
  attacks: {bear: B}
  blocks: {sentry: bear}
actions:
  - {at: first-strike-damage, by: B, effect: pump, target: sentry, power: 2, toughness: 0}
"""


@pytest.mark.parametrize("era", ERAS)
def test_second_step_eligibility(era):
    o = run(ZERO_POWER_FIRST_STRIKER, era)
    if has(era, "damage-on-stack"):
        # 310.5: the second step is for creatures that did not assign combat damage in
        # the first: the 0-power first striker assigned none, so it assigns now.
        assert dealt(o, "sentry", "bear") == [2]
        assert perm(o, "bear")["zone"] == "graveyard"
    else:
        # 510.4: it had first strike as the first step began, so no second step for it.
        assert dealt(o, "sentry", "bear") == []
        assert perm(o, "bear")["zone"] == "battlefield"


@pytest.mark.parametrize("era", ERAS)
def test_first_strike_gained_after_first_step_still_deals_regular_damage(era):
    o = run("""
id: t-kindled
title: First strike granted after the first-strike step
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [first-strike]}
  - {id: giant, controller: B, card: Hill Giant}
combat:
  attacks: {knight: B}
  blocks: {giant: knight}
actions:
  - {at: first-strike-damage, by: B, effect: grant, target: giant,
     keyword: first-strike, card: Kindled Fury}
""", era)
    # 702.7c (and 310.5): the giant didn't have first strike as the step began (and
    # didn't assign in it), so it deals its damage in the second step.
    assert dealt(o, "giant", "knight") == [3]
    assert perm(o, "knight")["zone"] == "graveyard"


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_fresh_assignment_each_step(era):
    o = run("""
id: t-fresh
title: A double striker blocked by two creatures
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: blade, controller: A, power: 2, toughness: 4, keywords: [double-strike]}
  - {id: x, controller: B, card: Grizzly Bears}
  - {id: y, controller: B, card: Grizzly Bears}
combat:
  attacks: {blade: B}
  blocks: {x: blade, y: blade}
""", era)
    # First step: 2 to x (dies, deals nothing). Second step: a new assignment, to y.
    assert dealt(o, "blade", "x") == [2]
    assert dealt(o, "blade", "y") == [2]
    assert perm(o, "blade") == {**perm(o, "blade"), "zone": "battlefield", "damage": 2}


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_double_strike_trample_counts_first_hit(era):
    o = run("""
id: t-ds-trample
title: Double strike and trample against a blocker already hit once
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: blade, controller: A, power: 4, toughness: 4, keywords: [double-strike, trample]}
  - {id: wall, controller: B, power: 0, toughness: 5}
combat:
  attacks: {blade: B}
  blocks: {wall: blade}
""", era)
    # First hit: all 4 on the wall (needs 5). Second: it needs 1 more; 3 trample over.
    assert dealt(o, "blade", "wall") == [4, 1]
    assert dealt(o, "blade", "B") == [3]
    assert perm(o, "wall")["zone"] == "graveyard"


@pytest.mark.parametrize("era", CR_ERAS)  # uses what came after fifth
def test_double_strike_trample_after_blocker_dies(era):
    o = run("""
id: t-ds-no-blocker
title: Double strike and trample after the blocker died in the first step
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: blade, controller: A, power: 3, toughness: 3, keywords: [double-strike, trample]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {blade: B}
  blocks: {bear: blade}
""", era)
    # First step: 2 to the bear, 1 over. Second: blocked with no blockers: all 3 to B.
    assert dealt(o, "blade", "B") == [1, 3]
    assert life(o, "B") == 16
