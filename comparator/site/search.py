"""The site's search: Pagefind (its binary ships in its Python package) indexes the written
pages into `OUT/pagefind/`, and its own script searches that index in the browser with no
server but the static host's. Rule numbers are searchable whole ("510.1c").

Pagefind says nothing and exits 0 when it can't write its index (a full disk leaves its
files empty), so what it wrote is checked: its entry file counts every page written, and
each of its index files is whole."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import zlib
from pathlib import Path


class SearchError(RuntimeError):
    """Pagefind failed: its own words, or what is wrong with its index, in one line."""


# What the search page loads (search.html), and what Pagefind's script then fetches.
_SCRIPTS = ("pagefind-ui.js", "pagefind-ui.css", "pagefind.js", "pagefind-worker.js")
# Pagefind's own files (its index, its WebAssembly) are gzip, their text signed thus.
_SIGNATURE = b"pagefind_dcd"


def index(site: Path, pages: int, shown: Path | None = None) -> None:
    """Index the `pages` pages written in `site` (`shown`: the folder as messages name it)
    and check the index is whole; SearchError where it is not."""
    shown = shown or site
    try:
        done = subprocess.run(
            # Each page's language is its <html lang>: Pagefind keeps an index for each
            # (its search box, on a Japanese page, searches the Japanese pages).
            [sys.executable, "-m", "pagefind", "--site", str(site), "--silent",
             "--include-characters", "."],
            capture_output=True, text=True, timeout=600, errors="replace")
    except subprocess.TimeoutExpired:
        raise SearchError(f"pagefind could not index {shown}: it ran for more than 10 "
                          f"minutes") from None
    except OSError as err:
        raise SearchError(f"pagefind could not index {shown}: {err.strerror or err}") from None
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()
        raise SearchError(f"pagefind could not index {shown}: "
                          f"{why[-1] if why else f'exit {done.returncode}'}")
    _in_order(site / "pagefind" / "pagefind-entry.json")
    wrong = incomplete(site / "pagefind", pages)
    full = _free(site) == 0
    if wrong or full:  # a file written as the disk filled up may be cut short anywhere
        raise SearchError(f"pagefind could not index {shown}: its index is incomplete "
                          f"({wrong or 'written as the disk filled up'})"
                          f"{'; the disk is full' if full else ''}")


def _in_order(entry: Path) -> None:
    """Pagefind writes its languages in the order of a hash map, which changes from one
    run to the next: written again in the order of their names, the same input gives the
    same bytes. (What is wrong with a file that is not whole is said by `incomplete`.)"""
    try:
        doc = json.loads(entry.read_bytes())
        doc["languages"] = dict(sorted(doc["languages"].items()))
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return
    entry.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")),
                     encoding="utf-8")


def incomplete(bundle: Path, pages: int) -> str | None:
    """What is wrong with the index Pagefind wrote into `bundle` for `pages` pages, in a
    few words; None where it is whole."""
    entry = bundle / "pagefind-entry.json"
    try:
        doc = json.loads(entry.read_bytes())
        languages = doc["languages"]
        indexed = sum(int(lang["page_count"]) for lang in languages.values())
        files = [f"pagefind.{lang['hash']}.pf_meta" for lang in languages.values()] + \
                [f"wasm.{lang['wasm'] or 'unknown'}.pagefind" for lang in languages.values()]
        # A language Pagefind has no stemmer for (Japanese) is searched by its "unknown"
        # WebAssembly, whole words only.
    except FileNotFoundError:
        return "pagefind/pagefind-entry.json is missing"
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return "pagefind/pagefind-entry.json is empty or unreadable"
    if indexed != pages:
        return f"{indexed} of the {pages} pages indexed"
    for name in (*_SCRIPTS, *files):
        if not (bundle / name).is_file():
            return f"pagefind/{name} is missing"
    if not any((bundle / "index").glob("*.pf_index")):
        return "pagefind/index/ holds no index"
    limit = _size_limit()
    for path in sorted(bundle.rglob("*")):
        if not path.is_file():
            continue
        where = path.relative_to(bundle.parent).as_posix()
        try:
            data = path.read_bytes()
        except OSError as err:
            return f"{where} can't be read: {err.strerror or err}"
        if not data:
            return f"{where} is empty"
        if len(data) == limit:
            return f"{where} is cut short at the limit on a file's size (ulimit -f)"
        if path.suffix.startswith(".pf_") or path.suffix == ".pagefind":
            try:
                whole = gzip.decompress(data).startswith(_SIGNATURE)
            except (OSError, EOFError, zlib.error):
                whole = False
            if not whole:
                return f"{where} is cut short"
    return None


def _size_limit() -> int | None:
    """The most bytes a file may hold here (RLIMIT_FSIZE, `ulimit -f`), which Pagefind
    inherits; a file it wrote that holds just as many was cut short. None: no limit."""
    try:
        import resource
    except ImportError:  # not on POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def _free(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None
