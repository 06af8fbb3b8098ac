"""What a player may do in explore: every action of the scenario is available to its
player (`by`), in each window it names and at each target it names, not scripted (explore
contract §6.2). An action is used at most once; one marked `required` must be taken at its
first legal window: its player may not pass while it can be taken.
"""

from __future__ import annotations

from typing import Any

from versions.mtg.engine.choices import Act
from versions.mtg.engine.policy import CombatView
from versions.mtg.scenario import Scenario


class Availability:
    def __init__(self, scenario: Scenario):
        self.actions = scenario.actions
        self.used: frozenset[int] = frozenset()

    def copy(self) -> Availability:
        twin = Availability.__new__(Availability)
        twin.actions = self.actions
        twin.used = self.used
        return twin

    def key(self) -> Any:
        return self.used

    def open_window(self, combat: CombatView, window: str) -> None:
        return None

    def acts(self, combat: CombatView, window: str, player: str) -> list[Act]:
        """Each unused action of `player` that names this window, at each target it names
        where it can be taken now (its target exists and can be targeted, its source can
        pay), in the order written."""
        return [
            Act(index, action, target)
            for index, action in enumerate(self.actions)
            if index not in self.used and action.by == player and window in action.windows
            for target in action.targets
            if combat.can_take(action, target)
        ]

    def taken(self, combat: CombatView, act: Act) -> None:
        self.used = self.used | {act.index}

    def has_late_actions(self, combat: CombatView) -> bool:
        return False  # nothing is moved: each action is offered only where it is written

    def finish(self, combat: CombatView) -> None:
        return None
