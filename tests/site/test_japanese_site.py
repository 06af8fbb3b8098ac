"""The site in Japanese (issue 52): every page written again under `ja/`, beside the
English one, from the same build. Every Japanese page says it is Japanese (`lang="ja"`),
links to its English page and back (`hreflang`, and a switch a reader sees); no English
interface string is left on it (its text is scanned against the catalog: what is left in
English is the scenarios' own prose and names, as their authors wrote them); and in a real
browser its words are drawn in a Japanese font, at phone and desktop width."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
import yaml
from chromium import japanese_glyphs, launched

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "comparator" / "locale" / "ja" / "LC_MESSAGES" / "rulesdiff.po"
JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
ENGLISH = re.compile(r"[A-Za-z]{2,}[,.;:]?\s+[A-Za-z]{2,}")


def ja_pages(site: Path) -> list[Path]:
    return sorted(p for p in (site / "ja").rglob("*.html"))


def english_of(site: Path, page: Path) -> Path:
    return site / page.relative_to(site / "ja")


def test_every_page_is_written_in_both_languages(built):
    site = built[0]
    english = {p.relative_to(site) for p in site.rglob("*.html")
               if "pagefind" not in p.parts and p.parts[len(site.parts)] != "ja"}
    japanese = {p.relative_to(site / "ja") for p in ja_pages(site)}
    assert english == japanese and len(japanese) > 200


def _links(page: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="(\w+)" href="([^"]+)">', page))


def test_each_page_says_its_language_and_links_to_the_other(built):
    site = built[0]
    for page in ja_pages(site):
        text = page.read_text(encoding="utf-8")
        assert text.startswith('<!doctype html>\n<html lang="ja">'), page
        links = _links(text)
        assert set(links) == {"en", "ja"}, page
        assert (page.parent / links["en"]).resolve() == english_of(site, page).resolve()
        assert (page.parent / links["ja"]).resolve() == page.resolve()
        switch = re.search(r'<p class="language"><a href="([^"]+)" hreflang="en" '
                           r'lang="en">English</a></p>', text)
        assert switch and (page.parent / switch.group(1)).resolve() == \
            english_of(site, page).resolve(), page
        mine = english_of(site, page).read_text(encoding="utf-8")
        assert mine.startswith('<!doctype html>\n<html lang="en">')
        back = re.search(r'<a href="([^"]+)" hreflang="ja" lang="ja">日本語</a>', mine)
        assert back and (english_of(site, page).parent / back.group(1)).resolve() == \
            page.resolve()
        # The assets and the search index are the site's one copy.
        for asset in re.findall(r'(?:href|src)="([^"]*(?:assets|pagefind)/[^"]+)"', text):
            assert (page.parent / asset).resolve().is_file(), (page, asset)


# -- no English interface string is left ------------------------------------------------------


def _catalog() -> list[tuple[str, str]]:
    from babel.messages.pofile import read_po

    with CATALOG.open("rb") as f:
        return [(m.id[0] if isinstance(m.id, tuple) else m.id,
                 m.string[0] if isinstance(m.string, tuple) else m.string)
                for m in read_po(f) if m.id]


def _fragments(message: str, translation: str) -> list[str]:
    """The English of a message a page would show whole: its words between placeholders
    and markup, two words or more (a lone word may be a name: a tag, a keyword), none of
    them kept by the translation (a command, a rule number)."""
    parts = re.split(r"\{\w*\}|%\(\w+\)s|%%|<[^>]+>|`[^`]*`", message)
    out = []
    for part in parts:
        part = " ".join(part.split()).strip(" .,;:()[]—-")
        if ENGLISH.search(part) and len(part) >= 10 and part not in translation:
            out.append(part)
    return out


def _authors_words() -> list[str]:
    """What the site shows as it is written, not as rulesdiff says it: each scenario's
    title, description, sources, card names and labels; each era's sources and its
    pages' summaries."""
    from versions import GAMES

    said: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            said.add(" ".join(value.split()))
            # A keyword as a card's picture writes it, its hyphens broken: "must block";
            # a command between backticks as the page sets it, as code.
            said.add(" ".join(value.replace("-", " ").split()))
            said.add(" ".join(value.replace("`", "").split()))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in (ROOT / "data" / "scenarios").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        walk({k: v for k, v in doc.items() if k not in ("ja", "expect")})
    for eras in GAMES.values():
        for era in eras:
            walk([era.cr_modelled, list(era.sources), dict(era.pages)])
    return sorted((s for s in said if ENGLISH.search(s)), key=len, reverse=True)


def _blurred(text: str) -> str:
    return re.sub(r"\d+", "N", text)


