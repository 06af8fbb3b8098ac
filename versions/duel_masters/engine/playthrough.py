"""A Duel Masters turn's attacks played decision by decision: the choice protocol every game's
engine offers (``versions.common.Playing``: advance to the next decision, resume with a
choice, copy to branch).

Magic's combat keeps what is left to do as an agenda it can copy at any decision. Duel
Masters attacks are short and its procedure plain Python calls, so a playthrough keeps the
choices made so far and replays them from the start: a copy is a copy of that list."""

from __future__ import annotations

from typing import Any

from versions.duel_masters.engine.attack import run
from versions.duel_masters.engine.state import Decision
from versions.duel_masters.rules import DuelMastersEra
from versions.duel_masters.scenario import Scenario


class _Asked(Exception):
    """The replay reached a decision no choice was made for yet."""

    def __init__(self, decision: Decision):
        self.decision = decision


class Playthrough:
    def __init__(self, era: DuelMastersEra, scenario: Scenario):
        self.era = era
        self.scenario = scenario
        self.choices: list[Any] = []
        self.decision: Decision | None = None
        self.result: dict[str, Any] | None = None

    def advance(self) -> Decision | None:
        """The next decision (its choice still to make), or None once the attack is over."""
        if self.decision is not None or self.result is not None:
            return self.decision
        answers = iter(self.choices)

        def choose(d: Decision) -> Any:
            for choice in answers:
                return choice
            raise _Asked(d)

        try:
            self.result = run(self.era, self.scenario, choose)
        except _Asked as asked:
            self.decision = asked.decision
        return self.decision

    def resume(self, choice: Any) -> None:
        assert self.decision is not None, "no decision is pending"
        self.choices.append(choice)
        self.decision = None

    def copy(self) -> Playthrough:
        twin = Playthrough(self.era, self.scenario)
        twin.choices = list(self.choices)
        twin.decision, twin.result = self.decision, self.result
        return twin

    def outcome(self) -> dict[str, Any]:
        assert self.result is not None, "the attack is not over"
        return self.result
