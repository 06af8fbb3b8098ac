"""Progress bars on stderr for the commands that take a while (explore, blocks --best,
dataset build and generate, site, rules import, cards import): what is being done and, where
the amount of work is known, how much is left. Drawn only on a terminal, never with --json,
and only once the work has taken a second: a quick command prints nothing more than its
result, and a piped one nothing but it."""

from __future__ import annotations

import os
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from rich.progress import Progress, Task, TaskID

    from comparator.explore.files import Reporter, Searching

DELAY = 1.0  # seconds of work before a bar appears
DESCRIBED = 50  # columns of a row's words at most: the counts and times stay on its line

_open: weakref.WeakSet[Bar] = weakref.WeakSet()  # the bars whose context has not ended


def bars_shown(as_json: bool = False) -> bool:
    """Whether a command draws bars: when stderr is a terminal that can redraw a line, and
    its output is not JSON (which scripts read; they may still give it a terminal). Asked
    of stderr itself: rich alone would take FORCE_COLOR for a terminal and draw into a
    pipe."""
    if as_json or os.environ.get("TERM") in ("dumb", "unknown"):
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # no stderr, or a closed one
        return False


class Bar:
    """A rich Progress on stderr, as a context: its rows (tasks) are kept from the start,
    but it is drawn only once DELAY has passed, from a timer's thread, so that the work
    itself is never interrupted to look at the clock; gone (transient) when the context
    ends. Not `shown`, every method does nothing: a caller never asks twice."""

    def __init__(self, shown: bool) -> None:
        self.shown = shown
        self._progress: Progress | None = _progress() if shown else None
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._drawn = False
        self._ended = False

    def __enter__(self) -> Bar:
        if self._progress is not None:
            _open.add(self)
            self._timer = threading.Timer(DELAY, self._draw)
            self._timer.daemon = True  # never what keeps a finished command alive
            self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.end()

    def end(self) -> None:
        """Take the bar off the terminal (or stop it appearing): before an error's line,
        so that erasing the bar never erases it."""
        if self._timer is not None:
            self._timer.cancel()
        _open.discard(self)
        with self._lock:
            self._ended = True
            if self._drawn and self._progress is not None:
                self._progress.stop()
                self._drawn = False

    def _draw(self) -> None:
        with self._lock:
            if not self._ended and self._progress is not None:
                self._progress.start()
                self._drawn = True

    def task(self, description: str, total: float | None = None, **fields: Any) -> TaskID:
        """A new row: with a `total`, a bar with the fraction done and the time left; else
        a spinner. Its fields: `count`, words for the amount done ("1,200 lines"), shown in
        place of a fraction; `item`, what was done last (a file, a page), at the row's end;
        `clock=False`: no spinner or elapsed time (a row under another that has them)."""
        if self._progress is None:
            return cast("TaskID", 0)
        return self._progress.add_task(_said(description), total=total, **_fields(fields))

    def update(self, task: TaskID, **changes: Any) -> None:
        if self._progress is not None:
            if "description" in changes:
                changes["description"] = _said(changes["description"])
            self._progress.update(task, **_fields(changes))

    def advance(self, task: TaskID, amount: float = 1) -> None:
        if self._progress is not None:
            self._progress.advance(task, amount)

    def remove(self, task: TaskID) -> None:
        if self._progress is not None:
            self._progress.remove_task(task)


def said_above(text: str) -> bool:
    """`text` printed to stderr above the bar drawn now, if one is (rich then draws the bar
    again under it); False if none is, for the caller to print it itself. Needed as click
    writes to stderr's own buffer, past the stand-in rich puts in sys.stderr meanwhile."""
    for bar in list(_open):
        with bar._lock:
            if bar._drawn and bar._progress is not None:
                bar._progress.console.out(text, highlight=False)
                return True
    return False


def end_bars() -> None:
    """Every bar off the terminal: a command that fails says so in one line, which the
    bar's erasing must not take with it."""
    for bar in list(_open):
        bar.end()


