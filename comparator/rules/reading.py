"""Reading a rules document as published: its date, read from the document itself, each
numbered rule with its words and the headings above it, and its glossary.

Three kinds are read (``KINDS``):

- Magic's Comprehensive Rules, 1999 to today, as published and in the normalized form of
  the public archive LaurieCheers/CompRulesHistory. The texts differ: the 1999 one wraps
  its rules over several lines, writes "309.1." with a period, and sets an example apart
  by a blank line (once, in 410.10d, with more of the rule's words after it); those of
  2009-2010 write "510.1c"; later ones indent, or put a period after a rule's number
  ("510.1."); a few numbers have no space after them ("305.3.After" in 1999, "901.4.All"
  in 2025); the archive puts each number on a line of its own, its words on the next
  ("510.1c", then "A blocked creature ..."), one paragraph a line. A rule's words run
  until the next numbered line or heading, or a blank line but for those examples; a
  number met in the contents before the body is the heading it repeats.
- Duel Masters' 総合ゲームルール, numbered the same way ("507.1a"), dated in Japanese
  ("2021年9月7日"), or, an official rule-change page, by its title ("変更点(2021.09.07)":
  the first written is its own, and the other changes such a page names are said in the
  warnings), or by `dated` where a copy says no date.
- Stephen D'Angelo's Fifth Edition rulings summary (``comparator.rules.rulings_summary``), numbered
  "C.8.1", "T.10", "A.27.Ruling.1".

Examples are apart from a rule's words in every layout: each starts a line of the rule's
text of its own ("Example:", the 1999 "EXAMPLE:", "例:"), also where the layout runs it
into the words ("... confusion. EXAMPLE: Merfolk ..." in the archive's 1999 text), so that
``document.without_examples`` gives the words alone.

A Duel Masters text is often a rule-change page, or a compiler's copy of one, rather than
the whole rules: its rules stand among the page's own sentences. A rule's words there are
the line after its number and the lines right below it that continue them (joined with no
space: Japanese has none, and a copy may break its lines anywhere), an example ("例:")
kept on a line of its own. A line below a rule is editorial, and ends the rule, where it
is

- a marker: it starts with ■ □ ◆ ◇ ● ○ 【 or a bracket ("[A] 変更点(2021.09.07) ...",
  "[...excerpt ends]"), or it is a URL ("URL: https://...");
- an announcement: a sentence in the past tense, "...しました。" ("ゴッドに関して、記載を
  修正、追加しました。"): a change page says what it has changed, in the past, while the
  rules are written in the present ("...します。", "...できます。");
- the compiler's: a line with no Japanese in it ("(507.2 / 507.3 ... NOT retrieved ...)",
  "NOT FOUND: ...");
- below a blank line: a rule's own lines follow each other directly.

An excerpt marker at the end of a rule's line ("... 能力 [...excerpt ends]") is cut off
and said in the document's warnings: the words that followed are missing from the copy.

Whatever is no such document is refused with one line naming the line of the file at
fault: binary, one endless line, a number written twice, a body cut short of what its own
contents list; a C1 control or a character that reorders text (U+202E); more than any
rules text has (``document``'s bounds: lines, rules, glossary entries, the characters of a
rule or an entry), said with the bound. A rule's lines, and an entry's, are joined once
read, not line by line (a rule wrapped over 200,000 lines was quadratic).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime

from comparator.rules.document import (
    CR,
    DUEL_MASTERS,
    JA_CR,
    JAPANESE_KINDS,
    MAGIC,
    MAX_GLOSSARY,
    MAX_RULES,
    MAX_WORDS,
    SOGO,
    NotRulesText,
    Rule,
    RulesText,
    is_example,
    line_at,
    lines_of,
)
from comparator.rules.rulings_summary import is_rulings_summary, read_rulings_summary

_DATE = re.compile(r"(?:current|effective) as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
_JAPANESE_DATE = re.compile(r"(\d{4})年\s*(\d{1,2})月\s*(\d{1,2})日")
# The date a Duel Masters rule-change page is titled with: "変更点(2021.09.07)".
_CHANGE_DATE = re.compile(r"変更点\s*[(（]\s*(\d{4})\.(\d{1,2})\.(\d{1,2})\s*[)）]")
_SECTION = re.compile(r"^\s*(\d)\.\s+(\S.*)$")  # "5. Turn Structure"
_TITLE = re.compile(r"^\s*(\d{3})\.\s+(\S.*)$")  # "510. Combat Damage Step"
# "510.1c ...", "309.1. ...", and with no space "305.3.After ..." (1999), "901.4.All" (2025)
_RULE = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)(?:\.\s*|\s+)(\S.*)$")
_NUMBER = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)\.?\s*$")  # the archive's "510.1c", words below
_BANNER = re.compile(r"^(?:-{3,}|={3,})$")  # the 1999 layout's lines under headings
# An example the layout runs into the words before it: after a sentence, "Example:".
_RUN_IN_EXAMPLE = re.compile(r"(?<=[.!?:)\"'])\s+(?=(?:Example|EXAMPLE)s?:\s)")
_MARKER = re.compile(r"^(?:[■□◆◇●○【\[［]|URL\b|https?://)")
_ANNOUNCED = re.compile(r"しました。$")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_JA_HEADING = re.compile(r"^(\s*)(\d{3}|\d)\s+(?=[\u3040-\u30ff\u3400-\u9fff])")
_BULLET = re.compile(r"^(\s*)(?:[-•・]\s+)(?=\d)")  # a list's mark before a number
_EXCERPT_ENDS = re.compile(r"\s*\[\s*(?:\.{3}|…)[^\]]*\]\s*$")  # "[...excerpt ends]"


def read_rules(text: str, dated: date | None = None) -> RulesText:
    """The document's date and its numbered rules and glossary; NotRulesText for anything
    else. `dated` gives the date of a copy that does not state its own (a rulings summary
    without its header, a Duel Masters change page); a document that states one keeps its
    own."""
    lines = lines_of(text)
    if is_rulings_summary(lines):
        return read_rulings_summary(lines, dated)
    joined = "\n".join(lines)
    head = joined[:5000]
    japanese = "総合" in head or "デュエル・マスターズ" in head
    # Magic's rules in Japanese (総合ルール, "マジック"), not Duel Masters' 総合ゲームルール.
    magic = japanese and "デュエル" not in head and "総合ゲームルール" not in head and (
        "マジック" in head or "総合ルール" in head)
    kind = (JA_CR if magic else SOGO) if japanese else CR
    out = RulesText(date.min, kind=kind, game=MAGIC if magic or not japanese else DUEL_MASTERS)
    out.effective = _date_of(joined, japanese, dated, out.warnings)
    if japanese:  # a wiki's copy lists its rules: "- 509.1a ...", "• 509.4a ...", and
        # writes its headings without a period: "5 ターンの構造", "- 509 ブロック・..."
        lines = [_JA_HEADING.sub(r"\1\2. ", _BULLET.sub(r"\1", line)) for line in lines]
    body = _Body(out)
    glossary_at = None
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or _BANNER.match(stripped):
            body.blank = True
            continue
        if stripped == "Glossary" and out.rules:
            glossary_at = n  # the glossary follows the numbered rules
            break
        body.read(n, line, stripped)
        body.blank = False
    if not out.rules:
        raise NotRulesText("no numbered rules (like \"510.1c\") in it")
    body.finish()
    if glossary_at is not None:
        body.seen["Glossary"] += 1
        body.seen["Credits"] += any(line.strip() == "Credits" for line in lines[glossary_at:])
        out.glossary = _glossary(lines[glossary_at:], glossary_at + 1)
    # The heading right above the first rule is the body's own: a text without contents
    # (an excerpt, a fixture) has it once.
    first = next(iter(out.rules.values())).title.split(".")[0]
    _check_whole([h for h in body.contents if h != first], body.seen, len(lines))
    return out


@dataclass
class _Words:
    """A rule's words as they are read: its lines and what joins them, joined once the
    text is read (joined line by line, a rule wrapped over 200,000 lines took seconds)."""

    first: int  # the line its words start on
    parts: list[str] = field(default_factory=list)
    size: int = 0  # the characters so far
    last: str = ""  # the last character so far

    def add(self, *parts: str) -> None:
        for part in parts:
            if part:
                self.parts.append(part)
                self.size += len(part)
                self.last = part[-1]


@dataclass
class _Body:
    """The numbered rules as they are read, line by line, and the headings around them."""

    out: RulesText
    section: str = ""
    title: str = ""
    current: Rule | None = None  # the rule whose words are being read
    blank: bool = False  # a blank line between the line before and this one
    apart: bool = False  # the current rule's last paragraph is an example set apart (1999)
    # Each heading of a whole text is written twice, in the contents and above its rules.
    contents: list[str] = field(default_factory=list)  # headings met before the first rule
    seen: Counter[str] = field(default_factory=Counter)
    left_out: list[int] = field(default_factory=list)  # editorial lines under rules
    texts: dict[str, _Words] = field(default_factory=dict)  # each rule's words, by number

    def said(self, rule: Rule | None) -> bool:
        """Whether any of `rule`'s words are read yet."""
        return rule is not None and self.texts[rule.number].size > 0

    def read(self, n: int, line: str, stripped: str) -> None:
        awaited = self.current is not None and not self.said(self.current)
        numbered = stripped[:1].isdigit()  # else none of the numbered forms: not matched
        if numbered and (m := _RULE.match(line)):
            self.rule(m.group(1), m.group(2).strip(), n)
        elif numbered and (m := _NUMBER.match(line)):
            self.rule(m.group(1), "", n)
        elif awaited:  # the line after a number alone is its words, whatever they say
            self.words(stripped, n)
        elif numbered and (m := _TITLE.match(line)):
            self.title, self.current = f"{m.group(1)}. {m.group(2).strip()}", None
            self.seen[m.group(1)] += 1  # by number: the contents may quote a title otherwise
            if not self.out.rules:
                self.contents.append(m.group(1))
        elif numbered and (m := _SECTION.match(line)):
            self.section, self.current = f"{m.group(1)}. {m.group(2).strip()}", None
        elif self.current is not None:
            self.words(stripped, n)
        elif not self.out.rules and stripped in ("Glossary", "Credits"):
            self.contents.append(stripped)
            self.seen[stripped] += 1

    def rule(self, number: str, words: str, n: int) -> None:
        if number in self.out.rules:
            raise NotRulesText(f"rule {number} again (first at line "
                               f"{self.out.rules[number].line}): a rules text numbers each "
                               f"rule once", n)
        self.no_words_left()
        if len(self.out.rules) >= MAX_RULES:
            raise NotRulesText(f"more than {MAX_RULES:,} numbered rules: no rules text has "
                               f"so many", n)
        self.current, self.apart = Rule(number, "", self.section, self.title, n), False
        self.out.rules[number] = self.current
        self.texts[number] = _Words(n)
        if words:
            self.words(words, n)

    def words(self, line: str, n: int) -> None:
        """`line` added to the current rule's text: the first line of its words, a line
        that continues them, or an example; in a Duel Masters text, an editor's line ends
        the rule instead."""
        rule = self.current
        assert rule is not None
        text = self.texts[rule.number]
        if text.size and self.blank and not self.set_apart(line):
            self.current = None  # a paragraph below a blank line is no rule's
            return
        if self.out.kind in JAPANESE_KINDS:
            if text.size and _editorial(line):
                self.left_out.append(n)
                self.current = None
                return
            line = self.excerpt_cut(line, n)
        elif "xample" in line or "XAMPLE" in line:
            line = _RUN_IN_EXAMPLE.sub("\n", line)
        if text.size:
            text.add(self.joint(line, text.last), line)
        else:
            text.add(line)
        if text.size > MAX_WORDS:
            raise NotRulesText(f"rule {rule.number} (from line {text.first}) runs on past "
                               f"{MAX_WORDS:,} characters: no rules text has a rule that "
                               f"long", n)
        if self.blank:
            self.apart = is_example(line)

    def set_apart(self, line: str) -> bool:
        """Whether a paragraph below a blank line is still the current rule's: the 1999
        text sets an example apart so (an example is always its rule's), and once (410.10d)
        the rule's words again after it. Anything else there (a compiler's note in an
        excerpt file) is none of the rule's."""
        return self.out.kind == CR and (is_example(line) or self.apart)

    def excerpt_cut(self, line: str, n: int) -> str:
        """`line` without the compiler's "[...excerpt ends]" at its end, which is said in
        the warnings."""
        if not (cut := _EXCERPT_ENDS.search(line)):
            return line
        assert self.current is not None
        what = "an example of " if is_example(line) else ""
        self.out.warnings.append(
            f"line {n}: {what}{self.current.number} is cut short in this copy (at "
            f"{cut.group().strip()!r}): the words that followed are missing")
        return line[:cut.start()]

    def joint(self, line: str, above: str) -> str:
        """What comes between the rule's text so far (ending in `above`) and its next
        line: a line break before an example, and before a paragraph set apart by a blank
        line (1999); else the line continues the one above, wrapped: a space (none between
        Japanese)."""
        if is_example(line) or self.blank:
            return "\n"
        return " " if not (_JAPANESE.match(line[:1]) or _JAPANESE.match(above)) else ""

    def no_words_left(self) -> None:
        if self.current is not None and not self.said(self.current):
            raise NotRulesText(f"rule {self.current.number} has a number but no words",
                               self.current.line)

    def finish(self) -> None:
        self.no_words_left()
        for number, text in self.texts.items():
            self.out.rules[number].text = "".join(text.parts)
        if self.left_out:
            lines = ", ".join(map(str, self.left_out))
            self.out.warnings.append(
                f"line{'s' * (len(self.left_out) > 1)} {lines}: the page's own notes under "
                f"a rule (announcements, markers, the compiler's notes): no rule's words, "
                f"left out")


