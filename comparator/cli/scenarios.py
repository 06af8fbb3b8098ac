"""The commands about scenario files: `run`, `new`, `validate`, `verify`, `eras`, `diff`,
`show`, `schema`, `catalog`, `scenarios`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from comparator.cli.app import app
from comparator.cli.lookup import era_named, eras_named, expand_paths, load_named
from comparator.cli.options import (
    EXITS,
    DbOption,
    JsonFlag,
    LangOption,
    NoStoreFlag,
    QuoteFlag,
    ScenarioArg,
    ScenarioNamesArg,
    ScenarioPathsArg,
    era_option,
    json_flag,
)
from comparator.cli.output import (
    echo_lines,
    fail,
    find_era_class,
    open_store,
    reading,
    say_refused,
    say_unmodelled,
    speak,
    writing,
)
from comparator.cli.quotes import quote_footer, quotes_for, quoting


@app.command(epilog=EXITS["run"])
def run(
    file: ScenarioArg,
    era: Annotated[str, era_option("era id or alias")],
    as_json: Annotated[bool, json_flag("print the outcome JSON")] = False,
    quote: QuoteFlag = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """One era's outcome of a scenario, with its event log and rule citations."""
    from comparator.compare.running import RefusedError, run_era
    from comparator.files.problems import ScenarioError
    from comparator.games.registry import game_of
    from comparator.text.narrate import narrate
    from comparator.text.phrases import title_of
    from versions import find_era

    speak(lang)
    path, scenario = load_named(file)
    era_id = era_named(era, scenario.game)
    try:
        outcome = run_era(scenario, era_id, str(path))
    except RefusedError as err:  # contract §2.1: the refusal on stdout, the error below
        if as_json:
            typer.echo(json.dumps({"schema": 1, "scenario": scenario.id, "era": era_id,
                                   "refused": err.refusal.record()}, indent=2))
        fail(str(err.problems[0]))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    quotes = quotes_for(db) if quote else None
    if as_json:
        if quotes is not None:
            from comparator.rules.quoting import cited

            outcome = {**outcome, "quotes": reading(db, lambda: quotes.of(era_id,
                                                                           cited(outcome)))}
        typer.echo(json.dumps(outcome, indent=2))
        quote_footer(quotes, err=True)
    else:
        from comparator.text.terminal import clean, echo_width, wrapped

        width = echo_width()
        for line in clean(narrate(outcome, title_of(scenario), find_era(era_id).name,
                                  game_of(scenario))).split("\n"):
            indent = line[:len(line) - len(line.lstrip(" "))]
            typer.echo("\n".join(wrapped(line.strip(), width, indent, "    ")))
            for said in reading(db, lambda line=line: quotes.after(era_id, line)) if quotes \
                    else ():
                typer.echo("\n".join(wrapped(clean(said), width, indent + "    ",
                                              indent + "    ")))
        quote_footer(quotes)
        say_unmodelled(scenario)


@app.command(epilog=EXITS["new"])
def new(
    name: Annotated[str, typer.Argument(help="the scenario's name: NAME.yaml is written",
                                        metavar="NAME")],
    lang: LangOption = None,
) -> None:
    """Write a commented scenario template, NAME.yaml, that validates and runs as it is:
    edit it into your own combat."""
    from comparator.scenarios.scaffold import ScaffoldError, new_scenario
    from comparator.text.language import _
    from comparator.text.messages import message

    speak(lang)
    try:
        path = new_scenario(name)
    except ScaffoldError as err:
        fail(message(str(err)))
    echo_lines(_("wrote {path}: edit it, then `rulesdiff validate {path}` and "
                 "`rulesdiff diff {path}`").format(path=path))


@app.command(epilog=EXITS["validate"])
def validate(
    files: ScenarioPathsArg,
    as_json: Annotated[bool, json_flag("print JSON: the files checked and every problem")]
    = False,
    lang: LangOption = None,
) -> None:
    """Check scenario files and print every problem with its place, and every warning (a
    legal file that surely does not say what its author meant)."""
    from comparator.checking.validation import check_files
    from comparator.text.language import _
    from comparator.text.messages import problem_line
    from comparator.text.terminal import clean

    speak(lang)
    paths = expand_paths(files)
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
        typer.echo(clean(problem_line(p)), err=True)
    if problems:
        typer.echo(_("{problems} problem(s) in {files} file(s)").format(
            problems=len(problems), files=len(paths)), err=True)
        raise typer.Exit(2)
    echo_lines(_("ok: {files} file(s)").format(files=len(paths)))


