"""Text written by users, made safe for a terminal: no control characters (an ANSI escape in
a title must not recolour or clear the screen), no Rich markup (a title with `[/bold]`
must not crash the table), no endless lines (a 100 KB title is cut in tables)."""

from __future__ import annotations

import re
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


def cut(text: str, width: int = 120) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def wrapped(text: str, width: int, indent: str = "", hang: str = "    ") -> list[str]:
    """`text` as lines of at most `width` columns, first indented by `indent`, the rest by
    `indent + hang`; words are never cut, not even at their hyphens (a window name or a
    rule number stays whole)."""
    import textwrap

    return textwrap.wrap(text, width=max(width, 20), initial_indent=indent,
                         subsequent_indent=indent + hang, break_long_words=False,
                         break_on_hyphens=False) or [indent.rstrip()]


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
