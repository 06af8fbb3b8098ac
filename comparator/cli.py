"""The `rulesdiff` command line. Heavy modules are imported inside the commands so that
`rulesdiff --help` starts fast."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from comparator.cli_common import _echo, _engine, _find_era, _reading, _writing, fail
from comparator.cli_options import (
    EXITS,
    DbOption,
    JobsOption,
    JsonFlag,
    NoStoreFlag,
    QuoteFlag,
    ScenarioArg,
    ScenarioNamesArg,
    ScenarioPathsArg,
    SummaryJsonFlag,
    era_option,
    json_flag,
)

# Typer 0.29 prints an argument's Python type beside its name in help ("FILE <list[str]>");
# the metavar already says what to give, so show only that.
typer.core.TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]


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


_help_words_whole()


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


_usage_errors_in_one_line()

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


def _load(name: str):  # noqa: ANN202 - returns (Path, Scenario); typed lazily
    from comparator.data_files import find_scenario
    from comparator.loader import ScenarioError, load

    path = find_scenario(name)
    if path is None:
        fail(f"{name}: no such file, and no shipped scenario with that id")
    try:
        return path, load(path)
    except ScenarioError as err:
        first = err.problems[0]
        more = len(err.problems) - 1
        tail = f" (and {more} more; see `rulesdiff validate {name}`)" if more else ""
        fail(f"{first}{tail}")


def _era(name: str, game: str | None = None) -> str:
    """An era by id, alias, or date (the era of `game` in force that day)."""
    from versions import find_era

    try:
        return find_era(name, game).id
    except KeyError as err:
        fail(str(err.args[0]))


def _eras(names: list[str] | None) -> list[str] | None:
    """Eras by id, alias or date; a date names each game's era in force that day."""
    import re

    from versions import eras_on

    if not names:
        return None
    out: list[str] = []
    for name in names:
        if re.fullmatch(r"\d{4}-\d\d-\d\d", name.strip()):
            found = [e.id for e in eras_on(name.strip())]
            if not found:
                fail(f"--era {name}: no era of any game modelled on that day")
            out += [e for e in found if e not in out]
        elif (era := _era(name)) not in out:
            out.append(era)
    return out


@app.command(epilog=EXITS["run"])
def run(
    file: ScenarioArg,
    era: Annotated[str, era_option("era id or alias")],
    as_json: Annotated[bool, json_flag("print the outcome JSON")] = False,
    quote: QuoteFlag = False,
    db: DbOption = None,
) -> None:
    """One era's outcome of a scenario, with its event log and rule citations."""
    from comparator.games import game_of
    from comparator.loader import ScenarioError
    from comparator.narrate import narrate
    from comparator.running import RefusedError, run_era
    from versions import find_era

    path, scenario = _load(file)
    era_id = _era(era, scenario.game)
    try:
        outcome = run_era(scenario, era_id, str(path))
    except RefusedError as err:  # contract §2.1: the refusal on stdout, the error below
        if as_json:
            typer.echo(json.dumps({"schema": 1, "scenario": scenario.id, "era": era_id,
                                   "refused": err.refusal.record()}, indent=2))
        fail(str(err.problems[0]))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    quotes = _quotes(db) if quote else None
    if as_json:
        if quotes is not None:
            from comparator.quoting import cited

            outcome = {**outcome, "quotes": _reading(db, lambda: quotes.of(era_id,
                                                                           cited(outcome)))}
        typer.echo(json.dumps(outcome, indent=2))
        _quote_footer(quotes, err=True)
    else:
        from comparator.terminal import clean, echo_width, wrapped

        width = echo_width()
        for line in clean(narrate(outcome, scenario.title, find_era(era_id).name,
                                  game_of(scenario))).split("\n"):
            indent = line[:len(line) - len(line.lstrip(" "))]
            typer.echo("\n".join(wrapped(line.strip(), width, indent, "    ")))
            for said in _reading(db, lambda line=line: quotes.after(era_id, line)) if quotes \
                    else ():
                typer.echo("\n".join(wrapped(clean(said), width, indent + "    ",
                                              indent + "    ")))
        _quote_footer(quotes)
        _say_unmodelled(scenario)


@app.command(epilog=EXITS["new"])
def new(
    name: Annotated[str, typer.Argument(help="the scenario's name: NAME.yaml is written",
                                        metavar="NAME")],
) -> None:
    """Write a commented scenario template, NAME.yaml, that validates and runs as it is:
    edit it into your own combat."""
    from comparator.scaffold import ScaffoldError, new_scenario

    try:
        path = new_scenario(name)
    except ScaffoldError as err:
        fail(str(err))
    _echo(f"wrote {path}: edit it, then `rulesdiff validate {path}` and "
               f"`rulesdiff diff {path}`")


