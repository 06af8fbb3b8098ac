"""``Combat``: one combat under one era, from declare blockers through end of combat.

The procedure is era-agnostic; wherever the eras' rules differ it asks the era (the hooks
of ``versions.mtg.rules.Era``). It never decides for a player: at each decision it stops
with a ``Decision`` (``versions.mtg.engine.choices``) and continues when given the choice.

What is left to do is kept as data, an agenda of small steps (a ``Step`` and its
arguments; ``PROCEDURE`` maps each step to its method), not as Python's call stack. So a
run can be copied at any decision, cheaply, and each copy continued along a different
choice: that is how ``explore`` walks every line of play, and why every piece of run state
lives on this object, never on the era.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from versions.common import IllegalChoice
from versions.mtg.engine import sba
from versions.mtg.engine.assignment import (
    Assignment,
    Targets,
    chooser,
    division_problem,
    targets_of,
)
from versions.mtg.engine.attackers import AttackProblem, check_attacks
from versions.mtg.engine.bands import block_the_band
from versions.mtg.engine.blockers import blocking_groups
from versions.mtg.engine.blocks import (
    BlockProblem,
    Declaration,
    check_blocks,
    costs_owed,
    group_problems,
    mana_sources,
)
from versions.mtg.engine.choices import (
    Act,
    BlockOptions,
    Chooser,
    Decision,
    DivideOptions,
    OrderOptions,
    Pass,
    PriorityOptions,
    TriggerOrderOptions,
)
from versions.mtg.engine.damage import deal
from versions.mtg.engine.effects import Effect, NotTaken, ability_effect, apply, resolve_trigger
from versions.mtg.engine.outcome import outcome, state
from versions.mtg.engine.policy import ActionPolicy
from versions.mtg.engine.setup import new_board
from versions.mtg.engine.state import Board, PendingTrigger
from versions.mtg.engine.steps import ASSIGNING, Step
from versions.mtg.engine.triggers import ability_triggers, becomes_blocked, keyword_trigger
from versions.mtg.rules import Era
from versions.mtg.scenario import (
    FIRST_STRIKE_WINDOWS,
    Ability,
    Action,
    Scenario,
    Window,
    damage_window,
)

MAX_RESOLUTIONS = 500  # a scenario whose triggers feed each other forever stops here

Task = tuple[Step, *tuple[Any, ...]]  # a step and its arguments
# Effects that can be taken exactly when their target is a permanent on the battlefield
# (versions.mtg.engine.effects raises NotTaken for these only when it is not).
ON_A_PERMANENT = frozenset({"pump", "destroy", "sacrifice", "regenerate", "bounce", "grant",
                            "lose-keyword"})


class IllegalLine(Exception):
    """Explore: the choices made so far break a rule that is checked only once they are all
    made (a player's combat damage assignment as a whole, 510.1e): no line goes on."""


class IllegalDeclaration(IllegalChoice):
    """Written attacks or blocks the era's rules forbid, with each problem's rule."""

    def __init__(self, era: str, problems: list[AttackProblem] | list[BlockProblem]):
        self.era = era
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.message} ({p.rule})" for p in problems))


class IllegalAttacks(IllegalDeclaration):
    what = "illegal attack"


class IllegalBlocks(IllegalDeclaration):
    what = "illegal block"


@dataclass
class DamageStep:
    """One combat damage step while its damage is being assigned."""

    first_strike: bool
    creatures: tuple[str, ...]  # those that assign, active player's first (510.1)
    targets: dict[str, Targets]  # what each may assign to (nothing changes while assigning)
    done: list[Assignment] = field(default_factory=list)
    rejected: dict[str, str] = field(default_factory=dict)  # intended division refused, why
    # Explore: a division was offered that only the whole assignment can show legal.
    unchecked: bool = False


def forced_division(board: Board, creature: str, targets: Targets,
                    exploring: bool) -> dict[str, int] | None:
    """The creature's division when there is nothing to divide: all of it to what it
    attacks or to its one opponent, or none at all; None if it divides. (A script still
    announces a division to its one opponent: its intended amounts may need refusing.)"""
    if targets.or_unblocked or not (targets.unblocked or not targets.keys
                                    or (exploring and len(targets.keys) == 1)):
        return None
    power = max(board.perm(creature).power, 0)
    whole = targets.unblocked or (targets.keys[0] if targets.keys else None)
    return {whole: power} if whole and power else {}


# What assigns combat damage still to come, but the division under way and its check.
ASSIGNING_LATER = ASSIGNING - {Step.DIVIDE, Step.CHECK_ASSIGNMENT}


