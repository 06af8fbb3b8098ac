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
