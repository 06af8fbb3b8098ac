"""Hostile input to `rulesdiff site`, third round (issue 49; tests/hostile/site-*.yaml): a
scenario with only its required fields builds its page; a tampered store row, a path the
system refuses, a search index cut short (a full disk, a limit on a file's size) are each
one line naming the file or the table and row, exit 2, no traceback, no raw control
character; a refused site leaves no store it made and no folder half-written, and never
empties a folder that is not a site rulesdiff wrote; every text stays escaped. Each case
runs as a real process under a timeout (the helpers of tests/test_hostile_round2.py)."""

from __future__ import annotations

import gzip
import json
import math
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_hostile_round2 import clean_exit, rulesdiff

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
BARE = HOSTILE / "site-bare-mtg.yaml"
BARE_DM = HOSTILE / "site-bare-duel-masters.yaml"
HTML = HOSTILE / "site-html-everywhere.yaml"


def one_line(result, code: int = 2) -> str:
    """The process failed as the tool fails: one line on stderr, `code`, nothing else."""
    clean_exit(result, code=code)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulesdiff: "), result.stderr
    assert not result.stdout.strip(), result.stdout
    return lines[0]


def left_in(folder: Path) -> list[str]:
    """What a build left in a folder (its working folders are hidden)."""
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture(scope="module")
def explored(tmp_path_factory):
    """A store holding the bare scenario, run and explored in every era, by a site built
    with it; and that site."""
    root = tmp_path_factory.mktemp("explored")
    db = root / "store.db"
    done = rulesdiff("site", str(root / "site"), str(BARE), "--db", str(db), "--jobs", "1")
    assert clean_exit(done, code=0)
    return db, root / "site"


def _copy(db: Path, to: Path) -> Path:
    target = to / "copy.db"
    with sqlite3.connect(db) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    return target


# -- 1. a scenario with only its required fields ----------------------------------------------


def test_a_scenario_with_only_its_required_fields_builds_its_page(tmp_path):
    db = tmp_path / "x.db"
    clean_exit(rulesdiff("dataset", "build", str(BARE), str(BARE_DM), "--db", str(db),
                         "--jobs", "1"), code=0)
    out = tmp_path / "out"
    done = rulesdiff("site", str(out), str(BARE), str(BARE_DM), "--db", str(db),
                     "--no-explore")
    clean_exit(done, code=0)
    assert "wrote" in done.stdout and not done.stderr.strip()
    for name, title in (("site-bare-mtg", "Bare"), ("site-bare-duel-masters", "Bare attack")):
        html = (out / "scenarios" / f"{name}.html").read_text(encoding="utf-8")
        assert f"<h1>{title}</h1>" in html
        assert 'class="lead"' not in html and "<h2>Sources</h2>" not in html


# -- 2. a tampered store ----------------------------------------------------------------------

