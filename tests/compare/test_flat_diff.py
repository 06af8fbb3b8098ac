"""The flat state comparison (comparator/compare/diffing.py) finds exactly the paths deepdiff finds
(each cut where it enters a list, a hand's and graveyard's cards in name order), on every
pair of era outcomes of the shipped scenarios and of generated ones, and on hand-made
states with nested, missing and retyped values; a difference inside a list is reported."""

from pathlib import Path

import pytest

from comparator.compare.diffing import _changed_paths, _deep_paths, _differing_entries, divergences
from comparator.compare.running import run_all
from comparator.files.locations import shipped_scenarios
from comparator.games.mtg.generate import scenario_document
from comparator.games.states import UNORDERED, state
from comparator.scenarios.loader import load
from versions import ALL_ERAS, ERA_IDS


def pairs(outcomes):
    states = [state(o) for o in outcomes.values()]
    return [(a, b) for i, a in enumerate(states) for b in states[i + 1:]]


def cards_in_name_order(s):
    players = {name: {k: sorted(v, key=str) if k in UNORDERED and isinstance(v, list) else v
                      for k, v in p.items()} if isinstance(p, dict) else p
               for name, p in s.get("players", {}).items()}
    return {**s, "players": players}


def same_paths(a, b):
    x, y = _differing_entries(a, b)
    flat = sorted(map(str, _changed_paths(x, y)))
    x, y = _differing_entries(cards_in_name_order(a), cards_in_name_order(b))
    deep = sorted(map(str, _deep_paths(x, y, [])))
    assert flat == deep


def test_shipped_scenarios():
    every_era = [e.id for e in ALL_ERAS]  # Duel Masters' too: its hand is a count
    for path in shipped_scenarios():
        for a, b in pairs(run_all(load(path), every_era, refused={})):
            same_paths(a, b)


def test_generated_scenarios(tmp_path):
    import yaml

    for i in range(150):
        f = tmp_path / f"{i}.yaml"
        f.write_text(yaml.safe_dump(scenario_document(7, i), sort_keys=False))
        for a, b in pairs(run_all(load(Path(f)), list(ERA_IDS), refused={})):
            same_paths(a, b)


@pytest.mark.parametrize("change", [
    {"players": {"A": {"life": 3, "lost": False, "extra": [1, 2]}}},
    {"players": {"A": {"life": 3.0, "lost": False, "extra": [1]}}},
    {"players": {"A": {"life": True, "lost": False, "extra": [1]}}},
    {"players": {"A": {"life": 3, "lost": None, "extra": {"x": 1}}}},
    {"players": {"A": {"life": 3, "extra": [1]}}},
    {"players": {}},
    {"permanents": {"x": {"zone": "hand"}}},
    {"players": {"A": {"life": 3, "lost": False, "extra": [1], "hand": 2}}},
    {"players": {"A": {"life": 3, "lost": False, "extra": [1], "graveyard": ["b", "a"]}}},
])
def test_hand_made_states(change):
    base = {"players": {"A": {"life": 3, "lost": False, "extra": [1], "graveyard": ["a", "b"]}},
            "permanents": {}}
    other = {**base, **change}
    same_paths(base, other)
    same_paths(other, base)


def test_eras_are_apart_only_on_a_field_the_report_lists():
    """moonglove's sixth and m10 differ only in the order two creatures reached the
    graveyard, which no divergence lists: the verdict does not set them apart either."""
    from comparator.compare.diffing import groups, verdict
    from comparator.compare.running import run_file
    from comparator.files.locations import find_scenario
    from versions import ERA_IDS

    r = run_file(find_scenario("moonglove-winnower-three-blockers"), list(ERA_IDS))
    assert r.outcomes["sixth"]["players"] != r.outcomes["m10"]["players"]
    assert groups(r.outcomes, r.divergences) == [["sixth", "m10", "foundations"], ["m11"]]
    assert verdict(r.outcomes, r.divergences).endswith("m11 ≠ sixth, m10, foundations")


def _outcome(hand, graveyard, keywords):
    return {"players": {"A": {"life": 20, "hand": hand, "graveyard": graveyard}},
            "permanents": {"x": {"zone": "battlefield", "keywords": keywords}}}


def test_a_difference_inside_a_list_is_reported_whole():
    """A trick cast in one era and kept in hand in the other; a keyword only one era grants."""
    found = divergences({"m10": _outcome(["Giant Growth"], ["Bear"], ["flying"]),
                         "m11": _outcome([], ["Giant Growth", "Bear"],
                                         [{"bushido": 1}, "flying"])})
    assert found == [
        {"path": "permanents.x.keywords",
         "values": {"m10": ["flying"], "m11": [{"bushido": 1}, "flying"]}},
        {"path": "players.A.graveyard",
         "values": {"m10": ["Bear"], "m11": ["Bear", "Giant Growth"]}},
        {"path": "players.A.hand", "values": {"m10": ["Giant Growth"], "m11": []}},
    ]


def test_cards_put_into_a_graveyard_in_another_order_do_not_diverge():
    assert divergences({"sixth": _outcome([], ["Horned Turtle", "Wizened Snitches"], []),
                        "m10": _outcome([], ["Wizened Snitches", "Horned Turtle"], [])}) == []


@pytest.mark.parametrize(("a", "b", "paths"), [
    # A list inside a mapping is one value; its order counts where it isn't a hand's or
    # graveyard's: a permanent's, or a list nested deeper.
    ({"x": {"counters": {"k": [1, 2]}}}, {"x": {"counters": {"k": [2, 1]}}},
     ["permanents.x.counters.k"]),
    ({"x": {"keywords": ["a", "b"]}}, {"x": {"keywords": ["b", "a"]}}, ["permanents.x.keywords"]),
    # 1 and True are other JSON values.
    ({"x": {"counters": {"k": 1}}}, {"x": {"counters": {"k": True}}},
     ["permanents.x.counters.k"]),
    ({"x": {"keywords": [{"rampage": 1}]}}, {"x": {"keywords": [{"rampage": True}]}},
     ["permanents.x.keywords"]),
])
def test_paths_worked_by_hand(a, b, paths):
    found = divergences({"m10": {"players": {}, "permanents": a},
                         "m11": {"players": {}, "permanents": b}})
    assert [d["path"] for d in found] == paths


def test_a_count_of_cards_in_hand_diverges_as_a_number():
    """Duel Masters gives a hand as how many cards are in it."""
    found = divergences({"dm-pre-2021-09": {"players": {"A": {"hand": 0}}, "permanents": {}},
                         "dm-2021-09": {"players": {"A": {"hand": 1}}, "permanents": {}}})
    assert found == [{"path": "players.A.hand",
                      "values": {"dm-pre-2021-09": 0, "dm-2021-09": 1}}]