def _untranslated() -> list[str]:
    """The engine's sentences that have no Japanese pattern yet, their numbers blurred
    (N) as the list keeps them: listed, and shrinking (tests/text/test_phrase_coverage.py)."""
    listed = ROOT / "tests" / "text" / "untranslated-sentences.txt"
    return sorted((" ".join(line.split()) for line in listed.read_text(
        encoding="utf-8").splitlines() if line and not line.startswith("#")),
        key=len, reverse=True)


def _shown(page: str) -> str:
    """A page's words as a reader meets them: its text, its pictures' words, and what a
    screen reader says of it (aria-label, title); the page's <title> aside, and the
    rules' own words, quoted as their text gives them (English where no Japanese text
    is imported)."""
    page = re.sub(r"<(script|style|title|blockquote)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r'<td class="quoted">.*?</td>', " ", page, flags=re.S)
    page = re.sub(r'<a class="tag"[^>]*>.*?</a>', " ", page, flags=re.S)  # names
    labels = re.findall(r'(?:aria-label|title)="([^"]*)"', page)
    page = re.sub(r"</?(?:code|span|strong|em|del|ins|a)\b[^>]*>", "", page)  # in a line
    text = re.sub(r"<[^>]+>", " ", page)
    return " ".join(html.unescape(" ".join([text, *labels])).split())


def test_no_english_interface_string_is_left(built):
    site = built[0]
    fragments = {_blurred(f): message for message, translation in _catalog()
                 for f in _fragments(message, translation)}
    assert len(fragments) > 300  # the catalog is read: the site's messages are in it
    authors = _authors_words()
    left: dict[str, str] = {}
    # The engine's sentences first (an author's name may be a word of one), their
    # numbers blurred as the list keeps them; then the authors' words, blurred alike.
    unsaid = _untranslated() + sorted({_blurred(w) for w in authors}, key=len, reverse=True)
    for page in ja_pages(site):
        text = _blurred(_shown(page.read_text(encoding="utf-8")))
        for words in unsaid:
            if words in text:
                text = text.replace(words, " ")
        for fragment, message in fragments.items():
            if fragment in text:
                left.setdefault(message, str(page.relative_to(site)))
    assert not left, list(left.items())[:10]


def test_every_heading_label_and_caption_is_japanese(built):
    """What a reader scans first: headings, the navigation, table heads, captions and the
    pictures' words are Japanese, or names (an era's id, a tag, a rule's number)."""
    site = built[0]
    authors = _authors_words()
    english = []
    for page in ja_pages(site):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"<(h[1-4]|th|caption|figcaption|summary|nav)\b[^>]*>(.*?)</\1>",
                             text, re.S):
            words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(2))).split())
            for said in authors:
                words = words.replace(said, " ")
            if ENGLISH.search(words) and not JAPANESE.search(words):
                english.append((str(page.relative_to(site)), m.group(1), words[:80]))
    assert not english, english[:10]


def test_a_japanese_scenario_page_reads_as_japanese(built):
    site = built[0]
    page = (site / "ja" / "scenarios" / "lifelink-blocker-at-one-life.html").read_text(
        encoding="utf-8")
    text = _shown(page)
    assert "<h1>防御側のライフが1点のときの、絆魂を持つブロック・クリーチャー</h1>" in page
    assert "時期による相違" in text and "B のライフ" in text
    assert "第6版ルール（戦闘ダメージがスタックに乗る）の場合" in text
    assert "B はライフが-1点なので、ゲームに敗北する" in text
    # The refusal is the era's reason in Japanese; the scenario's cards by their Japanese
    # names (灰色熊 is Grizzly Bears), on the board and in its words.
    assert "2007年（『未来予知』）" in text
    assert "灰色熊" in text
    dm = _shown((site / "ja" / "scenarios" / "dm-three-blockers-draw.html").read_text(
        encoding="utf-8"))
    assert "デュエル・マスターズ" in dm and "シールド" in dm


# -- in a browser -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


SHOWN = ("ja/index.html", "ja/scenarios/dm-three-blockers-draw.html",
         "ja/scenarios/lifelink-blocker-at-one-life.html", "ja/changes/sixth-to-m10.html")


