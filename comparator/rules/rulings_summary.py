"""Reading Stephen D'Angelo's General Rulings Summary, the text the fifth era cites: its own
numbering ("C - Combat Rules", "C.8 - Step 6: Damage Dealing", "C.8.1 - ...",
"A.27.Ruling.1 - ..."), one rule a line, a table of contents first and an index last.

Its date is the header's "Updated MM/DD/YY". A copy without that header (the one in
shared/reference/ lacks it: it says only that it follows "the last released version on
04/21/99") does not say when it was released, so the importer must give the date.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime

from comparator.rules.document import MAX_RULES, SUMMARY, NotRulesText, Rule, RulesText

_SECTION = re.compile(r"^([A-Z]) - (\S.*)$")  # "C - Combat Rules"
_TITLE = re.compile(r"^([A-Z]\.\d+) - (\S.*?):?$")  # "A.27 - Trample:"
# "C.8.1 - ...", "C.8.Ruling.1 - ..." (one is misspelt "K.14.Rulings.7" in the 1999 text)
_RULE = re.compile(r"^([A-Z]\.\d+\.(?:Rulings?\.)?\d+) - (.*)$")
# "Note - ...": the summary's unnumbered notes, kept as "A.27.Note" after the heading above
# them (a second note there is "A.27.Note#2"): the note on trample before Urza's Saga is what
# the fourth era cites.
_NOTE = re.compile(r"^Note - (\S.*)$")
_UPDATED = re.compile(r"Updated (\d{2}/\d{2}/\d{2})")
_PREVIOUS = re.compile(r"last released version on (\d{2}/\d{2}/\d{2})")
# The final release numbers two rulings twice; a copy numbering more than this many again
# is no summary numbered by hand (30,000 repeats of one number took minutes to read).
MAX_AGAIN = 100


def is_rulings_summary(lines: list[str]) -> bool:
    head = "\n".join(lines[:40])
    return ("Rulings Summary" in head or "FIFTH EDITION" in head) and any(
        _RULE.match(line) for line in lines[:3000])


def read_rulings_summary(lines: list[str], dated: date | None = None) -> RulesText:
    out = RulesText(_date_of(lines, dated), kind=SUMMARY)
    section = title = ""
    # Each heading is written twice, in the contents and above its rulings.
    contents: list[str] = []
    seen: Counter[str] = Counter()
    again = 0
    counts: dict[str, int] = {}  # the last "#k" given each number taken again
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped == "Index" and out.rules:
            break  # the index follows the rules
        if m := _RULE.match(stripped):
            _room(out, n)
            number = m.group(1)
            if number in out.rules:
                # The summary was numbered by hand, and its final release repeats two
                # numbers (D.18.5, T.5.2) for different rulings: both are kept.
                first = out.rules[number].line
                again += 1
                if again > MAX_AGAIN:
                    raise NotRulesText(f"{number} again (first at line {first}): more than "
                                       f"{MAX_AGAIN} rulings numbered again, so no summary "
                                       f"numbered by hand (its final release has two)", n)
                number = _unused(number, out.rules, counts)
                out.warnings.append(f"line {n}: {m.group(1)} again (first at line {first}), "
                                    f"a different ruling: kept as {number}")
            out.rules[number] = Rule(number, m.group(2).strip(), section, title, n)
        elif (m := _NOTE.match(stripped)) and out.rules and title:
            _room(out, n)
            number = _unused(f"{title.split(' - ')[0]}.Note", out.rules, counts)
            out.rules[number] = Rule(number, m.group(1).strip(), section, title, n)
        elif m := _TITLE.match(stripped):
            title = f"{m.group(1)} - {m.group(2).strip()}"
            seen[m.group(1)] += 1
            if not out.rules:
                contents.append(m.group(1))
        elif m := _SECTION.match(stripped):
            section = f"{m.group(1)} - {m.group(2).strip()}"
    if not out.rules:
        raise NotRulesText("no numbered rulings (like \"C.8.1\") in it")
    # The heading right above the first ruling is the body's own: a copy without contents
    # has it once.
    first = next(iter(out.rules.values())).title.split(" - ")[0]
    for heading in contents:
        if heading != first and seen[heading] < 2:
            raise NotRulesText(f"the text ends before {heading}, which its contents "
                               f"list: the file is truncated", len(lines))
    return out


def _room(out: RulesText, n: int) -> None:
    if len(out.rules) >= MAX_RULES:
        raise NotRulesText(f"more than {MAX_RULES:,} numbered rulings: no rulings summary "
                           f"has so many", n)


def _unused(number: str, taken: dict[str, Rule], counts: dict[str, int]) -> str:
    """`number`, or where it is taken already the first of `number#2`, `number#3`, ...
    that is not: the one after the last given (`counts`, by number), as only this gives
    them."""
    if number not in taken:
        return number
    counts[number] = counts.get(number, 1) + 1
    return f"{number}#{counts[number]}"


def _date_of(lines: list[str], dated: date | None) -> date:
    head = "\n".join(lines[:40])
    if m := _UPDATED.search(head):
        return datetime.strptime(m.group(1), "%m/%d/%y").date()
    if dated is not None:
        return dated
    previous = _PREVIOUS.search(head)
    after = (f" (it follows the release of {previous.group(1)})" if previous else "")
    raise NotRulesText("this copy of the rulings summary does not say when it was released"
                       f"{after}: no \"Updated MM/DD/YY\" in its header; give the date with "
                       "--date YYYY-MM-DD")
