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
    return typer.Option("--era", "-e", metavar="ERA", help=(
        f"{help}; an id, an alias or a date (YYYY-MM-DD: the era in force that day)"))


JsonFlag = Annotated[bool, json_flag("print JSON")]
SummaryJsonFlag = Annotated[bool, json_flag("print the summary as JSON")]
DbOption = Annotated[str | None, typer.Option("--db", help=DB_HELP, metavar="URL")]
NoStoreFlag = Annotated[bool, typer.Option("--no-store", help="don't write the database")]
QuoteFlag = Annotated[bool, typer.Option(
    "--quote", help="under each cited rule, its words from the era's document (imported "
                    "with `rulesdiff rules import`)")]
LangOption = Annotated[str | None, typer.Option(
    "--lang", help="the language of what is printed for people: en or ja (default: the "
                   "environment's, as $LANG says it, else en); JSON is the same in every "
                   "language", metavar="LANG")]
JobsOption = Annotated[int | None, typer.Option(
    "--jobs", help="worker processes (default: the machine's cores)", metavar="N", min=1,
    max=256)]

ScenarioArg = Annotated[str, typer.Argument(help=FILE_HELP, metavar="FILE")]
# validate and verify take paths; diff and explore also take shipped ids.
ScenarioPathsArg = Annotated[list[Path], typer.Argument(help="scenario files or folders",
                                                        metavar="FILE...")]
ScenarioNamesArg = Annotated[list[str], typer.Argument(
    help="scenario files, folders or shipped ids", metavar="FILE...")]


# What each command's exit status means, at the foot of its --help (a script branches on it).
_EXITS = {
    "run": (
        "Exit: 0 the outcome is printed; 2 bad input, an illegal choice, or an era that "
        "can't run the scenario."),
    "validate": "Exit: 0 every file is valid (warnings may be printed); 2 any problem.",
    "verify": "Exit: 0 every expectation is met; 1 a mismatch; 2 bad input.",
    "eras": "Exit: 0; 2 an unknown era.",
    "diff": (
        "Exit: 0 the eras agree on every file; 1 some diverge; 2 bad input or a database "
        "error."),
    "explore": (
        "Exit: 0 every era reaches the same outcomes with the same value; 1 they differ; "
        "2 bad input or a search larger than --limit."),
    "cards_import": "Exit: 0 the library is written; 2 a file that can't be read as MTGJSON.",
    "dataset_build": (
        "Exit: 0 stored; 2 bad input (nothing is written), a database or a cluster error."),
    "dataset_generate": "Exit: 0 written; 2 bad options, or a folder that holds other files.",
    "dataset_check": (
        "Exit: 0 every stored outcome is reproduced; 1 some changed; 2 a database error."),
    "dataset_export": "Exit: 0; 2 a database error, an output it can't write, or parquet "
                      "without pyarrow.",
    "show": "Exit: 0; 2 not stored, or a database error.",
    "schema": "Exit: 0; 2 an unknown game.",
    "blocks": ("Exit: 0; 2 bad input, another game's scenario, an era that can't run it, or "
               "more work than --limit allows."),
    "catalog": "Exit: 0; 2 bad input.",
    "list_scenarios": "Exit: 0.",
    "new": "Exit: 0 written; 2 the file exists or can't be written.",
    "rulesdiff": (
        "Exit: 0 success (and for diff and explore, the eras agree); 1 a divergence, a "
        "mismatch (verify) or a changed outcome (dataset check); 2 bad input or usage, said "
        "in one line naming the file and the field. Each command's --help says its own."),
    "group": "Exit: as each command's --help says; 2 bad usage.",
    "rules_import": (
        "Exit: 0 stored (or imported before); 2 a file that is no rules text, or a database "
        "error."),
    "rules_show": "Exit: 0; 2 no document in force then, the rule not in it, or bad input.",
    "rules_check": ("Exit: 0 every rule every era cites is in its imported document; 1 some "
                    "are not (or an era's document is not imported); 2 bad input."),
    "site": ("Exit: 0 the site is written; 2 bad input (a scenario file, an era, the "
             "output folder), a damaged store, a search index that could not be written "
             "whole, or a missing part of the site's tools."),
    "serve": ("Exit: 0 stopped (Ctrl-C); 2 bad options, a folder that is not one, a port "
              "already in use, or a missing part of the workbench's tools."),
    "history": ("Exit: 0 the rule's versions are printed; 2 no rules imported, not found in "
                "any, or bad input."),
}
EXITS = {k: f"{v} 70 is an internal error (a bug)." for k, v in _EXITS.items()}


def command_group(help_text: str) -> typer.Typer:
    """A group of commands (`rulesdiff dataset ...`): its help when called alone, and the
    exit codes every group shares."""
    return typer.Typer(help=help_text, no_args_is_help=True, epilog=EXITS["group"])
