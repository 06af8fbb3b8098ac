"""Counters of every kind, poison, wither, infect, loss of life and of keywords (issue 12),
worked by hand from each era's text: 702.77/702.80 (wither), 702.90 (infect), 704.5c and
E.11.2 (ten poison counters), 420.5n/704.5r/704.5q (+1/+1 and -1/-1 counters cancel)."""

import json

import pytest
from eras import CR_ERAS, ERAS
from helpers import life, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

POISON_BEFORE_DAMAGE = """
id: t-poison
title: A tenth poison counter during declare blockers
players: [{name: A}, {name: B, poison: 9}]
active: A
permanents:
  - {id: bears, controller: A, card: Grizzly Bears}
combat:
  attacks: {bears: B}
actions:
  - {at: declare-blockers, by: A, effect: counters, kind: poison, target: B, amount: 1}
"""


def counted(o: dict, player: str) -> dict:
    """A player's life, loss and poison (the outcome also lists their graveyard and hand)."""
    return {k: o["players"][player][k] for k in ("life", "lost", "poison")}


@pytest.mark.parametrize("era", [e for e in ERAS if e != "alpha"])  # poison: Legends, 1994
def test_ten_poison_counters_lose_at_once_in_every_era(era):
    # Fifth waits for the end of the attack only for life (G.22.3); poison loses "at any
    # time" (E.11.2). Later eras: a state-based action (420.5h; 704.5c). So the Bears never
    # deal their damage.
    o = run(POISON_BEFORE_DAMAGE, era)
    assert counted(o, "B") == {"life": 20, "lost": True, "poison": 10}
    assert not [e for e in o["events"] if e["type"] == "damage"]


KEYWORD_ORDER = """
id: t-keyword-order
title: Flying lost and granted, in either order
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bird, controller: A, power: 1, toughness: 1, keywords: [flying]}
  - {id: bears, controller: B, card: Grizzly Bears}
combat:
  attacks: {bird: B}
actions:
  - {at: declare-blockers, by: B, effect: lose-keyword, target: bird, keyword: flying}
  - {at: declare-blockers, by: A, effect: grant, target: bird, keyword: flying}
  - {at: declare-blockers, by: B, effect: lose-keyword, target: bird, keyword: trample}
"""


def test_a_keyword_granted_after_it_was_lost_is_kept_and_one_lost_after_is_gone():
    from helpers import scenario

    from versions import find_era
    from versions.mtg.play import combat

    combat = combat(find_era("m11")(), scenario(KEYWORD_ORDER))
    bird = combat.board.perm("bird")
    bird.losses.append(("flying", 0))
    assert not bird.has("flying") and bird.keywords == []
    bird.granted.append(bird.base_keywords[0])
    assert bird.has("flying") and [k.name for k in bird.keywords] == ["flying"]
    bird.losses.append(("flying", 1))
    assert not bird.has("flying")


@pytest.mark.parametrize("era", CR_ERAS)
def test_wither_damage_is_counters_and_lethal_damage_counts_them(era):
    text = """
id: t-wither
title: A 3/3 wither attacker double-blocked
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: witherer, controller: A, power: 3, toughness: 3, keywords: [wither]}
  - {id: bears, controller: B, card: Grizzly Bears}
  - {id: wall, controller: B, power: 0, toughness: 4}
combat:
  attacks: {witherer: B}
  blocks: {bears: witherer, wall: witherer}
  order: {witherer: [bears, wall]}
"""
    # Default division: 2 (lethal) to the bears, 1 to the wall, as counters.
    o = run(text, era)
    assert perm(o, "bears")["zone"] == "graveyard"
    assert perm(o, "wall") == {**perm(o, "wall"), "damage": 0, "toughness": 3,
                                "counters": {"-1/-1": 1}}
    assert perm(o, "witherer")["damage"] == 2


def test_infect_source_of_a_spell_gives_poison_and_lifelink_gains():
    text = """
id: t-infect-spell
title: A spell has an infect, lifelink creature deal damage to a player
players: [{name: A, life: 5}, {name: B}]
active: A
permanents:
  - {id: bears, controller: A, card: Grizzly Bears}
  - {id: leech, controller: A, power: 1, toughness: 1, keywords: [infect, lifelink]}
combat:
  attacks: {bears: B}
actions:
  - {at: declare-blockers, by: A, effect: damage, source: leech, target: B, amount: 3}
"""
    for era in ("m11", "foundations"):
        o = run(text, era)
        assert counted(o, "B") == {"life": 18, "lost": False, "poison": 3}
        assert life(o, "A") == 8


def test_counters_shapes_and_fields_are_checked(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(POISON_BEFORE_DAMAGE.replace("target: B", "target: bears"))
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "actions[0].target" in r.output and "poison" in r.output
    bad.write_text(POISON_BEFORE_DAMAGE.replace("effect: counters, kind: poison",
                                                "effect: pump, power: 1, toughness: 1, "
                                                "kind: poison"))
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "kind" in r.output
    bad.write_text(POISON_BEFORE_DAMAGE.replace(
        "effect: counters, kind: poison, target: B, amount: 1",
        "effect: gain-life, source: bears, target: B, amount: 1"))
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "source" in r.output
    bad.write_text(POISON_BEFORE_DAMAGE + "expect:\n  m11: {permanents: {bears: "
                   "{counters: 3}}}\n")
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "expect.m11.permanents.bears.counters" in r.output


def test_verify_reads_absent_poison_and_counters_as_none(tmp_path):
    f = tmp_path / "zero.yaml"
    f.write_text("""
id: t-zero
title: Nothing poisoned, no counters
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: bears, controller: A, card: Grizzly Bears}
combat:
  attacks: {bears: B}
expect:
  m11: {players: {B: {poison: 0, life: 18}}, permanents: {bears: {counters: {}}}}
  foundations: {players: {B: {poison: 1}}}
""")
    r = runner.invoke(app, ["verify", str(f), "--json"])
    assert r.exit_code == 1
    mismatches = json.loads(r.output)["mismatches"]
    assert [(m["era"], m["field"]) for m in mismatches] == [("foundations", "players.B.poison")]


@pytest.mark.parametrize("era,refused", [("fifth", True), ("sixth", True), ("m10", True),
                                         ("m11", False), ("foundations", False)])
def test_infect_is_refused_before_the_era_that_had_it(era, refused):
    from helpers import scenario

    from versions import find_era

    s = scenario(POISON_BEFORE_DAMAGE.replace("card: Grizzly Bears",
                                              "power: 2, toughness: 2, keywords: [infect]"))
    why = find_era(era)().refusal(s)
    assert bool(why) == refused
    if why:
        assert "infect" in why
