"""A lower bound on a search's lines of play, found without listing divisions: what lets
explore refuse a search larger than its limit in seconds, where playing its lines until
the count passes the limit would take minutes (docs/explore.md, "How `--limit` bounds
time and memory").

The game tree is walked as the search walks it (every option of every decision, merging
positions whose ``Combat.key()`` is equal, as the search does), but a divide decision is
not played on: its legal divisions are counted (``division_count``), and those of the
creatures that divide right after it in the same step, where what they may assign does not
depend on it, are multiplied in. Each division so counted is at least one line of play:

- a division explore offers (not ``permissive``, in a step with none) is legal given
  those announced before it, and stays legal whatever comes after (more damage only makes
  lethal easier), so no assignment check refuses a line through it; a creature dividing
  after it always has a division legal given those before (the default division);
- only an era whose rules leave a case unsettled refuses a line while it is played
  (``NotInEra`` from its hooks: before Urza's Saga, trample's redirection and what happens
  between first-strike and other damage); in an era that cites those rules
  (``UNSETTLED``) divisions count for nothing here, unless no such refusal can follow
  them (``_settled``).

So the bound is sound: it never exceeds the lines a search counts. It is only a bound:
what follows a division (damage on the stack, actions after it) is counted as one line.
The walk is given a budget of positions; spent, it says nothing.
"""

from __future__ import annotations

from typing import Any

from comparator.games.mtg.division_count import division_count
from versions import NotInEra
from versions.mtg.engine.choices import Decision
from versions.mtg.engine.combat import Combat, IllegalLine

# The rules an era cites where its hooks refuse a line while it is played (NotInEra), so
# that a legal division may still end in no line of play.
UNSETTLED = ("trample-unsettled", "between-strikes")


# Divisions counted for about the work of one position walked, for the budget.
COUNTED_PER_POSITION = 100


class Spent(Exception):
    """The walk examined all the positions it may."""


class LineBound:
    """``of(combat)``: at least how many lines of play the search of `combat` counts,
    up to past `stop` (a bound past it is said as found: the walk stops there)."""

    def __init__(self, options: Any, stop: int, budget: int):
        self.options = options  # the explorer's Options: each decision's options
        self.stop = stop
        self.budget = budget
        self.memo: dict[Any, int] = {}

    def of(self, combat: Combat) -> int | None:
        """The bound, or None where the budget was spent before it passed `stop`."""
        try:
            return self._bound(combat)
        except Spent:
            return None

    def _spend(self) -> None:
        self.budget -= 1
        if self.budget < 0:
            raise Spent

    def _bound(self, combat: Combat) -> int:
        try:
            d = combat.advance()
        except (IllegalLine, NotInEra):
            return 0
        if d is None:
            return 1
        self._spend()
        if d.kind == "divide":
            return self._divisions(combat, d)
        if not (d.kind == "blocks" and self.options.blocks == "fixed") and \
                d.options.count() > self.budget:
            raise Spent  # too many to walk: the search refuses it anyway, or counts them
        options = self.options.of(d)
        if len(options) == 1:
            return self._follow(combat, options[0])
        key = combat.key()
        if key in self.memo:
            return self.memo[key]
        total = 0
        for i, choice in enumerate(options):
            total += self._follow(combat if i == len(options) - 1 else combat.copy(), choice)
            if total > self.stop:
                break  # a bound still (the rest would only add)
        self.memo[key] = total
        return total

    def _follow(self, combat: Combat, choice: Any) -> int:
        try:
            combat.resume(choice)
        except (IllegalLine, NotInEra):
            return 0
        return self._bound(combat)

    def _divisions(self, combat: Combat, d: Decision) -> int:
        """The divisions of `d` and of the creatures dividing right after it whose
        targets are none of theirs, multiplied: each combination a line at least."""
        step = combat.step
        assert step is not None
        if any(r in combat.era.RULES for r in UNSETTLED) and not _settled(combat):
            return 0
        total = 1
        seen: set[str] = set()
        while True:
            o = d.options
            if o.permissive or step.unchecked or seen & set(o.targets.creatures):
                return total  # depends on the divisions before: no more counted
            n = division_count(o.board, o.creature, o.targets, o.earlier, {}, None,
                               self.stop)
            if n is None:
                return total if seen else 0
            total = min(total * n, self.stop + 1)
            if total > self.stop or n == 0:
                return total
            seen |= set(o.targets.creatures)
            self.budget -= n // COUNTED_PER_POSITION  # counting them took about that long
            self._spend()
            try:
                combat.resume(o.default())
                d = combat.advance()
            except (IllegalLine, NotInEra):
                return total  # counted already: each division is a line
            if d is None or d.kind != "divide" or combat.step is not step:
                return total


def _settled(combat: Combat) -> bool:
    """Whether no line through a division of this step can be refused by the rules
    ``UNSETTLED`` names. Each is met only in a first-strike damage step or after one (a
    regenerated attacker, a trigger between the strikes, a trampler whose blockers all
    died there), or as a trampler's damage to a blocker is dealt with another creature's
    (one blocking two attackers): in the last combat damage step, with neither on the
    board, none is."""
    step = combat.step
    assert step is not None
    board = combat.board
    if step.first_strike:
        return False
    return not any(len(board.blocks.get(b, ())) > 1 for t in board.attacks
                   if board.perm(t).has("trample") for b in board.blockers_of(t))
