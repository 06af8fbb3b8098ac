"""`--quote`: the words of each rule a report cites, from the document of the era that
cites it (`rules import`ed by the user); the number alone where that document has not
been imported, and one line saying how to import it. Under `--lang ja`, a rule of Magic
is quoted from the Japanese text (総合ルール) of that document where one of its date is
imported and has the rule, else in English, and a line under the report says which
documents were quoted in English; `--json`'s quotations are the English, in every
language."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Engine

from comparator.rules.document import JAPANESE_KINDS, without_examples
from comparator.rules.store import Found, citation, cited_words
from comparator.text.language import _, current

_CITED = re.compile(r"\[([^\[\]]+)\]\s*$")  # a report line ends with its rule: "[510.1c]"


class Quotes:
    def __init__(self, engine: Engine | None) -> None:
        self.engine = engine
        self.found: dict[tuple[str, str, bool], Found | None] = {}
        self.said: set[tuple[str, str]] = set()  # quoted once; later lines cite it bare
        self.unimported: set[str] = set()  # eras whose document is not imported
        # Under Japanese: the English documents quoted, no Japanese text of theirs having
        # the rule (a rulings summary has none); (era, kind, effective).
        self.english: set[tuple[str, str, str]] = set()

    def words(self, era_id: str, number: str, japanese: bool = False) -> Found | None:
        """The rule in the era's document (with `japanese`, in its Japanese text where one
        of its date is imported and has it); None where that is not imported or has no
        such rule."""
        if (era_id, number, japanese) not in self.found:
            from versions import find_era

            era = find_era(era_id)
            found = (cited_words(self.engine, era, number, japanese)
                     if self.engine is not None else None)
            if found is None and citation(number).kind != "unnumbered":
                self.unimported.add(era_id)
            self.found[(era_id, number, japanese)] = found if found and found.text else None
        return self.found[(era_id, number, japanese)]

    def after(self, era_id: str, line: str) -> list[str]:
        """The quotation to print under a report line citing a rule, the first time the
        era cites it: in the language spoken where the rules have a text in it."""
        m = _CITED.search(line)
        if m is None or (era_id, m.group(1)) in self.said:
            return []
        self.said.add((era_id, m.group(1)))
        japanese = current() == "ja"
        found = self.words(era_id, m.group(1), japanese)
        if found is None:
            return []
        if japanese and found.kind not in JAPANESE_KINDS:
            self.english.add((era_id, found.kind, found.effective))
        words = without_examples(found.text)
        return [_("“{words}” ({number}, {kind} {effective})").format(
            words=words, number=found.number, kind=found.kind, effective=found.effective)]

    def of(self, era_id: str, numbers: list[str]) -> dict[str, Any]:
        """For --json: each number's words in the era's document, or null (the English
        text's, whatever the language)."""
        out: dict[str, Any] = {}
        for number in numbers:
            found = self.words(era_id, number)
            out[number] = None if found is None else {
                "text": found.text, "document": found.document,
                "effective": found.effective, "kind": found.kind}
        return out

    def footer(self) -> list[str]:
        out = []
        if self.english:
            eras: dict[tuple[str, str], list[str]] = {}
            for era, kind, effective in sorted(self.english):
                eras.setdefault((kind, effective), []).append(era)
            documents = _("; ").join(
                _("{kind} {effective} ({eras})").format(kind=kind, effective=effective,
                                                         eras=", ".join(e))
                for (kind, effective), e in sorted(eras.items()))
            out.append(_("quoted in English: no Japanese text of {documents} with the rules "
                         "quoted is imported").format(documents=documents))
        if not self.unimported:
            return out
        from versions import find_era

        docs = "; ".join(f"{e}: {find_era(e).cr_modelled}" for e in sorted(self.unimported))
        return [*out, _("rules cited by number alone: no imported document of {docs}. "
                        "Import the texts you have with `rulesdiff rules import FILE`"
                        ).format(docs=docs)]


def cited(outcome: dict[str, Any]) -> list[str]:
    """The rule numbers an outcome cites, in order, each once."""
    seen: dict[str, None] = {}
    for item in [*outcome.get("events", []), *outcome.get("notes", [])]:
        if item.get("rule"):
            seen.setdefault(str(item["rule"]), None)
    return list(seen)
