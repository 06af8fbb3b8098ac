"""The workbench in a real browser (the machine's Chromium, driven by Playwright), as a judge
uses it: open a shipped scenario, change the pump's window in the form and see sixth's
outcome change on its board and in the table; break a field and see the error beside it;
share the board as a link and reload it; explore with a limit, and cancel a long search;
markup in a name stays text; axe-core finds no serious violation; phone and desktop
screenshots fit their screens. The page asks for nothing outside the server."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from workbench_server import SIX_PUMPS

GIANT = "giant-growth-vs-assignment-order"
VALID = re.compile(r"^Valid")


def opened(page, workbench, source: str) -> None:
    page.goto(f"{workbench.url}/workbench?open={source}")
    wait_status(page, VALID)


def wait_status(page, pattern: re.Pattern[str], timeout: float = 30_000) -> str:
    page.wait_for_function(
        "([source, flags]) => new RegExp(source, flags).test("
        "document.getElementById('status').textContent)",
        arg=[pattern.pattern, "i" if pattern.flags & re.I else ""], timeout=timeout)
    return page.inner_text("#status")


def cell(page, field: str, era: str) -> str:
    """The divergence table's cell of a field (in words) for an era."""
    return page.evaluate(
        """([field, era]) => {
             const row = [...document.querySelectorAll('#divergences tbody tr')]
               .find(r => r.querySelector('th').textContent.startsWith(field));
             return row ? row.querySelector(`td[data-era="${era}"]`).textContent : null;
           }""", [field, era])


def caption(page, era: str) -> str:
    return page.inner_text(f"#panel-{era} figcaption")


