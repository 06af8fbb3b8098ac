"""Declare blockers in full: restrictions, the 509.1c maximisation, costs, the `blocks`
command, and what blocking triggers."""

import json

import pytest
from eras import has
from helpers import life, perm, run, scenario
from typer.testing import CliRunner

from comparator.cli.main import app
from versions import ERA_IDS, find_era
from versions.mtg.engine.blocks import check_blocks, most_obeyed, requirements, written
from versions.mtg.engine.setup import new_board

ERAS = ERA_IDS


def game(text, era="m10"):
    return new_board(find_era(era)(), scenario(text))


def problems(text, era="m10"):
    g = game(text, era)
    return check_blocks(g, written(g.scenario.combat))


MENACE = """
id: t-menace
title: CR 509.1c example
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: brute, controller: A, power: 3, toughness: 2, keywords: [menace]}
  - {id: eager, controller: B, power: 1, toughness: 1, keywords: [must-block]}
  - {id: plain, controller: B, power: 1, toughness: 1}
combat:
  attacks: {brute: B}
  blocks: %s
"""


@pytest.mark.parametrize("era", ERAS)
def test_menace_and_a_creature_that_must_block(era):
    # "the player must block with both creatures"
    assert most_obeyed(game(MENACE % "{}", era))[0] == 1
    assert problems(MENACE % "{eager: brute, plain: brute}", era) == []
    [none] = problems(MENACE % "{}", era)
    assert none.rule == find_era(era).rule("block-requirement")
    assert "obey 0 of 1" in none.message
    assert "e.g. blocks: {eager: brute, plain: brute}" in none.message
    [alone] = problems(MENACE % "{eager: brute}", era)
    assert "menace" in alone.message  # breaks a restriction, whatever it obeys


def test_a_requirement_that_would_break_a_restriction_is_not_required():
    text = """
id: t-flier
title: The eager creature could only block a flier
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bird, controller: A, power: 1, toughness: 1, keywords: [flying]}
  - {id: eager, controller: B, power: 1, toughness: 1, keywords: [must-block]}
combat:
  attacks: {bird: B}
"""
    g = game(text)
    assert requirements(g) == []  # it is not able to block, so nothing is required
    assert check_blocks(g, written(g.scenario.combat)) == []


def test_two_lures_one_blocker_obeys_one():
    text = """
id: t-lures
title: Two lures, one creature able to block both
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: l1, controller: A, power: 1, toughness: 1, keywords: [lure]}
  - {id: l2, controller: A, power: 1, toughness: 1, keywords: [lure]}
  - {id: wall, controller: B, power: 0, toughness: 4}
combat:
  attacks: {l1: B, l2: B}
  blocks: %s
"""
    assert most_obeyed(game(text % "{}"))[0] == 1
    assert problems(text % "{wall: l2}") == []
    assert problems(text % "{}")[0].rule == "509.1c"


def test_no_one_is_required_to_pay_a_cost_to_obey():
    text = """
id: t-cost
title: A creature that must block but only by paying
players: [{name: A}, {name: B, mana: 3}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: eager, controller: B, power: 1, toughness: 1, keywords: [must-block], block-cost: 2}
combat:
  attacks: {giant: B}
  blocks: %s
"""
    assert problems(text % "{}") == []
    assert problems(text % "{eager: giant}") == []  # paying is allowed, just not required


def test_unpayable_cost_is_illegal():
    text = """
id: t-unpaid
title: A cost to block with no mana to pay it
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: cowed, controller: B, card: Hill Giant, block-cost: 1}
combat:
  attacks: {giant: B}
  blocks: {cowed: giant}
"""
    [p] = problems(text)
    assert p.rule == "509.1d" and "must pay 1 mana" in p.message


@pytest.mark.parametrize("era", ERAS)
def test_cost_paid_with_a_sacrificed_blocker(era):
    o = run(open_scenario("wild-cantor-pays-to-block"), era)
    assert o["players"]["B"]["life"] == 20
    assert perm(o, "cantor")["zone"] == "graveyard"
    assert [e["type"] for e in o["events"]][:5] == [
        "block-cost", "activate", "sacrifice", "add-mana", "pay"]
    blocks = [e["source"] for e in o["events"] if e["type"] == "block"]
    assert blocks == ["giant"]  # the Cantor never became a blocking creature


def open_scenario(name):
    from comparator.files.locations import find_scenario

    return find_scenario(name).read_text()


