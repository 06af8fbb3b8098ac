"""The docs stay true: every command documented, the README's diff example as printed."""

import re
from pathlib import Path

import typer
from typer.testing import CliRunner

from comparator.cli.main import app

ROOT = Path(__file__).parents[1]


def command_names(a: typer.Typer, prefix: str = "") -> list[str]:
    names = []
    for c in a.registered_commands:
        names.append(prefix + (c.name or c.callback.__name__.replace("_", "-")))
    for g in a.registered_groups:
        names += command_names(g.typer_instance, prefix + g.name + " ")
    return names


def test_every_command_is_documented():
    docs = (ROOT / "docs" / "commands.md").read_text()
    names = command_names(app)
    assert {"run", "diff", "validate", "verify", "eras", "show", "schema",
            "dataset build", "dataset check", "dataset export"} <= set(names)
    for name in names:
        assert f"## rulesdiff {name}\n" in docs, f"docs/commands.md has no section for {name}"


def test_readme_diff_example_is_what_rulesdiff_prints():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- diff-example -->\n```\n\$ rulesdiff (.*?)\n(.*?)\n```", readme,
                      re.S)
    assert block, "README lost its diff example"
    args, shown = block.group(1).split(), block.group(2)
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.output.rstrip("\n") == shown
    assert result.exit_code == 1


def test_readme_explore_example_is_what_rulesdiff_prints():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- explore-example -->\n```\n\$ rulesdiff (.*?)\n(.*?)\n```",
                      readme, re.S)
    assert block, "README lost its explore example"
    args, shown = block.group(1).split(), block.group(2)
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.output.rstrip("\n") == shown
    assert result.exit_code == 1


def test_readme_opens_with_the_two_commands():
    lines = (ROOT / "README.md").read_text().splitlines()
    first = lines[lines.index("```bash") + 1: lines.index("```bash") + 3]
    assert "pip install ." in first[0] and "rulesdiff diff" in first[0]
    assert first[0].endswith("|| [ $? -eq 1 ]; }")  # a divergence (exit 1) is success here
    assert 'pip install -e ".[test]"' in first[1] and first[1].endswith("pytest")


def test_schema_command_prints_a_json_schema():
    import json

    out = CliRunner().invoke(app, ["schema"]).output
    doc = json.loads(out)
    assert doc["type"] == "object" and "permanents" in doc["properties"]
    assert "if-missing" in json.dumps(doc)


def test_each_era_has_its_doc():
    from versions import ALL_ERAS

    for era in ALL_ERAS:
        text = (ROOT / "docs" / "eras" / f"{era.id}.md").read_text()
        assert era.began in text
        assert "## Concordance" in text and "## What rulesdiff does not model" in text
        assert "## Other engines" in text


def test_schema_accepts_every_shipped_scenario_and_rejects_a_bad_one():
    import json

    import jsonschema
    import yaml

    from comparator.files.locations import shipped_scenarios

    schema = json.loads(CliRunner().invoke(app, ["schema"]).output)
    validator = jsonschema.Draft202012Validator(schema)
    other = jsonschema.Draft202012Validator(json.loads(CliRunner().invoke(
        app, ["schema", "--game", "duel-masters"]).output))
    for path in shipped_scenarios():
        doc = yaml.safe_load(path.read_text())
        errors = list((other if doc.get("game") == "duel-masters" else validator)
                      .iter_errors(doc))
        assert not errors, (path.name, errors[0].message)
    bad = yaml.safe_load((ROOT / "tests" / "broken" / "unknown-things.yaml").read_text())
    assert list(validator.iter_errors(bad))


def test_schema_describes_every_field_and_closes_the_vocabularies():
    import json

    doc = json.loads(CliRunner().invoke(app, ["schema"]).output)
    for name, definition in [("root", doc), *doc["$defs"].items()]:
        for field, prop in definition.get("properties", {}).items():
            assert prop.get("description"), (name, field)
    assert "pump" in doc["$defs"]["Action"]["properties"]["effect"]["enum"]
    assert "damage-on-stack" in json.dumps(doc["$defs"]["Action"]["properties"]["at"])


def test_help_shows_no_python_type_names():
    for name in command_names(app):
        out = CliRunner().invoke(app, [*name.split(), "--help"]).output
        out = re.sub(r"-?\d+<=x(<=\d+)?|x<=\d+", "", out)  # a bounded option's range is fine
        assert "<" not in out and "list[" not in out, (name, out)


def test_every_package_is_installed():
    # `pip install .` (the README's first command) installs the packages setup.py hands
    # setuptools: a new subpackage missing there works in the editable install of the tests
    # and nowhere else.
    import os
    from distutils.core import run_setup

    here = os.getcwd()
    try:
        os.chdir(ROOT)
        listed = set(run_setup("setup.py", stop_after="init").packages)
    finally:
        os.chdir(here)
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("versions", "comparator") for p in (ROOT / top).rglob("__init__.py")}
    assert found <= listed, found - listed
    assert "rulesdiff_data" in listed


def test_readme_counts_the_shipped_scenarios():
    from comparator.files.locations import shipped_scenarios

    readme = (ROOT / "README.md").read_text()
    counted = re.search(r"The\s+(\d+) shipped scenarios", readme)
    assert counted and int(counted.group(1)) == len(shipped_scenarios())