TAMPERED = {
    "tags not JSON": ("UPDATE scenario SET tags = 'not json'",
                      "table scenario, row {hash}: the stored JSON is damaged"),
    "tags not a list": ("UPDATE scenario SET tags = '{{\"a\": 1}}'",
                        "table scenario, row {hash}: its tags are not a list of words"),
    "tags not words": ("UPDATE scenario SET tags = '[1, [2]]'",
                       "table scenario, row {hash}: its tags are not a list of words"),
    "exploration not JSON": ("UPDATE exploration SET result_json = 'nope' WHERE era = 'm10'",
                             "table exploration, row {m10}: the stored JSON is damaged"),
    "exploration too deep": ("UPDATE exploration SET result_json = '" + "[" * 100_000
                             + "' WHERE era = 'm10'",
                             "table exploration, row {m10}: the stored JSON is damaged"),
    "no outcomes": ("UPDATE exploration SET result_json = '{{\"lines\": 1}}' "
                    "WHERE era = 'm10'",
                    "table exploration, row {m10}: not an exploration this rulesdiff wrote "
                    "(no outcomes)"),
    "not an object": ("UPDATE exploration SET result_json = '[1]' WHERE era = 'm10'",
                      "table exploration, row {m10}: not an exploration this rulesdiff "
                      "wrote (not an object)"),
    "a player renamed": ("UPDATE exploration SET result_json = replace(result_json, "
                         "'\"B\"', '\"C\"') WHERE era = 'm10'",
                         "table exploration, row {m10}: not an exploration of "
                         "site-bare-mtg this rulesdiff can show (KeyError: 'B')"),
    "an escape in the JSON": ("UPDATE exploration SET result_json = char(27) || '[31m' "
                              "WHERE era = 'm10'",
                              "table exploration, row {m10}: the stored JSON is damaged"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_row_is_named_and_writes_nothing(explored, tmp_path, case):
    db = _copy(explored[0], tmp_path)
    with sqlite3.connect(db) as c:
        m10 = c.execute("SELECT exploration_id FROM exploration WHERE era = 'm10'").fetchone()
        content_hash = c.execute("SELECT content_hash FROM scenario").fetchone()
        c.execute(TAMPERED[case][0].format())
    said = TAMPERED[case][1].format(m10=m10[0], hash=bytes(content_hash[0]).hex()[:12])
    out = tmp_path / "out"
    line = one_line(rulesdiff("site", str(out), str(BARE), "--db", str(db)))
    # As `show` and `dataset check` say a damaged row: the store, the table and row, why.
    assert line.startswith("rulesdiff: copy.db: can't read the stored data (ValueError: "
                           + said), line
    assert line.endswith("the database is damaged or was not written by this rulesdiff")
    assert not [n for n in left_in(tmp_path) if not n.startswith("copy.db")]  # no site


# -- 3. a path the system refuses -------------------------------------------------------------


@pytest.mark.parametrize("where", ["{long}", "{long}/sub", "new/{long}", "new/{long}/sub"])
def test_a_name_too_long_is_one_line_and_makes_nothing(tmp_path, where):
    out = tmp_path / where.format(long="a" * 300)
    db = tmp_path / "none.db"
    line = one_line(rulesdiff("site", str(out), str(BARE), "--db", str(db)))
    assert "can't write the site: File name too long" in line and str(out) in line
    assert left_in(tmp_path) == []  # no store, no folder


# -- 4. a search index cut short --------------------------------------------------------------


def _limited(kib: int):
    """`ulimit -f`: Pagefind's bigger scripts (175 KB) are cut short, the store (a new
    one, 130 KB) and the pages fit."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (kib * 1024, kib * 1024))
    return limit


def test_an_index_cut_short_by_a_file_size_limit_fails_loudly(explored, tmp_path):
    # Under `ulimit -f`, Pagefind writes its bigger scripts cut short, and says nothing.
    db = _copy(explored[0], tmp_path)
    out = tmp_path / "out"
    exe = shutil.which("rulesdiff")
    cmd = [exe] if exe else [sys.executable, "-m", "comparator"]
    done = subprocess.run([*cmd, "site", str(out), str(BARE), "--db", str(db)],
                          capture_output=True, text=True, timeout=60, errors="replace",
                          stdin=subprocess.DEVNULL, preexec_fn=_limited(160))
    line = one_line(done)
    assert line.startswith(f"rulesdiff: pagefind could not index {out}: its index is "
                           f"incomplete (pagefind/"), line
    assert "is cut short at the limit on a file's size (ulimit -f)" in line
    assert not [n for n in left_in(tmp_path) if not n.startswith("copy.db")]


@pytest.fixture
def nearly_full(explored, tmp_path):
    """A file system of its own (a tmpfs) that holds the bare scenario's pages and not
    their search index: needs the right to mount (CI runs as root); skipped elsewhere."""
    pages = sum(math.ceil(p.stat().st_size / 4096) * 4096
                for p in explored[1].rglob("*") if p.is_file() and "pagefind" not in p.parts)
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={pages // 1024 + 64}k",
                              "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("can't mount a small file system here (not root)")
    yield where
    subprocess.run(["umount", str(where)], capture_output=True)


def test_a_full_disk_is_one_line_and_leaves_nothing(nearly_full, explored, tmp_path):
    db = _copy(explored[0], tmp_path)
    out = nearly_full / "out"
    line = one_line(rulesdiff("site", str(out), str(BARE), "--db", str(db)))
    assert line.startswith(f"rulesdiff: pagefind could not index {out}: its index is "
                           f"incomplete ("), line
    assert line.endswith("; the disk is full")
    assert left_in(nearly_full) == []


def _pagefind_writes(files: dict[str, bytes]):
    """A Pagefind that writes these files into the site's pagefind/ and exits 0."""
    def run(cmd, **kwargs):
        bundle = Path(cmd[cmd.index("--site") + 1]) / "pagefind"
        for name, data in files.items():
            (bundle / name).parent.mkdir(parents=True, exist_ok=True)
            (bundle / name).write_bytes(data)
        return subprocess.CompletedProcess(cmd, 0, "", "")
    return run


def _whole(pages: int) -> dict[str, bytes]:
    signed = gzip.compress(b"pagefind_dcd" + b"x" * 100, mtime=0)
    entry = {"version": "1", "languages": {"en": {"hash": "en_1", "wasm": "en",
                                                  "page_count": pages}}}
    return {"pagefind-entry.json": json.dumps(entry).encode(), "pagefind-ui.js": b"ui",
            "pagefind-ui.css": b"css", "pagefind.js": b"js", "pagefind-worker.js": b"w",
            "pagefind.en_1.pf_meta": signed, "wasm.en.pagefind": signed,
            "index/en_1.pf_index": signed, "fragment/en_1.pf_fragment": signed}


@pytest.mark.parametrize(("change", "said"), [
    ({}, None),
    ({"pagefind-entry.json": b""}, "pagefind/pagefind-entry.json is empty or unreadable"),
    ({"pagefind-ui.js": b""}, "pagefind/pagefind-ui.js is empty"),
    ({"index/en_1.pf_index": gzip.compress(b"pagefind_dcd" + bytes(range(256)) * 8)[:200]},
     "pagefind/index/en_1.pf_index is cut short"),
    ({"pagefind.en_1.pf_meta": None}, "pagefind/pagefind.en_1.pf_meta is missing"),
    ({"pagefind-entry.json": json.dumps({"languages": {"en": {
        "hash": "en_1", "wasm": "en", "page_count": 2}}}).encode()},
     "2 of the 3 pages indexed"),
])
def test_what_pagefind_wrote_is_checked(tmp_path, monkeypatch, change, said):
    from comparator.site import search

    files = {k: v for k, v in {**_whole(3), **change}.items() if v is not None}
    monkeypatch.setattr(search.subprocess, "run", _pagefind_writes(files))
    (tmp_path / "pagefind").mkdir()
    if said is None:
        search.index(tmp_path, 3)
        return
    with pytest.raises(search.SearchError) as err:
        search.index(tmp_path, 3, Path("OUT"))
    assert str(err.value) == f"pagefind could not index OUT: its index is incomplete ({said})"


# -- 5. a refused site leaves nothing; a folder that is not a site is never emptied ----------


def test_a_refused_site_makes_no_store_and_no_folder(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: x\nplayers: 3\n", encoding="utf-8")
    line = one_line(rulesdiff("site", str(tmp_path / "new" / "out"), str(bad), "--db",
                              str(tmp_path / "none.db")))
    # The store was made (the scenarios run once it is open), and is gone with the site.
    assert "bad.yaml" in line
    assert left_in(tmp_path) == ["bad.yaml"]


def test_a_folder_that_is_not_a_site_is_refused_untouched(tmp_path):
    mine = tmp_path / "mine"
    (mine / "assets").mkdir(parents=True)
    (mine / "index.html").write_text("my own page", encoding="utf-8")
    (mine / "assets" / "logo.png").write_bytes(b"png")
    line = one_line(rulesdiff("site", str(mine), str(BARE), "--db", str(tmp_path / "s.db")))
    assert line == (f"rulesdiff: {mine}: a folder that is not a site rulesdiff wrote (it "
                    f"would be mixed with the site's pages); name a new or empty folder")
    assert left_in(tmp_path) == ["mine"] and left_in(mine) == ["assets", "index.html"]
    assert (mine / "index.html").read_text(encoding="utf-8") == "my own page"
    assert left_in(mine / "assets") == ["logo.png"]


def test_a_site_is_replaced_whole_or_not_at_all(explored, tmp_path):
    db = _copy(explored[0], tmp_path)
    site = tmp_path / "site"
    shutil.copytree(explored[1], site)
    (site / "CNAME").write_text("example.org", encoding="utf-8")
    (site / "scenarios" / "gone.html").write_text("an old page", encoding="utf-8")
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    # A build that fails leaves the site as it was.
    exe = shutil.which("rulesdiff")
    cmd = [exe] if exe else [sys.executable, "-m", "comparator"]
    done = subprocess.run([*cmd, "site", str(site), str(BARE), "--db", str(db)],
                          capture_output=True, text=True, timeout=60,
                          errors="replace", stdin=subprocess.DEVNULL,
                          preexec_fn=_limited(160))
    assert "pagefind could not index" in one_line(done)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    # One that succeeds replaces the site's pages, and keeps what else the folder holds.
    clean_exit(rulesdiff("site", str(site), str(BARE), str(BARE_DM), "--db", str(db),
                         "--no-explore"), code=0)
    assert (site / "CNAME").read_text(encoding="utf-8") == "example.org"
    assert left_in(site / "scenarios") == ["site-bare-duel-masters.html", "site-bare-mtg.html"]
    entry = json.loads((site / "pagefind" / "pagefind-entry.json").read_bytes())
    assert entry["languages"]["en"]["page_count"] == 25
    assert [n for n in os.listdir(site) if n.startswith(".")] == []
    assert [n for n in left_in(tmp_path) if not n.startswith("copy.db")] == ["site"]


# -- 6. every text stays escaped --------------------------------------------------------------


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):  # noqa: ANN001 - HTMLParser's signature
        self.found.append((tag, attrs))


def test_markup_in_a_scenario_and_in_the_store_is_shown_as_text(tmp_path):
    db = tmp_path / "s.db"
    out = tmp_path / "out"
    clean_exit(rulesdiff("site", str(out), str(HTML), "--db", str(db), "--no-explore"),
               code=0)
    pages = [p for p in out.rglob("*.html") if "pagefind" not in p.parts]
    assert (out / "scenarios" / "site-html-everywhere.html") in pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for raw in ("<script>alert", "<img src=x", "<svg onload", "<i>B</i>", "<b>bold",
                    "<a href='javascript"):
            assert raw not in html, (page.name, raw)
        parser = _Tags()
        parser.feed(html)
        for tag, attrs in parser.found:
            assert not any(name.startswith("on") for name, _ in attrs), (page.name, tag)
            assert not any("javascript:" in (value or "") for _, value in attrs), page.name
            if tag == "script":
                assert dict(attrs).get("src", "").endswith(("assets/search.js",
                                                            "pagefind/pagefind-ui.js"))
    said = (out / "scenarios" / "site-html-everywhere.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in said
    assert "&lt;img src=x onerror=alert(&#39;description&#39;)&gt; &amp; " in said
