"""Every shipped scenario's hand-written `expect:` holds (the regression dataset)."""

from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir, shipped_scenarios


def test_verify_the_shipped_folder():
    import json

    from eras import FIFTH_PENDING

    result = CliRunner().invoke(app, ["verify", str(scenarios_dir()), "--json"])
    assert result.exit_code == 0, result.output
    # Only the pre-Sixth eras' outcomes of the scenarios listed as pending are unchecked.
    assert json.loads(result.output)["unchecked"] == (
        {"alpha": len(FIFTH_PENDING), "fourth": len(FIFTH_PENDING),
         "fifth": len(FIFTH_PENDING)} if FIFTH_PENDING else {})


def test_verify_says_which_eras_a_file_leaves_unchecked(tmp_path):
    f = tmp_path / "partial.yaml"
    f.write_text("""
id: partial
title: Only two eras expected
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
combat:
  attacks: {bear: B}
expect:
  sixth: {players: {B: {life: 18}}}
  m11: {players: {B: {life: 17}}}
""")
    result = CliRunner().invoke(app, ["verify", str(f)])
    # The bear deals 2 in every era: m11's 17 is wrong and reported; m10 and foundations
    # are not checked, and the summary says so.
    assert result.exit_code == 1
    assert 'm11: players.B.life: expected 17, got 18' in result.output
    said = " ".join(result.output.split())  # the summary wraps at the terminal's width
    assert "m10 not checked in 1 file(s)" in said
    assert "foundations not checked in 1 file(s)" in said


def test_every_shipped_scenario_expects_every_era():
    # Every era that runs a scenario has its outcome worked by hand; an era that refuses it
    # (it uses what that era's rules did not have) has none.
    from eras import FIFTH_PENDING

    from comparator.scenarios.loader import load
    from versions import eras_of, find_era

    shipped = set()
    for path in shipped_scenarios():
        s = load(path)
        shipped.add(s.id)
        for era in eras_of(s.game):
            refused = find_era(era)().refusal(s)
            if era in ("alpha", "fourth", "fifth") and s.id in FIFTH_PENDING:
                assert era not in s.expect and not refused, f"{s.id}: no longer pending"
            elif refused:  # an era that refuses it expects nothing, or its refusal
                assert era not in s.expect or s.expect[era].refused is not None, \
                    (path.name, era)
            else:
                assert era in s.expect, (path.name, era)
        assert s.sources and s.description, path.name
    assert set(FIFTH_PENDING) <= shipped


def test_at_least_half_the_library_diverges(tmp_path):
    import json

    result = CliRunner().invoke(app, ["dataset", "build", "--json", "--db",
                                      str(tmp_path / "lib.db")])
    summary = json.loads(result.output[result.output.index("{"):])
    assert summary["scenarios"] >= 40
    assert summary["diverging"] * 2 >= summary["scenarios"]


def test_catalog_is_fresh():
    from pathlib import Path

    fresh = CliRunner().invoke(app, ["catalog", "--markdown"]).output
    stored = (Path(__file__).parents[2] / "docs" / "catalog.md").read_text()
    assert fresh == stored, "run: rulesdiff catalog --markdown > docs/catalog.md"
