"""Playing a Duel Masters scenario under an era: the entry points the comparator calls (the
same as Magic's ``versions.mtg.play``)."""

from __future__ import annotations

from typing import Any

from versions.duel_masters.engine import attack
from versions.duel_masters.engine.playthrough import Playthrough
from versions.duel_masters.rules import DuelMastersEra
from versions.duel_masters.scenario import Scenario


def run(era: DuelMastersEra, scenario: Scenario) -> dict[str, Any]:
    """The outcome JSON of the scenario's written line under `era`."""
    return attack.run(era, scenario)


def exploration(era: DuelMastersEra, scenario: Scenario) -> Playthrough:
    """The attack, to be played decision by decision (explore)."""
    era.check_game(scenario)
    return Playthrough(era, scenario)
