"""Reading a Comprehensive Rules text as published (the plain-text CRs, 1999 to today):
its date, read from the document itself, and each numbered rule with its words and the
headings above it. The first piece of the rules' own history (issue 22): `rules import`
will store what this reads; nothing here touches a database.

The published texts differ: the 1999 one wraps its rules over several lines and writes
"309.1." with a period; those of 2009-2010 write "510.1c"; later ones indent, or put a
period after a rule's number ("510.1."). A rule's words run until a blank line or the next
numbered line; a number met in the contents before the body is the heading it repeats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
_SECTION = re.compile(r"^\s*(\d)\.\s+(\S.*)$")  # "5. Turn Structure"
_TITLE = re.compile(r"^\s*(\d{3})\.\s+(\S.*)$")  # "510. Combat Damage Step"
_RULE = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)\.?\s+(\S.*)$")  # "510.1c ...", "309.1. ..."


class NotRulesText(ValueError):
    """The text is not a Comprehensive Rules document: the reason, in one line."""


@dataclass
class Rule:
    number: str  # as the document writes it, without a trailing period: "510.1c"
    text: str
    section: str  # "5. Turn Structure"
    title: str  # "510. Combat Damage Step"


@dataclass
class RulesText:
    effective: date  # the date the document says it is current or effective as of
    rules: dict[str, Rule] = field(default_factory=dict)


def read_rules(text: str) -> RulesText:
    """The document's date and its numbered rules; NotRulesText for anything else (an
    empty file, another document). A BOM, CRLF line ends and cp1252 quotes are read as
    the published files have them."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    found = _DATE.search(text)
    if found is None:
        raise NotRulesText("no \"current as of\" or \"effective as of\" date: not a "
                           "Comprehensive Rules text")
    try:
        effective = datetime.strptime(found.group(1), "%B %d, %Y").date()
    except ValueError:
        raise NotRulesText(f"the date {found.group(1)!r} is not a date") from None
    out = RulesText(effective)
    section = title = ""
    current: Rule | None = None
    for line in text.split("\n"):
        if not line.strip():
            current = None
            continue
        if line.strip() == "Glossary" and out.rules:
            break  # the glossary follows the numbered rules
        if m := _RULE.match(line):
            current = Rule(m.group(1), m.group(2).strip(), section, title)
            out.rules[current.number] = current
        elif m := _TITLE.match(line):
            title, current = f"{m.group(1)}. {m.group(2).strip()}", None
        elif m := _SECTION.match(line):
            section, current = f"{m.group(1)}. {m.group(2).strip()}", None
        elif current is not None:  # a wrapped line of the rule above (the 1999 text)
            current.text = f"{current.text} {line.strip()}"
    if not out.rules:
        raise NotRulesText("no numbered rules (like \"510.1c\") in it")
    return out
