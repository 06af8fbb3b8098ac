"""Classes of combat damage with the same futures, for explore's search: damage on the
stack (``stack_class``), and damage dealt as soon as it is assigned (``DealtClasses``).

Where combat damage waits on the stack (the `sixth` era: 310.4 of the 1999 and 2009-05-01
rules), every division of an attacker's damage is searched with both players' answers
before it is dealt: thousands of divisions, each with the same few answers. Most of those
searches repeat one another. Two positions that differ only in the damage on the stack
have the same lines of play and reach the same outcomes, up to a player's life, when:

- nothing left to happen reads an amount of that damage except the checks for lethal
  damage: no prevention or protection, no deathtouch, lifelink, wither or infect on a
  source, no triggered abilities, nothing that grows with the graveyards, no unused action
  that deals damage, prevents it, changes life or poison, or activates an ability;
- each creature dealt damage meets the same checks for lethal damage whatever actions are
  still taken (its damage marked plus what waits for it, against its toughness with every
  sum of the unused pumps and counters that can target it; and with no damage marked, if
  it may regenerate first, which removes its damage);
- each player dealt damage stays above 0 life: what waits for them only moves their life,
  so each outcome of one position is an outcome of the other with that player's life moved
  by the difference, and its score moved with it (the best line stays the best).

Since M10 the damage is dealt as soon as it is assigned (510.2): nothing acts between,
so the same classes hold for the division that completes the last combat damage step.

A planeswalker's or battle's damage, a protected creature's, and anything that fails these
conditions, is kept exact, source by source: those positions merge only with equal ones.
Explore's comparisons with brute force (tests/explore/test_explore.py,
tests/games/test_stack_classes.py) check the result."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from comparator.games.exploration import Reach
from comparator.text.encoding import sorted_json
from versions import NotInEra
from versions.mtg.engine.assignment import Assignment
from versions.mtg.engine.availability import Availability
from versions.mtg.engine.combat import Combat, forced_division
from versions.mtg.engine.steps import ASSIGNING
from versions.mtg.scenario import WINDOWS, Window

# Effects an unused action may have: none reads or changes an amount of damage, or life.
SAFE_EFFECTS = frozenset({
    "pump", "counters", "grant", "regenerate", "add-mana", "destroy", "sacrifice", "bounce",
    "tap", "discard", "lose-keyword", "return-creature-cards", "remove-from-combat"})
# Refusals an era makes of an effect in a window whatever the state (only prevention,
# redirection and regeneration in a damage prevention step): an action never offered.
STATICALLY_REFUSED = frozenset({"prevention-only"})
# A source's keywords that make the amount it deals matter beyond lethal.
SOURCE_KEYWORDS = frozenset({"deathtouch", "lifelink", "wither", "infect"})
# Keywords an action still to take may grant that make an amount matter: those, and
# protection (what the protected creature is assigned is then not dealt).
DAMAGE_KEYWORDS = SOURCE_KEYWORDS | {"protection"}


def waiting_window(combat: Combat, first_strike: bool) -> str | None:
    """Where this era's combat damage waits between assigning and dealing, players acting
    there: on the stack (sixth), in a damage prevention step (fourth, fifth); None where it
    is dealt at once (510.2 since M10)."""
    return next((w for w in (
        (Window.FIRST_STRIKE_DAMAGE_ON_STACK, Window.FIRST_STRIKE_DAMAGE_PREVENTION)
        if first_strike else (Window.DAMAGE_ON_STACK, Window.DAMAGE_PREVENTION))
        if combat.era.has_window(w)), None)


def stack_class(combat: Combat, actions: list[Any]) -> tuple[Any, dict[str, int]] | None:
    """The key of this position's class, with the damage each player is to be dealt (its
    shift); None where the position has no class (merged only with equal ones)."""
    if (not combat.on_stack or combat.step is not None
            # Damage on the stack (not a damage prevention step's, whose rules read the
            # amounts: only a dying creature may regenerate, and before Urza's Saga trample
            # redirects what a blocker is dealt past lethal).
            or combat.board.log.step != Window.DAMAGE_ON_STACK
            or any(t[0] in ASSIGNING for t in combat.agenda)):
        return None
    terms = Terms.of(combat, actions, Window.DAMAGE_ON_STACK)
    found = terms.classes(combat.on_stack) if terms else None
    if found is None:
        return None
    return combat.key(on_stack=("classes", found[0])), found[1]


_UNKNOWN = object()  # a class not yet asked for (None: it has none)


class DealtClasses:
    """The classes of the positions the divisions of one decision lead to: the last
    division of the last combat damage step (the creatures assigning after it having
    nothing to divide), every division legal as it is offered. Where the damage is dealt
    as soon as it is assigned (510.2 since M10), nothing acts between, so the class is that
    of the damage the step deals, on the same conditions as damage on the stack; where it
    goes on the stack (sixth), it is the class of the damage on the stack. What does not
    depend on the division is worked out once for all of them (the board does not
    change)."""

    def __init__(self, combat: Combat, actions: list[Any], classes: bool = True,
                 shared: dict[Any, tuple[dict[Any, Any], dict[Any, Any]]] | None = None):
        """`classes`: False for none (the search has them off; ``key_after`` still
        serves). `shared`: what earlier decisions found, by ``base``; this one's answers
        go there too."""
        self.combat = combat
        self.terms: Terms | None = None
        self.rest: list[Assignment] = []
        # The board's part of the key once the division is announced: the same for every
        # division (the board does not change; nor which orders still matter).
        with combat.divided({}):
            self.board_key: tuple[Any, ...] = combat.board_key()
        # The decisions of one search with the same `base` differ only in the damage
        # assignment order of the creature dividing, which no longer matters once it has
        # divided: a division leads each to the same position, but for the order its
        # amounts were announced in, which the key keeps (``Combat.key``). Its class reads
        # only the amounts: in `m10`, skyshroud-behemoth-five-blockers' 144 orders and 8
        # sets of tricks give 11,232 divisions, 6,288 keys after them, 1,646 classes.
        # Without an order, two such decisions are one position, merged before this.
        step = combat.step
        ordered = (step is not None and len(step.done) < len(step.creatures)
                   and step.creatures[len(step.done)] in combat.board.damage_orders)
        self.after, self.classes = ({}, {}) if shared is None or not ordered else (
            shared.setdefault(self.base(), ({}, {})))
        # Where the damage waits on the stack (sixth), the division leads to a position of
        # damage on the stack (``stack_class``); where a damage prevention step follows
        # (fourth, fifth), to one like M10's if nothing in that step reads an amount.
        waits = waiting_window(combat, first_strike=False)
        if not classes or step is None or step.first_strike or step.unchecked:
            return
        if waits == Window.DAMAGE_PREVENTION and not quiet_prevention_step(
                combat, actions, step.creatures):
            return
        if trample_redirects(combat, step.creatures):  # 1993: as it is dealt (no window)
            return
        for creature in step.creatures[len(step.done) + 1:]:
            forced = forced_division(combat.board, creature, step.targets[creature], True)
            if forced is None:  # another division to choose: no class yet
                return
            self.rest.append(Assignment(creature, forced))
        self.terms = Terms.of(combat, actions, waits or Window.COMBAT_DAMAGE)

    def base(self) -> tuple[Any, ...]:
        """What the positions the divisions lead to depend on besides the division: the
        decision's key, with the board's part as it will be once the division is
        announced (without the order of the creature dividing, unless it will still
        assign). The division's rule (``Combat._divided``) is read from the board and the
        step, both in it."""
        return self.combat.key(board_key=self.board_key)

    def key_after(self, amounts: dict[str, int]) -> tuple[Any, ...]:
        """``Combat.key_after_division``."""
        k = tuple(amounts.items())
        found = self.after.get(k)
        if found is None:
            found = self.after[k] = self.combat.key_after_division(amounts, self.board_key)
        return found

    def of(self, amounts: dict[str, int]) -> tuple[Any, dict[str, int]] | None:
        """The class of the position `amounts` lead to, with the damage each player is
        dealt; None if it has none."""
        k = frozenset(amounts.items())
        found = self.classes.get(k, _UNKNOWN)
        if found is _UNKNOWN:
            found = self.classes[k] = self._class_of(amounts)
        return found

    def _class_of(self, amounts: dict[str, int]) -> tuple[Any, dict[str, int]] | None:
        if self.terms is None:
            return None
        combat = self.combat
        step = combat.step
        assert step is not None
        with combat.divided(amounts):
            found = self.terms.classes([*step.done, *self.rest])
            if found is None:
                return None
            return combat.key(assigned=("classes", found[0]), board_key=self.board_key), \
                found[1]


def quiet_prevention_step(combat: Combat, actions: list[Any], creatures: list[str]) -> bool:
    """Whether the damage prevention step that follows (T.10 of 1999) reads no amount of
    the damage it deals: no action may be taken in it (only prevention and regeneration
    can be, and they read what is pending: T.10.3, G.12.1), and no trample of `creatures`
    redirects what a blocker is dealt past lethal damage (before Urza's Saga, A.27.Note)."""
    board, era = combat.board, combat.era
    if not isinstance(combat.actions, Availability):
        return False
    used = combat.actions.used
    for i, a in enumerate(actions):
        if i in used:
            continue
        if (Window.DAMAGE_PREVENTION not in a.windows
                and any(combat.window_exists(w) for w in a.windows)):
            continue  # never taken there: if-missing moves only one none of whose windows is
        refused = era.action_refused(board, [], Window.DAMAGE_PREVENTION, combat.effect_of(a),
                                     a.first_target, a.from_)
        if not (refused and refused[0] in STATICALLY_REFUSED):
            return False
    return not trample_redirects(combat, creatures)


def trample_redirects(combat: Combat, creatures: list[str]) -> bool:
    """Whether a trampler of `creatures` may redirect what a blocker is dealt past lethal
    damage, so that the amounts past lethal matter (trample before Urza's Saga, A.27.Note;
    the 1993 rulebook, p.28), or the era refuses to say."""
    board, era = combat.board, combat.era
    for c in creatures:
        if c in board.attacks and board.perm(c).has("trample"):
            try:
                if not era.trample_assigns_over(board, c):
                    return True
            except NotInEra:
                return True
    return False


@dataclass
class Terms:
    """What a position's classes of damage are made with, read once from its board: the
    actions still to take, and what they may add to each creature's toughness."""

    board: Any
    boosts: dict[str, list[int]]
    regenerating: bool  # an action still to take regenerates
    losing: bool  # an action still to take makes a creature lose a keyword
    # Read once from the board, for each permanent or source met.
    marks: dict[str, list[int]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    sources: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, combat: Combat, actions: list[Any], now: Window) -> Terms | None:
        """None if an amount of damage may matter otherwise than by lethal damage. `now`:
        the window the damage waits in, or that follows its dealing."""
        board = combat.board
        if (board.stack or board.pending or board.delayed or board.over or board.fog
                or board.fogged or board.source_shields):
            return None
        if not isinstance(combat.actions, Availability):
            return None
        live = _live(combat, actions, combat.actions.used, now)
        boosts = _unused_boosts(actions, live)
        if boosts is None:
            return None
        if any(p.lost or p.prevention or p.protection for p in board.players.values()) or any(
                p.deathtouched or p.grows for p in board.permanents.values()):
            return None
        # Protection could be lost before the damage is dealt: then what a creature
        # protected now is assigned would be dealt.
        return cls(board, boosts, any(actions[i].effect == "regenerate" for i in live),
                   any(actions[i].effect == "lose-keyword" for i in live))

    def classes(self, waiting_damage: list[Any]) -> tuple[tuple[Any, ...], dict[str, int]] | None:
        """What stands for `waiting_damage` (assignments) in the class key, and the damage
        it deals each player; None if a source's keyword makes its amount matter."""
        board = self.board
        waiting: dict[str, int] = {}
        # Kept exact, damage is kept with its sources: a creature protected from one of
        # them is dealt the others' share only.
        shares: dict[str, list[tuple[str, int]]] = {}
        for a in waiting_damage:
            if not self._plain_source(a.source):
                return None
            for target, amount in a.amounts.items():
                waiting[target] = waiting.get(target, 0) + amount
                shares.setdefault(target, []).append((a.source, amount))
        classes: list[tuple[Any, ...]] = []
        shifts: dict[str, int] = {}
        for name, player in board.players.items():  # a player dealt nothing is shifted by 0
            amount = waiting.get(name, 0)
            if player.life - amount > 0:
                shifts[name] = amount
                classes.append((name, "life"))
            else:
                classes.append((name, tuple(sorted(shares.get(name, ())))))
        for target, amount in sorted(waiting.items()):
            if target in board.players:
                continue
            kind = self.kinds.get(target)
            if kind is None:
                kind = self.kinds[target] = self._kind(board.permanents[target])
            if kind == "exact":
                classes.append((target, tuple(sorted(shares[target]))))
                continue
            p = board.permanents[target]
            if kind == "protected":
                # Damage from a source it is protected from is prevented whatever its
                # amount: only the others' share counts (a source still on the
                # battlefield, seen as it will be when its damage is dealt).
                sources = [board.permanents[src] for src, _ in shares[target]]
                if self.losing or not all(src.on_battlefield for src in sources):
                    classes.append((target, tuple(sorted(shares[target]))))
                    continue
                amount = sum(n for (_, n), src in zip(shares[target], sources, strict=True)
                             if not p.protected_from(src))
            marks = self.marks.get(target)
            if marks is None:
                marks = self.marks[target] = self._marks(p)
            reached = bisect_right(marks, amount)
            if reached != bisect_right(marks, 0):  # else as though it were dealt nothing
                classes.append((target, "lethal", tuple(marks), reached))
        return tuple(classes), shifts

    def _plain_source(self, source: str) -> bool:
        """Whether what `source` deals matters only by its amount (read once)."""
        ok = self.sources.get(source)
        if ok is None:
            p = self.board.permanents.get(source)
            ok = self.sources[source] = p is not None and not any(
                p.has(k) for k in SOURCE_KEYWORDS)
        return ok

    @staticmethod
    def _kind(p: Any) -> str:
        """How a permanent's damage counts: "exact" (not a creature on the battlefield, a
        planeswalker, a battle: source by source), "protected" (protection: by the share
        of the sources it is not protected from), or "lethal" (by its lethal amounts)."""
        if not p.on_battlefield or not p.is_creature or p.is_planeswalker or "battle" in p.types:
            return "exact"
        return "protected" if any(k.name == "protection" for k in p.keywords) else "lethal"

    def _marks(self, p: Any) -> list[int]:
        """The amounts of damage at which `p` would die, sorted: it dies of the damage if
        its damage marked plus the amount reaches its toughness with some sum of boosts,
        so an amount matters only by which of these it reaches. Regenerating before the
        damage is dealt (a shield it has, or one an action still to take may give it,
        used up by a destruction) removes the damage marked. A prevention shield prevents
        its amount of the total whoever deals it (no source has a shield here): what it
        leaves must reach lethal. Nothing later reads what is left of it."""
        sums = {0}
        for boost in self.boosts.get(p.id, ()):
            sums |= {s + boost for s in sums}
        marked = {p.damage, 0} if p.regen_shields or self.regenerating else {p.damage}
        return sorted({p.toughness + s - m + p.prevention for s in sums for m in marked})


def _live(combat: Combat, actions: list[Any], used: frozenset[int], now: Window) -> list[int]:
    """The unused actions that may still be taken from `now` on: all but those whose
    windows all lie before it, one of them a window this combat has (so `if-missing` never
    moves it: ``Availability``)."""
    at = WINDOWS.index(now)
    return [i for i, a in enumerate(actions) if i not in used and not (
        all(WINDOWS.index(w) < at for w in a.windows)
        and any(combat.window_exists(w) for w in a.windows))]


def _unused_boosts(actions: list[Any], live: list[int]) -> dict[str, list[int]] | None:
    """The toughness each action still to take (`live`) could add to each permanent
    (negative for what shrinks it), or None if one could do anything else that matters."""
    boosts: dict[str, list[int]] = {}
    for i in live:
        a = actions[i]
        if a.effect not in SAFE_EFFECTS:
            return None
        if a.effect == "grant" and (a.keyword is None or a.keyword.name in DAMAGE_KEYWORDS):
            return None
        if a.effect == "counters" and a.kind not in (None, "+1/+1", "-1/-1"):
            return None
        boost = (a.toughness or 0) if a.effect == "pump" else (
            (a.amount or 0) * (-1 if a.kind == "-1/-1" else 1) if a.effect == "counters"
            else 0)
        if boost:
            for t in a.targets:
                if t is None:
                    return None
                boosts.setdefault(t, []).append(boost)
    return boosts


def shifted(reach: Reach | None, shifts: dict[str, int], known: dict[str, int],
            states: dict[str, tuple[dict[str, Any], tuple[int, ...]]],
            move_score: Any) -> Reach | None:
    """What a position reaches, from what another of its class reaches (`known`: the
    damage waiting for each player there; `shifts`: here): each outcome with each
    player's life moved by the difference, registered in `states`."""
    moves = {p: shifts[p] - known[p] for p in shifts if shifts[p] != known[p]}
    if reach is None or not moves:
        return reach
    renamed: dict[str, str] = {}

    def moved(key: str) -> str:
        if key not in renamed:
            state, score = states[key]
            players = {n: {**p, "life": p["life"] - moves[n]} if n in moves else p
                       for n, p in state["players"].items()}
            new = {**state, "players": players}
            new_key = sorted_json(new)
            states.setdefault(new_key, (new, move_score(score, moves)))
            renamed[key] = new_key
        return renamed[key]

    score, key, line = reach.value
    return Reach({moved(k): v for k, v in reach.outcomes.items()}, reach.lines,
                 (move_score(score, moves), moved(key), line))