def _editorial(line: str) -> bool:
    """A line under a Duel Masters rule that is the page's or the compiler's, not the
    rule's (the module's docstring says why each)."""
    return bool(_MARKER.match(line) or _ANNOUNCED.search(line)
                or not _JAPANESE.search(line))


def _date_of(text: str, japanese: bool, dated: date | None,
             warnings: list[str] | None = None) -> date:
    # A Japanese text states its date as 年月日 ("2021年9月7日更新") or, a Duel Masters
    # rule-change page, in its title ("変更点(2021.09.07)"): the first written is its own.
    stated = [m for m in (_JAPANESE_DATE.search(text), _CHANGE_DATE.search(text)) if m]
    if japanese and stated:
        j = min(stated, key=lambda m: m.start())
        try:
            day = date(int(j.group(1)), int(j.group(2)), int(j.group(3)))
        except ValueError:
            raise NotRulesText(f"the date {j.group(0)!r} is not a date",
                               line_at(text, j.start())) from None
        others = sorted({m.group(0) for m in _CHANGE_DATE.finditer(text)} - {j.group(0)})
        if j.re is _CHANGE_DATE and others and warnings is not None:
            warnings.append(f"line {line_at(text, j.start())}: dated {day.isoformat()} by "
                            f"its {j.group(0)}; the other changes it names "
                            f"({', '.join(others)}) are not its date")
        return day
    found = _DATE.search(text)
    if found is None:
        if dated is not None:
            return dated
        if japanese:
            raise NotRulesText("this 総合ゲームルール says no date it is effective from (no "
                               "年月日 line, no 変更点(YYYY.MM.DD) title): give it with "
                               "--date YYYY-MM-DD")
        raise NotRulesText("no \"current as of\" or \"effective as of\" date (nor 年月日): "
                           "not a rules text this reads")
    try:
        return datetime.strptime(found.group(1), "%B %d, %Y").date()
    except ValueError:
        raise NotRulesText(f"the date {found.group(1)!r} is not a date",
                           line_at(text, found.start())) from None


