"""The rules' own texts in the store (issue 22): `rules import` writes the documents
``comparator.rules_text`` reads; `rules show` finds a rule's words in force on a date or
in an era's document."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from comparator.encoding import hash_of
from comparator.rules_text import RulesText
from comparator.store import RuleDocumentRow, RuleTextRow, now, write


@dataclass
class Found:
    number: str
    effective: str  # the document's date
    document: str  # the file it was imported from
    text: str
    section: str
    title: str
    subrules: list[tuple[str, str]]  # (number, text) of the rules under it


def import_document(engine: Engine, doc: RulesText, name: str, text: str) -> int:
    """Store a document and its rules in one transaction; the number of rules stored (0
    when this very text was imported before)."""
    digest = hash_of(text)

    def work(session: Session) -> int:
        if session.exec(select(RuleDocumentRow).where(
                RuleDocumentRow.content_hash == digest)).first() is not None:
            return 0
        row = RuleDocumentRow(content_hash=digest, effective=doc.effective.isoformat(),
                              name=name, imported=now())
        session.add(row)
        session.flush()
        session.add_all([RuleTextRow(document_id=row.document_id, number=r.number,
                                     text=r.text, section=r.section, title=r.title)
                         for r in doc.rules.values()])
        return len(doc.rules)

    result: int = write(engine, work)
    return result


def documents(engine: Engine) -> list[dict[str, Any]]:
    with Session(engine) as session:
        rows = session.exec(select(RuleDocumentRow).order_by(
            col(RuleDocumentRow.effective))).all()
        return [{"effective": r.effective, "name": r.name} for r in rows]


def rule_on(engine: Engine, number: str, day: str | None = None,
            between: tuple[str, str | None, str] | None = None) -> Found | None:
    """The rule `number` in the document in force on `day` (the newest effective on or
    before it), or, with `between` (began, ended, cited date: an era), in the era's own
    document: of those effective while the era was, the nearest to the date it cites."""
    with Session(engine) as session:
        docs = session.exec(select(RuleDocumentRow).order_by(
            col(RuleDocumentRow.effective))).all()
        if between is not None:
            began, ended, cited = between
            during = [d for d in docs if began <= d.effective <= (ended or "9999")]
            doc = min(during, key=lambda d: abs(_days(d.effective) - _days(cited)),
                      default=None)
        else:
            before = [d for d in docs if day is None or d.effective <= day]
            doc = before[-1] if before else None
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
                     subrules)


def _days(iso: str) -> int:
    from datetime import date

    return date.fromisoformat(iso).toordinal()
