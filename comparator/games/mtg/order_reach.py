"""How far into a damage assignment order its creature's damage can ever reach: what lets
explore search one order for each class of orders with the same future (issue 50).

Under the M10 rules (510.1c of 2009) a creature may assign damage to a creature in its
damage assignment order only once every creature before it is assigned lethal damage. So
a creature that can deal T damage in all, in one strike or two, never reaches a position
past the first d of its order, where any d creatures before it need T or more lethal
damage between them. Two orders with the same first d creatures then offer the same
divisions at every damage step and reach the same outcomes by the same lines: only the
order announced differs. Explore searches the first order of each class in canonical
order (the prefix, then the rest in listing order) and counts the class's lines by
multiplication: the counts, outcomes, values and examples stay those of a search of
every order.

The depth is found from what may still happen, never from what happened on one line:

- T is the creature's power with every unused action that could raise it (a pump, +1/+1
  counters), times two where it has, or could be granted, first or double strike;
- each creature in the order needs its lethal damage (toughness minus damage marked), or
  1 from a source that has or could gain deathtouch (2010 on, 702.2c); none where it
  could leave the order by any other way than this damage, or be dealt damage by anything
  else (an unused action that could touch it other than making it bigger or shielding it,
  another creature in combat with it, an attacker attacking it), and the next creature
  moves up;
- where that can't be said (abilities on the battlefield that may trigger or be
  activated, keywords that change power and toughness in combat, a creature that may
  enter the order, banding, a permanent that is a creature only through another's
  effect), no two orders are put in one class.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import permutations
from math import factorial
from typing import Any

from versions.mtg.engine.combat import Combat

# Keywords whose creature's power or toughness, or whose blockers', change during combat
# by themselves, or that change who divides damage: no class of orders is sure there.
CHANGING = ("rampage", "bushido", "flanking", "banding")

# Effects an unused action may have on a creature in the order without letting the
# attacker pass it for less than its lethal damage now: it only gets bigger or shielded.
SAFE_FOR_ORDERED = ("pump", "counters", "regenerate", "prevent", "grant", "gain-life",
                    "add-mana", "prevent-all-combat-damage")


def reach_depth(combat: Combat, creature: str, others: Sequence[str],
                used: Iterable[int]) -> int:
    """How many of the first creatures of `creature`'s damage assignment order of
    `others` its combat damage can ever reach from here (len(others) where it can't be
    said)."""
    board = combat.board
    n = len(others)
    actions = board.scenario.actions
    taken = set(used)
    unused = [a for i, a in enumerate(actions) if i not in taken]
    in_combat = [p for p in board.permanents.values() if p.on_battlefield]
    if (any(p.abilities for p in in_combat) or any(p.grows for p in in_combat)
            # A creature only through another permanent's effect leaves the order when
            # that permanent leaves the battlefield, whatever names it.
            or any(p.animated_by for p in board.permanents.values())
            or any(p.has(k) for p in in_combat for k in CHANGING)
            or any(a.effect in ("enter-blocking", "activate") for a in unused)):
        return n
    source = board.perm(creature)
    power = max(source.power, 0)
    strikes = 2 if source.has("first-strike") or source.has("double-strike") else 1
    deathtouch = source.has("deathtouch")
    for a in unused:
        if creature not in a.targets and None not in a.targets:
            continue
        if a.effect == "pump":
            power += max(a.power or 0, 0)
        elif a.effect == "counters" and a.kind in (None, "+1/+1"):
            power += a.amount or 0
        elif a.effect == "grant" and a.keyword is not None:
            name = a.keyword.name
            strikes = 2 if name in ("first-strike", "double-strike") else strikes
            deathtouch = deathtouch or name == "deathtouch"
    total = power * strikes
    lethal = sorted(_lethal(combat, creature, c, unused, deathtouch) for c in others)
    depth, need = 0, 0
    for amount in lethal:  # position depth + 1 is reached if those before need less
        if need >= total:
            break
        depth += 1
        need += amount
    return depth


def _lethal(combat: Combat, creature: str, ordered: str, unused: list[Any],
            deathtouch: bool) -> int:
    """The least damage `creature` must assign `ordered` to go past it: 0 where it might
    leave the order another way, or be dealt damage by something else first."""
    board = combat.board
    p = board.perm(ordered)
    if not p.on_battlefield or not p.is_creature:
        return 0
    if creature in board.attacks:  # an attacker's blockers: blocking it alone?
        shared = len(board.blocks.get(ordered, ())) > 1
    else:  # a blocker's attackers: blocked by it alone?
        shared = len(board.blockers_of(ordered)) > 1
    # Attacked itself (a planeswalker or battle that is a creature), another creature's
    # damage may destroy it first.
    if shared or ordered in board.attacks.values():
        return 0
    for a in unused:
        touches = ordered in a.targets or None in a.targets or ordered in (
            a.source, a.sacrifice, a.attacker)
        if not touches:
            continue
        if a.effect not in SAFE_FOR_ORDERED or (
                a.effect == "pump" and (a.toughness or 0) < 0) or (
                a.effect == "counters" and a.kind not in (None, "+1/+1")):
            return 0
    need = max(0, p.toughness - p.damage)
    return min(need, 1) if deathtouch else need


@dataclass(frozen=True)
class OrderClasses:
    """The classes of orders of `creature`'s creatures with the same future: orders that
    agree on their first `depth` creatures. Creatures are compared by `rank` (listing
    order), as the canonical order of orders compares them (explore contract §6.4)."""

    creature: str
    depth: int
    rank: dict[str, int]

    def _sorted(self, ids: Iterable[str]) -> list[str]:
        return sorted(ids, key=lambda c: self.rank.get(c, 10**6))

    def canon(self, order: Sequence[str]) -> tuple[str, ...]:
        """The first order of `order`'s class: its first `depth`, then the rest in
        listing order."""
        return (*order[:self.depth], *self._sorted(order[self.depth:]))

    def classes(self, ids: Iterable[str]) -> list[tuple[tuple[str, ...], int]]:
        """Each class of orders of `ids` as (its first order, how many orders it stands
        for), in canonical order."""
        ranked = self._sorted(ids)
        depth = min(self.depth, len(ranked))
        count = factorial(len(ranked) - depth)
        return [(self.canon((*head, *(c for c in ranked if c not in head))), count)
                for head in permutations(ranked, depth)]

    def class_count(self, n: int) -> int:
        depth = min(self.depth, n)
        return factorial(n) // factorial(n - depth)
