"""`rulesdiff site` (issue 23), built from the shipped library into an empty store and
checked in a real browser: the machine's Chromium (Debian's package, which `.ci/run`
installs), driven by Playwright. Every page loads with no console error and no failed or
outside request, over HTTP and from disk; every internal link resolves; the board of a
known scenario shows its creatures; search finds a scenario by tag and by card name;
axe-core finds no serious violation on the home, a scenario and a change page; phone and
desktop screenshots are written and are not blank; a second build gives the same bytes.

Skipped, saying why, only where no browser is installed (and never under `.ci/run`, which
sets RULESDIFF_REQUIRE_BROWSER)."""

from __future__ import annotations

import os
import re
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from chromium import launched
from typer.testing import CliRunner

from comparator.cli.main import app

KNOWN = "deathtouch-trample-over-planeswalker"


GENERATED = 40  # as conftest.py stores it beside the library: the statistics count it


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


def pages(site: Path) -> list[str]:
    return sorted(str(p.relative_to(site)) for p in site.rglob("*.html")
                  if "pagefind" not in p.parts)


# -- the files ---------------------------------------------------------------------------------


def test_the_site_has_every_page(built):
    site, _, summary, _ = built
    assert summary["scenarios"] == len(list((Path(__file__).parents[2] / "data" /
                                             "scenarios").glob("*.yaml")))
    # Every scenario is explored but one every era refuses, as its file expects.
    from comparator.compare.running import expected_refusals
    from comparator.files.locations import shipped_scenarios
    from comparator.scenarios.loader import load
    from versions import eras_of

    refused = [p for p in shipped_scenarios() if set(eras_of((s := load(p)).game))
               <= set(expected_refusals(s))]
    # And those too large to explore with the default limit, each page saying so.
    too_large = [p for p in (site / "scenarios").glob("*.html")
                 if "<p>Not explored: " in p.read_text(encoding="utf-8")]
    assert {p.stem for p in too_large} >= {"underworld-cerberus-blocked-by-ten"}
    assert summary["explored"] == summary["scenarios"] - len(refused) - len(too_large)
    assert refused
    names = set(pages(site))
    assert {"index.html", "scenarios.html", "tags.html", "topics.html", "rules.html",
            "statistics.html",
            "search.html", f"scenarios/{KNOWN}.html", "scenarios/dm-three-blockers-draw.html",
            "changes/sixth-to-m10.html", "changes/m10-to-m11.html",
            "changes/m11-to-foundations.html", "changes/fifth-to-sixth.html",
            "changes/dm-pre-2021-09-to-dm-2021-09.html", "eras/fifth.html",
            "eras/dm-2021-09.html"} <= names
    assert (site / "pagefind" / "pagefind-ui.js").exists()


def test_the_same_input_gives_the_same_bytes(built):
    one, two, _, _ = built
    files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    differ = [str(f) for f in files if (one / f).read_bytes() != (two / f).read_bytes()]
    assert not differ, differ[:10]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):  # noqa: ANN001 - HTMLParser's signature
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.links.append(value)
            if name == "id" and value:
                self.ids.add(value)


def test_every_internal_link_resolves_and_nothing_is_outside(built):
    site = built[0]
    parsed = {}
    for name in pages(site):
        parser = _Links()
        parser.feed((site / name).read_text(encoding="utf-8"))
        parsed[name] = parser
    broken = []
    for name, parser in parsed.items():
        for link in parser.links:
            url = urlsplit(link)
            assert not url.scheme and not url.netloc, f"{name} asks outside: {link}"
            target = (site / name).parent / unquote(url.path) if url.path else site / name
            target = target.resolve()
            if not target.exists():
                broken.append(f"{name} -> {link}")
                continue
            if url.fragment and target.suffix == ".html":
                ids = parsed[str(target.relative_to(site.resolve()))].ids
                if url.fragment not in ids:
                    broken.append(f"{name} -> {link} (no such anchor)")
    assert not broken, broken[:20]


def test_a_scenario_page_holds_its_pictures_and_its_rules(built):
    html = (built[0] / "scenarios" / f"{KNOWN}.html").read_text(encoding="utf-8")
    assert html.count("<svg") >= 5 and 'role="img"' in html
    assert re.search(r'<title id="before-title">[^<]+</title>', html)
    assert "rules.html#m11-702-2b" in html  # the m11 hint cites 702.2b, linked
    assert "walker loyalty 5 → 2" in html or "loyalty 5 → 2" in html


