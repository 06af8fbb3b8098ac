"""Explore searches the windows before combat damage once for every damage assignment
order of a decision (``Explorer._all_orders``): the outcomes, line counts, values, examples
and refused lines must be those of the search order by order, which the brute-force tests
check (tests/explore/test_explore.py)."""

import pytest
from helpers import scenario

from comparator.games.exploration import TooLarge, era_result
from comparator.games.mtg import explore as explore_module
from comparator.games.mtg.explore import Explorer
from comparator.scenarios.loader import load
from versions import find_era
from versions.common import NotInEra
from versions.mtg.engine import combat as combat_module
from versions.mtg.engine.combat import IllegalLine

# Two attackers, each blocked by several creatures: two order decisions, the first
# searched for all its orders at once and the second inside it. Before damage a Shock may
# kill one of the wurm's blockers (its orders then shrink), an Unsummon may take the ogre
# out of combat (its order goes), and a Giant Growth may save the bear.
TWO_ORDERS = """
id: two-orders
title: Two attackers, each blocked by several creatures
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 6, toughness: 6}
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: bear, controller: B, card: Grizzly Bears}
  - {id: hawk, controller: B, power: 1, toughness: 1}
  - {id: elf, controller: B, power: 1, toughness: 1}
  - {id: wall, controller: B, power: 0, toughness: 4}
  - {id: imp, controller: B, power: 1, toughness: 1}
combat:
  attacks: {wurm: B, ogre: B}
  blocks: {bear: wurm, hawk: wurm, elf: wurm, wall: ogre, imp: ogre}
actions:
  - {at: declare-blockers, by: A, effect: damage, target: hawk, amount: 2, card: Shock}
  - {at: declare-blockers, by: B, effect: pump, target: bear, power: 3, toughness: 3,
     card: Giant Growth}
  - {at: declare-blockers, by: B, effect: bounce, target: ogre, card: Unsummon}
"""

# One attacker, three blockers, for every declaration of blocks (`--blocks all`): each
# declaration blocking with two or three has its own order decision.
ONE_ORDER = """
id: one-order
title: A wurm blocked by up to three creatures
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 6, toughness: 6}
  - {id: bear, controller: B, card: Grizzly Bears}
  - {id: hawk, controller: B, power: 1, toughness: 1}
  - {id: elf, controller: B, power: 1, toughness: 1}
combat:
  attacks: {wurm: B}
  blocks: {bear: wurm, hawk: wurm, elf: wurm}
actions:
  - {at: declare-blockers, by: A, effect: damage, target: hawk, amount: 2, card: Shock}
  - {at: declare-blockers, by: B, effect: pump, target: bear, power: 3, toughness: 3,
     card: Giant Growth}
"""

# Creatures leave combat before the first decision after the order is announced: the
# flanking trigger kills the elf (a 1/1 without flanking; no trick, so no decision comes
# before), and in the second scenario the wurm's own trigger returns it to its owner's
# hand as it becomes blocked. The orders the search has then are those of the creatures
# still in combat, or none.
FLANKING_KILLS_A_BLOCKER = """
id: flanking-kills-a-blocker
title: Flanking kills a blocker after the damage assignment order is announced
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: lancer, controller: A, power: 5, toughness: 5, keywords: [flanking]}
  - {id: hawk, controller: B, power: 1, toughness: 1, keywords: [flanking]}
  - {id: elf, controller: B, power: 1, toughness: 1}
  - {id: bear, controller: B, power: 2, toughness: 2, keywords: [flanking]}
combat:
  attacks: {lancer: B}
  blocks: {hawk: lancer, elf: lancer, bear: lancer}
"""

ATTACKER_LEAVES = """
id: attacker-leaves
title: An attacker returned to hand by its own trigger as it becomes blocked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 6, toughness: 6,
     abilities: [{trigger: becomes-blocked, effect: bounce, target: self}]}
  - {id: bear, controller: B, power: 2, toughness: 2}
  - {id: elf, controller: B, power: 1, toughness: 1}
combat:
  attacks: {wurm: B}
  blocks: {bear: wurm, elf: wurm}
"""

ERAS_WITH_ORDERS = ("m10", "m11")


