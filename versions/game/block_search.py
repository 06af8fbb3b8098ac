"""509.1c at scale: how many requirements a block declaration can obey at most, found
exactly without walking every declaration; how many declarations break no restriction;
and the maximal declarations, lazily, in the order `blocks.declarations` walks them.

Why it can be exact and fast: a requirement concerns one blocker (`must-block`: it blocks;
`lure`: it blocks that attacker), so without menace each blocker's best is independent of
the others'. Menace is the only tie between blockers (its attacker is blocked by none or
by two or more), so the search runs blocker by blocker keeping, as its state, only how
many blockers (0, 1, or 2 and more) each menace attacker has that a later blocker could
still add to: a frontier that is small unless many menace attackers can each be blocked
by many creatures. For a blocker, only which menace attackers it blocks is a real
choice; what else it blocks is best chosen on its own (the attackers it is required to
block, up to its capacity; else, to obey `must-block`, any one).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb

from versions.game.state import Game

Declaration = dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Blocker:
    """One potential blocker as the search sees it."""

    id: str
    capacity: int
    can: tuple[str, ...]  # every attacker it may block, in the order of the attacks
    menace: tuple[str, ...]  # menace attackers it may block
    plain: tuple[str, ...]  # the other attackers it may block
    lure: tuple[str, ...]  # attackers it is required to block
    must: bool  # required to block if able
    free: bool  # no cost to block: only such creatures are ever required to block

    def fill(self, taken: int) -> tuple[str, ...]:
        """Beside `taken` menace attackers, the other attackers it best blocks: those it is
        required to block, up to its capacity; else, to obey `must-block`, any one."""
        room = self.capacity - taken
        fill = tuple(a for a in self.lure if a in self.plain)[:max(room, 0)]
        if not taken and not fill and self.must and self.plain and room > 0:
            fill = self.plain[:1]
        return fill

    def obeys(self, blocked: tuple[str, ...]) -> int:
        """The requirements on this blocker that blocking `blocked` obeys."""
        return sum(1 for a in blocked if a in self.lure) + (self.must and bool(blocked))

    def best_rest(self, chosen: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
        """With `chosen` menace attackers blocked: the most requirements this blocker can
        obey, and the whole set of attackers it blocks to obey them."""
        fill = self.fill(len(chosen))
        blocked = tuple(a for a in self.can if a in chosen or a in fill)
        return self.obeys(blocked), blocked

    def ways(self, taken: int) -> int:
        """Declarations of this blocker once it blocks `taken` menace attackers."""
        room = self.capacity - taken
        return sum(comb(len(self.plain), k) for k in range(min(room, len(self.plain)) + 1))


def plan(game: Game, free_only: bool) -> list[Blocker]:
    from versions.game.blocks import blockable, capacity, potential_blockers

    lure = {a for a in game.attacks if game.perm(a).has("lure")}
    out = []
    for b in potential_blockers(game):
        perm = game.perm(b)
        free = perm.block_cost == 0
        if free_only and not free:
            continue
        can = blockable(game, b)
        menace = tuple(a for a in can if game.perm(a).has("menace"))
        plain = tuple(a for a in can if a not in menace)
        required = tuple(a for a in can if a in lure) if free else ()
        out.append(Blocker(b, capacity(perm), tuple(can), menace, plain, required,
                           free and perm.has("must-block") and bool(can), free))
    return out


Counts = tuple[tuple[int, int], ...]  # per class of menace attackers: (with 1, with 2+)
Move = tuple[tuple[int, int, int], ...]  # per class the blocker may block: how many it
#   blocks of those with 0, with 1, with 2+ blockers so far


class Search:
    """The blockers in order, and the menace attackers in classes of interchangeable ones
    (the same blockers may block them, and the same requirements ask for them): the state
    after each blocker is, per class, how many have one blocker and how many two or more,
    which keeps the state small even with many menace attackers."""

    def __init__(self, game: Game, free_only: bool) -> None:
        lure = {a for a in game.attacks if game.perm(a).has("lure")}
        self.blockers = plan(game, free_only)
        classes: dict[tuple[bool, tuple[int, ...]], list[str]] = {}
        for a in game.attacks:
            able = tuple(i for i, b in enumerate(self.blockers) if a in b.menace)
            if able:
                classes.setdefault((a in lure, able), []).append(a)
        self.members = list(classes.values())
        self.lure = [key[0] for key in classes]
        self.last = [key[1][-1] for key in classes]
        self.of = {a: c for c, members in enumerate(self.members) for a in members}
        self.reach = [[c for c, key in enumerate(classes) if i in key[1]]
                      for i in range(len(self.blockers))]
        self.start: Counts = tuple((0, 0) for _ in self.members)
        self._future: dict[tuple[int, Counts], int] = {}

    def moves(self, i: int, state: Counts) -> Iterator[tuple[Move, Counts | None]]:
        """Blocker i's choices of menace attackers, by class, and the state after each
        (None: a menace attacker would end with exactly one blocker)."""
        cap = self.blockers[i].capacity
        reach = self.reach[i]

        def pick(j: int, room: int) -> Iterator[Move]:
            if j == len(reach):
                yield ()
                return
            ones, twos = state[reach[j]]
            zeros = len(self.members[reach[j]]) - ones - twos
            for k0 in range(min(zeros, room) + 1):
                for k1 in range(min(ones, room - k0) + 1):
                    for k2 in range(min(twos, room - k0 - k1) + 1):
                        for rest in pick(j + 1, room - k0 - k1 - k2):
                            yield ((k0, k1, k2), *rest)

        for move in pick(0, cap):
            after = list(state)
            for c, (k0, k1, _) in zip(reach, move, strict=True):
                ones, twos = state[c]
                after[c] = (ones + k0 - k1, twos + k1)
            yield move, self._settle(i, after)

    def _settle(self, i: int, after: list[tuple[int, int]]) -> Counts | None:
        for c in self.reach[i]:
            if self.last[c] == i:
                if after[c][0]:
                    return None
                after[c] = (0, 0)  # no blocker to come: how many it has matters no more
        return tuple(after)

    def gain(self, i: int, move: Move) -> int:
        """Requirements blocker i obeys with this move, the rest of its blocks chosen best."""
        b = self.blockers[i]
        taken = sum(sum(k) for k in move)
        lured = sum(sum(k) for c, k in zip(self.reach[i], move, strict=True)
                    if self.lure[c]) if b.free else 0
        fill = b.fill(taken)
        return lured + sum(1 for a in fill if a in b.lure) + (b.must and bool(taken or fill))

    def future(self, i: int, state: Counts) -> int:
        """The most requirements blockers i, i+1, … can still obey from this state (-1:
        none of their choices keeps menace)."""
        if i == len(self.blockers):
            return 0
        key = (i, state)
        if key not in self._future:
            best = -1
            for move, after in self.moves(i, state):
                if after is not None and (rest := self.future(i + 1, after)) >= 0:
                    best = max(best, self.gain(i, move) + rest)
            self._future[key] = best
        return self._future[key]

    def state_of(self, i: int, counts: dict[str, int]) -> Counts | None:
        """The state after blocker i from concrete counts of blockers per attacker."""
        after = [(0, 0) if self.last[c] < i else
                 (sum(1 for a in members if counts.get(a, 0) == 1),
                  sum(1 for a in members if counts.get(a, 0) >= 2))
                 for c, members in enumerate(self.members)]
        return self._settle(i, after)


def most_obeyed(game: Game) -> tuple[int, Declaration]:
    """The most requirements a restriction-respecting declaration obeys without paying a
    cost to block (509.1c), with one declaration that does."""
    search = Search(game, free_only=True)
    best = search.future(0, search.start)
    # Follow the best moves forward, naming attackers: within a class any will do.
    counts: dict[str, int] = {}
    decl: Declaration = {}
    state = search.start
    for i, b in enumerate(search.blockers):
        want = search.future(i, state)
        for move, after in search.moves(i, state):
            if after is not None and search.gain(i, move) + search.future(i + 1, after) == want:
                break
        chosen: list[str] = []
        for c, (k0, k1, k2) in zip(search.reach[i], move, strict=True):
            members = search.members[c]
            for wanted, n in ((k0, 0), (k1, 1), (k2, 2)):
                chosen += [a for a in members if min(counts.get(a, 0), 2) == n][:wanted]
        for a in chosen:
            counts[a] = counts.get(a, 0) + 1
        _, blocked = b.best_rest(tuple(a for a in b.can if a in chosen))
        if blocked:
            decl[b.id] = blocked
        state = after
    return best, decl


def count(game: Game) -> int:
    """How many declarations break no restriction (menace included), costs aside."""
    search = Search(game, free_only=False)
    frontier: dict[Counts, int] = {search.start: 1}
    for i, b in enumerate(search.blockers):
        nxt: dict[Counts, int] = {}
        for state, ways in frontier.items():
            for move, after in search.moves(i, state):
                if after is None:
                    continue
                picks = 1
                for c, (k0, k1, k2) in zip(search.reach[i], move, strict=True):
                    ones, twos = state[c]
                    zeros = len(search.members[c]) - ones - twos
                    picks *= comb(zeros, k0) * comb(ones, k1) * comb(twos, k2)
                taken = sum(sum(k) for k in move)
                nxt[after] = nxt.get(after, 0) + ways * picks * b.ways(taken)
        frontier = nxt
    return sum(frontier.values())


def reaching(game: Game, best: int) -> Iterator[Declaration]:
    """The restriction-respecting declarations that obey `best` requirements, lazily, in
    `blocks.declarations` order: a branch is entered only if a declaration obeying `best`
    lies beyond it."""
    from versions.game.blocks import options

    search = Search(game, free_only=False)
    blockers = search.blockers

    def walk(i: int, points: int, counts: dict[str, int],
             decl: Declaration) -> Iterator[Declaration]:
        if i == len(blockers):
            yield dict(decl)
            return
        b = blockers[i]
        for choice in options(game, b.id):
            menace = [a for a in choice if a in search.of]
            for a in menace:
                counts[a] = counts.get(a, 0) + 1
            after = search.state_of(i, counts)
            gained = points + b.obeys(choice)
            if after is not None and (rest := search.future(i + 1, after)) >= 0 \
                    and gained + rest >= best:
                if choice:
                    decl[b.id] = choice
                yield from walk(i + 1, gained, counts, decl)
                decl.pop(b.id, None)
            for a in menace:
                counts[a] -= 1

    if search.future(0, search.start) >= best:
        yield from walk(0, 0, {}, {})
