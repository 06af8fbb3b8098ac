"""Duel Masters' block step in its two eras (issue 13), worked by hand from the official
change of 2021-09-07, its Q&A and the dmwiki pages of seed 004: what may be chosen
(507.1a), and the game-agnostic commands on a Duel Masters scenario."""

import json
import re
from pathlib import Path

import pytest
from helpers import scenario as parse_text
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir
from versions import GAMES, eras_of, find_era, run

runner = CliRunner()
DM_ERAS = eras_of("duel-masters")

BOARD = """
id: t-dm
title: One attack
game: duel-masters
players: [{{name: A}}, {{name: B, shields: {shields}}}]
active: A
permanents:
  - {{id: att, controller: A, power: 5000, keywords: [{attacker}]}}
  - {{id: target, controller: B, power: 1000, tapped: {target_tapped},
     keywords: [{target}]}}
  - {{id: x, controller: B, power: 3000, tapped: {x_tapped}, keywords: [{x}]}}
combat:
  attacks: {{att: {attacked}}}
  redirect: [{redirect}]
"""


def board(attacker="", target="", x="blocker", attacked="B", redirect="x", shields=5,
          target_tapped="true", x_tapped="false"):
    return BOARD.format(attacker=attacker, target=target, x=x, attacked=attacked,
                        redirect=redirect, shields=shields, target_tapped=target_tapped,
                        x_tapped=x_tapped)


ILLEGAL = [
    ({"x_tapped": "true"}, "it is tapped"),
    ({"x": "guardman"}, "a guardman redirects only an attack on a creature"),
    ({"x": "blocker, cant-block"}, "it can't block"),
    ({"attacker": "cant-be-blocked"}, "att can't be blocked"),
    ({"attacker": "cant-redirect", "x": "guardman", "attacked": "target"},
     "can't be changed"),
    # The official Q&A (Jeanne d'Arc): an attacked creature can't redirect to itself.
    ({"attacker": "mach-fighter", "attacked": "target", "target": "blocker",
      "target_tapped": "false", "redirect": "target"}, "to that creature itself"),
    ({"x": ""}, "no ability that redirects"),
]


@pytest.mark.parametrize("change,why", ILLEGAL)
@pytest.mark.parametrize("era", DM_ERAS)
def test_a_choice_that_can_not_be_made_is_exit_2_citing_the_rule(tmp_path, era, change, why):
    f = tmp_path / "s.yaml"
    f.write_text(board(**change))
    r = runner.invoke(app, ["run", str(f), "--era", era])
    assert r.exit_code == 2 and why in r.output and "combat.redirect[0]" in r.output, r.output
    assert find_era(era).RULES["choose"] in r.output


def test_the_choices_are_checked_at_once_not_one_after_another():
    # Official Q&A (Dis Zircon and Deathmatch Beetle): a player is attacked; a blocker
    # then a guardman may not be chosen, though after the blocker a creature is attacked.
    text = board(redirect="x, g").replace(
        "combat:", "  - {id: g, controller: B, power: 2000, keywords: [guardman]}\ncombat:")
    for era in DM_ERAS:
        with pytest.raises(Exception, match="guardman redirects only an attack on a creature"):
            run(era, parse_text(text))


@pytest.mark.parametrize("era", DM_ERAS)
def test_no_shields_and_an_unchanged_attack_win_a_changed_one_battles(era):
    o = run(era, parse_text(board(shields=0, redirect="")))
    assert o["players"]["B"]["lost"] is True
    o = run(era, parse_text(board(shields=0)))
    assert o["players"]["B"]["lost"] is False
    assert o["permanents"]["x"]["zone"] == "graveyard"  # 5000 beats 3000


def test_equal_powers_destroy_both():
    o = run("dm-new", parse_text(board(redirect="x").replace("power: 5000",
                                                                          "power: 3000")))
    assert o["permanents"]["x"]["zone"] == o["permanents"]["att"]["zone"] == "graveyard"


def test_diff_of_a_duel_masters_scenario_is_the_same_json_and_store(tmp_path):
    path = str(scenarios_dir() / "dm-three-blockers-draw.yaml")
    db = tmp_path / "r.db"
    r = runner.invoke(app, ["diff", path, "--json", "--db", str(db)])
    assert r.exit_code == 1
    doc = json.loads(r.output)
    assert set(doc["eras"]) == set(DM_ERAS) and doc["diverges"]
    assert {d["path"] for d in doc["divergences"]} >= {"players.B.drawn"}
    shown = json.loads(runner.invoke(app, ["show", "dm-three-blockers-draw", "--json",
                                           "--db", str(db)]).output)
    assert {run["era"] for run in shown["versions"][0]["runs"]} == set(DM_ERAS)


