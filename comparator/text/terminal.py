"""Text written by users, made safe for a terminal: no control characters (an ANSI escape in
a title must not recolour or clear the screen), no Rich markup (a title with `[/bold]`
must not crash the table), no endless lines (a 100 KB title is cut in tables). Text is
wrapped and cut by the columns a terminal shows it in: a Japanese character takes two."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Characters that reorder or hide text (bidi overrides and isolates, marks, separators, a
# byte-order mark): a name with U+202E would print "evil" backwards.
_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def clean(text: str) -> str:
    """Control characters shown as escapes (`\\x1b`), and the invisible ones that reorder
    text (`\\u202e`); newlines and tabs kept."""
    text = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def plain(text: str) -> str:
    """User text for a Rich string that has markup of its own."""
    # Imported here: only Rich output needs it, and `run --json` starts 15 ms sooner.
    from rich.markup import escape

    return escape(clean(text))


def columns(text: str) -> int:
    """The columns `text` takes in a terminal: wide and fullwidth characters (Japanese) two,
    combining marks none, the others one."""
    return sum(_columns_of(c) for c in text)


def _columns_of(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cut(text: str, width: int = 120) -> str:
    """`text` in at most `width` columns: cut with "…" where it is longer."""
    if columns(text) <= width:
        return text
    kept, used = [], 0
    for char in text:
        used += _columns_of(char)
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept) + "…"


# Where a line may not break in Japanese (kinsoku): before closing punctuation and small
# kana, after an opening bracket.
_NO_START = set("、。，．・：；？！ー々ゝゞ」』）】〕〉》］｝〙〗"
                "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.;:!?)]}%")
_NO_END = set("「『（【〔〈《［｛〘〖([{")
_COUNTED = re.compile(r"[0-9]+[\u4e00-\u9fff]{1,2}")


def _chunks(text: str, words: bool = True) -> list[str]:
    """`text` in the pieces a line may break between: runs of spaces, Latin and katakana
    words whole, and each other wide character on its own (Japanese has no spaces: a line
    breaks between any two kanji or kana, except before closing punctuation or after an
    opening bracket, which stay with their neighbour)."""
    out: list[str] = []
    for char in text:
        if out and _joins(out[-1], char, words):
            out[-1] += char
        else:
            out.append(char)
    return out


def _joins(before: str, char: str, words: bool = True) -> bool:
    """Whether `char` stays in one piece with the piece `before` it (a katakana word whole
    unless `words` is false)."""
    if char == " " or before[-1] == " ":
        return char == " " and before[-1] == " "
    if _columns_of(char) == 0 or char in _NO_START or before[-1] in _NO_END:
        return True
    if before[-1].isascii() and before[-1].isdigit() and _columns_of(char) == 2:
        return True  # a number stays with the word it counts: 2007年, 3 点 (kinsoku)
    if _COUNTED.fullmatch(before) and "\u3041" <= char <= "\u309f":
        return True  # and with its counter's kana: 3通り, 1体目
    if words and _katakana(before[-1]) and _katakana(char):
        return True  # a katakana word is a loanword written whole: ブロッカー, W・ブレイカー
    return _columns_of(char) == 1 and _columns_of(before[-1]) == 1


def _katakana(char: str) -> bool:
    return "\u30a0" <= char <= "\u30ff" or "\uff66" <= char <= "\uff9f"


_SPACES = str.maketrans("\n\x0b\x0c\r", "    ")  # textwrap reads each as a space


def wrapped(text: str, width: int, indent: str = "", hang: str = "    ",
            least: int = 20) -> list[str]:
    """`text` as lines of at most `width` columns, first indented by `indent`, the rest by
    `indent + hang`; words are never cut, not even at their hyphens (a window name or a
    rule number stays whole), and only a word longer than a whole line overflows it.
    Columns are counted as a terminal shows them (a Japanese character takes two), and
    text without spaces (Japanese) breaks between its characters, but not inside a
    katakana word. Spaces and tabs are
    read as textwrap reads them: each a space, tabs expanded."""
    width = max(width, least)
    pending = _chunks(text.expandtabs().translate(_SPACES))[::-1]  # popped from the end
    lines: list[str] = []
    while pending:
        margin = indent + hang if lines else indent
        room = width - columns(margin)
        if lines and pending[-1].isspace():
            pending.pop()  # a line starts with a word, not with the space before it
        line = _filled(pending, room)
        if line:
            lines.append(margin + "".join(line))
    return lines or [indent.rstrip()]


def _filled(pending: list[str], room: int) -> list[str]:
    """The pieces of one line, taken from the end of `pending`: as many as fit in `room`
    columns, at least one; no space at its end."""
    line: list[str] = []
    used = 0
    while pending and (used + columns(pending[-1]) <= room or not line):
        if columns(pending[-1]) > room and _katakana(pending[-1][0]):
            # A katakana word longer than a line breaks between its characters, as Japanese
            # does, rather than overflow.
            pending.extend(_chunks(pending.pop(), words=False)[::-1])
            continue
        used += columns(pending[-1])
        line.append(pending.pop())
        if used > room:  # a word longer than a whole line: on a line of its own
            break
    if line and line[-1].isspace():
        line.pop()
    return line


def say(console: Any, text: str, indent: str = "", hang: str = "    ") -> None:
    """Print user text (cleaned, no markup) wrapped to the console's width."""
    for line in wrapped(clean(text), console.width, indent, hang):
        console.print(line, markup=False, highlight=False, soft_wrap=True)


_USERINFO = re.compile(r"(?<![\w%])([\w.+-]+)(:|%3[Aa])([^\s/@%]+|[^\s/@]+?)(@|%40)")
_QUERY_PASSWORD = re.compile(r"((?:[?&;]|%3[Ff]|%26)(?:password|passwd|pwd)(?:=|%3[Dd]))"
                             r"[^&\s;]*", re.IGNORECASE)


def masked(text: str) -> str:
    """Any credentials in `text` hidden: a URL's password (`user:PW@host`, also URL-encoded
    `user%3APW%40host`, and a malformed `scheme:/user:PW@host`), a `password=` query
    parameter. Errors naming a database go through here: a password is never printed."""
    text = _QUERY_PASSWORD.sub(lambda m: f"{m.group(1)}***", text)
    return _USERINFO.sub(lambda m: f"{m.group(1)}{m.group(2)}***{m.group(4)}", text)


def echo_width() -> int:
    """The width plain report lines wrap at: the terminal's (or $COLUMNS); lines piped to a
    file or another program are not wrapped, so that a script reads one line a thing."""
    import os
    import shutil
    import sys

    if os.environ.get("COLUMNS") or sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return 10**6