@pytest.mark.parametrize(("keyword", "blocker", "legal"), [
    ("flying", "{power: 1, toughness: 1}", False),
    ("flying", "{power: 1, toughness: 1, keywords: [reach]}", True),
    ("fear", "{power: 1, toughness: 1, colors: [white]}", False),
    ("fear", "{power: 1, toughness: 1, types: [artifact, creature]}", True),
    ("fear", "{power: 1, toughness: 1, colors: [black]}", True),
    ("shadow", "{power: 1, toughness: 1}", False),
    ("unblockable", "{power: 1, toughness: 1}", False),
    ("{protection: green}", "{power: 1, toughness: 1, colors: [green]}", False),
    ("{protection: green}", "{power: 1, toughness: 1, colors: [red]}", True),
])
def test_restrictions_m10(keyword, blocker, legal):
    text = f"""
id: t-restriction
title: A restriction
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: attacker, controller: A, power: 2, toughness: 2, keywords: [{keyword}]}}
  - {{id: blocker, controller: B, {blocker[1:-1]}}}
combat:
  attacks: {{attacker: B}}
  blocks: {{blocker: attacker}}
"""
    found = problems(text)
    assert (found == []) is legal, found
    if not legal:
        assert found[0].rule == "509.1b"


def test_blocker_shadow_cannot_block_non_shadow_sixth():
    text = """
id: t-shadow
title: Shadow blocker
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bears, controller: A, card: Grizzly Bears}
  - {id: soldier, controller: B, card: Soltari Foot Soldier}
combat:
  attacks: {bears: B}
  blocks: {soldier: bears}
"""
    [p] = problems(text, "sixth")
    assert p.rule == "500.3" and "shadow" in p.message


def test_blocks_command_lists_and_marks_maximal(tmp_path):
    f = tmp_path / "m.yaml"
    f.write_text(MENACE % "{eager: brute, plain: brute}")
    out = CliRunner().invoke(app, ["blocks", str(f), "--json"])
    doc = json.loads(out.output)
    assert doc["count"] == 2 and doc["maximal"] == 1 and doc["most_obeyed"] == 1
    marked = [d for d in doc["declarations"] if d["maximal"]]
    assert marked[0]["blocks"] == {"eager": ["brute"], "plain": ["brute"]}
    text = CliRunner().invoke(app, ["blocks", str(f), "--era", "sixth"]).output
    assert "* {eager: brute, plain: brute}  obeys 1" in text and "(500.4)" in text


def test_blocks_command_samples_large_counts(tmp_path):
    attackers = "\n".join(f"  - {{id: a{i}, controller: A, power: 1, toughness: 1}}"
                          for i in range(5))
    blockers = "\n".join(f"  - {{id: b{i}, controller: B, power: 1, toughness: 1}}"
                         for i in range(5))
    f = tmp_path / "big.yaml"
    f.write_text(f"""
id: t-big
title: Five against five
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
{attackers}
{blockers}
combat:
  attacks: {{{", ".join(f"a{i}: B" for i in range(5))}}}
""")
    doc = json.loads(CliRunner().invoke(app, ["blocks", str(f), "--json"]).output)
    assert doc["count"] == 6 ** 5 and doc["sample"] is True
    assert len(doc["declarations"]) == 25


@pytest.mark.parametrize("era", ERAS)
def test_enter_blocking_never_blocks_for_triggers(era):
    o = run("""
id: t-foliage
title: A token put onto the battlefield blocking
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tiger, controller: A, card: Cave Tiger}
  - {id: warrior, controller: A, card: Norwood Warrior}
combat:
  attacks: {tiger: B, warrior: B}
actions:
  - {at: declare-blockers, by: B, effect: enter-blocking, id: sap, controller: B,
     power: 1, toughness: 1, attacker: tiger, card: Flash Foliage}
  - {at: declare-blockers, by: B, effect: enter-blocking, id: sap2, controller: B,
     power: 0, toughness: 1, attacker: warrior, card: Flash Foliage,
     }
""", era)
    # 509.5d: "becomes blocked by a creature" triggers for a creature put onto the
    # battlefield blocking; 509.5c: "becomes blocked" too, the attacker being unblocked.
    # M10's text read the first as "whenever a creature blocks", which a creature put onto
    # the battlefield blocking never did (509.4d, 509.7 of 2009-07-08).
    tiger = 2 if era == "m10" else 3
    assert perm(o, "tiger")["power"] == tiger and perm(o, "warrior")["power"] == 3
    assert life(o, "B") == 20
    assert perm(o, "sap")["zone"] == "gone"