@app.command(epilog=EXITS["validate"])
def validate(
    files: ScenarioPathsArg,
    as_json: Annotated[bool, json_flag("print JSON: the files checked and every problem")]
    = False,
) -> None:
    """Check scenario files and print every problem with its place, and every warning (a
    legal file that surely does not say what its author meant).

    Exit 0 when every file is valid (warnings or not), 2 on any problem."""
    from comparator.terminal import clean
    from comparator.validation import check_files

    paths = _expand(files)
    checked = check_files(paths)
    problems, warned = checked.problems, checked.warnings
    if as_json:
        typer.echo(json.dumps({"files": len(paths), "ok": not problems, "problems": [
            {"file": p.file, "line": p.line, "field": p.path, "message": p.message}
            for p in problems], "warnings": [
            {"file": p.file, "line": p.line, "field": p.path, "message": p.message}
            for p in warned]}, indent=2))
        raise typer.Exit(2 if problems else 0)
    for p in [*problems, *warned]:
        typer.echo(clean(str(p)), err=True)
    if problems:
        typer.echo(f"{len(problems)} problem(s) in {len(paths)} file(s)", err=True)
        raise typer.Exit(2)
    _echo(f"ok: {len(paths)} file(s)")


@app.command(epilog=EXITS["verify"])
def verify(
    files: ScenarioPathsArg,
    as_json: Annotated[bool, json_flag("print JSON: what was checked and every mismatch")]
    = False,
) -> None:
    """Run each file's `expect:` and report every mismatch (exit 1 on any)."""
    from comparator.loader import ScenarioError
    from comparator.terminal import clean
    from comparator.verify import verify_files

    paths = _expand(files)
    try:
        found = verify_files(paths)
    except ScenarioError as err:
        fail(str(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(found.document(), indent=2))
        raise typer.Exit(0 if found.ok else 1)
    for m in found.mismatches:
        typer.echo(clean(f"{m['file']}: {m['era']}: {m['field']}: expected "
                         f"{json.dumps(m['expected'])}, got {json.dumps(m['got'])}"))
    missing = "".join(
        f"; {era} not checked in {n} file(s) (no expect: for it)"
        for era, n in found.unchecked.items()) + "".join(
        f"; {era} can't run {n} file(s) (they use what its rules lacked)"
        for era, n in found.refused.items())
    if not found.ok:
        _echo(f"{len(found.mismatches)} mismatch(es) in {found.files} file(s){missing}",
                   err=True)
        raise typer.Exit(1)
    _echo(f"ok: {found.files} file(s), {found.checked} era outcome(s) as "
               f"expected{missing}")


def _expand(files: list[Path]):  # noqa: ANN202 - a Files sequence, imported lazily
    from comparator.file_sets import expand

    try:
        return expand(files)
    except ValueError as exc:  # no scenario there, or a damaged manifest
        fail(str(exc))


@app.command(epilog=EXITS["eras"])
def eras(
    era: Annotated[str | None, typer.Argument(
        help="one era (id, alias or date): its whole record", metavar="[ERA]")] = None,
    as_json: JsonFlag = False,
) -> None:
    """The eras, oldest first, each with its dates and what it is; with ERA, that era's
    whole record: aliases, the rules text it cites, what changed, its sources."""
    from rich.console import Console

    from comparator.terminal import say
    from versions import ALL_ERAS

    data = [e.metadata() for e in ALL_ERAS] if era is None else [
        find.metadata() for find in [_find_era(era)]]
    if as_json:
        typer.echo(json.dumps(data if era is None else data[0], indent=2))
        return
    console = Console(highlight=False)
    for i, e in enumerate(data):
        if era is not None:
            _era_record(console, e)
            continue
        if i and e["game"] != data[i - 1]["game"]:
            console.print()
        say(console, f"{e['id']} ({e['game']}, {e['began']} to {e['ended'] or 'today'}): "
                     f"{e['name']}", hang="  ")
        say(console, e["summary"], indent="  ", hang="")
    if era is None:
        console.print()
        say(console, "`rulesdiff eras ERA` gives one era's aliases, the rules text it cites, "
                     "what changed and its sources; --json gives them all.", hang="")


def _era_record(console: Any, e: dict[str, Any]) -> None:
    from comparator.terminal import say

    say(console, f"{e['id']} — {e['name']}", hang="  ")
    say(console, f"game: {e['game']}; in force {e['began']} to {e['ended'] or 'today'}",
        indent="  ")
    if e["aliases"]:
        say(console, f"aliases: {', '.join(e['aliases'])}", indent="  ")
    say(console, f"rules cited: {e['cr']}", indent="  ")
    say(console, e["summary"], indent="  ", hang="")
    for title, items in (("what changed", e["changes"]), ("sources", e["sources"])):
        console.print(f"  {title}:", highlight=False)
        for item in items:
            say(console, f"- {item}", indent="    ", hang="  ")


@app.command(epilog=EXITS["diff"])
def diff(
    files: ScenarioNamesArg,
    era: Annotated[list[str] | None,
                   era_option("compare only these eras (repeat the option)")] = None,
    as_json: Annotated[bool, json_flag("print the diff JSON")] = False,
    db: DbOption = None,
    no_store: NoStoreFlag = False,
    quote: QuoteFlag = False,
) -> None:
    """Run each scenario in every era (or those named) and show where they diverge.

    Exit 0 when all eras agree on every file, 1 when any diverge, 2 on bad input."""
    from comparator.diffing import diff_document
    from comparator.loader import ScenarioError
    from comparator.running import era_ids, run_files

    eras = _eras(era)
    if eras is not None and len(set(eras)) < 2:
        fail("--era: name at least two eras to compare (or none for all); "
             "`rulesdiff run FILE --era ERA` shows one")
    paths = _expand([Path(f) for f in files])
    try:
        results = run_files(paths, era_ids(eras))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    # The database is opened once there is something to store: a refused file leaves none
    # behind, not even an empty one.
    if not no_store:
        from comparator.dataset import save

        engine = _engine(db)
        _writing(lambda: save(engine, results))
    diverged = False
    quotes = _quotes(db) if quote else None
    if as_json:
        for r in results:
            doc = diff_document(r.scenario.id, r.outcomes)
            diverged |= doc["diverges"]
            if quotes is not None:
                from comparator.quoting import cited

                doc["quotes"] = _reading(db, lambda r=r: {
                    e: quotes.of(e, cited(o)) for e, o in r.outcomes.items()})
            typer.echo(json.dumps(doc) if len(results) > 1 else json.dumps(doc, indent=2))
            _say_refused(r.file, r.refused)
        _quote_footer(quotes, err=True)
    else:
        from rich.console import Console

        from comparator.report import render

        console = Console()
        for i, r in enumerate(results):
            if i:
                console.print()
            doc = diff_document(r.scenario.id, r.outcomes)
            diverged |= doc["diverges"]
            _quoting(db, quotes, lambda doc=doc, r=r: render(doc, r.scenario, console,
                                                             r.refused, quotes))
            _say_unmodelled(r.scenario)
        _quote_footer(quotes)
    raise typer.Exit(1 if diverged else 0)


@app.command(epilog=EXITS["explore"])
def explore(
    files: ScenarioNamesArg,
    era: Annotated[list[str] | None,
                   era_option("explore only these eras (repeat the option)")] = None,
    blocks: Annotated[str, typer.Option(
        "--blocks", help="fixed: the blocks as written; all: every legal declaration",
        metavar="fixed|all")]
    = "fixed",
    objective: Annotated[str, typer.Option(
        "--objective", help="material, kills or life: what best play optimises",
        metavar="OBJECTIVE")]
    = "material",
    fields: Annotated[str, typer.Option(
        "--fields", help="end-of-turn: what survives the turn; all: every outcome field",
        metavar="end-of-turn|all")]
    = "end-of-turn",
    limit: Annotated[int, typer.Option(
        "--limit", help="refuse a search of more lines of play than this",
        metavar="N", min=1, max=10**12)] = 1_000_000,
    as_json: Annotated[bool, json_flag("print the explore JSON")] = False,
    show_all: Annotated[bool, typer.Option(
        "--all", help="show every outcome row, and the line to every outcome only one era "
                      "reaches")] = False,
    db: DbOption = None,
    no_store: NoStoreFlag = False,
    quote: QuoteFlag = False,
    jobs: JobsOption = None,
) -> None:
    """Every line of play in each era: the outcomes each player can make happen, and what
    happens with best play. The eras are searched at once, in --jobs processes.

    Exit 0 when every era reaches the same outcomes with the same value, 1 when they
    differ, 2 on bad input or a search larger than --limit."""
    import os

    from comparator.explore import BLOCKS, FIELDS, OBJECTIVES
    from comparator.exploring import Explored, ExploreError, explore_files, nothing_explored
    from comparator.running import era_ids

    for name, value, allowed in (("--blocks", blocks, BLOCKS), ("--objective", objective,
                                                                 OBJECTIVES),
                                 ("--fields", fields, FIELDS)):
        if value not in allowed:
            fail(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    if limit < 1:
        fail("--limit must be at least 1")
    eras = era_ids(_eras(era))
    paths = _expand([Path(f) for f in files])
    loaded = ((path, _load(str(path))[1]) for path in paths)  # each as its turn comes
    done: list[Explored] = []
    try:
        for found in explore_files(loaded, eras, objective, fields, blocks, limit,
                                   _search_bar, jobs or os.cpu_count() or 1):
            _say_refused(found.path, found.refused)
            done.append(found)
    except ExploreError as err:
        fail(str(err))
    if (why := nothing_explored(done)) is not None:
        fail(why)
    if not no_store:  # opened once there is something to store, as in `diff`
        from comparator.dataset import save_explorations

        engine = _engine(db)
        _writing(lambda: save_explorations(engine, [(e.scenario, e.doc) for e in done]))
    diverged = any(e.doc["diverges"] for e in done)
    quotes = _quotes(db) if quote else None
    if as_json:
        for e in done:
            if quotes is not None:
                from comparator.explore_report import cited_in

                e.doc["quotes"] = _reading(db, lambda e=e: {
                    era: quotes.of(era, cited_in(res)) for era, res in e.doc["eras"].items()})
            typer.echo(json.dumps(e.doc) if len(done) > 1 else json.dumps(e.doc, indent=2))
        _quote_footer(quotes, err=True)
    else:
        from rich.console import Console

        from comparator.explore_report import render

        console = Console()
        for i, e in enumerate(done):
            if i:
                console.print()
            _quoting(db, quotes, lambda e=e: render(e.doc, e.scenario, console, show_all,
                                                    quotes))
            _say_unmodelled(e.scenario)
        _quote_footer(quotes)
    raise typer.Exit(1 if diverged else 0)


def _quotes(db: str | None):  # noqa: ANN202 - a Quotes, imported lazily
    from comparator.quoting import Quotes

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


def _say_refused(file: object, refused: dict[str, str]) -> None:
    """An era that can't run a scenario, on stderr: the JSON keeps the contract's keys."""
    from comparator.terminal import clean

    for era, why in refused.items():  # a note, not an error: wrapped as the report is
        _echo(clean(f"rulesdiff: {era} can't run {file}: {why}"), err=True)


def _say_unmodelled(scenario: Any) -> None:
    """Under a human report: the text of the cards the scenario uses that rulesdiff does
    not model (the JSON documents keep the contract's keys)."""
    from comparator.games import game_of
    from comparator.terminal import clean, echo_width, wrapped

    width = echo_width()
    for line in game_of(scenario).not_modelled(scenario):
        typer.echo("\n".join(wrapped(clean(f"note: {line}"), width, "", "      ")))


@contextmanager
def _search_bar(scenario_id: str) -> Iterator[Callable[[str, int], None]]:
    """A progress bar on stderr for one scenario's search, gone when the search ends."""
    from rich.console import Console
    from rich.progress import Progress

    bar: dict[str, Any] = {}

    def progress(era: str, lines: int) -> None:
        # A bar only for searches that take a while: it appears after the first 5,000 lines.
        if lines < 5000:
            return
        if "p" not in bar:
            bar["p"] = Progress(console=Console(stderr=True), transient=True)
            bar["p"].start()
        p = bar["p"]
        if era not in bar:
            bar[era] = p.add_task(f"{scenario_id}: exploring {era}", total=None)
        p.update(bar[era], completed=lines, description=f"{scenario_id}: {era}, {lines} lines")

    try:
        yield progress
    finally:
        if "p" in bar:
            bar["p"].stop()


cards_app = typer.Typer(help="Card libraries: import one from MTGJSON.",
                        no_args_is_help=True, epilog=EXITS["group"])
app.add_typer(cards_app, name="cards")


@cards_app.command("import", epilog=EXITS["cards_import"])
def cards_import(
    file: Annotated[Path, typer.Argument(help="an MTGJSON AtomicCards.json or "
                                              "AllPrintings.json you have", metavar="FILE")],
    out: Annotated[Path, typer.Option("--out", "-o", help="the card library to write",
                                      metavar="PATH")] = Path("cards.yaml"),
    as_json: SummaryJsonFlag = False,
) -> None:
    """Write a card library of every creature, planeswalker and battle in an MTGJSON file
    (never downloaded); use it with --cards FILE or RULESDIFF_CARDS."""
    import yaml
    from rich.console import Console
    from rich.progress import Progress

    from comparator.games.mtg.mtgjson import MtgjsonError, read

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when the wheel has it
    tmp = out.with_name(f".{out.name}.part")
    try:
        with tmp.open("w", encoding="utf-8") as f, \
                Progress(console=Console(stderr=True), transient=True) as bar:
            f.write("cards:\n")
            task = bar.add_task(f"reading {file.name}", total=None)
            imported = read(
                file, progress=lambda n: bar.update(task, completed=n,
                                                    description=f"{n} cards read"),
                write=lambda entry: f.write(yaml.dump(
                    [entry], Dumper=dumper, sort_keys=False, allow_unicode=True, width=100)))
        tmp.replace(out)  # the library appears whole, or not at all
    except MtgjsonError as err:
        tmp.unlink(missing_ok=True)
        fail(str(err))
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        fail(f"{out}: can't write the card library: {exc.strerror or exc}")
    for why in imported.skipped:  # one line each, for the first 50; the count says all
        _echo(f"skipped {why}", err=True)
    if imported.skipped_count > len(imported.skipped):
        _echo(f"... and {imported.skipped_count - len(imported.skipped)} more cards skipped",
              err=True)
    summary = {"file": str(file), "out": str(out), **imported.summary()}
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    _echo(f"wrote {out}: {summary['cards']} cards ({summary['creatures']} creatures, "
               f"{summary['planeswalkers']} planeswalkers, {summary['battles']} battles); "
               f"{summary['creatures_fully_modelled']} creatures "
               f"({summary['creatures_fully_modelled_share']:.1%}) fully modelled"
               + (f"; {summary['skipped']} skipped (of the wrong shape)"
                  if summary["skipped"] else ""))


from comparator.cli_rules import history, rules_app  # noqa: E402 - after the app

app.add_typer(rules_app, name="rules")
app.command("history", epilog=EXITS["history"])(history)


dataset_app = typer.Typer(help="The regression dataset: build, check, export.",
                          no_args_is_help=True, epilog=EXITS["group"])
app.add_typer(dataset_app, name="dataset")


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
    jobs: JobsOption = None,
    batch: Annotated[int, typer.Option(
        "--batch", help="scenarios stored per transaction", metavar="N", min=1,
        max=100_000)] = 500,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="run on this Dask scheduler's workers (the `cluster` extra); "
        "they write to --db, a shared PostgreSQL database", metavar="ADDRESS")] = None,
) -> None:
    """Run and store every scenario in every era, then summarise. Results are stored batch
    by batch (memory stays flat; a killed build keeps whole batches, and a rerun adds the
    rest), on all cores unless --jobs says otherwise."""
    import os

    from rich.progress import Progress

    from comparator.building import run_build
    from comparator.cluster import ClusterError
    from comparator.data_files import scenarios_dir
    from comparator.dataset import DatasetError
    from comparator.exploring import ExploreError
    from comparator.loader import ScenarioError

    if batch < 1 or (jobs is not None and jobs < 1):
        fail("--batch and --jobs must be at least 1")
    if scheduler and explore_too:
        fail("--explore runs on this machine only: build on the cluster first, then run "
             "`dataset build --explore` here")
    from sqlalchemy.exc import SQLAlchemyError

    paths = _expand(dirs or [scenarios_dir()])
    engine = _engine(db)
    if scheduler and engine.dialect.name == "sqlite":
        fail("a cluster's workers write to the database themselves: give them a shared "
             "PostgreSQL database (--db postgresql+psycopg://USER@HOST/NAME)")
    try:
        with Progress(transient=True) as progress:
            checks = progress.add_task("checking", total=len(paths))
            task = progress.add_task("running", total=len(paths))
            built = run_build(engine, paths, dirs or [], jobs or os.cpu_count() or 1, batch,
                              scheduler, explore_too, lambda n: progress.advance(task, n),
                              lambda n: progress.advance(checks, n), _search_bar)
    except ScenarioError as err:
        fail(str(err.problems[0]))
    except (ClusterError, DatasetError, ExploreError) as err:
        fail(str(err))
    except SQLAlchemyError as exc:  # a read-only or full database: its batch rolled back
        from comparator.dataset import write_failed

        fail(write_failed(exc))
    if as_json:
        typer.echo(json.dumps(built.document(), indent=2))
        return
    total = built.summary
    before = (f" ({total.new} new, {total.stored_before} stored before by this engine "
              f"version)" if total.stored_before else "")
    _echo(f"{total.scenarios} scenarios{before}, {total.runs} runs stored; "
          f"{total.diverging} diverge")
    for era, n in total.refused.items():
        _echo(f"  {era} can't run {n} of them (they use what its rules did not have)")
    if built.explored is not None:
        _echo(f"{built.explored['scenarios']} scenarios explored and stored; "
                   f"{built.explored['diverging']} diverge in what players can make happen")
    for (a, b), n in sorted(total.pairs.items()):
        _echo(f"  {a} vs {b}: {n} diverging scenario(s)")


