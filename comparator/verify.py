"""Check a scenario's hand-written `expect:` against what the engine computes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from comparator.games import game_of
from versions.scenario import ExpectState


@dataclass(frozen=True)
class Mismatch:
    era: str
    field: str
    expected: Any
    got: Any


def mismatches(scenario: Any, outcomes: dict[str, dict[str, Any]]) -> list[Mismatch]:
    defaults = game_of(scenario).outcome_defaults
    out: list[Mismatch] = []
    for era, exp in scenario.expect.items():
        outcome = outcomes[era]
        out += _compare(era, "", exp, outcome, defaults)
        for window, wanted in getattr(exp, "after", {}).items():
            seen = outcome.get("after", {}).get(window)
            if seen is None:  # the window never ended: the game was over before it
                out.append(Mismatch(era, f"after.{window}", "the state after it",
                                    "no such point in this combat"))
                continue
            out += _compare(era, f"after.{window}.", wanted, seen, defaults)
    return out


def _compare(era: str, prefix: str, wanted: ExpectState, state: dict[str, Any],
             defaults: dict[str, Any]) -> list[Mismatch]:
    out: list[Mismatch] = []
    for kind, fields_of in (("players", wanted.players), ("permanents", wanted.permanents)):
        for name, fields in fields_of.items():
            actual = state[kind].get(name, {})
            for f, value in fields.items():
                got = actual.get(f, defaults.get(f))
                if got != value:
                    out.append(Mismatch(era, f"{prefix}{kind}.{name}.{f}", value, got))
    return out