@pytest.mark.parametrize("era", [e for e in ERAS if not has(e, "trample-redirects")])
def test_become_blocked_no_damage_unless_trample(era):
    o = run(open_scenario("curtain-of-light"), era)
    assert life(o, "B") == 14
    kinds = [(e["type"], e.get("condition")) for e in o["events"] if e["type"] == "trigger"]
    assert ("trigger", "becomes-blocked") in kinds
    assert ("trigger", "becomes-blocked-by-creature") not in kinds


def test_blocks_of_a_scenario_the_era_refuses_is_one_line_not_a_traceback():
    from typer.testing import CliRunner

    from comparator.cli.main import app

    result = CliRunner().invoke(app, ["blocks", "battle-attacked-defense-counters", "--era",
                                      "fifth"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "fifth can't run this scenario: siege is a battle" in result.output


def test_blocks_checked_on_one_board_read_under_each_era():
    """`blocks_refused` builds the board as combat begins once and reads it under each
    era: the same as a board built for that era, and the same problems found."""
    from dataclasses import fields

    from comparator.files.locations import shipped_scenarios
    from comparator.games.mtg.blocks import blocks_refused
    from comparator.games.mtg.generate import scenario_document
    from comparator.games.mtg.loading import parse
    from comparator.scenarios.loader import load
    from versions import NotInEra
    from versions.mtg.play import refuse

    scenarios = [s for s in (load(f) for f in shipped_scenarios()) if s.game == "mtg"]
    for i in range(150):
        doc = scenario_document(8, i)
        scenarios.append(parse(json.dumps(doc), "x", doc))
    refusals = 0
    for s in scenarios:
        shared, each = None, []
        for era in ERA_IDS:
            rules = find_era(era)()
            try:
                refuse(rules, s)
            except NotInEra:
                continue
            own = new_board(rules, s)
            shared = own if shared is None else shared
            read = shared.under(rules)
            for f in fields(own):
                if f.name not in ("log",):
                    assert getattr(read, f.name) == getattr(own, f.name), (s.id, era, f.name)
            found = check_blocks(own, written(s.combat))
            assert check_blocks(read, written(s.combat)) == found, (s.id, era)
            each += [era] if found else []
        refused = blocks_refused(s, list(ERA_IDS))
        assert [r.era for r in refused or []] == each, s.id
        refusals += bool(each)
    assert refusals  # some scenario's blocks are refused by some era


def test_a_declaration_is_legal_in_every_era_or_in_none():
    """`check_blocks` reads the era only to cite its rules, which lets `blocks_refused`
    stop at the first era that allows the written blocks: on the same board, every era
    finds the same problems (by place and words) in any declaration, legal or not."""
    import random

    from comparator.files.locations import shipped_scenarios
    from comparator.games.mtg.generate import scenario_document
    from comparator.games.mtg.loading import parse
    from comparator.scenarios.loader import load
    from versions import NotInEra
    from versions.mtg.engine.blockers import potential_blockers
    from versions.mtg.play import refuse

    rng = random.Random(25)
    scenarios = [s for s in (load(f) for f in shipped_scenarios()) if s.game == "mtg"]
    for i in range(150):
        doc = scenario_document(9, i)
        scenarios.append(parse(json.dumps(doc), "x", doc))
    compared = illegal = 0
    for s in scenarios:
        eras = []
        for era in ERA_IDS:
            try:
                refuse(find_era(era)(), s)
            except NotInEra:
                continue
            eras.append(find_era(era)())
        if len(eras) < 2:
            continue
        board = new_board(eras[0], s)
        attackers = list(board.attacks)
        declarations = [written(s.combat)]
        for _ in range(4):  # any blocker on any attacker: restrictions broken too
            declarations.append({b: tuple(rng.sample(attackers, 1)) for b in
                                 potential_blockers(board) if attackers and rng.random() < .6})
        for decl in declarations:
            found = {era.id: [(p.path, p.message) for p in check_blocks(board.under(era), decl)]
                     for era in eras}
            assert len({json.dumps(f) for f in found.values()}) == 1, (s.id, decl, found)
            compared += 1
            illegal += bool(found[eras[0].id])
    assert compared > 500 and illegal > 100
