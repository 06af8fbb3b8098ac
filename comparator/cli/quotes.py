"""`--quote` on the command line: the rules' words beside the events a report cites, read
from the imported documents, and the footer that says how to import what is missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comparator.cli.output import echo_lines, fail, reading


def quotes_for(db: str | None):  # noqa: ANN202 - a Quotes, imported lazily
    """The quotations of the store, read only: a store that does not exist quotes nothing
    (and is not made for it; the footer says to import the rules)."""
    from comparator.rules.quoting import Quotes
    from comparator.store.database import StoreError, open_engine

    try:
        return Quotes(open_engine(db, create=False))
    except StoreError as err:
        if not str(err).startswith("no database at"):
            fail(str(err))
        return Quotes(None)


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
