"""What a player may do in explore: every action of the scenario is available to its
player (`by`), in each window it names and at each target it names, not scripted (explore
contract §6.2). An action is used at most once; one marked `required` must be taken at its
first legal window: its player may not pass while it can be taken.

`if-missing` applies as in `run` (``versions.mtg.engine.policy.placement``): an action
none of whose windows exists in this combat is available in the nearest existing window
in the direction it names (`earlier`, `later`), or not at all (`skip`). An action moved
onto declare blockers is offered there once combat damage begins and shows that its
window is missing (the first-strike windows exist only if a creature then has first
strike), in a priority round of its own, as `run` takes it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from versions.mtg.engine.choices import Act
from versions.mtg.engine.policy import CombatView, placement
from versions.mtg.scenario import FIRST_STRIKE_WINDOWS, WINDOWS, Scenario, Window


class Availability:
    def __init__(self, scenario: Scenario, has_window: Callable[[str], bool]):
        self.actions = scenario.actions
        # The window an action is placed from when none of its windows exists: the first
        # this era has (as `run` scripts it), else the first written.
        self.written = [next((w for w in a.windows if has_window(w)), a.window)
                        for a in scenario.actions]
        self.used: frozenset[int] = frozenset()
        self.late_round = False  # the round combat damage adds to declare blockers was held

    def copy(self) -> Availability:
        twin = Availability.__new__(Availability)
        twin.actions = self.actions
        twin.written = self.written
        twin.used = self.used
        twin.late_round = self.late_round
        return twin

    def key(self) -> Any:
        return self.used, self.late_round

    def open_window(self, combat: CombatView, window: str) -> None:
        if window == Window.DECLARE_BLOCKERS and combat.first_strike_step is not None:
            self.late_round = True

    def passes_only(self, window: str) -> bool:
        return False  # what can be taken depends on the board as each player gets priority

    def acts(self, combat: CombatView, window: str, player: str) -> list[Act]:
        """Each unused action of `player` available in this window, at each target it
        names where it can be taken now (its target exists and can be targeted, its source
        can pay), in the order written. In the round that combat damage's beginning adds to
        declare blockers, only the actions moved there."""
        late = window == Window.DECLARE_BLOCKERS and combat.first_strike_step is not None
        return [
            Act(index, action, target)
            for index, action in enumerate(self.actions)
            if index not in self.used and action.by == player
            and (self._late(combat, index) and self._moved(combat, index, window) if late
                 else window in action.windows or self._moved(combat, index, window))
            for target in action.targets
            if combat.can_take(action, target)
        ]

    def _late(self, combat: CombatView, index: int) -> bool:
        """Whether the action can be moved onto declare blockers only once combat damage
        begins: a first-strike window this era has lies between, not known before."""
        action = self.actions[index]
        if action.if_missing != "earlier" or Window.DECLARE_BLOCKERS in action.windows:
            return False
        at = WINDOWS.index(self.written[index])
        return any(w in FIRST_STRIKE_WINDOWS and combat.era.has_window(w)
                   for w in WINDOWS[1:at + 1])

    def _moved(self, combat: CombatView, index: int, window: str) -> bool:
        """Whether the action is moved to `window` (``if-missing``): none of its windows
        exists in this combat, and `window` is where its `if-missing` sends it."""
        action = self.actions[index]
        if window in action.windows or any(combat.window_exists(w) is not False
                                           for w in action.windows):
            return False
        return placement(combat, self.written[index], action.if_missing, window) == "here"

    def taken(self, combat: CombatView, act: Act) -> None:
        self.used = self.used | {act.index}

    def has_late_actions(self, combat: CombatView) -> bool:
        """Actions moved onto declare blockers, now that combat damage begins shows their
        windows missing: a priority round at declare blockers offers them."""
        return not self.late_round and any(
            index not in self.used and self._late(combat, index)
            and self._moved(combat, index, Window.DECLARE_BLOCKERS)
            for index in range(len(self.actions)))

    def finish(self, combat: CombatView) -> None:
        return None
