"""Explore on Duel Masters scenarios: the contract's JSON, every line of play counted by
hand, the value with best play, and the same refusals as Magic's (exit 2)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir

runner = CliRunner()
THREE = str(scenarios_dir() / "dm-three-blockers-draw.yaml")
NINJA = str(scenarios_dir() / "dm-ninja-strike-when-a-creature-blocks.yaml")


def explore(*args: str) -> tuple[int, dict]:
    r = runner.invoke(app, ["explore", *args, "--json", "--no-store"])
    assert r.exit_code in (0, 1), r.output
    return r.exit_code, json.loads(r.output)


def test_three_blockers_draw_three_cards_before_and_one_after():
    code, doc = explore(THREE)
    assert code == 1 and doc["diverges"]
    assert set(doc) == {"schema", "scenario", "objective", "fields", "blocks", "eras",
                        "only_in", "diverges"}
    old, new = doc["eras"]["dm-pre-2021-09"], doc["eras"]["dm-2021-09"]
    # Before: three "when it blocks" draws, which B may put in any of 3! orders; after: one.
    assert old["lines"] == 6 and new["lines"] == 1
    assert [o["state"]["players"]["B"]["hand"] for o in old["outcomes"]] == [3]
    assert [o["state"]["players"]["B"]["hand"] for o in new["outcomes"]] == [1]
    state = new["outcomes"][0]["state"]
    assert state["permanents"]["cosmo3"] == {"zone": "graveyard", "controller": "B"}
    assert state["permanents"]["cosmo1"] == {"zone": "battlefield", "controller": "B",
                                             "tapped": True}
    assert state["players"]["B"] == {"shields": 5, "hand": 1, "lost": False}
    assert old["value"]["score"] == new["value"]["score"] == [0, 1, 0]
    assert old["value"]["line"][0]["kind"] == "trigger-order"
    assert old["value"]["line"][0]["choice"][0] == "cosmo1: blocks draw 1"
    assert new["value"]["line"] == []  # no choice had two options
    assert doc["only_in"] == {"dm-pre-2021-09": [0], "dm-2021-09": [0]}


def test_with_every_redirection_only_the_old_rules_let_a_relay_summon_the_shinobi():
    code, doc = explore(NINJA, "--blocks", "all")
    old, new = doc["eras"]["dm-pre-2021-09"], doc["eras"]["dm-2021-09"]
    # B may use none, wall, guard, wall-then-guard or guard-then-wall (5). A's Ninja
    # Strike (use it or not) comes when a creature blocked: before the change, whenever
    # wall was used (3 x 2 + 2 = 8); after, only when wall resolved last (2 x 2 + 3 = 7).
    assert old["lines"] == 8 and new["lines"] == 7
    assert code == 1 and doc["only_in"]["dm-2021-09"] == []
    (only,) = doc["only_in"]["dm-pre-2021-09"]
    relay = old["outcomes"][only]
    assert relay["state"]["permanents"]["shinobi"] == {"zone": "deck", "controller": "A"}
    assert relay["state"]["permanents"]["guard"]["zone"] == "graveyard"
    assert [(d["kind"], d.get("choice"), d.get("creature")) for d in relay["example"]] == [
        ("blocks", ["wall", "guard"], None), ("ninja-strike", None, "shinobi")]
    assert relay["example"][1]["rule"] == "112.3c" and relay["example"][1]["player"] == "A"


BEST = """
id: t-dm-best
title: The defender's best redirection
game: duel-masters
players: [{name: A}, {name: B, shields: 1}]
active: A
permanents:
  - {id: att, controller: A, power: 5000}
  - {id: big, controller: B, power: 6000, keywords: [blocker]}
  - {id: small, controller: B, power: 2000, keywords: [blocker]}
combat:
  attacks: {att: B}
