"""The era before Sixth Edition (versions/mtg/eras/fifth.py), worked by hand from the Fifth Edition
General Rulings Summary (1999): what may be played when, the damage prevention step,
triggers that are not responded to, and the refusal of what came later. The worked
examples of the sources are shipped scenarios (data/scenarios/fifth-*.yaml)."""

import json

from helpers import dealt, life, notes, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

TRAMPLE_SHIELDED = """
id: t-fifth-prevention
title: Trample over a blocker whose damage is prevented in the prevention step
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tramp, controller: A, power: 4, toughness: 4, keywords: [trample]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {tramp: B}
  blocks: {bear: tramp}
actions:
  - {at: damage-prevention, by: B, effect: prevent, target: bear, amount: 2}
"""


def test_prevention_in_the_prevention_step_and_trample_by_toughness():
    # A.27.Ruling.5: lethal is the toughness (2), whatever will be prevented; the 2
    # assigned to the bear are then prevented in the damage prevention step (T.10.1).
    o = run(TRAMPLE_SHIELDED, "fifth")
    assert dealt(o, "tramp", "B") == [2] and life(o, "B") == 18
    assert perm(o, "bear") == {**perm(o, "bear"), "zone": "battlefield", "damage": 0}
    assert not notes(o, "action-not-allowed")


def test_prevention_before_damage_and_where_nothing_is_dealt_is_not_allowed():
    early = run(TRAMPLE_SHIELDED.replace("damage-prevention", "declare-blockers"), "fifth")
    [refused] = notes(early, "action-not-allowed")
    assert refused["rule"] == "G.12.1" and perm(early, "bear")["zone"] == "graveyard"
    # In the step, but to a creature no damage is being dealt to (G.12.2).
    nothing = run(TRAMPLE_SHIELDED.replace("target: bear, amount: 2",
                                           "target: tramp, amount: 2").replace(
        "power: 4, toughness: 4", "power: 4, toughness: 9").replace(
        "card: Grizzly Bears", "power: 0, toughness: 2"), "fifth")
    [refused] = notes(nothing, "action-not-allowed")
    assert refused["rule"] == "G.12.2"


def test_windows_after_damage_dealing_do_not_exist():
    # C.7.Ruling.1: nothing but prevention and regeneration from damage dealing to the end
    # of combat; a pump written for after combat damage is skipped, citing it.
    o = run("""
id: t-fifth-late
title: A pump after combat damage
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
combat:
  attacks: {bear: B}
actions:
  - {at: combat-damage, by: A, effect: pump, target: bear, power: 3, toughness: 3}
""", "fifth")
    assert life(o, "B") == 18 and perm(o, "bear")["power"] == 2
    [skipped] = notes(o, "missing-window")
    assert skipped["rule"] == "C.7.Ruling.1"


FLANKER = """
id: t-fifth-trigger
title: A pump with flanking's trigger waiting, or already resolved
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [flanking]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {knight: B}
  blocks: {bear: knight}
actions:
  - {at: declare-blockers, by: B, effect: pump, target: bear, power: 3, toughness: 3}
"""


def test_triggered_abilities_resolve_before_anyone_acts():
    def order(era):
        kinds = [e["type"] for e in run(FLANKER, era)["events"]]
        return kinds.index("resolve") < kinds.index("pump")
    # T.9: the flanking trigger is played as a Series and resolves first; from Sixth on it
    # waits on the stack while players act (the pump resolves before it).
    assert order("fifth") is True
    assert order("sixth") is False


def test_a_creature_killed_by_first_strike_deals_no_damage():
    # C.8.Ruling.1: killed in the first damage prevention step, it is not there to deal damage.
    o = run("""
id: t-fifth-first-strike
title: A first striker kills its blocker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [first-strike]}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {knight: B}
  blocks: {bear: knight}
""", "fifth")
    assert perm(o, "bear")["zone"] == "graveyard"
    assert perm(o, "knight") == {**perm(o, "knight"), "zone": "battlefield", "damage": 0}
    steps = [e["step"] for e in o["events"] if e["type"] == "damage"]
    assert steps == ["first-strike-damage"]


def test_what_came_later_is_refused_naming_the_year(tmp_path):
    f = tmp_path / "dt.yaml"
    f.write_text("""
id: t-fifth-deathtouch
title: A deathtouch blocker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
  - {id: snake, controller: B, power: 1, toughness: 1, keywords: [deathtouch]}
combat:
  attacks: {bear: B}
  blocks: {snake: bear}
""")
    alone = runner.invoke(app, ["run", str(f), "--era", "fifth"])
    assert alone.exit_code == 2
    assert "fifth can't run this scenario: snake has deathtouch" in alone.output
    assert "2007 (Future Sight)" in alone.output
    diff = runner.invoke(app, ["diff", str(f), "--json", "--no-store"])
    doc = json.loads(diff.stdout)  # the contract's keys exactly; the refusal on stderr
    assert "fifth" not in doc["eras"] and "refused" not in doc
    assert "fifth can't run" in diff.stderr and "deathtouch" in diff.stderr
    shown = runner.invoke(app, ["diff", str(f), "--no-store"]).output
    assert "fifth: not run: snake has deathtouch" in shown
    assert runner.invoke(app, ["validate", str(f)]).exit_code == 0
    explored = runner.invoke(app, ["explore", str(f), "--json", "--no-store"])
    doc = json.loads(explored.stdout)
    assert "fifth" not in doc["eras"] and "refused" not in doc
    assert "fifth can't run" in explored.stderr
    built = json.loads(runner.invoke(app, ["dataset", "build", str(f), "--json", "--db",
                                           str(tmp_path / "d.db")]).output)
    assert built["refused"] == {"alpha": 1, "fourth": 1, "fifth": 1} and built["runs"] == 4


def test_planeswalkers_and_battles_came_later(tmp_path):
    walker = """
id: t-fifth-walker
title: A planeswalker attacked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
  - {id: walker, controller: B, types: [planeswalker], loyalty: 3}
combat:
  attacks: {bear: walker}
"""
    f = tmp_path / "w.yaml"
    f.write_text(walker)
    result = runner.invoke(app, ["run", str(f), "--era", "pre-sixth"])
    assert result.exit_code == 2 and "planeswalkers arrived in 2007 (Lorwyn)" in result.output
