"""The `rulesdiff` command line. Heavy modules are imported inside the commands so that
`rulesdiff --help` starts fast."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

app = typer.Typer(
    add_completion=False, no_args_is_help=True,
    help="Run a Magic: The Gathering combat scenario under each era's rules and show where "
         "the outcomes diverge, and why.",
)

FILE_HELP = "a scenario file, or the id of a shipped scenario"


def fail(message: str) -> NoReturn:
    """Bad input or usage: one line on stderr, exit 2."""
    typer.echo(f"rulesdiff: {message}", err=True)
    raise typer.Exit(2)


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


def _era(name: str) -> str:
    from versions import find_era

    try:
        return find_era(name).id
    except KeyError as err:
        fail(str(err.args[0]))


@app.command()
def run(
    file: Annotated[str, typer.Argument(help=FILE_HELP)],
    era: Annotated[str, typer.Option("--era", "-e", help="era id or alias")],
    as_json: Annotated[bool, typer.Option("--json", help="print the outcome JSON")] = False,
) -> None:
    """One era's outcome of a scenario, with its event log and rule citations."""
    from comparator.loader import ScenarioError
    from comparator.narrate import narrate
    from comparator.running import run_era
    from versions import find_era

    era_id = _era(era)
    path, scenario = _load(file)
    try:
        outcome = run_era(scenario, era_id, str(path))
    except ScenarioError as err:
        fail(str(err.problems[0]))
    if as_json:
        typer.echo(json.dumps(outcome, indent=2))
    else:
        typer.echo(narrate(outcome, scenario.title, find_era(era_id).name))


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="scenario files or folders")],
) -> None:
    """Check scenario files and print every problem with its place (exit 2 if any)."""
    from comparator.loader import ScenarioError, load
    from comparator.running import era_ids, run_era

    problems: list[str] = []
    paths = _expand(files)
    for path in paths:
        try:
            scenario = load(path)
        except ScenarioError as err:
            problems += [str(p) for p in err.problems]
            continue
        seen: set[str] = set()
        for era in era_ids(None):
            try:
                run_era(scenario, era, str(path))
            except ScenarioError as err:
                for p in err.problems:
                    if str(p) not in seen:
                        seen.add(str(p))
                        problems.append(str(p))
    for p in problems:
        typer.echo(p, err=True)
    if problems:
        typer.echo(f"{len(problems)} problem(s) in {len(paths)} file(s)", err=True)
        raise typer.Exit(2)
    typer.echo(f"ok: {len(paths)} file(s)")


@app.command()
def verify(
    files: Annotated[list[Path], typer.Argument(help="scenario files or folders")],
) -> None:
    """Run each file's `expect:` and report every mismatch (exit 1 on any)."""
    from comparator.loader import ScenarioError, load
    from comparator.running import run_all
    from comparator.verify import mismatches

    paths = _expand(files)
    bad = 0
    checked = 0
    for path in paths:
        try:
            scenario = load(path)
            outcomes = run_all(scenario, list(scenario.expect), str(path))
        except ScenarioError as err:
            fail(str(err.problems[0]))
        for m in mismatches(scenario, outcomes):
            bad += 1
            typer.echo(f"{path}: {m.era}: {m.field}: expected {json.dumps(m.expected)}, "
                       f"got {json.dumps(m.got)}")
        checked += len(scenario.expect)
    if bad:
        typer.echo(f"{bad} mismatch(es) in {len(paths)} file(s)", err=True)
        raise typer.Exit(1)
    typer.echo(f"ok: {len(paths)} file(s), {checked} era outcome(s) as expected")


def _expand(files: list[Path]) -> list[Path]:
    from comparator.data_files import find_scenario

    out: list[Path] = []
    for f in files:
        if f.is_dir():
            out += sorted(f.glob("*.yaml")) + sorted(f.glob("*.yml"))
            continue
        found = find_scenario(str(f))
        if found is None:
            fail(f"{f}: no such file, and no shipped scenario with that id")
        out.append(found)
    return out


@app.command()
def eras(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The eras: ids, aliases, dates, the CR modelled, sources and what changed."""
    from versions import ERAS

    data = [e.metadata() for e in ERAS]
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    for e in data:
        typer.echo(f"{e['id']} ({', '.join(e['aliases'])}): {e['name']}")
        typer.echo(f"  {e['began']} to {e['ended'] or 'today'}; {e['cr']}")
        for c in e["changes"]:
            typer.echo(f"  - {c}")


@app.command("scenarios")
def list_scenarios(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The shipped scenarios: id, title and tags."""
    import yaml

    from comparator.data_files import shipped_scenarios

    rows = []
    for path in shipped_scenarios():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        rows.append({"id": raw.get("id"), "title": raw.get("title"),
                     "tags": raw.get("tags", []), "file": str(path)})
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        typer.echo(f"{r['id']}: {r['title']}" + (f"  [{', '.join(r['tags'])}]"
                                                 if r["tags"] else ""))


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
