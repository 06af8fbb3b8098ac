"""`rulesdiff blocks --can BLOCKER ATTACKER` (issue 24, point 3): whether one creature can
block one attacker, in each era, with the rule that forbids it; worked by hand from each
era's blocking rules."""

import json
from pathlib import Path

from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

BOARD = """id: can
title: who can block whom
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: raider, controller: A, power: 2, toughness: 2, keywords: [menace]}
  - {id: bird, controller: A, power: 1, toughness: 1, keywords: [flying]}
  - {id: bears, controller: B, power: 2, toughness: 2}
  - {id: more, controller: B, power: 2, toughness: 2}
  - {id: sleeper, controller: B, power: 2, toughness: 2, tapped: true}
combat:
  attacks: {raider: B, bird: B}
"""


def answers(tmp_path: Path, blocker: str, attacker: str, board: str = BOARD) -> dict:
    path = tmp_path / "can.yaml"
    path.write_text(board)
    done = runner.invoke(app, ["blocks", str(path), "--can", blocker, attacker, "--json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)["eras"]


def test_menace_can_be_blocked_when_another_can_block_too(tmp_path):
    eras = answers(tmp_path, "bears", "raider")
    assert all(a["can"] for a in eras.values())


def test_menace_against_a_lone_blocker(tmp_path):
    lone = BOARD.replace("  - {id: more, controller: B, power: 2, toughness: 2}\n", "")
    eras = answers(tmp_path, "bears", "raider", lone)
    assert {e: (a["can"], a["rule"]) for e, a in eras.items()} == {
        "alpha": (False, "p.27"),
        "fourth": (False, "C.6.Ruling.1"), "fifth": (False, "C.6.Ruling.1"),
        "sixth": (False, "500.3"),
        "m10": (False, "509.1b"), "m11": (False, "509.1b"), "foundations": (False, "509.1b")}


def test_flying_and_tapped(tmp_path):
    flying = answers(tmp_path, "bears", "bird")
    assert not flying["m11"]["can"] and "flying" in flying["m11"]["why"]
    assert flying["m11"]["rule"] == "509.1b" and flying["fifth"]["rule"] == "C.6.Ruling.1"
    tapped = answers(tmp_path, "sleeper", "bird")
    assert not tapped["foundations"]["can"] and tapped["foundations"]["why"] == \
        "sleeper is tapped"


def test_a_name_that_is_not_there_is_one_line(tmp_path):
    path = tmp_path / "can.yaml"
    path.write_text(BOARD)
    done = runner.invoke(app, ["blocks", str(path), "--can", "ghost", "raider"])
    assert done.exit_code == 2 and "no permanent 'ghost'" in done.output
