"""The one choice point: every decision a player makes in combat.

The combat procedure (``versions.mtg.engine.combat``) never decides for a player. When a rule
says "the defending player chooses" or "the active player announces", the procedure stops
with a ``Decision``; whoever drives the run answers it through one call,
``chooser.choose(player, kind, options)``. ``run`` and ``diff`` use the scripted chooser
(``versions.mtg.engine.script``), which follows the scenario and the defaults of the contract
(scenario-format §1.5); ``explore`` tries every option.

Options are lazy: iterating one yields every legal choice in the canonical order of the
explore contract (§6.4), but a chooser that knows what it wants never pays for the list.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import permutations
from math import comb, factorial
from typing import TYPE_CHECKING, Any, Protocol

from versions.mtg.engine.assignment import (
    Assignment,
    Targets,
    all_divisions,
    default_division,
    division_problem,
    legal_divisions,
)
from versions.mtg.engine.blocks import Declaration, declaration_count, legal_declarations
from versions.mtg.engine.state import Board, PendingTrigger

if TYPE_CHECKING:
    from versions.mtg.scenario import Action

class Options(ABC):
    """What a player may choose at one decision."""

    @abstractmethod
    def __iter__(self) -> Iterator[Any]: ...

    @abstractmethod
    def count(self) -> int:
        """How many options there are, or at most (a division's), without listing them:
        a search sizes a decision before it expands it."""


@dataclass
class BlockOptions(Options):
    """509.1 / 309.2: every legal block declaration (restrictions, requirements maximised,
    costs payable)."""

    board: Board
    # Whose creatures declare: one of several defending players, or a team (602.4, 606.7c);
    # None: the one defending player of a two-player game. `others`: the players of the
    # other declarations.
    players: frozenset[str] | None = None
    others: frozenset[str] = frozenset()

    def __iter__(self) -> Iterator[Declaration]:
        return iter(legal_declarations(self.board))

    def part(self, decl: Declaration) -> Declaration:
        """This decision's part of a whole declaration (the scenario's written blocks): all
        of it for the one defending player of a duel; else the blocks of this player's (or
        team's) creatures, and those of a player no one attacks that block one of this
        player's attackers (refused here: ``blocks.group_problems``)."""
        if self.players is None:
            return decl
        board = self.board
        return {b: a for b, a in decl.items()
                if (c := board.perm(b).controller) in self.players or
                (c not in self.others and a and a[0] in board.attacks)}

    def count(self) -> int:
        return declaration_count(self.board)


@dataclass
class OrderOptions(Options):
    """509.2-509.3 (eras with a damage assignment order): every order of the creatures."""

    board: Board
    creature: str
    others: tuple[str, ...]  # in blocks listing order

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        return permutations(self.others)

    def count(self) -> int:
        return factorial(len(self.others))


@dataclass
class DivideOptions(Options):
    """How `creature` divides its combat damage: every division legal in the era, given
    what the creatures that assigned before it in this step assigned."""

    board: Board
    creature: str
    targets: Targets
    earlier: list[Assignment]
    rejected: str | None = None  # why the scenario's intended amounts were refused here
    # Another creature of the same player, assigning later, may make more divisions legal:
    # offer every division of the whole power; the assignment is checked as a whole.
    permissive: bool = False

    def __iter__(self) -> Iterator[dict[str, int]]:
        if self.permissive:
            return iter(all_divisions(self.board, self.creature, self.targets))
        return iter(legal_divisions(self.board, self.creature, self.targets, self.earlier))

    def count(self) -> int:
        """At most every division of its power among what it may assign to."""
        keys = len(self.targets.keys)
        power = max(self.board.perm(self.creature).power, 0)
        return comb(power + keys - 1, keys - 1) + 1 if keys else 1

    def default(self) -> dict[str, int]:
        return default_division(self.board, self.creature, self.targets, self.earlier)

    def problem(self, amounts: dict[str, int]) -> str | None:
        return division_problem(self.board, self.creature, self.targets, amounts, self.earlier)


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Act:
    """Take the scenario's action `index` (at `target`); `moved` names the window the
    script wrote it for when that window does not exist in this era."""

    index: int
    action: Action = field(compare=False)
    target: str | None = None
    moved: str | None = None

    @property
    def player(self) -> str:
        return self.action.by


@dataclass
class PriorityOptions(Options):
    """A player with priority in a window: pass, or take one of the available actions."""

    window: str
    acts: list[Act]
    can_pass: bool = True  # not while a required action of this player waits (explore)

    def count(self) -> int:
        return len(self.acts) + self.can_pass

    def __iter__(self) -> Iterator[Pass | Act]:
        if self.can_pass:
            yield Pass()
        yield from self.acts


@dataclass
class TriggerOrderOptions(Options):
    """603.3b / 410.5b: the order a player puts its simultaneous triggers on the stack
    (the last one put there resolves first). A choice is a tuple of indexes."""

    triggers: list[PendingTrigger]
    names: tuple[str, ...] = ()  # each trigger's source's card name, for `trigger-order`

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return permutations(range(len(self.triggers)))

    def count(self) -> int:
        return factorial(len(self.triggers))


@dataclass(frozen=True)
class Decision:
    player: str
    kind: str
    options: Options
    then: str  # the procedure's method that takes the choice
    args: tuple[Any, ...] = ()
    rule: str = ""  # the era's rule that gives the player this choice


class Chooser(Protocol):
    def choose(self, player: str, kind: str, options: Options) -> Any: ...
