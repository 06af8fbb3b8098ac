"""A scripted run skips a priority round in which nobody has anything to take (each
player would pass in turn, asked nothing): the outcome must be the one the whole round
gives, in every era, whatever the scenario does."""

from __future__ import annotations

import pytest
from helpers import TRADE, scenario

from comparator.files.locations import shipped_scenarios
from comparator.scenarios.loader import load
from versions import ERA_IDS, IllegalChoice, NotInEra, find_era
from versions.mtg.engine.combat import Combat
from versions.mtg.engine.script import Script, ScriptedChooser
from versions.mtg.play import refuse


class EveryRound(Script):
    """The script, playing out every round pass by pass."""

    def passes_only(self, window: str) -> bool:
        return False


def _outcome(era_id: str, sc, script: type[Script]) -> dict:
    era = find_era(era_id)()
    refuse(era, sc)
    return Combat(era, sc, script(sc, era.has_window)).play(ScriptedChooser(sc))


MAGIC = [p for p in shipped_scenarios() if load(p).game == "mtg"]


@pytest.mark.parametrize("path", MAGIC, ids=[p.stem for p in MAGIC])
def test_skipping_a_round_of_passes_changes_no_outcome(path):
    sc = load(path)
    for era in ERA_IDS:
        try:
            skipped = _outcome(era, sc, Script)
        except NotInEra:
            continue
        except IllegalChoice as exc:  # an illegal written choice: refused alike both ways
            with pytest.raises(type(exc)):
                _outcome(era, sc, EveryRound)
            continue
        assert skipped == _outcome(era, sc, EveryRound), era


def test_a_round_with_an_action_is_played():
    # The two bears' trade, with a pump for the attacker as blockers are declared.
    pumped = scenario(TRADE + "actions:\n  - {at: declare-blockers, by: A, effect: pump, "
                              "target: a, power: 3, toughness: 3}\n")
    era = find_era("m10")()
    script = Script(pumped, era.has_window)
    combat = Combat(era, pumped, script)
    outcome = combat.play(ScriptedChooser(pumped))
    assert not script.passes_only("declare-blockers")
    assert outcome["permanents"]["a"]["zone"] == "battlefield"
    assert outcome["permanents"]["b"]["zone"] == "graveyard"
    assert script.passes_only("end-of-combat")