def test_a_duel_masters_page_shows_shields_and_draws(built):
    html = (built[0] / "scenarios" / "dm-three-blockers-draw.html").read_text(
        encoding="utf-8")
    assert "5 shields" in html and "drew 3" in html and "drew 1" in html
    assert "is chosen to take the attack of striker" in html
    change = (built[0] / "changes" / "dm-pre-2021-09-to-dm-2021-09.html").read_text(
        encoding="utf-8")
    assert "dm-three-blockers-draw.html" in change


def test_after_the_attack_only_the_blocker_blocks(built):
    """Duel Masters from 2021-09-07: of three blockers chosen, only the last blocks; the
    attack ends on it. Before, each blocked as it redirected the attack."""
    html = (built[0] / "scenarios" / "dm-three-blockers-draw.html").read_text(
        encoding="utf-8")
    # Each picture of the board (drawn for a wide screen and for a phone) says the same.
    after = _pictures(html.split('id="era-dm-2021-09"')[1].split("</figure>")[0])
    before = _pictures(html.split('id="era-dm-pre-2021-09"')[1].split("</figure>")[0])
    assert len(after) == len(before) == 2
    for svg in after:
        assert svg.count("<title>cosmo3 blocks striker</title>") == 1
        assert "<title>cosmo1 blocks striker</title>" not in svg
        assert "<title>striker attacks cosmo3</title>" in svg
    for svg in before:
        assert all(f"<title>cosmo{i} blocks striker</title>" in svg for i in (1, 2, 3))


def _pictures(html: str) -> list[str]:
    return re.findall(r"<svg\b.*?</svg>", html, flags=re.S)


def test_what_a_scenario_says_is_escaped_everywhere(tmp_path):
    scenario = tmp_path / "sly.yaml"
    scenario.write_text(
        'id: sly\ntitle: "<script>alert(1)</script>"\ndescription: "<b>bold</b>"\n'
        'players: [{name: \'A" onmouseover="alert(1)\'}, {name: B}]\n'
        'active: \'A" onmouseover="alert(1)\'\n'
        'permanents:\n  - {id: bear, controller: \'A" onmouseover="alert(1)\', power: 2, '
        'toughness: 2}\ncombat:\n  attacks: {bear: B}\n', encoding="utf-8")
    out = tmp_path / "out"
    done = CliRunner().invoke(app, ["site", str(out), str(scenario), "--db",
                                    str(tmp_path / "s.db"), "--no-explore"])
    assert done.exit_code == 0, done.output
    html = (out / "scenarios" / "sly.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<b>bold" not in html
    assert 'onmouseover="alert' not in html


def test_bad_input_is_one_line_and_writes_no_site(tmp_path):
    runner = CliRunner()
    afile = tmp_path / "taken"
    afile.write_text("not a folder")
    done = runner.invoke(app, ["site", str(afile), "--db", str(tmp_path / "s.db")])
    assert done.exit_code == 2 and "not a folder" in done.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: x\nplayers: 3\n")
    out = tmp_path / "out"
    done = runner.invoke(app, ["site", str(out), str(bad), "--db", str(tmp_path / "s.db")])
    assert done.exit_code == 2 and "bad.yaml" in done.output
    assert not out.exists()
    era = runner.invoke(app, ["site", str(out), "--era", "seventh"])
    assert era.exit_code == 2 and "seventh" in era.output


# -- in the browser ---------------------------------------------------------------------------


def _watch(page):
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    # A request the next navigation cancels (the icon, still loading) did not fail.
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}")
            if "ERR_ABORTED" not in (r.failure or "") else None)
    page.on("response", lambda r: problems.append(f"{r.status}: {r.url}")
            if r.status >= 400 else None)
    return problems


def test_every_page_loads_clean_over_http(browser, served, built):
    page = browser.new_page()
    problems = _watch(page)
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith(served) and not r.url.startswith("data:") else None)
    headings: list[str] = []
    for name in pages(built[0]):
        page.goto(f"{served}/{name}", wait_until="load")
        levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6",
                                           "els => els.map(e => Number(e.tagName[1]))")
        if levels.count(1) != 1 or any(b - a > 1 for a, b in
                                       zip(levels, levels[1:], strict=False)):
            headings.append(f"{name}: {levels}")
    page.close()
    assert not problems, problems[:20]
    assert not outside, outside[:10]
    assert not headings, headings[:10]


