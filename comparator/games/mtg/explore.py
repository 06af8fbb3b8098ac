"""Explore for Magic: every line of play of a scenario in one era, the outcomes they reach,
and the value with best play (explore contract, docs/contract/explore.md).

The search walks the game tree of ``versions.mtg.engine.combat.Combat``: at each decision it
copies the combat once per option and goes on along each. Two combats whose state keys are
equal have the same futures, so their subtrees are computed once and shared (exact: line
counts still count every way a state is reached). Decisions with a single option are not
choices; they are taken without being recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from math import comb
from typing import Any

from comparator.games.exploration import (
    DEFAULT_LIMIT,
    MAX_OPTIONS,
    Reach,
    TooLarge,
    Unsupported,
    combine,
    most_work,
)
from comparator.games.mtg.division_count import division_count
from comparator.games.mtg.interchangeable import Renaming, Symmetry
from comparator.games.mtg.line_bound import LineBound
from comparator.games.mtg.order_reach import OrderClasses, reach_depth
from comparator.games.mtg.stack_classes import (
    STATICALLY_REFUSED,
    DealtClasses,
    shifted,
    stack_class,
    waiting_window,
)
from comparator.games.states import cards_in_name_order
from comparator.text.encoding import sorted_json
from versions import NotInEra, find_era
from versions.mtg.engine.assigned import toughness_lethal
from versions.mtg.engine.assignment import (
    TOTAL,
    TooManyDivisions,
    division_classes,
)
from versions.mtg.engine.availability import Availability
from versions.mtg.engine.blocks import Declaration, legal_count, written
from versions.mtg.engine.choices import Act, Decision, Pass
from versions.mtg.engine.combat import Combat, IllegalLine
from versions.mtg.engine.outcome import outcome
from versions.mtg.engine.state import Board
from versions.mtg.engine.steps import ASSIGNING, Step
from versions.mtg.play import exploration
from versions.mtg.scenario import FIRST_STRIKE_WINDOWS, WINDOWS, Scenario
from versions.mtg.table import Table

# A search is refused before it begins only where its estimated size is this many times
# the limit, and more than ESTIMATE_FLOOR lines: one probe's estimate can be well off (up
# to 23 times the lines counted: `docs/explore.md`), and a search
# that fits must never be refused for it. Below the floor, a search is quick whatever the
# limit, and only the lines it counts can refuse it.
ESTIMATE_MARGIN = 100
ESTIMATE_FLOOR = 10_000_000

# Decisions of up to this many options are listed and searched whatever the limit, and
# refused only by the lines of play they lead to: an option may end in no line at all (a
# line the era refuses, an illegal one), so a count of options is no count of lines.
DECISION_FLOOR = 10_000

# A search that begins to take time has its lines bounded from below (``LineBound``:
# divisions counted, not listed): once it has searched the first of these numbers of
# positions and lines played out, each bound examining at most the second number. One
# estimated at more than a tenth of the limit (one probe's estimate can be well under the
# lines counted) is bounded sooner, and before it lists a division of more than
# DECISION_FLOOR options. A bound past the limit refuses the search (soundly: it is never
# more than the lines the search would count); one that found it under the limit is not
# tried again; one that spent its budget is tried again later with more.
BOUND_CHECKS = ((10_000, 200_000), (20_000, 2_000_000))
BOUND_CHECKS_SOONER = ((4_000, 200_000), (15_000, 2_000_000))
BOUND_SOONER = 10  # estimated at more than the limit / this: bounded sooner

# Block declarations walked at most to count the legal ones (--blocks all), about a second
# of work: past it, the count of every declaration a restriction allows stands for them.
DECLARATIONS_WALKED = 100_000

# What on a dividing source makes an amount short of lethal matter: any damage destroys
# (deathtouch), each point is life gained past prevention (lifelink) or a counter
# (wither, infect), or is redirected before Urza's Saga (trample).
SHORT_READERS = ("deathtouch", "lifelink", "wither", "infect", "trample")

# The rule an action's effect is cited by, as the engine cites it.
EFFECT_RULES = {
    "pump": "pump", "grant": "pump", "damage": "noncombat-damage", "destroy": "destroy",
    "sacrifice": "sacrifice", "regenerate": "regenerate", "prevent": "prevent",
    "bounce": "bounce", "remove-from-combat": "remove-from-combat", "gain-life": "gain-life",
    "counters": "counters", "add-mana": "add-mana", "discard": "discard", "activate": "activate",
    "become-blocked": "blocked", "enter-blocking": "enter-blocking",
    "lose-life": "lose-life", "lose-keyword": "pump",
    "prevent-all-combat-damage": "prevent-all", "tap": "tap",
    "return-creature-cards": "return-cards",
}


# -- outcomes and scores ---------------------------------------------------------------------

def project(result: dict[str, Any], fields: str, board: Board) -> dict[str, Any]:
    """The outcome JSON's state, as far as `fields` sees it (contract §6.3). What survives
    the turn: life, who lost, and each permanent's zone, controller, loyalty and +1/+1
    counters where it has them."""
    if fields == "all":
        # As `diff` compares them: lines that differ only in the order cards reached a
        # graveyard at once reach one outcome.
        return cards_in_name_order({"players": result["players"],
                                    "permanents": result["permanents"]})
    permanents = {}
    for pid, p in result["permanents"].items():
        seen = {"zone": p["zone"], "controller": p["controller"]}
        if p["loyalty"] is not None:
            seen["loyalty"] = p["loyalty"]
        if p.get("counters"):  # "where present" (§6.3): counters it has, not an empty map
            seen["counters"] = p["counters"]
        permanents[pid] = seen
    # Poison counters, like life, last beyond the turn: where a player has them.
    players = {n: {"life": p["life"], "lost": p["lost"],
                   **({"poison": p["poison"]} if p.get("poison") else {})}
               for n, p in result["players"].items()}
    return {"players": players, "permanents": permanents}


class Scorer:
    """The score of an outcome from the active player's side (contract §6.3). In a
    multiplayer game (docs/multiplayer.md) the active player's side is their team (in
    Two-Headed Giant, the active team) and the other side every opponent: players who
    lost, creatures and planeswalkers gone and life lost are each side's summed, a shared
    life total counted once for its team."""

    def __init__(self, scenario: Scenario, objective: str):
        self.objective = objective
        self.active = scenario.active
        table = Table.of(scenario)
        self.side = frozenset(table.teammates(scenario.active))
        self.others = tuple(p.name for p in scenario.players if p.name not in self.side)
        self.life = {p.name: p.life for p in scenario.players}
        # Whose life is counted: each player's own, or one player for a team that shares it.
        self.counted = tuple(dict.fromkeys(
            table.teammates(p.name)[0] if table.two_headed else p.name
            for p in scenario.players))

    def __call__(self, result: dict[str, Any], board: Board) -> tuple[int, ...]:
        players = result["players"]
        side = self.side
        game_score = sum(int(players[p]["lost"]) for p in self.others) - \
            sum(int(players[p]["lost"]) for p in side)
        gone = dict.fromkeys(players, 0)
        for p in board.permanents.values():  # a token that entered and died counts too
            if (p.is_creature or p.is_planeswalker) and not p.on_battlefield:
                gone[p.controller] = gone.get(p.controller, 0) + 1
        permanents = sum(n if name not in side else -n for name, n in gone.items())
        life = sum((self.life[p] - players[p]["life"]) * (-1 if p in side else 1)
                   for p in self.counted)
        return {"material": (game_score, permanents, life), "kills": (game_score, permanents),
                "life": (game_score, life)}[self.objective]

    def moved(self, score: tuple[int, ...], lost_life: dict[str, int]) -> tuple[int, ...]:
        """The score of an outcome whose players each lost that much more life (damage to
        any player of a team that shares its life is the team's, once)."""
        more = sum(n if p not in self.side else -n for p, n in lost_life.items())
        if self.objective == "kills" or not more:
            return score
        return (*score[:-1], score[-1] + more)  # life is the last of the tuple


# -- the decisions, in canonical order (contract §6.4) -----------------------------------------

class Options:
    """Each decision's options in the contract's canonical order, and how each is recorded
    in a line of play."""

    def __init__(self, combat: Combat, blocks: str, budget: int | None = None):
        self.order = {pid: i for i, pid in enumerate(combat.board.order)}
        self.blocks = blocks
        self.budget = budget  # the most divisions one decision may have
        self.long_list: Callable[[], None] | None = None  # called before one is listed
        # Whether the outcomes show damage marked (`--fields all`): where they don't, an
        # indestructible creature's damage past lethal changes nothing they show.
        self.damage_shown = True
        # Whether nothing after combat damage can read an amount of it (no triggered
        # abilities; the outcomes show no damage): the explorer's `settles`.
        self.quiet_after = False
        self.harmless: list[bool] = []  # each action's ``_harmless``, as the explorer has it
        self.written: Declaration = written(combat.board.scenario.combat)

    def of(self, d: Decision) -> list[Any]:
        kind = d.kind
        if kind == "blocks":
            if self.blocks == "fixed":
                return [d.options.part(self.written)]
            return sorted(d.options, key=lambda decl: json.dumps(
                _blocks_map(decl), sort_keys=True))
        if kind == "order":
            return sorted(d.options, key=lambda o: [self.order.get(c, 10**6) for c in o])
        if kind == "divide":
            keys = sorted(d.options.targets.keys, key=self._recipient_rank)
            return sorted(d.options, key=lambda a: [-a.get(k, 0) for k in keys])
        return list(d.options)  # priority: pass, then actions as written; trigger orders

    def divisions(self, combat: Combat, d: Decision) -> list[tuple[dict[str, int], int]]:
        """The divide decision's options as classes of divisions with the same future,
        each as (its first division in canonical order, how many divisions it stands
        for). Two divisions are in one class when they differ only in how much more than
        lethal damage goes to creatures that will surely be destroyed by it: a creature
        not indestructible and, where players can respond before damage is dealt (damage
        on the stack), not something an unused action could touch. Lethal counts a
        prevention shield's damage too (what it prevents is the same for every amount
        past it); a regeneration shield saves the creature whatever the amount, with its
        damage removed (unless the source has wither or infect: it keeps the counters); a
        creature protected from the source is dealt none of it, so past lethal the amount
        changes nothing, unless the source has lifelink (its controller gains what is
        dealt) or trample (before Urza's Saga, trample redirected to the player what a
        blocker was dealt beyond lethal damage: nothing, from a blocker protected from
        it; A.27.Note of 1999). What an unused action could give the source counts as
        what it has. Anything else stays exact: a creature that grows with the
        graveyards, one dealt damage earlier in the step by a source it is protected
        from."""
        o = d.options
        board = combat.board
        source = board.perm(o.creature)
        keys = sorted(o.targets.keys, key=self._recipient_rank)
        step = combat.step
        assert step is not None
        waits = waiting_window(combat, step.first_strike)  # players act before it is dealt
        boost = self._boosts(combat, waits) if waits else {}
        # What the source could still be given (lifelink, wither...) counts as what it has.
        touched = boost.get(o.creature, 0) is None
        gains = touched or source.has("lifelink") or source.has("trample")
        counters = touched or source.has("wither") or source.has("infect")
        # Past lethal damage (and whatever toughness unused actions may still give it), an
        # indestructible creature stays as it is whatever the amount (it is not destroyed,
        # and losing indestructible later, or shrinking, finds it past lethal either way),
        # unless the outcomes show damage, the source puts counters or redirects trample.
        alike = not self.damage_shown and not counters and not source.has("trample")
        sure: dict[str, int | None] = {}
        for k in keys:
            p = board.permanents.get(k)
            extra = boost.get(k, 0)
            if (p is None or not p.is_creature or extra is None
                    or (p.has("indestructible") and not alike)
                    or p.grows  # the dead it would count
                    or (p.protected_from(source) and gains)
                    # Regenerated, it keeps the -1/-1 counters of the whole amount.
                    or (p.regen_shields and counters)
                    # What an earlier creature assigns it and is not dealt.
                    or any(a.amounts.get(k) and p.protected_from(board.perm(a.source))
                           for a in o.earlier)
                    or board.fog or board.fogged or board.source_shields):
                sure[k] = None  # exact
            else:
                sure[k] = max(1, toughness_lethal(board, k, o.earlier) + extra + p.prevention)
        # In the last combat damage step, where nothing after this division can read an
        # amount short of lethal (no unused action that deals damage, shrinks or
        # destroys; no trigger; no deathtouch, lifelink, wither, infect or trample on the
        # source; nobody dividing after it among the same creatures), a creature short of
        # lethal damage (and of its prevention shield) survives whatever its amount: those
        # amounts are one class too.
        # Whoever chooses for them (banding gives a division to the other player), the
        # creatures assigning after it in this step must not reach its recipients.
        later = step.creatures[len(step.done) + 1:]
        # Before Urza's Saga a line is refused where a trampler's blocker is dealt damage
        # by another creature too (``fourth._redirected``): whether an amount is 0 counts.
        unsettled = "trample-unsettled" in combat.era.RULES and any(
            board.perm(a).has("trample") for a in board.attacks)
        quiet = (self.quiet_after and not step.first_strike and not o.permissive
                 and not unsettled
                 and not touched and not any(source.has(k) for k in SHORT_READERS)
                 and not any(set(step.targets[c].keys) & set(keys) for c in later)
                 and all(harmless for i, harmless in enumerate(self.harmless)
                         if i not in _used(combat)))
        # Short of what kills it without a pump still to come: surely survives.
        alike = {k: toughness_lethal(board, k, o.earlier) + board.perm(k).prevention
                 for k in keys if quiet and sure.get(k) is not None}
        # In permissive mode the rest is checked once the player's whole assignment is made.
        rules = (TOTAL,) if o.permissive else None
        if self.budget is not None and len(keys) and comb(
                max(source.power, 0) + len(keys) - 1, len(keys) - 1) > self.budget:
            # Counted before they are listed: more than the budget is refused at once.
            found = division_count(board, o.creature, o.targets, o.earlier, sure, rules,
                                   self.budget)
            if found is not None and found > self.budget:
                raise TooManyDivisions(found)
        if self.long_list is not None and len(keys) and comb(
                max(source.power, 0) + len(keys) - 1, len(keys) - 1) > DECISION_FLOOR:
            self.long_list()  # before a long list of divisions
        return division_classes(board, o.creature, o.targets, o.earlier, sure, rules, keys,
                                budget=self.budget, alike=alike)

    @staticmethod
    def _boosts(combat: Combat, window: str) -> dict[str, int | None]:
        """How much toughness unused actions could still give each permanent before damage
        is dealt (in `window`, where it waits); None for one an unused action could touch
        in any other way (a shield, a keyword, leaving, an ability's source or cost)."""
        board = combat.board
        actions = board.scenario.actions
        used = _used(combat)
        out: dict[str, int | None] = {}
        for i, a in enumerate(actions):
            if i in used:
                continue
            refused = combat.era.action_refused(board, [], window, combat.effect_of(a),
                                                a.first_target, a.from_)
            if refused and refused[0] in STATICALLY_REFUSED:
                continue  # never before the damage (a damage prevention step's pump)
            # A shrink may destroy it first (and a shield regenerate it, its damage removed).
            raise_by = (a.toughness or 0) if a.effect == "pump" and (a.toughness or 0) >= 0 else (
                max(0, a.amount or 0) if a.effect == "counters" and a.kind in (None, "+1/+1")
                else None)
            for t in a.targets:
                if t is None:
                    continue
                if raise_by is None or out.get(t, 0) is None:
                    out[t] = None
                else:
                    out[t] = (out.get(t) or 0) + raise_by
            for x in (a.source, a.sacrifice, a.attacker):
                if x:
                    out[x] = None
            if a.effect == "prevent-all-combat-damage" or a.from_ is not None:
                # It may prevent damage to anything: every amount matters.
                return dict.fromkeys(combat.board.permanents, None)
        return out

    def _recipient_rank(self, key: str) -> tuple[int, int]:
        # Creatures in listing order; planeswalkers, battles and players last.
        if key in self.order:
            return (0, self.order[key])
        return (1, 0)

    def record(self, combat: Combat, d: Decision, choice: Any) -> dict[str, Any]:
        base = {"step": combat.board.log.step, "player": d.player}
        match d.kind:
            case "blocks":
                entry = {"kind": "blocks", "choice": _blocks_map(choice)}
            case "order":
                entry = {"kind": "order", "creature": d.options.creature, "choice": list(choice)}
            case "divide":
                entry = {"kind": "divide", "creature": d.options.creature, "choice": dict(choice)}
            case "priority" if isinstance(choice, Pass):
                entry = {"kind": "pass"}
            case "priority":
                assert isinstance(choice, Act)
                entry = {"kind": "act", "action": choice.index, "target": choice.target}
                era = combat.era
                key = EFFECT_RULES.get(choice.action.effect, "")
                if key in era.RULES:  # cite what the action does rather than priority
                    return {**base, **entry, "rule": era.rule(key)}
            case "trigger-order":
                triggers = d.options.triggers
                entry = {"kind": "trigger-order", "choice": [
                    f"{triggers[i].source}: {triggers[i].condition}" for i in choice]}
            case _:
                raise ValueError(d.kind)
        return {**base, **entry, "rule": d.rule}


def _used(combat: Combat) -> frozenset[int]:
    """The actions already taken on this line (explore's policy is ``Availability``)."""
    actions = combat.actions
    assert isinstance(actions, Availability)
    return actions.used


def action_notes(combat: Combat) -> list[dict[str, Any]]:
    """Every action none of whose windows this era's combat has, said as a note: moved to
    the nearest window that exists (`if-missing: earlier` or `later`), or unavailable
    (`skip`), as `run` places it (explore contract §6.2: a trick never drops out of a search
    silently). The first-strike windows exist when a creature has first or double strike
    as combat damage begins; read from the board as combat begins, and said so when an
    action could grant it."""
    era, board = combat.era, combat.board
    striking = any(p.has("first-strike") or p.has("double-strike")
                   for p in board.permanents.values() if p.on_battlefield and p.is_creature)
    granted = any(a.keyword is not None and a.keyword.name in ("first-strike", "double-strike")
                  for a in board.scenario.actions)

    def exists(w: str) -> bool:
        return era.has_window(w) and (w not in FIRST_STRIKE_WINDOWS or striking)

    def refused_in(action: Any, windows: list[str]) -> tuple[str, str] | None:
        """The era's rule that refuses this effect in every one of these windows, whatever
        happens (only prevention in a damage prevention step, T.10.3), or None."""
        effect = combat.effect_of(action)
        found = [era.action_refused(board, [], w, effect, action.first_target, action.from_)
                 for w in windows]
        return found[0] if found and all(r and r[0] in STATICALLY_REFUSED
                                         for r in found) else None

    notes = []
    for i, action in enumerate(board.scenario.actions):
        p = board.scenario.permanent(action.source) if action.source else None
        what = f"the {action.card or (p.card if p else None) or action.source or action.effect}" \
               f" by {action.by}"
        own = [w for w in action.windows if exists(w)]
        if own:
            if refused := refused_in(action, own):
                notes.append({"type": "action-unavailable", "action": i, "window": own[0],
                              "rule": era.rule(refused[0]),
                              "text": f"{what} can't be taken at {', '.join(own)} in "
                                      f"{era.id}: {refused[1]}"})
            continue
        written = next((w for w in action.windows if era.has_window(w)), action.window)
        at = WINDOWS.index(written)
        way = {"earlier": WINDOWS[at - 1::-1] if at else (), "later": WINDOWS[at + 1:]}.get(
            action.if_missing, ())
        to = next((w for w in way if exists(w)), None)
        refused = refused_in(action, [to]) if to else None
        text = (f"window {written} does not exist in {era.id}"
                + (" (no creature has first strike)" if written in FIRST_STRIKE_WINDOWS
                   and era.has_window(written) else "")
                + (f"; {what} would be moved to {to}, where it can't be taken: {refused[1]}"
                   if refused else f"; {what} is available at {to} instead" if to else
                   f"; {what} is not available") + f" (if-missing: {action.if_missing})"
                + ("; a line that grants first strike may place it otherwise" if granted
                   else ""))
        moved = to is not None and refused is None
        notes.append({"type": "action-moved" if moved else "action-unavailable",
                      "action": i, "window": written, **({"moved-to": to} if moved else {}),
                      "rule": era.window_missing(board.copy(), written), "text": text})
    return notes


def _blocks_map(decl: Declaration) -> dict[str, Any]:
    return {b: a[0] if len(a) == 1 else list(a) for b, a in decl.items()}


# -- the search ------------------------------------------------------------------------------

class Explorer:
    def __init__(self, scenario: Scenario, era: str, objective: str = "material",
                 fields: str = "end-of-turn", blocks: str = "fixed",
                 limit: int = DEFAULT_LIMIT, merge: bool = True,
                 progress: Callable[[int], None] | None = None):
        if len(scenario.players) > 2 and scenario.multiplayer is None:
            # Contract §6.2: two players, unless the file names its multiplayer variant
            # (contract §1.7), which says how its players' choices go (docs/multiplayer.md).
            raise Unsupported(
                f"explore supports two-player scenarios; this one has "
                f"{len(scenario.players)} and names no multiplayer variant (write "
                f"`multiplayer: {{variant: free-for-all}}` to explore it as one: "
                f"docs/multiplayer.md)")
        self.scenario = scenario
        self.era = find_era(era)()
        self.fields = fields
        self.blocks = blocks
        self.limit = limit
        self.merge = merge
        self.progress = progress
        self.score = Scorer(scenario, objective)
        self.memo: dict[Any, Reach | None] = {}
        # Once all combat damage is dealt, if nothing left can deal damage, shrink a
        # creature or trigger anything, no surviving creature can still die: damage marked
        # and power/toughness can't matter to what the end-of-turn fields show.
        self.settles = fields == "end-of-turn" and not any(
            ability.trigger for p in scenario.permanents for ability in p.abilities)
        self.harmless = [_harmless(a) for a in scenario.actions]
        # Combat damage searched once for each class of it (stack_classes), on the same
        # terms (end-of-turn fields show no damage marked; no triggers): what each class
        # reaches, with the damage that waited for each player there.
        self.stack_classes = merge and self.settles
        self.by_class: dict[Any, tuple[dict[str, int], Reach | None, dict[str, int]]] = {}
        # What each division of a decision leads to, shared by decisions alike but for the
        # dividing creature's damage assignment order (``DealtClasses``).
        self.divided: dict[Any, tuple[dict[Any, Any], dict[Any, Any]]] = {}
        self.reused = 0  # positions answered by their class's search
        self.refused_in: dict[Any, dict[str, int]] = {}  # a memo entry's refused lines
        self.states: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {}
        self.notes: list[dict[str, Any]] = []  # actions unavailable or moved in this era
        # Lines of play the era's rules can't settle (it refuses them, NotInEra): left out
        # of the search, and said in the notes, with how many positions reached one.
        self.refused_lines: dict[str, int] = {}
        self.quick: dict[Any, tuple[str, tuple[int, ...]]] = {}
        # A damage assignment order is read only once combat damage begins, unless an
        # action can make a creature enter blocking (the new blocker is placed in the
        # order): otherwise the windows before the damage are searched once for all the
        # orders of one decision (``_all_orders``), what each reaches kept order by order.
        self.orders_at_once = merge and not any(
            a.effect == "enter-blocking" for a in scenario.actions)
        self.by_order: dict[Any, dict[tuple[str, ...], Found]] = {}
        # Orders that agree as far as their creature's damage can reach are searched once
        # (``order_reach``); off, every order is searched (as tests compare).
        self.order_classes = merge
        # Block declarations that differ only in which interchangeable creatures do what
        # are searched once (``interchangeable``); off, each is searched (as tests compare).
        self.symmetric = merge and blocks == "all"
        # Damage past lethal to an indestructible creature in one class of divisions where
        # the outcomes don't show damage (``Options.divisions``); off, every amount counts.
        self.indestructible_classes = merge
        # Amounts short of lethal in one class where nothing after can read them
        # (``Options.divisions``); off, every amount counts.
        self.short_classes = merge
        self.renaming = Renaming(self.states)
        self.leaves = 0  # complete lines actually played out (the work done)
        self.visited = 0  # positions with a choice searched
        # Positions searched and lines played out together: past this, the search stops
        # whether or not its lines are all counted, so that time and memory stay bounded.
        self.work = most_work(limit)
        # The most options a decision may list: a larger decision is refused, its options
        # being each at least one line of play (every order, every legal declaration).
        self.most_options = min(max(limit, DECISION_FLOOR), MAX_OPTIONS)
        self.estimate_bound = max(ESTIMATE_MARGIN * limit, ESTIMATE_FLOOR)
        # The legal block declarations counted on each board they were counted on: the
        # estimate's probe and the search meet the same first one.
        self.declared: dict[Any, int | None] = {}
        self.bound_checks: list[tuple[int, int]] = []  # (positions, budget) still to try
        self.sooner = False

    def run(self) -> Reach | None:
        """Explore the era. Refused (TooLarge) past `limit` lines of play: counted as the
        search goes (lines actually played out) and, at the end, all of them (lines that
        merged subtrees stand for included)."""
        combat = exploration(self.era, self.scenario)
        self.renaming.seat(combat.board)
        self.options = Options(combat, self.blocks, self.most_options)
        self.options.damage_shown = self.fields == "all" or not self.indestructible_classes
        self.options.quiet_after = self.settles and self.short_classes
        self.options.harmless = self.harmless
        self.notes = action_notes(combat)
        root = combat.copy()
        estimate = self._estimate(combat)
        if estimate > self.estimate_bound:
            raise TooLarge(self.era.id, estimate, self.limit, "estimated")
        self.root = root  # bounded from below as the search takes time
        self.sooner = estimate * BOUND_SOONER > self.limit
        if self.sooner:
            self.options.long_list = self._long_list
        self.bound_checks = list(BOUND_CHECKS_SOONER if self.sooner else BOUND_CHECKS)
        found = self._search(combat)
        # By their text: the order a search meets refusals in depends on how it merges.
        self.notes += [{"type": "lines-refused", "positions": n, "text": why}
                       for why, n in sorted(self.refused_lines.items())]
        if found is not None and found.lines > self.limit:
            raise TooLarge(self.era.id, found.lines, self.limit)
        return found

    def _estimate(self, combat: Combat) -> int:
        """The size of the game tree before searching it: one line played (the first option
        of each decision), each decision's count of options multiplied (Knuth's estimate,
        from one probe). Seconds at most, where the search would take hours."""
        probe = combat.copy()
        size = 1
        while size <= self.estimate_bound:
            try:
                d = probe.advance()
            except (IllegalLine, NotInEra):
                break
            if d is None:
                break
            fixed = d.kind == "blocks" and self.blocks == "fixed"
            count = 1 if fixed else d.options.count()
            if d.kind == "blocks" and not fixed and count > 1:
                # The legal ones where a bounded walk can count them: the count without
                # walking includes declarations a restriction forbids (lure, menace).
                legal = self._declarations(d)
                count = count if legal is None else legal
            size *= max(count, 1)
            # The first option of each, but never a list of them: a division's options
            # are all listed at once, so the default division stands in for them.
            probe.resume(d.options.part(self.options.written) if fixed else d.options.default()
                         if d.kind == "divide" else next(iter(d.options)))
        return size

    def _visit(self) -> None:
        """One more position with a choice searched: past the bound, the search stops."""
        self.visited += 1
        if self.visited + self.leaves > self.work:
            raise TooLarge(self.era.id, self.work, self.limit, "work")
        # Lines played out count as work too: a few positions may each have hundreds of
        # divisions, every one played out.
        if self.bound_checks and self.visited + self.leaves >= self.bound_checks[0][0]:
            self._bound_lines()

    def _long_list(self) -> None:
        if self.bound_checks:
            self._bound_lines()

    def _bound_lines(self) -> None:
        """Refuse the search if a lower bound on its lines (``LineBound``) passes the
        limit; a bound that found it under the limit is not tried again."""
        _, budget = self.bound_checks.pop(0)
        found = LineBound(self.options, self.limit, budget).of(self.root.copy())
        if found is not None and found > self.limit:
            raise TooLarge(self.era.id, found, self.limit, "bound")
        if found is not None:
            self.bound_checks = []

    def _sized(self, d: Decision) -> None:
        """Refuse a decision with more options than it may list (``most_options``): each is
        at least one line of play. Block declarations are counted legal ones only, as far
        as a bounded walk can (``_declarations``): the count without walking them includes
        those a restriction forbids."""
        count = d.options.count()  # exact, or for blocks at most
        if count <= self.most_options:
            return
        if d.kind == "blocks":
            legal = self._declarations(d)
            if legal is None:
                raise TooLarge(self.era.id, count, self.limit, "declarations-walked")
            if legal > self.most_options:
                raise TooLarge(self.era.id, self.most_options, self.limit, "declarations")
            return
        raise TooLarge(self.era.id, count, self.limit, "decision")

    def _declarations(self, d: Decision) -> int | None:
        """The legal declarations of a blocks decision, counted up to one more than a
        decision may list; None where a walk of DECLARATIONS_WALKED can't tell."""
        board = d.options.board
        key = board.key()
        if key not in self.declared:
            self.declared[key] = legal_count(board, self.most_options, DECLARATIONS_WALKED)
        return self.declared[key]

    def _search(self, combat: Combat) -> Reach | None:
        try:
            d = combat.advance()
        except IllegalLine:
            return None
        except NotInEra as refusal:  # this line only: the others are still explored
            return self._refused(refusal)
        if d is None:
            return self._leaf(combat)
        if d.kind in ("order", "trigger-order", "priority") or (
                d.kind == "blocks" and self.blocks == "all"):
            self._sized(d)
        classes = None
        if d.kind == "divide" and self.merge:
            try:
                weighted = self.options.divisions(combat, d)
            except TooManyDivisions as many:
                raise TooLarge(self.era.id, many.found, self.limit, "decision") from None
        elif d.kind == "order" and self.merge:
            # One order searched for each class of orders with the same future.
            classes = self._order_classes(combat, d)
            weighted = classes.classes(d.options.others)
        else:
            weighted = [(o, 1) for o in self.options.of(d)]
        options = [o for o, _ in weighted]
        if len(options) == 1 and weighted[0][1] == 1:
            # Not a choice: nothing to merge here that the next choice won't merge.
            return self._follow(combat, options[0])
        self._visit()
        key = self._key(combat) if self.merge else None
        if key is not None and key in self.memo:
            return self._merged(key)
        if d.kind == "order" and self.orders_at_once:
            assert classes is not None
            return self._all_orders(combat, d, weighted, key, classes)
        kind = stack_class(combat, self.scenario.actions) if self.stack_classes else None
        if kind is not None and kind[0] in self.by_class:
            return self._from_class(key, kind)
        before = dict(self.refused_lines)
        children = []
        divisions = (DealtClasses(combat, self.scenario.actions, self.stack_classes,
                                  self.divided)
                     if d.kind == "divide" and self.merge else None)
        # Declarations that differ only in which interchangeable creatures do what: the
        # first of each class searched, the others renamed from it (``interchangeable``).
        symmetry = (Symmetry.of(combat, self.fields == "all")
                    if d.kind == "blocks" and self.symmetric else None)
        firsts: dict[Any, tuple[Any, Reach | None, dict[str, int]]] = {}
        for i, (choice, count) in enumerate(weighted):
            record = self.options.record(combat, d, choice)
            shaped = symmetry.form(choice) if symmetry is not None else None
            form = shaped[0] if shaped is not None else None
            # Not where the first met lines the era refused: their notes name creatures.
            if shaped is not None and form in firsts and not firsts[form][2]:
                first, sub, _ = firsts[form]
                if sub is not None:
                    sigma = symmetry.mapping(first, shaped[1])  # type: ignore[union-attr]
                    children.append((record, self.renaming.reach(sub, sigma), count))
                continue
            dealt = ahead = None
            if divisions is not None:
                # Many divisions lead to a state already explored: look before copying.
                ahead = divisions.key_after(choice)
                if ahead in self.memo:
                    sub = self._merged(ahead, count)
                    if sub is not None:
                        children.append((record, sub, count))
                    continue
                # Or to one of a class already explored, where the damage is dealt at once.
                dealt = divisions.of(choice)
                if dealt is not None and dealt[0] in self.by_class:
                    sub = self._from_class(ahead, dealt, count)
                    if sub is not None:
                        children.append((record, sub, count))
                    continue
            child = combat if i == len(options) - 1 else combat.copy()
            start = dict(self.refused_lines)
            # The key after a division is the one looked up above (`ahead`).
            sub = self._follow(child, choice, merge_now=True, key=ahead)
            once = self._refused_since(start)  # for one division of the class
            if count > 1:  # the class stands for `count` divisions: so do its refusals
                self._count_again(once, count - 1)
            if dealt is not None:
                self.by_class[dealt[0]] = (dealt[1], sub, once)
            if shaped is not None and form not in firsts:
                firsts[form] = (shaped[1], sub, once)
            if sub is not None:
                children.append((record, sub, count))
        found = self._combine(children, maximise=d.player in self.score.side)
        refused = self._refused_since(before)
        if key is not None:
            self.memo[key] = found
            self.refused_in[key] = refused
        if kind is not None:
            self.by_class[kind[0]] = (kind[1], found, refused)
        return found

    # -- the windows before combat damage, once for all damage assignment orders -------------
    #
    # Until combat damage begins, nothing reads the order `creature`'s controller announced
    # (509.2 for an attacker, 509.3 for a blocker of several in the M10 rules): a creature
    # leaving combat only leaves the orders it was in (``Board.remove_from_combat``), and
    # one that was to order leaves its own with it. So the positions before the damage are
    # searched once, the combat carrying the first order, and what each reaches is kept for
    # each order of the creatures still in it (``Found``: an order's Reach and the refused
    # lines met on the way, counted once per line as a search order by order counts them).
    # As combat damage begins, each order is put in place and searched as usual
    # (`_search`). The results are a search's order by order: the same outcomes, line
    # counts, values and examples (a test compares both).

    def _order_classes(self, combat: Combat, d: Decision) -> OrderClasses:
        """The classes of `d`'s orders with the same future (``order_reach``): orders
        that agree as far as the creature's damage can ever reach."""
        creature, others = d.options.creature, d.options.others
        depth = (reach_depth(combat, creature, others, _used(combat)) if self.order_classes
                 else len(others))
        return OrderClasses(creature, depth, self.options.order)

    def _all_orders(self, combat: Combat, d: Decision, weighted: list[tuple[Any, int]],
                    key: Any, classes: OrderClasses) -> Reach | None:
        """Decision `d`, a damage assignment order (an attacker's of its blockers, or a
        blocker's of the attackers it blocks): the windows until combat damage searched
        once, then combined order by order as `_search` combines any decision's options,
        each class of orders with the same future (`classes`) by its first order, its
        lines counted once for each order it stands for."""
        before = dict(self.refused_lines)
        # Announcing an order is only recorded: any order stands for all of them here.
        entry = _entries(self._order_follow(combat.copy(), classes, weighted[0][0]), classes)
        # Lines are counted from the orders' own results below, not as the walk went.
        self.refused_lines = before
        children = []
        refused: dict[str, int] = {}
        for order, count in weighted:
            reach, met = entry(order)
            _add(refused, met, count)
            if reach is not None:
                children.append((self.options.record(combat, d, order), reach, count))
        result = self._combine(children, maximise=d.player in self.score.side)
        self._count_again(refused)
        if key is not None:
            self.memo[key] = result
            self.refused_in[key] = refused
        return result

    def _orders_ahead(self, combat: Combat,
                      classes: OrderClasses) -> dict[tuple[str, ...], Found]:
        """What the first order of each class of the creatures still ordered reaches
        from here."""
        creature = classes.creature
        try:
            d = combat.advance(stop_before=Step.COMBAT_DAMAGE)
        except IllegalLine:
            return self._each_order(combat, classes, (None, {}))
        except NotInEra as refusal:
            return self._each_order(combat, classes, (None, {refusal.why: 1}))
        if d is None:
            return self._damage_begins(combat, classes)
        if d.kind in ("order", "trigger-order", "priority"):
            self._sized(d)
        options = self.options.of(d)
        if len(options) == 1:
            return self._order_follow(combat, classes, options[0])
        self._visit()
        orders = combat.board.damage_orders
        key = (creature, classes.depth, frozenset(orders.get(creature, ())), combat.key(
            board_key=combat.board.key(orders=frozenset(orders).difference([creature]))))
        if key in self.by_order:
            return self.by_order[key]
        here = _orders_of(combat, classes)  # before the last option plays on this combat
        children = []
        for i, choice in enumerate(options):
            child = combat if i == len(options) - 1 else combat.copy()
            record = self.options.record(child, d, choice)
            sub = self._order_follow(child, classes, choice)
            children.append((record, _entries(sub, classes)))
        maximise = d.player in self.score.side
        found: dict[tuple[str, ...], Found] = {}
        for order in here:
            reached = []
            refused: dict[str, int] = {}
            for record, entry in children:
                reach, met = entry(order)
                _add(refused, met)
                if reach is not None:
                    reached.append((record, reach, 1))
            found[order] = (self._combine(reached, maximise), refused)
        self.by_order[key] = found
        return found

    def _order_follow(self, combat: Combat, classes: OrderClasses,
                      choice: Any) -> dict[tuple[str, ...], Found]:
        """`choice` made on the walk before combat damage: what each order reaches."""
        try:
            combat.resume(choice)
        except IllegalLine:
            return self._each_order(combat, classes, (None, {}))
        except NotInEra as refusal:
            return self._each_order(combat, classes, (None, {refusal.why: 1}))
        return self._orders_ahead(combat, classes)

    def _each_order(self, combat: Combat, classes: OrderClasses,
                    found: Found) -> dict[tuple[str, ...], Found]:
        """A line ended (illegal, or refused) before the damage: the same for every order."""
        return {order: found for order in _orders_of(combat, classes)}

    def _damage_begins(self, combat: Combat,
                       classes: OrderClasses) -> dict[tuple[str, ...], Found]:
        """Combat damage begins: the first order of each class put in place and searched
        on (as usual)."""
        creature = classes.creature
        found = {}
        orders = _orders_of(combat, classes)
        for i, order in enumerate(orders):
            child = combat if i == len(orders) - 1 else combat.copy()
            if creature in child.board.damage_orders:
                child.board.damage_orders[creature] = list(order)
            before = dict(self.refused_lines)
            reach = self._search(child)
            found[order] = (reach, self._refused_since(before))
        return found

    def _from_class(self, key: Any, kind: tuple[Any, dict[str, int]],
                    times: int = 1) -> Reach | None:
        """A position of a class already searched: its result, moved in players' life,
        reached `times` ways."""
        self.reused += 1
        known, reach, refused = self.by_class[kind[0]]
        self._count_again(refused, times)
        self.refused_in[key] = refused
        found = self.memo[key] = shifted(reach, kind[1], known, self.states, self.score.moved)
        return found

    def _combine(self, children: list[Any], maximise: bool) -> Reach | None:
        """A decision's options combined (``combine``); past the limit, refused at once:
        a subtree alone too large needs no finishing."""
        found = combine(children, maximise)
        if found is not None and found.lines > self.limit:
            raise TooLarge(self.era.id, found.lines, self.limit)
        return found

    def _refused(self, refusal: NotInEra) -> None:
        """A line the era can't settle: counted for the notes, and left out."""
        self.refused_lines[refusal.why] = self.refused_lines.get(refusal.why, 0) + 1

    # Each refusal is counted once for every line of play that meets it, as a search of
    # every line would (a merged subtree's refusals are counted again where it is reused).

    def _merged(self, key: Any, times: int = 1) -> Reach | None:
        """A subtree already searched, reached again (`times` ways)."""
        self._count_again(self.refused_in.get(key, {}), times)
        return self.memo[key]

    def _refused_since(self, before: dict[str, int]) -> dict[str, int]:
        return {why: n - before.get(why, 0) for why, n in self.refused_lines.items()
                if n != before.get(why, 0)}

    def _count_again(self, refused: dict[str, int], times: int = 1) -> None:
        for why, n in refused.items():
            self.refused_lines[why] = self.refused_lines.get(why, 0) + n * times

    def _follow(self, combat: Combat, choice: Any, merge_now: bool = False,
                key: Any = None) -> Reach | None:
        """`key`: the position's key once `choice` is made, where the search has it."""
        try:
            combat.resume(choice)
        except IllegalLine:
            return None
        except NotInEra as refusal:
            return self._refused(refusal)
        if not (merge_now and self.merge):
            return self._search(combat)
        # Right after a choice, different orders or paths often meet already: merge
        # before the forced steps that follow are played again.
        if key is None:
            key = self._key(combat)
        if key in self.memo:
            return self._merged(key)
        before = dict(self.refused_lines)
        found = self.memo[key] = self._search(combat)
        self.refused_in[key] = self._refused_since(before)
        return found

    def _key(self, combat: Combat) -> Any:
        """The state key to merge on: the engine's, or, once nothing can change which
        creatures survive, only what the end-of-turn fields and the choices left see."""
        board = combat.board
        if (self.settles and combat.step is None and not combat.on_stack
                and not board.stack and not board.pending and not board.delayed
                and not any(t[0] in ASSIGNING for t in combat.agenda)
                and all(self.harmless[i] for i in range(len(self.harmless))
                        if i not in _used(combat))):
            d = combat.decision
            return ("settled", tuple(combat.agenda),
                    (d.kind, d.player, d.then, d.args) if d else None,
                    combat.actions.key(), board.over, board.log.step,
                    # Which windows exist, where an action's `if-missing` puts it.
                    combat.first_strike_step, combat.first_strikers,
                    tuple((p.life, p.lost, p.poison) for p in board.players.values()),
                    # Whether state-based actions, perhaps still to be checked, will
                    # destroy it: nothing later can change that, but it must be seen, with
                    # what may still save it (a regeneration shield, indestructible); and
                    # what an action still to take may need of it (untapped, a keyword).
                    tuple((p.zone, p.controller, p.loyalty, p.plus, p.minus, p.tapped,
                           tuple(p.granted), tuple(p.losses),
                           p.on_battlefield and p.is_creature and (
                               p.toughness <= 0 or p.damage >= p.toughness
                               or p.deathtouched) and (
                               p.toughness <= 0, p.regen_shields, p.has("indestructible")))
                          for p in (board.permanents[i] for i in board.order)))
        return combat.key()

    def _leaf(self, combat: Combat) -> Reach:
        self.leaves += 1
        if self.leaves > self.limit:
            raise TooLarge(self.era.id, self.leaves, self.limit)
        if self.visited + self.leaves > self.work:
            raise TooLarge(self.era.id, self.work, self.limit, "work")
        # Every 100: a merged search plays out a line every millisecond or so, and a bar
        # that moved once a second would look stuck.
        if self.progress is not None and self.leaves % 100 == 0:
            self.progress(self.leaves)
        board = combat.board
        # Most leaves repeat an outcome already met: look it up by a cheap key first.
        quick = (tuple((p.life, p.lost, p.poison) for p in board.players.values()),
                 tuple((p.zone, p.controller, p.loyalty, p.plus, p.minus, p.damage, p.power,
                        p.toughness, p.tapped) if self.fields == "all" else
                       (p.zone, p.controller, p.loyalty, p.plus, p.minus)
                       for p in (board.permanents[i] for i in board.order)),
                 tuple(p.is_creature and not p.on_battlefield for p in board.permanents.values()))
        found = self.quick.get(quick)
        if found is None:
            result = outcome(board)
            state = project(result, self.fields, board)
            key = sorted_json(state)
            score = self.score(result, board)
            self.states[key] = (state, score)
            found = self.quick[quick] = (key, score)
        key, score = found
        return Reach({key: (1, None)}, 1, (score, key, None))


# What the positions of one order reach, and the refused lines met on the way there.
Found = tuple[Reach | None, dict[str, int]]


def _orders_of(combat: Combat, classes: OrderClasses) -> list[tuple[str, ...]]:
    """The first order of each class of orders of the creatures `classes.creature` still
    orders (one, empty, if it orders none): what the orders announced become as creatures
    leave combat."""
    still = combat.board.damage_orders.get(classes.creature, ())
    return [order for order, _ in classes.classes(still)]


def _entries(found: dict[tuple[str, ...], Found],
             classes: OrderClasses) -> Callable[[Any], Found]:
    """What an order reaches, looked up in a table made where some of its creatures may
    have left combat since (the table is keyed by the first orders of the classes of
    those still in it: an order left with the same first creatures has the same future)."""
    still = set(next(iter(found)))
    return lambda order: found[classes.canon([c for c in order if c in still])]


def _add(total: dict[str, int], more: dict[str, int], times: int = 1) -> None:
    for why, n in more.items():
        total[why] = total.get(why, 0) + n * times


def _harmless(action: Any) -> bool:
    """An action that can't deal damage, shrink, destroy or remove anything, nor cost a
    permanent (so, after all combat damage, can't change which creatures survive)."""
    match action.effect:
        case "pump":
            return (action.toughness or 0) >= 0
        case "counters":  # +1/+1 only: -1/-1 shrinks, poison can lose the game
            return action.kind in (None, "+1/+1")
        case ("grant" | "gain-life" | "prevent" | "regenerate" | "add-mana"
              | "prevent-all-combat-damage"):
            return True
    return False