def test_eras_say_their_game_and_ids_are_unique_across_games():
    data = json.loads(runner.invoke(app, ["eras", "--json"]).output)
    assert {e["id"]: e["game"] for e in data} == {
        e.id: game for game, eras in GAMES.items() for e in eras}
    ids = [e["id"] for e in data]
    assert len(ids) == len(set(ids))
    assert find_era("dm-old").id == "dm-pre-2021-09" and find_era("dm-new").id == "dm-2021-09"


def test_an_era_of_the_other_game_is_refused(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(board() + "expect:\n  m11: {players: {B: {shields: 5}}}\n")
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "unknown era 'm11' for duel-masters" in r.output
    path = str(scenarios_dir() / "dm-three-blockers-draw.yaml")
    r = runner.invoke(app, ["diff", path, "--era", "m11", "--era", "sixth", "--no-store"])
    assert r.exit_code == 2 and "is an era of duel-masters" in r.output
    r = runner.invoke(app, ["explore", path, "--no-store", "--era", "m11"])
    assert r.exit_code == 2 and "is an era of duel-masters" in r.output


def test_every_rule_cited_is_in_the_sources_or_marked_unverified():
    root = Path(__file__).resolve().parents[3] / "shared"
    if not root.exists():
        pytest.skip("shared/ is not beside the repo")
    text = (root / "reference" / "duel-masters-2021-09-07-official.txt").read_text() + "".join(
        p.read_text() for p in (root / "seeds").glob("004_*.txt"))
    for era in GAMES["duel-masters"]:
        for key, value in era.RULES.items():
            if key in era.unverified:
                continue
            number = value.split()[0]
            assert re.search(re.escape(number) + r"(?![0-9])", text), (era.id, key, value)


NINJA = """
id: t-ninja
title: The defender's shinobi, summoned as the attack comes, then blocks
game: duel-masters
players: [{name: A}, {name: B, mana: MANA}]
active: A
permanents:
  - {id: att, controller: A, power: 5000}
  - {id: shinobi, controller: B, power: 6000, zone: hand,
     keywords: [blocker, {ninja-strike: 3}]}
combat:
  attacks: {att: B}
  redirect: [shinobi]
  ninja: [shinobi]
"""


@pytest.mark.parametrize("era", DM_ERAS)
def test_the_defenders_ninja_strike_when_attacked_then_it_blocks(era):
    # 112.3c: usable when the opponent's creature attacks, with 3 or more cards in the mana
    # zone; summoned, the shinobi may then be chosen to block (507.1a).
    o = run(era, parse_text(NINJA.replace("MANA", "3")))
    assert o["permanents"]["shinobi"] == {**o["permanents"]["shinobi"],
                                          "zone": "battlefield", "tapped": True}
    assert o["permanents"]["att"]["zone"] == "graveyard" and o["players"]["B"]["shields"] == 5
    # With 2 cards in the mana zone it stays in the hand, and can't block from there.
    from versions.duel_masters.engine.attack import IllegalRedirect

    with pytest.raises(IllegalRedirect, match="not in the battle zone"):
        run(era, parse_text(NINJA.replace("MANA", "2")))


@pytest.mark.parametrize("era", DM_ERAS)
def test_ninja_left_out_tries_every_shinobi_and_an_empty_list_none(era):
    text = (scenarios_dir() / "dm-ninja-strike-when-a-creature-blocks.yaml").read_text()
    assert "  ninja: [shinobi]\n" in text
    written = run(era, parse_text(text))["permanents"]["shinobi"]["zone"]
    left_out = run(era, parse_text(text.replace("  ninja: [shinobi]\n", "")))
    assert left_out["permanents"]["shinobi"]["zone"] == written
    none = run(era, parse_text(text.replace("ninja: [shinobi]", "ninja: []")))
    assert none["permanents"]["shinobi"]["zone"] == "hand"
    assert written == ("battlefield" if era == "dm-pre-2021-09" else "hand")


TAPPER = """
id: t-dm-tapper
title: An attack trigger taps the would-be blocker
game: duel-masters
players: [{name: A}, {name: B, shields: 2}]
active: A
permanents:
  - {id: raider, controller: A, power: 5000,
     abilities: [{trigger: attacks, effect: tap, target: TARGET}]}
  - {id: wall, controller: B, power: 6000, keywords: [blocker]}
combat:
  attacks: {raider: B}
  redirect: [REDIRECT]
"""


@pytest.mark.parametrize("era", DM_ERAS)
def test_an_attack_trigger_that_taps_a_blocker_by_id(tmp_path, era):
    # The attack trigger resolves before the block step: wall is tapped, so it can't be
    # chosen (507.1a); unredirected, the attack breaks one of B's two shields.
    o = run(era, parse_text(TAPPER.replace("TARGET", "wall")
                                       .replace("REDIRECT", "")))
    assert o["permanents"]["wall"]["tapped"] is True
    assert o["players"]["B"] == {**o["players"]["B"], "shields": 1, "hand": 1}
    f = tmp_path / "s.yaml"
    f.write_text(TAPPER.replace("TARGET", "wall").replace("REDIRECT", "wall"))
    r = runner.invoke(app, ["run", str(f), "--era", era])
    assert r.exit_code == 2 and "combat.redirect[0]" in r.output and "tapped" in r.output
    f.write_text(TAPPER.replace("TARGET", "ghost").replace("REDIRECT", ""))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "permanents[0].abilities[0].target" in r.output


@pytest.mark.parametrize("era", DM_ERAS)
def test_a_guardman_may_take_an_unblockable_creatures_attack(era):
    # "Can't be blocked" stops blockers; a guardman's redirection is not a block
    # (docs/duel-masters.md, readings).
    o = run(era, parse_text(board(attacker="cant-be-blocked", x="guardman",
                                             attacked="target")))
    assert any(e["type"] == "redirect" and e["ability"] == "guardman" for e in o["events"])
    assert any(e["type"] == "battle" and e["target"] == "x" for e in o["events"])
    assert o["permanents"]["x"]["zone"] == "graveyard"  # 3000 against 5000


# -- several attacks, one after another (issue 24, point 8) ---------------------------------

ATTACKS = """
id: t-dm-attacks
title: Several attacks
game: duel-masters
players: [{{name: A}}, {{name: B, shields: {shields}}}]
active: A
permanents:
  - {{id: first, controller: A, power: 3000,
     abilities: [{{trigger: attacks-player-unblocked, effect: draw}}]}}
  - {{id: second, controller: A, power: 5000,
     abilities: [{{trigger: attacks-player-unblocked, effect: draw}}]}}
  - {{id: wall, controller: B, power: 2000, keywords: [blocker],
     abilities: [{{trigger: blocks, effect: draw}}]}}
combat:
  attacks: {{first: B, second: {second}}}
  redirect: {{first: [{redirect}]}}
"""


@pytest.mark.parametrize("era", DM_ERAS)
def test_an_attack_whose_target_is_gone_is_not_made(era):
    # first (3000) is blocked by the wall (2000) and destroys it; second's attack on the
    # wall can no longer be made.
    o = run(era, parse_text(ATTACKS.format(shields=5, second="wall", redirect="wall")))
    assert o["permanents"]["wall"]["zone"] == "graveyard"
    [no] = [e for e in o["events"] if e["type"] == "no-attack"]
    assert (no["source"], no["target"]) == ("second", "wall")
    assert no["reason"] == "wall is no longer in the battle zone"
    assert o["permanents"]["second"]["tapped"] is False  # it never attacked
    assert o["players"]["A"]["drawn"] == 0  # the first attack was blocked
    assert o["players"]["B"]["drawn"] == 1  # the wall's "when it blocks"


@pytest.mark.parametrize("era", DM_ERAS)
def test_an_attack_on_an_untapped_creature_waits_to_be_checked_and_is_not_made(era):
    # Nothing redirects the first attack, so the wall is still untapped when the second
    # would attack it.
    o = run(era, parse_text(ATTACKS.format(shields=5, second="wall", redirect="")))
    [no] = [e for e in o["events"] if e["type"] == "no-attack"]
    assert no["reason"] == "wall is untapped: only a tapped creature can be attacked"
    assert o["players"]["A"]["drawn"] == 1 and o["players"]["B"]["shields"] == 4


@pytest.mark.parametrize("era", DM_ERAS)
def test_sabotage_through_on_the_second_attack_wins_and_ends_the_attacks(era):
    o = run(era, parse_text(ATTACKS.format(shields=0, second="B", redirect="wall")))
    assert o["players"]["B"]["lost"] is True
    assert o["players"]["A"]["drawn"] == 1  # the second, unblocked on the player
    assert [e["type"] for e in o["events"]].count("wins") == 1


def test_a_list_of_redirections_with_several_attacks_is_exit_2(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(ATTACKS.format(shields=5, second="B", redirect="wall").replace(
        "redirect: {first: [wall]}", "redirect: [wall]"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "combat.redirect: with several attacks" in r.output, r.output
    f.write_text(ATTACKS.format(shields=5, second="B", redirect="wall").replace(
        "redirect: {first: [wall]}", "redirect: {third: [wall]}"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "combat.redirect.third: 'third' is not an attacker" in r.output


@pytest.mark.parametrize("era", DM_ERAS)
def test_a_later_attack_s_illegal_redirection_names_its_attacker(tmp_path, era):
    f = tmp_path / "s.yaml"
    f.write_text(ATTACKS.format(shields=5, second="B", redirect="wall").replace(
        "redirect: {first: [wall]}", "redirect: {first: [], second: [wall]}").replace(
        "power: 2000, keywords: [blocker]", "power: 2000, tapped: true, keywords: [blocker]"))
    r = runner.invoke(app, ["run", str(f), "--era", era])
    assert r.exit_code == 2 and "combat.redirect.second[0]" in r.output, r.output
    assert "it is tapped" in r.output
