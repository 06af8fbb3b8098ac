"""What combat damage is assigned and dealt: the data the procedure and the era hooks
(``versions.mtg.rules.Era``) share, below both.

``Division`` names the rules a division of combat damage may be made to obey; an era
says which apply (``Era.division_rules``), and ``versions.mtg.engine.assignment`` checks
them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from versions.mtg.engine.state import Board


class Division(Enum):
    """A rule a division of one creature's combat damage obeys."""

    TOTAL = "total"  # every point of its power goes somewhere it may assign to
    IN_ORDER = "in-order"  # lethal damage to each creature in its order before the next
    TRAMPLE = "trample"  # the rest to the player only once every blocker has lethal damage
    OVER_PLANESWALKERS = "over-planeswalkers"  # 702.19c: past the planeswalker, to its player


@dataclass
class Targets:
    """What one creature may assign its damage to in this step."""

    creatures: list[str]  # in the era's order (damage assignment order, else blocks listing)
    overflow: str | None = None  # trample: the player or planeswalker attacked
    unblocked: str | None = None  # an unblocked attacker's player or planeswalker
    rule: str = ""
    # Trample over planeswalkers attacking a planeswalker (702.19c): its controller, who
    # may be assigned damage once the planeswalker is assigned its loyalty.
    beyond: str | None = None
    # A blocked creature that may assign its combat damage as though it weren't blocked
    # (Thorn Elemental): what it attacks, which may take all of it instead.
    or_unblocked: str | None = None
    # Trample before Urza's Saga: all of it goes to the blockers, and what is beyond lethal
    # is redirected to the defending player afterwards (the era's ``waiting_damage_dealt``).
    redirects: bool = False

    def unblocked_options(self, power: int) -> list[dict[str, int]]:
        """Its division as though unblocked (all of it to what it attacks), if it has one."""
        return [{self.or_unblocked: power}] if self.or_unblocked and power > 0 else []

    def as_unblocked(self, amounts: dict[str, int], power: int) -> bool:
        return amounts in self.unblocked_options(power)

    @property
    def keys(self) -> list[str]:
        return self.creatures + ([self.overflow] if self.overflow else []) + (
            [self.beyond] if self.beyond else [])


@dataclass
class Assignment:
    source: str
    amounts: dict[str, int] = field(default_factory=dict)
    rule: str = ""


@dataclass
class Dealt:
    source: str | None
    target: str
    amount: int
    combat: bool


def assigned_to(target: str, others: list[Assignment]) -> int:
    return sum(a.amounts.get(target, 0) for a in others)


def toughness_lethal(board: Board, target: str, others: list[Assignment]) -> int:
    """Lethal damage as the rules first defined it: toughness minus damage already marked
    and minus damage other creatures assign to it in the same step (never prevention)."""
    t = board.perm(target)
    return max(0, t.toughness - t.damage - assigned_to(target, others))
