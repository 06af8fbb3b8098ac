"""`--quote` on the command line: the rules' words beside the events a report cites, read
from the imported documents, and the footer that says how to import what is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comparator.cli.output import echo_lines, open_store, reading


def quotes_for(db: str | None):  # noqa: ANN202 - a Quotes, imported lazily
    from comparator.rules.quoting import Quotes

    return Quotes(open_store(db))


def quoting(db: str | None, quotes: Any, work: Callable[[], None]) -> None:
    """A report, which reads the store only to quote (so, without --quote, the store's
    modules are never loaded)."""
    if quotes is None:
        work()
    else:
        reading(db, work)


def quote_footer(quotes: Any, err: bool = False) -> None:
    for line in quotes.footer() if quotes is not None else ():
        echo_lines(line, err=err)
