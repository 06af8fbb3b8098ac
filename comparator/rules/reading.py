"""Reading a rules document as published: its date, read from the document itself, each
numbered rule with its words and the headings above it, and its glossary.

Three kinds are read (``KINDS``):

- Magic's Comprehensive Rules, 1999 to today. The texts differ: the 1999 one wraps its
  rules over several lines and writes "309.1." with a period; those of 2009-2010 write
  "510.1c"; later ones indent, or put a period after a rule's number ("510.1."). A rule's
  words run until a blank line or the next numbered line; a number met in the contents
  before the body is the heading it repeats.
- Duel Masters' 総合ゲームルール, numbered the same way ("507.1a"), dated in Japanese
  ("2021年9月7日").
- Stephen D'Angelo's Fifth Edition rulings summary (``comparator.rules.rulings_summary``), numbered
  "C.8.1", "T.10", "A.27.Ruling.1".

Whatever is no such document is refused with one line naming the line of the file at
fault: binary, one endless line, a number written twice, a body cut short of what its own
contents list.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime

from comparator.rules.document import (
    CR,
    DUEL_MASTERS,
    MAGIC,
    SOGO,
    NotRulesText,
    Rule,
    RulesText,
    lines_of,
)
from comparator.rules.rulings_summary import is_rulings_summary, read_rulings_summary

_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
_JAPANESE_DATE = re.compile(r"(\d{4})年\s*(\d{1,2})月\s*(\d{1,2})日")
_SECTION = re.compile(r"^\s*(\d)\.\s+(\S.*)$")  # "5. Turn Structure"
_TITLE = re.compile(r"^\s*(\d{3})\.\s+(\S.*)$")  # "510. Combat Damage Step"
_RULE = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)\.?\s+(\S.*)$")  # "510.1c ...", "309.1. ..."
def read_rules(text: str, dated: date | None = None) -> RulesText:
    """The document's date and its numbered rules and glossary; NotRulesText for anything
    else. `dated` gives the date of a copy that does not state its own (a rulings summary
    without its header); a document that states one keeps its own."""
    lines = lines_of(text)
    if is_rulings_summary(lines):
        return read_rulings_summary(lines, dated)
    joined = "\n".join(lines)
    japanese = "総合" in joined[:5000] or "デュエル・マスターズ" in joined[:5000]
    out = RulesText(_date_of(joined, japanese, dated), kind=SOGO if japanese else CR,
                    game=DUEL_MASTERS if japanese else MAGIC)
    section = title = ""
    current: Rule | None = None
    # Each heading of a whole text is written twice, in the contents and above its rules.
    contents: list[str] = []  # headings met before the first rule
    seen: Counter[str] = Counter()
    glossary_at = None
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            current = None
            continue
        if stripped == "Glossary" and out.rules:
            glossary_at = n  # the glossary follows the numbered rules
            break
        if m := _RULE.match(line):
            number = m.group(1)
            if number in out.rules:
                raise NotRulesText(f"rule {number} again (first at line "
                                   f"{out.rules[number].line}): a rules text numbers each "
                                   f"rule once", n)
            current = Rule(number, m.group(2).strip(), section, title, n)
            out.rules[number] = current
        elif m := _TITLE.match(line):
            title, current = f"{m.group(1)}. {m.group(2).strip()}", None
            seen[m.group(1)] += 1  # by number: the contents may quote a title otherwise
            if not out.rules:
                contents.append(m.group(1))
        elif m := _SECTION.match(line):
            section, current = f"{m.group(1)}. {m.group(2).strip()}", None
        elif current is not None:
            # An example under the rule (2009-2010) keeps its own line; any other line
            # is the rule's own, wrapped (the 1999 text).
            joint = "\n" if stripped.startswith("Example") else " "
            current.text = f"{current.text}{joint}{stripped}"
        elif not out.rules and stripped in ("Glossary", "Credits"):
            contents.append(stripped)
            seen[stripped] += 1
    if not out.rules:
        raise NotRulesText("no numbered rules (like \"510.1c\") in it")
    if glossary_at is not None:
        seen["Glossary"] += 1
        seen["Credits"] += any(line.strip() == "Credits" for line in lines[glossary_at:])
        out.glossary = _glossary(lines[glossary_at:])
    # The heading right above the first rule is the body's own: a text without contents
    # (an excerpt, a fixture) has it once.
    first = next(iter(out.rules.values())).title.split(".")[0]
    _check_whole([h for h in contents if h != first], seen, len(lines))
    return out


def _date_of(text: str, japanese: bool, dated: date | None) -> date:
    if japanese and (j := _JAPANESE_DATE.search(text)):
        try:
            return date(int(j.group(1)), int(j.group(2)), int(j.group(3)))
        except ValueError:
            raise NotRulesText(f"the date {j.group(0)!r} is not a date") from None
    found = _DATE.search(text)
    if found is None:
        if dated is not None:
            return dated
        raise NotRulesText("no \"current as of\" or \"effective as of\" date (nor 年月日): "
                           "not a rules text this reads")
    try:
        return datetime.strptime(found.group(1), "%B %d, %Y").date()
    except ValueError:
        raise NotRulesText(f"the date {found.group(1)!r} is not a date") from None


def _check_whole(contents: list[str], seen: Counter[str], last: int) -> None:
    """A body that stops before a heading its own contents list was cut short."""
    for heading in contents:
        if seen[heading] < 2:
            raise NotRulesText(f"the text ends before {heading}, which its contents "
                               f"list: the file is truncated", last)


def _glossary(lines: list[str]) -> dict[str, str]:
    """Glossary entries up to the credits: a term on a line of its own after a blank line,
    then its words. The 1999 text indents the words and may split them into paragraphs
    (a blank line inside an entry); later ones write them unindented, one line each, and
    end an entry at a blank line."""
    entries: dict[str, list[str]] = {}
    term: str | None = None
    blank = True
    for line in lines:
        stripped = line.strip()
        if stripped in ("Credits", "Index") or stripped.startswith("These rules are"):
            break
        if not stripped or set(stripped) <= set("-="):
            blank = True
            continue
        if line[0].isspace() and term is not None:  # 1999: indented words, in paragraphs
            words = entries[term]
            if words and not blank:
                words[-1] = f"{words[-1]} {stripped}"
            else:
                words.append(stripped)
        elif blank or term is None:
            term = stripped
            entries.setdefault(term, [])
        else:
            entries[term].append(stripped)
        blank = False
    return {t: "\n".join(words) for t, words in entries.items() if words}
