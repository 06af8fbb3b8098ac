"""What an explore tells its watcher (the progress bar of issue 50), searched here or in
worker processes: each era once as its search begins (0 lines), then, for one searched
here, its lines as they are played out, and last, once it is done, all its lines, as the
explore JSON counts them. An era whose rules refuse the scenario is only named."""

from __future__ import annotations

from pathlib import Path

import pytest

from comparator.explore.eras import explore
from comparator.scenarios.loader import load

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "scenarios"


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_era_is_said_when_it_begins_and_when_it_is_done(jobs):
    scenario = load(SHIPPED / "giant-growth-vs-assignment-order.yaml")
    eras = ["fifth", "sixth", "m10", "foundations"]
    heard: list[tuple[str, int]] = []
    doc = explore(scenario, eras, progress=lambda era, n: heard.append((era, n)), jobs=jobs)
    for era in eras:
        said = [n for e, n in heard if e == era]
        assert said[0] == 0, (era, heard)
        assert said[-1] == doc["eras"][era]["lines"], (era, heard)
    if jobs > 1:  # a worker does not report as it goes: begun, then done
        assert all(len([e for e, _ in heard if e == era]) == 2 for era in eras), heard


def test_an_era_that_refuses_the_scenario_is_only_named():
    scenario = load(SHIPPED / "ajanis-pridemate-and-two-lifelink-instances.yaml")
    heard: list[tuple[str, int]] = []
    doc = explore(scenario, ["alpha", "foundations"],
                  progress=lambda era, n: heard.append((era, n)))
    assert "alpha" in doc["refused"]
    assert [n for e, n in heard if e == "alpha"] == [0]
    assert heard[-1] == ("foundations", doc["eras"]["foundations"]["lines"])