def _check_whole(contents: list[str], seen: Counter[str], last: int) -> None:
    """A body that stops before a heading its own contents list was cut short."""
    for heading in contents:
        if seen[heading] < 2:
            raise NotRulesText(f"the text ends before {heading}, which its contents "
                               f"list: the file is truncated", last)


@dataclass
class _Entry:
    """A glossary entry as it is read: its words as paragraphs of lines, joined once the
    glossary is read (joined line by line, an entry wrapped over 200,000 lines took
    seconds)."""

    first: int  # the line of its term
    paragraphs: list[list[str]] = field(default_factory=list)
    size: int = 0  # the characters so far

    def add(self, stripped: str, new_paragraph: bool) -> None:
        if new_paragraph or not self.paragraphs:
            self.paragraphs.append([stripped])
        else:
            self.paragraphs[-1].append(stripped)
        self.size += len(stripped) + 1


def _glossary(lines: list[str], at: int) -> dict[str, str]:
    """Glossary entries up to the credits: a term on a line of its own after a blank line,
    then its words. The 1999 text indents the words and may split them into paragraphs
    (a blank line inside an entry); later ones write them unindented, one line each, and
    end an entry at a blank line. `at` is the line of the file `lines` start on."""
    entries: dict[str, _Entry] = {}
    term: str | None = None
    blank = True
    for n, line in enumerate(lines, at):
        stripped = line.strip()
        if stripped in ("Credits", "Index") or stripped.startswith("These rules are"):
            break
        if not stripped or set(stripped) <= set("-="):
            blank = True
            continue
        if line[0].isspace() and term is not None:  # 1999: indented words, in paragraphs
            entries[term].add(stripped, new_paragraph=blank)
        elif blank or term is None:
            term = stripped
            if term not in entries:
                if len(entries) >= MAX_GLOSSARY:
                    raise NotRulesText(f"more than {MAX_GLOSSARY:,} glossary entries: no "
                                       f"rules text has so many", n)
                entries[term] = _Entry(n)
        else:
            entries[term].add(stripped, new_paragraph=True)
        entry = entries[term]
        if entry.size > MAX_WORDS:
            raise NotRulesText(f"the glossary entry {term[:40]!r} (from line {entry.first}) "
                               f"runs on past {MAX_WORDS:,} characters: no rules text has "
                               f"one that long", n)
        blank = False
    return {t: "\n".join(" ".join(p) for p in e.paragraphs)
            for t, e in entries.items() if e.paragraphs}
