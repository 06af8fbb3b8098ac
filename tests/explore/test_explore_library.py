"""The historian's library: for shipped scenarios, what explore must find in each era,
worked by hand from the rules (data/explorations/*.yaml, each with its reasoning)."""

from pathlib import Path

import pytest
import yaml

from comparator.explore.eras import explore
from comparator.files.locations import find_scenario
from comparator.scenarios.loader import load
from versions import ERA_IDS

LIBRARY = Path(__file__).resolve().parents[2] / "data" / "explorations"
FILES = sorted(LIBRARY.glob("*.yaml"))


def matches(state: dict, partial: dict) -> bool:
    return all(state[kind].get(name, {}).get(f) == v
               for kind in ("players", "permanents") for name, fields in partial.get(kind,
                                                                                    {}).items()
               for f, v in fields.items())


def test_the_library_is_large_enough():
    assert len(FILES) >= 15


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_explorations_worked_by_hand(path):
    expected = yaml.safe_load(path.read_text())
    assert expected.get("why"), "every worked exploration says why"
    scenario = load(find_scenario(expected["scenario"]))
    # The eras the exploration was worked in (the library predates `fifth`).
    eras = [e for e in ERA_IDS if e in expected["eras"]]
    doc = explore(scenario, eras, objective=expected.get("objective", "material"),
                  blocks=expected.get("blocks", "fixed"))
    for era, want in expected["eras"].items():
        got = doc["eras"][era]
        where = f"{path.stem}: {era}"
        if "lines" in want:
            assert got["lines"] == want["lines"], where
        if "outcomes" in want:
            assert len(got["outcomes"]) == want["outcomes"], where
        value = want.get("value", {})
        if "score" in value:
            assert got["value"]["score"] == value["score"], where
        assert matches(got["value"]["state"], value), where
        states = [o["state"] for o in got["outcomes"]]
        for partial in want.get("reaches", []):
            assert any(matches(s, partial) for s in states), (where, "reaches", partial)
        for partial in want.get("never", []):
            assert not any(matches(s, partial) for s in states), (where, "never", partial)
    if "diverges" in expected:
        assert doc["diverges"] is expected["diverges"]
    for era, n in expected.get("only-in", {}).items():
        assert len(doc["only_in"][era]) == n, (path.stem, era, "only_in")
