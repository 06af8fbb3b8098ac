"""The workbench in Japanese (issue 52): `/ja/workbench` is the page in Japanese, with its
English page as its alternate and its switch; the script's words are the page's (a JSON
block of the catalog's words); each request is answered in the language it asks for
(`Accept-Language`, which the page sets to its own): the result's HTML, the problems'
words, the explore's page and the refusals in Japanese, while the JSON of a run, a diff, an
explore and a validate stays the command line's, byte for byte. In Chromium: a shipped
scenario opened in Japanese shows its Japanese result, no English interface string is left
on the page (its text scanned against the catalog), its words are drawn in a Japanese font,
and it fits a phone and a desktop (screenshots kept: RULESDIFF_SCREENSHOTS)."""

from __future__ import annotations

import html
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chromium import japanese_glyphs
from workbench_server import ROOT, SHIPPED

from comparator.serve.speech import asked
from comparator.serve.words import WORDS

GIANT = "giant-growth-vs-assignment-order"
JA = {"Accept-Language": "ja"}
JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
ENGLISH = re.compile(r"[A-Za-z]{2,}[,.;:]?\s+[A-Za-z]{2,}")
SCRIPT = ROOT / "comparator" / "serve" / "static" / "workbench.js"


def cli(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "comparator", *args], capture_output=True,
                          text=True, timeout=300)
    return done.stdout


