"""How rulesdiff's help and usage errors differ from typer's, where typer offers no setting
for it: ``install`` patches typer's own copy of click (``typer._click``) so that help wraps
without cutting a word at its hyphens, a command's summary in a list is its whole first
sentence, a usage error is one line on stderr with exit 2, and an argument's Python type
is not printed beside its metavar. Each patch names the attribute it replaces in
``PATCHED``; ``tests/cli/test_typer_help.py`` fails loudly when typer renames or drops one,
rather than the help quietly changing."""

from __future__ import annotations

from typing import Any

import typer
import typer.core

# What is replaced, as (module, attribute): checked to exist by the tests before any patch.
PATCHED = (
    ("typer.core", "TyperArgument.display_type_rich"),
    ("typer._click._textwrap", "TextWrapper.__init__"),
    ("typer._click.core", "make_default_short_help"),
    ("typer._click.exceptions", "UsageError.show"),
    ("typer._click.core", "Command.parse_args"),
)


def install() -> None:
    """Every patch, once (a second call changes nothing)."""
    if getattr(typer.core, "_rulesdiff_help", False):
        return
    typer.core._rulesdiff_help = True  # type: ignore[attr-defined]
    # Typer prints an argument's Python type beside its name in help ("FILE <list[str]>");
    # the metavar already says what to give, so show only that.
    typer.core.TyperArgument.display_type_rich = (  # type: ignore[method-assign]
        lambda self, ctx: None)
    _help_words_whole()
    _usage_errors_in_one_line()


def _help_words_whole() -> None:
    """Help text wraps at 80 columns without cutting a word: not at its hyphens (a date
    like 2008-06-01, `sub-folder`), and a command's summary in a list is its whole first
    sentence, wrapped, not cut with "..."."""
    # Typer carries its own copy of click (`typer._click`): its help goes through that one.
    import typer._click.core as click_core
    from typer._click import _textwrap

    init = _textwrap.TextWrapper.__init__

    def whole_words(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("break_on_hyphens", False)
        init(self, *args, **kwargs)

    _textwrap.TextWrapper.__init__ = whole_words  # type: ignore[method-assign]

    def first_sentence(help: str, max_length: int) -> str:  # noqa: ARG001 - click's API
        text = " ".join(help.split())
        return text.split(". ")[0].rstrip(".") if text else ""

    click_core.make_default_short_help = first_sentence  # type: ignore[assignment]


def _usage_errors_in_one_line() -> None:
    """A mistake on the command line (a missing file, an unknown option or command, a value
    out of range) is said in one line on stderr with exit 2, as every other bad input is,
    and says where to read more: click prints its usage, a hint and the error on three."""
    from typer._click import core, exceptions

    def one_line(self: exceptions.UsageError, file: Any = None) -> None:
        where = self.ctx.command_path if self.ctx is not None else "rulesdiff"
        typer.echo(f"{where}: {' '.join(self.format_message().split())} "
                   f"(see '{where} --help')", err=file is None, file=file)

    # Only the usage error itself: asking for nothing (`rulesdiff` alone) still shows help.
    exceptions.UsageError.show = one_line  # type: ignore[method-assign]

    # An error the parser raises (an option without its value) knows no command: the one
    # being parsed is it.
    parse_args = core.Command.parse_args

    def parse_naming_the_command(self: Any, ctx: Any, args: list[str]) -> list[str]:
        try:
            return parse_args(self, ctx, args)
        except exceptions.UsageError as err:
            if err.ctx is None:
                err.ctx, err.cmd = ctx, ctx.command
            raise

    core.Command.parse_args = parse_naming_the_command  # type: ignore[method-assign]