@dataset_app.command("generate", epilog=EXITS["dataset_generate"])
def dataset_generate(
    out: Annotated[Path, typer.Argument(help="the folder to write into", metavar="DIR")],
    seed: Annotated[int, typer.Option("--seed", help="the random seed", metavar="N", min=0,
                                      max=2**63 - 1)] = 0,
    count: Annotated[int, typer.Option("--count", help="how many scenarios", metavar="N",
                                       min=1, max=100_000_000)] = 1000,
    jobs: JobsOption = None,
    as_json: SummaryJsonFlag = False,
) -> None:
    """Write COUNT reproducible random combats of SEED into DIR (1,000 per sub-folder,
    with a manifest of the generator's parameters), each one's blocks legal in every era
    (an era still refuses a board using what its rules lacked: fifth, most of them): then
    `rulesdiff dataset build DIR`. The same seed gives the same files; running it again
    on the folder resumes it (or extends it to a larger COUNT)."""
    import os

    from rich.progress import Progress

    from comparator.dataset import DatasetError, generation_count
    from comparator.file_sets import MANIFEST
    from comparator.games.mtg.generate import GENERATOR_VERSION, generate_all

    if count < 1 or (jobs is not None and jobs < 1):
        fail("--count and --jobs must be at least 1")
    try:
        count = generation_count(out, seed, count, GENERATOR_VERSION)
    except DatasetError as err:
        fail(str(err))
    try:
        with Progress(transient=True) as progress:
            task = progress.add_task("generating", total=count)
            generate_all(out, seed, count, jobs or os.cpu_count() or 1,
                         lambda n: progress.advance(task, n))
    except OSError as exc:  # a read-only folder, a full disk: every written file is whole
        fail(f"{exc.filename or out}: can't write: {exc.strerror or exc}; the files written "
             f"are whole, and generating again into {out} resumes")
    if as_json:
        typer.echo(json.dumps({"folder": str(out), "seed": seed, "count": count,
                               "generator": GENERATOR_VERSION,
                               "manifest": str(out / MANIFEST)}, indent=2))
        return
    _echo(f"{count} scenarios of seed {seed} in {out} (generator {GENERATOR_VERSION}); "
               f"next: rulesdiff dataset build {out}")


