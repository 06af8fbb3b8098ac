"""Every shipped scenario's hand-written `expect:` holds (the regression dataset)."""

from typer.testing import CliRunner

from comparator.cli import app
from comparator.data_files import scenarios_dir, shipped_scenarios


def test_verify_the_shipped_folder():
    result = CliRunner().invoke(app, ["verify", str(scenarios_dir())])
    assert result.exit_code == 0, result.output


def test_every_shipped_scenario_expects_all_three_eras():
    from comparator.loader import load

    for path in shipped_scenarios():
        s = load(path)
        assert set(s.expect) == {"sixth", "m10", "foundations"}, path.name
        assert s.sources and s.description, path.name


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
    stored = (Path(__file__).parents[1] / "docs" / "catalog.md").read_text()
    assert fresh == stored, "run: rulesdiff catalog --markdown > docs/catalog.md"
