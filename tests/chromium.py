"""The machine's Chromium (Debian's package, which `.ci/run` installs), driven by
Playwright, as every browser test of the site and the workbench launches it: skipped,
saying why, only where no browser is installed, and never under `.ci/run` (which sets
RULESDIFF_REQUIRE_BROWSER)."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
        "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]


def missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    return None


@contextlib.contextmanager
def launched() -> Iterator[Any]:
    """The browser, for one module's tests: two Playwright drivers can't run at once in
    one process, so no fixture holds one longer."""
    why = missing()
    if why:
        if os.environ.get("RULESDIFF_REQUIRE_BROWSER"):
            pytest.fail(f"the browser tests must run here: {why}")
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


JAPANESE_FONTS = frozenset({"IPAGothic", "IPAPGothic", "Noto Sans CJK JP", "Noto Sans JP"})


def japanese_glyphs(page: Any, selectors: tuple[str, ...]) -> dict[str, tuple[int, list]]:
    """For the first element of each selector, how many of its glyphs a Japanese font drew,
    as Chromium says (its DevTools protocol names the font of each glyph: a box drawn for
    a missing glyph is no Japanese font's), and every font it used."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        out = {}
        for selector in selectors:
            node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})
            used = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
            out[selector] = (sum(f["glyphCount"] for f in used
                                 if f["familyName"] in JAPANESE_FONTS), used)
        return out
    finally:
        cdp.detach()
