"""Contract v1.1 additions to how a scenario is written: `expect.after` (the state as a
window ends), `trigger-order`, a double striker's `{first, second}` division, Ajani's
Pridemate's "whenever you gain life", and a pump `for-each: blocker`."""

import json
from pathlib import Path

from helpers import perm, run
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir

runner = CliRunner()
ORDERED = (scenarios_dir() / "trigger-order-pump-before-the-blockers-die.yaml").read_text()
SPLIT = (scenarios_dir() / "double-striker-divides-each-step.yaml").read_text()


def test_without_a_trigger_order_the_triggers_go_on_the_stack_as_they_triggered():
    # The pump triggered first, so it goes on the stack first and resolves last: both
    # blockers are destroyed by then and it counts none.
    plain = ORDERED.replace(
        "trigger-order: [elephant becomes-blocked-by-creature, elephant becomes-blocked]", "")
    for era in ("fifth", "sixth", "m11"):
        assert (perm(run(plain, era), "elephant")["power"],
                perm(run(ORDERED, era), "elephant")["power"]) == (3, 7)


def test_a_trigger_order_may_name_a_card():
    text = """
id: t-order-by-card
title: Two Pridemates
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: p1, controller: A, card: Ajani's Pridemate}
  - {id: p2, controller: A, card: Ajani's Pridemate}
  - {id: bears, controller: A, card: Grizzly Bears}
combat:
  attacks: {bears: B}
actions:
  - {at: declare-blockers, by: A, effect: gain-life, target: A, amount: 1}
trigger-order: [p2, Ajani's Pridemate]
"""
    o = run(text, "m11")
    pushed = [e["source"] for e in o["events"] if e["type"] == "trigger"]
    assert pushed == ["p2", "p1"]
    assert perm(o, "p1")["counters"] == perm(o, "p2")["counters"] == {"+1/+1": 1}


def test_the_state_after_a_window_is_in_the_outcome_only_when_expected(tmp_path):
    f = tmp_path / "split.yaml"
    f.write_text(SPLIT)
    out = json.loads(runner.invoke(app, ["run", str(f), "--era", "m11", "--json"]).output)
    assert set(out["after"]) == {"first-strike-damage"}
    assert out["after"]["first-strike-damage"]["permanents"]["bears2"]["damage"] == 1
    f.write_text(SPLIT[:SPLIT.index("expect:")])
    out = json.loads(runner.invoke(app, ["run", str(f), "--era", "m11", "--json"]).output)
    assert "after" not in out


def test_verify_checks_the_state_after_a_window(tmp_path):
    f = tmp_path / "split.yaml"
    f.write_text(SPLIT.replace("bears2: {zone: battlefield, damage: 1}",
                               "bears2: {zone: battlefield, damage: 2}"))
    r = runner.invoke(app, ["verify", str(f)])
    assert r.exit_code == 1
    assert "after.first-strike-damage.permanents.bears2.damage: expected 2, got 1" in r.output
    # A window the combat never reaches (the game ended before it) is a mismatch too.
    f.write_text("""
id: t-never
title: The defender dies to first strike
players: [{name: A}, {name: B, life: 2}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [first-strike]}
combat:
  attacks: {knight: B}
expect:
  m11: {after: {combat-damage: {players: {B: {life: 0}}}}}
""")
    r = runner.invoke(app, ["verify", str(f)])
    assert r.exit_code == 1 and "no such point in this combat" in r.output


def test_a_split_division_is_for_double_strikers_and_names_what_it_fights(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(SPLIT.replace("keywords: [double-strike]", "keywords: [first-strike]"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "double strike" in r.output
    f.write_text(SPLIT.replace("second: {bears2: 3}", "second: {bears9: 3}"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "combat.assign.knight.second.bears9" in r.output


def test_for_each_is_only_for_pump(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(ORDERED.replace("effect: destroy, target: that-creature",
                                 "effect: destroy, target: that-creature, for-each: blocker"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "for-each" in r.output


def test_shipped_scenarios_use_the_additions():
    texts = [p.read_text() for p in Path(scenarios_dir()).glob("*.yaml")]
    for word in ("after:", "trigger-order:", "first:", "for-each:", "Ajani's Pridemate",
                 "lose-keyword", "lose-life", "prevent-all-combat-damage", "kind: -1/-1",
                 "infect", "wither", "protection: [", "from:", "source:"):
        assert any(word in t for t in texts), word


BATTLE = (scenarios_dir() / "battle-attacked-defense-counters.yaml").read_text()


def test_battles_are_checked_and_refused_before_foundations(tmp_path):
    from helpers import scenario

    from versions import find_era

    s = scenario(BATTLE)
    for era in ("fifth", "sixth", "m10", "m11"):
        assert "battle" in find_era(era)().refusal(s)
    assert find_era("foundations")().refusal(s) is None
    f = tmp_path / "b.yaml"
    for change, why in (("defense: 5", "a battle needs defense"),
                        ("defense: 5, protector: A", "protector can never attack it"),
                        ("defense: 5, protector: Z", "'Z' is not one of the players")):
        f.write_text(BATTLE.replace("defense: 5}", change.replace("defense: 5", "defense: 5")
                                    + "}" if "protector" in change else "}"))
        r = runner.invoke(app, ["validate", str(f)])
        assert r.exit_code == 2 and why in r.output, (change, r.output)


def test_the_protector_blocks_for_a_battle_and_its_defense_is_in_the_outcome():
    o = run(BATTLE, "foundations")
    assert o["permanents"]["siege"] == {**o["permanents"]["siege"], "zone": "graveyard"}
    assert [e["amount"] for e in o["events"] if e["type"] == "defense-removed"] == [3, 2]


THORN = (scenarios_dir() / "thorn-elemental-assigns-as-though-unblocked.yaml").read_text()


def test_assign_as_unblocked_is_an_option_not_the_default():
    plain = THORN.replace("  assign: {thorn: {B: 7}}\n", "")
    for era in ("fifth", "sixth", "m10", "m11", "foundations"):
        o = run(plain, era)  # the default assigns to the blocker, as any blocked creature
        assert o["permanents"]["wurm"]["zone"] == "graveyard"
        assert o["players"]["B"]["life"] == 20


def test_most_kills_takes_the_option_only_when_nothing_dies_otherwise():
    tough = THORN.replace("card: Craw Wurm", "power: 1, toughness: 9").replace(
        "assign: {thorn: {B: 7}}", "assign: {thorn: most-kills}")
    o = run(tough, "m11")  # 7 can't kill a 9-toughness blocker: all 7 to the player
    assert o["players"]["B"]["life"] == 13
    o = run(THORN.replace("assign: {thorn: {B: 7}}", "assign: {thorn: most-kills}"), "m11")
    assert o["permanents"]["wurm"]["zone"] == "graveyard" and o["players"]["B"]["life"] == 20


def test_with_its_blocker_gone_it_may_still_assign_to_the_player():
    gone = THORN + """actions:
  - {at: declare-blockers, by: B, effect: bounce, target: wurm}
"""
    for era in ("sixth", "m11", "foundations"):
        assert run(gone, era)["players"]["B"]["life"] == 13
        # Without the option a blocked creature with no blockers assigns nothing.
        plain = gone.replace("  assign: {thorn: {B: 7}}\n", "")
        assert run(plain, era)["players"]["B"]["life"] == 20