def test_pages_work_opened_from_disk(browser, built):
    page = browser.new_page()
    problems = _watch(page)
    site = built[0].resolve()
    for name in ("index.html", f"scenarios/{KNOWN}.html", "changes/sixth-to-m10.html",
                 "statistics.html", "search.html"):
        page.goto((site / name).as_uri(), wait_until="load")
    offline = page.locator("#search-offline")
    assert offline.is_visible()  # search says what it needs, rather than failing
    page.close()
    assert not problems, problems


def test_the_board_shows_the_creatures(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/scenarios/{KNOWN}.html")
    before = page.locator("figure.board").first.locator("svg").locator("visible=true")
    assert before.count() == 1  # of the pictures drawn, the one that fits the screen
    ids = before.locator("g.piece").evaluate_all("gs => gs.map(g => g.dataset.id)")
    assert ids == ["walker", "bear", "snake"]
    label = before.get_attribute("aria-labelledby")
    assert label and all(page.locator(f"[id='{i}']").count() == 1 for i in label.split())
    m11 = page.locator("section[aria-labelledby='era-m11'] figure.board").first
    shown = m11.locator("svg").locator("visible=true")
    assert "loyalty 5 → 2" in shown.text_content()
    # The bear died: said in the picture (not only greyed) and in its caption, alike.
    bear = shown.locator("g.piece[data-id='bear']").evaluate(
        "g => [...g.querySelectorAll('text')].map(t => t.textContent).join(' ')")
    assert bear.endswith("✝ gone to the graveyard"), bear
    assert "bear 3/3, gone to the graveyard" in m11.locator("figcaption").inner_text()
    page.close()


def test_a_multiplayer_board_shows_every_player_in_their_place(browser, served):
    # Two-Headed Giant (docs/multiplayer.md): the defending team above, the active team
    # below, the active player at the bottom; each player with their team and the team's
    # shared life; every player's creatures on their own row, the lines between them.
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(f"{served}/scenarios/two-headed-giant-combined-block.html")
    before = page.locator("figure.board").first.locator("svg").locator("visible=true")
    players = before.locator("g.player").evaluate_all(
        "gs => gs.map(g => [g.dataset.player, g.getBoundingClientRect().top])")
    assert [p for p, _ in sorted(players, key=lambda p: p[1])] == ["D", "C", "B", "A"]
    said = before.locator("g.player[data-player='C']").text_content()
    assert "team cd" in said and "30 life" in said
    box = before.bounding_box()
    assert box and box["x"] + box["width"] <= 390  # no wider than the phone
    m10 = page.locator("section[aria-labelledby='era-m10'] figure.board").first
    after = m10.locator("svg").locator("visible=true")
    for player in ("C", "D"):  # the team's shared life, on both of its players
        assert "30 → 26 life" in after.locator(f"g.player[data-player='{player}']") \
            .text_content()
    assert "cwall blocks giant" in m10.locator("figcaption").inner_text()
    # A card that left the game with the player who lost is said so, not as a token.
    page.goto(f"{served}/scenarios/multiplayer-player-killed-by-first-strike.html")
    m10 = page.locator("section[aria-labelledby='era-m10'] figure.board").first
    wall = m10.locator("svg").locator("visible=true").locator("g.piece[data-id='wall']")
    assert "left the" in wall.text_content()  # wrapped over two lines of the card
    assert "wall 2/2, gone: left the game with its owner" in \
        m10.locator("figcaption").inner_text()
    page.close()


@pytest.mark.parametrize("query, found", [
    ("planeswalker", f"/scenarios/{KNOWN}"),  # a tag
    ("Moonglove Winnower", "/scenarios/moonglove-winnower-three-blockers"),  # a card
])
def test_search_finds_by_tag_and_by_card_name(browser, served, query, found):
    page = browser.new_page()
    page.goto(f"{served}/search.html")
    page.fill(".pagefind-ui__search-input", query)
    page.wait_for_selector(".pagefind-ui__result-link", timeout=20_000)
    page.wait_for_timeout(500)
    links = page.eval_on_selector_all(".pagefind-ui__result-link",
                                      "els => els.map(e => e.getAttribute('href'))")
    page.close()
    assert any(found in (link or "") for link in links), links


@pytest.mark.parametrize("name", ["index.html", f"scenarios/{KNOWN}.html",
                                  "changes/m11-to-foundations.html"])
def test_no_serious_accessibility_violation(browser, served, name):
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page()
    page.goto(f"{served}/{name}")
    results = Axe().run(page)
    page.close()
    serious = [v for v in results.response["violations"]
               if v.get("impact") in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
                         for v in serious]


# The pages a reader meets on a phone as on a desktop: each must fit the screen.
SHOWN = ("index.html", f"scenarios/{KNOWN}.html",
         "scenarios/underworld-cerberus-blocked-by-ten.html",
         "scenarios/dm-three-blockers-draw.html", "changes/m11-to-foundations.html",
         "statistics.html", "topics.html")
LEGIBLE = 11  # px: the smallest a picture's words may be drawn on the screen

# Each visible picture's words, as drawn: their size on the screen (the picture's own size
# scaled to the width it is shown at), and where they stand.
_WORDS = """svg => {
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale,
            left: r.left, right: r.right, label: !!t.closest('g.role-axis-label'),
            axis: (t.closest('g.role-axis') || {getAttribute: () => ''})
                  .getAttribute('aria-label') || ''};
  });
}"""


def test_screenshots_at_phone_and_desktop_width(browser, served, tmp_path_factory):
    folder = Path(os.environ.get("RULESDIFF_SCREENSHOTS") or
                  tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    for width, height, label in ((390, 844, "phone"), (1280, 900, "desktop")):
        page = browser.new_page(viewport={"width": width, "height": height})
        for name in SHOWN:
            page.goto(f"{served}/{name}")
            # Nothing wider than the screen; no picture scrolls sideways in its box either
            # (tables may: they say so).
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, (label, name, wide)
            boxes = page.eval_on_selector_all(
                "figure", "fs => fs.filter(f => f.offsetParent).map(f => "
                          "[f.scrollWidth, f.clientWidth])")
            assert all(inner <= outer + 1 for inner, outer in boxes), (label, name, boxes)
            # Every word of every picture shown is drawn at a size one can read.
            for svg in page.locator("figure svg").locator("visible=true").all():
                small = [w for w in svg.evaluate(_WORDS) if w["px"] < LEGIBLE]
                assert not small, (label, name, small[:3])
            shot = folder / f"{label}-{name.replace('/', '-').removesuffix('.html')}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert _colours(shot.read_bytes()) > 10, shot
        page.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_timeline_years_are_legible(browser, served, built, width):
    """Each game's timeline shown at the screen's width labels its years at a readable
    size, at least three of them, no two touching."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(f"{served}/index.html")
    charts = page.locator("figure.chart svg").locator("visible=true").all()
    games = re.findall(r'<section aria-labelledby="game-', (built[0] / "index.html")
                       .read_text(encoding="utf-8"))
    assert len(charts) == len(games) == 2
    for svg in charts:
        years = [w for w in svg.evaluate(_WORDS)
                 if w["axis"].startswith("X-axis") and w["label"]]
        assert len(years) >= 3 and all(re.fullmatch(r"\d{4}", w["text"]) for w in years), years
        assert min(w["px"] for w in years) >= LEGIBLE, years
        ordered = sorted(years, key=lambda w: w["left"])
        touching = [(a["text"], b["text"]) for a, b in zip(ordered, ordered[1:], strict=False)
                    if a["right"] + 2 > b["left"]]
        assert not touching, (width, touching)
    page.close()


def _colours(png: bytes) -> int:
    """How many distinct byte values the image's pixels hold: a blank page has one or
    two."""
    pos, data = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            data += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    return len(set(zlib.decompress(data)))


def test_without_the_site_extra_the_site_says_so(tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "jinja2" else real(name, *a))
    done = CliRunner().invoke(app, ["site", str(tmp_path / "out"), "--db",
                                    str(tmp_path / "s.db")])
    assert done.exit_code == 2 and "pip install 'rulesdiff[site]'" in done.output
    assert not (tmp_path / "out").exists()


# -- what the pages say ------------------------------------------------------------------------


def _text(html_: str) -> str:
    """A page's words as read: tags gone, entities read, spaces collapsed."""
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", html_)).split())


def _terminal_outcomes(path: Path) -> tuple[list[str], list[tuple[str, dict[str, int]]]]:
    """`rulesdiff explore --all`'s table of outcomes, as the terminal prints it: the eras,
    and each outcome's words with the lines of play reaching it in each era that does."""
    done = CliRunner().invoke(app, ["explore", str(path), "--all"], env={"COLUMNS": "400"})
    header, rows = None, []
    for line in done.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("┃│").split("┃" if "┃" in line
                                                                   else "│")]
        if line.startswith("┃"):
            header = cells
        elif line.startswith("│") and header:
            rows.append((cells[0], {e: int(n) for e, n in zip(header[2:], cells[2:],
                                                               strict=True) if n != "—"}))
    assert header and rows, done.stdout
    return header[2:], rows


@pytest.mark.parametrize("name", [KNOWN, "craw-giant-rampage"])
def test_explored_outcomes_are_said_as_the_terminal_says_them(built, name):
    """Every outcome the players can reach, in the words of `rulesdiff explore`, under the
    eras that reach it, with as many lines of play in each as the terminal counts."""
    from comparator.files.locations import shipped_scenarios

    path = next(p for p in shipped_scenarios() if p.stem == name)
    eras, terminal = _terminal_outcomes(path)
    html = (built[0] / "scenarios" / f"{name}.html").read_text(encoding="utf-8")
    page = []
    for heading, items in re.findall(r'<h4 id="reached-\d+">(.*?)</h4>\s*<ul class="outcomes">'
                                     r"(.*?)</ul>", html, flags=re.S):
        for item in re.findall(r"<li>(.*?)</li>", items, flags=re.S):
            words, _, lines = _text(item).partition(" — lines of play: ")
            counts = {e: int(n) for e, n in (x.rsplit(" ", 1) for x in lines.split(", "))}
            page.append((words, counts))
            # The heading names the eras that reach it: every one, or these.
            said = _text(heading)
            if len(counts) == len(eras):
                assert "every era" in said, said
            else:
                assert all(e in said for e in counts), (said, counts)
    assert sorted(page, key=str) == sorted(terminal, key=str)
    # Each era says how many it reaches, as many as the terminal's column holds.
    for era in eras:
        section = html.split(f'id="explored-{era}"')[1].split("<h3")[0]
        reached = sum(1 for _, counts in terminal if era in counts)
        assert f"can reach {reached} outcome(s)" in _text(section), era
    if name == "craw-giant-rampage":  # outcomes only fourth's trample reaches
        assert any(set(c) == {"fourth"} for _, c in page)


def test_statistics_count_what_the_store_holds(built):
    """The statistics are the store's, a generated dataset included, beside the share of
    them that is the library the site shows: counted here from the database itself."""
    import sqlite3

    from sqlmodel import Session

    from comparator.files.locations import shipped_scenarios
    from comparator.store.database import latest_runs, open_engine

    site, _, summary, db = built
    html = (site / "statistics.html").read_text(encoding="utf-8")
    rows = {_text(th.group(1)): [_text(td) for td in re.findall(r"<td>(.*?)</td>", tr)]
            for tr in re.findall(r"<tr>(.*?)</tr>", html)
            if (th := re.search(r'<th scope="row">(.*?)</th>', tr))}
    with sqlite3.connect(db) as con:
        ids = con.execute("SELECT COUNT(DISTINCT id) FROM scenario").fetchone()[0]
        runs = con.execute("SELECT COUNT(*) FROM run").fetchone()[0]
        divergences = con.execute("SELECT COUNT(*) FROM divergence").fetchone()[0]
        stored = {(k, a, b) for k, a, b in con.execute(
            "SELECT scenario_key, era_a, era_b FROM divergence")}
    shipped = len(list(shipped_scenarios()))
    assert ids == shipped + GENERATED  # the library and the dataset, both stored
    assert rows["scenarios stored (by id)"] == [str(ids), f"{shipped} of {shipped}"]
    assert rows["runs (a scenario in an era)"][0].split(",")[0] == str(runs)
    assert rows["divergences (a field on which two eras end differently)"][0].split(",")[0] \
        == str(divergences)
    # A pair of eras: the scenarios whose newest runs both eras made, and those of them
    # that diverge, in the store and in the library.
    with Session(open_engine(db)) as session:
        newest = latest_runs(session)
    by_id: dict[str, dict[str, int]] = {}
    for r in newest:
        by_id.setdefault(r.scenario_id, {})[r.era] = r.scenario_key
    library = {p.stem for p in shipped_scenarios()}

    def share(ids_: set[str]) -> str:
        both = [i for i in ids_ if {"sixth", "m10"} <= set(by_id.get(i, {}))]
        apart = [i for i in both if (by_id[i]["m10"], "sixth", "m10") in stored]
        return f"{len(apart)} of {len(both)}"

    store_share, site_share = share(set(by_id)), share(library)
    assert rows["sixth → m10"][1].startswith(store_share + " (")
    assert rows["sixth → m10"][2].startswith(site_share + " (")
    assert store_share != site_share  # the dataset is counted, not only the library


def test_by_mechanic_lists_mechanics_only(built):
    """Era names, games, sources and kinds of scenario are not mechanics: they are listed
    by era, game, source and kind, each tag of the library on one page of the two."""
    from comparator.files.locations import shipped_scenarios
    from comparator.scenarios.loader import load
    from versions import GAMES

    site = built[0]
    mechanics = set(re.findall(r'<h2 id="tag-([^"]+)"', (site / "tags.html").read_text(
        encoding="utf-8")))
    topics = (site / "topics.html").read_text(encoding="utf-8")
    others = set(re.findall(r'<h3 id="tag-([^"]+)"', topics))
    tags = {t for p in shipped_scenarios() for t in (load(p).tags or [])}
    assert mechanics | others == tags and not mechanics & others
    not_mechanics = {e.id for eras in GAMES.values() for e in eras} | set(GAMES) | {
        "cr-example", "control"}
    assert not mechanics & not_mechanics
    groups = {chunk.split('"')[0]: set(re.findall(r'<h3 id="tag-([^"]+)"', chunk))
              for chunk in topics.split('<h2 id="group-')[1:]}
    assert {"fourth", "fifth", "m10-vs-m11"} <= groups["era"]
    assert "cr-example" in groups["source"] and "duel-masters" in groups["game"]
    # The statistics' mechanics too; the dataset's "generated" is said to be a source.
    stats = (site / "statistics.html").read_text(encoding="utf-8")
    by_mechanic = stats.split("<h2>By mechanic</h2>")[1].split("<h2>")[0]
    listed = {_text(t) for t in re.findall(r'<th scope="row">(.*?)</th>', by_mechanic)}
    assert listed and not listed & (not_mechanics | {"generated"})
    assert re.search(r'<th scope="row">generated</th><td>source: ', stats)


def test_divergences_are_said_in_words_with_their_path(browser, served, built):
    """A divergence's field is said in words on every page that shows one; its state path
    is its title (on hover) and, for a screen reader and the keyboard, in its text."""
    site = built[0]
    raw = re.compile(r"\b(players|permanents)\.[\w+/-]+\.[\w+/-]+(\.[\w+/-]+)*")
    fields = 0
    for name in pages(site):
        html = (site / name).read_text(encoding="utf-8")
        for path, words in re.findall(r'<span class="field" tabindex="0" title="state path: '
                                      r'([^"]+)">([^<]+)<span class="path">', html):
            fields += 1
            assert raw.fullmatch(path) and not raw.search(words), (name, path, words)
        # Nowhere else is a state path the words a reader is given.
        seen = re.sub(r'<span class="path">.*?</span>|title="[^"]*"|<blockquote.*?</blockquote>',
                      "", html, flags=re.S)
        assert not raw.search(_text(seen)), (name, raw.search(_text(seen)))
    assert fields > 100
    known = (site / "scenarios" / f"{KNOWN}.html").read_text(encoding="utf-8")
    assert ('title="state path: permanents.walker.loyalty">walker&#39;s loyalty' in known or
            "title=\"state path: permanents.walker.loyalty\">walker's loyalty" in known)
    page = browser.new_page()
    page.goto(f"{served}/scenarios/{KNOWN}.html")
    field = page.locator("table .field").first
    path = field.locator(".path")
    assert path.bounding_box()["width"] <= 1  # hidden from sight, not from a reader
    field.focus()
    assert path.bounding_box()["width"] > 20 and "permanents.walker.loyalty" in \
        field.inner_text()
    page.close()


def test_graveyards_are_named_one_way(built):
    """What went to the graveyard is said so in the same words in every picture and its
    caption; no page says it otherwise."""
    site = built[0]
    said: set[str] = set()
    for name in pages(site):
        html = (site / name).read_text(encoding="utf-8")
        assert "died: graveyard" not in html and "died (a token)" not in html, name
        for piece in re.findall(r'<g class="piece".*?</g>', html, flags=re.S):
            words = " ".join(re.findall(r"<text[^>]*>([^<]*)</text>", piece))
            if "grave" in words:
                said.add(words[words.index("✝"):])
    assert said == {"✝ gone to the graveyard"}


# -- the rules' words: imported, and not --------------------------------------------------------

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
DM_TEXT = "duel-masters-2021-09-07-official.txt"
# The pattern of a rule number an era's record of its changes names (the test's own).
NAMED = re.compile(r"(?<![\w.])(\d{3}\.\d+[a-z]?|[A-Z]\.\d+\.(?:Rulings?\.)?\d+)(?![\w])")


@pytest.fixture(scope="module")
def with_texts(tmp_path_factory):
    """A site built with the texts of m10 and m11 and Duel Masters' 2021-09-07 text
    imported (the verbatim texts of ../shared/reference/), from two scenarios; and its
    store's path."""
    if not REFERENCE.exists():
        pytest.skip("shared/reference is not beside the repo")
    root = tmp_path_factory.mktemp("texts")
    db = str(root / "texts.db")
    runner = CliRunner()
    done = runner.invoke(app, ["rules", "import", str(REFERENCE / "cr-2009-07-08.txt"),
                               str(REFERENCE / "cr-2010-07-16.txt"), "--db", db])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, ["rules", "import", str(REFERENCE / DM_TEXT), "--date",
                               "2021-09-07", "--db", db])
    assert done.exit_code == 0, done.output
    library = Path(__file__).parents[2] / "data" / "scenarios"
    done = runner.invoke(app, ["site", str(root / "site"), str(library / f"{KNOWN}.yaml"),
                               str(library / "dm-three-blockers-draw.yaml"), "--db", db,
                               "--no-explore"])
    assert done.exit_code == 0, done.output
    return root / "site", db