"""


def test_the_value_is_the_defenders_best_redirection(tmp_path):
    f = tmp_path / "best.yaml"
    f.write_text(BEST)
    code, doc = explore(str(f), "--blocks", "all")
    for era in ("dm-pre-2021-09", "dm-2021-09"):
        res = doc["eras"][era]
        # none, big, small, big-small, small-big: the last creature used battles.
        assert res["lines"] == 5
        value = res["value"]
        # Blocking with big destroys the attacker (-1 creature); letting it through breaks
        # B's last shield (+1); blocking with small loses small (+1 creature).
        assert value["score"] == [0, -1, 0]
        assert value["state"]["permanents"]["att"]["zone"] == "graveyard"
        assert value["line"][0]["kind"] == "blocks" and value["line"][0]["choice"][-1] == "big"
        scores = [o["score"] for o in res["outcomes"]]
        assert scores == sorted(scores, reverse=True) and [0, 1, 0] in scores
        assert [0, 0, 1] in scores  # no redirection: the shield is broken
    assert code == 0 and not doc["diverges"]  # no triggers: the eras agree
    _, shields = explore(str(f), "--blocks", "all", "--objective", "life")
    assert shields["eras"]["dm-2021-09"]["value"]["score"] == [0, 0]


def test_human_report_says_the_value_in_shields_and_creatures():
    r = runner.invoke(app, ["explore", THREE, "--no-store"])
    assert r.exit_code == 1, r.output
    assert "B loses cosmo3" in r.output and "B 3 hand" in r.output
    assert "diverges" in r.output


def test_an_illegal_written_redirection_is_exit_2(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(BEST.replace("keywords: [blocker]}\n  - {id: small", "keywords: [blocker],"
                              " tapped: true}\n  - {id: small")
                 + "  redirect: [big]\n")
    r = runner.invoke(app, ["explore", str(f), "--no-store"])
    assert r.exit_code == 2
    assert "combat.redirect[0]" in r.output and "it is tapped" in r.output


def test_a_search_past_the_limit_is_refused_not_cut():
    r = runner.invoke(app, ["explore", THREE, "--no-store", "--blocks", "all",
                            "--limit", "10"])
    # 1 + 3 + 6 + 6 = 16 ordered choices of three blockers, more than 10.
    said = " ".join(r.output.split())
    assert r.exit_code == 2 and "a decision with 16 options" in said
    assert "the limit is 10" in said


def test_stored_and_shown(tmp_path):
    db = str(tmp_path / "x.db")
    assert runner.invoke(app, ["explore", THREE, "--db", db]).exit_code == 1
    shown = json.loads(runner.invoke(app, ["show", "dm-three-blockers-draw", "--json", "--db",
                                           db]).output)
    explored = shown["versions"][0]["explorations"]
    assert [(x["era"], x["lines"]) for x in explored] == [("dm-pre-2021-09", 6),
                                                         ("dm-2021-09", 1)]


def test_dataset_build_explores_both_games(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    for name in ("dm-three-blockers-draw", "giant-growth-vs-assignment-order"):
        (folder / f"{name}.yaml").write_text((scenarios_dir() / f"{name}.yaml").read_text())
    db = str(tmp_path / "x.db")
    r = runner.invoke(app, ["dataset", "build", str(folder), "--db", db, "--explore",
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["explored"] == {"scenarios": 2, "diverging": 2}
    for name, eras in (("dm-three-blockers-draw", {"dm-pre-2021-09", "dm-2021-09"}),
                       ("giant-growth-vs-assignment-order", {"sixth", "m10"})):
        shown = json.loads(runner.invoke(app, ["show", name, "--json", "--db", db]).output)
        explored = {x["era"] for x in shown["versions"][0]["explorations"]}
        assert eras <= explored and not (explored & {"dm-2021-09"} and "sixth" in explored)


def test_only_legal_redirections_are_offered():
    own = str(scenarios_dir() / "dm-attacked-blocker-cannot-take-its-own-attack.yaml")
    _, doc = explore(own, "--blocks", "all")
    for res in doc["eras"].values():
        # jeanne is the attacked creature: only nothing, or wall, can be chosen.
        assert res["lines"] == 2
        chosen = [d["choice"] for o in res["outcomes"] for d in o["example"]
                  if d["kind"] == "blocks"]
        assert sorted(chosen) == [[], ["wall"]]
        assert {o["state"]["permanents"]["jeanne"]["zone"] for o in res["outcomes"]} == {
            "graveyard", "battlefield"}
    guard = str(scenarios_dir() / "dm-guardman-not-on-an-attack-on-the-player.yaml")
    code, doc = explore(guard, "--blocks", "all")
    assert code == 0
    for res in doc["eras"].values():
        assert res["lines"] == 2  # nothing, or zircon: never beetle on a player's attack
        assert res["value"]["score"] == [0, 0, 1]  # keep zircon, lose a shield
        assert res["value"]["state"]["players"]["B"] == {"shields": 4, "hand": 1,
                                                        "lost": False}


def test_the_relay_the_qa_forbids_is_exit_2(tmp_path):
    text = (scenarios_dir() / "dm-guardman-not-on-an-attack-on-the-player.yaml").read_text()
    f = tmp_path / "relay.yaml"
    f.write_text(text.replace("redirect: [zircon]", "redirect: [zircon, beetle]"))
    for cmd in (["run", str(f), "--era", "dm-new"], ["explore", str(f), "--no-store"]):
        r = runner.invoke(app, cmd)
        assert r.exit_code == 2 and "combat.redirect[1]" in r.output
        assert "a guardman redirects only an attack on a creature" in r.output


def blockers_that_draw(n: int) -> str:
    rows = "\n".join(f"  - {{id: b{i}, controller: B, power: {1000 * (i + 1)}, keywords: "
                     f"[blocker], abilities: [{{trigger: blocks, effect: draw}}]}}"
                     for i in range(n))
    return (f"id: t-dm-draws\ntitle: Blockers that draw\ngame: duel-masters\n"
            f"players: [{{name: A}}, {{name: B}}]\nactive: A\npermanents:\n"
            f"  - {{id: att, controller: A, power: 3500}}\n{rows}\n"
            f"combat:\n  attacks: {{att: B}}\n")


def test_one_order_of_commuting_triggers_stands_for_all_exactly():
    from helpers import scenario as parse_text

    from comparator.games.duel_masters.explore import Explorer
    from comparator.games.exploration import era_result

    s = parse_text(blockers_that_draw(4))
    for era in ("dm-pre-2021-09", "dm-2021-09"):
        merged = Explorer(s, era, blocks="all")
        every = Explorer(s, era, blocks="all", merge=False)
        assert era_result(merged, merged.run()) == era_result(every, every.run())
    # Before the change every blocker used blocks and draws: k blockers in some order, then
    # their k draws in any order: the sum over k of 6!/(6-k)! x k! = 614,227 lines.
    six = parse_text(blockers_that_draw(6))
    old = Explorer(six, "dm-pre-2021-09", blocks="all")
    assert old.run().lines == 614_227 and old.leaves == 1957  # one per redirection
    new = Explorer(six, "dm-2021-09", blocks="all")
    assert new.run().lines == 1957  # only the last blocker blocks: one draw


def test_the_limit_counts_the_orders_one_order_stood_for(tmp_path):
    f = tmp_path / "six.yaml"
    f.write_text(blockers_that_draw(6))
    r = runner.invoke(app, ["explore", str(f), "--no-store", "--blocks", "all", "--limit",
                            "600000", "--era", "dm-old"])
    assert r.exit_code == 2 and "more than 600000 lines of play (reached 614227)" in r.output
    r = runner.invoke(app, ["explore", str(f), "--no-store", "--blocks", "all", "--limit",
                            "600000", "--era", "dm-new", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["eras"]["dm-2021-09"]["lines"] == 1957


NINJA_TWO_ATTACKS = """
id: t-dm-ninja-two-attacks
title: A shinobi summoned against the first attack blocks the second
game: duel-masters
players: [{name: A}, {name: B, mana: 3}]
active: A
permanents:
  - {id: raider, controller: A, power: 3000}
  - {id: raider2, controller: A, power: 2000}
  - {id: shinobi, controller: B, power: 4000, zone: hand,
     keywords: [blocker, {ninja-strike: 3}]}