def test_changing_the_pumps_window_changes_sixth_on_the_board_and_in_the_table(page,
                                                                               workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    # As shipped (worked in test_api from 310.1): in sixth the bear survives its 3 damage.
    assert cell(page, "bear's zone", "sixth") == "battlefield"
    page.click("#tab-sixth")
    assert page.is_visible("#panel-sixth") and not page.is_visible("#panel-m10")
    assert "bear 2/2 → 5/5 (3 damage" in caption(page, "sixth")
    # The pump after combat damage: the 2/2 bear is dead before it could resolve.
    page.select_option('#form [data-field="actions[0].at"]', "combat-damage")
    page.wait_for_function("document.getElementById('yaml').value.includes("
                           "'at: combat-damage')")
    page.wait_for_function("""() => {
        const row = [...document.querySelectorAll('#divergences tbody tr')]
          .find(r => r.querySelector('th').textContent.startsWith("bear's zone"));
        return row && row.querySelector('td[data-era="sixth"]').textContent
          .startsWith('graveyard');
      }""")
    assert page.is_visible("#panel-sixth"), "the era chosen stays chosen"
    assert re.search(r"bear 2/2[^.;]*gone to the graveyard", caption(page, "sixth"))
    svg = page.inner_html("#panel-sixth figure")
    assert "gone to the graveyard" in svg


def test_a_broken_field_shows_its_error_beside_it(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    power = '#form [data-field="permanents[0].power"]'
    page.fill(power, "x")
    page.wait_for_selector(f'{power}[aria-invalid="true"]')
    beside = page.locator("#form .wb-field", has=page.locator(
        '[data-field="permanents[0].power"]')).locator(".field-error")
    assert "integer" in beside.inner_text()
    assert page.get_attribute(power, "aria-describedby").split()[-1] == \
        beside.get_attribute("id")
    assert wait_status(page, re.compile("^1 problem")).startswith(
        "1 problem: permanents[0].power:")
    assert page.is_visible("#result-stale")  # the last valid result, said to be old
    page.fill(power, "5")
    wait_status(page, VALID)
    assert page.locator(".field-error").count() == 0
    assert not page.is_visible("#result-stale")
    # A mistake typed in the YAML: beside the form's field too, with the suggestion, and
    # in the YAML's list with its line.
    text = page.input_value("#yaml").replace("at: damage-on-stack", "at: damage-on-stak")
    page.fill("#yaml", text)
    wait_status(page, re.compile("problem"))
    window = '#form [data-field="actions[0].at"]'
    page.wait_for_selector(f'{window}[aria-invalid="true"]')
    said = page.locator("#form .wb-field", has=page.locator(
        '[data-field="actions[0].at"]')).locator(".field-error")
    assert "did you mean 'damage-on-stack'" in said.inner_text()
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "damage-on-stak" in x)
    assert page.inner_text("#yaml-problems").startswith(f"line {line}: actions[0].at:")


def test_a_shared_link_reloads_the_same_board(page, browser, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    page.select_option('#form [data-field="actions[0].at"]', "end-of-combat")
    page.wait_for_function("document.getElementById('yaml').value.includes("
                           "'at: end-of-combat')")
    wait_status(page, VALID)
    page.click("#share")
    page.wait_for_function("document.getElementById('share-url').value.includes('#s=')")
    url = page.input_value("#share-url")
    assert url.startswith(f"{workbench.url}/workbench#s=") and page.url == url
    text, table = page.input_value("#yaml"), page.inner_text("#divergences")
    other = browser.new_page(bypass_csp=True)
    try:
        other.goto(url)
        wait_status(other, VALID)
        assert other.input_value("#yaml") == text
        assert other.inner_text("#divergences") == table
        other.reload()
        wait_status(other, VALID)
        assert other.input_value("#yaml") == text
    finally:
        other.close()


def test_explore_with_a_limit_then_a_long_search_cancelled(page, workbench, clean_folder):
    opened(page, workbench, f"shipped:{GIANT}")
    page.fill("#explore-limit", "1")
    page.click("#explore-start")
    page.wait_for_function("document.getElementById('explore-status').textContent"
                           ".startsWith('Not explored')")
    assert "more than 1 lines of play" in page.inner_text("#explore-status")
    page.fill("#explore-limit", "10000")
    page.click("#explore-start")
    page.wait_for_function("document.getElementById('explore-status').textContent"
                           ".startsWith('Explored')", timeout=60_000)
    assert "With best play" in page.inner_text("#explore-result")
    # A search of about ten seconds an era: watched, then cancelled.
    shutil.copy(SIX_PUMPS, clean_folder / "six-pumps.yaml")
    opened(page, workbench, "folder:six-pumps.yaml")
    page.fill("#explore-limit", "100000000")
    page.click("#explore-start")
    page.wait_for_function("document.getElementById('explore-status').textContent"
                           ".startsWith('Searching under')", timeout=30_000)
    assert page.is_visible("#explore-progress")
    assert page.is_enabled("#explore-cancel") and not page.is_enabled("#explore-start")
    page.click("#explore-cancel")
    page.wait_for_function("document.getElementById('explore-status').textContent"
                           ".startsWith('Cancelled')")
    assert not page.is_visible("#explore-progress") and page.is_enabled("#explore-start")
    status, jobs_running = workbench.post("/api/explore", {"yaml": "id: x"})
    assert status != 429, "the cancelled search no longer counts against the bound"


def test_markup_in_a_name_is_shown_as_text(page, workbench, shipped_text):
    mark = "<img src=x onerror=alert(1)><script>alert(2)</script>"
    text = shipped_text(GIANT).replace(
        "title: Giant Growth once the attacker's plan is known", f"title: '{mark}'").replace(
        "card: Giant Growth}", f"card: '{mark}'}}")
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{workbench.url}/workbench")
    wait_status(page, VALID)
    page.fill("#yaml", text)
    page.wait_for_function("document.querySelector('#form [data-field=\"title\"]').value"
                           f" === {mark!r}")
    wait_status(page, VALID)
    assert page.locator("#result img, #form img").count() == 0
    # The workbench's own: its script, and its words (a JSON data block, never run).
    assert page.locator('script:not([type="application/json"])').count() == 1
    assert page.locator('script[type="application/json"]').count() == 1
    assert page.locator("script#words").count() == 1
    assert mark in page.inner_text("#result")
    assert not dialogs


def test_the_tabs_and_the_slider_work_from_the_keyboard(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    page.focus("#tab-alpha")
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#tab-fourth", "aria-selected") == "true"
    assert page.evaluate("document.activeElement.id") == "tab-fourth"
    page.keyboard.press("End")
    assert page.is_visible("#panel-foundations")
    page.focus("#era-slider")
    page.keyboard.press("Home")
    assert page.is_visible("#panel-alpha") and page.inner_text("#era-shown") == "alpha"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#era-shown") == "sixth" and page.is_visible("#panel-sixth")
    page.check("#every-era")
    assert all(page.is_visible(f"#panel-{e}") for e in ("alpha", "sixth", "foundations"))


def test_no_serious_accessibility_violation(page, workbench):
    from axe_playwright_python.sync_playwright import Axe

    opened(page, workbench, f"shipped:{GIANT}")
    page.fill('#form [data-field="permanents[0].power"]', "x")  # an error shown, too
    page.wait_for_selector('[aria-invalid="true"]')
    results = Axe().run(page)
    serious = [v for v in results.response["violations"]
               if v.get("impact") in ("serious", "critical")]
    assert not serious, [(v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
                         for v in serious]


@pytest.mark.parametrize("width", [390, 1280])
def test_screenshots_fit_phone_and_desktop(browser, workbench, tmp_path_factory, width):
    folder = Path(os.environ.get("RULESDIFF_SCREENSHOTS") or
                  tmp_path_factory.mktemp("workbench-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        opened(page, workbench, f"shipped:{GIANT}")
        page.click("#tab-sixth")
        wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                         && !e.closest('.scroll') && e.offsetParent !== null)
            .map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)""")
        assert not wide, wide
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        shot = folder / f"workbench-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 20_000
    finally:
        context.close()


def test_the_form_follows_the_text_and_never_writes_back_an_old_board(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    text = page.input_value("#yaml")
    page.fill("#yaml", text.replace("title: Giant Growth", "title: Changed\n\t- x", 1))
    wait_status(page, re.compile("problem"))
    assert "not a scenario yet" in page.inner_text("#form")
    assert page.is_visible("#result-stale")
    page.fill("#yaml", text.replace("title: Giant Growth once", "title: Changed once", 1))
    wait_status(page, VALID)
    assert page.input_value('#form [data-field="title"]').startswith("Changed once")


def test_the_forms_lists_follow_its_own_edits(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    assert page.locator('#form [data-field="combat.attacks.wurm"]').count() == 1
    page.select_option('#form [data-field="active"]', "B")
    page.wait_for_selector('#form [data-field="combat.attacks.bear"]')
    assert page.locator('#form [data-field="combat.attacks.wurm"]').count() == 0
    page.fill('#form [data-field="players[1].name"]', "C")
    page.press('#form [data-field="players[1].name"]', "Tab")
    page.wait_for_function("""() => [...document.querySelectorAll(
        '#form [data-field="permanents[0].controller"] option')]
        .some(o => o.value === 'C')""")


def test_add_and_remove_keep_the_keyboards_place(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    page.click("#add-permanent")
    page.wait_for_function("document.activeElement.dataset.field === 'permanents[3].id'")
    wait_status(page, VALID)
    page.click('#form fieldset.permanent:nth-of-type(4) button.remove:text("Remove")')
    page.wait_for_function("document.activeElement.id === 'add-permanent'")


def test_a_second_shared_link_in_the_same_tab_is_followed(page, workbench, shipped_text):
    opened(page, workbench, f"shipped:{GIANT}")
    page.click("#share")
    page.wait_for_function("document.getElementById('share-url').value.includes('#s=')")
    first = page.input_value("#share-url")
    page.fill('#form [data-field="players[0].life"]', "7")
    page.wait_for_function("document.getElementById('yaml').value.includes('life: 7')")
    wait_status(page, VALID)
    assert "#s=" not in page.url  # the link of the board before the edit is gone
    page.click("#share")
    page.wait_for_function("([old]) => document.getElementById('share-url').value !== old",
                           arg=[first])
    page.goto(first)
    page.wait_for_function("!document.getElementById('yaml').value.includes('life: 7')")
    wait_status(page, VALID)


def test_removing_a_creature_drops_what_named_it_and_says_so(page, workbench):
    """Removing the hawk leaves its block, the wurm's 3/2 assignment and seven eras'
    expectations naming it: the form drops them and the scenario stays valid."""
    opened(page, workbench, f"shipped:{GIANT}")
    page.click('#form button[aria-label="Remove hawk"]')
    said = wait_status(page, re.compile("^Valid.*Dropped"))
    assert "combat.blocks.hawk" in said and "combat.assign.wurm" in said
    assert "expect.m10.permanents.hawk" in said
    text = page.input_value("#yaml")
    assert "hawk:" not in text and "id: hawk" not in text


def test_a_new_permanent_takes_its_cards_numbers(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    page.click("#add-permanent")
    page.wait_for_selector('#form [data-field="permanents[3].card"]')
    wait_status(page, VALID)
    page.fill('#form [data-field="permanents[3].card"]', "Serra Angel")
    page.wait_for_function("document.getElementById('yaml').value.includes('Serra Angel')")
    wait_status(page, VALID)
    text = page.input_value("#yaml")
    line = next(x for x in text.splitlines() if "Serra Angel" in x)
    assert "power" not in line  # the card's own 4/4, not the form's 2/2
    assert page.get_attribute('#form [data-field="permanents[3].power"]',
                              "placeholder") == "4"


def test_an_actions_fields_follow_its_effect(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    page.select_option('#form [data-field="actions[0].effect"]', "damage")
    page.wait_for_selector('#form [data-field="actions[0].amount"]')
    assert page.locator('#form [data-field="actions[0].power"]').count() == 0
    page.fill('#form [data-field="actions[0].amount"]', "2")
    page.wait_for_function("document.getElementById('yaml').value.includes('amount: 2')")
    wait_status(page, VALID)
    assert "power: 3" not in page.input_value("#yaml")


def test_a_problem_clicked_shows_its_line(page, workbench):
    opened(page, workbench, f"shipped:{GIANT}")
    text = page.input_value("#yaml").replace("at: damage-on-stack", "at: damage-on-stak")
    page.fill("#yaml", text)
    wait_status(page, re.compile("problem"))
    page.evaluate("document.getElementById('yaml').scrollTop = 100000")
    page.click("#yaml-problems button")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "damage-on-stak" in x)
    top, height, per = page.evaluate("""() => { const a = document.getElementById('yaml');
        return [a.scrollTop, a.clientHeight, parseFloat(getComputedStyle(a).lineHeight)]; }""")
    assert top <= (line - 1) * per <= top + height
