"""`--quote` on the command line: the rules' words beside the events a report cites, read
from the imported documents, and the footer that says how to import what is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comparator.cli.output import _echo, _engine, _reading


def _quotes(db: str | None):  # noqa: ANN202 - a Quotes, imported lazily
    from comparator.rules.quoting import Quotes

    return Quotes(_engine(db))


def _quoting(db: str | None, quotes: Any, work: Callable[[], None]) -> None:
    """A report, which reads the store only to quote (so, without --quote, the store's
    modules are never loaded)."""
    if quotes is None:
        work()
    else:
        _reading(db, work)


def _quote_footer(quotes: Any, err: bool = False) -> None:
    for line in quotes.footer() if quotes is not None else ():
        _echo(line, err=err)
