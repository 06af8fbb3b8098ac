"""``comparator.cli.typer_help`` patches typer's own copy of click where typer has no
setting. These tests fail loudly when typer renames, drops or reshapes what is patched,
before the help quietly changes: each patched attribute exists, takes the arguments the
patch passes on, and the patched help and usage errors read as rulesdiff's do."""

import importlib
import inspect
import os
import subprocess
import sys

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


def _rulesdiff(*args: str) -> subprocess.CompletedProcess:
    # A fresh interpreter: the patches are there because the app installs them, not
    # because another test did.
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "comparator", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_help_and_usage_errors_read_as_rulesdiffs():
    listed = _rulesdiff("--help")
    assert listed.returncode == 0
    commands = listed.stdout.split("Commands:")[1]
    # A summary is the whole first sentence, wrapped, never cut with "...".
    assert "..." not in commands
    assert "history    A rule through time: each version in the imported documents," \
        in commands
    # Words are not cut at their hyphens: "sub-folder", a date, "end-of-turn".
    explore = _rulesdiff("explore", "--help").stdout
    assert "end-of-turn" in explore and not any(line.rstrip().endswith("end-")
                                                 for line in explore.splitlines())
    # A usage error: one line naming the command and where to read more, exit 2.
    wrong = _rulesdiff("diff", "--no-such-option")
    assert wrong.returncode == 2 and wrong.stdout == ""
    lines = [line for line in wrong.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "--no-such-option" in lines[0] and "--help')" in lines[0], \
        wrong.stderr
    # An argument's metavar alone, not its Python type beside it.
    run_help = _rulesdiff("run", "--help").stdout
    assert "<" not in run_help.split("Options")[0], run_help
