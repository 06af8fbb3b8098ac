"""Trails a historian checks first (issue 48), pinned from the verbatim texts of
../shared/reference/ read by hand: each document's number of the rule, the status of each
step (renumbered, changed, split, deleted), the evidence that linked it, and when. The
expectations below were worked from the texts (quoted where it decides), not taken from
rulesdiff's output."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app


def history(db: str, rule: str) -> dict:
    done = CliRunner().invoke(app, ["history", rule, "--db", db, "--json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def steps(found: dict) -> list[tuple[str, str, str]]:
    return [(v["effective"], v["number"], v["status"]) for v in found["versions"]]


def test_deathtouch_split_at_m10_then_renumbered(all_texts):
    found = history(all_texts, "deathtouch")
    # 2009-05-01 502.63a: "Deathtouch is a triggered ability ... destroy that creature."
    # M10 (2009-07-11): 702.2a "Deathtouch is a static ability." and 702.2c, the
    # state-based action; M11 gave 702.2c "with toughness greater than 0"; by 2022 it is
    # 702.2b, word for word.
    assert steps(found) == [
        ("2009-05-01", "502.63a", "first"),
        ("2009-07-11", "702.2a + 702.2c", "split and changed"),
        ("2010-07-16", "702.2a + 702.2c", "changed"),
        ("2022-04-29", "702.2a + 702.2b", "renumbered"),
        ("2025-02-07", "702.2a + 702.2b", "unchanged")]
    m10 = found["versions"][1]
    assert m10["evidence"].startswith("concordance: \"Rules Changes\"")
    assert m10["dated"] == {"on": "2009-07-11", "era": "m10"}
    assert "toughness greater than 0" in " ".join(
        w["text"] for w in found["versions"][2]["words"] if w["op"] == "+")
    # The division (702.2b of 2009) and 1-is-lethal (2010) rules are other keys' trails.
    assert {"deathtouch-divides", "deathtouch-lethal"} <= set(found["related"])
    assert {a["effective"] for a in found["absent"]} == {"1999-05-16", "1999-04-23"}


def test_lifelink_split_by_m11_without_a_change(all_texts):
    found = history(all_texts, "lifelink")
    # 2009-07-08 702.13a "Lifelink is a static ability. Damage dealt by a source ...";
    # 2010-07-16 702.13a "Lifelink is a static ability." + 702.13b "Damage dealt ...":
    # the same words in two rules (only "See rule 118.3" became 119.3, the rule it names
    # having moved).
    assert steps(found) == [
        ("2009-05-01", "502.68a", "first"),
        ("2009-07-11", "702.13a", "renumbered and changed"),
        ("2010-07-16", "702.13a + 702.13b", "split"),
        ("2022-04-29", "702.15a + 702.15b", "renumbered"),
        ("2025-02-07", "702.15a + 702.15b", "unchanged")]
    m11 = found["versions"][2]
    assert m11["words"] == [] and m11["references"] == ["118.3 -> 119.3"]
    assert "Lifelink is a static ability." in m11["text"]
    assert m11["evidence"].startswith("the m11 rules table")


def test_first_strike_by_its_name(all_texts):
    found = history(all_texts, "first strike")
    assert found["keys"] == ["first-strike-step"]
    # C.8.1 of the summary; in 1999 the second damage step is 502.2b, under First Strike
    # ("During the combat damage step, if at least one attacking or blocking creature has
    # first strike, creatures without first strike don't assign combat damage. Instead of
    # proceeding to end of combat, the phase gets a second combat damage step ..."); by
    # 2009-05-01 it is 310.5, under the combat damage step ("At the start of the combat
    # damage step, if at least one ... has first strike (see rule 502.2) or double strike
    # ..."); 510.5 from M10; 510.4 by 2022 (the M10 text's 510.4 "Fourth, the active
    # player gets priority" is gone).
    assert steps(found) == [
        ("1999-05-16", "C.8.1", "first"),
        ("1999-04-23", "502.2b", "renumbered and changed"),
        ("2009-05-01", "310.5", "renumbered and changed"),
        ("2009-07-11", "510.5", "renumbered and changed"),
        ("2010-07-16", "510.5", "changed"),
        ("2022-04-29", "510.4", "renumbered"),
        ("2025-02-07", "510.4", "unchanged")]
    v = {x["effective"]: x for x in found["versions"]}
    assert v["1999-04-23"]["dated"] == {"on": "1999-04-23", "era": "sixth"}
    # Found under another heading (502. in 1999, 310. in 2009), and said so.
    moved = v["2009-05-01"]
    assert moved["previous_number"] == "502.2b"
    assert moved["evidence"].startswith("the likest words elsewhere in the document of "
                                        "1999-04-23 (502.2b, under 502.")
    assert moved["dated"] == {"between": ["1999-04-23", "2009-05-01"]}
    # M11 reworded "didn't have first strike" as "had neither first strike nor double
    # strike"; no era names 510.5 in what it changed: only the span is known.
    assert v["2010-07-16"]["dated"] == {"between": ["2009-07-11", "2010-07-16"]}
    assert v["2022-04-29"]["dated"] == {"between": ["2010-07-16", "2022-04-29"]}
    assert found["absent"] == []


def test_flying_moved_to_another_heading_at_m10(all_texts):
    found = history(all_texts, "502.4b")
    # 2009-05-01 502.4b and 2009-07-08 702.9b: "A creature with flying can't be blocked
    # except by creatures with flying and/or reach. ..." word for word, but the rules it
    # names (309 -> 509, 502.70 "Reach" -> 702.15); 1999's 502.4b said "can't be blocked
    # by creatures without flying".
    assert steps(found) == [
        ("1999-04-23", "502.4b", "first"),
        ("2009-05-01", "502.4b", "changed"),
        ("2009-07-11", "702.9b", "renumbered"),
        ("2010-07-16", "702.9b", "unchanged"),
        ("2022-04-29", "702.9b", "unchanged"),
        ("2025-02-07", "702.9b", "unchanged")]
    m10 = found["versions"][2]
    assert m10["references"] == ["309 -> 509", "502.70 -> 702.15"]
    assert "the same words elsewhere in the document of 2009-07-11" in m10["evidence"]
    assert m10["dated"] == {"between": ["2009-05-01", "2009-07-11"]}
    # Asked by its later number, the same trail.
    assert steps(history(all_texts, "702.9b")) == steps(found)


@pytest.mark.parametrize("rule, absent", [
    ("702.2b", "2009-05-01"),  # M10's deathtouch division: 310.2 of 2009-05-01 is 0.39 alike
    ("sba-deathtouch", "2009-05-01"),  # M10's new state-based action
    ("order-blocker", "2009-05-01"),  # M10's damage assignment order
    ("deathtouch", "1999-04-23"),  # Future Sight's: no keyword of 1999 is it
])
def test_a_weak_likeness_elsewhere_links_nothing(all_texts, rule, absent):
    found = history(all_texts, rule)
    assert absent in {a["effective"] for a in found["absent"]}
    assert not any("elsewhere" in (v["evidence"] or "") for v in found["versions"])


def test_509_2_deleted_by_foundations_its_number_reused(all_texts):
    found = history(all_texts, "509.2")
    # M10 added the damage assignment order (509.2); M11 reworded it ("that's become
    # blocked by multiple creatures" -> "that's become blocked"); 2025's 509.2 is "the
    # active player gets priority": another rule.
    assert steps(found) == [
        ("2009-07-11", "509.2", "first"),
        ("2010-07-16", "509.2", "changed"),
        ("2022-04-29", "509.2", "unchanged")]
    assert found["versions"][0]["dated"] == {"on": "2009-07-11", "era": "m10"}
    ended = found["ended"]
    assert ended["status"] == "deleted" and ended["on"] == "2024-11-08"
    assert ended["era"] == "foundations" and ended["between"] == ["2022-04-29", "2025-02-07"]
    assert ended["reused"]["number"] == "509.2"
    assert "active player gets priority" in ended["reused"]["text"]
    said = CliRunner().invoke(app, ["history", "509.2", "--db", all_texts],
                              env={"COLUMNS": "100"}).output
    assert "deleted on 2024-11-08, when the foundations rules began" in " ".join(said.split())


def test_damage_on_the_stack_from_1999_to_m10(all_texts):
    found = history(all_texts, "damage on the stack")
    assert found["keys"] == ["damage-on-stack"]
    # 1999-04-23 310.2: "All announcements of combat damage go on the stack as a single
    # entry."; 2009-05-01 310.1 has it after the announcements (1999's 310.1): "All
    # assignments of combat damage go on the stack as a single object." The words alone
    # (0.39 alike) do not say so: the concordance does, with its source.
    assert steps(found) == [
        ("1999-04-23", "310.2", "first"),
        ("2009-05-01", "310.1", "merged and changed")]
    first, sixth = found["versions"]
    assert "go on the stack as a single entry" in first["text"]
    assert "go on the stack as a single object" in sixth["text"]
    assert sixth["previous_number"] == "310.2"
    assert sixth["evidence"].startswith("concordance: the CR of 1999-04-23 has 310.2")
    # The source dates it only to a span (by 2003-10-01): between the imported texts.
    assert sixth["dated"] == {"between": ["1999-04-23", "2009-05-01"]}
    assert found["ended"]["status"] == "deleted" and found["ended"]["on"] == "2009-07-11"
    assert found["ended"]["era"] == "m10"
    assert "Combat Damage No Longer Uses the Stack" in found["ended"]["evidence"]
    assert {a["effective"] for a in found["absent"]} == {
        "1999-05-16", "2009-07-11", "2010-07-16", "2022-04-29", "2025-02-07"}


def test_510_1c_scenarios_are_those_whose_differing_events_cite_it(all_texts):
    found = history(all_texts, "510.1c")
    sixth = next(v for v in found["versions"] if v["effective"] == "1999-04-23")
    # fifth-angelic-page-taps-itself differs between fifth and sixth because a tapped
    # blocker deals damage in sixth (the blocker's assignment, 310.2d), not because of
    # how a blocked creature's damage is divided: not named here.
    assert "fifth-angelic-page-taps-itself" not in sixth["scenarios"]
    assert sixth["scenarios"], "the change of 1999 changes some shipped scenarios"


def test_a_look_back_is_dated_by_its_document(all_texts):
    found = history(all_texts, "trample")
    note = found["versions"][0]
    assert note["number"] == "A.27.Note" and note["status"] == "look back"
    assert note["in_force"] == note["effective"] == "1999-05-16"
    assert "1998-10-18" in note["evidence"]


@pytest.mark.parametrize("name", ["first-stroke", "damage"])
def test_a_name_that_is_no_rule_or_names_several_is_refused(all_texts, name):
    done = CliRunner().invoke(app, ["history", name, "--db", all_texts])
    assert done.exit_code == 2 and "neither a rule number" in done.output


@pytest.mark.parametrize("key, number", [("tapped-blocker", "C.8.2"),
                                         ("prevention-only", "T.10.3")])
def test_a_rule_of_the_summary_ends_at_sixth(all_texts, key, number):
    # C.8.2 (tapped blockers deal no damage) and T.10.3 (the damage prevention step) have
    # no rule in the Comprehensive Rules: sixth's table has no such key, and its record
    # says "Tapped blockers deal combat damage" and "The damage prevention step is gone".
    found = history(all_texts, key)
    assert [v["number"] for v in found["versions"]] == [number]
    ended = found["ended"]
    assert ended["status"] == "deleted" and ended["on"] == "1999-04-23"
    assert ended["era"] == "sixth" and ended["between"] == ["1998-10-18", "1999-04-23"]
