"""Which of the scenario's actions a player may take, and where: the two policies the
combat is built with (``versions.mtg.engine.script`` for ``run``, each action in its window;
``versions.mtg.engine.availability`` for ``explore``, each action wherever it can be taken),
and the narrow view of a combat they read. Declared here, below the combat, so that the
policies never import the procedure that calls them."""

from __future__ import annotations

from typing import Any, Literal, Protocol

from versions.mtg.engine.choices import Act
from versions.mtg.engine.state import Board
from versions.mtg.rules import Era
from versions.mtg.scenario import WINDOWS, Action


class CombatView(Protocol):
    """What a policy may read of the combat it serves."""

    board: Board
    era: Era
    first_strike_step: bool | None  # None until combat damage begins

    def rule(self, key: str) -> str: ...
    def window_exists(self, window: str) -> bool | None: ...
    def can_take(self, action: Action, target: str | None) -> bool: ...


class ActionPolicy(Protocol):
    def open_window(self, combat: CombatView, window: str) -> None: ...
    def acts(self, combat: CombatView, window: str, player: str) -> list[Act]: ...
    # Whether, the window opened, no player can act in it whatever happens there (then its
    # round of passes is not played out).
    def passes_only(self, window: str) -> bool: ...
    def taken(self, combat: CombatView, act: Act) -> None: ...
    def has_late_actions(self, combat: CombatView) -> bool: ...
    def finish(self, combat: CombatView) -> None: ...
    def copy(self) -> ActionPolicy: ...
    def key(self) -> Any: ...


def placement(combat: CombatView, written: str, if_missing: str,
              window: str) -> Literal["here", "skip", "wait"]:
    """Where an action written for `written` stands as `window` opens, when `written` is
    not `window` (``if-missing``, scenario-format §1.2): "here" when its window does not
    exist and `window` is the nearest existing one in the direction it names; "skip" when
    it can no longer be placed; "wait" otherwise (its window exists, or comes later, or
    whether it exists is not known yet: the first-strike windows, until combat damage
    begins)."""
    here = WINDOWS.index(window)
    at = WINDOWS.index(written)
    exists = combat.window_exists(written)
    between = [combat.window_exists(WINDOWS[i]) for i in range(min(at, here) + 1, max(at, here))]
    if exists is None or None in between or exists:
        return "wait"
    if any(between):
        return "skip" if at < here and if_missing != "later" else "wait"
    if (at > here and if_missing == "earlier") or (at < here and if_missing == "later"):
        return "here"
    return "skip" if at < here else "wait"
