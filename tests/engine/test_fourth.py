"""The era before Urza's Saga (versions/mtg/eras/fourth.py): trample as damage redirection,
worked by hand from D'Angelo's note on the change (A.27.Note), the Fourth Edition FAQ and the
Fifth Edition rulebook's "Damage Prevention"; everything else as fifth."""

import json

import pytest
from helpers import dealt, life, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app
from versions import NotInEra, era_on, find_era

TRAMPLER = """
id: t-fourth
title: A trampler and its blockers
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tramp, controller: A, power: 5, toughness: 5, keywords: [trample], colors: [green]}
  - {id: bear, controller: B, power: 2, toughness: 2%s}
  - {id: wall, controller: B, power: 0, toughness: 3}
combat:
  attacks: {tramp: B}
  blocks: {bear: tramp, wall: tramp}
%s
"""


def test_all_on_one_blocker_redirects_what_is_beyond_lethal():
    o = run(TRAMPLER % ("", "  assign: {tramp: {bear: 5}}"), "fourth")
    # 5 on the 2/2: 2 lethal, 3 redirected to B (no longer combat damage, C.1.8); the
    # Wall is dealt nothing.
    assert dealt(o, "tramp", "bear") == [2] and dealt(o, "tramp", "B") == []
    assert [e["amount"] for e in o["events"] if e["type"] == "damage"
            and e["source"] == "tramp" and e["target"] == "B"] == [3]
    assert life(o, "B") == 17 and perm(o, "wall")["damage"] == 0
    redirect = [e for e in o["events"] if e["type"] == "trample-redirect"]
    assert redirect == [{**redirect[0], "source": "tramp", "target": "bear", "to": "B",
                         "amount": 3, "rule": "A.27.Note"}]
    # After Urza's Saga the same division is legal and sends nothing past (A.27.Ruling.2).
    assert life(run(TRAMPLER % ("", "  assign: {tramp: {bear: 5}}"), "fifth"), "B") == 20


def test_the_attacker_cannot_assign_to_the_player_directly():
    # {bear: 2, wall: 3... } with 0 to B is fine; one that names B is not something a
    # blocked trampler assigns to before Urza's Saga: the default is used and says why.
    o = run(TRAMPLER % ("", "  assign: {tramp: {bear: 2, wall: 2, B: 1}}"), "fourth")
    assert [n["text"] for n in o["notes"] if n["type"] == "illegal-assignment"] == [
        "B is not something tramp can assign damage to now"]
    # The default: lethal 2 and 3, nothing left over: nothing is redirected.
    assert dealt(o, "tramp", "bear") == [2] and dealt(o, "tramp", "wall") == [3]
    assert life(o, "B") == 20


def test_protection_stops_trample_and_most_kills_goes_around_it():
    pro = ", colors: [white], keywords: [{protection: green}]"
    o = run(TRAMPLER % (pro, "  assign: {tramp: {bear: 5}}"), "fourth")
    assert dealt(o, "tramp", "B") == [] and life(o, "B") == 20  # all 5 prevented
    assert perm(o, "bear")["zone"] == "battlefield"
    # most-kills: the Wall is the only one it can kill (3 of 5), and the other 2 are best
    # beyond the Wall's lethal damage, redirected, rather than prevented on the Bear.
    o = run(TRAMPLER % (pro, "  assign: {tramp: most-kills}"), "fourth")
    assert perm(o, "wall")["zone"] == "graveyard"


def test_a_trampler_left_without_blockers_is_refused_not_guessed():
    text = TRAMPLER % ("", "") + """actions:
  - {at: declare-blockers, by: A, effect: bounce, target: bear}
  - {at: declare-blockers, by: A, effect: bounce, target: wall}
"""
    with pytest.raises(NotInEra, match="no text of the Fourth and Fifth Edition rules says"):
        run(text, "fourth")
    assert life(run(text, "fifth"), "B") == 15  # A.27.Ruling.6


def test_two_sources_on_a_trampler_blocker_are_refused():
    text = """
id: t-two
title: Two attackers on one blocker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: tramp, controller: A, power: 4, toughness: 4, keywords: [trample]}
  - {id: wall, controller: B, power: 0, toughness: 4, keywords: [can-block-additional]}
combat:
  attacks: {ogre: B, tramp: B}
  blocks: {wall: [ogre, tramp]}
"""
    with pytest.raises(NotInEra, match="which damage trample redirects"):
        run(text, "fourth")


