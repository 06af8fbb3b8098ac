"""`rulesdiff cards import`: a card library from MTGJSON's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
import typer.core

from comparator.cli.options import (
    EXITS,
    SummaryJsonFlag,
    command_group,
)
from comparator.cli.output import echo_lines, fail
from comparator.cli.progress import Bar, bars_shown

cards_app = command_group("Card libraries: import one from MTGJSON.")

MAX_DEPTH = 512  # lists and objects in an MTGJSON file, one inside another


@cards_app.command("import", epilog=EXITS["cards_import"])
def cards_import(
    file: Annotated[Path, typer.Argument(help="an MTGJSON AtomicCards.json or "
                                              "AllPrintings.json you have", metavar="FILE")],
    out: Annotated[Path, typer.Option("--out", "-o", help="the card library to write",
                                      metavar="PATH")] = Path("cards.yaml"),
    as_json: SummaryJsonFlag = False,
) -> None:
    """Write a card library of every creature, planeswalker and battle in an MTGJSON file
    (never downloaded), each with its Japanese name where the file has one (shown under
    --lang ja); use it with --cards FILE or RULESDIFF_CARDS."""
    import yaml

    from comparator.files.guarded import json_depth
    from comparator.games.mtg.mtgjson import MtgjsonError, read

    # MTGJSON nests 7 deep; a file nested thousands deep would cost its streaming reader
    # gigabytes (the path to each value is kept): refused before it is read.
    if (depth := json_depth(file, MAX_DEPTH)) is not None and depth > MAX_DEPTH:
        fail(f"{file}: not JSON, or not MTGJSON: nested more than {MAX_DEPTH} deep")
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml when the wheel has it
    tmp = out.with_name(f".{out.name}.part")
    # Its bytes are the bar's measure: the cards in a file are not known before its end.
    try:
        size = file.stat().st_size or None
    except OSError:
        size = None  # `read` says why the file can't be read
    try:
        with tmp.open("w", encoding="utf-8") as f, Bar(bars_shown(as_json)) as bar:
            f.write("cards:\n")
            task = bar.task(f"reading {file.name}", total=size, count="0 cards")
            imported = read(
                file, progress=lambda n, at: bar.update(task, completed=at,
                                                        count=f"{n:,} cards"),
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
        echo_lines(f"skipped {why}", err=True)
    if imported.skipped_count > len(imported.skipped):
        echo_lines(f"... and {imported.skipped_count - len(imported.skipped)} more cards skipped",
              err=True)
    summary = {"file": str(file), "out": str(out), **imported.summary()}
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    echo_lines(f"wrote {out}: {summary['cards']} cards ({summary['creatures']} creatures, "
               f"{summary['planeswalkers']} planeswalkers, {summary['battles']} battles); "
               f"{summary['creatures_fully_modelled']} creatures "
               f"({summary['creatures_fully_modelled_share']:.1%}) fully modelled; "
               f"{summary['japanese_names']} with a Japanese name"
               + (f"; {summary['skipped']} skipped (of the wrong shape)"
                  if summary["skipped"] else ""))
