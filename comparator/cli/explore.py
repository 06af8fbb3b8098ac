"""`explore` and `blocks`: every line of play in each era, every legal block declaration,
whether a creature can block another, the best blocks."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.core

from comparator.cli.app import app
from comparator.cli.lookup import era_named, eras_named, expand_paths, load_named
from comparator.cli.options import (
    EXITS,
    DbOption,
    JobsOption,
    JsonFlag,
    LangOption,
    NoStoreFlag,
    QuoteFlag,
    ScenarioArg,
    ScenarioNamesArg,
    era_option,
    json_flag,
)
from comparator.cli.output import (
    echo_lines,
    fail,
    open_store,
    reading,
    say_refused,
    say_unmodelled,
    speak,
    writing,
)
from comparator.cli.progress import Bar, bars_shown, searching
from comparator.cli.quotes import quote_footer, quotes_for, quoting


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
        "--limit", help="refuse a search of more lines of play than this, or of more work "
        "(positions searched and lines played out) than one for each 40 lines, 25,000 at least",
        metavar="N", min=1, max=10**12)] = 1_000_000,
    as_json: Annotated[bool, json_flag("print the explore JSON")] = False,
    show_all: Annotated[bool, typer.Option(
        "--all", help="show every outcome row, and the line to every outcome only one era "
                      "reaches")] = False,
    db: DbOption = None,
    no_store: NoStoreFlag = False,
    quote: QuoteFlag = False,
    jobs: JobsOption = None,
    lang: LangOption = None,
) -> None:
    """Every line of play in each era: the outcomes each player can make happen, and what
    happens with best play. The eras are searched at once, in --jobs processes."""
    import os

    from comparator.compare.running import era_ids
    from comparator.explore.eras import BLOCKS, FIELDS, OBJECTIVES
    from comparator.explore.files import Explored, ExploreError, explore_files, nothing_explored
    from comparator.text.language import _
    from comparator.text.messages import message

    speak(lang)
    for name, value, allowed in (("--blocks", blocks, BLOCKS), ("--objective", objective,
                                                                 OBJECTIVES),
                                 ("--fields", fields, FIELDS)):
        if value not in allowed:
            fail(_("{option} must be one of {allowed}, not {value}").format(
                option=name, allowed=", ".join(allowed), value=repr(value)))
    if limit < 1:
        fail(_("--limit must be at least 1"))
    eras = era_ids(eras_named(era))
    paths = expand_paths([Path(f) for f in files])
    loaded = ((path, load_named(str(path))[1]) for path in paths)  # each as its turn comes
    done: list[Explored] = []
    # A file no era explored: its refusals are said once the others are known, since, if
    # no file was explored at all, the one-line error says the first of them instead.
    unexplored: list[Explored] = []
    try:
        with Bar(bars_shown(as_json)) as bar:
            for found in explore_files(loaded, eras, objective, fields, blocks, limit,
                                       searching(bar), jobs or os.cpu_count() or 1):
                if found.doc["eras"]:
                    say_refused(found.path, found.refused)
                else:
                    unexplored.append(found)
                done.append(found)
    except ExploreError as err:
        for found in unexplored:
            say_refused(found.path, found.refused)
        fail(err.said())
    if (why := nothing_explored(done)) is not None:
        fail(message(why))
    for found in unexplored:
        say_refused(found.path, found.refused)
    if not no_store:  # opened once there is something to store, as in `diff`
        from comparator.dataset.runs import save_explorations

        engine = open_store(db)
        writing(lambda: save_explorations(engine, [(e.scenario, e.doc) for e in done]))
    diverged = any(e.doc["diverges"] for e in done)
    quotes = quotes_for(db) if quote else None
    if as_json:
        for e in done:
            if quotes is not None:
                from comparator.explore.report import cited_in

                e.doc["quotes"] = reading(db, lambda e=e: {
                    era: quotes.of(era, cited_in(res)) for era, res in e.doc["eras"].items()})
            typer.echo(json.dumps(e.doc) if len(done) > 1 else json.dumps(e.doc, indent=2))
        quote_footer(quotes, err=True)
    else:
        from rich.console import Console

        from comparator.explore.report import render

        console = Console()
        for i, e in enumerate(done):
            if i:
                console.print()
            quoting(db, quotes, lambda e=e: render(e.doc, e.scenario, console, show_all,
                                                    quotes))
            say_unmodelled(e.scenario)
        quote_footer(quotes)
    raise typer.Exit(1 if diverged else 0)




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
    limit: Annotated[int | None, typer.Option(
        "--limit", help="refuse a survey or --can that would examine more block choices "
                        "than this (default 1,000,000); with --best, a search of more lines "
                        "of play than this (default 1,000,000)",
        metavar="N", min=1, max=10**12)] = None,
    as_json: JsonFlag = False,
    jobs: JobsOption = None,
    lang: LangOption = None,
) -> None:
    """Every legal block declaration for the scenario's attacks, with the requirements
    each obeys; the maximal ones (509.1c) are marked (Magic scenarios). With --can, whether
    one creature can block one attacker, in each era, and the rule that forbids it. With
    --best, the declaration best play makes in each era (the eras searched at once, in
    --jobs processes)."""
    import os

    from comparator.files.problems import ScenarioError
    from comparator.games.mtg.blocks import SURVEY_LIMIT, block_survey, can_block_answers
    from comparator.text.language import _
    from comparator.text.messages import problem_line

    speak(lang)
    path, scenario = load_named(file)
    if best:
        _best_blocks(path, scenario, era, objective, as_json, limit,
                     jobs or os.cpu_count() or 1)
        return
    work = limit or SURVEY_LIMIT
    if can is not None:
        _each_era(path, scenario, era, "--can", as_json,
                  lambda eras: can_block_answers(scenario, eras, can[0], can[1], str(path),
                                                 work),
                  lambda a: _("yes, {blocker} can block {attacker}").format(
                      blocker=can[0], attacker=can[1]) if a["can"] else
                  _("no: {why} ({rule})").format(why=_why_not(a["why"], can[1]),
                                                 rule=a["rule"]))
        return
    try:
        doc, lines = block_survey(scenario, era_named(era or "foundations", "mtg"), str(path),
                                  work)
    except ScenarioError as err:
        fail(problem_line(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
    else:
        echo_lines("\n".join(lines), hang="      ")


def _why_not(why: str, attacker: str) -> str:
    """Why a creature can't block `attacker`, in the language spoken: the attacker's
    restriction is said after its name ("angel: it has flying, ...")."""
    from comparator.text.language import _
    from comparator.text.messages import message

    named, sep, rest = why.partition(": ")
    if sep and named == attacker:
        return _("{attacker}: {why}").format(attacker=attacker, why=message(rest))
    return message(why)


def _best_blocks(path: Path, scenario: Any, era: str | None, objective: str,
                 as_json: bool, limit: int | None, jobs: int) -> None:
    """`blocks --best`: each era's best-play declaration, in words or as JSON."""
    from comparator.explore.best_blocks import best_blocks, blocks_said
    from comparator.explore.eras import OBJECTIVES
    from comparator.text.language import _

    if objective not in OBJECTIVES:
        fail(_("--objective: {value} is not one of {allowed}").format(
            value=repr(objective), allowed=", ".join(OBJECTIVES)))
    def answer(eras: list[str]) -> dict[str, Any]:
        with Bar(bars_shown(as_json)) as bar, searching(bar)(scenario.id) as progress:
            return best_blocks(scenario, eras, objective, str(path), limit, jobs, progress)

    _each_era(path, scenario, era, "--best", as_json, answer,
              lambda a: _("{blocks} (score {score}, {objective})").format(
                  blocks=blocks_said(a["blocks"]), score=a["score"], objective=objective))


def _each_era(path: Path, scenario: Any, era: str | None, option: str, as_json: bool,
              answer: Callable[[list[str]], dict[str, Any]],
              said: Callable[[dict[str, Any]], str]) -> None:
    """A `blocks` question asked of each Magic era (or the one named): the answers as
    JSON, or one line per era; an era that can't run the scenario says why."""
    from comparator.files.problems import ScenarioError
    from comparator.text.language import _
    from comparator.text.messages import message, problem_line
    from versions import eras_of

    if scenario.game != "mtg":
        fail(_("{file}: `blocks {option}` answers for Magic scenarios; this is a {game} one"
               ).format(file=path, option=option, game=scenario.game))
    try:
        found = answer([era_named(era, "mtg")] if era else list(eras_of("mtg")))
    except ScenarioError as err:
        fail(problem_line(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    for era_id, a in found["eras"].items():
        echo_lines(_("{era}: not run: {why}").format(era=era_id, why=message(a["refused"]))
                   if "refused" in a else _("{era}: {said}").format(era=era_id, said=said(a)))
