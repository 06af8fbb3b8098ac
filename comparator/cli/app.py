"""The one typer app every command is registered on, with rulesdiff's own options
(`--version`, `--cards`) and the order its help lists the commands in. The commands'
modules import it; ``comparator.cli.main`` imports them all."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
import typer.core

from comparator.cli import typer_help
from comparator.cli.options import EXITS
from comparator.cli.output import fail

typer_help.install()

# The order `rulesdiff --help` lists the commands in: as a user meets them, whichever module
# registers each. A command not named here comes after these; the groups come last.
ORDER = ("run", "new", "validate", "verify", "eras", "diff", "explore", "history", "show",
         "schema", "blocks", "site", "catalog", "scenarios")


class _CardsAnywhere(typer.core.TyperGroup):
    """`--cards FILE` belongs to `rulesdiff` itself, before the command; written after the
    command (`rulesdiff diff x.yaml --cards mine.yaml`) it means the same, so it is moved
    in front rather than refused."""

    def parse_args(self, ctx: typer.Context, args: list[str]) -> list[str]:
        moved: list[str] = []
        rest: list[str] = []
        i = 0
        while i < len(args):
            if args[i] == "--":  # what follows is arguments only
                rest += args[i:]
                break
            if args[i] == "--cards" and i + 1 < len(args):
                moved += args[i:i + 2]
                i += 2
                continue
            (moved if args[i].startswith("--cards=") else rest).append(args[i])
            i += 1
        return super().parse_args(ctx, moved + rest)

    def list_commands(self, ctx: typer.Context) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(ORDER)}
        return sorted(names, key=lambda n: rank.get(n, len(ORDER)))


app = typer.Typer(
    cls=_CardsAnywhere, epilog=EXITS["rulesdiff"],
    add_completion=False, no_args_is_help=True, rich_markup_mode=None,
    help="Run a Magic: The Gathering combat (or a Duel Masters attack) under each era's "
         "rules and show where the outcomes diverge, and why.",
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        from versions import ENGINE_VERSION

        try:
            mine = version("rulesdiff")
        except PackageNotFoundError:
            mine = "(not installed)"
        typer.echo(f"rulesdiff {mine} (engine {ENGINE_VERSION})")
        raise typer.Exit(0)


@app.callback()
def _main(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False,
    cards: Annotated[Path | None, typer.Option(
        "--cards", metavar="FILE",
        help="a card library merged over the shipped one (default: $RULESDIFF_CARDS); "
             "`rulesdiff cards import` makes one from MTGJSON")] = None,
) -> None:
    """Run a Magic: The Gathering combat (or a Duel Masters attack) under each era's rules
    and show where the outcomes diverge, and why."""
    import os

    from comparator.games.mtg.cards import USER_CARDS

    if cards is not None:
        os.environ[USER_CARDS] = str(cards)  # worker processes inherit it
    if os.environ.get(USER_CARDS):
        from comparator.games.mtg.cards import CardLibraryError, library

        try:
            library()
        except CardLibraryError as err:
            fail(str(err))