def _stored(db: str, number: str, day: str, game: str = "mtg") -> str:
    """A rule's words as the store holds them in the document of `day`."""
    from comparator.rules.document import without_examples
    from comparator.rules.store import rule_on
    from comparator.store.database import open_engine

    found = rule_on(open_engine(db), number, own=(day,), game=game)
    assert found is not None and found.text, (number, day)
    return " ".join(without_examples(found.text).split())


def _entries(html: str) -> dict[str, str]:
    """A change page's rules, by key (or number): each one's words, as read."""
    out = {}
    parts = re.split(r'(?=<section class="rule-change"|<details class="rule-change")', html)
    for part in parts[1:]:
        part = re.split(r"<h2>", part)[0]
        head = re.search(r"<(?:h4|summary)[^>]*>(.*?)</(?:h4|summary)>", part, flags=re.S)
        name = _text(head.group(1)).split(" ")[0]
        out[name] = _text(part)
    return out


def test_every_rule_an_era_names_is_shown_before_and_after(with_texts):
    """The m10 → m11 change: every key of m11's table that differs from m10's and every
    rule its changes name has an entry; deathtouch's two rules have their words, each as
    the store holds it, and the side an era does not cite says so."""
    from versions import find_era

    site, db = with_texts
    m10, m11 = find_era("m10"), find_era("m11")
    entries = _entries((site / "changes" / "m10-to-m11.html").read_text(encoding="utf-8"))
    keys = {k for k in set(m10.RULES) | set(m11.RULES) if m10.RULES.get(k) != m11.RULES.get(k)}
    named = set(NAMED.findall(" ".join(m11.changes)))
    # A number the changes name is a key's of the tables, or m11's own for a rule whose
    # number did not change.
    numbers = {n for n in named if not any(n in (m10.RULES.get(k), m11.RULES.get(k))
                                           for k in keys)
               or (n in m11.RULES.values() and n not in {m11.RULES.get(k) for k in keys})}
    assert keys | numbers == set(entries)
    lethal, divides = entries["deathtouch-lethal"], entries["deathtouch-divides"]
    assert _stored(db, "702.2b", "2010-07-16") in lethal
    assert "m10's rules table does not cite it" in lethal
    assert _stored(db, "702.2b", "2009-07-11") in divides  # the text of 2009-07-08 says
    assert "Deleted" in divides or "does not cite it" in divides
    # A rule renumbered with the same words says so, and gives them.
    assert "renumbered, the same words" in entries["counters"]
    assert _stored(db, "121.1", "2010-07-16") in entries["counters"]