def test_the_era_is_listed_with_its_dates_and_found_by_date():
    out = CliRunner().invoke(app, ["eras", "--json"])
    eras = json.loads(out.output)
    eras = eras["eras"] if isinstance(eras, dict) else eras
    fourth = next(e for e in eras if e["id"] == "fourth")
    assert (fourth["began"], fourth["ended"]) == ("1994-01-01", "1998-10-17")
    assert any("Fourth Edition FAQ" in s for s in fourth["sources"])
    assert era_on("1997-06-01", "mtg").id == "fourth" and era_on("1998-10-18", "mtg").id == "fifth"
    assert find_era("pre-urza").id == "fourth"
    assert issubclass(find_era("fifth"), find_era("fourth"))


REDIRECTED = """
id: t-redirected
title: Redirected trample damage
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: mammoth, controller: A, power: 3, toughness: 3, keywords: [trample],
     abilities: [{trigger: deals-combat-damage-to-player, effect: gain-life,
                  target: controller, amount: 5}]}
  - {id: goblin, controller: B, power: 1, toughness: 1}
combat:
  attacks: {mammoth: B}
  blocks: {goblin: mammoth}
%s
"""


def test_redirected_damage_is_no_longer_combat_damage():
    # C.1.8: "Once damage is redirected, it stops being 'combat damage'": the Mammoth's
    # combat damage trigger does not fire on the 2 that reach B.
    o = run(REDIRECTED % "", "fourth")
    assert life(o, "B") == 18 and life(o, "A") == 20
    (to_b,) = [e for e in o["events"] if e["type"] == "damage" and e["target"] == "B"]
    assert to_b["combat"] is False
    steps = [e for e in o["events"] if e["type"] == "damage-prevention-step"]
    assert len(steps) == 2  # T.10.11: the redirected damage gets a step of its own
    assert life(run(REDIRECTED % "", "fifth"), "A") == 25  # assigned: combat damage


def test_the_first_step_ends_before_the_redirected_damage_gets_its_own():
    # T.10.11: damage redirected at step 3 "is collected and handled in a new Damage
    # Prevention step which immediately follows step 6" - after step 5 destroyed the
    # creatures with lethal damage (the Goblin) in the step that dealt it.
    o = run(REDIRECTED % "", "fourth")
    order = [(e["type"], e.get("target")) for e in o["events"]
             if e["type"] in ("destroy", "damage-prevention-step")
             or (e["type"] == "damage" and e["target"] == "B")]
    assert order == [("damage-prevention-step", None), ("destroy", "goblin"),
                     ("damage-prevention-step", None), ("damage", "B")]
    destroyed = next(e for e in o["events"] if e["type"] == "destroy")
    assert destroyed["step"] != "damage-prevention"  # logged in the step that dealt it


def test_the_redirected_damage_can_be_prevented_in_its_own_step():
    from helpers import scenario

    from comparator.explore.eras import explore

    text = REDIRECTED % """actions:
  - {at: damage-prevention, by: B, effect: prevent, target: B, amount: 2}"""
    doc = explore(scenario(text), ["fourth"])
    value = doc["eras"]["fourth"]["value"]
    assert value["state"]["players"]["B"]["life"] == 20
    assert [d["kind"] for d in value["line"] if d["kind"] == "act"] == ["act"]


def test_an_explored_line_the_era_cannot_settle_is_left_out_and_said():
    from helpers import scenario

    from comparator.explore.eras import explore

    text = TRAMPLER % ("", "") + """actions:
  - {at: declare-blockers, by: B, effect: bounce, target: bear}
  - {at: declare-blockers, by: B, effect: bounce, target: wall}
"""
    doc = explore(scenario(text), ["fourth"])
    era = doc["eras"]["fourth"]
    (note,) = [n for n in era["notes"] if n["type"] == "lines-refused"]
    assert "no text of the Fourth and Fifth Edition rules says" in note["text"]
    assert note["positions"] >= 1
    assert era["lines"] >= 1  # the lines that keep a blocker are still explored
