"""The JSON Schema of Duel Masters' scenario format (docs/duel-masters.md), for editors."""

from __future__ import annotations

from typing import Any

from comparator.games.schema import model_schema
from versions.duel_masters.scenario import Scenario


def scenario_schema() -> dict[str, Any]:
    return model_schema(Scenario, "rulesdiff Duel Masters scenario",
                        "The turn player's Duel Masters attacks, one after another, each "
                        "from its block step to the battle or the direct attack "
                        "(docs/duel-masters.md).")
