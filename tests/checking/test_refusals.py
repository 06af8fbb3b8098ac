"""Expecting a refusal (contract §2.1, issue 24): a file whose written blocks an era refuses
validates when its `expect` says so; `verify` checks the refusal's rule; `run --json`
prints the refusal on stdout and exits 2; `diff` runs the other eras; an unforeseen
refusal stays a problem of the file."""

import json
from pathlib import Path

from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()
SHIPPED = "menace-against-one-blocker"


def _file(tmp_path: Path, expect: str) -> str:
    path = tmp_path / "m.yaml"
    path.write_text(
        "id: m\ntitle: menace against one\nplayers: [{name: A}, {name: B}]\nactive: A\n"
        "permanents:\n  - {id: raider, controller: A, power: 2, toughness: 2, "
        "keywords: [menace]}\n  - {id: bears, controller: B, power: 2, toughness: 2}\n"
        "combat:\n  attacks: {raider: B}\n  blocks: {bears: raider}\n" + expect)
    return str(path)


def test_the_shipped_refusal_verifies_and_runs_as_the_contract_says():
    assert runner.invoke(app, ["validate", SHIPPED]).exit_code == 0
    assert runner.invoke(app, ["verify", SHIPPED]).exit_code == 0
    done = runner.invoke(app, ["run", SHIPPED, "--era", "m11", "--json"])
    assert done.exit_code == 2
    printed = json.loads(done.stdout)
    assert printed["schema"] == 1 and printed["scenario"] == SHIPPED
    assert printed["era"] == "m11" and printed["refused"]["rule"] == "509.1b"
    assert "menace" in printed["refused"]["text"]
    assert "illegal block in m11" in done.stderr and done.stderr.count("\n") == 1


def test_a_wrong_rule_or_an_era_that_runs_is_a_mismatch(tmp_path):
    wrong = _file(tmp_path, "expect:\n  m11: {refused: {rule: '509.1c'}}\n"
                            "  m10: {refused: {rule: '509.1b'}}\n"
                            "  foundations: {refused: {rule: '509.1b'}}\n"
                            "  sixth: {refused: {rule: '500.3'}}\n"
                            "  fifth: {refused: {rule: C.6.Ruling.1}}\n"
                            "  fourth: {refused: {rule: C.6.Ruling.1}}\n"
                            "  alpha: {refused: {rule: p.27}}\n")
    done = runner.invoke(app, ["verify", wrong, "--json"])
    assert done.exit_code == 1
    (m,) = json.loads(done.stdout)["mismatches"]
    assert (m["era"], m["field"], m["expected"], m["got"]) == (
        "m11", "refused.rule", "509.1c", "509.1b")


def test_an_unforeseen_refusal_is_still_a_problem_of_the_file(tmp_path):
    partly = _file(tmp_path, "expect:\n  m11: {refused: {rule: '509.1b'}}\n")
    done = runner.invoke(app, ["validate", partly])
    assert done.exit_code == 2 and "illegal block in" in done.output
    assert "m11" not in done.output.split("illegal block in")[1].split(":")[0]


def test_refused_goes_alone(tmp_path):
    both = _file(tmp_path, "expect:\n  m11: {refused: {rule: '509.1b'}, players: "
                           "{B: {life: 20}}}\n")
    done = runner.invoke(app, ["validate", both])
    assert done.exit_code == 2 and "goes alone" in done.output
    empty = _file(tmp_path, "expect:\n  m11: {refused: {}}\n")
    done = runner.invoke(app, ["validate", empty])
    assert done.exit_code == 2 and "reason: not-in-era" in done.output


def test_diff_runs_the_other_eras_and_says_the_refusal(tmp_path):
    ran = runner.invoke(app, ["diff", SHIPPED, "--no-store"])
    assert ran.exit_code == 0
    assert "m11: not run: refused, as expected (509.1b)" in " ".join(ran.output.split())



def test_diff_keeps_the_column_of_an_era_that_refuses():
    ran = runner.invoke(app, ["diff", "lifelink-blocker-at-one-life", "--no-store"],
                        env={"COLUMNS": "120"})
    header = next(line for line in ran.output.splitlines() if "field" in line)
    assert [c.strip() for c in header.strip("┃ ").split("┃")] == [
        "field", "alpha", "fourth", "fifth", "sixth", "m10", "m11", "foundations"]
    row = next(line for line in ran.output.splitlines() if "B.life" in line)
    assert [c.strip() for c in row.strip("│ ").split("│")][1:4] == ["not run"] * 3
    assert "fifth: not run: linker has lifelink" in " ".join(ran.output.split())
