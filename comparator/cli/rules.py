"""The rules' own texts on the command line: `rules import`, `rules show`, `rules check`
and `history`. The texts are their publisher's: rulesdiff ships none, the user imports
those they have."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from comparator.cli.options import (
    EXITS,
    DbOption,
    JsonFlag,
    LangOption,
    SummaryJsonFlag,
    command_group,
    era_option,
)
from comparator.cli.output import (
    echo_lines,
    fail,
    find_era_class,
    open_store,
    reading,
    speak,
    writing,
)
from comparator.cli.progress import Bar, bars_shown

rules_app = command_group("The rules' own texts: import the Comprehensive Rules (and the "
                          "Fifth Edition rulings summary, and Duel Masters' 総合ゲームルール) "
                          "you have, then read a rule as it stood on a date or in an era.")

DateOption = Annotated[str | None, typer.Option(
    "--date", help="the rules in force that day (YYYY-MM-DD; default: the newest)",
    metavar="DATE")]
GameOption = Annotated[str | None, typer.Option(
    "--game", help="a game id, as `rulesdiff eras` lists them (default: Magic's, mtg)",
    metavar="GAME")]


def _day(value: str | None, option: str = "--date") -> str | None:
    from datetime import date

    if value is None:
        return None
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        fail(f"{option}: a date as YYYY-MM-DD, not {value!r}")


def _game(game: str | None, era: Any = None) -> str:
    from versions import DEFAULT_GAME, GAMES

    if era is not None:
        if game is not None and game != era.game:
            fail(f"--game {game}: {era.id} is an era of {era.game}")
        return str(era.game)
    chosen = (game or DEFAULT_GAME).strip().replace("_", "-")
    if chosen not in GAMES:
        fail(f"--game: {game!r} is not a game; the games are {', '.join(GAMES)}")
    return chosen


@rules_app.command("import", epilog=EXITS["rules_import"])
def rules_import(
    files: Annotated[list[Path] | None, typer.Argument(
        help="rules text files, as published; a folder is an archive of releases, one "
             "text a release", metavar="FILE|FOLDER...")] = None,
    git: Annotated[Path | None, typer.Option(
        "--git", help="a git archive of every release: one file, one commit per release "
                      "(as LaurieCheers/CompRulesHistory keeps the Comprehensive Rules)",
        metavar="REPO")] = None,
    file: Annotated[str, typer.Option(
        "--file", help="with --git: the file each commit holds", metavar="NAME")]
    = "comprehensive-rules.txt",
    dated: Annotated[str | None, typer.Option(
        "--date", help="the date of a copy that does not say its own (a rulings summary "
                       "without its header, a Duel Masters text without 年月日); a "
                       "document that states one keeps it",
        metavar="DATE")] = None,
    db: DbOption = None,
    as_json: SummaryJsonFlag = False,
) -> None:
    """Store each rules text: its date read from the document itself, each numbered rule
    with the headings above it, its glossary. An archive's texts (a folder, or --git) are
    stored with their releases' names, all or none. Importing the same text again stores
    nothing; every file is read and checked before anything is written."""
    from functools import partial

    from comparator.rules.store import import_documents

    if not files and git is None:
        fail("rules import: name rules text files, a folder of them, or --git REPO")
    day = _day(dated)
    with Bar(bars_shown(as_json)) as bar:
        read = _read_texts(files or [], git, file, day, bar)
        engine = open_store(db)
        row = bar.task(f"storing {len(read)} rules text(s)", total=len(read))
        stored = writing(partial(import_documents, engine, [
            (doc, Path(name).name if placed.archive is None else name, text, placed)
            for name, text, doc, placed in read],
            lambda done, name: bar.update(row, completed=done, item=name)))
    for (name, _, doc, placed), (n, was) in zip(read, stored, strict=True):
        for warning in doc.warnings:
            echo_lines(f"{name}: {warning}", err=True)
        if not as_json:
            release = f" ({placed.release})" if placed.release else ""
            echo_lines(f"{name}: {doc.kind} effective {doc.effective}{release}: "
                  + (f"{n} rules and {len(doc.glossary)} glossary entries stored" if n
                     else f"imported before as effective {was}: its date is now "
                          f"{doc.effective}" if was
                     else "imported before, nothing new"))
    if as_json:
        typer.echo(json.dumps([{"file": name, "kind": d.kind, "game": d.game,
                                "effective": d.effective.isoformat(), "rules": len(d.rules),
                                "glossary": len(d.glossary), "stored": n,
                                "release": placed.release, "warnings": d.warnings}
                               for (name, _, d, placed), (n, _) in zip(read, stored,
                                                                        strict=True)],
                              indent=2))


def _read_texts(paths: list[Path], git: Path | None, file: str, day: str | None,
                bar: Bar) -> list[tuple[str, str, Any, Any]]:
    """Every text named, read and checked: (name, text, document, where it is placed
    among releases); the first that can't be read is one line, exit 2. Each archive is
    a row of `bar` (its releases read, of how many), and so are the files named."""
    from datetime import date

    from comparator.files.guarded import read_text_file
    from comparator.rules.archive import (
        MAX_BYTES,
        ArchiveError,
        releases_in_folder,
        releases_in_git,
    )
    from comparator.rules.document import NotRulesText
    from comparator.rules.reading import read_rules
    from comparator.rules.store import Placed

    given = date.fromisoformat(day) if day else None
    out = []
    folders = {p for p in paths if _is_folder(p)}
    # Listing an archive reads every text of it (git's history at once), before any
    # release can be counted: a row of its own.
    listing = bar.task("listing the archive's releases") if git or folders else None
    try:
        archives = [(f"git:{git.resolve()}", releases_in_git(git, file))] if git else []
        archives += [(f"folder:{p.resolve()}", releases_in_folder(p, day)) for p in paths
                     if p in folders]
    except ArchiveError as exc:
        fail(str(exc))
    except OSError as exc:  # a path the system refuses (resolving a name too long)
        fail(f"{exc.filename or git}: {exc.strerror or exc}")
    if listing is not None:
        bar.remove(listing)
    for archive, releases in archives:
        row = bar.task(f"reading {len(releases)} releases of {archive}", total=len(releases))
        for i, r in enumerate(releases, 1):
            try:
                doc = read_rules(r.text, given or date.fromisoformat(r.day))
            except NotRulesText as exc:
                fail(f"{r.source} ({r.day}{', ' + r.name if r.name else ''}): "
                     + (f"line {exc.line}: {exc}" if exc.line else str(exc)))
            out.append((r.source, r.text, doc, Placed(r.name, archive, r.position)))
            bar.update(row, completed=i, item=f"{r.day} {r.name or r.source}")
        bar.remove(row)
    files = [p for p in paths if p not in folders]
    row = bar.task(f"reading {len(files)} rules text(s)", total=len(files)) if files else None
    for i, path in enumerate(files):
        if row is not None:
            bar.update(row, completed=i, item=str(path))
        try:
            # The older files have cp1252 quotes: read as such where they aren't UTF-8.
            text = read_text_file(path, MAX_BYTES, "rules text", fallback="cp1252")
            out.append((str(path), text, read_rules(text, given), Placed()))
        except NotRulesText as exc:
            fail(f"{path}:{exc.line}: {exc}" if exc.line else f"{path}: {exc}")
        except ValueError as exc:
            message = str(exc)
            fail(message if message.startswith(str(path)) else f"{path}: {message}")
    return out


def _is_folder(path: Path) -> bool:
    """Whether `path` is a folder; a path the system refuses to look at (a name longer than
    it allows, a loop of links) is one line, exit 2."""
    try:
        return path.is_dir()
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


@rules_app.command("show", epilog=EXITS["rules_show"])
def rules_show(
    name: Annotated[str, typer.Argument(
        help="a rule's number (510.1c, C.8.1) or a glossary term (trample)",
        metavar="NUMBER|TERM")],
    on: DateOption = None,
    era: Annotated[str | None, era_option("the rules of this era's document")] = None,
    game: GameOption = None,
    db: DbOption = None,
    as_json: JsonFlag = False,
    lang: LangOption = None,
) -> None:
    """A rule's words (or a glossary entry's) as they stood on a date, or in an era's
    document: where it sits (its section and title) and its subrules. With --lang ja, its
    words in the Japanese text of that document (総合ルール) where one is imported."""
    from functools import partial

    from comparator.rules.document import JA_CR
    from comparator.rules.store import _PLAIN_NUMBER, glossary_on, own_dates, rule_on
    from comparator.text.language import _, current

    if on is not None and era is not None:
        fail("--date or --era, not both")
    day = _day(on)
    chosen = find_era_class(era) if era is not None else None
    between = own_dates(chosen) if chosen else None
    which = _game(game, chosen)
    asked = name.strip().rstrip(".") if _PLAIN_NUMBER.match(name.strip().rstrip(".")) \
        else name.strip()
    is_rule = bool(_PLAIN_NUMBER.match(asked) or re.match(r"^\d{3}\.\d+", asked))
    speak(lang)
    japanese = current() == "ja"
    engine = _rules_store(db)
    find = partial(rule_on, japanese=japanese) if is_rule else glossary_on
    found = reading(db, lambda: find(engine, asked, day, between, which))
    if found is None and chosen is not None:
        fail(f"the document the {chosen.id} era cites is not imported: "
             f"`rulesdiff rules import` the {chosen.cr_modelled}")
    if found is None:
        fail("no imported rules document is in force then: import one with "
             "`rulesdiff rules import FILE`" if day else
             f"no rules document of {which} imported: `rulesdiff rules import FILE`")
    renumbered = None
    if not found.text and is_rule:  # under another number then? the trail knows
        renumbered, when = _renumbered(engine, db, asked, which, found)
        found = renumbered or found
    if not found.text:
        what = "a rule" if is_rule else "a glossary entry"
        fail(f"{asked}: not {what} of the {found.kind} effective {found.effective} "
             f"({found.document})" + ("; its number may differ in that document: "
                                      f"`rulesdiff history {asked}` follows it" if is_rule
                                      else ""))
    if as_json:
        from comparator.text.encoding import shown_json

        typer.echo(shown_json({"number": found.number, "effective": found.effective,
                               "document": found.document, "kind": found.kind,
                               "section": found.section, "title": found.title,
                               "text": found.text, "asked": asked,
                               "subrules": [{"number": n, "text": t}
                                            for n, t in found.subrules]}))
        return
    echo_lines(_("{number} — the {kind} effective {effective} ({document})").format(
        number=found.number, kind=found.kind, effective=found.effective,
        document=found.document), hang="  ")
    if japanese and is_rule and which == "mtg" and found.kind != JA_CR:
        echo_lines("  " + _("(no Japanese text of these rules is imported: the English "
                            "words, as imported)"), hang="    ")
    if renumbered is not None:
        echo_lines(f"  (the rule numbered {asked} {when}: `rulesdiff history {asked}` "
                   f"shows every version)", hang="    ")
    if found.section or found.title:
        echo_lines("  " + " > ".join(p for p in (found.section, found.title) if p))
    for paragraph in found.text.split("\n"):
        echo_lines(f"  {paragraph}")
    for n, t in found.subrules:
        first, *more = t.split("\n")  # an example keeps its line, under its rule
        echo_lines(f"    {n} {first}", hang="      ")
        for line in more:
            echo_lines(f"      {line}", hang="      ")


def _renumbered(engine: Any, db: str | None, asked: str, game: str, missing: Any
                ) -> tuple[Any, str]:
    """The rule numbered `asked` in later (or earlier) texts, as it is numbered in the
    document `missing` was looked for in, and whether `asked` is its number "later" or
    "earlier" than that document; None if the trail does not reach it."""
    from comparator.rules.history import UnknownRule, history
    from comparator.rules.store import rule_on

    try:
        trail = reading(db, lambda: history(engine, asked, game))
    except UnknownRule:
        return None, ""
    at = [i for i, v in enumerate(trail.versions) if v.document_id == missing.document_id]
    if not at:
        return None, ""
    there = trail.versions[at[0]]
    named = [i for i, v in enumerate(trail.versions) if asked in v.numbers]
    when = "earlier" if named and max(named) < at[0] else "later"
    return reading(db, lambda: rule_on(engine, there.numbers[0], game=game,
                                        document_id=missing.document_id)), when


@rules_app.command("check", epilog=EXITS["rules_check"])
def rules_check(
    db: DbOption = None,
    as_json: JsonFlag = False,
) -> None:
    """Every rule every era cites, looked up in that era's imported document: the report
    lists those it does not find there (and the eras whose document is not imported)."""
    from comparator.rules.store import citation, cited_words
    from versions import ALL_ERAS

    engine = _rules_store(db)
    report = []
    for era in ALL_ERAS:
        missing, unnumbered, checked = [], [], 0
        document = None
        for key, value in sorted(era.RULES.items()):
            if citation(value).kind == "unnumbered":
                unnumbered.append({"key": key, "cited": value})
                continue
            found = reading(db, lambda era=era, value=value: cited_words(engine, era, value))
            if found is None:
                continue
            checked += 1
            document = document or (found.document if not citation(value).day else None)
            if not found.text:
                missing.append({"key": key, "cited": value, "document": found.document,
                                "effective": found.effective})
        report.append({"era": era.id, "game": era.game, "document": document,
                       "imported": checked > 0, "checked": checked, "missing": missing,
                       "unnumbered": unnumbered})
    if not any(r["imported"] for r in report):
        fail("no era's rules document is imported: `rulesdiff rules import FILE` first")
    bad = any(r["missing"] for r in report)
    if as_json:
        typer.echo(json.dumps({"ok": not bad, "eras": report}, indent=2))
        raise typer.Exit(1 if bad else 0)
    for r in report:
        era = find_era_class(r["era"])
        if not r["imported"] and len(r["unnumbered"]) == len(era.RULES):
            echo_lines(f"{r['era']}: not checked: it cites {era.cr_modelled}, which has no "
                       f"rule numbers for `rules import` to read", hang="  ")
            continue
        if not r["imported"]:
            echo_lines(f"{r['era']}: not checked: {era.cr_modelled} is not imported", hang="  ")
            continue
        echo_lines(f"{r['era']}: {r['checked']} cited rules looked up in {r['document']}: "
              + (f"{len(r['missing'])} not found" if r["missing"] else "all found")
              + (f"; {len(r['unnumbered'])} cited without a number a text can confirm"
                 if r["unnumbered"] else ""), hang="  ")
        for m in r["missing"]:
            echo_lines(f"  {m['key']}: {m['cited']} is not in {m['document']} "
                  f"({m['effective']})", hang="    ")
    raise typer.Exit(1 if bad else 0)


def history(
    rule: Annotated[str, typer.Argument(
        help="a rule's number (510.1c) or an era's rule key (trample)", metavar="RULE")],
    game: GameOption = None,
    db: DbOption = None,
    as_json: JsonFlag = False,
) -> None:
    """A rule through time: each version in the imported documents, oldest first, with
    its date and a word-level diff from the one before; followed across renumberings
    through the eras' own rule tables; gaps between documents said; next to each change,
    the shipped scenarios whose outcome it changes."""
    from comparator.rules.history import UnknownRule, keys_for
    from comparator.rules.history import history as trail
    from versions import GAMES

    which = _game(game)
    try:  # a name that is no rule is said before a missing store is
        keys_for(rule.strip().rstrip("."), GAMES[which])
    except UnknownRule as exc:
        fail(str(exc))
    engine = _rules_store(db)
    try:
        found = reading(db, lambda: trail(engine, rule.strip().rstrip("."), which))
    except UnknownRule as exc:
        fail(str(exc))
    if not found.versions:
        fail(f"{rule}: in none of the {len(found.absent)} imported rules documents of "
             f"{which}" if found.absent else
             f"no rules document of {which} imported: `rulesdiff rules import FILE`")
    if as_json:
        from comparator.text.encoding import shown_json

        typer.echo(shown_json(found.record()))
        return
    _say_history(found, colour=sys.stdout.isatty())


def _say_history(found: Any, colour: bool) -> None:
    followed = f" (followed as {', '.join(found.keys)})" if found.keys else ""
    shown = len({v.document_id for v in found.versions}) + len(found.absent)
    echo_lines(f"{found.asked}{followed}: {len(found.versions)} version(s) in "
               f"{shown} imported document(s)", hang="  ")
    if found.related:
        echo_lines(f"  related keys, each with a trail of its own: "
                   f"{', '.join(found.related)}", hang="    ")
    for v in found.versions:
        typer.echo("")
        if v.gap:
            echo_lines(f"  … {v.gap}", hang="    ")
        era = f", {v.era} era" if v.era else ""
        release = f", {v.release}" if v.release else ""
        of = f" of {v.effective}" if v.effective != v.in_force else ""
        echo_lines(f"{v.in_force}  {v.number}  {v.kind}{of} ({v.document}{release}{era})",
                   hang="  ")
        if v.status in ("first", "look back"):
            came = _when(v.dated).replace(" — ", " — it came ", 1) if v.dated else ""
            label = "  a look back: " if v.status == "look back" else ""
            if label or came:
                echo_lines(f"{label or '  '}{came.removeprefix(' — ') if not label else ''}"
                           .rstrip(), hang="    ")
            if v.evidence and v.status == "look back":
                echo_lines(f"  by {v.evidence}", hang="    ")
            echo_lines(f"  {v.text}", hang="  ")
        else:
            moved = f" from {v.previous_number}" if v.previous_number else ""
            kind = v.status.split(" and ")[0]
            echo_lines(f"  {v.status.replace(kind, kind + moved, 1)}" + _when(v.dated),
                       hang="    ")
            if v.evidence:
                echo_lines(f"  by {v.evidence}", hang="    ")
            if v.words:
                _say_marked(v.words, colour)
                if v.words_unmarked:
                    echo_lines(f"  ({v.words_unmarked})", hang="    ")
            elif v.status in ("split", "merged"):  # which words went where
                for number, words in zip(v.numbers, v.text.split("\n"), strict=False):
                    echo_lines(f"  {number}: {words}", hang="    ")
            if v.references:
                echo_lines(f"  the rules it refers to were renumbered (its words are the "
                           f"same): {', '.join(v.references)}", hang="    ")
        for example in v.examples if v.status in ("first", "look back") else ():
            echo_lines(f"    ({example})", hang="      ")
        if v.scenarios:
            shown = ", ".join(v.scenarios[:8])
            more = f" and {len(v.scenarios) - 8} more" if len(v.scenarios) > 8 else ""
            echo_lines(f"  shipped scenarios whose outcome differs across this change in "
                       f"events that cite the rule: {shown}{more}", hang="    ")
    if found.ended:
        typer.echo("")
        echo_lines(_ended_words(found.ended), hang="  ")
    if found.absent:
        typer.echo("")
        echo_lines("not found in: " + ", ".join(f"{a['document']} ({a['effective']})"
                                                for a in found.absent), hang="  ")


def _ended_words(ended: dict[str, Any]) -> str:
    if ended["status"] != "deleted":
        return f"not found in the imported texts after {ended['after']}"
    said = f"deleted on {ended['on']}" + (f", {ended['release']}" if ended.get("release")
                                          else "")
    if ended.get("era"):
        said += f", when the {ended['era']} rules began"
    if ended.get("between"):
        said += f" (between the imported texts of {ended['between'][0]} and " \
                f"{ended['between'][1]})"
    said += f"; by {ended['evidence']}"
    if ended.get("reused"):
        r = ended["reused"]
        said += (f". {r['number']} of {r['effective']} is another rule: "
                 f"\"{r['text'].split(chr(10))[0]}\"")
    return said


def _when(dated: dict[str, Any] | None) -> str:
    if dated is None:
        return ""
    if "on" not in dated:
        a, b = dated["between"]
        return f" — between {a} and {b}"
    said = f" — {dated['on']}" + (f", {dated['release']}" if dated.get("release") else "")
    if dated.get("era"):
        said += f", when the {dated['era']} rules began"
    if dated.get("between"):
        a, b = dated["between"]
        said += f" (between the imported texts of {a} and {b})"
    return said


def _marked(words: list[dict[str, str]], colour: bool) -> str:
    """A word diff as a terminal shows it: removed words red and struck, added green; as
    [-removed-]{+added+} (git's --word-diff markers) when piped. (Coloured, the words are
    printed by ``_say_marked``, which wraps them before it colours them.)"""
    parts = []
    for w in words:
        if w["op"] == "=":
            parts.append(w["text"])
        elif colour:
            parts.append(typer.style(w["text"], fg="red", strikethrough=True) if w["op"] == "-"
                         else typer.style(w["text"], fg="green", bold=True))
        else:
            parts.append(f"[-{w['text']}-]" if w["op"] == "-" else f"{{+{w['text']}+}}")
    return " ".join(parts)


def _say_marked(words: list[dict[str, str]], colour: bool) -> None:
    """A word diff as a terminal shows it: removed words red and struck, added green; piped,
    as ``_marked``. The words are made safe and wrapped first, then coloured: the colours
    are the only escapes printed, and take no room in the wrapping."""
    if not colour:
        echo_lines("  " + _marked(words, False), hang="  ")
        return
    from comparator.text.terminal import clean, echo_width, masked, wrapped

    texts = [(clean(masked(w["text"])), w["op"]) for w in words]
    plain = " ".join(t for t, _ in texts)
    ops = "".join(op * len(t) + "=" for t, op in texts)  # each character's op
    styles = {"-": {"fg": "red", "strikethrough": True}, "+": {"fg": "green", "bold": True}}
    at = 0
    for line in wrapped(plain, echo_width(), "  ", ""):
        shown = line[2:]
        runs, start = [], 0
        for i in range(1, len(shown) + 1):  # runs of one op, coloured as one
            if i == len(shown) or ops[at + i] != ops[at + start]:
                piece, op = shown[start:i], ops[at + start]
                runs.append(typer.style(piece, **styles[op]) if op in styles and
                            piece.strip() else piece)
                start = i
        typer.echo("  " + "".join(runs), color=True)  # decided: a terminal
        at += len(shown)
        if plain[at:at + 1] == " ":  # the space a line broke at
            at += 1


def _rules_store(db: str | None):  # noqa: ANN202 - an Engine, lazily
    """The store a reading rules command looks in: never made by looking (a missing one is
    an error that says how to fill one)."""
    from comparator.store.database import StoreError, open_engine

    try:
        return open_engine(db, create=False)
    except StoreError as err:
        said = str(err)
        if said.startswith("no database at"):
            said = (said.split(" (")[0] + " (import rules texts into it with `rulesdiff rules "
                    "import FILE --db PATH`, or name it with --db)")
        fail(said)
