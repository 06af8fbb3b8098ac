"""The scripted line of play of ``run`` and ``diff``: the scenario's choices and the
defaults of the contract (scenario-format §1.2 and §1.5).

Two parts. ``Script`` places each of the scenario's actions in a window of this era's
combat, moving it (``if-missing``) when the window it names does not exist, with a note
saying so. ``ScriptedChooser`` answers every decision the way the scenario says: its
blocks, its orders or the order under which its intended amounts are legal, its divisions
or the default division, its actions in the order written, triggers in the order they
triggered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from versions.mtg.engine.assignment import most_kills
from versions.mtg.engine.blocks import written
from versions.mtg.engine.choices import (
    Act,
    BlockOptions,
    DivideOptions,
    Options,
    OrderOptions,
    Pass,
    PriorityOptions,
    TriggerOrderOptions,
)
from versions.mtg.engine.policy import CombatView, placement
from versions.mtg.engine.state import Board
from versions.mtg.rules import era_of
from versions.mtg.scenario import Action, Scenario, SplitAssign, Window


class Script:
    """Which of the scenario's actions are taken in which window of this era's combat."""

    def __init__(self, scenario: Scenario, has_window: Callable[[str], bool]):
        self.actions = scenario.actions
        # An action that lists several windows is scripted in the first one this era has.
        self.window = [next((w for w in a.windows if has_window(w)), a.window)
                       for a in scenario.actions]
        self.handled: set[int] = set()
        self.scheduled: dict[str, list[Act]] = {}

    def copy(self) -> Script:
        twin = Script.__new__(Script)
        twin.actions = self.actions
        twin.window = self.window
        twin.handled = set(self.handled)
        twin.scheduled = {w: list(a) for w, a in self.scheduled.items()}
        return twin

    def open_window(self, combat: CombatView, window: str) -> None:
        self.scheduled[window] = [
            Act(index, action, action.first_target, moved)
            for index, action, moved in self._actions_for(combat, window)
        ]

    def acts(self, combat: CombatView, window: str, player: str) -> list[Act]:
        """The next action the script takes here, if it is this player's: actions are taken
        in the order written, whoever takes them."""
        waiting = [a for a in self.scheduled.get(window, []) if a.index not in self.handled]
        return waiting[:1] if waiting and waiting[0].player == player else []

    def passes_only(self, window: str) -> bool:
        """Nothing scheduled as the window opened: `acts` offers nothing in its round."""
        return not self.scheduled.get(window)

    def key(self) -> Any:
        return frozenset(self.handled)

    def has_late_actions(self, combat: CombatView) -> bool:
        """Actions to be moved onto declare blockers, now that combat damage begins."""
        return bool(self._actions_for(combat, Window.DECLARE_BLOCKERS))

    def taken(self, combat: CombatView, act: Act) -> None:
        self.handled.add(act.index)
        if act.moved:
            board = combat.board
            rule = combat.era.window_missing(board, act.moved)
            board.log.note("missing-window", rule, (
                f"window {act.moved} does not exist in {combat.era.id} here; the "
                f"{act.action.effect} by {act.action.by} is taken at {board.log.step} instead "
                f"(if-missing: {act.action.if_missing})"), action=act.index, window=act.moved,
                **{"taken-at": board.log.step})

    def finish(self, combat: CombatView) -> None:
        board = combat.board
        for index, action in enumerate(self.actions):
            if index not in self.handled and not board.over and \
                    not combat.era.has_window(self.window[index]):
                # Its window does not exist, nor one after it to move it to (fifth).
                self.handled.add(index)
                board.log.note("missing-window", combat.era.window_missing(
                    board, self.window[index]), (
                    f"window {self.window[index]} does not exist in {combat.era.id}, nor a "
                    f"later one; the {action.effect} by {action.by} is not taken "
                    f"(if-missing: {action.if_missing})"), action=index,
                    window=self.window[index])
            if index not in self.handled:
                why = "the game was over" if board.over else \
                    f"its window ({self.window[index]}) never came in {combat.era.id}"
                board.log.note("action-not-taken", combat.rule("fizzle"),
                              f"the {action.effect} by {action.by} is not taken: {why}",
                              action=index)

    def _actions_for(self, combat: CombatView, window: str) -> list[tuple[int, Action, str | None]]:
        """The actions taken in `window`, with the window each was moved from. An action
        whose window does not exist goes to the nearest earlier or later one that does
        (``if-missing``); while whether a window exists is not yet known (the first-strike
        windows, before combat damage begins), the action waits."""
        out: list[tuple[int, Action, str | None]] = []
        for index, action in enumerate(self.actions):
            if index in self.handled:
                continue
            scripted = self.window[index]
            if scripted == window:
                out.append((index, action, None))
                continue
            match placement(combat, scripted, action.if_missing, window):
                case "here":
                    out.append((index, action, scripted))
                case "skip":
                    self._skip(combat, index, action)
        return out

    def _skip(self, combat: CombatView, index: int, action: Action) -> None:
        self.handled.add(index)
        board = combat.board
        scripted = self.window[index]
        rule = combat.era.window_missing(board, scripted)
        board.log.note("missing-window", rule, (
            f"window {scripted} does not exist in {combat.era.id} here; the "
            f"{action.effect} by {action.by} is not taken (if-missing: skip)"), action=index,
            window=scripted)


class ScriptedChooser:
    """Answers every decision as the scenario says, else by the contract's defaults."""

    def __init__(self, scenario: Scenario):
        self.combat = scenario.combat
        self.trigger_order = scenario.trigger_order

    def choose(self, player: str, kind: str, options: Options) -> Any:
        match options:
            case BlockOptions():
                return options.part(written(self.combat))
            case OrderOptions():
                return tuple(self._order(options))
            case DivideOptions():
                return self._divide(options)
            case PriorityOptions():
                return options.acts[0] if options.acts else Pass()
            case TriggerOrderOptions():
                return self._trigger_order(options)
        raise ValueError(f"no scripted answer for a {kind} decision")

    def _order(self, options: OrderOptions) -> list[str]:
        """§1.5.1: the written order; else one under which the intended amounts are
        legal as the order is announced; else the blocks listing order."""
        others = list(options.others)
        creature = options.creature
        if creature in self.combat.order:
            written = [c for c in self.combat.order[creature] if c in others]
            return written + [c for c in others if c not in written]
        board = options.board
        intent = self.combat.assign.get(creature)
        if isinstance(intent, SplitAssign):  # the order is announced before either step
            intent = intent.first if intent.first is not None else intent.second
        if not isinstance(intent, dict):
            return others

        def lethal(c: str) -> int:
            return era_of(board).lethal_damage(board, creature, c, [])

        full = [c for c in others if intent.get(c, 0) >= lethal(c) and intent.get(c, 0) > 0]
        partial = [c for c in others if 0 < intent.get(c, 0) < lethal(c)]
        rest = [c for c in others if c not in full and c not in partial]
        return full + partial + rest if len(partial) <= 1 else others

    def _trigger_order(self, options: TriggerOrderOptions) -> tuple[int, ...]:
        """The order the scenario's `trigger-order` gives (the order they go on the stack:
        the last resolves first), each trigger placed by the first item naming it (its
        source's id or card name, or "SOURCE CONDITION"); the rest as they triggered."""

        def rank(i: int) -> int:
            t = options.triggers[i]
            names = (t.source, options.names[i] if options.names else t.source,
                     f"{t.source} {t.condition}")
            return next((k for k, item in enumerate(self.trigger_order) if item in names),
                        len(self.trigger_order))

        return tuple(sorted(range(len(options.triggers)), key=rank))

    def _intent(self, creature: str, board: Board) -> object:
        """The scenario's intended division of `creature`'s damage in the step being
        assigned: a double striker's may differ between its two steps."""
        intent = self.combat.assign.get(creature)
        if isinstance(intent, SplitAssign):
            first = board.log.step.startswith("first-strike")
            return intent.first if first else intent.second
        return intent

    def _divide(self, options: DivideOptions) -> dict[str, int]:
        """§1.5.2-4: the intended amounts (checked with the whole assignment, and
        refused there if illegal), the `most-kills` policy, or the default division."""
        intent = self._intent(options.creature, options.board)
        if isinstance(intent, dict) and options.rejected is None:
            return {k: v for k, v in intent.items() if v}
        if intent == "most-kills":
            return most_kills(options.board, options.creature, options.targets, options.earlier)
        return options.default()
