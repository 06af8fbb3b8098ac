"""``comparator.cli.typer_help`` patches typer's own copy of click where typer has no
setting. These tests fail loudly when typer renames, drops or reshapes what is patched,
before the help quietly changes: each patched attribute exists, takes the arguments the
patch passes on, and the patched help and usage errors read as rulesdiff's do."""

import importlib
import inspect

from typer.testing import CliRunner

from comparator.cli import typer_help


def _attribute(module: str, dotted: str):
    found = importlib.import_module(module)
    for part in dotted.split("."):
        assert hasattr(found, part), (f"typer changed: {module}.{dotted} is gone; "
                                      f"comparator/cli/typer_help.py patches it")
        found = getattr(found, part)
    return found


def test_every_patched_attribute_is_still_there():
    for module, dotted in typer_help.PATCHED:
        _attribute(module, dotted)


def test_the_patched_functions_keep_the_arguments_the_patches_pass_on():
    from typer._click import _textwrap, core, exceptions

    assert "break_on_hyphens" in inspect.signature(_textwrap.TextWrapper).parameters or \
        "break_on_hyphens" in inspect.signature(__import__("textwrap").TextWrapper).parameters
    # The patched versions keep the originals' call shapes; typer calls them so.
    assert list(inspect.signature(core.make_default_short_help).parameters)[:2] == \
        ["help", "max_length"]
    assert list(inspect.signature(core.Command.parse_args).parameters) == \
        ["self", "ctx", "args"]
    assert "file" in inspect.signature(exceptions.UsageError.show).parameters


def test_installing_twice_changes_nothing():
    from typer._click import core

    typer_help.install()
    once = core.Command.parse_args
    typer_help.install()
    assert core.Command.parse_args is once


def test_help_and_usage_errors_read_as_rulesdiffs():
    from comparator.cli.main import app

    runner = CliRunner()
    listed = runner.invoke(app, ["--help"], terminal_width=80)
    assert listed.exit_code == 0
    # A summary is the whole first sentence, wrapped, never cut with "...".
    assert "..." not in listed.output
    assert "history    A rule through time: each version in the imported documents," \
        in listed.output
    # A usage error: one line naming the command and where to read more, exit 2.
    wrong = runner.invoke(app, ["diff", "--no-such-option"])
    assert wrong.exit_code == 2
    lines = [line for line in wrong.output.splitlines() if line.strip()]
    assert len(lines) == 1 and "(see 'rulesdiff diff --help')" in lines[0], wrong.output
    # An argument's metavar alone, not its Python type beside it.
    run_help = runner.invoke(app, ["run", "--help"], terminal_width=80)
    assert "<" not in run_help.output.split("Options")[0], run_help.output
