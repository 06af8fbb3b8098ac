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
from comparator.text.language import N_

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
    lang: LangOption = None,
) -> None:
    """Store each rules text: its date read from the document itself, each numbered rule
    with the headings above it, its glossary. An archive's texts (a folder, or --git) are
    stored with their releases' names, all or none. Importing the same text again stores
    nothing; every file is read and checked before anything is written."""
    from functools import partial

    from comparator.rules.spoken import said
    from comparator.rules.store import import_documents
    from comparator.text.language import _

    speak(lang)
    if not files and git is None:
        fail("rules import: name rules text files, a folder of them, or --git REPO")
    day = _day(dated)
    with Bar(bars_shown(as_json)) as bar:
        read = _read_texts(files or [], git, file, day, bar)
        engine = open_store(db)
        row = bar.task(_("storing {n} rules text(s)").format(n=len(read)), total=len(read))
        stored = writing(partial(import_documents, engine, [
            (doc, Path(name).name if placed.archive is None else name, text, placed)
            for name, text, doc, placed in read],
            lambda done, name: bar.update(row, completed=done, item=name)))
    for (name, _text, doc, placed), (n, was) in zip(read, stored, strict=True):
        for warning in doc.warnings:
            echo_lines(_("{name}: {warning}").format(name=name, warning=said(warning)),
                       err=True)
        if not as_json:
            release = _(" ({release})").format(release=placed.release) if placed.release \
                else ""
            values = {"name": name, "kind": doc.kind, "effective": doc.effective,
                      "release": release, "rules": n, "glossary": len(doc.glossary),
                      "was": was}
            echo_lines((_("{name}: {kind} effective {effective}{release}: {rules} rules and "
                          "{glossary} glossary entries stored") if n
                        else _("{name}: {kind} effective {effective}{release}: imported "
                               "before as effective {was}: its date is now {effective}")
                        if was else
                        _("{name}: {kind} effective {effective}{release}: imported before, "
                          "nothing new")).format(**values))
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
    from comparator.text.language import _

    given = date.fromisoformat(day) if day else None
    out = []
    folders = {p for p in paths if _is_folder(p)}
    # Listing an archive reads every text of it (git's history at once), before any
    # release can be counted: a row of its own.
    listing = bar.task(_("listing the archive's releases")) if git or folders else None
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
        row = bar.task(_("reading {n} releases of {archive}").format(
            n=len(releases), archive=archive), total=len(releases))
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
    row = bar.task(_("reading {n} rules text(s)").format(n=len(files)), total=len(files)) \
        if files else None
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

    from comparator.rules.document import JAPANESE_KINDS
    from comparator.rules.store import (
        _PLAIN_NUMBER,
        glossary_on,
        japanese_document,
        own_dates,
        rule_on,
    )
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
    if japanese and is_rule and which == "mtg" and found.kind not in JAPANESE_KINDS:
        translated = reading(db, lambda: japanese_document(engine, which, found.effective))
        echo_lines("  " + (_("(no Japanese text of these rules is imported: the English "
                             "words, as imported)") if translated is None else
                           _("(the Japanese text of these rules imported ({document}) has "
                             "no {number}: the English words, as imported)").format(
                               document=translated.name, number=found.number)),
                   hang="    ")
    if renumbered is not None:
        echo_lines("  " + (_("(the rule numbered {asked} earlier: `rulesdiff history "
                             "{asked}` shows every version)") if when == "earlier" else
                           _("(the rule numbered {asked} later: `rulesdiff history "
                             "{asked}` shows every version)")).format(asked=asked),
                   hang="    ")
    section = _("Glossary") if found.section == "Glossary" and not is_rule else found.section
    if section or found.title:
        echo_lines("  " + " > ".join(p for p in (section, found.title) if p))
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
    lang: LangOption = None,
) -> None:
    """Every rule every era cites, looked up in that era's imported document: the report
    lists those it does not find there (and the eras whose document is not imported)."""
    from comparator.rules.store import citation, cited_words
    from comparator.text.language import _
    from versions import ALL_ERAS

    speak(lang)
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
            echo_lines(_("{era}: not checked: it cites {document}, which has no rule numbers "
                         "for `rules import` to read").format(era=r["era"],
                                                              document=era.cr_modelled),
                       hang="  ")
            continue
        if not r["imported"]:
            echo_lines(_("{era}: not checked: {document} is not imported").format(
                era=r["era"], document=era.cr_modelled), hang="  ")
            continue
        echo_lines(_("{era}: {n} cited rules looked up in {document}: ").format(
                       era=r["era"], n=r["checked"], document=r["document"])
                   + (_("{n} not found").format(n=len(r["missing"])) if r["missing"]
                      else _("all found"))
                   + (_("; {n} cited without a number a text can confirm").format(
                       n=len(r["unnumbered"])) if r["unnumbered"] else ""), hang="  ")
        for m in r["missing"]:
            echo_lines("  " + _("{key}: {cited} is not in {document} ({effective})").format(
                key=m["key"], cited=m["cited"], document=m["document"],
                effective=m["effective"]), hang="    ")
    raise typer.Exit(1 if bad else 0)