combat:
  attacks: {raider: B, raider2: B}
  redirect: {raider2: [shinobi]}
"""


def test_a_later_attack_s_written_redirection_impossible_in_a_line_leaves_it_out(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(NINJA_TWO_ATTACKS)
    r = runner.invoke(app, ["explore", str(f), "--no-store", "--json"])
    assert r.exit_code == 0, r.output
    for res in json.loads(r.stdout)["eras"].values():
        # Summoned against the first attack, or against the second: two lines; not
        # summoned at all, the written redirection of the second can't be made: left out,
        # and said.
        assert res["lines"] == 2
        [note] = res["notes"]
        assert note["type"] == "lines-refused" and note["positions"] == 1
        assert "later attack" in note["text"]
    # Every redirection: each recorded with whose attack it is.
    r = runner.invoke(app, ["explore", str(f), "--no-store", "--json", "--blocks", "all"])
    doc = json.loads(r.stdout)
    line = doc["eras"]["dm-2021-09"]["value"]["line"]
    assert any(d["kind"] == "blocks" and d["attacker"] == "raider2" for d in line)
    assert "notes" not in doc["eras"]["dm-2021-09"]


def test_the_written_line_s_impossible_redirection_is_still_the_file_s_error(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(NINJA_TWO_ATTACKS.replace("mana: 3", "mana: 0"))  # never summoned
    r = runner.invoke(app, ["explore", str(f), "--no-store"])
    assert r.exit_code == 2 and "combat.redirect.raider2[0]" in r.output
