"""509.1c at scale: how many requirements a block declaration can obey at most, found
exactly without walking every declaration; how many declarations break no restriction;
and the maximal declarations, lazily, in the order `blocks.declarations` walks them.

Why it can be exact and fast: a requirement concerns one blocker (`must-block`: it blocks;
`lure`: it blocks that attacker), so each blocker's best is independent of the others'
except through the restrictions that count blockers. Those are of two kinds:

- on an attacker, how many creatures may block it: none, or between `least` and `most`
  (menace: at least two; `cant-be-blocked-except-by: N`; `cant-be-blocked-by-more-than-one`;
  `must-be-blocked-by-all`: every creature its defending player controls);
- on blockers together: a creature that `cant-attack-or-block-alone` blocks only if another
  creature blocks too; one that `cant-block-unless-greater-power-blocks` (Okk) only if a
  creature with greater power blocks too.

The search runs blocker by blocker keeping, as its state, only what those restrictions
can still see: for the counted attackers, in classes of interchangeable ones, how many
have each number of blockers so far; and, where a blocker restriction exists, how many
creatures block (0, 1, 2 or more), whether one that can't block alone does, and the
greatest power of a blocking Okk and of any blocker. For the other attackers a blocker
may block, only how many it blocks matters, and then only as much as the requirements
and the blocker restrictions see: the attackers it must block first, and whether it
blocks at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice, product
from math import comb

from versions.mtg.engine.blockers import (
    Declaration,
    Limits,
    blockable,
    capacity,
    choices,
    limits,
    potential_blockers,
)
from versions.mtg.engine.state import Board


class TooMuchWork(Exception):
    """A search that examined more than its budget of blockers' choices: refused, as a
    search of more lines of play than its limit is."""

    def __init__(self, examined: int):
        self.examined = examined
        super().__init__(f"more than {examined - 1} block choices examined")


@dataclass(frozen=True)
class Blocker:
    """One potential blocker as the search sees it."""

    id: str
    capacity: int
    can: tuple[str, ...]  # every attacker it may block, in the order of the attacks
    counted: tuple[str, ...]  # attackers with limits it may block
    plain: tuple[str, ...]  # the other attackers it may block
    lure: tuple[str, ...]  # attackers it is required to block
    must: bool  # required to block if able
    free: bool  # no cost to block: only such creatures are ever required to block
    alone: bool  # can't block alone
    okk: bool  # can't block unless a creature with greater power blocks
    power: int

    def fill(self, taken: int) -> tuple[str, ...]:
        """Beside `taken` counted attackers, the plain attackers it best blocks: those it is
        required to block, up to its capacity; else, to obey `must-block`, any one."""
        room = self.capacity - taken
        fill = tuple(a for a in self.lure if a in self.plain)[:max(room, 0)]
        if not taken and not fill and self.must and self.plain and room > 0:
            fill = self.plain[:1]
        return fill

    def some(self, taken: int) -> tuple[str, ...]:
        """Its best plain blocks when it must block something (to let another creature
        block beside it): its `fill`, or else any one plain attacker."""
        fill = self.fill(taken)
        if fill or taken or not self.plain or self.capacity < 1:
            return fill
        return self.plain[:1]

    def obeys(self, blocked: tuple[str, ...]) -> int:
        """The requirements on this blocker that blocking `blocked` obeys."""
        return sum(1 for a in blocked if a in self.lure) + (self.must and bool(blocked))

    def ways(self, taken: int) -> tuple[int, int]:
        """Its declarations once it blocks `taken` counted attackers: (those blocking no
        plain attacker, those blocking some)."""
        room = self.capacity - taken
        some = sum(comb(len(self.plain), k) for k in range(1, min(room, len(self.plain)) + 1))
        return 1, some


def plan(board: Board, free_only: bool) -> list[Blocker]:

    lure = {a for a in board.attacks if board.perm(a).has("lure")}
    counted = {a for a in board.attacks if limits(board, a) is not None}
    out = []
    for b in potential_blockers(board):
        perm = board.perm(b)
        free = perm.block_cost == 0
        if free_only and not free:
            continue
        can = blockable(board, b)
        required = tuple(a for a in can if a in lure) if free else ()
        out.append(Blocker(
            b, capacity(perm), tuple(can), tuple(a for a in can if a in counted),
            tuple(a for a in can if a not in counted), required,
            free and perm.has("must-block") and bool(can), free,
            perm.has("cant-attack-or-block-alone"),
            perm.has("cant-block-unless-greater-power-blocks"), perm.power))
    return out


# Per class of counted attackers, how many members have 1, 2, ... `top` (or more) blockers.
Counts = tuple[tuple[int, ...], ...]
# What blocking restrictions see: how many creatures block (capped at 2), whether one that
# can't block alone does, the greatest power of a blocking Okk and of any blocker.
Together = tuple[int, bool, int | None, int | None]
State = tuple[Counts, Together]
# A blocker's choice of counted attackers: per class it may block, how many it picks among
# the members with 0, 1, ... top blockers so far.
Picks = tuple[tuple[int, ...], ...]
ALONE: Together = (0, False, None, None)


def together_after(g: Together, b: Blocker, blocks: bool) -> Together:
    if not blocks:
        return g
    count, alone, okk, most = g
    return (min(count + 1, 2), alone or b.alone,
            b.power if b.okk and (okk is None or b.power > okk) else okk,
            b.power if most is None or b.power > most else most)


def together_ok(g: Together) -> bool:
    count, alone, okk, most = g
    return (not alone or count >= 2) and (okk is None or (most is not None and most > okk))


class Search:
    """The blockers in order, and the counted attackers in classes of interchangeable ones
    (the same blockers may block them, the same requirements ask for them, the same limits
    hold): the state after each blocker is, per class, how many members have each number
    of blockers, which keeps it small even with many counted attackers."""

    def __init__(self, board: Board, free_only: bool, budget: int | None = None,
                 forced: tuple[str, str] | None = None) -> None:
        lure = {a for a in board.attacks if board.perm(a).has("lure")}
        self.blockers = plan(board, free_only)
        # Blocking restrictions tie blockers together only if some blocker has one.
        self.coupled = any(b.alone or b.okk for b in self.blockers)
        # The most blocker choices examined (None: no bound), and how many were.
        self.budget, self.work = budget, 0
        # (blocker, attacker): only declarations in which that blocker blocks that attacker
        # (`can_block`); the attacker, if counted, is a class of its own.
        self.forced = forced
        self.forced_at = next((i for i, b in enumerate(self.blockers)
                               if forced is not None and b.id == forced[0]), None)
        classes: dict[tuple[bool, tuple[int, ...], Limits, bool], list[str]] = {}
        for a in board.attacks:
            able = tuple(i for i, b in enumerate(self.blockers) if a in b.counted)
            found = limits(board, a)
            if able and found is not None:
                alone = forced is not None and a == forced[1]
                classes.setdefault((a in lure, able, found, alone), []).append(a)
        self.members = list(classes.values())
        self.lure = [key[0] for key in classes]
        self.last = [key[1][-1] for key in classes]
        self.limits = [key[2] for key in classes]
        self.of = {a: c for c, members in enumerate(self.members) for a in members}
        self.reach = [[c for c, key in enumerate(classes) if i in key[1]]
                      for i in range(len(self.blockers))]
        self.start: State = (tuple((0,) * self.limits[c].top
                                   for c in range(len(self.members))), ALONE)
        self._future: dict[tuple[int, State], int] = {}

    def level_counts(self, c: int, state: Counts) -> list[int]:
        """How many members of class c have 0, 1, ... top blockers."""
        at = list(state[c])
        return [len(self.members[c]) - sum(at), *at]

    def picks(self, i: int, state: Counts) -> Iterator[tuple[Picks, Counts | None]]:
        """Blocker i's choices of counted attackers, by class, and the counts after each
        (None: an attacker would end with a number of blockers its limits forbid)."""
        cap = self.blockers[i].capacity
        reach = self.reach[i]

        def pick(j: int, room: int) -> Iterator[Picks]:
            if j == len(reach):
                yield ()
                return
            at = self.level_counts(reach[j], state)

            def levels(k: int, room: int) -> Iterator[tuple[int, ...]]:
                if k == len(at):
                    yield ()
                    return
                for n in range(min(at[k], room) + 1):
                    for rest in levels(k + 1, room - n):
                        yield (n, *rest)

            for here in levels(0, room):
                for rest in pick(j + 1, room - sum(here)):
                    yield (here, *rest)

        for move in pick(0, cap):
            self.spend()
            after = list(state)
            for c, here in zip(reach, move, strict=True):
                at = self.level_counts(c, state)
                top = self.limits[c].top
                for k, n in enumerate(here):
                    at[k] -= n
                    at[min(k + 1, top)] += n
                after[c] = tuple(at[1:])
            yield move, self._settle(i, after)

    def spend(self) -> None:
        """One more blocker choice examined: past the budget, the search is refused."""
        self.work += 1
        if self.budget is not None and self.work > self.budget:
            raise TooMuchWork(self.work)

    def _settle(self, i: int, after: list[tuple[int, ...]]) -> Counts | None:
        for c in self.reach[i]:
            lim = self.limits[c]
            if lim.most is not None and after[c][lim.most]:  # level most + 1: too many
                return None
            if self.last[c] == i:
                if any(n and not lim.allows(level) for level, n in enumerate(after[c], 1)):
                    return None
                after[c] = (0,) * lim.top  # no blocker to come: its counts matter no more
        return tuple(after)

    def moves(self, i: int, state: State) -> Iterator[tuple[Picks, tuple[str, ...], State]]:
        """Blocker i's choices that can matter to the requirements and the restrictions:
        its counted attackers and its best plain blocks beside them (where blocking at all
        matters to another's restriction, also the best plain blocks that block), with the
        state after each."""
        b = self.blockers[i]
        counts, g = state
        forced = self.forced if i == self.forced_at else None
        for move, after in self.picks(i, counts):
            if after is None:
                continue
            taken = sum(sum(here) for here in move)
            if forced is not None and forced[1] in self.of:  # it must pick that attacker
                c = self.of[forced[1]]
                if not sum(move[self.reach[i].index(c)]):
                    continue
            plains = [b.fill(taken)]
            if self.coupled:  # blocking at all, or not, may matter to another's restriction
                plains += [b.some(taken)] + ([()] if not taken else [])
            if forced is not None and forced[1] not in self.of:
                # It blocks that plain attacker (and, for the restrictions, nothing else
                # of the plain ones need be said).
                plains = [(forced[1],)] if forced[1] in b.plain and taken < b.capacity else []
            for plain in dict.fromkeys(plains):
                yield move, plain, (after, together_after(g, b, bool(taken or plain)))

    def gain(self, i: int, move: Picks, plain: tuple[str, ...]) -> int:
        """Requirements blocker i obeys with these counted picks and plain blocks."""
        b = self.blockers[i]
        taken = sum(sum(here) for here in move)
        lured = sum(sum(here) for c, here in zip(self.reach[i], move, strict=True)
                    if self.lure[c]) if b.free else 0
        return lured + sum(1 for a in plain if a in b.lure) + (b.must and bool(taken or plain))

    def future(self, i: int, state: State) -> int:
        """The most requirements blockers i, i+1, … can still obey from this state (-1:
        none of their choices keeps the restrictions)."""
        if i == len(self.blockers):
            return 0 if together_ok(state[1]) else -1
        key = (i, state)
        if key not in self._future:
            best = -1
            for move, plain, after in self.moves(i, state):
                if (rest := self.future(i + 1, after)) >= 0:
                    best = max(best, self.gain(i, move, plain) + rest)
            self._future[key] = best
        return self._future[key]

    def state_of(self, i: int, counts: dict[str, int], g: Together) -> State | None:
        """The state after blocker i from concrete counts of blockers per attacker."""
        after = []
        for c, members in enumerate(self.members):
            top = self.limits[c].top
            after.append((0,) * top if self.last[c] < i else tuple(
                sum(1 for a in members if min(counts.get(a, 0), top) == level)
                for level in range(1, top + 1)))
        settled = self._settle(i, after)
        return None if settled is None else (settled, g)


def most_obeyed(board: Board) -> tuple[int, Declaration]:
    """The most requirements a restriction-respecting declaration obeys without paying a
    cost to block (509.1c), with one declaration that does (-1 and none: no declaration
    keeps the restrictions, which can't happen, as not blocking at all keeps them)."""
    search = Search(board, free_only=True)
    best = search.future(0, search.start)
    # Follow the best moves forward, naming attackers: within a class any will do.
    counts: dict[str, int] = {}
    decl: Declaration = {}
    state = search.start
    for i, b in enumerate(search.blockers):
        want = search.future(i, state)
        for move, plain, after in search.moves(i, state):
            rest = search.future(i + 1, after)
            if rest >= 0 and search.gain(i, move, plain) + rest == want:
                break
        chosen: list[str] = []
        for c, here in zip(search.reach[i], move, strict=True):
            top = search.limits[c].top
            for level, wanted in enumerate(here):
                chosen += [a for a in search.members[c]
                           if min(counts.get(a, 0), top) == level][:wanted]
        for a in chosen:
            counts[a] = counts.get(a, 0) + 1
        blocked = tuple(a for a in b.can if a in chosen or a in plain)
        if blocked:
            decl[b.id] = blocked
        state = after
    return best, decl


def count(board: Board, budget: int | None = None) -> int:
    """How many declarations break no restriction, costs aside (TooMuchWork past `budget`
    blocker choices examined)."""
    search = Search(board, free_only=False, budget=budget)
    frontier: dict[State, int] = {search.start: 1}
    for i, b in enumerate(search.blockers):
        nxt: dict[State, int] = {}
        for (counts, g), ways in frontier.items():
            for move, after in search.picks(i, counts):
                if after is None:
                    continue
                picks, taken = _chosen(search, i, counts, move)
                none, some = b.ways(taken)
                for blocks_plain, n in ((False, none), (True, some)):
                    if not n:
                        continue
                    state = (after, together_after(g, b, bool(taken) or blocks_plain)
                             if search.coupled else g)
                    nxt[state] = nxt.get(state, 0) + ways * picks * n
        frontier = nxt
    return sum(n for (_, g), n in frontier.items() if together_ok(g))


def reaching(board: Board, best: int, budget: int | None = None) -> Iterator[Declaration]:
    """The restriction-respecting declarations that obey `best` requirements, lazily, in
    `blocks.declarations` order: a branch is entered only if a declaration obeying `best`
    lies beyond it. Past `budget` blocker choices examined, TooMuchWork (a board where no
    restriction counts blockers is not searched: its declarations are its choices')."""
    if independent(board):
        if best == 0:
            yield from every_choice(board)
            return
        at_best = each_at_its_best(board, best)
        if at_best is not None:
            ids = [b.id for b in at_best]
            yield from _combinations(ids, lambda i: at_best[i].options)
            return
    search = Search(board, free_only=False, budget=budget)
    blockers = search.blockers

    def walk(i: int, points: int, counts: dict[str, int], g: Together,
             decl: Declaration) -> Iterator[Declaration]:
        if i == len(blockers):
            yield dict(decl)
            return
        b = blockers[i]
        for choice in choices(b.can, b.capacity):
            search.spend()
            counted = [a for a in choice if a in search.of]
            for a in counted:
                counts[a] = counts.get(a, 0) + 1
            after = search.state_of(i, counts, together_after(g, b, bool(choice)))
            gained = points + b.obeys(choice)
            if after is not None and (rest := search.future(i + 1, after)) >= 0 \
                    and gained + rest >= best:
                if choice:
                    decl[b.id] = choice
                yield from walk(i + 1, gained, counts, after[1], decl)
                decl.pop(b.id, None)
            for a in counted:
                counts[a] -= 1

    if search.future(0, search.start) >= best:
        yield from walk(0, 0, {}, ALONE, {})


def can_block(board: Board, blocker: str, attacker: str, budget: int | None = None) -> bool:
    """Whether some declaration breaking no restriction has `blocker` block `attacker`
    (costs and requirements aside), found by the search rather than by walking the
    declarations: the search with that choice forced on that blocker."""
    search = Search(board, free_only=False, budget=budget, forced=(blocker, attacker))
    if search.forced_at is None or attacker not in search.blockers[search.forced_at].can:
        return False
    return search.future(0, search.start) >= 0


def count_obeying(board: Board, best: int, budget: int | None = None) -> int:
    """How many declarations break no restriction and obey at least `best` requirements,
    costs aside: `count`, with the requirements each obeys carried along (a blocker's
    plain attackers counted by how many it blocks and how many of them it is required to
    block)."""
    search = Search(board, free_only=False, budget=budget)
    frontier: dict[tuple[State, int], int] = {(search.start, 0): 1}
    for i, b in enumerate(search.blockers):
        nxt: dict[tuple[State, int], int] = {}
        lured_plain = sum(1 for a in b.plain if a in b.lure)
        other_plain = len(b.plain) - lured_plain
        for ((counts, g), points), ways in frontier.items():
            for move, after in search.picks(i, counts):
                if after is None:
                    continue
                picks, taken = _chosen(search, i, counts, move)
                lured = sum(sum(here) for c, here in zip(search.reach[i], move, strict=True)
                            if search.lure[c]) if b.free else 0
                room = b.capacity - taken
                for size in range(min(room, len(b.plain)) + 1):
                    for j in range(max(0, size - other_plain), min(lured_plain, size) + 1):
                        search.spend()
                        n = comb(lured_plain, j) * comb(other_plain, size - j)
                        blocks = bool(taken or size)
                        gained = points + lured + j + (b.must and blocks)
                        state = (after, together_after(g, b, blocks) if search.coupled
                                 else g)
                        key = (state, gained)
                        nxt[key] = nxt.get(key, 0) + ways * picks * n
        frontier = nxt
    return sum(n for ((_, g), points), n in frontier.items()
               if together_ok(g) and points >= best)


def independent(board: Board) -> bool:
    """No restriction counts blockers: no attacker has limits, no blocker needs another
    beside it. Then, where no requirement is obeyed either, each blocker's choice is free
    of the others' and every combination breaks nothing (most generated boards)."""
    return all(limits(board, a) is None for a in board.attacks) and not any(
        (p := board.perm(b)).has("cant-attack-or-block-alone")
        or p.has("cant-block-unless-greater-power-blocks") for b in potential_blockers(board))


def each_most(board: Board) -> int:
    """Where no restriction counts blockers (`independent`), the most requirements a
    declaration obeys paying no cost: each blocker's most, added up. A blocker obeys one
    requirement for each attacker with lure it blocks, and must-block by blocking at all:
    at most as many lures as it can block at once, plus one if it must block (those with a
    cost to block have no requirement: `plan`)."""
    return sum(min(b.capacity, len(b.lure)) + b.must for b in plan(board, free_only=True))


def every_choice(board: Board, blockers: list[str] | None = None) -> Iterator[Declaration]:
    """Every combination of the options of `blockers` (by default every potential blocker),
    lazily, the first blocker's choice the slowest to change: `blocks.declarations` keeps
    those that break no restriction; `reaching`, where none can be broken, takes them all."""
    blockers = potential_blockers(board) if blockers is None else blockers
    can = [(blockable(board, b), capacity(board.perm(b))) for b in blockers]
    return _combinations(blockers, lambda i: choices(*can[i]))


# A blocker with more options than this is left to the search (`each_at_its_best`): one
# that may block any number of 24 attackers has 16 million.
LISTED = 4096
# Options of all blockers together that `_combinations` lists to take their product; past
# that it walks them lazily, as a board of many blockers with thousands of options each
# must be.
PRODUCT_OPTIONS = 256


@dataclass(frozen=True)
class AtBest:
    id: str
    options: list[tuple[str, ...]]  # those obeying the most requirements it can, in order


def each_at_its_best(board: Board, best: int) -> list[AtBest] | None:
    """Where no restriction counts blockers (`independent`), each requirement concerns one
    blocker, and a declaration obeys the most requirements any can (`best`) only if each
    blocker obeys the most it can: each blocker's options that do. None if `best` is not
    that most, or a blocker has too many options to list them."""
    out = []
    most = 0
    for b in plan(board, free_only=False):
        n = min(b.capacity, len(b.can))
        if sum(comb(len(b.can), k) for k in range(n + 1)) > LISTED:
            return None
        options = list(choices(b.can, b.capacity))
        top = max(b.obeys(o) for o in options)
        most += top
        out.append(AtBest(b.id, [o for o in options if b.obeys(o) == top]))
    return out if most == best else None


def _combinations(blockers: list[str], options: Callable[[int], Iterable[tuple[str, ...]]]
                  ) -> Iterator[Declaration]:
    """Every declaration choosing, for each blocker i, one of `options(i)` (blocking
    nothing: left out), the first blocker's choice the slowest to change."""
    listed: list[list[tuple[str, ...]]] = []
    room = PRODUCT_OPTIONS
    for i in range(len(blockers)):
        first = list(islice(options(i), room + 1))
        room -= len(first)
        if room < 0:
            break
        listed.append(first)
    else:
        # Few options in all (most boards): their product, without a generator resumed per
        # blocker and declaration.
        for combo in product(*listed):
            yield {b: c for b, c in zip(blockers, combo, strict=True) if c}
        return
    del listed, first  # lazily from here: options are never all held at once

    def walk(i: int, decl: Declaration) -> Iterator[Declaration]:
        if i == len(blockers):
            yield dict(decl)
            return
        for choice in options(i):
            if choice:
                decl[blockers[i]] = choice
            yield from walk(i + 1, decl)
            decl.pop(blockers[i], None)

    yield from walk(0, {})


def _chosen(search: Search, i: int, counts: Counts, move: Picks) -> tuple[int, int]:
    """In how many ways blocker `i` can make `move` from `counts` (which attackers of each
    level it takes), and how many attackers it takes."""
    picks = 1
    for c, here in zip(search.reach[i], move, strict=True):
        for at, n in zip(search.level_counts(c, counts), here, strict=True):
            picks *= comb(at, n)
    return picks, sum(sum(here) for here in move)

