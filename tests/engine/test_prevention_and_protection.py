"""Preventing all combat damage (Fog; 419.1d, 614.1a, 615.1a; a fog effect, E.6, before
1999), prevention shields on a source (419.7b, 614.7, 615.7), protection on players
(502.7e, 702.14e, 702.16e): worked by hand from the texts."""

import pytest
from eras import CR_ERAS
from helpers import life, notes, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

FOG = """
id: t-fog
title: Fog, and a spell's damage in the same combat
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: bears, controller: B, card: Grizzly Bears}
  - {id: elf, controller: A, power: 1, toughness: 1}
combat:
  attacks: {giant: B, elf: B}
  blocks: {bears: giant}
actions:
  - {at: declare-blockers, by: B, effect: prevent-all-combat-damage, card: Fog}
  - {at: declare-blockers, by: A, effect: damage, target: bears, amount: 1}
"""


@pytest.mark.parametrize("era", ["fifth", *CR_ERAS])
def test_fog_prevents_combat_damage_only(era):
    # Fifth: a fog effect stops only damage of the damage dealing step (E.6.Ruling.1) and,
    # not being damage prevention, may be played before it (E.6.1, G.12.1).
    o = run(FOG, era)
    assert life(o, "B") == 20
    assert perm(o, "bears")["damage"] == 1 and perm(o, "giant")["damage"] == 0
    assert not notes(o, "action-not-allowed")


def test_fog_from_one_source_and_a_shield_on_a_source():
    text = FOG.replace("effect: prevent-all-combat-damage, card: Fog",
                       "effect: prevent-all-combat-damage, from: giant").replace(
        "effect: damage, target: bears, amount: 1",
        "effect: prevent, from: elf, amount: 5")
    for era in CR_ERAS:
        o = run(text, era)
        # Only the giant's combat damage is prevented; the elf's 1 is prevented by its
        # shield (4 of the shield left); the bears deal 2 to the giant.
        assert life(o, "B") == 20 and perm(o, "giant")["damage"] == 2
        assert perm(o, "bears") == {**perm(o, "bears"), "zone": "battlefield", "damage": 0}


def test_a_shield_on_a_source_prevents_its_noncombat_damage_too():
    text = """
id: t-shield-source
title: A source's shield against a spell it deals damage with
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: elf, controller: A, power: 1, toughness: 1}
combat:
  attacks: {elf: B}
actions:
  - {at: declare-blockers, by: B, effect: prevent, from: elf, amount: 2}
  - {at: declare-blockers, by: A, effect: damage, source: elf, target: B, amount: 3}
"""
    for era in CR_ERAS:
        # 2 of the spell's 3 are prevented; the elf's combat damage (1) is dealt.
        assert life(run(text, era), "B") == 18


def test_fog_in_a_damage_prevention_step_is_not_allowed_in_fifth():
    # T.10.3: only damage prevention, redirection and regeneration in that step; a fog
    # effect is none of them (E.6.1) — rulesdiff's reading, named in docs/eras/fifth.md.
    o = run(FOG.replace("at: declare-blockers, by: B", "at: damage-prevention, by: B"),
            "fifth")
    assert notes(o, "action-not-allowed") and perm(o, "bears")["zone"] == "graveyard"


@pytest.mark.parametrize("change,field", [
    ("effect: prevent, target: bears, from: giant, amount: 3", "not both"),
    ("effect: prevent, amount: 3", "not both"),
    ("effect: prevent, from: nobody, amount: 3", "actions[0].from"),
    ("effect: pump, target: giant, from: giant, power: 1, toughness: 1", "`from` is for"),
])
def test_prevention_fields_are_checked(tmp_path, change, field):
    f = tmp_path / "bad.yaml"
    f.write_text(FOG.replace("effect: prevent-all-combat-damage, card: Fog", change))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and field in r.output, r.output


def test_player_protection(tmp_path):
    text = """
id: t-player-protection
title: Protection from creatures and from green
players: [{name: A}, {name: B, protection: [creatures]}, {name: C, protection: [green]}]
active: A
permanents:
  - {id: bears, controller: A, card: Grizzly Bears}
  - {id: giant, controller: A, card: Hill Giant}
combat:
  attacks: {bears: C, giant: B}
"""
    for era in CR_ERAS:
        o = run(text, era)
        assert life(o, "B") == 20 and life(o, "C") == 20
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("[green]", "[plaid]"))
    r = runner.invoke(app, ["validate", str(bad)])
    assert r.exit_code == 2 and "protection" in r.output
    from helpers import scenario

    from versions import find_era

    assert "protection" in find_era("fifth")().refusal(scenario(text))
