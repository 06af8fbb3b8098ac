"""The site's search: Pagefind (its binary ships in its Python package) indexes the written
pages into `OUT/pagefind/`, and its own script searches that index in the browser with no
server but the static host's. Rule numbers are searchable whole ("510.1c")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class SearchError(RuntimeError):
    """Pagefind failed: its own words, in one line."""


def index(out: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(out), "--silent",
         "--force-language", "en", "--include-characters", "."],
        capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()
        raise SearchError(f"pagefind could not index {out}: "
                          f"{why[-1] if why else f'exit {done.returncode}'}")
