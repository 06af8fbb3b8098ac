"""Text written by users, made safe for a terminal: no control characters (an ANSI escape in
a title must not recolour or clear the screen), no Rich markup (a title with `[/bold]`
must not crash the table), no endless lines (a 100 KB title is cut in tables)."""

from __future__ import annotations

import re
from typing import Any

from rich.markup import escape

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Control characters shown as escapes; newlines and tabs kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def plain(text: str) -> str:
    """User text for a Rich string that has markup of its own."""
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
