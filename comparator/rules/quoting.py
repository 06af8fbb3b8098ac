"""`--quote`: the words of each rule a report cites, from the document of the era that
cites it (`rules import`ed by the user); the number alone where that document has not
been imported, and one line saying how to import it."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Engine

from comparator.rules.document import without_examples
from comparator.rules.store import Found, citation, cited_words

_CITED = re.compile(r"\[([^\[\]]+)\]\s*$")  # a report line ends with its rule: "[510.1c]"


class Quotes:
    def __init__(self, engine: Engine | None) -> None:
        self.engine = engine
        self.found: dict[tuple[str, str], Found | None] = {}
        self.said: set[tuple[str, str]] = set()  # quoted once; later lines cite it bare
        self.unimported: set[str] = set()  # eras whose document is not imported

    def words(self, era_id: str, number: str) -> Found | None:
        """The rule in the era's document; None where that is not imported or has no
        such rule."""
        if (era_id, number) not in self.found:
            from versions import find_era

            era = find_era(era_id)
            found = (cited_words(self.engine, era, number) if self.engine is not None
                     else None)
            if found is None and citation(number).kind != "unnumbered":
                self.unimported.add(era_id)
            self.found[(era_id, number)] = found if found and found.text else None
        return self.found[(era_id, number)]

    def after(self, era_id: str, line: str) -> list[str]:
        """The quotation to print under a report line citing a rule, the first time the
        era cites it."""
        m = _CITED.search(line)
        if m is None or (era_id, m.group(1)) in self.said:
            return []
        self.said.add((era_id, m.group(1)))
        found = self.words(era_id, m.group(1))
        if found is None:
            return []
        words = without_examples(found.text)
        return [f"\u201c{words}\u201d ({found.number}, {found.kind} {found.effective})"]

    def of(self, era_id: str, numbers: list[str]) -> dict[str, Any]:
        """For --json: each number's words in the era's document, or null."""
        out: dict[str, Any] = {}
        for number in numbers:
            found = self.words(era_id, number)
            out[number] = None if found is None else {
                "text": found.text, "document": found.document,
                "effective": found.effective, "kind": found.kind}
        return out

    def footer(self) -> list[str]:
        if not self.unimported:
            return []
        from versions import find_era

        docs = "; ".join(f"{e}: {find_era(e).cr_modelled}" for e in sorted(self.unimported))
        return [f"rules cited by number alone: no imported document of {docs}. Import "
                f"the texts you have with `rulesdiff rules import FILE`"]


def cited(outcome: dict[str, Any]) -> list[str]:
    """The rule numbers an outcome cites, in order, each once."""
    seen: dict[str, None] = {}
    for item in [*outcome.get("events", []), *outcome.get("notes", [])]:
        if item.get("rule"):
            seen.setdefault(str(item["rule"]), None)
    return list(seen)
