"""Text written by users, made safe for a terminal: no control characters (an ANSI escape in
a title must not recolour or clear the screen), no Rich markup (a title with `[/bold]`
must not crash the table), no endless lines (a 100 KB title is cut in tables)."""

from __future__ import annotations

import re

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
