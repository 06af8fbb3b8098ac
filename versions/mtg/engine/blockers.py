"""Who may block whom, one blocker and one attacker at a time: the facts both the legality
check (``versions.mtg.engine.blocks``) and the exact search over declarations
(``versions.mtg.engine.block_search``) are built on, below both."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from versions.mtg.engine.state import Board, Permanent

Declaration = dict[str, tuple[str, ...]]  # blocker -> the attackers it blocks


def restriction(blocker: Permanent, attacker: Permanent) -> str | None:
    """Why `blocker` can't block `attacker` (an evasion or blocking restriction), or None."""
    if attacker.has("unblockable"):
        return "it can't be blocked"
    if attacker.has("flying") and not (blocker.has("flying") or blocker.has("reach")):
        return "it has flying, and the blocker has neither flying nor reach"
    if attacker.has("shadow") and not blocker.has("shadow"):
        return "it has shadow and the blocker doesn't"
    if blocker.has("shadow") and not attacker.has("shadow"):
        return "the blocker has shadow and it doesn't"
    if attacker.has("fear") and not (blocker.artifact or "black" in blocker.colors):
        return "it has fear, and the blocker is neither an artifact creature nor black"
    for color in attacker.values("protection"):
        if color in blocker.colors:
            return f"it has protection from {color}"
    return None


def capacity(blocker: Permanent) -> int:
    if blocker.has("can-block-any-number"):
        return 10**6
    return 1 + blocker.count("can-block-additional")


@dataclass(frozen=True)
class Group:
    """One declaration of blockers: `player` declares it (for a team, its first player in
    turn order), with the creatures of `players`, for `attackers`."""

    player: str
    players: frozenset[str]
    attackers: frozenset[str]


def blocking_groups(board: Board) -> list[Group]:
    """Who declares blockers, in order: the defending player; in a multiplayer game each
    player being attacked (or whose planeswalker or battle is), in APNAP order, each for
    the creatures attacking them (602.4 of 2009-05-01, 802.4 after); in Two-Headed Giant
    the defending team, in one combined block (606.7c; 806.7d; 810.7d; 805.10d)."""
    table = board.table
    attacks = board.attacks
    if not table.multiplayer:
        defending = next((n for n in table.apnap(list(board.players), board.active)
                          if n != board.active), board.active)
        return [Group(defending, frozenset([defending]), frozenset(attacks))]
    if table.two_headed:
        team = table.opponents(board.active)
        return [Group(team[0], frozenset(team), frozenset(attacks))] if team else []
    by_player: dict[str, set[str]] = {}
    for a in attacks:
        defending = board.defending_player(a)
        if defending is not None:
            by_player.setdefault(defending, set()).add(a)
    return [Group(p, frozenset([p]), frozenset(by_player[p]))
            for p in table.apnap(set(by_player), board.active)]


def potential_blockers(board: Board) -> list[str]:
    """Creatures of a defending player that could be declared as blockers at all."""
    attackers = list(board.attacks)
    if not board.table.two_headed:
        defenders = {board.defending_player(a) for a in attackers}
        return [
            p for p in board.order
            if (perm := board.perm(p)).on_battlefield and perm.is_creature
            and "battle" not in perm.types and perm.controller in defenders
            and p not in board.attacks and not perm.tapped and not perm.has("cant-block")
        ]
    return [
        p for p in board.order
        if (perm := board.perm(p)).on_battlefield and perm.is_creature
        and "battle" not in perm.types
        and any(board.defends(perm.controller, a) for a in attackers)
        and p not in board.attacks and not perm.tapped and not perm.has("cant-block")
    ]


def blockable(board: Board, blocker: str) -> list[str]:
    """Attackers `blocker` may block, one at a time, without breaking a restriction."""
    b = board.perm(blocker)
    return [a for a in board.attacks
            if board.defends(b.controller, a)
            and restriction(b, board.perm(a)) is None]


def choices(can: Sequence[str], capacity: int) -> Iterator[tuple[str, ...]]:
    """Everything a blocker may do, from the attackers it may block (`blockable`) and how
    many at once (`capacity`): not block, or block a set of them. A generator: a creature
    that can block any number of 24 attackers has 16 million options, which must never be
    held in memory at once."""
    yield ()
    for n in range(1, min(capacity, len(can)) + 1):
        yield from combinations(can, n)


@dataclass(frozen=True)
class Limits:
    """An attacker is blocked by no creature, or by at least `least` and at most `most`."""

    least: int
    most: int | None

    @property
    def top(self) -> int:
        """The level that stands for "this many or more" in the search's counts."""
        return self.least if self.most is None else self.most + 1

    def allows(self, n: int) -> bool:
        return n == 0 or (n >= self.least and (self.most is None or n <= self.most))


def limits(board: Board, attacker: str) -> Limits | None:
    """How many creatures may block `attacker`, or None where any number may."""
    a = board.perm(attacker)
    least, most = 1, None
    if a.has("menace"):
        least = 2
    for n in a.values("cant-be-blocked-except-by"):
        least = max(least, n)
    if a.has("cant-be-blocked-by-more-than-one"):
        most = 1
    if a.has("must-be-blocked-by-all"):
        # Every creature "defending player" controls: in Two-Headed Giant both defending
        # players' (606.7a: all other references mean both).
        least = max(least, sum(1 for p in board.permanents.values() if p.on_battlefield
                               and p.is_creature and board.defends(p.controller, attacker)))
    return None if least <= 1 and most is None else Limits(least, most)