@dataset_app.command("check", epilog=EXITS["dataset_check"])
def dataset_check(
    db: DbOption = None,
    as_json: Annotated[bool, json_flag("print the changes as JSON")] = False,
) -> None:
    """Re-run every stored scenario and compare with the stored outcomes (exit 1 if any
    changed): the regression check."""
    from comparator.dataset import check

    engine = _engine(db, create=False)
    checked, changes = _reading(db, lambda: check(engine))
    if as_json:
        typer.echo(json.dumps({"checked": checked, "changes": [
            {"scenario": c.scenario, "era": c.era, "path": c.path, "stored": c.stored,
             "now": c.now} for c in changes]}, indent=2))
        raise typer.Exit(1 if changes else 0)
    for c in changes:
        typer.echo(f"{c.scenario}: {c.era}: {c.path}: stored {json.dumps(c.stored)}, "
                   f"now {json.dumps(c.now)}")
    if changes:
        typer.echo(f"{len(changes)} change(s) in {checked} stored run(s)", err=True)
        raise typer.Exit(1)
    _echo(f"ok: {checked} stored run(s) unchanged")


@dataset_app.command("export", epilog=EXITS["dataset_export"])
def dataset_export(
    fmt: Annotated[str, typer.Option("--format", help="jsonl, csv or parquet",
                                     metavar="FORMAT")] = "jsonl",
    out: Annotated[Path | None, typer.Option(
        "--out", help="write here, not stdout (parquet: a folder, required)",
        metavar="PATH")] = None,
    db: DbOption = None,
) -> None:
    """One record per scenario × era (with its outcome), then the divergences; or, as
    Parquet, one folder of part files per table (scenarios, runs, divergences). Streamed:
    memory stays flat whatever the size of the dataset."""
    from comparator.dataset import export_lines

    if fmt not in ("jsonl", "csv", "parquet"):
        fail(f"--format: {fmt!r} is not jsonl, csv or parquet")
    if fmt == "parquet" and out is None:
        fail("--format parquet writes three tables: name their folder with --out")
    engine = _engine(db, create=False)
    if fmt == "parquet":
        assert out is not None
        from comparator.parquet_export import ParquetMissing, write_parquet

        if out.exists() and not out.is_dir():
            fail(f"{out}: not a folder (--format parquet writes a folder of files)")
        try:
            counts = _reading(db, lambda: write_parquet(engine, out))
        except ParquetMissing as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"{out}: can't write the export: {exc.strerror or exc}")
        typer.echo(f"wrote {out}: " + ", ".join(f"{name}.parquet ({n} rows)"
                                                for name, n in counts.items()), err=True)
        return
    if out is None:
        try:
            _reading(db, lambda: _write_lines(sys.stdout, export_lines(engine, fmt)))
            sys.stdout.flush()
        except BrokenPipeError:
            raise  # a reader that stopped reading (`| head`): click ends quietly
        except OSError as exc:  # a full disk behind a redirection
            fail(f"can't write the export to standard output: {exc.strerror or exc}")
        return
    _export_to_file(out, lambda f: _reading(db, lambda: _write_lines(
        f, export_lines(engine, fmt))))
    typer.echo(f"wrote {out}", err=True)