def test_without_the_texts_every_rule_says_its_words_are_not_imported(built):
    site = built[0]
    for page in sorted((site / "changes").glob("*.html")):
        html = page.read_text(encoding="utf-8")
        entries = _entries(html)
        assert entries, page.name
        # The 1993 rulebook has no numbers to import: its side says what the page holds.
        by_page = page.name.startswith("alpha-")
        assert ("rulebook is cited by page and can't be imported" if by_page else
                "The words of these rules are not imported") in html, page.name
        for name, said in entries.items():
            assert ("not imported" in said or "give no words to quote" in said
                    or (by_page and "in our words: " in said)), (page.name, name)
        assert "<blockquote" not in html, page.name  # no words but the rules' own


def test_the_duel_masters_change_and_era_show_the_imported_words(with_texts):
    """Once Duel Masters' text of 2021-09-07 is imported, the change to dm-2021-09 and
    the era's page give its rules' words (507.1a, the one the text holds), marked as
    Japanese; the era before, whose words no source gives, says so."""
    site, db = with_texts
    words = _stored(db, "507.1a", "2021-09-07", "duel-masters")
    change = (site / "changes" / "dm-pre-2021-09-to-dm-2021-09.html").read_text(
        encoding="utf-8")
    era = (site / "eras" / "dm-2021-09.html").read_text(encoding="utf-8")
    for html in (change, era):
        assert words[:40] in _text(html)
        marked = re.findall(r'<span lang="ja">([^<]+)</span>', html)
        assert any(words[:40] in m for m in marked)
    entries = _entries(change)
    assert words[:40] in entries["choose"]
    assert "The words of these rules are not imported" not in change
    assert "its sources give no words to quote" in entries["choose"]  # before: 507, unknown
    # A rule the imported excerpt does not hold says so, not that nothing is imported.
    assert "Not in the imported" in entries["blocked"]