def _site_scan():
    """The site's scan of a Japanese page against the catalog (tests/site)."""
    path = ROOT / "tests" / "site" / "test_japanese_site.py"
    spec = importlib.util.spec_from_file_location("japanese_site_scan", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the language asked for ---------------------------------------------------------------


@pytest.mark.parametrize(("header", "lang"), [
    (None, "en"), ("", "en"), ("ja", "ja"), ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
    ("en-US,en;q=0.9,ja;q=0.8", "en"), ("fr, ja;q=0.5", "ja"), ("fr", "en"),
    ("en;q=0.2, ja;q=0.7", "ja"), ("ja;q=0", "en"), ("*", "en"), ("ja;q=x", "en")])
def test_the_language_a_header_asks_for(header, lang):
    assert asked(header) == lang


# -- the JSON is the command line's in every language ------------------------------------------


def test_the_json_of_run_diff_validate_and_explore_is_the_same_in_japanese(workbench,
                                                                            shipped_text):
    text = shipped_text(GIANT)
    file = str(SHIPPED / f"{GIANT}.yaml")
    for path, body, printed in (
            ("/api/run", {"yaml": text, "era": "sixth"},
             cli("run", file, "--era", "sixth", "--json")),
            ("/api/diff", {"yaml": text}, cli("diff", file, "--json", "--no-store"))):
        _, english = workbench.post(path, body)
        _, japanese = workbench.post(path, body, headers=JA)
        assert japanese == english == json.loads(printed), path
    # Byte for byte: the answers themselves, not only what they decode to.
    raw = json.dumps({"yaml": text}).encode()
    answers = []
    for headers in ({}, JA):
        import urllib.request

        request = urllib.request.Request(workbench.url + "/api/diff", data=raw, method="POST",
                                         headers={"Content-Type": "application/json",
                                                  **headers})
        with urllib.request.urlopen(request, timeout=60) as r:
            answers.append(r.read())
    assert answers[0] == answers[1]
    # validate's JSON keeps its English words, as `validate --json` does in every language.
    broken = text.replace("at: damage-on-stack", "at: damage-on-stak")
    _, english = workbench.post("/api/validate", {"yaml": broken})
    _, japanese = workbench.post("/api/validate", {"yaml": broken}, headers=JA)
    assert japanese == english and "did you mean" in japanese["problems"][0]["message"]
    # An explore's JSON: the command line's, whatever the language of its request.
    _, english = workbench.post("/api/explore", {"yaml": text, "wait": True,
                                                 "limit": 10_000})
    _, japanese = workbench.post("/api/explore", {"yaml": text, "wait": True,
                                                  "limit": 10_000}, headers=JA)
    printed = cli("explore", file, "--json", "--no-store", "--limit", "10000", "--jobs", "1")
    assert japanese["explore"] == english["explore"] == json.loads(printed)


# -- the page ----------------------------------------------------------------------------------


def _alternates(page: str) -> dict[str, str]:
    return dict(re.findall(r'<link rel="alternate" hreflang="(\w+)" href="([^"]+)">', page))


def _words(page: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="words">(.*?)</script>', page, re.S)
    assert found, "the page carries its script's words"
    return json.loads(found.group(1))


def test_the_japanese_page_says_its_language_and_links_to_the_english(workbench):
    status, page = workbench.get("/ja/workbench")
    assert status == 200 and page.startswith('<!doctype html>\n<html lang="ja">')
    assert _alternates(page) == {"en": "/workbench", "ja": "/ja/workbench"}
    assert '<p class="language"><a href="/workbench" hreflang="en" lang="en">English</a></p>' \
        in page
    assert "<title>ワークベンチ — rulesdiff</title>" in page and "<h1>ワークベンチ</h1>" in page
    # Its menu leads to the Japanese site; its assets are the site's one copy.
    assert 'href="/site/ja/scenarios.html"' in page and 'href="/site/assets/site.css"' in page
    assert '<a href="/ja/workbench" aria-current="page">ワークベンチ</a>' in page
    words = _words(page)
    assert set(words) == set(WORDS)
    assert words["Searching…"] == "探索中…" and words["Power"] == "パワー"
    status, english = workbench.get("/workbench")
    assert english.startswith('<!doctype html>\n<html lang="en">')
    assert _alternates(english) == {"en": "/workbench", "ja": "/ja/workbench"}
    assert '<a href="/ja/workbench" hreflang="ja" lang="ja">日本語</a>' in english
    assert _words(english) == {w: w for w in WORDS}
    assert "<h1>Workbench</h1>" in english


def test_the_japanese_page_has_no_english_interface_string(workbench):
    """The page as served (before its script runs): every heading, label, button, option,
    hint and its footer in Japanese (names and commands aside)."""
    scan = _site_scan()
    fragments = {scan._blurred(f): m for m, t in scan._catalog()
                 for f in scan._fragments(m, t)}
    _, page = workbench.get("/ja/workbench")
    text = scan._blurred(scan._shown(page))
    left = sorted({m for f, m in fragments.items() if f in text})
    assert not left, left
    for m in re.finditer(r"<(h[1-4]|label|button|option|legend|summary)\b[^>]*>(.*?)</\1>",
                         page, re.S):
        words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", m.group(2))).split())
        assert JAPANESE.search(words) or not re.search("[A-Za-z]{3,}", words), words


def test_a_page_of_either_language_is_asked_for_by_its_address(workbench):
    import urllib.request

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(Stay)
    for path, where in (("/", "/workbench"), ("/ja", "/ja/workbench")):
        try:
            opener.open(workbench.url + path, timeout=30)
        except urllib.error.HTTPError as err:
            assert err.code in (302, 307) and err.headers["location"] == where
        else:
            raise AssertionError(f"{path} is not redirected")
    # The page's language is its address's, whatever the browser asks for.
    _, page = workbench.get("/workbench", headers=JA)
    assert page.startswith('<!doctype html>\n<html lang="en">')


# -- the answers in Japanese -------------------------------------------------------------------


def test_the_result_is_japanese_for_a_japanese_request(workbench, shipped_text):
    status, got = workbench.post("/api/view", {"yaml": shipped_text(GIANT)}, headers=JA)
    assert status == 200 and got["ok"]
    result = got["html"]
    assert '<h2 id="result-heading" tabindex="-1">各時期の処理</h2>' in result
    assert "ブロック・クリーチャー指定ステップ" in result and "時期による相違" in result
    assert "第6版ルール（戦闘ダメージがスタックに乗る）の場合" in result
    assert 'href="/site/ja/rules.html#' in result and 'href="/site/rules.html#' not in result
    assert got["game_title"] == "マジック：ザ・ギャザリング"
    _, english = workbench.post("/api/view", {"yaml": shipped_text(GIANT)})
    assert english["diff"] == got["diff"]  # the diff is the contract's in every language
    assert "What each era does" in english["html"] and "各時期" not in english["html"]
    assert 'href="/site/rules.html#' in english["html"]


def test_a_problem_is_said_in_japanese_beside_validates_english(workbench, shipped_text):
    text = shipped_text(GIANT).replace("at: damage-on-stack", "at: damage-on-stak")
    _, got = workbench.post("/api/view", {"yaml": text}, headers=JA)
    [problem] = got["problems"]
    assert problem["field"] == "actions[0].at"
    assert "did you mean 'damage-on-stack'" in problem["message"]  # validate's English
    assert problem["said"].endswith("のいずれでもない（'damage-on-stack' の誤りか）")
    text = shipped_text(GIANT).replace("life: 20}", "life: lots}", 1)
    _, got = workbench.post("/api/view", {"yaml": text}, headers=JA)
    assert got["problems"][0]["said"] == "整数でなければならない"
    _, english = workbench.post("/api/view", {"yaml": text})
    assert english["problems"][0]["said"] == english["problems"][0]["message"]


def test_refusals_are_said_in_the_language_asked_for(workbench, shipped_text, clean_folder):
    text = shipped_text(GIANT)
    status, got = workbench.post("/api/run", {"yaml": text, "era": "nope"}, headers=JA)
    assert status == 400 and got["error"].startswith("era: 不明な時期 'nope'")
    status, got = workbench.post("/api/run", {"yaml": text, "era": "nope"})
    assert status == 400 and got["error"].startswith("era: unknown era 'nope'")
    broken = text.replace("life: 20}", "life: lots}", 1)
    status, got = workbench.post("/api/save", {"yaml": broken, "name": "broken"}, headers=JA)
    assert status == 422
    assert got["error"] == "保存しなかった：players[0].life：整数でなければならない"
    assert got["problems"][0]["message"] == "Input should be a valid integer"
    status, got = workbench.call("POST", "/api/validate", raw=b"{", headers=JA)
    assert status == 400 and got["error"].startswith("リクエストが JSON ではない")
    status, got = workbench.call("POST", "/api/validate", raw=b"{}",
                                 headers={"Content-Type": "text/plain", **JA})
    assert status == 415 and got["error"].startswith("リクエストは JSON で送ること")
    status, got = workbench.get("/api/open?source=shipped&name=nope", headers=JA)
    assert status == 404 and got["error"] == "name: 同梱シナリオ 'nope' はない"
    # The guard's, before any route: a request from another site's page.
    status, got = workbench.post("/api/validate", {"yaml": text},
                                 headers={"Origin": "http://evil.example", **JA})
    assert status == 403 and got["error"] == "ほかのサイトのページからのリクエストは拒否する"


def test_an_explore_is_said_in_japanese(workbench, shipped_text):
    text = shipped_text(GIANT)
    status, got = workbench.post("/api/explore", {"yaml": text, "wait": True, "limit": 1},
                                 headers=JA)
    assert got["state"] == "refused"
    assert got["error"] == ("scenario.yaml: alpha: プレイの手順が1通りを超える（2通りに達した）。"
                            "探索するには --limit を上げること")
    # The job's words are said when asked: the same job in English.
    _, again = workbench.get(f"/api/explore/{got['job']}")
    assert again["error"] == ("scenario.yaml: alpha: more than 1 lines of play (reached 2); "
                              "raise --limit to explore it")
    status, got = workbench.post("/api/explore", {"yaml": text, "wait": True,
                                                  "limit": 10_000}, headers=JA)
    assert got["state"] == "done"
    _, job = workbench.get(f"/api/explore/{got['job']}?html=1", headers=JA)
    assert "各プレイヤーが到達できた結果" in job["html"] and "最善のプレイ" in job["html"]
    assert 'href="/site/ja/rules.html#' in job["html"]


def test_the_japanese_site_served_leads_to_the_japanese_workbench(workbench):
    status, home = workbench.get("/site/ja/index.html", timeout=120)
    assert status == 200 and home.startswith('<!doctype html>\n<html lang="ja">')
    assert '<li><a href="/ja/workbench">ワークベンチ</a></li>' in home
    assert 'href="/workbench"' not in home
    status, page = workbench.get(f"/site/ja/scenarios/{GIANT}.html")
    assert status == 200
    assert (f'<p class="open-in"><a href="/ja/workbench?open=shipped:{GIANT}">'
            "このシナリオをワークベンチで開く</a></p>") in page
    status, english = workbench.get(f"/site/scenarios/{GIANT}.html")
    assert (f'<a href="/workbench?open=shipped:{GIANT}">Open this scenario in the workbench'
            "</a>") in english and '<li><a href="/workbench">Workbench</a></li>' in english
    status, missing = workbench.get("/site/ja/no-such-page.html")
    assert status == 404 and "そのようなページはない" in missing


# -- the script's words ------------------------------------------------------------------------


def test_every_word_the_script_says_is_a_message_of_the_catalog():
    """Each message the script passes to t() is one of words.py's, and each of those is
    said by the script: nothing shown is left out of the catalog, nothing kept unused."""
    script = SCRIPT.read_text(encoding="utf-8")
    said: set[str] = set()
    for call in re.finditer(r"\bt\(", script):
        said.update(_messages_of(script, call.end()))
    assert said, "the script says its words through t()"
    assert said <= set(WORDS), sorted(said - set(WORDS))
    assert set(WORDS) <= said, sorted(set(WORDS) - said)
    # No English words shown outside t(): every other literal of the script that reads as
    # words (two of them or more) is a selector, a header's or a request's name, or a
    # comment's.
    code = re.sub(r"/\*.*?\*/", " ", script, flags=re.S)
    for found in re.finditer(r'"((?:[^"\\\n]|\\.)*)"|`([^`]*)`', code):
        literal = found.group(1) or found.group(2) or ""
        words = re.sub(r"\$\{[^}]*\}", " ", literal)
        if not ENGLISH.search(words) or literal in WORDS:
            continue
        class_name = code[:found.start()].rstrip().endswith("class:")
        assert class_name or re.search(r"[\[\]#=(]|Accept-Language|use strict", words), words


def _messages_of(script: str, at: int) -> list[str]:
    """The messages of the call of t() whose argument list begins at `at`: its first
    argument, a literal or a choice of literals (`n === 1 ? "..." : "..."`), up to its
    values (an object) or its end."""
    found, depth, i = [], 1, at
    while depth and i < len(script):
        c = script[i]
        if c == '"':
            end = i + 1
            while script[end] != '"':
                end += 2 if script[end] == "\\" else 1
            found.append(script[i + 1:end])
            i = end + 1
            continue
        if c == "{" and depth == 1:
            break  # its values
        if c == "," and depth == 1:
            break
        depth += {"(": 1, ")": -1}.get(c, 0)
        i += 1
    return found


def test_the_catalog_says_each_of_the_scripts_words_with_its_placeholders():
    from comparator.serve.words import said
    from comparator.text.language import speaking

    with speaking("ja"):
        japanese = said()
    for message, words in japanese.items():
        wanted = set(re.findall(r"\{(\w+)\}", message))
        assert set(re.findall(r"\{(\w+)\}", words)) == wanted, (message, words)
        if re.search("[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", message)) and \
                message not in ("{label} ({value})",):
            assert JAPANESE.search(words), (message, words)


# -- in a browser ------------------------------------------------------------------------------


def wait_status(page, start: str, timeout: float = 30_000) -> str:
    page.wait_for_function(
        "([start]) => document.getElementById('status').textContent.startsWith(start)",
        arg=[start], timeout=timeout)
    return page.inner_text("#status")


def _visible_words(page) -> str:
    """What a reader meets on the page: its text (innerText: the YAML's text, the scenario
    as its author wrote it, is a field's value, not the page's text), every option of its
    lists, and what a screen reader says of it (aria-label, title, placeholder)."""
    return page.evaluate("""() => {
        const said = [...document.querySelectorAll('[aria-label], [title], [placeholder]')]
          .filter(e => !e.closest('svg'))
          .map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),
                     e.getAttribute('placeholder')].filter(Boolean).join(' '));
        const options = [...document.querySelectorAll('select option')].map(o => o.text);
        return [document.body.innerText, ...said, ...options].join('\\n');
      }""")


def test_a_shipped_scenario_in_the_japanese_workbench(page, workbench):
    page.goto(f"{workbench.url}/ja/workbench?open=shipped:{GIANT}")
    said = wait_status(page, "有効：")
    assert said == "有効：時期によって結果が異なる。"
    result = page.inner_text("#result")
    assert "ブロック・クリーチャー指定ステップ" in result and "時期による相違" in result
    assert page.inner_text("#form legend >> nth=0") == "プレイヤー"
    window = page.locator('#form [data-field="actions[0].at"] option:checked')
    assert window.inner_text() == "戦闘ダメージがスタックに乗っている間（damage-on-stack）"
    # Nothing of the interface left in English: the page's text scanned against the
    # catalog, once the scenarios' own words (titles, prose, names) are set aside.
    scan = _site_scan()
    fragments = {scan._blurred(f): m for m, t in scan._catalog()
                 for f in scan._fragments(m, t)}
    text = scan._blurred(" ".join(_visible_words(page).split()))
    for words in scan._untranslated() + sorted({scan._blurred(w) for w in
                                                 scan._authors_words()}, key=len,
                                                reverse=True):
        text = text.replace(words, " ")
    left = sorted({m for f, m in fragments.items() if f in text})
    assert not left, left
    # The labels, legends and buttons the script draws: Japanese, or a name.
    english = page.evaluate("""() => [...document.querySelectorAll(
        '#form label, #form legend, #form button, #form .field-hint, .keep button, '
        + '.explore label, .explore button, h1, h2, h3, h4, summary')]
        .map(e => e.textContent.trim())
        .filter(s => /[A-Za-z]{3,}/.test(s) && !/[\\u3040-\\u30ff\\u4e00-\\u9fff]/.test(s))""")
    assert set(english) <= {"rulesdiff"} | {e for e in english if re.fullmatch(
        r"[\w.-]+", e)}, english  # ids, era ids


def test_a_problem_beside_its_field_in_japanese(page, workbench):
    page.goto(f"{workbench.url}/ja/workbench?open=shipped:{GIANT}")
    wait_status(page, "有効：")
    power = '#form [data-field="permanents[0].power"]'
    page.fill(power, "x")
    page.wait_for_selector(f'{power}[aria-invalid="true"]')
    beside = page.locator("#form .wb-field", has=page.locator(
        '[data-field="permanents[0].power"]')).locator(".field-error")
    assert beside.inner_text() == "整数でなければならない"
    assert wait_status(page, "問題") == "問題 1 件：permanents[0].power：整数でなければならない"
    line = page.inner_text("#yaml-problems")
    assert re.fullmatch(r"\d+ 行目：permanents\[0\]\.power：整数でなければならない", line.strip())
    page.fill(power, "5")
    wait_status(page, "有効：")


def test_the_language_switch_takes_the_board_along(page, workbench):
    page.goto(f"{workbench.url}/workbench?open=shipped:{GIANT}")
    wait_status(page, "Valid")
    page.get_by_role("link", name="日本語").click()
    page.wait_for_url(f"**/ja/workbench?open=shipped:{GIANT}")
    wait_status(page, "有効：")
    # Edited, the board goes in the link's fragment, as Share puts it.
    page.fill('#form [data-field="players[0].life"]', "7")
    page.wait_for_function("document.getElementById('yaml').value.includes('life: 7')")
    wait_status(page, "有効：")
    text = page.input_value("#yaml")
    page.get_by_role("link", name="English").click()
    page.wait_for_url("**/workbench#s=*")
    assert "/ja/" not in page.url
    wait_status(page, "Valid")
    assert page.input_value("#yaml") == text


def test_the_page_runs_under_its_content_security_policy(browser, workbench):
    """The words' JSON block is data, not a script: the policy ('self') lets the page read
    it, and nothing is refused."""
    context = browser.new_context()
    p = context.new_page()
    said: list[str] = []
    p.on("console", lambda m: said.append(m.text))
    p.on("pageerror", lambda e: said.append(str(e)))
    try:
        response = p.goto(f"{workbench.url}/ja/workbench?open=shipped:{GIANT}")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        for _ in range(300):
            if (p.locator("#status").text_content() or "").startswith("有効"):
                break
            time.sleep(0.1)
        assert p.locator("#status").text_content().startswith("有効："), said
        assert not [s for s in said if "Content Security Policy" in s or "Refused" in s], said
    finally:
        context.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_japanese_workbench_in_a_japanese_font_at_phone_and_desktop_width(
        browser, workbench, tmp_path_factory, width):
    folder = Path(os.environ.get("RULESDIFF_SCREENSHOTS") or
                  tmp_path_factory.mktemp("workbench-ja-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    p = context.new_page()
    try:
        p.goto(f"{workbench.url}/ja/workbench?open=shipped:{GIANT}")
        wait_status(p, "有効：")
        p.click("#tab-sixth")
        assert p.evaluate("document.documentElement.lang") == "ja"
        wide = p.evaluate("""() => [...document.querySelectorAll('main *, header *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                         && !e.closest('.scroll') && e.offsetParent !== null)
            .map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
        assert not wide, wide
        assert p.evaluate("document.documentElement.scrollWidth") <= width
        # Every Japanese character of the headings, the form's legends and the status
        # line drawn from a Japanese font's glyphs (Chromium says which font drew each).
        drawn = japanese_glyphs(p, ("h1", "#status", "#form legend", "#form label",
                                    "#panel-sixth h3", "#explore-heading"))
        for selector, (glyphs, used) in drawn.items():
            wanted = len(JAPANESE.findall(p.locator(selector).first.text_content()))
            assert wanted and glyphs >= wanted, (selector, used)
        # The screen as a reader sees it, part by part (not one long picture).
        for part, selector in (("top", "h1"), ("form", "#form"), ("result", "#result"),
                               ("board", "#panel-sixth"), ("explore", "#explore-heading")):
            p.locator(selector).first.scroll_into_view_if_needed()
            p.evaluate("([s]) => document.querySelector(s).scrollIntoView({block: 'start'})",
                       [selector])
            shot = folder / f"workbench-ja-{width}-{part}.png"
            p.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000, shot
    finally:
        context.close()


def test_the_rules_words_are_quoted_in_japanese_where_that_text_is_imported(tmp_path):
    """With the Comprehensive Rules of 2025-02-07 and their Japanese excerpt imported, the
    Japanese result quotes 509.1g in Japanese (総合ルール), as the Japanese site does, and
    a rule the excerpt lacks in English, marked as English; the English result quotes the
    English."""
    from workbench_server import start_server, stop_server

    english_text = ROOT.parent / "shared" / "reference" / "cr-2025-02-07.txt"
    if not english_text.exists():
        pytest.skip("shared/reference is not beside the repo")
    japanese_text = ROOT / "tests" / "fixtures" / "rules-ja" / "cr-ja-2025-02-07-excerpt.txt"
    for text in (english_text, japanese_text):
        subprocess.run([sys.executable, "-m", "comparator", "rules", "import", str(text),
                        "--db", str(tmp_path / "store.db")], check=True, capture_output=True,
                       timeout=300)
    server = start_server(tmp_path)
    try:
        yaml_text = (SHIPPED / "lifelink-blocker-at-one-life.yaml").read_text(encoding="utf-8")
        _, japanese = server.post("/api/view", {"yaml": yaml_text}, headers=JA)
        panel = japanese["html"].split('id="panel-foundations"')[1]
        said = re.search(r'<summary>509\.1g の文言</summary><blockquote lang="ja"><p>(.*?)</p>'
                         r'<footer>509\.1g、(.*?) 2025-02-07</footer>', panel)
        assert said and "ブロック・クリーチャーになる" in said.group(1), panel[:500]
        assert said.group(2) == "総合ルール"
        other = re.search(r'<summary>702\.15b の文言</summary><blockquote><p>(.*?)</p>', panel)
        assert other and other.group(1).startswith('<span lang="en">'), panel[:500]
        _, english = server.post("/api/view", {"yaml": yaml_text})
        panel = english["html"].split('id="panel-foundations"')[1]
        assert "The words of 509.1g" in panel and "Comprehensive Rules 2025-02-07" in panel
        assert "総合ルール" not in panel
    finally:
        stop_server(server)
