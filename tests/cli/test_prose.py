"""Output that reads as prose (the newcomer's issue, point 5): every event a shipped
scenario logs has a sentence of its own; explore says what an action does; an outcome row
never prints `null`; a one-era scenario is not said to "agree"; a diff whose states agree
says what differs in the logs."""

from helpers import scenario
from typer.testing import CliRunner

import versions
from comparator.cli.main import app
from comparator.compare.diffing import log_difference, verdict
from comparator.files.locations import shipped_scenarios
from comparator.games.mtg.explore_words import action_words
from comparator.games.registry import game_of
from comparator.scenarios.loader import load
from comparator.text.narrate import fallback
from versions.mtg.scenario import EFFECT_FIELDS

runner = CliRunner()


def test_every_event_of_the_shipped_scenarios_has_a_sentence():
    bare = set()
    for path in shipped_scenarios():
        s = load(path)
        sentence = game_of(s).sentence
        for era in versions.eras_of(s.game):
            try:
                outcome = versions.run(era, s)
            except (versions.NotInEra, versions.IllegalChoice):
                continue  # refused: by what its rules lacked, or as the file expects
            bare |= {e["type"] for e in outcome["events"] if sentence(e) == fallback(e)}
    assert not bare  # fifth's damage-prevention-step and a tap once printed their fields


def test_every_action_effect_is_said_in_words():
    actions = scenario("""
        id: every-effect
        title: one action of each effect
        players: [{name: A}, {name: B}]
        active: A
        permanents:
          - {id: ogre, controller: A, power: 3, toughness: 3}
          - {id: bear, controller: B, power: 2, toughness: 2}
        combat:
          attacks: {ogre: B}
        actions:
          - {at: declare-blockers, by: B, effect: pump, target: bear, power: 3, toughness: 3}
        """).actions
    pump = actions[0]
    assert action_words(pump, "bear") == "bear gets +3/+3"
    for effect in EFFECT_FIELDS:
        fake = pump.model_copy(update={
            "effect": effect, "amount": 2, "keyword": None, "kind": None, "id": "wall",
            "attacker": "ogre", "source": "ogre", "ability": 0})
        words = action_words(fake, "bear")
        assert words and not words.startswith(f"{effect} on"), effect


def test_explore_says_what_an_action_does():
    result = runner.invoke(app, ["explore", "giant-growth-vs-assignment-order", "--era",
                                 "foundations", "--no-store"])
    assert "B plays Giant Growth: bear gets +3/+3" in result.output
    assert "takes action" not in result.output


def test_an_outcome_row_never_prints_null(tmp_path):
    path = tmp_path / "guard.yaml"
    path.write_text("""\
id: dm-guard-destroyed
title: a guardman destroyed in one line
game: duel-masters
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: big, controller: A, power: 9000}
  - {id: guard, controller: B, power: 3000, keywords: [guardman]}
  - {id: wall, controller: B, power: 2000, keywords: [blocker], tapped: true}
combat:
  attacks: {big: wall}
""")
    result = runner.invoke(app, ["explore", str(path), "--blocks", "all", "--no-store"])
    assert result.exit_code == 0, result.output
    assert "guard graveyard" in result.output and "null" not in result.output


def test_a_one_era_scenario_is_not_said_to_agree():
    one = {"foundations": {"players": {}, "permanents": {}, "events": []}}
    assert verdict(one, []) == "only foundations runs this scenario: nothing to compare"


def test_when_only_citations_differ_the_diff_says_so():
    def outcome(rule):
        return {"players": {}, "permanents": {}, "events": [
            {"step": "declare-blockers", "type": "block", "source": "b", "target": "a",
             "rule": rule}]}

    said = log_difference({"sixth": outcome("309.2e"), "m10": outcome("509.1g")})
    assert said == ("the same events, cited by each era's own numbering (e.g. block: sixth "
                    "309.2e, m10 509.1g)")
    other = outcome("509.1g")
    other["events"].append({"step": "combat-damage", "type": "damage-on-stack", "rule": "x"})
    assert "damage-on-stack (m10)" in log_difference({"sixth": outcome("309.2e"),
                                                        "m10": other})
