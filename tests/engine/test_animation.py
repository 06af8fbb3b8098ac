"""Animation that ends (issue 24, point 5): a noncreature permanent that is a creature only
through another permanent's effect stops being one when that permanent leaves the
battlefield, and leaves combat (C.1.7 of the 1999 summary; 506.4)."""

import pytest
from eras import ERAS
from helpers import dealt, life, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

LAND = """
id: t-animated
title: An animated land attacks
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: lord, controller: A, power: 2, toughness: 2}
  - {id: forest, controller: A, types: [land], power: 1, toughness: 1, animated-by: lord}
combat:
  attacks: {forest: B}
%s
"""


@pytest.mark.parametrize("era", ERAS)
def test_it_is_a_creature_while_its_animator_stays(era):
    o = run(LAND % "", era)
    assert life(o, "B") == 19 and perm(o, "forest")["power"] == 1


@pytest.mark.parametrize("era", ERAS)
def test_it_leaves_combat_when_its_animator_leaves(era):
    o = run(LAND % """actions:
  - {at: declare-blockers, by: B, effect: destroy, target: lord}""", era)
    assert life(o, "B") == 20 and dealt(o, "forest", "B") == []
    (ended,) = [e for e in o["events"] if e["type"] == "stops-being-creature"]
    assert (ended["target"], ended["source"], ended["removed-from-combat"]) == (
        "forest", "lord", True)
    assert perm(o, "forest") == {**perm(o, "forest"), "zone": "battlefield", "power": 0,
                                 "toughness": 0}
    rule = {"alpha": "p.23", "fourth": "C.1.7", "fifth": "C.1.7",
            "sixth": "306.4"}.get(era, "506.4")
    assert ended["rule"] == rule


@pytest.mark.parametrize("text, message", [
    ("animated-by: lord}", None),
    ("animated-by: nobody}", "'nobody' is not another permanent"),
    ("animated-by: forest}", "'forest' is not another permanent"),
])
def test_animated_by_is_checked(tmp_path, text, message):
    scenario = (LAND % "").replace("animated-by: lord}", text)
    path = tmp_path / "a.yaml"
    path.write_text(scenario)
    done = runner.invoke(app, ["validate", str(path)])
    if message is None:
        assert done.exit_code == 0, done.output
    else:
        assert done.exit_code == 2 and "animated-by" in done.output and message in done.output


def test_an_animated_creature_needs_its_own_types(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text((LAND % "").replace("types: [land], ", ""))
    done = runner.invoke(app, ["validate", str(path)])
    assert done.exit_code == 2 and "permanents[1].types" in done.output
