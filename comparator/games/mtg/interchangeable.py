"""Interchangeable creatures: what lets explore search one block declaration of each class
of declarations that differ only in which of some identical creatures do what (issue 50).

Two creatures are interchangeable where nothing tells them apart but their ids: the same
controller, characteristics, damage, counters and effects, what they attack, no abilities
of their own, and no action or written choice of the scenario naming either. Swapping
them is then a symmetry of the game: the lines of play from a declaration with the two
swapped are those of the declaration, with the two swapped, and so are the outcomes they
reach. So explore searches the first declaration of each class in canonical order, and
every other one of the class is the first's result with its creatures renamed: the same
outcomes, line counts and value as a search of each (a test compares both); an outcome
first reached through a renamed declaration has a renamed line as its example.

Only declarations in which no creature blocks more than one attacker are put in classes
(what two attackers blocked by one creature assign to it depends on which assigns first);
the others are searched one by one.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import fields
from typing import Any

from comparator.games.exploration import Line, Reach
from comparator.text.encoding import sorted_json
from versions.mtg.engine.blocks import Declaration
from versions.mtg.engine.combat import Combat
from versions.mtg.engine.state import Permanent

# What a creature's signature leaves out: its id, and what is derived from what is in it.
UNSIGNED = ("id", "name", "base_names", "lki")

# Abilities that pick a creature by the engine's own choice rather than a decision.
PICKING = ("sacrifice-creature", "mana")


class Symmetry:
    """The classes of interchangeable creatures at a block declaration, and how two
    declarations of one class map onto each other."""

    def __init__(self, combat: Combat, classes: dict[str, int]):
        board = combat.board
        self.classes = classes  # creature -> its class
        self.rank = {pid: i for i, pid in enumerate(board.order)}
        self.attackers = sorted(board.attacks, key=self.rank.__getitem__)
        members: dict[int, list[str]] = {}
        for pid in sorted(classes, key=self.rank.__getitem__):
            members.setdefault(classes[pid], []).append(pid)
        self.members = list(members.values())

    @classmethod
    def of(cls, combat: Combat, names_shown: bool = False) -> Symmetry | None:
        """The symmetry of the board about to declare blocks, or None where no two
        creatures are interchangeable (or where it can't be said). `names_shown`: the
        outcomes show the cards in hands and graveyards (`--fields all`)."""
        board = combat.board
        scenario = board.scenario
        if (board.stack or board.pending or board.delayed or board.bands or board.blocks
                or board.damage_orders or board.not_attacked or board.fogged
                or board.band_blocks or getattr(board, "source_shields", None)):
            return None
        if any(a.activated in PICKING for p in board.permanents.values()
               for a in p.abilities):
            return None
        # What names a creature: an action, a written choice, a permanent animated by it
        # (it stops being a creature as that one leaves), and, where the outcomes show
        # hands and graveyards by card name, its id as its card's name.
        named: set[str] = {p.animated_by for p in board.permanents.values() if p.animated_by}
        if names_shown:
            named.update(pid for pid, p in board.permanents.items() if p.name == pid)
        for a in scenario.actions:
            named.update(t for t in a.targets if t is not None)
            named.update(x for x in (a.source, a.sacrifice, a.attacker, a.from_, a.id) if x)
            if a.effect == "return-creature-cards":
                return None
        # What the scenario writes for `run` (orders, amounts by step) names creatures too.
        named.update(_ids(scenario.combat.order), _ids(scenario.combat.assign))
        signatures: dict[Hashable, list[str]] = {}
        for pid in board.order:
            p = board.perm(pid)
            if (pid in named or not p.on_battlefield or not p.is_creature or p.abilities
                    or p.is_planeswalker or "battle" in p.types or p.has("banding")
                    or (pid in board.attacks and board.attacks[pid] in board.permanents)):
                continue
            signatures.setdefault(_signature(p, board.attacks.get(pid), pid in board.blocked),
                                  []).append(pid)
        classes = {pid: i for i, members in enumerate(
            m for m in signatures.values() if len(m) > 1) for pid in members}
        return cls(combat, classes) if classes else None

    def _label(self, pid: str) -> tuple[str, Any]:
        return ("class", self.classes[pid]) if pid in self.classes else ("id", pid)

    def form(self, decl: Declaration) -> tuple[Hashable, Shape] | None:
        """What every declaration of `decl`'s class has in common, and `decl`'s shape
        (for ``mapping``); None for one that is its own class (a creature blocking more
        than one attacker)."""
        blockers: dict[str, dict[Any, list[str]]] = {a: {} for a in self.attackers}
        for blocker in sorted(decl, key=self.rank.__getitem__):
            attackers = decl[blocker]
            if len(attackers) != 1:
                return None
            blockers[attackers[0]].setdefault(self._label(blocker), []).append(blocker)
        signatures = {a: (self._label(a), tuple(sorted(
            (label, len(bs)) for label, bs in by_label.items())))
            for a, by_label in blockers.items()}
        return tuple(sorted(signatures.values())), (signatures, blockers)

    def mapping(self, first: Shape, other: Shape) -> dict[str, str]:
        """The renaming of creatures that makes the declaration of shape `first` into
        the one of shape `other` (of one class)."""
        mine, my_blockers = first
        theirs, their_blockers = other
        sigma: dict[str, str] = {}
        pending = list(theirs)  # in listing order
        # Each attacker onto the first of `other`'s with the same blockers' classes, and
        # its blockers onto that attacker's, class by class in listing order.
        for a, sig in mine.items():
            b = next(x for x in pending if theirs[x] == sig)
            pending.remove(b)
            sigma[a] = b
            for label, blockers in my_blockers[a].items():
                sigma.update(zip(blockers, their_blockers[b][label], strict=True))
        # Those of a class that block nothing, in listing order, onto each other.
        onto = set(sigma.values())
        for pids in self.members:
            left = [p for p in pids if p not in sigma]
            if left:
                sigma.update(zip(left, [p for p in pids if p not in onto], strict=True))
        return {x: y for x, y in sigma.items() if x != y}


# A declaration's shape: each attacker's signature (its label, and how many of each
# label block it), and its blockers by label in listing order.
Shape = tuple[dict[str, tuple[Any, ...]], dict[str, dict[Any, list[str]]]]


def _ids(written: Any) -> set[str]:
    """Every key and text in a written map of maps and lists."""
    if isinstance(written, dict):
        return set().union(*(({k} if isinstance(k, str) else set()) | _ids(v)
                             for k, v in written.items()))
    if isinstance(written, (list, tuple)):
        return set().union(*(_ids(v) for v in written))
    return {written} if isinstance(written, str) else set()


def _signature(p: Permanent, attacks: str | None, blocked: bool) -> Hashable:
    own = tuple((f.name, repr(getattr(p, f.name))) for f in fields(p)
                if f.name not in UNSIGNED)
    # A card's name is part of what it is, unless it is only its id (no card, no name).
    return (own, p.name if p.name != p.id else None, attacks, blocked)


class Renaming:
    """A Reach with its creatures renamed (`sigma`), its states added to the explorer's
    states (`states`: sorted JSON -> (state, score)) as the search adds them. Hands and
    graveyards are not renamed: they show cards by name, and a creature named by its id
    is in no class where they are shown."""

    def __init__(self, states: dict[str, tuple[dict[str, Any], tuple[int, ...]]]):
        self.states = states
        self.keys: dict[tuple[str, tuple[tuple[str, str], ...]], str] = {}
        # The order the game asks for orders and divisions in (``seat``).
        self.turn: dict[str, int] = {}
        self.attackers: frozenset[str] = frozenset()

    def seat(self, board: Any) -> None:
        """Where each creature's decisions come in a step: orders of attackers before
        blockers' (509.2-509.3), each in APNAP listing order, as divisions (510.1)."""
        self.turn = {pid: i for i, pid in enumerate(board.listing_order())}
        self.attackers = frozenset(board.attacks)

    def reach(self, reach: Reach, sigma: dict[str, str]) -> Reach:
        if not sigma:
            return reach
        frozen = tuple(sorted(sigma.items()))
        outcomes = {self._key(key, sigma, frozen): (n, self._line(example, sigma))
                    for key, (n, example) in reach.outcomes.items()}
        score, key, line = reach.value
        return Reach(outcomes, reach.lines,
                     (score, self._key(key, sigma, frozen), self._line(line, sigma)))

    def _line(self, line: Line, sigma: dict[str, str]) -> Line:
        """The line with its creatures renamed, its decisions in the order the game asks
        for them: the creatures that order or divide one after another in a step are
        asked in listing order, which renaming does not keep."""
        records: list[dict[str, Any]] = []
        while line is not None:
            records.append(_record(line[0], sigma))
            line = line[1]
        i = 0
        while i < len(records):
            j = i + 1
            kind = records[i]["kind"]
            while (kind in ("order", "divide") and j < len(records)
                   and records[j]["kind"] == kind and records[j]["step"] == records[i]["step"]):
                j += 1
            records[i:j] = sorted(records[i:j], key=self._seat)
            i = j
        out: Line = None
        for record in reversed(records):
            out = (record, out)
        return out

    def _seat(self, record: dict[str, Any]) -> tuple[int, int]:
        creature = record.get("creature")
        blocker_order = record["kind"] == "order" and creature not in self.attackers
        return (int(blocker_order), self.turn.get(creature, -1))

    def _key(self, key: str, sigma: dict[str, str],
             frozen: tuple[tuple[str, str], ...]) -> str:
        found = self.keys.get((key, frozen))
        if found is not None:
            return found
        state, score = self.states[key]
        renamed = self._state(state, sigma)
        new = sorted_json(renamed)
        self.states.setdefault(new, (renamed, score))
        self.keys[(key, frozen)] = new
        return new

    def _state(self, state: dict[str, Any], sigma: dict[str, str]) -> dict[str, Any]:
        back = {y: x for x, y in sigma.items()}
        permanents = state["permanents"]
        # The same ids in the same order: each now holds what its preimage held.
        renamed: dict[str, Any] = {
            **state, "permanents": {pid: permanents[back.get(pid, pid)] for pid in permanents}}
        return renamed


def _record(record: dict[str, Any], sigma: dict[str, str]) -> dict[str, Any]:
    def s(x: Any) -> Any:
        return sigma.get(x, x) if isinstance(x, str) else x

    kind = record["kind"]
    new = dict(record)
    if "creature" in record:
        new["creature"] = s(record["creature"])
    match kind:
        case "blocks":
            new["choice"] = {s(b): [s(a) for a in v] if isinstance(v, list) else s(v)
                             for b, v in record["choice"].items()}
        case "order":
            new["choice"] = [s(c) for c in record["choice"]]
        case "divide":
            new["choice"] = {s(k): n for k, n in record["choice"].items()}
        case "act":
            new["target"] = s(record.get("target"))
        case "trigger-order":
            new["choice"] = [f"{s(t.split(': ', 1)[0])}: {t.split(': ', 1)[1]}"
                             if ": " in t else t for t in record["choice"]]
    return new
