"""`rulesdiff site OUT/`: the static website."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
import typer.core

from comparator.cli.app import app
from comparator.cli.lookup import eras_named, expand_paths
from comparator.cli.options import (
    EXITS,
    DbOption,
    JobsOption,
    SummaryJsonFlag,
    era_option,
)
from comparator.cli.output import echo_lines, fail, open_store, writing


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
) -> None:
    """Write a static website of the eras, the rule changes and the scenarios: a timeline,
    a page per change, per scenario (pictures of the board before and after combat in each
    era, the events with their rules) and per era, indexes by mechanic and by rule, the
    dataset's statistics and a search. It works opened from disk or from any static host;
    the same input gives the same bytes. Runs what the store lacks, and stores it."""
    import os
    from importlib.util import find_spec

    from comparator.compare.running import era_ids
    from comparator.files.locations import scenarios_dir
    from comparator.files.problems import ScenarioError

    # The site's tools are an extra, imported as each part of the build needs them: say
    # which is missing before anything runs, not halfway through.
    missing = [m for m in ("jinja2", "altair", "vl_convert", "pagefind") if not find_spec(m)]
    if missing:
        fail(f"the site needs {', '.join(missing)}: pip install 'rulesdiff[site]'")
    from comparator.site.build import build_site
    from comparator.site.search import SearchError
    if out.exists() and not out.is_dir():
        fail(f"{out}: not a folder")
    eras = era_ids(eras_named(era))
    paths = expand_paths(files or [scenarios_dir()])
    engine = open_store(db)
    say = (lambda what: None) if as_json else (lambda what: echo_lines(what, err=True))
    try:
        built = writing(lambda: build_site(out, engine, paths, eras, explore_too,
                                            jobs or os.cpu_count() or 1, say))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    except SearchError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{out}: can't write the site: {err.strerror or err}")
    if as_json:
        typer.echo(json.dumps({"out": str(out), "pages": built.pages,
                               "scenarios": built.scenarios, "explored": built.explored},
                              indent=2))
        return
    echo_lines(f"wrote {built.pages} pages into {out} ({built.scenarios} scenarios, "
          f"{built.explored} explored): open {out / 'index.html'}")
