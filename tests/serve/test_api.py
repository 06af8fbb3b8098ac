"""The workbench's JSON API (docs/serve.md) against the real server: it answers what the
command line answers for the same file — `run --json`, `diff --json`, `validate --json`,
`explore --json` — and explores can be watched and cancelled."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from workbench_server import SHIPPED, SIX_PUMPS

GIANT = "giant-growth-vs-assignment-order"
DIFF_KEYS = {"schema", "scenario", "eras", "diverges", "outcomes", "divergences"}
EXPLORE_KEYS = {"schema", "scenario", "objective", "fields", "blocks", "eras", "only_in",
                "diverges"}


def cli(*args: str) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "comparator", *args], capture_output=True,
                          text=True, timeout=300)
    return done.returncode, done.stdout


def test_run_answers_the_outcome_the_command_line_prints(workbench, shipped_text):
    status, got = workbench.post("/api/run", {"yaml": shipped_text(GIANT), "era": "sixth"})
    assert status == 200
    code, printed = cli("run", str(SHIPPED / f"{GIANT}.yaml"), "--era", "sixth", "--json")
    assert code == 0 and got == json.loads(printed)
    # Worked by hand (310.1 of 2009-05-01): the 3/2 split is on the stack before the pump,
    # so the bear (5/5 once pumped) survives its 3 damage; the hawk dies.
    assert got["permanents"]["bear"]["zone"] == "battlefield"
    assert got["permanents"]["bear"]["damage"] == 3
    assert got["permanents"]["hawk"]["zone"] == "graveyard"


def test_a_later_pump_changes_sixth_only_where_the_rules_say(workbench, shipped_text):
    """The pump moved to after combat damage: the 2/2 bear has taken 3 and is gone before
    it resolves, in sixth as in every era (the pump finds no target and is not taken)."""
    text = shipped_text(GIANT).replace("at: damage-on-stack", "at: combat-damage")
    status, got = workbench.post("/api/run", {"yaml": text, "era": "sixth"})
    assert status == 200
    assert got["permanents"]["bear"]["zone"] == "graveyard"
    assert any(n["type"] == "action-not-taken" for n in got["notes"]), got["notes"]


def test_diff_is_the_contracts_document_as_the_command_line_prints_it(workbench,
                                                                      shipped_text):
    status, got = workbench.post("/api/diff", {"yaml": shipped_text(GIANT)})
    assert status == 200
    assert set(got) == DIFF_KEYS
    code, printed = cli("diff", str(SHIPPED / f"{GIANT}.yaml"), "--json", "--no-store")
    assert code == 1 and got == json.loads(printed)


def test_diff_names_the_eras_that_refuse_apart(workbench, shipped_text):
    """An era that can't run a scenario is said under "refused" (the command line says it
    on stderr), and only then."""
    text = shipped_text("menace-against-one-blocker")
    status, got = workbench.post("/api/diff", {"yaml": text})
    assert status == 200 and set(got) - DIFF_KEYS == {"refused"}
    assert set(got["refused"]) == {"alpha", "fourth", "fifth", "sixth", "m10", "m11",
                                   "foundations"} - set(got["eras"])
    assert got["refused"]["m11"].startswith("refused, as expected (509.1b)")


def test_a_refused_era_answers_the_contracts_refusal(workbench, shipped_text):
    text = shipped_text("menace-against-one-blocker")
    code, printed = cli("run", str(SHIPPED / "menace-against-one-blocker.yaml"), "--era", "m11",
                        "--json")
    status, got = workbench.post("/api/run", {"yaml": text, "era": "m11"})
    assert code == 2 and status == 200 and got == json.loads(printed)
    assert got["refused"]["rule"] == "509.1b"


def test_validate_names_the_field_and_its_line_with_a_suggestion(workbench, shipped_text):
    text = shipped_text(GIANT).replace("at: damage-on-stack", "at: damage-on-stak")
    status, got = workbench.post("/api/validate", {"yaml": text, "name": f"{GIANT}.yaml"})
    assert status == 200 and got["ok"] is False
    [problem] = got["problems"]
    assert problem["field"] == "actions[0].at"
    assert problem["line"] == text.splitlines().index(
        next(x for x in text.splitlines() if "damage-on-stak" in x)) + 1
    assert "did you mean 'damage-on-stack'" in problem["message"]
    # The same words as `validate --json` of the same file.
    assert problem["file"] == f"{GIANT}.yaml"


def test_an_illegal_block_is_placed_on_its_line(workbench, shipped_text):
    """An era's refusal of a written block names the field; the line is found for it."""
    text = shipped_text(GIANT).replace("hawk, controller: B, power: 1, toughness: 1, "
                                       "keywords: [flying]",
                                       "hawk, controller: B, power: 1, toughness: 1, "
                                       "keywords: [flying], tapped: true")
    assert text != shipped_text(GIANT)
    status, got = workbench.post("/api/validate", {"yaml": text})
    assert status == 200
    if got["ok"]:
        pytest.skip("a tapped blocker is a note in these eras, not a refusal")
    assert got["problems"][0]["line"] is not None


