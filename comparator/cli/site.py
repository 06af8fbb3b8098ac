"""`rulesdiff site OUT/`: the static website."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
import typer.core

from comparator.cli.app import app
from comparator.cli.lookup import eras_named, expand_paths
from comparator.cli.options import (
    EXITS,
    DbOption,
    JobsOption,
    LangOption,
    SummaryJsonFlag,
    era_option,
)
from comparator.cli.output import echo_lines, fail, open_store, speak, writing
from comparator.cli.progress import Bar, bars_shown
from comparator.text.language import _

if TYPE_CHECKING:
    from comparator.site.gather import Say


@app.command(epilog=EXITS["site"])
def site(
    out: Annotated[Path, typer.Argument(help="the folder to write the site into",
                                        metavar="OUT")],
    files: Annotated[list[Path] | None, typer.Argument(
        help="scenario files or folders (default: the shipped library)", metavar="FILE...")]
    = None,
    era: Annotated[list[str] | None,
                   era_option("only these eras (repeat the option)")] = None,
    db: DbOption = None,
    explore_too: Annotated[bool, typer.Option(
        "--explore/--no-explore", help="explore the scenarios the store has not explored "
                                       "(default options) and show what players could do")]
    = True,
    jobs: JobsOption = None,
    as_json: SummaryJsonFlag = False,
    lang: LangOption = None,
) -> None:
    """Write a static website of the eras, the rule changes and the scenarios: a timeline,
    a page per change, per scenario (pictures of the board before and after combat in each
    era, the events with their rules) and per era, indexes by mechanic and by rule, the
    dataset's statistics and a search. It works opened from disk or from any static host;
    the same input gives the same bytes. Runs what the store lacks, and stores it. Every
    page is written in English and, under ja/, in Japanese; --lang is the language of
    what the command itself says."""
    import os
    from importlib.util import find_spec

    speak(lang)

    from comparator.compare.running import era_ids
    from comparator.files.locations import scenarios_dir
    from comparator.files.problems import ScenarioError
    from comparator.store.schema import StoreError

    # The site's tools are an extra, imported as each part of the build needs them: say
    # which is missing before anything runs, not halfway through.
    missing = [m for m in ("jinja2", "altair", "vl_convert", "pagefind") if not find_spec(m)]
    if missing:
        fail(f"the site needs {', '.join(missing)}: pip install 'rulesdiff[site]'")
    from comparator.site.build import SiteError, build_site, destination, staged
    from comparator.site.gather import DamagedStore
    from comparator.site.search import SearchError

    try:  # where the site goes, before anything runs or is stored
        destination(out)
    except SiteError as err:
        fail(str(err))
    eras = era_ids(eras_named(era))
    paths = expand_paths(files or [scenarios_dir()])
    new_db = _new_database(db)
    engine = None
    try:
        try:
            engine = open_store(db)
        except OSError as err:  # a path the system refuses (a name too long)
            fail(f"{_db_name(db)}: can't open the database: {err.strerror or err}")
        # The steps on a bar, for whoever watches; erased before a failure's one line.
        with Bar(bars_shown(as_json)) as bar, staged(out) as folder:
            built = writing(lambda: build_site(folder, engine, paths, eras, explore_too,
                                                jobs or os.cpu_count() or 1, _steps(bar, out),
                                                out))
    except BaseException as exc:
        if new_db is not None:  # a refused site leaves no store it made
            if engine is not None:
                engine.dispose()
            for made in (new_db, *(new_db.with_name(new_db.name + s)
                                   for s in ("-wal", "-shm", "-journal"))):
                made.unlink(missing_ok=True)
        if isinstance(exc, ScenarioError):
            fail(str(exc.problems[0]))
        if isinstance(exc, (SiteError, SearchError)):
            fail(str(exc))
        if isinstance(exc, DamagedStore):
            fail(f"{_db_name(db)}: can't read the stored data (ValueError: {exc}); the "
                 f"database is damaged or was not written by this rulesdiff")
        if isinstance(exc, StoreError):
            fail(f"{_db_name(db)}: {exc}")
        if isinstance(exc, OSError):
            fail(f"{out}: can't write the site: {exc.strerror or exc}")
        raise
    if as_json:
        typer.echo(json.dumps({"out": str(out), "pages": built.pages,
                               "scenarios": built.scenarios, "explored": built.explored},
                              indent=2))
        return
    echo_lines(_("wrote {pages} pages into {out} ({scenarios} scenarios, {explored} "
                 "explored): open {index}").format(
        pages=built.pages, out=out, scenarios=built.scenarios, explored=built.explored,
        index=out / "index.html"))


def _steps(bar: Bar, out: Path) -> Say:
    """The build's steps on `bar`: a row for the whole build, with its time, and one for
    the step under way, with its count, time left and last item."""
    bar.task(_("writing the site into {out}").format(out=out))
    now: dict[str, Any] = {}

    def say(what: str, done: int = 0, total: int | None = None, item: str = "") -> None:
        if now.get("what") != what:
            if "row" in now:
                bar.remove(now["row"])
            now.update(what=what, row=bar.task(f"  {what}", total=total))
        bar.update(now["row"], completed=done, item=item)

    return say


def _db_name(db: str | None) -> str:
    """The store as the other commands name it in a message: its file's name."""
    from comparator.store.database import database_url

    return database_url(db).rsplit("/", 1)[-1]


def _new_database(db: str | None) -> Path | None:
    """The SQLite file the store would be made in, where there is none yet (a refused
    site removes it); None for one that exists, or a server's."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import ArgumentError

    from comparator.store.database import database_url

    try:
        url = make_url(database_url(db))
        if not url.drivername.startswith("sqlite") or not url.database:
            return None
        path = Path(url.database)
        return None if path.exists() or path.is_symlink() else path
    except (ArgumentError, ValueError, OSError):
        return None  # opening it says what is wrong