def both_ways(s, era, **options):
    at_once = Explorer(s, era, **options)
    found = era_result(at_once, at_once.run())
    one_by_one = Explorer(s, era, **options)
    one_by_one.orders_at_once = False
    return found, era_result(one_by_one, one_by_one.run())


@pytest.mark.parametrize("era", ERAS_WITH_ORDERS)
@pytest.mark.parametrize("text,options", [
    (TWO_ORDERS, {}), (TWO_ORDERS, {"objective": "life", "fields": "all"}),
    (ONE_ORDER, {"blocks": "all"})], ids=["two-orders", "life-all-fields", "blocks-all"])
def test_all_orders_at_once_equal_order_by_order(era, text, options):
    found, expected = both_ways(scenario(text), era, **options)
    assert found == expected
    assert found["lines"] > 0


@pytest.mark.parametrize("era", ERAS_WITH_ORDERS)
@pytest.mark.parametrize("text", [FLANKING_KILLS_A_BLOCKER, ATTACKER_LEAVES],
                         ids=["flanking-kills-a-blocker", "attacker-leaves"])
def test_creatures_leaving_before_the_first_decision(era, text):
    s = scenario(text)
    found, expected = both_ways(s, era)
    brute = Explorer(s, era, merge=False)
    assert found == expected == era_result(brute, brute.run())
    assert found["lines"] > 0


def test_skyshroud_behemoth_all_orders_at_once():
    # 120 orders of five blockers, Terror on one of them before the damage: too many lines
    # for brute force (395,404), so it is checked against the search order by order.
    s = load("data/scenarios/skyshroud-behemoth-five-blockers.yaml")
    found, expected = both_ways(s, "m10")
    assert found == expected
    assert found["lines"] == 395_404


@pytest.mark.parametrize("era", ERAS_WITH_ORDERS)
def test_lines_refused_or_illegal_count_once_per_order(era, monkeypatch):
    # The era refuses the Shock's line, and the Giant Growth's line is illegal: met before
    # combat damage, where every order shares the walk, each still counts once per line
    # of play, as the search order by order counts them. And as damage begins, the era
    # refuses the lines where the wurm's order puts the elf first.
    take = combat_module.Combat.take
    era_class = find_era(era)
    deals = era_class.deals_combat_damage

    def refusing_the_elf_first(self, board, creature):
        if creature == "wurm" and board.damage_orders.get("wurm", [""])[0] == "elf":
            raise NotInEra(era, "another refusal made up for this test")
        return deals(self, board, creature)

    def refusing(self, act):
        if act.action.card == "Shock":
            raise NotInEra(era, "a refusal made up for this test")
        if act.action.card == "Giant Growth":
            raise IllegalLine("an illegal line made up for this test")
        return take(self, act)

    monkeypatch.setattr(combat_module.Combat, "take", refusing)
    monkeypatch.setattr(era_class, "deals_combat_damage", refusing_the_elf_first)
    found, expected = both_ways(scenario(TWO_ORDERS), era)
    assert found == expected
    refused = {n["text"]: n["positions"] for n in found["notes"]
               if n["type"] == "lines-refused"}
    assert set(refused) == {"a refusal made up for this test",
                            "another refusal made up for this test"}
    assert min(refused.values()) > 1
    assert found["lines"] > 0


@pytest.mark.parametrize("limit", [100, 200])
def test_too_many_lines_refused_where_the_orders_combine(limit, monkeypatch):
    # ONE_ORDER with every declaration of blocks (328 lines in m10): the declaration of all
    # three blockers alone has 207, over the limit. The search must refuse as soon as its
    # orders are combined, as the search order by order refuses as soon as it combines
    # them: both name 207, not the 328 found by finishing the other declarations first.
    # (Where two searches stop at different points, the counts they name differ: any
    # count over the limit is a true "at least".)
    monkeypatch.setattr(explore_module, "ESTIMATE_MARGIN", 10**9)  # the estimate refuses first
    s = scenario(ONE_ORDER)
    said = []
    for at_once in (True, False):
        explorer = Explorer(s, "m10", blocks="all", limit=limit)
        explorer.orders_at_once = at_once
        with pytest.raises(TooLarge) as refused:
            explorer.run()
        said.append(str(refused.value))
    assert said[0] == said[1] == f"m10: more than {limit} lines of play (reached 207)"