def test_the_form_document_is_written_as_yaml_that_reads_back(workbench, shipped_text):
    status, first = workbench.post("/api/validate", {"yaml": shipped_text(GIANT)})
    doc = first["scenario"]
    doc["actions"][0]["at"] = "combat-damage"
    status, got = workbench.post("/api/validate", {"scenario": doc})
    assert status == 200 and got["ok"], got["problems"]
    assert "at: combat-damage" in got["yaml"]
    assert got["scenario"] == doc  # the text written reads back as the document sent


def test_explore_waited_for_is_the_command_lines_explore(workbench, shipped_text):
    status, got = workbench.post("/api/explore", {"yaml": shipped_text(GIANT), "wait": True,
                                                  "limit": 10_000})
    assert status == 200 and got["state"] == "done", got
    assert set(got["explore"]) == EXPLORE_KEYS
    code, printed = cli("explore", str(SHIPPED / f"{GIANT}.yaml"), "--json", "--no-store",
                        "--limit", "10000", "--jobs", "1")
    assert got["explore"] == json.loads(printed)
    assert got["lines"] == sum(e["lines"] for e in got["explore"]["eras"].values())


def test_explore_refuses_a_search_larger_than_its_limit(workbench, shipped_text):
    status, got = workbench.post("/api/explore", {"yaml": shipped_text(GIANT), "wait": True,
                                                  "limit": 1})
    assert status == 200 and got["state"] == "refused"
    assert "more than 1 lines of play" in got["error"] and "--limit" in got["error"]


def test_explore_is_watched_and_cancelled(workbench):
    text = SIX_PUMPS.read_text(encoding="utf-8")
    status, job = workbench.post("/api/explore", {"yaml": text, "limit": 100_000_000,
                                                  "eras": ["m10"]})
    assert status == 202 and job["state"] == "running"
    seen = None
    for _ in range(200):
        status, seen = workbench.get(f"/api/explore/{job['job']}")
        if seen["lines"]:
            break
        time.sleep(0.05)
    assert seen["state"] == "running" and seen["era"] == "m10" and seen["lines"] > 0
    status, cancelled = workbench.call("DELETE", f"/api/explore/{job['job']}")
    assert status == 200 and cancelled["state"] == "cancelled"
    status, after = workbench.get(f"/api/explore/{job['job']}")
    assert after["state"] == "cancelled" and "explore" not in after


def test_explores_at_once_are_bounded(workbench):
    text = SIX_PUMPS.read_text(encoding="utf-8")
    started = []
    try:
        for _ in range(2):
            status, job = workbench.post("/api/explore", {"yaml": text,
                                                          "limit": 100_000_000})
            assert status == 202
            started.append(job["job"])
        status, refused = workbench.post("/api/explore", {"yaml": text})
        assert status == 429 and "at once" in refused["error"]
    finally:
        for j in started:
            workbench.call("DELETE", f"/api/explore/{j}")


def test_the_lists_of_scenarios_and_the_form_words(workbench):
    status, got = workbench.get("/api/scenarios")
    assert status == 200 and GIANT in {s["name"] for s in got["shipped"]}
    assert got["can_save"] is True
    status, words = workbench.get("/api/vocabulary?game=mtg")
    assert "damage-on-stack" in words["form"]["windows"]
    assert "Grizzly Bears" in words["form"]["cards"]
    assert words["eras"][-1] == "foundations"
    status, dm = workbench.get("/api/vocabulary?game=duel-masters")
    assert status in (200, 400)


def test_open_each_kind_of_source(workbench, clean_folder, shipped_text):
    status, got = workbench.get(f"/api/open?source=shipped&name={GIANT}")
    assert status == 200 and got["yaml"] == shipped_text(GIANT)
    status, new = workbench.get("/api/open?source=new")
    assert status == 200 and "id: my-scenario" in new["yaml"]
    status, checked = workbench.post("/api/validate", {"yaml": new["yaml"]})
    assert checked["ok"], checked["problems"]  # the template runs as it is
    (clean_folder / "mine.yaml").write_text(shipped_text(GIANT), encoding="utf-8")
    status, mine = workbench.get("/api/open?source=folder&name=mine.yaml")
    assert status == 200 and mine["name"] == "mine.yaml"


