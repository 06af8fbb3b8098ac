"""What a rules document is once read, whatever its kind (``comparator.rules.reading`` reads
the numbered texts, ``comparator.rules.rulings_summary`` D'Angelo's summary): its date, its rules
with the headings above them, its glossary; and the one-line refusal of what is none."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# The longest line of any published text is under 3,000 characters (a glossary entry).
MAX_LINE = 20_000

MAGIC, DUEL_MASTERS = "mtg", "duel-masters"  # the games' ids in `versions`
CR, SUMMARY, SOGO = "Comprehensive Rules", "Fifth Edition rulings summary", "総合ゲームルール"
KINDS = (CR, SUMMARY, SOGO)


# An example under a rule, as each text starts one: "Example:" (from 2009), "EXAMPLE:"
# (1999), Duel Masters' "例:" (also "(例:", and "例1" heading a worked question).
_EXAMPLE = re.compile(r"(?:Example|EXAMPLE)s?:|[(\uff08]?例\d*\s*[:\uff1a]|例\d+$")


def is_example(line: str) -> bool:
    """Whether `line` starts an example (not "Examples include ...", a rule's words)."""
    return bool(_EXAMPLE.match(line.strip()))


def without_examples(text: str) -> str:
    """A rule's own words, without its examples: ``comparator.rules.reading`` gives each
    example a line of the rule's text to itself, whatever the layout it was read from, so
    the lines that start one are the examples; the other lines are the rule's words (a
    1999 rule may have words again after its example)."""
    return "\n".join(line for line in text.split("\n") if not is_example(line))


class NotRulesText(ValueError):
    """The text is not a rules document this reads: the reason, in one line, and the line
    of the file it concerns (None for the whole file)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Rule:
    number: str  # as the document writes it, without a trailing period: "510.1c"
    text: str
    section: str  # "5. Turn Structure"
    title: str  # "510. Combat Damage Step"
    line: int = 0  # where it starts in the file, 1-based


@dataclass
class RulesText:
    effective: date  # the date the document says it is current or effective as of
    rules: dict[str, Rule] = field(default_factory=dict)
    glossary: dict[str, str] = field(default_factory=dict)  # term -> its definition
    kind: str = CR
    game: str = MAGIC
    warnings: list[str] = field(default_factory=list)  # read, but worth a word: "line N: ..."


def lines_of(text: str) -> list[str]:
    """The document's lines, a BOM and CR/CRLF line ends read as the published files have
    them; binary and endless lines refused."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    for n, line in enumerate(lines, 1):
        if len(line) > MAX_LINE:
            raise NotRulesText(f"a line of {len(line):,} characters: no rules text has one "
                               f"longer than {MAX_LINE:,}", n)
        if _CONTROL.search(line):
            raise NotRulesText("a control character (binary data): not a rules text", n)
    return lines