def _cjk_font() -> bool:
    done = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True)
    return done.returncode == 0 and bool(done.stdout.strip())


def test_japanese_words_are_drawn_in_a_japanese_font(browser, with_texts, tmp_path):
    """The era's rule in Japanese is marked lang="ja", set in the CJK font stack, and
    drawn with real glyphs: the font Chromium used for it is a Japanese one, two different
    kanji draw differently (tofu boxes would be alike), and its picture is not blank."""
    if not _cjk_font():
        if os.environ.get("RULESDIFF_REQUIRE_BROWSER"):
            pytest.fail("no Japanese font: apt-get install fonts-ipafont-gothic")
        pytest.skip("no Japanese font (apt-get install fonts-ipafont-gothic)")
    site = with_texts[0].resolve()
    page = browser.new_page()
    page.goto((site / "eras" / "dm-2021-09.html").as_uri())
    ja = page.locator("td span[lang='ja']", has_text="ブロッカー").first
    assert ja.get_attribute("lang") == "ja"
    family = ja.evaluate("e => getComputedStyle(e).fontFamily")
    assert family.strip('"').startswith("IPAPGothic"), family
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    ids = cdp.send("DOM.querySelectorAll", {"nodeId": root,
                                            "selector": "td span[lang='ja']"})["nodeIds"]
    used = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": ids[0]})["fonts"]
    japanese = {"IPAGothic", "IPAPGothic", "Noto Sans CJK JP", "Noto Sans JP"}
    glyphs = sum(f["glyphCount"] for f in used if f["familyName"] in japanese)
    text = ja.text_content()
    assert glyphs >= 0.9 * len(re.sub(r"[\x00-\x7f]", "", text)), used
    drawn = ja.evaluate("""e => {
      const c = document.createElement('canvas'); c.width = c.height = 48;
      const x = c.getContext('2d');
      x.font = '32px ' + getComputedStyle(e).fontFamily;
      const draw = ch => { x.clearRect(0, 0, 48, 48); x.fillText(ch, 4, 36);
                           return Array.from(x.getImageData(0, 0, 48, 48).data).join(); };
      return [draw('攻'), draw('撃'), draw('\\u{10FFFD}')];
    }""")
    assert drawn[0] != drawn[1] and drawn[0] != drawn[2]
    shot = tmp_path / "ja.png"
    ja.screenshot(path=str(shot))
    assert _colours(shot.read_bytes()) > 10
    page.close()
