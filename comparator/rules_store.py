"""The rules' own texts in the store: `rules import` writes the documents
``comparator.rules_text`` reads; `rules show` finds a rule's words (or a glossary entry) in
force on a date or in an era's document; `history` reads one rule's versions in every
document at once.

Documents are ordered by when their rules were in force: a Fifth Edition rulings summary
before every Comprehensive Rules text (its rules are those the first CR, of 1999-04-23,
replaced), then by the date each says it is effective."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, or_, select

from comparator.encoding import hash_of
from comparator.rules_document import SUMMARY, RulesText
from comparator.store import GlossaryRow, RuleDocumentRow, RuleTextRow, now, write


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


def import_document(engine: Engine, doc: RulesText, name: str, text: str) -> int:
    """Store a document and its rules in one transaction; the number of rules stored (0
    when this very text was imported before)."""
    digest = hash_of(text)

    def work(session: Session) -> int:
        if session.exec(select(RuleDocumentRow).where(
                RuleDocumentRow.content_hash == digest)).first() is not None:
            return 0
        row = RuleDocumentRow(content_hash=digest, effective=doc.effective.isoformat(),
                              name=name, imported=now(), game=doc.game, kind=doc.kind)
        session.add(row)
        session.flush()
        session.add_all([RuleTextRow(document_id=row.document_id, number=r.number,
                                     text=r.text, section=r.section, title=r.title)
                         for r in doc.rules.values()])
        session.add_all([GlossaryRow(document_id=row.document_id, term=term, text=words)
                         for term, words in doc.glossary.items()])
        return len(doc.rules)

    result: int = write(engine, work)
    return result


def in_order(docs: list[RuleDocumentRow]) -> list[RuleDocumentRow]:
    """Oldest rules first: a rulings summary before the Comprehensive Rules."""
    return sorted(docs, key=lambda d: (d.kind != SUMMARY, d.effective, d.document_id or 0))


def documents(engine: Engine, game: str | None = None) -> list[RuleDocumentRow]:
    with Session(engine) as session:
        rows = session.exec(select(RuleDocumentRow)).all()
        return in_order([r for r in rows if game is None or r.game == game])


def document_on(docs: list[RuleDocumentRow], day: str | None = None,
                between: tuple[str, str | None, str] | None = None
                ) -> RuleDocumentRow | None:
    """The document in force on `day` (the newest effective on or before it; a rulings
    summary before the first CR), or, with `between` (began, ended, cited date: an era),
    the era's own: the one of the date it cites, else the nearest of those effective
    while the era was."""
    docs = in_order(docs)
    if between is not None:
        began, ended, cited = between
        during = [d for d in docs if d.effective == cited
                  or began <= d.effective <= (ended or "9999")]
        return min(during, key=lambda d: abs(_days(d.effective) - _days(cited)),
                   default=None)
    before = [d for d in docs if day is None or d.kind == SUMMARY or d.effective <= day]
    return before[-1] if before else None


def rule_on(engine: Engine, number: str, day: str | None = None,
            between: tuple[str, str | None, str] | None = None,
            game: str = "mtg") -> Found | None:
    """The rule `number` in the document in force on `day`, or in an era's (see
    ``document_on``); None without such a document, a Found without text where it has no
    such rule."""
    with Session(engine) as session:
        doc = document_on(documents(engine, game), day, between)
        if doc is None:
            return None
        rule = session.exec(select(RuleTextRow).where(
            RuleTextRow.document_id == doc.document_id,
            RuleTextRow.number == number)).first()
        if rule is None:
            return Found(number, doc.effective, doc.name, "", "", "", [])
        under = session.exec(select(RuleTextRow).where(
            RuleTextRow.document_id == doc.document_id,
            col(RuleTextRow.number).like(f"{number}%"), RuleTextRow.number != number)
            .order_by(col(RuleTextRow.rule_id))).all()
        subrules = [(r.number, r.text) for r in under
                    if r.number[len(number):].isalpha()]  # 510.1 -> 510.1a, not 510.10
        return Found(number, doc.effective, doc.name, rule.text, rule.section, rule.title,
                     subrules, doc.kind)


def glossary_on(engine: Engine, term: str, day: str | None = None,
                between: tuple[str, str | None, str] | None = None,
                game: str = "mtg") -> Found | None:
    """A glossary entry (any case) in the document `rule_on` would read."""
    with Session(engine) as session:
        doc = document_on(documents(engine, game), day, between)
        if doc is None:
            return None
        rows = session.exec(select(GlossaryRow).where(
            GlossaryRow.document_id == doc.document_id)).all()
        entry = next((r for r in rows if r.term.lower() == term.lower()), None)
        return Found(entry.term if entry else term, doc.effective, doc.name,
                     entry.text if entry else "", "Glossary", "", [], doc.kind)


def texts(engine: Engine, game: str, headings: set[str]
          ) -> tuple[list[RuleDocumentRow], dict[tuple[int, str], tuple[str, str]]]:
    """Every document of `game`, oldest rules first, and the words and title of each rule
    under `headings` ("510.", "A.27.") in each: (document id, number) -> (text, title).
    One query."""
    docs = documents(engine, game)
    with Session(engine) as session:
        rows = session.exec(select(RuleTextRow).where(or_(*[
            col(RuleTextRow.number).startswith(h, autoescape=True)
            for h in sorted(headings)]))).all() if headings else []
    ids = {d.document_id for d in docs}
    return docs, {(r.document_id, r.number): (r.text, r.title) for r in rows
                  if r.document_id in ids}


def _days(iso: str) -> int:
    from datetime import date

    return date.fromisoformat(iso).toordinal()


@dataclass
class Citation:
    """What an era's RULES value names: a rule ("510.1c"), a rule of another document
    ("702.90c (CR 2022-04-29)"), a glossary entry ("Glossary: Indestructible"), or
    nothing a text can confirm ("(number not in the sources)")."""

    kind: str  # "rule", "glossary" or "unnumbered"
    name: str  # the number, or the glossary term
    day: str | None = None  # the document it is in, where not the era's own


_OTHER_DOCUMENT = re.compile(r"^(\S+) \(CR (\d{4}-\d\d-\d\d)\)$")
_PLAIN_NUMBER = re.compile(r"^(\d{3}\.\d+[a-z]?|[A-Z]\.\d+\.(Rulings?\.)?\d+(#\d+)?)$")


def citation(value: str) -> Citation:
    if value.startswith("Glossary: "):
        return Citation("glossary", value.removeprefix("Glossary: "))
    if m := _OTHER_DOCUMENT.match(value):
        return Citation("rule", m.group(1), m.group(2))
    if _PLAIN_NUMBER.match(value):
        return Citation("rule", value)
    return Citation("unnumbered", value)


def cited_words(engine: Engine, era: Any, value: str) -> Found | None:
    """What an era's citation `value` says in the era's document (or the one it names):
    None where that document is not imported; a Found without text where it has no such
    rule or entry; None too for a citation without a number."""
    c = citation(value)
    if c.kind == "unnumbered":
        return None
    between = None if c.day else (era.began, era.ended, era.cr_date)
    find = glossary_on if c.kind == "glossary" else rule_on
    return find(engine, c.name, c.day, between, era.game)


def era_words(engine: Engine, era: Any, values: list[str]) -> tuple[str | None,
                                                                    dict[str, Found]]:
    """Many citations of one era at once (a site's worth): the era's document, if
    imported, and each citation's words found in it (or in the document it names)."""
    doc = document_on(documents(engine, era.game),
                      between=(era.began, era.ended, era.cr_date))
    plain = [v for v in values if citation(v).kind == "rule" and not citation(v).day]
    found: dict[str, Found] = {}
    if doc is not None and plain:
        with Session(engine) as session:
            rows = session.exec(select(RuleTextRow).where(
                RuleTextRow.document_id == doc.document_id,
                col(RuleTextRow.number).in_(sorted(set(plain))))).all()
        for r in rows:
            found[r.number] = Found(r.number, doc.effective, doc.name, r.text, r.section,
                                    r.title, [], doc.kind)
    for value in values:
        if value not in plain and citation(value).kind != "unnumbered":
            other = cited_words(engine, era, value)
            if other is not None and other.text:
                found[value] = other
    return (doc.name if doc else None), found
