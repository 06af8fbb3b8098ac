"""The arguments and options that several `rulesdiff` commands share, each declared once so
that every command spells it, shows it and documents it the same way. Only typer is
imported here: `rulesdiff --help` stays fast."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from typer.models import OptionInfo

FILE_HELP = "a scenario file, or the id of a shipped scenario"
DB_HELP = "database path or SQLAlchemy URL (default: $RULESDIFF_DB, else ./rulesdiff.db)"


def json_flag(help: str) -> OptionInfo:
    """`--json`; `help` says what the command prints as JSON, which differs by command."""
    return typer.Option("--json", help=help)


def era_option(help: str) -> OptionInfo:
    """`--era`/`-e`; one era for some commands and a repeatable one for others, so the type
    and the help are the command's."""
    return typer.Option("--era", "-e", help=help, metavar="ERA")


JsonFlag = Annotated[bool, json_flag("print JSON")]
SummaryJsonFlag = Annotated[bool, json_flag("print the summary as JSON")]
DbOption = Annotated[str | None, typer.Option("--db", help=DB_HELP, metavar="URL")]
NoStoreFlag = Annotated[bool, typer.Option("--no-store", help="don't write the database")]
JobsOption = Annotated[int | None, typer.Option(
    "--jobs", help="worker processes (default: the machine's cores)", metavar="N")]

ScenarioArg = Annotated[str, typer.Argument(help=FILE_HELP, metavar="FILE")]
# validate and verify take paths; diff and explore also take shipped ids.
ScenarioPathsArg = Annotated[list[Path], typer.Argument(help="scenario files or folders",
                                                        metavar="FILE...")]
ScenarioNamesArg = Annotated[list[str], typer.Argument(
    help="scenario files, folders or shipped ids", metavar="FILE...")]
