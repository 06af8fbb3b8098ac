"""The state of the turn player's Duel Masters attacks (``Fight``: players, creatures, the
attacks, the log) and the decision a player is asked (``Decision``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from versions.duel_masters.scenario import Ability, Scenario


@dataclass(frozen=True)
class Decision:
    """One player's choice: `scripted` is what the scenario writes; `options()` every legal
    option (`count` of them, known before they are listed, so a caller can refuse a
    choice too large to list)."""

    kind: Literal["ninja-strike", "redirect", "trigger-order"]
    player: str
    step: str
    rule: str
    scripted: Any
    options: Callable[[], list[Any]]
    count: int
    # trigger-order: what each trigger is, in the words a line of play records
    labels: tuple[str, ...] = ()
    # trigger-order: every order leaves the same state (COMMUTING_EFFECTS only)
    commute: bool = False
    # redirect, when the turn player attacks more than once: whose attack this is
    attacker: str | None = None


Chooser = Callable[[Decision], Any]


def scripted(decision: Decision) -> Any:
    """The scenario's own choice: `run`'s chooser."""
    return decision.scripted


@dataclass
class Creature:
    id: str
    name: str
    controller: str
    printed_power: int
    keywords: frozenset[str]
    values: dict[str, int]
    abilities: list[Ability]
    tapped: bool
    zone: str = "battlefield"
    pumps: int = 0

    @property
    def power(self) -> int:
        return self.printed_power + self.pumps

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass
class PlayerState:
    name: str
    shields: int
    mana: int
    hand: int
    drawn: int = 0
    lost: bool = False


@dataclass
class Attack:
    attacker: str
    target: str  # as declared
    now: str  # after the redirections
    blocked: bool = False
    blockers: list[str] = field(default_factory=list)  # creatures that count as blocking


@dataclass
class Fight:
    """The state of the turn player's attacks and their log."""

    scenario: Scenario
    players: dict[str, PlayerState]
    creatures: dict[str, Creature]
    attacks: list[Attack] = field(default_factory=list)  # made so far, the current last
    choose: Chooser = scripted
    events: list[dict[str, Any]] = field(default_factory=list)
    step: str = "attack"
    over: bool = False

    def event(self, type_: str, rule: str, **fields: Any) -> None:
        self.events.append({"step": self.step, "type": type_, **fields, "rule": rule})

    @property
    def attack(self) -> Attack:
        """The attack being made."""
        return self.attacks[-1]

    @property
    def defending(self) -> str:
        return next(n for n in self.players if n != self.scenario.active)
