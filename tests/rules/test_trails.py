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
    # C.8.1 of the summary; 310.5 (2009-05-01); 510.5 from M10; 510.4 by 2022 (510.4
    # "Fourth, the active player gets priority" went with damage on the stack's end).
    assert [(v["effective"], v["number"]) for v in found["versions"]] == [
        ("1999-05-16", "C.8.1"), ("2009-05-01", "310.5"), ("2009-07-11", "510.5"),
        ("2010-07-16", "510.5"), ("2022-04-29", "510.4"), ("2025-02-07", "510.4")]
    assert found["versions"][4]["status"] == "renumbered"
    assert found["versions"][5]["status"] == "unchanged"


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


def test_damage_on_the_stack_ends_at_m10(all_texts):
    found = history(all_texts, "damage on the stack")
    assert found["keys"] == ["damage-on-stack"]
    assert steps(found)[0] == ("2009-05-01", "310.1", "first")
    assert "go on the stack as a single object" in found["versions"][0]["text"]
    assert found["ended"]["status"] == "deleted" and found["ended"]["on"] == "2009-07-11"
    assert found["ended"]["era"] == "m10"
    assert "Combat Damage No Longer Uses the Stack" in found["ended"]["evidence"]


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