def history(
    rule: Annotated[str, typer.Argument(
        help="a rule's number (510.1c) or an era's rule key (trample)", metavar="RULE")],
    game: GameOption = None,
    db: DbOption = None,
    as_json: JsonFlag = False,
    lang: LangOption = None,
) -> None:
    """A rule through time: each version in the imported documents, oldest first, with
    its date and a word-level diff from the one before; followed across renumberings
    through the eras' own rule tables; gaps between documents said; next to each change,
    the shipped scenarios whose outcome it changes. With --lang ja, a version's words in
    the Japanese text (総合ルール) of its date where one is imported."""
    from comparator.rules.history import UnknownRule, in_japanese, keys_for
    from comparator.rules.history import history as trail
    from comparator.text.language import current
    from versions import GAMES

    speak(lang)
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
    # Magic's rules have Japanese texts beside the English (Duel Masters' are Japanese).
    japanese = reading(db, lambda: in_japanese(engine, found)) \
        if current() == "ja" and which == "mtg" else None
    _say_history(found, colour=sys.stdout.isatty(), japanese=japanese)


# A version's status, as `history` says it (a number it had before, where it moved).
_STATUS = {
    "unchanged": (N_("unchanged"), None),
    "changed": (N_("changed"), None),
    "renumbered": (N_("renumbered"), N_("renumbered from {previous}")),
    "renumbered and changed": (N_("renumbered and changed"),
                               N_("renumbered from {previous} and changed")),
    "split": (N_("split"), N_("split from {previous}")),
    "split and changed": (N_("split and changed"), N_("split from {previous} and changed")),
    "merged": (N_("merged"), N_("merged from {previous}")),
    "merged and changed": (N_("merged and changed"), N_("merged from {previous} and changed")),
    "replaced": (N_("replaced"), N_("replaced from {previous}")),
}


def _status(v: Any) -> str:
    from comparator.text.language import _

    plain, moved = _STATUS.get(v.status, (None, None))
    if plain is None:  # a status this does not know: as recorded
        return str(v.status) + (f" from {v.previous_number}" if v.previous_number else "")
    if v.previous_number and moved:
        return _(moved).format(previous=v.previous_number)
    return _(plain)


