"""What a rules document is once read, whatever its kind (``comparator.rules.reading`` reads
the numbered texts, ``comparator.rules.rulings_summary`` D'Angelo's summary): its date, its rules
with the headings above them, its glossary; and the one-line refusal of what is none."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
# C1 controls (a terminal obeys U+009B as it does ESC [) and the characters that reorder the
# text around them (bidi embeddings, overrides, isolates and marks: U+202E prints a rule's
# words backwards): no rules text has any; a copy that does was tampered with.
_HIDDEN = re.compile("[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The longest line of any published text is under 3,000 characters (a glossary entry).
MAX_LINE = 20_000
# The bounds of a document, each far above any published text's (the 2025 Comprehensive
# Rules: 8,991 lines, 3,022 rules, 703 glossary entries; the longest rule, a ruling of the
# 1999 summary, 4,405 characters): what is beyond them is no rules text, and is refused
# before it costs minutes and gigabytes.
MAX_LINES = 500_000
MAX_RULES = 20_000
MAX_GLOSSARY = 10_000
MAX_WORDS = 100_000  # characters of one rule's words, or one glossary entry's

MAGIC, DUEL_MASTERS = "mtg", "duel-masters"  # the games' ids in `versions`
CR, SUMMARY, SOGO = "Comprehensive Rules", "Fifth Edition rulings summary", "総合ゲームルール"
# The Japanese text of Magic's Comprehensive Rules (the translation the Japanese judges
# publish): the words `--lang ja` shows where one is imported for the date asked.
JA_CR = "総合ルール"
KINDS = (CR, SUMMARY, SOGO, JA_CR)
JAPANESE_KINDS = (SOGO, JA_CR)


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
    them; binary, endless lines, more lines than any rules text has, C1 controls and
    characters that reorder text refused."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if (count := text.count("\n") + 1) > MAX_LINES:
        raise NotRulesText(f"{count:,} lines: no rules text has more than {MAX_LINES:,}")
    if found := _CONTROL.search(text):
        raise NotRulesText("a control character (binary data): not a rules text",
                           line_at(text, found.start()))
    if found := _HIDDEN.search(text):
        char = found.group()
        what = ("a C1 control character" if char <= "\x9f" else
                "a character that reorders the text around it")
        raise NotRulesText(f"{what} (U+{ord(char):04X}): no rules text has one",
                           line_at(text, found.start()))
    lines = text.split("\n")
    if max(map(len, lines)) > MAX_LINE:
        n, line = next((n, line) for n, line in enumerate(lines, 1) if len(line) > MAX_LINE)
        raise NotRulesText(f"a line of {len(line):,} characters: no rules text has one "
                           f"longer than {MAX_LINE:,}", n)
    return lines


def line_at(text: str, offset: int) -> int:
    """The line (1-based) of `text` that the character at `offset` is on."""
    return text.count("\n", 0, offset) + 1