@app.command(epilog=EXITS["verify"])
def verify(
    files: ScenarioPathsArg,
    as_json: Annotated[bool, json_flag("print JSON: what was checked and every mismatch")]
    = False,
    lang: LangOption = None,
) -> None:
    """Run each file's `expect:` and report every mismatch (exit 1 on any)."""
    from comparator.checking.verify import verify_files
    from comparator.files.problems import ScenarioError
    from comparator.text.language import _
    from comparator.text.messages import problem_line
    from comparator.text.terminal import clean

    speak(lang)
    paths = expand_paths(files)
    try:
        found = verify_files(paths)
    except ScenarioError as err:
        fail(problem_line(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(found.document(), indent=2))
        raise typer.Exit(0 if found.ok else 1)
    for m in found.mismatches:
        typer.echo(clean(_("{file}: {era}: {field}: expected {expected}, got {got}").format(
            file=m["file"], era=m["era"], field=m["field"], expected=_value_said(m["expected"]),
            got=_value_said(m["got"]))))
    missing = "".join(
        _("; {era} not checked in {n} file(s) (no expect: for it)").format(era=era, n=n)
        for era, n in found.unchecked.items()) + "".join(
        _("; {era} can't run {n} file(s) (they use what its rules lacked)").format(
            era=era, n=n)
        for era, n in found.refused.items())
    if not found.ok:
        echo_lines(_("{mismatches} mismatch(es) in {files} file(s){missing}").format(
            mismatches=len(found.mismatches), files=found.files, missing=missing), err=True)
        raise typer.Exit(1)
    echo_lines(_("ok: {files} file(s), {checked} era outcome(s) as expected{missing}").format(
        files=found.files, checked=found.checked, missing=missing))


def _value_said(value: Any) -> str:
    """An expected or found value of `verify` as its line says it: as JSON; the words
    `verify` writes in place of a value ("it runs", "refused: ..."), in the language
    spoken (the JSON keeps them in English)."""
    from comparator.text.language import current
    from comparator.text.messages import message

    if current() == "en":
        return json.dumps(value)
    if isinstance(value, str):
        value = message(value)
    return json.dumps(value, ensure_ascii=False)


@app.command(epilog=EXITS["eras"])
def eras(
    era: Annotated[str | None, typer.Argument(
        help="one era (id, alias or date): its whole record", metavar="[ERA]")] = None,
    as_json: JsonFlag = False,
    lang: LangOption = None,
) -> None:
    """The eras, oldest first, each with its dates and what it is; with ERA, that era's
    whole record: aliases, the rules text it cites, what changed, its sources."""
    from rich.console import Console

    from comparator.text.language import _
    from comparator.text.terminal import say
    from versions import ALL_ERAS

    speak(lang)
    data = [e.metadata() for e in ALL_ERAS] if era is None else [
        find.metadata() for find in [find_era_class(era)]]
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
        say(console, _("{id} ({game}, {began} to {ended}): {name}").format(
            id=e["id"], game=e["game"], began=e["began"], ended=e["ended"] or _("today"),
            name=_(e["name"])), hang="  ")
        say(console, _(e["summary"]), indent="  ", hang="")
    if era is None:
        console.print()
        say(console, _("`rulesdiff eras ERA` gives one era's aliases, the rules text it "
                       "cites, what changed and its sources; --json gives them all."),
            hang="")


def _era_record(console: Any, e: dict[str, Any]) -> None:
    from comparator.text.language import N_, _
    from comparator.text.terminal import say

    say(console, f"{e['id']} — {_(e['name'])}", hang="  ")
    say(console, _("game: {game}; in force {began} to {ended}").format(
        game=e["game"], began=e["began"], ended=e["ended"] or _("today")), indent="  ")
    if e["aliases"]:
        say(console, _("aliases: {aliases}").format(aliases=", ".join(e["aliases"])),
            indent="  ")
    say(console, _("rules cited: {cr}").format(cr=e["cr"]), indent="  ")
    say(console, _(e["summary"]), indent="  ", hang="")
    # A change is the era's own words (translated); a source is cited as it is written.
    for title, items, said in ((N_("what changed"), e["changes"], _),
                               (N_("sources"), e["sources"], str)):
        console.print(_("  {title}:").format(title=_(title)), highlight=False)
        for item in items:
            say(console, f"- {said(item)}", indent="    ", hang="  ")


@app.command(epilog=EXITS["diff"])
def diff(
    files: ScenarioNamesArg,
    era: Annotated[list[str] | None,
                   era_option("compare only these eras (repeat the option)")] = None,
    as_json: Annotated[bool, json_flag("print the diff JSON")] = False,
    db: DbOption = None,
    no_store: NoStoreFlag = False,
    quote: QuoteFlag = False,
    lang: LangOption = None,
) -> None:
    """Run each scenario in every era (or those named) and show where they diverge."""
    from comparator.compare.diffing import diff_document
    from comparator.compare.running import era_ids, run_files
    from comparator.files.problems import ScenarioError

    speak(lang)
    eras = eras_named(era)
    if eras is not None and len(set(eras)) < 2:
        fail("--era: name at least two eras to compare (or none for all); "
             "`rulesdiff run FILE --era ERA` shows one")
    paths = expand_paths([Path(f) for f in files])
    try:
        results = run_files(paths, era_ids(eras))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    # The database is opened once there is something to store: a refused file leaves none
    # behind, not even an empty one.
    if not no_store:
        from comparator.dataset.runs import save

        engine = open_store(db)
        writing(lambda: save(engine, results))
    diverged = False
    quotes = quotes_for(db) if quote else None
    if as_json:
        for r in results:
            doc = diff_document(r.scenario.id, r.outcomes)
            diverged |= doc["diverges"]
            if quotes is not None:
                from comparator.rules.quoting import cited

                doc["quotes"] = reading(db, lambda r=r: {
                    e: quotes.of(e, cited(o)) for e, o in r.outcomes.items()})
            typer.echo(json.dumps(doc) if len(results) > 1 else json.dumps(doc, indent=2))
            say_refused(r.file, r.refused)
        quote_footer(quotes, err=True)
    else:
        from rich.console import Console

        from comparator.compare.report import render

        console = Console()
        for i, r in enumerate(results):
            if i:
                console.print()
            doc = diff_document(r.scenario.id, r.outcomes)
            diverged |= doc["diverges"]
            quoting(db, quotes, lambda doc=doc, r=r: render(doc, r.scenario, console,
                                                             r.refused, quotes))
            say_unmodelled(r.scenario)
        quote_footer(quotes)
    raise typer.Exit(1 if diverged else 0)






@app.command(epilog=EXITS["show"])
def show(
    scenario_id: Annotated[str, typer.Argument(help="a stored scenario's id", metavar="ID")],
    as_json: JsonFlag = False,
    db: DbOption = None,
    lang: LangOption = None,
) -> None:
    """What the database holds for one scenario: its versions, runs, divergences and
    explorations."""
    from comparator.store.reading import stored_scenario
    from comparator.text.language import _
    from comparator.text.terminal import clean, cut

    speak(lang)
    engine = open_store(db, create=False)
    found = reading(db, lambda: stored_scenario(engine, scenario_id))
    if found is None:
        fail(_("{id}: no such scenario in the database").format(id=scenario_id))
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    echo_lines(_("{id}: {n} stored version(s)").format(id=scenario_id,
                                                       n=len(found["versions"])))
    for v in found["versions"]:
        echo_lines(_("version {hash} ({stored}): {title}").format(
            hash=v["content_hash"][:12], stored=v["first_stored"], title=clean(cut(v["title"]))))
        for r in v["runs"]:
            echo_lines(_("  run {era} engine {engine} outcome {hash} at {created}").format(
                era=r["era"], engine=r["engine_version"], hash=r["outcome_hash"][:12],
                created=r["created"]))
        for line in _divergence_lines(v["divergences"]):
            typer.echo(clean(line))  # a stored path may hold anything: escaped
        for x in v["explorations"]:
            value = (_("no legal line") if not x["value"] else x["value"].get("score")
                     if isinstance(x["value"], dict) else x["value"])  # as stored, if odd
            echo_lines(_("  explored {era} ({objective}, blocks {blocks}, fields {fields}): "
                         "{lines} lines, {outcomes} outcome(s), value {value}, at {created}"
                         ).format(era=x["era"], objective=x["objective"], blocks=x["blocks"],
                                  fields=x["fields"], lines=x["lines"],
                                  outcomes=x["outcomes"], value=value, created=x["created"]))


def _divergence_lines(divergences: list[dict[str, Any]]) -> list[str]:
    """The stored divergences, one line per differing path (and engine version, where
    several stored some), not one per pair of eras: each value once, with the eras that
    have it, in the order of history ("B.life: 18 in alpha, fourth; 20 in fifth, ...")."""
    from comparator.compare.running import era_place
    from comparator.text.language import _, current
    from comparator.text.phrases import field_label

    values: dict[tuple[int, str], dict[str, str]] = {}  # (engine, path) -> era -> value
    for d in divergences:
        mine = values.setdefault((d["engine_version"], d["path"]), {})
        mine.setdefault(d["era_a"], json.dumps(d["value_a"], sort_keys=True))
        mine.setdefault(d["era_b"], json.dumps(d["value_b"], sort_keys=True))
    engines = {engine for engine, _ in values}
    out = []
    for (engine, path), by_era in sorted(values.items()):
        eras_of_value: dict[str, list[str]] = {}
        for era in sorted(by_era, key=era_place):
            eras_of_value.setdefault(by_era[era], []).append(era)
        said = _("; ").join(_("{value} in {eras}").format(value=_stored_value(value),
                                                          eras=", ".join(eras))
                            for value, eras in eras_of_value.items())
        label = _(" (engine {engine})").format(engine=engine) if len(engines) > 1 else ""
        # The path as the JSON has it; in another language, a player's or a permanent's
        # field as `diff`'s table names it ("B のライフ").
        kind, _dot, field = path.partition(".")
        named = field_label(field) if current() != "en" and kind in (
            "players", "permanents") and "." in field else path
        out.append(_("  {path}{label}: {said}").format(path=named, label=label, said=said))
    return out


def _stored_value(value: str) -> str:
    """A stored value (its JSON) as `show` says it: as JSON; in another language, as
    `diff`'s table says it (true: はい)."""
    from comparator.compare.diffing import value_text
    from comparator.text.language import current

    if current() == "en":
        return value
    try:
        return value_text(json.loads(value))
    except ValueError:
        return value


@app.command(epilog=EXITS["schema"])
def schema(
    game: Annotated[str | None, typer.Option(
        "--game", help="a game id, as `rulesdiff eras` lists them (default: Magic's, mtg)",
        metavar="GAME")] = None,
) -> None:
    """The JSON Schema of the scenario format, with a description for every field."""
    from comparator.games.schema import scenario_schema
    from versions import DEFAULT_GAME, GAMES

    game = game or DEFAULT_GAME
    if game not in GAMES:
        fail(f"--game: one of {', '.join(GAMES)}, not {game!r}")
    typer.echo(json.dumps(scenario_schema(game), indent=2))


@app.command(epilog=EXITS["catalog"])
def catalog(
    markdown: Annotated[bool, typer.Option("--markdown", help="print docs/catalog.md")]
    = False,
    as_json: JsonFlag = False,
    lang: LangOption = None,
) -> None:
    """Every shipped scenario: title, tags, sources, and where the eras diverge."""
    from comparator.compare import catalog as cat
    from comparator.files.locations import shipped_scenarios
    from comparator.text.language import _, current, speaking

    speak(lang)
    if markdown and as_json:
        fail(_("--markdown and --json: choose one"))
    # The JSON and docs/catalog.md are the same in every language: their verdicts English.
    with speaking("en" if markdown or as_json else current()):
        items = cat.entries(shipped_scenarios())
    if markdown:
        typer.echo(cat.markdown(items), nl=False)
    elif as_json:
        typer.echo(json.dumps(items, indent=2))
    else:
        for i in items:
            echo_lines(_("{id}: {verdict}").format(id=i["id"], verdict=i["verdict"]))


@app.command("scenarios", epilog=EXITS["list_scenarios"])
def list_scenarios(as_json: JsonFlag = False, lang: LangOption = None) -> None:
    """The shipped scenarios: id, title and tags."""
    from comparator.scenarios.shipped import scenario_rows
    from comparator.text.language import _, current
    from comparator.text.terminal import clean, cut

    speak(lang)
    rows = scenario_rows()
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    # A scenario's own Japanese title under Japanese, where it has one.
    titles = scenario_rows(japanese=True) if current() == "ja" else rows
    for r, said in zip(rows, titles, strict=True):
        echo_lines(clean(_("{id}: {title}").format(id=r["id"], title=cut(said["title"])))
                   + (f"  [{', '.join(r['tags'])}]" if r["tags"] else ""))