def test_a_stored_scenario_opens_and_runs_the_same(workbench, shipped_text):
    status, _ = workbench.post("/api/diff", {"yaml": shipped_text(GIANT), "store": True})
    assert status == 200
    status, listing = workbench.get("/api/scenarios")
    assert GIANT in {s["name"] for s in listing["stored"]}
    status, got = workbench.get(f"/api/open?source=stored&name={GIANT}")
    assert status == 200
    _, again = workbench.post("/api/diff", {"yaml": got["yaml"]})
    _, first = workbench.post("/api/diff", {"yaml": shipped_text(GIANT)})
    assert again["divergences"] == first["divergences"]


def test_save_writes_into_the_folder_only_and_never_over_a_file_unasked(workbench,
                                                                        clean_folder,
                                                                        shipped_text):
    text = shipped_text(GIANT)
    status, got = workbench.post("/api/save", {"yaml": text, "name": "My Board"})
    assert status == 200 and got["saved"] == "my-board.yaml"
    assert (clean_folder / "my-board.yaml").read_text(encoding="utf-8") == text
    status, again = workbench.post("/api/save", {"yaml": text + "\n", "name": "my-board"})
    assert status == 409 and "replace" in again["error"]
    assert (clean_folder / "my-board.yaml").read_text(encoding="utf-8") == text
    status, _ = workbench.post("/api/save", {"yaml": text + "\n", "name": "my-board",
                                             "replace": True})
    assert status == 200
    assert (clean_folder / "my-board.yaml").read_text(encoding="utf-8") == text + "\n"


def test_an_invalid_scenario_is_not_saved(workbench, clean_folder, shipped_text):
    text = shipped_text(GIANT).replace("life: 20}", "life: lots}", 1)
    status, got = workbench.post("/api/save", {"yaml": text, "name": "broken"})
    assert status == 422 and got["error"].startswith("not saved: players[0].life")
    assert list(clean_folder.iterdir()) == []


def test_the_site_is_served_live_with_the_workbench_in_its_menu(workbench):
    status, home = workbench.get("/site/index.html", timeout=120)
    assert status == 200 and 'href="/workbench"' in home
    status, page = workbench.get(f"/site/scenarios/{GIANT}.html")
    assert status == 200 and f"/workbench?open=shipped:{GIANT}" in page
    status, css = workbench.get("/site/assets/site.css")
    assert status == 200


def test_a_saved_file_is_on_the_live_site_with_a_link_that_opens_it(workbench, clean_folder,
                                                                     shipped_text):
    text = shipped_text(GIANT).replace(f"id: {GIANT}", "id: my-own-board", 1)
    status, _ = workbench.get("/site/index.html", timeout=120)  # built once before
    status, got = workbench.post("/api/save", {"yaml": text, "name": "board-file"})
    assert status == 200
    page = ""
    for _ in range(100):  # the site is built again, in the background, once asked
        status, page = workbench.get("/site/scenarios/my-own-board.html", timeout=120)
        if status == 200:
            break
        time.sleep(0.2)
    assert status == 200, page
    assert "/workbench?open=folder:board-file.yaml" in page


def test_an_explore_says_the_options_it_was_made_with(workbench, shipped_text):
    status, got = workbench.post("/api/explore", {"yaml": shipped_text(GIANT), "wait": True,
                                                  "objective": "kills", "fields": "all",
                                                  "limit": 100_000})
    assert status == 202 or got["state"] == "done"
    status, job = workbench.get(f"/api/explore/{got['job']}?html=1")
    assert "(objective: kills; every outcome field)" in job["html"]


def test_the_rules_words_are_shown_where_their_text_is_imported(tmp_path, shipped_text):
    """With M10's rules text imported into the store, each m10 event's rule carries its
    words (the first time it is cited), as on the site."""
    from workbench_server import ROOT, start_server, stop_server

    text_file = ROOT.parent / "shared" / "reference" / "cr-2009-07-08.txt"
    if not text_file.exists():
        pytest.skip("shared/reference is not beside the repo")
    code, _ = cli("rules", "import", str(text_file), "--db", str(tmp_path / "store.db"))
    assert code == 0
    server = start_server(tmp_path)
    try:
        status, got = server.post("/api/view", {"yaml": shipped_text(GIANT)})
        assert status == 200 and got["ok"]
        panel = got["html"].split('id="panel-m10"')[1].split('id="panel-m11"')[0]
        assert "The words of 510.1c" in panel
        assert "Comprehensive Rules 2009-07-11" in panel  # the text the words are from
        other = got["html"].split('id="panel-sixth"')[1].split('id="panel-m10"')[0]
        assert "The words of" not in other  # sixth's text is not imported
    finally:
        stop_server(server)