def test_japanese_pages_are_drawn_in_a_japanese_font(browser, served, tmp_path_factory):
    """Each page at phone and desktop width: nothing wider than the screen; its heading's
    every Japanese character drawn from a Japanese font (not a box: Chromium says which
    font drew each glyph); two different characters drawn differently; a screenshot kept
    (RULESDIFF_SCREENSHOTS names where)."""
    folder = Path(os.environ.get("RULESDIFF_SCREENSHOTS") or
                  tmp_path_factory.mktemp("screenshots-ja"))
    folder.mkdir(parents=True, exist_ok=True)
    for width, height, label in ((390, 844, "phone"), (1280, 900, "desktop")):
        page = browser.new_page(viewport={"width": width, "height": height})
        for name in SHOWN:
            page.goto(f"{served}/{name}")
            assert page.evaluate("document.documentElement.lang") == "ja"
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, (label, name, wide)
            heading = page.locator("h1")
            family = heading.evaluate("e => getComputedStyle(e).fontFamily")
            assert family.strip('"').startswith("IPAPGothic"), family
            glyphs, used = japanese_glyphs(page, ("h1",))["h1"]
            wanted = len(JAPANESE.findall(heading.text_content()))
            assert wanted and glyphs >= wanted, (name, used)
            shot = folder / f"ja-{label}-{name[3:].replace('/', '-').removesuffix('.html')}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000, shot
        page.close()


def test_the_language_switch_leads_to_the_same_page(browser, served):
    page = browser.new_page()
    page.goto(f"{served}/scenarios/dm-three-blockers-draw.html")
    page.get_by_role("link", name="日本語").click()
    page.wait_for_load_state()
    assert page.url.endswith("/ja/scenarios/dm-three-blockers-draw.html")
    assert "ブロッカー" in page.locator("h1").text_content()
    page.get_by_role("link", name="English").click()
    page.wait_for_load_state()
    assert page.url.endswith("/scenarios/dm-three-blockers-draw.html") and "/ja/" not in \
        page.url
    page.close()


# -- the rules' own words in Japanese ---------------------------------------------------------

REFERENCE = ROOT.parent / "shared" / "reference"
JA_TEXT = ROOT / "tests" / "fixtures" / "rules-ja" / "cr-ja-2025-02-07-excerpt.txt"


def test_a_japanese_page_quotes_the_japanese_text_where_it_is_imported(tmp_path):
    """With the Comprehensive Rules of 2025-02-07 imported and their Japanese text beside
    them (an excerpt written from the seeds), a Japanese page quotes a rule in Japanese
    where that text has it, naming it (総合ルール), and in English, marked as English,
    where it has not; the English page quotes the English."""
    from typer.testing import CliRunner

    from comparator.cli.main import app

    if not (REFERENCE / "cr-2025-02-07.txt").exists():
        pytest.skip("shared/reference is not beside the repo")
    db, runner = str(tmp_path / "store.db"), CliRunner()
    for text in (REFERENCE / "cr-2025-02-07.txt", JA_TEXT):
        done = runner.invoke(app, ["rules", "import", str(text), "--db", db])
        assert done.exit_code == 0, done.output
    scenario = ROOT / "data" / "scenarios" / "lifelink-blocker-at-one-life.yaml"
    built = runner.invoke(app, ["site", str(tmp_path / "site"), str(scenario), "--db", db,
                                "--no-explore"])
    assert built.exit_code == 0, built.output
    name = "scenarios/lifelink-blocker-at-one-life.html"
    japanese = (tmp_path / "site" / "ja" / name).read_text(encoding="utf-8")
    english = (tmp_path / "site" / name).read_text(encoding="utf-8")
    # 509.1g in foundations: the excerpt has it.
    said = re.search(r'<summary>509\.1g の文言</summary><blockquote lang="ja"><p>(.*?)</p>'
                     r'<footer>509\.1g、(.*?) 2025-02-07</footer>', japanese)
    assert said and "ブロック・クリーチャーになる" in said.group(1), japanese[:200]
    assert said.group(2) == "総合ルール"
    assert "The words of 509.1g" in english and "Comprehensive Rules 2025-02-07" in english
    # 702.15b (lifelink, foundations) is not in the excerpt: quoted in English, as such.
    other = re.search(r'<summary>702\.15b の文言</summary><blockquote><p>(.*?)</p>'
                      r'<footer>702\.15b、(.*?) 2025-02-07</footer>', japanese)
    assert other and other.group(1).startswith('<span lang="en">'), japanese[:200]
    assert other.group(2) == '<span lang="en">Comprehensive Rules</span>'


@pytest.mark.parametrize(("query", "found"), [
    ("灰色熊", "/ja/scenarios/"),  # Grizzly Bears, by its Japanese name
    ("ガードマン", "/ja/scenarios/dm-"),
])
def test_japanese_search_finds_japanese_words(browser, served, query, found):
    """Pagefind's extended build splits Japanese into words: a word inside a run of
    Japanese finds the Japanese pages that say it."""
    page = browser.new_page()
    page.goto(f"{served}/ja/search.html")
    page.fill(".pagefind-ui__search-input", query)
    first = page.locator(".pagefind-ui__result-link").first
    first.wait_for(timeout=10_000)
    assert found in first.get_attribute("href")
    page.close()
