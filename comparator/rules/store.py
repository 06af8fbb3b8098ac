"""The rules' own texts in the store: `rules import` writes the documents
``comparator.rules.reading`` reads; `rules show` finds a rule's words (or a glossary entry) in
force on a date or in an era's document; `history` reads one rule's versions in every
document at once.

Documents are ordered by when their rules were in force: a Fifth Edition rulings summary
before every Comprehensive Rules text (its rules are those the first CR, of 1999-04-23,
replaced), then by the date each says it is effective."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from comparator.rules.document import JA_CR, SUMMARY, RulesText
from comparator.store.database import write
from comparator.store.schema import GlossaryRow, RuleDocumentRow, RuleTextRow, now
from comparator.text.encoding import hash_of


@dataclass
class Found:
    number: str
    effective: str  # the document's date
    document: str  # the file it was imported from
    text: str
    section: str
    title: str
    subrules: list[tuple[str, str]]  # (number, text) of the rules under it
    kind: str = "Comprehensive Rules"
    document_id: int = 0


@dataclass(frozen=True)
class Placed:
    """Where a document stands among releases: its release's name, the archive it was
    imported from and its place there (None for a text imported on its own)."""

    release: str | None = None
    archive: str | None = None
    position: int | None = None


def import_document(engine: Engine, doc: RulesText, name: str, text: str,
                    placed: Placed | None = None) -> tuple[int, str | None]:
    """Store a document and its rules in one transaction: the number of rules stored (0
    when this very text was imported before), and the date it had before if that import
    gave it another (a copy dated by --date, dated again)."""
    return import_documents(engine, [(doc, name, text, placed or Placed())])[0]


def import_documents(engine: Engine, items: list[tuple[RulesText, str, str, Placed]],
                     progress: Callable[[int, str], None] | None = None
                     ) -> list[tuple[int, str | None]]:
    """Several documents in one transaction (an archive: all of it or nothing), each as
    ``import_document`` stores it. A text imported before, or another of the same kind
    effective the same day (the same release in another form), keeps the rules stored
    first; where it comes again from an archive, it takes the release's name and place.
    `progress` is told how many are stored so far and the name of the one being stored
    (from the first again, if the transaction is retried)."""
    from sqlalchemy import insert

    def work(session: Session) -> list[tuple[int, str | None]]:
        out: list[tuple[int, str | None]] = []
        for doc, name, text, placed in items:
            if progress is not None:
                progress(len(out), name)
            digest = hash_of(text)
            before = session.exec(select(RuleDocumentRow).where(
                RuleDocumentRow.content_hash == digest)).first()
            if before is None:
                # The same release in another form (the archive's normalized text of a
                # published one): one document, so no trail shows a change within a release.
                before = session.exec(select(RuleDocumentRow).where(
                    RuleDocumentRow.game == doc.game, RuleDocumentRow.kind == doc.kind,
                    RuleDocumentRow.effective == doc.effective.isoformat())).first()
            if before is not None:
                was = None
                if before.effective != doc.effective.isoformat():
                    was, before.effective = before.effective, doc.effective.isoformat()
                if placed.archive is not None:
                    before.release, before.archive = placed.release, placed.archive
                    before.position = placed.position
                session.add(before)
                out.append((0, was))
                continue
            row = RuleDocumentRow(content_hash=digest, effective=doc.effective.isoformat(),
                                  name=name, imported=now(), game=doc.game, kind=doc.kind,
                                  release=placed.release, archive=placed.archive,
                                  position=placed.position)
            session.add(row)
            session.flush()
            # Core inserts, many rows a statement: an archive is 300,000 rules.
            if doc.rules:
                session.execute(insert(RuleTextRow), [
                    {"document_id": row.document_id, "number": r.number, "text": r.text,
                     "section": r.section, "title": r.title} for r in doc.rules.values()])
            if doc.glossary:
                session.execute(insert(GlossaryRow), [
                    {"document_id": row.document_id, "term": term, "text": words}
                    for term, words in doc.glossary.items()])
            out.append((len(doc.rules), None))
        if progress is not None:
            progress(len(out), "")
        return out

    result: list[tuple[int, str | None]] = write(engine, work)
    return result


def in_order(docs: list[RuleDocumentRow]) -> list[RuleDocumentRow]:
    """Oldest rules first: a rulings summary before the Comprehensive Rules."""
    return sorted(docs, key=lambda d: (d.kind != SUMMARY, d.effective, d.document_id or 0))


def documents(engine: Engine, game: str | None = None, japanese: bool = False
              ) -> list[RuleDocumentRow]:
    """The imported documents of `game` (or every game's), oldest first: Magic's English
    texts and the rest; with `japanese`, only the Japanese texts of Magic's rules
    (総合ルール), which are never taken for the English."""
    with Session(engine) as session:
        rows = session.exec(select(RuleDocumentRow)).all()
        return in_order([r for r in rows if (game is None or r.game == game)
                         and (r.kind == JA_CR) == japanese])


def japanese_document(engine: Engine, game: str, effective: str
                      ) -> RuleDocumentRow | None:
    """The Japanese text (総合ルール) of the document of `game` effective that day, where
    one is imported."""
    return next((d for d in documents(engine, game, japanese=True)
                 if d.effective == effective), None)


def own_dates(era: Any) -> tuple[str, ...]:
    """The dates an era's own document carries: its date, and the date it says it is
    effective as of where that differs. Only that document numbers the rules as the era's
    table does: another text of its years may have renumbered them."""
    return tuple(d for d in (era.cr_date, era.cr_effective) if d)


def document_on(docs: list[RuleDocumentRow], day: str | None = None,
                own: tuple[str, ...] | None = None) -> RuleDocumentRow | None:
    """The document in force on `day` (the newest effective on or before it; a rulings
    summary before the first CR), or, with `own` (an era's ``own_dates``), the era's own
    document, if it is imported."""
    docs = in_order(docs)
    if own is not None:
        return next((d for d in docs if d.effective in own), None)
    before = [d for d in docs if day is None or d.kind == SUMMARY or d.effective <= day]
    return before[-1] if before else None


def rule_on(engine: Engine, number: str, day: str | None = None,
            own: tuple[str, ...] | None = None, game: str = "mtg",
            document_id: int | None = None, japanese: bool = False) -> Found | None:
    """The rule `number` in the document in force on `day`, or in an era's own (see
    ``document_on``), or in the document `document_id`; None without such a document, a
    Found without text where it has no such rule. With `japanese`, its words in the
    Japanese text of that document where one of the same date is imported and has the
    rule (an excerpt may not); else the English (its `kind` says which was found)."""
    with Session(engine) as session:
        docs = documents(engine, game)
        doc = next((d for d in docs if d.document_id == document_id), None) \
            if document_id is not None else document_on(docs, day, own)
        if doc is None:
            return None
        rule = None
        if japanese and document_id is None:
            # The Japanese text of the document in force then, where one is imported.
            translated = japanese_document(engine, game, doc.effective)
            if translated is not None:
                rule = session.exec(select(RuleTextRow).where(
                    RuleTextRow.document_id == translated.document_id,
                    RuleTextRow.number == number)).first()
                doc = translated if rule is not None else doc
        rule = rule or session.exec(select(RuleTextRow).where(
            RuleTextRow.document_id == doc.document_id,
            RuleTextRow.number == number)).first()
        if rule is None:
            return Found(number, doc.effective, doc.name, "", "", "", [], doc.kind,
                         doc.document_id or 0)
        under = session.exec(select(RuleTextRow).where(
            RuleTextRow.document_id == doc.document_id,
            col(RuleTextRow.number).like(f"{number}%"), RuleTextRow.number != number)
            .order_by(col(RuleTextRow.rule_id))).all()
        subrules = [(r.number, r.text) for r in under
                    if r.number[len(number):].isalpha()]  # 510.1 -> 510.1a, not 510.10
        return Found(number, doc.effective, doc.name, rule.text, rule.section, rule.title,
                     subrules, doc.kind, doc.document_id or 0)


def glossary_on(engine: Engine, term: str, day: str | None = None,
                own: tuple[str, ...] | None = None, game: str = "mtg") -> Found | None:
    """A glossary entry (any case) in the document `rule_on` would read."""
    with Session(engine) as session:
        doc = document_on(documents(engine, game), day, own)
        if doc is None:
            return None
        rows = session.exec(select(GlossaryRow).where(
            GlossaryRow.document_id == doc.document_id)).all()
        entry = next((r for r in rows if r.term.lower() == term.lower()), None)
        return Found(entry.term if entry else term, doc.effective, doc.name,
                     entry.text if entry else "", "Glossary", "", [], doc.kind,
                     doc.document_id or 0)


def rules_numbered(engine: Engine, document_ids: list[int], numbers: set[str]
                   ) -> dict[tuple[int, str], tuple[str, str]]:
    """The words and title of each of `numbers` in each of the documents, where it has it:
    (document id, number) -> (text, title). One query."""
    if not numbers or not document_ids:
        return {}
    with Session(engine) as session:
        rows = session.exec(select(RuleTextRow.document_id, RuleTextRow.number,
                                   RuleTextRow.text, RuleTextRow.title).where(
            col(RuleTextRow.document_id).in_(document_ids),
            col(RuleTextRow.number).in_(sorted(numbers)))).all()
    return {(d, n): (text, title) for d, n, text, title in rows}


def rules_under(engine: Engine, document_id: int, heading: str
                ) -> dict[tuple[int, str], tuple[str, str]]:
    """Every rule of one document under a heading ("510.", "A.27."), as
    ``rules_numbered`` gives them."""
    with Session(engine) as session:
        rows = session.exec(select(RuleTextRow.number, RuleTextRow.text,
                                   RuleTextRow.title).where(
            RuleTextRow.document_id == document_id, *_from(heading))).all()
    return {(document_id, n): (text, title) for n, text, title in rows}


def rules_starting(engine: Engine, document_ids: list[int], prefix: str
                   ) -> dict[tuple[int, str], tuple[str, str]]:
    """Every rule numbered from `prefix` ("702.13": 702.13a, 702.13b ...) in each of the
    documents, as ``rules_numbered`` gives them. One query."""
    if not document_ids:
        return {}
    with Session(engine) as session:
        rows = session.exec(select(RuleTextRow.document_id, RuleTextRow.number,
                                   RuleTextRow.text, RuleTextRow.title).where(
            col(RuleTextRow.document_id).in_(document_ids), *_from(prefix))).all()
    return {(d, n): (text, title) for d, n, text, title in rows}


def _from(prefix: str) -> tuple[Any, ...]:
    """Numbers starting with `prefix`, as a range of the (document, number) index: a LIKE
    reads every rule of the documents, tens of times slower over an archive."""
    if not prefix:
        return ()
    number = col(RuleTextRow.number)
    return number >= prefix, number < prefix[:-1] + chr(ord(prefix[-1]) + 1)


@dataclass
class Citation:
    """What an era's RULES value names: a rule ("510.1c"), a rule of another document
    ("702.90c (CR 2022-04-29)"), a glossary entry ("Glossary: Indestructible"), or
    nothing a text can confirm ("(number not in the sources)")."""

    kind: str  # "rule", "glossary" or "unnumbered"
    name: str  # the number, or the glossary term
    day: str | None = None  # the document it is in, where not the era's own


_OTHER_DOCUMENT = re.compile(r"^(\S+) \(CR (\d{4}-\d\d-\d\d)\)$")
_PLAIN_NUMBER = re.compile(r"^(\d{3}\.\d+[a-z]?|[A-Z]\.\d+(\.(Rulings?\.)?\d+|\.Note)(#\d+)?)$")


def citation(value: str) -> Citation:
    if value.startswith("Glossary: "):
        return Citation("glossary", value.removeprefix("Glossary: "))
    if m := _OTHER_DOCUMENT.match(value):
        return Citation("rule", m.group(1), m.group(2))
    if _PLAIN_NUMBER.match(value):
        return Citation("rule", value)
    return Citation("unnumbered", value)


def cited_words(engine: Engine, era: Any, value: str, japanese: bool = False
                ) -> Found | None:
    """What an era's citation `value` says in the era's document (or the one it names):
    None where that document is not imported; a Found without text where it has no such
    rule or entry; None too for a citation without a number. With `japanese`, a rule's
    words in the Japanese text of that document where one of its date is imported (as
    ``rule_on`` reads them: the Found's `kind` says which)."""
    c = citation(value)
    if c.kind == "unnumbered":
        return None
    # A citation naming its document ("(CR 2022-04-29)") is read in that one only.
    own = (c.day,) if c.day else own_dates(era)
    if c.kind == "glossary":
        return glossary_on(engine, c.name, None, own, era.game)
    return rule_on(engine, c.name, None, own, era.game, japanese=japanese)


def era_words(engine: Engine, era: Any, values: list[str]) -> tuple[str | None,
                                                                    dict[str, Found]]:
    """Many citations of one era at once (a site's worth): the era's document, if
    imported, and each citation's words found in it (or in the document it names)."""
    doc = document_on(documents(engine, era.game), own=own_dates(era))
    plain = [v for v in values if citation(v).kind == "rule" and not citation(v).day]
    found: dict[str, Found] = {}
    if doc is not None and plain:
        with Session(engine) as session:
            rows = session.exec(select(RuleTextRow).where(
                RuleTextRow.document_id == doc.document_id,
                col(RuleTextRow.number).in_(sorted(set(plain))))).all()
        for r in rows:
            found[r.number] = Found(r.number, doc.effective, doc.name, r.text, r.section,
                                    r.title, [], doc.kind, doc.document_id or 0)
    for value in values:
        if value not in plain and citation(value).kind != "unnumbered":
            other = cited_words(engine, era, value)
            if other is not None and other.text:
                found[value] = other
    return (doc.name if doc else None), found
