"""Which of the scenario's actions a player may take, and where: the two policies the
combat is built with (``versions.mtg.engine.script`` for ``run``, each action in its window;
``versions.mtg.engine.availability`` for ``explore``, each action wherever it can be taken),
and the narrow view of a combat they read. Declared here, below the combat, so that the
policies never import the procedure that calls them."""

from __future__ import annotations

from typing import Any, Protocol

from versions.mtg.engine.choices import Act
from versions.mtg.engine.state import Board
from versions.mtg.rules import Era
from versions.mtg.scenario import Action


class CombatView(Protocol):
    """What a policy may read of the combat it serves."""

    board: Board
    era: Era

    def rule(self, key: str) -> str: ...
    def window_exists(self, window: str) -> bool | None: ...
    def can_take(self, action: Action, target: str | None) -> bool: ...


class ActionPolicy(Protocol):
    def open_window(self, combat: CombatView, window: str) -> None: ...
    def acts(self, combat: CombatView, window: str, player: str) -> list[Act]: ...
    def taken(self, combat: CombatView, act: Act) -> None: ...
    def has_late_actions(self, combat: CombatView) -> bool: ...
    def finish(self, combat: CombatView) -> None: ...
    def copy(self) -> ActionPolicy: ...
    def key(self) -> Any: ...
