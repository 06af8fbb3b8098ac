"""Check a scenario's hand-written `expect:` against what the engine computes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from versions.scenario import OUTCOME_DEFAULTS, Scenario


@dataclass(frozen=True)
class Mismatch:
    era: str
    field: str
    expected: Any
    got: Any


def mismatches(scenario: Scenario, outcomes: dict[str, dict[str, Any]]) -> list[Mismatch]:
    out: list[Mismatch] = []
    for era, exp in scenario.expect.items():
        outcome = outcomes[era]
        for kind, wanted in (("players", exp.players), ("permanents", exp.permanents)):
            for name, fields in wanted.items():
                actual = outcome[kind].get(name, {})
                for f, value in fields.items():
                    got = actual.get(f, OUTCOME_DEFAULTS.get(f))
                    if got != value:
                        out.append(Mismatch(era, f"{kind}.{name}.{f}", value, got))
    return out