def _fields(fields: dict[str, Any]) -> dict[str, Any]:
    if "item" in fields:  # a file's name, which may hold anything: escaped
        from comparator.text.terminal import clean

        fields["item"] = clean(fields["item"])
    return fields


def _said(description: str) -> str:
    """A row's words as the terminal is sent them: a file name or a scenario id may hold
    anything (escapes shown escaped, as everywhere), and a long one is cut so that the row
    keeps to one line."""
    from comparator.text.terminal import clean, cut

    return cut(clean(description), DESCRIBED)


def _progress() -> Progress:
    """The rich Progress every bar uses: one layout for rows with a total and without.
    Its columns are made here, as rich is imported: only once a bar is to be drawn."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column
    from rich.text import Text

    class WithTotal(BarColumn):
        def render(self, task: Task) -> Any:
            return super().render(task) if task.total is not None else Text("")

    class Amount(TextColumn):
        def render(self, task: Task) -> Text:
            if "count" in task.fields:
                return Text(str(task.fields["count"]), style="progress.download")
            if task.total is None:
                return Text("")
            return Text(f"{int(task.completed):,}/{int(task.total):,}",
                        style="progress.download")

    class Elapsed(TimeElapsedColumn):
        def render(self, task: Task) -> Text:
            return super().render(task) if task.fields.get("clock", True) else Text("")

    class Left(TimeRemainingColumn):
        def render(self, task: Task) -> Text:
            return super().render(task) if task.total is not None else Text("")

    class Spinner(SpinnerColumn):
        def render(self, task: Task) -> Any:
            return super().render(task) if task.fields.get("clock", True) else Text("")

    class Words(TextColumn):
        def render(self, task: Task) -> Text:
            # No markup: a description holds file names and scenario ids, which may hold
            # brackets. Cut short, never wrapped: a row stays one line.
            return Text(task.description, no_wrap=True, overflow="ellipsis")

    class Item(TextColumn):
        def render(self, task: Task) -> Text:
            return Text(task.fields.get("item", ""), style="dim", no_wrap=True,
                        overflow="ellipsis")

    # On a narrow terminal the words give way (rich narrows the columns that may wrap,
    # the widest first, and they are cut with "…"); the bar, the counts and the times
    # never do. The last item is the least of it: never wider than 30 columns.
    fixed = Column(no_wrap=True)
    return Progress(Spinner(table_column=fixed), Words("", table_column=Column()),
                    WithTotal(bar_width=20, table_column=fixed),
                    Amount("", table_column=fixed), Elapsed(table_column=fixed),
                    Left(table_column=fixed), Item("", table_column=Column(max_width=30)),
                    console=Console(stderr=True), transient=True,
                    # What is printed to stderr while the bar is drawn goes above it (and
                    # stays when the bar is erased); stdout, the result, is never touched.
                    redirect_stdout=False, redirect_stderr=True)


def searching(bar: Bar, each: Callable[[], None] | None = None) -> Searching:
    """What `explore_files` and `run_build` are given to watch each scenario's search: a
    row for the scenario (its elapsed time) and one under it for each era searched, with
    the lines of play searched so far (the era's total once it is done; a search in a
    worker process is said when it starts and when it is done); `each` is called as each
    search ends. Nothing when the bar is not shown: the search then never stops to
    report."""

    @contextmanager
    def watch(scenario_id: str) -> Iterator[Reporter | None]:
        if not bar.shown:
            yield None
            return
        from comparator.text.language import _

        head = bar.task(_("exploring {scenario}").format(scenario=scenario_id))
        eras: dict[str, TaskID] = {}

        def progress(era: str, lines: int) -> None:
            # 0: begun, or searched elsewhere, or refused by the era's rules: only named.
            count = _("{n} lines").format(n=f"{lines:,}") if lines else ""
            if era in eras:
                bar.update(eras[era], count=count)
            else:
                eras[era] = bar.task(f"  {era}", clock=False, count=count)

        try:
            yield progress
        finally:
            for task in (head, *eras.values()):
                bar.remove(task)
        if each is not None:
            each()

    return watch