class Combat:
    def __init__(self, era: Era, scenario: Scenario, actions: ActionPolicy,
                 exploring: bool = False):
        self.era = era
        self.board: Board = new_board(era, scenario)
        if problems := check_attacks(self.board):
            raise IllegalAttacks(era.id, problems)
        self.actions = actions
        # Explore enumerates divisions a player may announce and refuses a line whose
        # assignment is illegal as a whole; a script's illegal division is replaced instead.
        self.exploring = exploring
        # The agenda is a stack: the last task is done next.
        self.agenda: list[Task] = [(Step.FINISH,), (Step.END_OF_COMBAT,), (Step.COMBAT_DAMAGE,),
                                   (Step.DECLARE_BLOCKERS,)]
        if _before_blocks(scenario):
            # Players get priority after attackers are declared in every era; rulesdiff
            # opens that window only where the scenario has something to do in it, so that
            # combats without one log what they always did.
            self.agenda.append((Step.WINDOW, Window.DECLARE_ATTACKERS))
        self.decision: Decision | None = None
        self.first_strike_step: bool | None = None  # undecided until combat damage begins
        self.first_strikers: frozenset[str] = frozenset()  # had it as the first step began
        self.assigned_first: frozenset[str] = frozenset()  # assigned in the first step
        self.step: DamageStep | None = None
        self.on_stack: list[Assignment] = []  # combat damage on the stack (eras with one)
        self.resolutions = 0
        self.checked_windows = frozenset() if exploring else scenario.after_windows()

    # -- driving the run --------------------------------------------------------------------

    def advance(self, stop_before: Step | None = None) -> Decision | None:
        """Carry out the procedure up to the next decision (returned) or the end (None),
        or up to the task named `stop_before`."""
        agenda = self.agenda
        board = self.board  # never replaced while it plays (only a copy gets another)
        procedure = PROCEDURE
        while self.decision is None and agenda:
            task = agenda[-1]
            step = task[0]
            if step is stop_before:
                return None
            agenda.pop()
            if board.over and step is not Step.FINISH:
                continue  # the game ended: nothing of combat is left to happen
            if len(task) == 1:
                procedure[step](self)
            else:
                procedure[step](self, *task[1:])
        return self.decision

    def resume(self, choice: Any) -> None:
        d = self.decision
        assert d is not None, "no decision is pending"
        self.decision = None
        PROCEDURE[d.then](self, choice, *d.args)

    def play(self, chooser: Chooser) -> dict[str, Any]:
        """Play the combat to its end, asking `chooser` at each decision; the outcome."""
        while (d := self.advance()) is not None:
            self.resume(chooser.choose(d.player, d.kind, d.options))
        return outcome(self.board)

    def outcome(self) -> dict[str, Any]:
        """The outcome JSON, once the combat is over."""
        return outcome(self.board)

    def copy(self) -> Combat:
        """An independent copy: the game, the agenda and the run state."""
        twin = object.__new__(Combat)
        twin.__dict__.update(self.__dict__)
        twin.board = self.board.copy()
        twin.agenda = list(self.agenda)
        if self.step is not None:
            twin.step = DamageStep(self.step.first_strike, self.step.creatures,
                                   self.step.targets, list(self.step.done),
                                   dict(self.step.rejected), self.step.unchecked)
        twin.on_stack = list(self.on_stack)
        twin.actions = self.actions.copy()
        return twin

    def key(self, on_stack: Any = None, assigned: Any = None,
            board_key: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """Everything that decides what can still happen, and nothing else (not the log):
        two combats with equal keys have the same futures, so a search may merge them.
        `on_stack`, `assigned`: what stands for the damage waiting on the stack, or
        assigned in this step, when a search knows classes of it with the same futures
        (``comparator.games.mtg.stack_classes``). `board_key`: this combat's
        ``board_key()``, where a search already has it (the same for every division of
        one decision: the board does not change)."""
        step = self.step
        d = self.decision
        return (
            tuple(self.agenda),
            (d.kind, d.player, d.then, d.args) if d else None,
            self.board_key() if board_key is None else board_key,
            self.first_strike_step, self.first_strikers, self.assigned_first,
            (step.first_strike, step.creatures,
             tuple([(a.source, tuple(a.amounts.items())) for a in step.done])
             if assigned is None else assigned,
             tuple(step.rejected.items())) if step else None,
            tuple([(a.source, tuple(a.amounts.items())) for a in self.on_stack])
            if on_stack is None else on_stack,
            self.resolutions, self.actions.key(), self.board.log.step,
        )

    def board_key(self) -> tuple[Any, ...]:
        """The board's part of ``key``."""
        step = self.step
        # A damage assignment order matters only to a creature that will still assign.
        if not ASSIGNING_LATER.isdisjoint([t[0] for t in self.agenda]):
            ordering: Any = True
        elif step is not None and step.unchecked:
            ordering = True  # the whole assignment, orders and all, is still to be checked
        elif step is not None:
            ordering = frozenset(step.creatures[len(step.done):])
        else:
            ordering = False
        return self.board.key(orders=ordering)

    def then(self, *tasks: Task) -> None:
        """Do `tasks`, in the order given, before anything already on the agenda."""
        self.agenda.extend(reversed(tasks))

    def ask(self, player: str, kind: str, options: Any, then: Step, *args: Any,
            rule: str = "") -> None:
        self.decision = Decision(player, kind, options, then, args, rule)

    def rule(self, key: str) -> str:
        return self.era.rule(key)

    # -- declare blockers (509 / 309) -------------------------------------------------------

    def _declare_blockers(self) -> None:
        board = self.board
        board.log.enter(Window.DECLARE_BLOCKERS)
        groups = blocking_groups(board)
        if len(groups) > 1 or board.table.two_headed:
            self.then((Step.GROUP_BLOCKS, 0, ()))
            return
        defending = groups[0].player if groups else \
            next(n for n in self.turn_order() if n != board.active)
        self.ask(defending, "blocks", BlockOptions(board), Step.BLOCKS_DECLARED,
                 rule=self.rule("block-untapped"))

    def _group_blocks(self, i: int, declared: tuple[tuple[str, tuple[str, ...]], ...]
                      ) -> None:
        """The `i`th defending player (or team) declares blockers, those before it having
        declared `declared` (602.4: "the first defending player declares all his or her
        blocks, then the second defending player, and so on")."""
        board = self.board
        groups = blocking_groups(board)
        group = groups[i]
        others = frozenset(p for g in groups if g is not group for p in g.players)
        key = "mp-2hg-block" if board.table.two_headed else "mp-apnap-blocks"
        self.ask(group.player, "blocks",
                 BlockOptions(board.scoped(group.attackers), group.players, others),
                 Step.GROUP_DECLARED, i, declared, rule=self.rule(key))

    def _group_declared(self, decl: Declaration, i: int,
                        declared: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        board = self.board
        groups = blocking_groups(board)
        group = groups[i]
        problems = group_problems(board, group, decl)
        if problems:
            raise IllegalBlocks(self.era.id, problems)
        two_headed = board.table.two_headed
        board.log.event("declares-blockers", self.rule(
            "mp-2hg-block" if two_headed else "mp-apnap-blocks"),
            target=group.player if not two_headed else board.table.team(group.player),
            blockers=sorted(decl))
        declared += tuple(decl.items())
        if i + 1 < len(groups):
            self.then((Step.GROUP_BLOCKS, i + 1, declared))
            return
        self._blocks_declared(dict(declared), checked=True)

    def _blocks_declared(self, decl: Declaration, checked: bool = False) -> None:
        board = self.board
        problems = [] if checked else check_blocks(board, decl)
        if problems:
            raise IllegalBlocks(self.era.id, problems)
        for blocker, attackers in decl.items():
            board.blocks[blocker] = list(attackers)
            board.blocked.update(attackers)
        self._pay_block_costs()
        for blocker, attackers in board.blocks.items():
            for attacker in attackers:
                board.log.event("block", self.rule("block"), source=blocker, target=attacker)
        for blocker in list(board.blocks):
            block_the_band(board, blocker)
        for attacker in board.attacks:
            if attacker in board.blocked:
                board.log.event("blocked", self.rule("blocked"), target=attacker,
                               blockers=board.blockers_of(attacker))
            else:
                board.log.event("unblocked", self.rule("blocked"), target=attacker)
        orders = [(Step.ORDER, creature, tuple(others), key)
                  for creature, others, key in self.era.orders_to_announce(board)]
        self.then(*orders, (Step.BLOCK_TRIGGERS,), (Step.WINDOW, Window.DECLARE_BLOCKERS))

    def _pay_block_costs(self) -> None:
        """Total the costs, make mana with mana abilities, pay. A creature sacrificed to
        pay was declared but never becomes a blocking creature; what it was declared to
        block is still a blocked creature."""
        board = self.board
        declared = {b: list(a) for b, a in board.blocks.items()}
        for player, cost in costs_owed(board, declared).items():
            board.log.event("block-cost", self.rule("block-cost"), target=player, amount=cost)
            pool = board.players[player]
            for p, i in mana_sources(board, player):
                if pool.mana >= cost:
                    break
                ability = p.abilities[i]
                board.log.event("activate", self.rule("block-mana"), source=p.id, ability=i,
                               cost=ability.activated, effect=ability.effect, card=p.name)
                if ability.activated == "tap":
                    p.tapped = True
                else:
                    board.leave_battlefield(p.id, "graveyard")
                    board.log.event("sacrifice", self.rule("block-mana"), target=p.id,
                                   card=p.name)
                pool.mana += ability.amount or 0
                board.log.event("add-mana", self.rule("block-mana"), target=player,
                               amount=ability.amount)
            pool.mana -= cost
            board.log.event("pay", self.rule("block-pay"), target=player, amount=cost)
        for blocker, attackers in declared.items():
            if blocker not in board.blocks:
                board.log.hint(self.rule("block-becomes"), (
                    f"{blocker} was declared as a blocker but left the battlefield while "
                    f"the costs to block were paid, so it never becomes a blocking creature "
                    f"({self.rule('block-becomes')}); {', '.join(attackers)} still "
                    f"became blocked ({self.rule('blocked')})."))

    def _order(self, creature: str, others: tuple[str, ...], rule_key: str) -> None:
        player = self.board.perm(creature).controller
        self.ask(player, "order", OrderOptions(self.board, creature, others), Step.ORDER_ANNOUNCED,
                 creature, rule_key, rule=self.rule(rule_key))

    def _order_announced(self, order: tuple[str, ...], creature: str, rule_key: str) -> None:
        self.board.damage_orders[creature] = list(order)
        self.board.log.event("damage-assignment-order", self.rule(rule_key), source=creature,
                            order=list(order))

    def _block_triggers(self) -> None:
        """What blocking triggers: the blocking creatures' abilities, then each attacker's."""
        board = self.board
        for blocker, attackers in board.blocks.items():
            ability_triggers(board, blocker, "blocks", other=attackers[0] if attackers else None)
            for value in board.perm(blocker).values("bushido"):
                keyword_trigger(board, blocker, "bushido", "bushido", value=value)
            for attacker in attackers:
                ability_triggers(board, blocker, "blocks-creature", other=attacker)
        blocked = set(board.blocked)
        board.blocked.clear()  # each attacker becomes blocked now, triggers and all
        for attacker in board.attacks:
            if attacker in blocked:
                becomes_blocked(board, attacker, by=board.blockers_of(attacker))
            else:
                defending = board.defending_player(attacker)
                ability_triggers(board, attacker, "attacks-unblocked", defending=defending)
                if board.attacks[attacker] in board.players:  # not a planeswalker or battle
                    ability_triggers(board, attacker, "attacks-player-unblocked",
                                     defending=defending)
        board.blocked |= blocked  # a declared blocker sacrificed to pay still blocked it

    # -- combat damage (510 / 310) ----------------------------------------------------------

    def _combat_damage(self) -> None:
        # The first-strike step exists if a creature has first or double strike as combat
        # damage begins, so only now can actions moved away from the windows that turned
        # out not to exist be placed; those moved onto declare blockers are taken at its
        # very end, which may itself grant first strike.
        self.first_strike_step = self._first_strike_now()
        if self.actions.has_late_actions(self):
            self.board.log.enter(Window.DECLARE_BLOCKERS)
            self.then((Step.PRIORITY_ROUND, Window.DECLARE_BLOCKERS), (Step.RESOLVE_STACK,),
                      (Step.COMBAT_DAMAGE,))
            return
        self.then((Step.DAMAGE_STEPS,))

    def _first_strike_now(self) -> bool:
        return any(c.has("first-strike") or c.has("double-strike")
                   for c in self.board.creatures_in_combat())

    def _damage_steps(self) -> None:
        board = self.board
        in_combat = {p.id for p in board.creatures_in_combat()}
        ordered = tuple(p for p in board.listing_order() if p in in_combat)
        if not self.first_strike_step:
            self.then((Step.DAMAGE_STEP, False, ordered))
            return
        started = frozenset(p for p in ordered if board.perm(p).has("first-strike")
                            or board.perm(p).has("double-strike"))
        self.first_strikers = started
        board.log.enter(self.era.assignment_step(first_strike=True))
        board.log.event("first-strike-step", self.rule("first-strike-step"),
                       creatures=[p for p in ordered if p in started])
        self.then((Step.DAMAGE_STEP, True, tuple(p for p in ordered if p in started)),
                  (Step.SECOND_STEP,))

    def _second_step(self) -> None:
        board = self.board
        in_combat = {c.id for c in board.creatures_in_combat()}
        now = [p for p in board.listing_order() if p in in_combat]
        second = self.era.second_step_creatures(self.board, now, self.first_strikers,
                                                self.assigned_first)
        self.then((Step.DAMAGE_STEP, False, tuple(second)))

    def _damage_step(self, first_strike: bool, creatures: tuple[str, ...]) -> None:
        self.board.log.enter(self.era.assignment_step(first_strike))
        creatures = tuple(c for c in creatures if self.era.deals_combat_damage(self.board, c))
        targets = {c: targets_of(self.board, c) for c in creatures}
        if self.board.table.multiplayer:
            self._departed_recipients(targets)
        if self.board.table.two_headed:
            self._team_recipients(targets)
        self.step = DamageStep(first_strike, creatures, targets)
        self.then((Step.DIVIDE,))

    def _team_recipients(self, targets: dict[str, Targets]) -> None:
        """Two-Headed Giant: the defending player each attacker's damage goes to (the one
        the file names it attacking), chosen by the active team now (606.7d; 806.7f;
        810.7f) or named as attackers were declared (805.10b)."""
        board = self.board
        for creature, t in targets.items():
            player = t.unblocked or t.overflow
            if creature in board.attacks and player in board.players:
                board.log.event("team-damage-to", self.rule("mp-2hg-damage"),
                                source=creature, target=player,
                                chosen=self.era.two_headed_choice)

    def _departed_recipients(self, targets: dict[str, Targets]) -> None:
        """A creature that would assign combat damage to a player who has left the game:
        the era says whether it may (``Era.departed_assignment``); where it may not, the
        player is no longer among what it assigns to."""
        players = self.board.players
        for creature, t in list(targets.items()):
            for name in ("unblocked", "overflow", "beyond", "or_unblocked"):
                player = getattr(t, name)
                if player in players and players[player].lost and \
                        not self.era.departed_assignment(self.board, creature, player):
                    t = targets[creature] = replace(t, **{name: None})

    def _divide(self) -> None:
        """510.1: each creature's division in turn, active player's creatures first."""
        step = self.step
        assert step is not None
        board = self.board
        while len(step.done) < len(step.creatures):
            creature = step.creatures[len(step.done)]
            targets = step.targets[creature]
            amounts = forced_division(board, creature, targets, self.exploring)
            if amounts is not None:
                step.done.append(Assignment(creature, amounts, targets.rule))
                continue
            permissive = self.exploring and self._shares_targets(creature)
            step.unchecked |= permissive
            options = DivideOptions(board, creature, targets, list(step.done),
                                    step.rejected.get(creature), permissive=permissive)
            self.ask(chooser(board, creature), "divide", options, Step.DIVIDED,
                     rule=targets.rule)
            return
        self.then((Step.CHECK_ASSIGNMENT,))

    def _shares_targets(self, creature: str) -> bool:
        """Whether a creature of the same player assigning later in this step could assign
        damage to one of `creature`'s: then what it may legally assign depends on them."""
        step = self.step
        assert step is not None
        board = self.board
        mine = set(step.targets[creature].creatures)
        controller = chooser(board, creature)
        later = step.creatures[step.creatures.index(creature) + 1:]
        return any(chooser(board, c) == controller
                   and mine & set(step.targets[c].creatures) for c in later)

    def key_after_division(self, amounts: dict[str, int],
                           board_key: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """The key this combat would have once the pending division is announced, without
        copying it (a search reuses what it found for that state, if anything)."""
        with self.divided(amounts):
            return self.key(board_key=board_key)

    @contextmanager
    def divided(self, amounts: dict[str, int]) -> Iterator[None]:
        """The combat as it would be once the pending division is announced, for a look
        without copying it: as it was again on leaving."""
        d = self.decision
        assert d is not None and d.kind == "divide"
        self._divided(amounts)
        self.decision = None
        try:
            yield
        finally:
            assert self.step is not None
            self.step.done.pop()
            self.agenda.pop()
            self.decision = d

    def _divided(self, amounts: dict[str, int]) -> None:
        step = self.step
        assert step is not None
        creature = step.creatures[len(step.done)]
        kept = {k: v for k, v in amounts.items() if v}
        targets = step.targets[creature]
        rule = (self.rule("assign-unblocked")
                if targets.as_unblocked(kept, max(self.board.perm(creature).power, 0))
                else targets.rule)
        step.done.append(Assignment(creature, kept, rule))
        self.then((Step.DIVIDE,))

    def _check_assignment(self) -> None:
        """The assignment is checked as a whole (510.1c-e): what another creature assigns
        in the same step counts toward lethal damage, whichever was announced first. A
        refused division is assigned anew by the default of the contract (§1.5.2)."""
        step = self.step
        assert step is not None
        board = self.board
        # Explore offers only divisions legal given those announced before them; legal so,
        # they stay legal whatever comes after (more damage only makes lethal easier).
        checked = self.exploring and not step.unchecked
        for a in [] if checked else step.done:
            targets = step.targets[a.source]
            if targets.unblocked or not targets.keys:
                continue
            others = [o for o in step.done if o.source != a.source]
            why = division_problem(board, a.source, targets, a.amounts, others)
            if why:
                if self.exploring:
                    raise IllegalLine(why)
                if a.source in step.rejected:
                    raise AssertionError(f"the default division of {a.source} is illegal")
                step.rejected[a.source] = why
                step.done.clear()
                self.then((Step.DIVIDE,))
                return
        for creature, why in step.rejected.items():
            board.log.note("illegal-assignment", self.rule("assign-check"), why,
                          creature=creature)
            self.era.assignment_refused(board, creature, why)
        assignments = [a for a in step.done if a.amounts]
        if not board.log.quiet:
            for a in assignments:
                for target, amount in a.amounts.items():
                    board.log.event("assign", a.rule, source=a.source, target=target,
                                   amount=amount)
            self.era.explain_assignment(board, assignments)
        if step.first_strike:
            self.assigned_first = frozenset(a.source for a in assignments)
        self.step = None
        waits = self.era.damage_waits(board, assignments, step.first_strike)
        if waits is None:
            self._deal([(a.source, t, n) for a in assignments for t, n in a.amounts.items()],
                       step.first_strike)
            return
        self.on_stack = assignments
        if not self.era.has_window(waits):  # it waits through no one's turn to act (1993)
            self.then((Step.DEAL_WAITING, step.first_strike))
            return
        self.then((Step.WINDOW, waits), (Step.DEAL_WAITING, step.first_strike))

    def _deal_waiting(self, first_strike: bool) -> None:
        """The damage that waited (on the stack, or through a damage prevention step) is
        dealt, as far as the era's rules still deal it."""
        self.board.log.enter(damage_window(first_strike))
        batch, after = self.era.waiting_damage_dealt(self.board, self.on_stack, first_strike)
        self.on_stack = []
        deal(self.board, batch, combat=True, rule=self.rule("damage-resolves"))
        self.era.waiting_damage_over(self.board)
        if after:
            # Damage redirected as a damage prevention step ends waits through a new one
            # (T.10.6, T.10.11 of the 1999 summary), as damage that is no longer combat
            # damage (C.1.8). That step ends first: creatures with lethal damage are
            # destroyed and what that triggers resolves (T.10.1 steps 5-6); the new one
            # "immediately follows step 6".
            self.on_stack = [Assignment(s or "", {t: n}) for s, t, n in after]
            self.then((Step.SETTLE,), (Step.RESOLVE_STACK,),
                      (Step.REDIRECTED_WAITS, first_strike))
            return
        self.then((Step.WINDOW, damage_window(first_strike)))

    def _redirected_waits(self, first_strike: bool) -> None:
        """The new damage prevention step of redirected damage (T.10.11)."""
        waits = self.era.damage_waits(self.board, self.on_stack, first_strike)
        self.then((Step.WINDOW, waits), (Step.DEAL_REDIRECTED, first_strike))

    def _deal_redirected(self, first_strike: bool) -> None:
        """The redirected damage, after its own damage prevention step."""
        self.board.log.enter(damage_window(first_strike))
        batch = [(a.source, t, n) for a in self.on_stack for t, n in a.amounts.items()]
        self.on_stack = []
        deal(self.board, batch, combat=False, rule=self.rule("damage-resolves"))
        self.era.waiting_damage_over(self.board)
        self.then((Step.WINDOW, damage_window(first_strike)))

    def _deal(self, batch: list[tuple[str | None, str, int]], first_strike: bool) -> None:
        """Deal a step's combat damage (510.2 / 310.4), then its window."""
        deal(self.board, batch, combat=True, rule=self.rule("damage-resolves"))
        self.then((Step.WINDOW, damage_window(first_strike)))

    # -- end of combat (511 / 311) ----------------------------------------------------------

    def _end_of_combat(self) -> None:
        board = self.board
        board.log.enter(Window.END_OF_COMBAT)
        board.log.event("end-of-combat", self.rule("end-of-combat"))  # the event and its rule
        board.pending.extend(board.delayed)
        board.delayed.clear()
        self.then((Step.WINDOW, Window.END_OF_COMBAT))

    def _finish(self) -> None:
        self.actions.finish(self)

    # -- windows: priority, actions, the stack ----------------------------------------------

    def _window(self, window: str) -> None:
        """A point where players get priority: state-based actions and triggers onto the
        stack; players act while those triggers wait (in response to them); when all
        pass in succession, the stack resolves."""
        self.board.log.enter(window)
        self.resolutions = 0
        if window in self.checked_windows:
            self.then((Step.SNAPSHOT, window))  # done once the window's tasks below are
        acting = [(Step.SETTLE,), (Step.PRIORITY_ROUND, window), (Step.RESOLVE_STACK,)]
        if not self.era.has_window(window):
            # A point of the procedure where this era gives players no priority (the
            # rules before Sixth, after damage dealing began): its triggers still resolve.
            self.then((Step.SETTLE,), (Step.RESOLVE_STACK,))
        elif not self.era.responds_to_triggers():  # triggers resolve before anyone acts
            self.then((Step.SETTLE,), (Step.RESOLVE_STACK,), *acting)
        else:
            self.then(*acting)

    def _snapshot(self, window: str) -> None:
        self.board.snapshots[window] = state(self.board)

    def _priority_round(self, window: str) -> None:
        self.actions.open_window(self, window)
        if self.actions.passes_only(window):
            return  # each player in turn would pass, asked nothing: the round changes nothing
        self.then((Step.PRIORITY, window, self.board.active, 0))

    def _priority(self, window: str, player: str, passes: int) -> None:
        acts = self.actions.acts(self, window, player)
        if not acts:  # nothing to do but pass: not a choice
            self._priority_taken(Pass(), window, player, passes)
            return
        can_pass = not any(a.action.required for a in acts)
        self.ask(player, "priority", PriorityOptions(window, acts, can_pass), Step.PRIORITY_TAKEN,
                 window, player, passes, rule=self.rule("priority"))

    def _priority_taken(self, choice: Pass | Act, window: str, player: str,
                        passes: int) -> None:
        if isinstance(choice, Pass):
            turn = self.turn_order()
            if passes + 1 < len(turn):
                nxt = turn[(turn.index(player) + 1) % len(turn)]
                self.then((Step.PRIORITY, window, nxt, passes + 1))
            return
        self.take(choice)
        self.then((Step.SETTLE,), (Step.PRIORITY, window, self.board.active, 0))

    def take(self, act: Act) -> None:
        board = self.board
        self.actions.taken(self, act)
        if self._departed(act.action.by):
            board.log.note("action-not-taken", self.rule("mp-leaves"),
                          f"the {act.action.effect} by {act.action.by} is not taken: "
                          f"{act.action.by} has left the game", action=act.index)
            return
        refused = self.era.action_refused(board, self.on_stack, board.log.step,
                                          self.effect_of(act.action),
                                          self.aim_of(act.action, act.target),
                                          act.action.from_)
        if refused:
            key, why = refused
            board.log.note("action-not-allowed", self.rule(key),
                          f"the {act.action.effect} by {act.action.by} is not taken: {why}",
                          action=act.index)
            return
        try:
            self._apply_action(act.action, act.target)
        except NotTaken as why:
            board.log.note("action-not-taken", self.rule("fizzle"),
                          f"the {act.action.effect} by {act.action.by} is not taken: {why}",
                          action=act.index)

    def _ability(self, action: Action) -> Ability | None:
        """The ability an `activate` action uses, if its source has it."""
        if action.effect != "activate":
            return None
        source = self.board.permanents.get(action.source or "")
        if source is None or action.ability >= len(source.abilities):
            return None
        return source.abilities[action.ability]

    def effect_of(self, action: Action) -> str:
        """What an action does: its effect, or for an activation its ability's effect."""
        ability = self._ability(action)
        return (ability.effect if ability else None) or action.effect

    def aim_of(self, action: Action, target: str | None) -> str | None:
        """What an action affects: its target, or for an ability of the source's own
        ("target: self"), the source."""
        ability = self._ability(action)
        return action.source if ability is not None and ability.target == "self" else target

    def _departed(self, player: str) -> bool:
        """Whether `player` has left a multiplayer game (having lost it): they no longer
        act (600.4a, 600.4f of 2009-05-01; 800.4a, 800.4j)."""
        p = self.board.players.get(player)
        return p is not None and p.lost and self.board.table.multiplayer

    def can_take(self, action: Action, target: str | None) -> bool:
        """Whether the action could be taken now: at once for an effect that needs only
        its target on the battlefield, else tried on a copy of the game."""
        if self._departed(action.by):
            return False
        if self.era.action_refused(self.board, self.on_stack, self.board.log.step,
                                   self.effect_of(action), self.aim_of(action, target),
                                   action.from_):
            return False
        if action.effect in ON_A_PERMANENT:
            p = self.board.permanents.get(target or "")
            return p is not None and p.zone == "battlefield"
        real, self.board = self.board, self.board.copy()
        try:
            self._apply_action(action, target)
            return True
        except NotTaken:
            return False
        finally:
            self.board = real

    def _apply_action(self, action: Action, target: str | None) -> None:
        board = self.board
        if action.effect != "activate":
            apply(board, Effect(
                name=action.effect, target=target, power=action.power,
                toughness=action.toughness, amount=action.amount, keyword=action.keyword,
                kind=action.kind, source=action.source, origin=action.from_, by=action.by,
                label=action.card,
                id=action.id, controller=action.controller, attacker=action.attacker))
            return
        source = board.permanents.get(action.source or "")
        if source is None or not source.on_battlefield:
            raise NotTaken(f"{action.source} is not on the battlefield")
        ability = source.abilities[action.ability]
        cost = ability.activated
        if cost == "tap":
            if source.tapped:
                raise NotTaken(f"{source.id} is tapped")
            source.tapped = True
        elif cost == "mana":
            player = board.players[action.by]
            if player.mana < (ability.mana or 0):
                raise NotTaken(f"{action.by} has {player.mana} mana, needs {ability.mana}")
            player.mana -= ability.mana or 0
        elif cost == "sacrifice-creature":
            victim = board.permanents.get(action.sacrifice or "")
            if victim is None or not victim.on_battlefield or not victim.is_creature:
                raise NotTaken(f"no creature {action.sacrifice!r} to sacrifice")
            board.leave_battlefield(victim.id, "graveyard")
            board.log.event("sacrifice", self.rule("sacrifice"), target=victim.id,
                           card=source.name)
        board.log.event("activate", self.rule("activate"), source=source.id,
                       ability=action.ability, cost=cost, effect=ability.effect,
                       **({"card": action.card} if action.card else {}))
        if cost == "sacrifice-self":
            board.leave_battlefield(source.id, "graveyard")
            board.log.event("sacrifice", self.rule("sacrifice"), target=source.id,
                           card=source.name)
        aimed = source.id if ability.target == "self" else target
        apply(board, ability_effect(ability, aimed, source.id, action.by, source.name))

    def _settle(self) -> None:
        """State-based actions, then waiting triggers onto the stack (APNAP)."""
        board = self.board
        sba.check(board)
        if board.over:
            for t in board.pending + board.stack:
                board.log.hint(t.rule, (
                    f"{t.source}'s {t.condition} trigger ({t.rule}) never resolved: the "
                    f"state-based actions ({self.rule('sba-life')}) that are checked before "
                    f"it ended the game first."))
            board.pending.clear()
            board.stack.clear()
            return
        if board.pending:
            self.then((Step.STACK_TRIGGERS, 0))

    def _stack_triggers(self, k: int) -> None:
        """Each player in turn order puts its waiting triggers on the stack, in the order it
        chooses, so the active player's resolve last."""
        board = self.board
        turn = self.turn_order()
        while k < len(turn):
            mine = [t for t in board.pending if t.controller == turn[k]]
            if mine and self._departed(turn[k]):
                # A trigger that would be controlled by a player who has left the game
                # isn't put on the stack (600.4c; 800.4c).
                for t in mine:
                    board.log.note("trigger-not-put", self.rule("mp-leaves"),
                                  f"{turn[k]} has left the game: {t.source}'s ability "
                                  f"isn't put on the stack")
                mine = []
            if len(mine) > 1:
                names = tuple(board.perm(t.source).name for t in mine)
                self.ask(turn[k], "trigger-order", TriggerOrderOptions(mine, names),
                         Step.TRIGGERS_ORDERED, k, rule=self.rule("trigger-order"))
                return
            self._push(mine)
            k += 1
        board.pending.clear()

    def _triggers_ordered(self, order: tuple[int, ...], k: int) -> None:
        mine = [t for t in self.board.pending if t.controller == self.turn_order()[k]]
        self._push([mine[i] for i in order])
        self.then((Step.STACK_TRIGGERS, k + 1))

    def _push(self, triggers: list[PendingTrigger]) -> None:
        for t in triggers:
            self.board.stack.append(t)
            self.board.log.event("trigger", t.rule, source=t.source, condition=t.condition,
                                **({"creature": t.other} if t.other else {}))

    def _resolve_stack(self) -> None:
        board = self.board
        if not board.stack:
            return
        self.resolutions += 1
        if self.resolutions > MAX_RESOLUTIONS:
            board.log.note("loop", self.rule("trigger-damage"), (
                f"more than {MAX_RESOLUTIONS} triggered abilities resolved in one "
                f"window; the scenario loops, and the rest of the stack is dropped"))
            board.stack.clear()
            return
        trigger = board.stack.pop()
        self.era.trigger_resolves(board, trigger.source, trigger.condition)
        board.log.event("resolve", trigger.rule, source=trigger.source,
                       condition=trigger.condition)
        resolve_trigger(board, trigger)
        self.then((Step.SETTLE,), (Step.RESOLVE_STACK,))

    # -- lookups ----------------------------------------------------------------------------

    def turn_order(self) -> list[str]:
        names = list(self.board.players)
        i = names.index(self.board.active)
        return names[i:] + names[:i]

    def window_exists(self, window: str) -> bool | None:
        """Whether `window` exists in this combat; None while that is not yet known (the
        first-strike windows, until combat damage begins)."""
        if not self.era.has_window(window):
            return False
        if window in FIRST_STRIKE_WINDOWS:
            return self.first_strike_step
        return True


def _before_blocks(scenario: Scenario) -> bool:
    """Whether the scenario acts or looks before blockers are declared."""
    return (any(Window.DECLARE_ATTACKERS in a.windows for a in scenario.actions)
            or Window.DECLARE_ATTACKERS in scenario.after_windows())


# Each step of the procedure (an agenda task or a decision's `then`) and what carries it out.
PROCEDURE: dict[Step, Callable[..., None]] = {
    Step.DECLARE_BLOCKERS: Combat._declare_blockers,
    Step.REDIRECTED_WAITS: Combat._redirected_waits,
    Step.DEAL_REDIRECTED: Combat._deal_redirected,
    Step.BLOCKS_DECLARED: Combat._blocks_declared,
    Step.GROUP_BLOCKS: Combat._group_blocks,
    Step.GROUP_DECLARED: Combat._group_declared,
    Step.ORDER: Combat._order,
    Step.ORDER_ANNOUNCED: Combat._order_announced,
    Step.BLOCK_TRIGGERS: Combat._block_triggers,
    Step.COMBAT_DAMAGE: Combat._combat_damage,
    Step.DAMAGE_STEPS: Combat._damage_steps,
    Step.SECOND_STEP: Combat._second_step,
    Step.DAMAGE_STEP: Combat._damage_step,
    Step.DIVIDE: Combat._divide,
    Step.DIVIDED: Combat._divided,
    Step.CHECK_ASSIGNMENT: Combat._check_assignment,
    Step.DEAL_WAITING: Combat._deal_waiting,
    Step.END_OF_COMBAT: Combat._end_of_combat,
    Step.FINISH: Combat._finish,
    Step.WINDOW: Combat._window,
    Step.SNAPSHOT: Combat._snapshot,
    Step.PRIORITY_ROUND: Combat._priority_round,
    Step.PRIORITY: Combat._priority,
    Step.PRIORITY_TAKEN: Combat._priority_taken,
    Step.SETTLE: Combat._settle,
    Step.STACK_TRIGGERS: Combat._stack_triggers,
    Step.TRIGGERS_ORDERED: Combat._triggers_ordered,
    Step.RESOLVE_STACK: Combat._resolve_stack,
}
if PROCEDURE.keys() != set(Step):  # a step without its method is a bug, found at import
    raise TypeError(f"steps without a method: {sorted(set(Step) - PROCEDURE.keys())}")
