"""The command line as a user runs it: `run`, `verify`, exit codes, output shapes."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import find_scenario
from versions import ERA_IDS

runner = CliRunner()
SPEC_EXAMPLE = "giant-growth-vs-assignment-order"


@pytest.mark.parametrize("era", ERA_IDS)
def test_run_json_follows_the_outcome_contract(era):
    result = runner.invoke(app, ["run", SPEC_EXAMPLE, "--era", era, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert set(out) == {"schema", "scenario", "era", "players", "permanents", "events",
                        "notes"}
    assert out["schema"] == 1 and out["scenario"] == SPEC_EXAMPLE and out["era"] == era
    # Every field of its kind, zero or empty included (contract §2).
    a = out["players"]["A"]
    assert {k: a[k] for k in ("life", "lost", "poison", "hand")} == {
        "life": 20, "lost": False, "poison": 0, "hand": []}
    # The graveyard: the names of A's creatures that died (a creature with no card or name
    # is named by its id), in the order they died.
    assert set(a) == {"life", "lost", "poison", "graveyard", "hand"}
    assert sorted(a["graveyard"]) == sorted(
        pid for pid, p in out["permanents"].items()
        if p["controller"] == "A" and p["zone"] == "graveyard")
    for p in out["permanents"].values():
        assert set(p) == {"zone", "controller", "damage", "power", "toughness", "tapped",
                          "loyalty", "counters", "keywords"}
        assert p["keywords"] == sorted(p["keywords"], key=str)
    for e in out["events"]:
        assert {"step", "type", "rule"} <= set(e)
    for n in out["notes"]:
        assert {"type", "rule", "text"} <= set(n)


def test_run_accepts_aliases_sixth():
    a = runner.invoke(app, ["run", SPEC_EXAMPLE, "--era", "pre-m10", "--json"])
    assert json.loads(a.output)["era"] == "sixth"


def test_run_narrates_with_rules_m10():
    result = runner.invoke(app, ["run", SPEC_EXAMPLE, "--era", "m10"])
    assert result.exit_code == 0
    assert "wurm's damage assignment order: bear > hawk  [509.2]" in result.output
    assert "hint:" in result.output and "[510.1c]" in result.output


def test_run_bad_era_and_missing_file_exit_2():
    bad_era = runner.invoke(app, ["run", SPEC_EXAMPLE, "--era", "omega"])
    assert bad_era.exit_code == 2 and "unknown era 'omega'" in bad_era.output
    missing = runner.invoke(app, ["run", "no-such-scenario", "--era", "m10"])
    assert missing.exit_code == 2 and "no-such-scenario" in missing.output


def test_run_illegal_block_exit_2_names_rule_m10():
    broken = str(Path(__file__).parents[1] / "broken" / "illegal-block.yaml")
    result = runner.invoke(app, ["run", broken, "--era", "m10"])
    assert result.exit_code == 2
    assert "combat.blocks.bear" in result.output and "509.1b" in result.output


def test_verify_reports_each_mismatch(tmp_path):
    text = (Path(__file__).parents[2] / "data" / "scenarios" /
            f"{SPEC_EXAMPLE}.yaml").read_text()
    wrong = text.replace("      hawk: {zone: battlefield, damage: 0}",
                         "      hawk: {zone: graveyard, damage: 0}")
    assert wrong != text
    f = tmp_path / "wrong.yaml"
    f.write_text(wrong)
    result = runner.invoke(app, ["verify", str(f)])
    assert result.exit_code == 1
    assert 'm10: permanents.hawk.zone: expected "graveyard", got "battlefield"' in result.output


def test_verify_compares_a_graveyard_s_cards_not_their_order(tmp_path):
    """The owner orders the cards that reach a graveyard at once (CR 404.3): an expectation
    names them in any order, as `diff` compares them; a card too many still fails."""
    text = (Path(__file__).parents[2] / "data" / "scenarios" /
            "moonglove-winnower-three-blockers.yaml").read_text()
    outcome = json.loads(runner.invoke(app, ["run", "moonglove-winnower-three-blockers",
                                             "--era", "m10", "--json"]).output)
    dead = outcome["players"]["B"]["graveyard"]
    assert len(dead) == 2
    for names, code in ((list(reversed(dead)), 0), (dead, 0), ([*dead, dead[0]], 1)):
        f = tmp_path / "moon.yaml"
        expect = f"  m10:\n    players:\n      B: {{graveyard: {json.dumps(names)}}}\n"
        f.write_text(text.replace("  m10:\n    permanents:\n", expect + "    permanents:\n"))
        result = runner.invoke(app, ["verify", str(f)])
        assert result.exit_code == code, result.output


def test_installed_command_works_from_any_directory(tmp_path):
    exe = shutil.which("rulesdiff") or str(Path(sys.executable).parent / "rulesdiff")
    if not os.path.exists(exe):
        pytest.skip("rulesdiff is not installed in this environment")
    done = subprocess.run([exe, "run", SPEC_EXAMPLE, "--era", "sixth", "--json"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["permanents"]["bear"]["damage"] == 3


def test_era_traits_cover_the_registry():
    from eras import TRAITS

    from versions import ERA_IDS
    assert set(TRAITS) == set(ERA_IDS)


def test_validate_and_verify_speak_json():
    bad = str(Path(__file__).parents[1] / "broken" / "ids.yaml")
    result = runner.invoke(app, ["validate", bad, "--json"])
    doc = json.loads(result.output)
    assert result.exit_code == 2 and doc["ok"] is False and doc["files"] == 1
    assert {"file": bad, "line": 7, "field": "permanents[1].id",
            "message": "id 'bear' is used twice"} in doc["problems"]
    good = runner.invoke(app, ["verify", SPEC_EXAMPLE, "--json"])
    doc = json.loads(good.output)
    expected = yaml.safe_load(Path(find_scenario(SPEC_EXAMPLE)).read_text())["expect"]
    assert good.exit_code == 0 and doc["ok"] and doc["checked"] == len(expected)
    assert doc["mismatches"] == []
    assert doc["unchecked"] == {e: 1 for e in ERA_IDS if e not in expected}


def test_diff_without_storing_never_imports_the_database_layer():
    code = ("import sys; from typer.testing import CliRunner; from comparator.cli.main import app; "
            "r = CliRunner().invoke(app, ['diff', 'giant-growth-vs-assignment-order', "
            "'--no-store']); print(r.exit_code, 'sqlalchemy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["1", "False"], done.stdout + done.stderr


def test_running_a_magic_scenario_loads_neither_duel_masters_nor_rich():
    # Start-up (issue 25): the other game's engine and model, and Rich (only its output
    # needs it), are loaded when used, not by every command.
    code = ("import sys; from typer.testing import CliRunner; from comparator.cli.main import app; "
            "r = CliRunner().invoke(app, ['run', 'giant-growth-vs-assignment-order', "
            "'--era', 'm10', '--json']); "
            "print(r.exit_code, sorted({m.split('.')[0] for m in sys.modules "
            "if m.startswith(('rich', 'versions.duel_masters.engine', "
            "'versions.duel_masters.scenario', 'versions.duel_masters.play'))}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.split() == ["0", "[]"], done.stdout + done.stderr
    dm = ("from comparator.scenarios.loader import load; "
          "from comparator.files.locations import find_scenario; "
          "import versions; s = load(find_scenario('dm-blocker-then-guardman-relay')); "
          "print(versions.run('dm-2021-09', s)['scenario'])")
    done = subprocess.run([sys.executable, "-c", dm], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "dm-blocker-then-guardman-relay" in done.stdout, done.stderr


def test_a_crash_is_not_mistaken_for_a_divergence():
    # Exit 1 means "the eras diverge" (diff) and 2 "bad input"; a bug exits 70, so the
    # README's `rulesdiff diff ... || [ $? -eq 1 ]` never passes on a crash.
    import subprocess
    import sys

    code = ("import sys, comparator.cli.main as c\n"
            "@c.app.command('boom')\n"
            "def boom():\n"
            "    raise RuntimeError('a bug')\n"
            "sys.argv = ['rulesdiff', 'boom']\n"
            "c.main()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 70 and "RuntimeError: a bug" in r.stderr
