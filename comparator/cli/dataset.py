"""`rulesdiff dataset build | generate | check | export`: the regression dataset."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from comparator.cli.lookup import expand_paths
from comparator.cli.options import (
    EXITS,
    DbOption,
    JobsOption,
    LangOption,
    SummaryJsonFlag,
    command_group,
    json_flag,
)
from comparator.cli.output import (
    echo_lines,
    fail,
    open_store,
    reading,
    speak,
)
from comparator.cli.progress import Bar, bars_shown, searching

dataset_app = command_group("The regression dataset: build, check, export.")


@dataset_app.command("build", epilog=EXITS["dataset_build"])
def dataset_build(
    dirs: Annotated[list[Path] | None, typer.Argument(
        help="folders or files of scenarios (default: the shipped data/scenarios)",
        metavar="DIR...")] = None,
    db: DbOption = None,
    as_json: SummaryJsonFlag = False,
    explore_too: Annotated[bool, typer.Option(
        "--explore", help="also explore every scenario (default options) and store that")]
    = False,
    limit: Annotated[int, typer.Option(
        "--limit", help="with --explore: a scenario whose search has more lines of play "
        "than this is said and not explored (default 1,000,000)", metavar="N", min=1,
        max=10**12)] = 1_000_000,
    jobs: JobsOption = None,
    batch: Annotated[int, typer.Option(
        "--batch", help="scenarios stored per transaction", metavar="N", min=1,
        max=100_000)] = 500,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="run on this Dask scheduler's workers (the `cluster` extra); "
        "they write to --db, a shared PostgreSQL database", metavar="ADDRESS")] = None,
    lang: LangOption = None,
) -> None:
    """Run and store every scenario in every era, then summarise. Results are stored batch
    by batch (memory stays flat; a killed build keeps whole batches, and a rerun adds the
    rest), on all cores unless --jobs says otherwise."""
    import os

    from comparator.dataset.build import run_build
    from comparator.dataset.cluster import ClusterError
    from comparator.dataset.runs import DatasetError
    from comparator.explore.files import ExploreError
    from comparator.files.locations import scenarios_dir
    from comparator.files.problems import ScenarioError
    from comparator.text.language import _
    from comparator.text.messages import message, problem_line

    speak(lang)
    if batch < 1 or (jobs is not None and jobs < 1):
        fail(_("--batch and --jobs must be at least 1"))
    if scheduler and explore_too:
        fail(_("--explore runs on this machine only: build on the cluster first, then run "
               "`dataset build --explore` here"))
    from sqlalchemy.exc import SQLAlchemyError

    from comparator.store.schema import StoreError

    paths = expand_paths(dirs or [scenarios_dir()])
    # A new database file is made only once every file has passed its checks: a refused
    # build leaves none behind.
    engine = open_store(db, later=True)
    if scheduler and engine.dialect.name == "sqlite":
        fail(_("a cluster's workers write to the database themselves: give them a shared "
               "PostgreSQL database (--db postgresql+psycopg://USER@HOST/NAME)"))
    try:
        with Bar(bars_shown(as_json)) as bar:
            # A cluster's workers check their own files: no row waits for those here.
            checks = None if scheduler else bar.task(_("checking the scenario files"),
                                                     total=len(paths))
            runs = bar.task(_("running and storing"), total=len(paths))
            # Each stored batch is explored next: a row of its own (short of its total by
            # the files that every era refuses as they expect, which are not explored).
            explores = bar.task(_("exploring"), total=len(paths)) if explore_too else None
            built = run_build(engine, paths, dirs or [], jobs or os.cpu_count() or 1, batch,
                              scheduler, explore_too, lambda n: bar.advance(runs, n),
                              None if checks is None else lambda n: bar.advance(checks, n),
                              searching(bar, None if explores is None else
                                        lambda: bar.advance(explores)), limit)
    except ScenarioError as err:
        fail(problem_line(err.problems[0]))
    except ExploreError as err:
        fail(err.said())
    except (ClusterError, DatasetError, StoreError) as err:
        fail(message(str(err)))
    except SQLAlchemyError as exc:  # a read-only or full database: its batch rolled back
        from comparator.dataset.runs import write_failed

        fail(write_failed(exc))
    if as_json:
        typer.echo(json.dumps(built.document(), indent=2))
        return
    total = built.summary
    before = (_(" ({new} new, {before} stored before by this engine version)").format(
        new=total.new, before=total.stored_before) if total.stored_before else "")
    echo_lines(_("{scenarios} scenarios{before}, {runs} runs stored; {diverging} diverge"
                 ).format(scenarios=total.scenarios, before=before, runs=total.runs,
                          diverging=total.diverging))
    for era, n in total.refused.items():
        echo_lines(_("  {era} can't run {n} of them (they use what its rules did not have)"
                     ).format(era=era, n=n))
    if built.explored is not None:
        echo_lines(_("{scenarios} scenarios explored and stored; {diverging} diverge in what "
                     "players can make happen").format(
            scenarios=built.explored["scenarios"], diverging=built.explored["diverging"]))
        too_large = built.explored["too_large"]
        if too_large:
            from comparator.text.terminal import clean

            echo_lines(_("  {n} not explored: more lines of play than --limit allows").format(
                n=len(too_large)))
            for found in too_large:
                echo_lines(f"    {clean(message(found['refused']))}")
    for (a, b), n in built.pairs():  # in the order of history, as the eras are listed
        echo_lines(_("  {era} vs {other}: {n} diverging scenario(s)").format(era=a, other=b,
                                                                          n=n))


@dataset_app.command("generate", epilog=EXITS["dataset_generate"])
def dataset_generate(
    out: Annotated[Path, typer.Argument(help="the folder to write into", metavar="DIR")],
    seed: Annotated[int, typer.Option("--seed", help="the random seed", metavar="N", min=0,
                                      max=2**63 - 1)] = 0,
    count: Annotated[int, typer.Option("--count", help="how many scenarios", metavar="N",
                                       min=1, max=100_000_000)] = 1000,
    jobs: JobsOption = None,
    multiplayer: Annotated[float, typer.Option(
        "--multiplayer", help="the share of boards drawn as multiplayer games "
        "(Free-for-All of 3-4 players, Two-Headed Giant; docs/multiplayer.md)",
        metavar="SHARE", min=0.0, max=1.0)] = 0.0,
    as_json: SummaryJsonFlag = False,
    lang: LangOption = None,
) -> None:
    """Write COUNT reproducible random combats of SEED into DIR (1,000 per sub-folder,
    with a manifest of the generator's parameters), each one's blocks legal in every era
    (an era still refuses a board using what its rules lacked: fifth, most of them): then
    `rulesdiff dataset build DIR`. The same seed gives the same files; running it again
    on the folder resumes it (or extends it to a larger COUNT)."""
    import os

    from comparator.dataset.generate import generate_all
    from comparator.dataset.runs import DatasetError, generation_count
    from comparator.files.file_sets import MANIFEST
    from comparator.games.mtg.generate import GENERATOR_VERSION, Parameters
    from comparator.text.language import _
    from comparator.text.messages import message

    speak(lang)
    if count < 1 or (jobs is not None and jobs < 1):
        fail(_("--count and --jobs must be at least 1"))
    try:
        count = generation_count(out, seed, count, GENERATOR_VERSION, multiplayer)
    except DatasetError as err:
        fail(message(str(err)))
    try:
        with Bar(bars_shown(as_json)) as bar:
            task = bar.task(_("generating scenarios in {folder}").format(folder=out),
                            total=count)
            generate_all(out, seed, count, jobs or os.cpu_count() or 1,
                         lambda n: bar.advance(task, n),
                         Parameters(multiplayer_share=multiplayer))
    except OSError as exc:  # a read-only folder, a full disk: every written file is whole
        fail(_("{file}: can't write: {why}; the files written are whole, and generating "
               "again into {folder} resumes").format(file=exc.filename or out,
                                                     why=exc.strerror or exc, folder=out))
    if as_json:
        typer.echo(json.dumps({"folder": str(out), "seed": seed, "count": count,
                               "generator": GENERATOR_VERSION,
                               "manifest": str(out / MANIFEST)}, indent=2))
        return
    echo_lines(_("{count} scenarios of seed {seed} in {folder} (generator {generator}); "
                 "next: rulesdiff dataset build {folder}").format(
        count=count, seed=seed, folder=out, generator=GENERATOR_VERSION))


@dataset_app.command("check", epilog=EXITS["dataset_check"])
def dataset_check(
    db: DbOption = None,
    as_json: Annotated[bool, json_flag("print the changes as JSON")] = False,
    lang: LangOption = None,
) -> None:
    """Re-run every stored scenario and compare with the stored outcomes (exit 1 if any
    changed): the regression check."""
    from comparator.dataset.check import check
    from comparator.text.language import _

    speak(lang)
    engine = open_store(db, create=False)
    checked, changes = reading(db, lambda: check(engine))
    if as_json:
        typer.echo(json.dumps({"checked": checked, "changes": [
            {"scenario": c.scenario, "era": c.era, "path": c.path, "stored": c.stored,
             "now": c.now} for c in changes]}, indent=2))
        raise typer.Exit(1 if changes else 0)
    from comparator.text.terminal import clean

    for c in changes:  # a stored key may hold anything: escaped, as all that is said
        typer.echo(clean(_("{scenario}: {era}: {path}: stored {stored}, now {now}").format(
            scenario=c.scenario, era=c.era, path=c.path, stored=json.dumps(c.stored),
            now=json.dumps(c.now))))
    if changes:
        typer.echo(_("{changes} change(s) in {checked} stored run(s)").format(
            changes=len(changes), checked=checked), err=True)
        raise typer.Exit(1)
    echo_lines(_("ok: {checked} stored run(s) unchanged").format(checked=checked))


@dataset_app.command("export", epilog=EXITS["dataset_export"])
def dataset_export(
    fmt: Annotated[str, typer.Option("--format", help="jsonl, csv or parquet",
                                     metavar="FORMAT")] = "jsonl",
    out: Annotated[Path | None, typer.Option(
        "--out", help="write here, not stdout (parquet: a folder, required)",
        metavar="PATH")] = None,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """One record per scenario × era (with its outcome), then the divergences; or, as
    Parquet, one folder of part files per table (scenarios, runs, divergences). Streamed:
    memory stays flat whatever the size of the dataset."""
    from comparator.dataset.export import export_lines
    from comparator.text.language import _
    from comparator.text.messages import message

    speak(lang)
    if fmt not in ("jsonl", "csv", "parquet"):
        fail(_("--format: {value} is not jsonl, csv or parquet").format(value=repr(fmt)))
    if fmt == "parquet" and out is None:
        fail(_("--format parquet writes three tables: name their folder with --out"))
    engine = open_store(db, create=False)
    if fmt == "parquet":
        assert out is not None
        from comparator.dataset.parquet import ParquetMissing, write_parquet

        if _exists(out) and not out.is_dir():
            fail(_("{path}: not a folder (--format parquet writes a folder of files)").format(
                path=out))
        try:
            counts = reading(db, lambda: write_parquet(engine, out))
        except ParquetMissing as exc:
            fail(message(str(exc)))
        except OSError as exc:
            fail(_("{path}: can't write the export: {why}").format(path=out,
                                                                   why=exc.strerror or exc))
        typer.echo(_said(_("wrote {path}: {tables}").format(path=out, tables=_(", ").join(
            _("{name}.parquet ({n} rows)").format(name=name, n=n)
            for name, n in counts.items()))), err=True)
        return
    if out is None:
        lines = export_lines(engine, fmt)
        if sys.stdout.isatty():  # what a terminal shows never holds a control raw
            lines = map(_for_terminal, lines)
        try:
            reading(db, lambda: _write_lines(sys.stdout, lines))
            sys.stdout.flush()
        except BrokenPipeError:
            raise  # a reader that stopped reading (`| head`): click ends quietly
        except OSError as exc:  # a full disk behind a redirection
            fail(_("can't write the export to standard output: {why}").format(
                why=exc.strerror or exc))
        return
    _export_to_file(out, lambda f: reading(db, lambda: _write_lines(
        f, export_lines(engine, fmt))))
    typer.echo(_said(_("wrote {path}").format(path=out)), err=True)


def _exists(out: Path) -> bool:
    """Whether `out` exists; a path the system refuses (a name too long, a file where a
    folder should be) is one line, exit 2, before anything is read or written."""
    try:
        out.stat()
    except FileNotFoundError:
        return False
    except OSError as exc:
        from comparator.text.language import _

        fail(_("{path}: can't write the export: {why}").format(path=out,
                                                               why=exc.strerror or exc))
    return True


def _said(text: str) -> str:
    """A line naming a path the user gave: one line, escaped (a name may hold anything)."""
    from comparator.text.terminal import clean

    return clean(text)


def _for_terminal(line: str) -> str:
    """A line of an export as a terminal is shown it: its text escaped (a stored name may
    hold an escape sequence), its end as written (CSV ends its lines with CRLF)."""
    from comparator.text.terminal import clean

    text = line.rstrip("\r\n")
    return clean(text) + line[len(text):]


def _write_lines(f: Any, lines: Any) -> None:
    for line in lines:
        f.write(line)


def _export_to_file(out: Path, write: Callable[[Any], None]) -> None:
    """Write an export to `out` whole or not at all: a regular file is written beside its
    final name and renamed when complete (a failed export leaves the old file, or none)."""
    import os

    direct = _exists(out) and not out.is_file()  # a device such as /dev/full, or a pipe
    part = out if direct else out.with_name(f".{out.name}.part")
    try:
        with open(part, "w", encoding="utf-8", newline="") as f:
            write(f)
        if not direct:
            os.replace(part, out)
    except OSError as exc:
        from comparator.text.language import _

        fail(_("{path}: can't write the export: {why}").format(path=out,
                                                               why=exc.strerror or exc))
    finally:
        if not direct:
            part.unlink(missing_ok=True)