def _say_history(found: Any, colour: bool, japanese: dict[int, Any] | None = None) -> None:
    """The trail as a terminal shows it. `japanese`, under --lang ja: the Japanese words
    of the versions (by their place in the trail) whose date has a Japanese text, shown
    instead of the English; the others' English, and a line that says so."""
    from comparator.rules.spoken import said
    from comparator.text.language import _

    followed = _(" (followed as {keys})").format(keys=", ".join(found.keys)) \
        if found.keys else ""
    shown = len({v.document_id for v in found.versions}) + len(found.absent)
    echo_lines(_("{asked}{followed}: {n} version(s) in {documents} imported document(s)"
                 ).format(asked=found.asked, followed=followed, n=len(found.versions),
                          documents=shown), hang="  ")
    if found.related:
        echo_lines("  " + _("related keys, each with a trail of its own: {keys}").format(
            keys=", ".join(found.related)), hang="    ")
    if japanese is not None and len(japanese) < len(found.versions):
        dates = sorted({found.versions[i].effective for i in japanese})
        echo_lines("  " + (_("(the Japanese words are shown for the versions of {dates}, "
                             "whose Japanese text (総合ルール) is imported; the others' in "
                             "English: no Japanese text of their dates is imported)").format(
                               dates=", ".join(dates)) if dates else
                           _("(no Japanese text (総合ルール) of these versions' dates is "
                             "imported: their English words are shown)")), hang="    ")
    for i, v in enumerate(found.versions):
        ja = (japanese or {}).get(i)
        typer.echo("")
        if v.gap:
            echo_lines(f"  … {said(v.gap)}", hang="    ")
        era = _(", {era} era").format(era=v.era) if v.era else ""
        release = _(", {release}").format(release=v.release) if v.release else ""
        of = _(" of {effective}").format(effective=v.effective) \
            if v.effective != v.in_force else ""
        echo_lines(_("{in_force}  {number}  {kind}{of} ({document}{release}{era})").format(
            in_force=v.in_force, number=v.number, kind=v.kind, of=of, document=v.document,
            release=release, era=era), hang="  ")
        if v.status in ("first", "look back"):
            came = _("it came {when}").format(when=_when(v.dated)) if v.dated else ""
            if v.status == "look back":
                echo_lines("  " + _("a look back:"), hang="    ")
            elif came:
                echo_lines(f"  {came}", hang="    ")
            if v.evidence and v.status == "look back":
                echo_lines("  " + _("by {evidence}").format(evidence=said(v.evidence)),
                           hang="    ")
            if ja is None:
                echo_lines(f"  {v.text}", hang="  ")
        else:
            when = _when(v.dated)
            echo_lines("  " + (_("{status} — {when}").format(status=_status(v), when=when)
                               if when else _status(v)), hang="    ")
            if v.evidence:
                echo_lines("  " + _("by {evidence}").format(evidence=said(v.evidence)),
                           hang="    ")
            if ja is None and v.words:  # a Japanese text's words are said below
                _say_marked(v.words, colour)
                if v.words_unmarked:
                    echo_lines(f"  ({said(v.words_unmarked)})", hang="    ")
            elif ja is None and v.status in ("split", "merged"):  # which words went where
                for number, words in zip(v.numbers, v.text.split("\n"), strict=False):
                    echo_lines(f"  {number}: {words}", hang="    ")
            if v.references:
                echo_lines("  " + _("the rules it refers to were renumbered (its words are "
                                    "the same): {references}").format(
                                        references=", ".join(v.references)), hang="    ")
        if ja is not None:
            _say_japanese(v, ja)
        examples = ja.examples if ja is not None else v.examples
        for example in examples if v.status in ("first", "look back") else ():
            echo_lines("    " + _("({example})").format(example=example), hang="      ")
        if v.scenarios:
            more = _(" and {n} more").format(n=len(v.scenarios) - 8) \
                if len(v.scenarios) > 8 else ""
            echo_lines("  " + _("shipped scenarios whose outcome differs across this change "
                                "in events that cite the rule: {scenarios}{more}").format(
                                    scenarios=", ".join(v.scenarios[:8]), more=more),
                       hang="    ")
    if found.ended:
        typer.echo("")
        echo_lines(_ended_words(found.ended), hang="  ")
    if found.absent:
        typer.echo("")
        echo_lines(_("not found in: {documents}").format(documents=", ".join(
            f"{a['document']} ({a['effective']})" for a in found.absent)), hang="  ")


def _say_japanese(v: Any, ja: Any) -> None:
    """A version's words in its Japanese text (each number's, where it is split or
    merged), under a line naming that text."""
    from comparator.text.language import _

    echo_lines("  " + _("Japanese text: {kind} ({document})").format(
        kind=ja.kind, document=ja.document), hang="    ")
    if len(ja.words) > 1:
        for number, words in ja.words:
            echo_lines(f"  {number}: {words}", hang="    ")
    else:
        for line in ja.words[0][1].split("\n"):
            echo_lines(f"  {line}", hang="  ")


def _ended_words(ended: dict[str, Any]) -> str:
    from comparator.rules.spoken import said
    from comparator.text.language import _

    if ended["status"] != "deleted":
        return _("not found in the imported texts after {after}").format(after=ended["after"])
    when = _dated_words(ended["on"], ended)
    out = _("deleted on {when}; by {evidence}").format(when=when,
                                                       evidence=said(ended["evidence"]))
    if ended.get("reused"):
        r = ended["reused"]
        out += _(". {number} of {effective} is another rule: \"{text}\"").format(
            number=r["number"], effective=r["effective"], text=r["text"].split(chr(10))[0])
    return out


def _when(dated: dict[str, Any] | None) -> str:
    """When a change came, as history dates it; "" where it does not."""
    from comparator.text.language import _

    if dated is None:
        return ""
    if "on" not in dated:
        a, b = dated["between"]
        return _("between {since} and {until}").format(since=a, until=b)
    return _dated_words(dated["on"], dated)


def _dated_words(on: str, dated: dict[str, Any]) -> str:
    """A day, with the release that made the change, the era that began then, and the two
    imported texts it falls between, where history knows them."""
    from comparator.text.language import _

    said = on + (_(", {release}").format(release=dated["release"]) if dated.get("release")
                 else "")
    if dated.get("era"):
        said += _(", when the {era} rules began").format(era=dated["era"])
    if dated.get("between"):
        a, b = dated["between"]
        said += _(" (between the imported texts of {since} and {until})").format(
            since=a, until=b)
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
