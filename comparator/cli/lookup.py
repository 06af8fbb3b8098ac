"""What a user names on the command line, found: a scenario by file or shipped id (loaded, or
one line and exit 2), an era by id, alias or date, files and folders as one sequence."""

from __future__ import annotations

from pathlib import Path

from comparator.cli.output import fail


def load_named(name: str):  # noqa: ANN202 - returns (Path, Scenario); typed lazily
    from comparator.files.locations import find_scenario
    from comparator.files.problems import ScenarioError
    from comparator.scenarios.loader import load
    from comparator.text.language import _
    from comparator.text.messages import message, problem_line

    path = find_scenario(name)
    if path is None:
        fail(message(f"{name}: no such file, and no shipped scenario with that id"))
    try:
        return path, load(path)
    except ScenarioError as err:
        first = err.problems[0]
        more = len(err.problems) - 1
        tail = _(" (and {more} more; see `rulesdiff validate {name}`)").format(
            more=more, name=name) if more else ""
        fail(f"{problem_line(first)}{tail}")


def era_named(name: str, game: str | None = None) -> str:
    """An era by id, alias, or date (the era of `game` in force that day)."""
    from comparator.text.messages import message
    from versions import find_era

    try:
        return find_era(name, game).id
    except KeyError as err:
        fail(message(str(err.args[0])))


def eras_named(names: list[str] | None) -> list[str] | None:
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
                from comparator.text.language import _

                fail(_("--era {date}: no era of any game modelled on that day").format(
                    date=name))
            out += [e for e in found if e not in out]
        elif (era := era_named(name)) not in out:
            out.append(era)
    return out


def expand_paths(files: list[Path]):  # noqa: ANN202 - a Files sequence, imported lazily
    from comparator.files.file_sets import expand
    from comparator.text.messages import message

    try:
        return expand(files)
    except ValueError as exc:  # no scenario there, or a damaged manifest
        fail(message(str(exc)))
