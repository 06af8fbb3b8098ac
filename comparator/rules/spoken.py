"""The rules texts' sentences in the language spoken: what `history` records as English
sentences (the evidence that links two versions, a gap between imported texts, why a rule
ended, why a diff is not marked word by word) and the warnings `rules import` reads from a
text. The records (`--json`) keep the English; under another language a sentence that
matches a pattern here is said in it, the names, numbers, dates and quoted sources in it
kept as written; one that matches none is said as written (as the engine's sentences are,
``comparator.text.phrases``)."""

from __future__ import annotations

import re

from comparator.text.language import N_, _, bounded, current
from comparator.text.phrases import pattern

# history's sentences, as ``comparator.rules.history`` writes them ({name}: what varies);
# the more particular of two that could match the same sentence first.
SENTENCES = (
    # what links a version to the one before
    N_("the {era} rules table: the document's own note on the rules before {began}, which "
       "{era} models ({start} to {end})"),
    N_("the {era} rules table: the rule in force in the same document (a look back and the "
       "rule in force: not a change)"),
    N_("{evidence}: the rule it cites for {keys} is another than the one before (of the "
       "shorter one's words, {share} are in the other)"),
    N_("the {era} rules table, in the document it cites"),
    N_("the {era} rules table's {number} (its own text is not imported), in this text a "
       "rule whose words name {key}"),
    N_("the {era} rules table no longer has {keys}"),
    N_("the eras' rules tables: {key} is {old} in the {older} table and {new} in the "
       "{newer} table"),
    N_("the eras' rules tables: {key} is {old} in the {older} table; the {newer} table's "
       "{new} is {number} in this text"),
    N_("the likest words (two numberings: no table joins them)"),
    N_("the same number, its words alike"),
    N_("the same words under another number ({heading})"),
    N_("the same words under another number"),
    N_("the likest words under {heading} ({score} alike)"),
    N_("the same words elsewhere in the document of {effective} ({number}, under "
       "{heading}; none under {here})"),
    N_("the likest words elsewhere in the document of {effective} ({number}, under "
       "{heading}; none alike under {here}; {score} alike)"),
    N_("its words ({score} alike), where the trails from two eras' tables meet"),
    N_("not in the imported texts before it"),
    N_("concordance: {source}"),
    # a gap between imported texts
    N_("not found in the texts imported between {since} and {until} ({span}): a change "
       "shown here may have come at any release in between"),
    N_("no text imported between {since} and {until} ({span}): a change shown here may "
       "have come at any release in between"),
    N_("{years} years {months} months"),
    # a word diff not marked word by word
    N_("not marked word by word: {old} and {new} words, too many of them alike to match in "
       "bounded time; the words between their alike start and end are shown removed and "
       "added whole"),
    # `rules import`'s warnings (``comparator.rules.reading``, ``rulings_summary``)
    N_("line {line}: an example of {number} is cut short in this copy (at {cut}): the words "
       "that followed are missing"),
    N_("line {line}: {number} is cut short in this copy (at {cut}): the words that followed "
       "are missing"),
    N_("line {line}: the page's own notes under a rule (announcements, markers, the "
       "compiler's notes): no rule's words, left out"),
    N_("lines {lines}: the page's own notes under a rule (announcements, markers, the "
       "compiler's notes): no rule's words, left out"),
    N_("line {line}: dated {day} by its {title}; the other changes it names ({others}) are "
       "not its date"),
    N_("line {line}: {number} again (first at line {first}), a different ruling: kept as "
       "{kept}"),
)
# What is itself one of the sentences, said in turn.
_NESTED = frozenset({"evidence", "span"})
# Several numbers' evidence, one after another: "702.13a: ...; 702.13b: ...".
_EACH = re.compile(r"; (?=(?:\d{3}\.\d+[a-z]?|[A-Z]\.\d+\S*): )")
_NUMBERED = re.compile(r"^((?:\d{3}\.\d+[a-z]?|[A-Z]\.\d+\S*)): (.+)$", re.S)


@bounded
def said(text: str | None) -> str | None:
    """One of history's or an import's sentences in the language spoken (as written in
    English, or where no pattern matches it)."""
    if not text or current() == "en":
        return text
    for template in SENTENCES:
        found = pattern(template).fullmatch(text)
        if found:
            values = {k: said(v) if k in _NESTED else v for k, v in found.groupdict().items()}
            return _(template).format(**values)
    parts = _EACH.split(text)
    if len(parts) > 1 and all(_NUMBERED.match(p) for p in parts):
        return _("; ").join(_("{number}: {evidence}").format(
            number=m.group(1), evidence=said(m.group(2)))
            for m in (_NUMBERED.match(p) for p in parts) if m)
    return text
