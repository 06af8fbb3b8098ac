"""What the command line's commands share: one way to fail (one line, exit 2), to print a
report's lines, to open the store, to read and write it, and to find an era."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import typer

T = TypeVar("T")


def fail(message: str) -> NoReturn:
    """Bad input or usage: one line on stderr, exit 2."""
    from comparator.cli.progress import end_bars
    from comparator.text.terminal import clean, masked

    end_bars()  # the line goes under the work's bar, if one is drawn: erased first
    typer.echo(f"rulesdiff: {clean(masked(message))}", err=True)
    raise typer.Exit(2)


def echo_lines(text: str, hang: str = "    ", err: bool = False) -> None:
    """Lines of a human report, each wrapped to the terminal's width with a hanging indent
    (words never cut); errors stay one line each and don't come through here. A note on
    stderr while a progress bar is drawn goes above it."""
    from comparator.cli.progress import said_above
    from comparator.text.terminal import clean, echo_width, masked, wrapped

    width = echo_width()
    for line in clean(masked(text)).split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        said = "\n".join(wrapped(line.strip(), width, indent, hang))
        if not (err and said_above(said)):
            typer.echo(said, err=err)


def open_store(db: str | None, create: bool = True,  # noqa: ANN201 - an Engine, lazily
               later: bool = False):
    """The store (``open_engine``); one that can't be used, however (a bad URL, a name the
    system refuses, a damaged file), is one line and exit 2. A command that only reads
    (`create` false) never makes a file; `later`: a new file is made by
    ``store.database.prepare``, when the command has something valid to write."""
    from comparator.store.database import StoreError, open_engine
    from comparator.text.messages import message

    try:
        return open_engine(db, create, later)
    except StoreError as err:
        fail(message(str(err)))


def reading(db: str | None, work: Any) -> Any:
    """Run a read of the database; a corrupt or tampered one is a clear error, exit 2."""
    from sqlalchemy.exc import SQLAlchemyError

    from comparator.store.database import database_url
    from comparator.text.messages import message

    try:
        return work()
    except (SQLAlchemyError, ValueError, KeyError, TypeError) as exc:
        what = str(getattr(exc, "orig", exc)).splitlines()[0] if str(exc) else type(exc).__name__
        fail(message(f"{database_url(db).rsplit('/', 1)[-1]}: can't read the stored data "
                     f"({type(exc).__name__}: {what}); the database is damaged or was not "
                     f"written by this rulesdiff"))


def writing(work: Callable[[], T]) -> T:
    """Run a write of the database and give what it returns; a refused one is a clear
    error, exit 2."""
    from sqlalchemy.exc import SQLAlchemyError

    from comparator.dataset.runs import write_failed
    from comparator.store.database import StoreError

    try:
        return work()
    except SQLAlchemyError as exc:
        fail(write_failed(exc))
    except StoreError as err:  # what the store refuses to hold (a tampered row's key)
        fail(str(err))


def find_era_class(name: str):  # noqa: ANN202 - an era class, imported lazily
    from versions import find_era

    try:
        return find_era(name)
    except KeyError as err:
        fail(str(err.args[0]))


def say_refused(file: object, refused: dict[str, str]) -> None:
    """An era that can't run a scenario, on stderr: the JSON keeps the contract's keys."""
    from comparator.text.language import _
    from comparator.text.messages import message
    from comparator.text.terminal import clean

    for era, why in refused.items():  # a note, not an error: wrapped as the report is
        echo_lines(clean("rulesdiff: " + _("{era} can't run {file}: {why}").format(
            era=era, file=file, why=message(why))), err=True)


def say_unmodelled(scenario: Any) -> None:
    """Under a human report: the text of the cards the scenario uses that rulesdiff does
    not model (the JSON documents keep the contract's keys)."""
    from comparator.games.registry import game_of
    from comparator.text.language import _
    from comparator.text.messages import message
    from comparator.text.terminal import clean, echo_width, wrapped

    width = echo_width()
    for line in game_of(scenario).not_modelled(scenario):
        typer.echo("\n".join(wrapped(clean(_("note: {line}").format(line=message(line))),
                                      width, "", "      ")))


def speak(lang: str | None) -> None:
    """Speak the language `--lang` names (or the environment's) from here on."""
    from comparator.text.language import chosen, use

    try:
        use(chosen(lang))
    except ValueError as err:
        fail(str(err))