def _write_lines(f: Any, lines: Any) -> None:
    for line in lines:
        f.write(line)


def _export_to_file(out: Path, write: Callable[[Any], None]) -> None:
    """Write an export to `out` whole or not at all: a regular file is written beside its
    final name and renamed when complete (a failed export leaves the old file, or none)."""
    import os

    direct = out.exists() and not out.is_file()  # a device such as /dev/full, or a pipe
    part = out if direct else out.with_name(f".{out.name}.part")
    try:
        with open(part, "w", encoding="utf-8", newline="") as f:
            write(f)
        if not direct:
            os.replace(part, out)
    except OSError as exc:
        fail(f"{out}: can't write the export: {exc.strerror or exc}")
    finally:
        if not direct:
            part.unlink(missing_ok=True)


@app.command(epilog=EXITS["show"])
def show(
    scenario_id: Annotated[str, typer.Argument(help="a stored scenario's id", metavar="ID")],
    as_json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """What the database holds for one scenario: its versions, runs, divergences and
    explorations."""
    from comparator.dataset import stored_scenario
    from comparator.terminal import clean, cut

    engine = _engine(db, create=False)
    found = _reading(db, lambda: stored_scenario(engine, scenario_id))
    if found is None:
        fail(f"{scenario_id}: no such scenario in the database")
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    _echo(f"{scenario_id}: {len(found['versions'])} stored version(s)")
    for v in found["versions"]:
        _echo(f"version {v['content_hash'][:12]} ({v['first_stored']}): "
                   f"{clean(cut(v['title']))}")
        for r in v["runs"]:
            _echo(f"  run {r['era']} engine {r['engine_version']} "
                       f"outcome {r['outcome_hash'][:12]} at {r['created']}")
        for d in v["divergences"]:
            typer.echo(f"  {d['path']}: {d['era_a']} {json.dumps(d['value_a'])} vs "
                       f"{d['era_b']} {json.dumps(d['value_b'])}")
        for x in v["explorations"]:
            value = x["value"]["score"] if x["value"] else "no legal line"
            _echo(f"  explored {x['era']} ({x['objective']}, blocks {x['blocks']}, "
                       f"fields {x['fields']}): {x['lines']} lines, {x['outcomes']} "
                       f"outcome(s), value {value}, at {x['created']}")


@app.command(epilog=EXITS["schema"])
def schema(
    game: Annotated[str | None, typer.Option(
        "--game", help="a game id, as `rulesdiff eras` lists them (default: Magic's, mtg)",
        metavar="GAME")] = None,
) -> None:
    """The JSON Schema of the scenario format, with a description for every field."""
    from comparator.schema import scenario_schema
    from versions import DEFAULT_GAME, GAMES

    game = game or DEFAULT_GAME
    if game not in GAMES:
        fail(f"--game: one of {', '.join(GAMES)}, not {game!r}")
    typer.echo(json.dumps(scenario_schema(game), indent=2))


@app.command(epilog=EXITS["blocks"])
def blocks(
    file: ScenarioArg,
    era: Annotated[str | None, era_option(
        "era whose rules are cited (default: foundations; with --can, every era)")] = None,
    can: Annotated[tuple[str, str] | None, typer.Option(
        "--can", help="can BLOCKER block ATTACKER? yes or no in each era, with the rule "
                      "that forbids it", metavar="BLOCKER ATTACKER")] = None,
    best: Annotated[bool, typer.Option(
        "--best", help="the blocks the defending player declares with best play, in each "
                       "era (explore with every legal declaration)")] = False,
    objective: Annotated[str, typer.Option(
        "--objective", help="with --best: what best play optimises (material, kills, life)",
        metavar="OBJECTIVE")] = "material",
    as_json: JsonFlag = False,
) -> None:
    """Every legal block declaration for the scenario's attacks, with the requirements
    each obeys; the maximal ones (509.1c) are marked (Magic scenarios). With --can, whether
    one creature can block one attacker, in each era, and the rule that forbids it. With
    --best, the declaration best play makes in each era."""
    from comparator.games.mtg.blocks import block_survey, can_block_answers
    from comparator.loader import ScenarioError

    path, scenario = _load(file)
    if best:
        _best_blocks(path, scenario, era, objective, as_json)
        return
    if can is not None:
        _each_era(path, scenario, era, "--can", as_json,
                  lambda eras: can_block_answers(scenario, eras, can[0], can[1], str(path)),
                  lambda a: f"yes, {can[0]} can block {can[1]}" if a["can"] else
                  f"no: {a['why']} ({a['rule']})")
        return
    try:
        doc, lines = block_survey(scenario, _era(era or "foundations", "mtg"), str(path))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        _echo("\n".join(lines), hang="      ")


def _best_blocks(path: Path, scenario: Any, era: str | None, objective: str,
                 as_json: bool) -> None:
    """`blocks --best`: each era's best-play declaration, in words or as JSON."""
    from comparator.explore import OBJECTIVES
    from comparator.games.mtg.blocks import best_blocks, blocks_said

    if objective not in OBJECTIVES:
        fail(f"--objective: {objective!r} is not one of {', '.join(OBJECTIVES)}")
    _each_era(path, scenario, era, "--best", as_json,
              lambda eras: best_blocks(scenario, eras, objective, str(path)),
              lambda a: f"{blocks_said(a['blocks'])} (score {a['score']}, {objective})")


def _each_era(path: Path, scenario: Any, era: str | None, option: str, as_json: bool,
              answer: Callable[[list[str]], dict[str, Any]],
              said: Callable[[dict[str, Any]], str]) -> None:
    """A `blocks` question asked of each Magic era (or the one named): the answers as
    JSON, or one line per era; an era that can't run the scenario says why."""
    from comparator.loader import ScenarioError
    from versions import eras_of

    if scenario.game != "mtg":
        fail(f"{path}: `blocks {option}` answers for Magic scenarios; this is a "
             f"{scenario.game} one")
    try:
        found = answer([_era(era, "mtg")] if era else list(eras_of("mtg")))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    for era_id, a in found["eras"].items():
        _echo(f"{era_id}: not run: {a['refused']}" if "refused" in a else
              f"{era_id}: {said(a)}")


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

    from comparator.data_files import scenarios_dir
    from comparator.loader import ScenarioError
    from comparator.running import era_ids

    # The site's tools are an extra, imported as each part of the build needs them: say
    # which is missing before anything runs, not halfway through.
    missing = [m for m in ("jinja2", "altair", "vl_convert", "pagefind") if not find_spec(m)]
    if missing:
        fail(f"the site needs {', '.join(missing)}: pip install 'rulesdiff[site]'")
    from comparator.site.build import build_site
    from comparator.site.search import SearchError
    if out.exists() and not out.is_dir():
        fail(f"{out}: not a folder")
    eras = era_ids(_eras(era))
    paths = _expand(files or [scenarios_dir()])
    engine = _engine(db)
    say = (lambda what: None) if as_json else (lambda what: _echo(what, err=True))
    try:
        built = _writing(lambda: build_site(out, engine, paths, eras, explore_too,
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
    _echo(f"wrote {built.pages} pages into {out} ({built.scenarios} scenarios, "
          f"{built.explored} explored): open {out / 'index.html'}")


@app.command(epilog=EXITS["catalog"])
def catalog(
    markdown: Annotated[bool, typer.Option("--markdown", help="print docs/catalog.md")]
    = False,
    as_json: JsonFlag = False,
) -> None:
    """Every shipped scenario: title, tags, sources, and where the eras diverge."""
    from comparator import catalog as cat
    from comparator.data_files import shipped_scenarios

    items = cat.entries(shipped_scenarios())
    if markdown and as_json:
        fail("--markdown and --json: choose one")
    if markdown:
        typer.echo(cat.markdown(items), nl=False)
    elif as_json:
        typer.echo(json.dumps(items, indent=2))
    else:
        for i in items:
            _echo(f"{i['id']}: {i['verdict']}")


@app.command("scenarios", epilog=EXITS["list_scenarios"])
def list_scenarios(as_json: JsonFlag = False) -> None:
    """The shipped scenarios: id, title and tags."""
    from comparator.shipped import scenario_rows
    from comparator.terminal import clean, cut

    rows = scenario_rows()
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        _echo(clean(f"{r['id']}: {cut(r['title'])}") + (f"  [{', '.join(r['tags'])}]"
                                                 if r["tags"] else ""))


def main() -> None:
    # Pydantic looks for plugins (observers of validation) in every installed package's
    # metadata when the first model is built: 50 ms of start-up where many packages are
    # installed, for plugins that would only watch rulesdiff's own scenario models. A value
    # the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception:  # a bug: neither 1 (a divergence) nor 2 (bad input), so no script
        import traceback  # that accepts a divergence mistakes a crash for one

        traceback.print_exc()
        sys.exit(70)
