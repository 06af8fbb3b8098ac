"""What every game's exploration shares (explore contract, docs/contract/explore.md): the
options of the command, a line of play, what a subtree reaches, how a decision's options
combine into the value with best play, and one era's result as the contract's JSON.

A game's explorer (``comparator.games.<game>.explore``) walks its own game tree and
builds ``Reach``es with ``combine``; the command's driver is ``comparator.explore``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

OBJECTIVES = ("material", "kills", "life")
FIELDS = ("end-of-turn", "all")
BLOCKS = ("fixed", "all")
DEFAULT_LIMIT = 1_000_000

# A line of play as a linked list, so that subtrees can share their tails.
Line = tuple[dict[str, Any], "Line"] | None


# However high --limit goes, a single decision never lists more options than this: the list
# itself would not fit in memory.
MAX_OPTIONS = 10_000_000


# What a refusal says, by how the search met its bound; {n} is the count reached, {limit}
# the limit and {listed} the most options a decision lists under it (never more than
# MAX_OPTIONS, whatever the limit).
TOO_LARGE = {
    # Counted as it went: lines played out, or the lines merged states stand for.
    "counted": "more than {limit} lines of play (reached {n})",
    # A lower bound on the lines, divisions counted and not listed (``LineBound``).
    "bound": "more than {limit} lines of play (at least {n}, counted before they were "
             "all searched)",
    # Before it began: one line played, each decision's options multiplied.
    "estimated": "about {n:.2g} lines of play, estimated before searching (the limit is "
                 "{limit})",
    # One decision with more options than it may list, each a line of play at least.
    "decision": "a decision with {n} options, each at least one line of play (the limit is "
                "{listed})",
    # The legal block declarations, counted up to what a decision may list.
    "declarations": "more than {n} legal block declarations, each at least one line of play "
                    "(the limit is {limit})",
    # Too many declarations to walk to count the legal ones.
    "declarations-walked": "a decision of up to {n} block declarations, too many to count "
                           "the legal ones (the limit is {listed})",
    # More work than the limit allows (``most_work``) before the lines were all counted.
    "work": "more than {work} positions searched and lines played out, with the lines of "
            "play not all counted yet (the most work a limit of {limit} lines of play "
            "allows)",
}

# The work a search may do, positions with a choice searched and lines played out counted
# together: one for each WORK_PER_LINES lines of play the limit admits, and never less than
# WORK_FLOOR. A line played out costs about 0.3 ms here, a position up to 0.5 ms, and each
# holds its outcome in memory (up to 25 KB with --fields all): at the default limit, about
# ten seconds and a few hundred megabytes at most. The lines alone bound neither: 150
# damage divided among four walls is 585,276 lines, each its own outcome with --fields all
# (275 s and 14 GB).
WORK_PER_LINES = 40
WORK_FLOOR = 25_000


def most_work(limit: int) -> int:
    """The positions searched and lines played out together a search under `limit` lines
    of play may take."""
    return max(limit // WORK_PER_LINES, WORK_FLOOR)


class TooLarge(Exception):
    """A search larger than the limit, refused; `how` says which bound it met (a key of
    ``TOO_LARGE``)."""

    def __init__(self, era: str, reached: int, limit: int, how: str = "counted"):
        self.era, self.reached, self.limit, self.how = era, reached, limit, how
        super().__init__(f"{era}: {self.said()}")

    def said(self) -> str:
        return TOO_LARGE[self.how].format(n=self.reached, limit=self.limit,
                                          listed=min(self.limit, MAX_OPTIONS),
                                          work=most_work(self.limit))

    def advice(self) -> str:
        """What to do about it: raise the limit, past which a decision this large is still
        never listed."""
        listed = self.how not in ("decision", "declarations-walked") or \
            self.reached <= MAX_OPTIONS
        return "raise --limit to explore it" + ("" if listed else " (no limit lists that many)")


@dataclass
class Reach:
    """What one subtree reaches: each projected outcome (by its sorted JSON) with the number
    of lines that reach it and one example; the value with best play; its line count."""

    outcomes: dict[str, tuple[int, Line]]
    lines: int
    value: tuple[tuple[int, ...], str, Line]


def unroll(line: Line) -> list[dict[str, Any]]:
    out = []
    while line is not None:
        out.append(line[0])
        line = line[1]
    return out


class GameExplorer(Protocol):
    """What the driver needs of a game's explorer: its search, and the projected states
    (by their sorted JSON, with their scores) its Reach refers to."""

    states: dict[str, tuple[dict[str, Any], tuple[int, ...]]]

    def run(self) -> Reach | None: ...


def combine(children: Iterable[tuple[dict[str, Any], Reach, int]],
             maximise: bool) -> Reach | None:
    """A decision's subtree from its options' (each standing for `count` equivalent ones):
    outcomes and lines summed, the example of each outcome from the first option reaching
    it, the best value for the player deciding (the first option in canonical order among
    equals)."""
    outcomes: dict[str, tuple[int, Line]] = {}
    lines = 0
    best: tuple[tuple[int, ...], str, Line] | None = None
    for record, sub, count in children:
        lines += sub.lines * count
        for key, (n, example) in sub.outcomes.items():
            if key in outcomes:
                outcomes[key] = (outcomes[key][0] + n * count, outcomes[key][1])
            else:
                outcomes[key] = (n * count, (record, example))
        score = sub.value[0]
        if best is None or (score > best[0] if maximise else score < best[0]):
            best = (score, sub.value[1], (record, sub.value[2]))
    if best is None:
        return None
    return Reach(outcomes, lines, best)


class Unsupported(Exception):
    """A scenario explore can't take: more than two players in a file that names no
    multiplayer variant (contract §6.2: "Explore supports two-player scenarios; more
    players is exit 2 with a message"; docs/multiplayer.md)."""


# -- one era's result as the contract's JSON ---------------------------------------------------

def era_result(explorer: GameExplorer, reach: Reach | None) -> dict[str, Any]:
    # What the era says of the scenario's actions (one unavailable or moved there): only
    # when there is something to say, as the contract's example has no `notes`.
    notes = {"notes": explorer.notes} if getattr(explorer, "notes", None) else {}
    if reach is None:
        return {"lines": 0, "outcomes": [], "value": None, **notes}
    states = explorer.states
    rows = []
    for key, (n, example) in reach.outcomes.items():
        state, score = states[key]
        rows.append({"state": state, "score": list(score), "lines": n,
                     "example": unroll(example), "_key": key})
    rows.sort(key=lambda r: ([-s for s in r["score"]], r["_key"]))
    score, key, line = reach.value
    return {
        "lines": reach.lines,
        "outcomes": rows,
        "value": {"score": list(score), "state": states[key][0], "line": unroll(line)},
        **notes,
    }
