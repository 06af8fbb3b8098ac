"""The normalized form the public archive LaurieCheers/CompRulesHistory keeps every
Comprehensive Rules release in (its README, "Normalization"), made here from a published
text so that tests can build an archive out of ../shared/reference/ without the network:

- LF line endings;
- banner lines made only of `-` or `=` (the 1999 layout's) removed;
- hard-wrapped documents (the 1999 one; APC, ODY and TOR too) rejoined: one rule a line
  and one glossary definition a line; the preamble (up to rule 100.1), and what follows
  the glossary (the 1999 index, the credits), left as they are;
- punctuation and symbols folded to one ASCII spelling (`folded`), underscores removed;
- blank lines emptied (some documents pad them with a non-breaking space);
- each rule number on a line of its own, ahead of its words: `510.1c`, `309.1.`.

`normalized` and `folded` are the names other tests import: keep them.
"""

from __future__ import annotations

import re
import unicodedata

# The one ASCII spelling of each symbol the documents write in Unicode. What has none (a
# byte-order mark, the 1999 text's U+FFFD where a dash was lost) is dropped, as the archive
# drops it: its texts are ASCII.
SYMBOLS = {
    "\u2122": "(TM)", "\u00ae": "(R)", "\u00a9": "(C)",
    "\u2014": "--", "\u2013": "-", "\u2212": "-",
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
    "\u2026": "...", "\u00a0": " ",
}
_SYMBOL = re.compile("|".join(map(re.escape, SYMBOLS)))
_BANNER = re.compile(r"^\s*(?:-{3,}|={3,})\s*$")
# "510.1c Words", "309.1. Words", and the 1999 text's one "305.3.After" with no space.
_RULE = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)(\.\s*|\s+)(\S.*)$")
_FIRST_RULE = re.compile(r"^\s*100\.1\.\s+\S")
# The wrapped documents wrap at 78-101 columns; every other one has rules of several
# hundred characters on a line (the archive's own test).
_WRAPPED_AT_MOST = 150


def folded(text: str) -> str:
    """Punctuation and symbols in their ASCII spelling, accented letters as their base
    letter, no underscores: the characters the archive keeps."""
    text = _SYMBOL.sub(lambda m: SYMBOLS[m.group()], text).replace("_", "")
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def normalized(text: str) -> str:
    """`text`, a Comprehensive Rules document as published, in the archive's form."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = [line for line in text.split("\n") if not _BANNER.match(line)]
    if lines and max(len(line) for line in lines) <= _WRAPPED_AT_MOST:
        lines = _rejoined(lines)
    lines = ["" if not line.strip() else line for line in folded("\n".join(lines)).split("\n")]
    return "\n".join(_numbers_apart(lines))


def _rejoined(lines: list[str]) -> list[str]:
    """A hard-wrapped document with each paragraph of its rules on one line and each
    glossary definition on one line; the rest as it was."""
    start = next((i for i, line in enumerate(lines) if _FIRST_RULE.match(line)), len(lines))
    glossary = _first(lines, start, ("Glossary",))
    after = _first(lines, glossary + 1, ("Index", "Credits"))
    return (lines[:start] + _paragraphs(lines[start:glossary])
            + lines[glossary:glossary + 1] + _definitions(lines[glossary + 1:after])
            + lines[after:])


def _first(lines: list[str], start: int, headings: tuple[str, ...]) -> int:
    return next((i for i in range(start, len(lines)) if lines[i].strip() in headings),
                len(lines))


def _paragraphs(lines: list[str]) -> list[str]:
    """Each run of lines between blank lines as one line; a numbered rule starts a new one
    even where no blank line is above it."""
    out: list[str] = []
    for line in lines:
        stripped = line.strip()
        if stripped and out and out[-1] and not _RULE.match(line):
            out[-1] = f"{out[-1]} {stripped}"
        else:
            out.append(stripped)
    return out


def _definitions(lines: list[str]) -> list[str]:
    """The glossary as a term a line, its definition on the next (its paragraphs joined),
    then a blank line. A term is a line flush left after a blank one; the definitions are
    indented, or (unindented) follow their term directly."""
    out: list[str] = []
    blank, defined = True, False  # defined: the term above has its definition's line
    for line in lines:
        stripped = line.strip()
        if not stripped:
            blank = True
            continue
        if (blank and not line[0].isspace()) or not out:
            out += ([""] if out else []) + [stripped]
            defined = False
        elif defined:
            out[-1] = f"{out[-1]} {stripped}"
        else:
            out.append(stripped)
            defined = True
        blank = False
    return out + ([""] if out else [])


def _numbers_apart(lines: list[str]) -> list[str]:
    """Each rule's number on a line of its own, ahead of its words (a period after the
    number kept with it: `309.1.`)."""
    out: list[str] = []
    for line in lines:
        if m := _RULE.match(line):
            out += [m.group(1) + ("." if m.group(2).startswith(".") else ""), m.group(3)]
        else:
            out.append(line)
    return out
