"""``Era``: one combat, from declare blockers through end of combat, under one era's rules.

This is the era-agnostic procedure. An era module subclasses ``Era`` and sets only what its
rules change: whether combat damage uses the stack, whether a damage assignment order binds
the division, whether deathtouch and lifelink are triggered or static, how the second
combat damage step is chosen, and the rule numbers it cites (``RULES``), in its own
numbering.
"""

from __future__ import annotations

from typing import Any, ClassVar

from versions.game import sba
from versions.game.assignment import (
    Assignment,
    assign_step,
    legal_divisions,
    targets_of,
)
from versions.game.blocks import (
    BlockProblem,
    check_blocks,
    costs_owed,
    mana_sources,
    survey,
)
from versions.game.damage import deal
from versions.game.effects import Effect, NotTaken, ability_effect, apply, resolve_trigger
from versions.game.outcome import outcome
from versions.game.setup import new_game
from versions.game.state import Game
from versions.game.triggers import ability_triggers, keyword_trigger, put_on_stack
from versions.scenario import WINDOWS, Action, Scenario

ON_STACK = {"first-strike-damage-on-stack", "damage-on-stack"}
FIRST_STRIKE = {"first-strike-damage-on-stack", "first-strike-damage"}
MAX_RESOLUTIONS = 500  # a scenario whose triggers feed each other forever stops here


class IllegalBlocks(Exception):
    def __init__(self, era: str, problems: list[BlockProblem]):
        self.era = era
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.message} ({p.rule})" for p in problems))


class Era:
    # -- metadata (each era module fills these in) -----------------------------------------
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    began: ClassVar[str] = ""
    ended: ClassVar[str | None] = None
    cr_modelled: ClassVar[str] = ""
    sources: ClassVar[tuple[str, ...]] = ()
    changes: ClassVar[tuple[str, ...]] = ()  # what this era changed from the one before
    unverified: ClassVar[tuple[str, ...]] = ()  # RULES keys whose number no primary text gave
    RULES: ClassVar[dict[str, str]] = {}

    # -- what differs between eras ---------------------------------------------------------
    damage_uses_stack: ClassVar[bool] = False
    has_damage_order: ClassVar[bool] = False
    triggered_deathtouch: ClassVar[bool] = False
    triggered_lifelink: ClassVar[bool] = False
    deathtouch_lethal_one: ClassVar[bool] = True
    # 310.5 (sixth) gives the second step to creatures that did not assign damage in the
    # first; 510.4 gives it to those without first or double strike as the first step began.
    second_step_by_assignment: ClassVar[bool] = False

    @classmethod
    def rule(cls, key: str) -> str:
        return cls.RULES[key]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        return {
            "id": cls.id, "name": cls.name, "aliases": list(cls.aliases), "began": cls.began,
            "ended": cls.ended, "cr": cls.cr_modelled, "sources": list(cls.sources),
            "changes": list(cls.changes), "summary": (cls.__doc__ or "").strip().split("\n")[0],
        }

    def window_exists(self, window: str, first_strike_step: bool) -> bool:
        if window in ON_STACK and not self.damage_uses_stack:
            return False
        if window in FIRST_STRIKE:
            return first_strike_step
        return True

    # -- the run ---------------------------------------------------------------------------

    def run(self, scenario: Scenario) -> dict[str, Any]:
        """The outcome JSON (spec §2) of `scenario` under this era's rules."""
        game = new_game(self, scenario)
        problems = check_blocks(game)
        if problems:
            raise IllegalBlocks(self.id, problems)
        self._handled: set[int] = set()
        self._fs_step: bool | None = None
        self._declare_blockers(game)
        if not game.over:
            self._combat_damage(game)
        if not game.over:
            self._end_of_combat(game)
        self._unhandled_actions(game)
        return outcome(game)

    def block_survey(self, scenario: Scenario) -> dict[str, Any]:
        """Every block declaration the scenario's attacks allow, with the requirements
        each obeys (see ``versions.game.blocks.survey``)."""
        return survey(new_game(self, scenario))

    def divisions(self, scenario: Scenario, creature: str) -> list[dict[str, int]]:
        """Every legal division of `creature`'s combat damage as combat damage begins
        (after the declare blockers step), ignoring what other creatures assign."""
        game = new_game(self, scenario)
        problems = check_blocks(game)
        if problems:
            raise IllegalBlocks(self.id, problems)
        self._handled = set()
        self._fs_step = None
        self._declare_blockers(game)
        return legal_divisions(game, creature, targets_of(game, creature), [])

    # -- declare blockers ------------------------------------------------------------------

    def _pay_block_costs(self, game: Game) -> None:
        """509.1d-f: total the costs, make mana (509.1e), pay. A creature sacrificed to
        pay was declared but never becomes a blocking creature (509.1g); what it was
        declared to block is still a blocked creature (509.1h)."""
        declared = {b: list(a) for b, a in game.blocks.items()}
        for player, cost in costs_owed(game, declared).items():
            game.log.event("block-cost", self.rule("block-cost"), target=player, amount=cost)
            pool = game.players[player]
            for p, i in mana_sources(game, player):
                if pool.mana >= cost:
                    break
                ability = p.abilities[i]
                game.log.event("activate", self.rule("block-mana"), source=p.id, ability=i,
                               card=p.name)
                if ability.activated == "tap":
                    p.tapped = True
                else:
                    game.leave_battlefield(p.id, "graveyard")
                    game.log.event("sacrifice", self.rule("block-mana"), target=p.id,
                                   card=p.name)
                pool.mana += ability.amount or 0
                game.log.event("add-mana", self.rule("block-mana"), target=player,
                               amount=ability.amount)
            pool.mana -= cost
            game.log.event("pay", self.rule("block-pay"), target=player, amount=cost)
        for blocker, attackers in declared.items():
            if blocker not in game.blocks:
                game.log.hint(self.rule("block-becomes"), (
                    f"{blocker} was declared as a blocker but left the battlefield while "
                    f"the costs to block were paid, so it never becomes a blocking creature "
                    f"({self.rule('block-becomes')}); {', '.join(attackers)} still "
                    f"became blocked ({self.rule('blocked')})."))

    def _declare_blockers(self, game: Game) -> None:
        game.log.step = "declare-blockers"
        combat = game.scenario.combat
        self._pay_block_costs(game)
        for blocker, attackers in game.blocks.items():
            for attacker in attackers:
                game.log.event("block", self.rule("block"), source=blocker, target=attacker)
        for attacker in game.attacks:
            if attacker in game.blocked:
                game.log.event("blocked", self.rule("blocked"), target=attacker,
                               blockers=game.blockers_of(attacker))
            else:
                game.log.event("unblocked", self.rule("blocked"), target=attacker)
        if self.has_damage_order:
            self._announce_orders(game)
        elif combat.order:
            game.log.note("order-ignored", self.rule("assign-blocked"),
                          f"{self.id} has no damage assignment order; `order` is not used")
        self._block_triggers(game)
        self._window(game, "declare-blockers")

    def _announce_orders(self, game: Game) -> None:
        for attacker in game.listing_order():
            blockers = game.blockers_of(attacker) if attacker in game.attacks else []
            if len(blockers) > 1:
                order = self._choose_order(game, attacker, blockers)
                game.damage_orders[attacker] = order
                game.log.event("damage-assignment-order", self.rule("order-attacker"),
                               source=attacker, order=list(order))
        for blocker in game.listing_order():
            attackers = game.blocks.get(blocker, [])
            if len(attackers) > 1:
                order = self._choose_order(game, blocker, list(attackers))
                game.damage_orders[blocker] = order
                game.log.event("damage-assignment-order", self.rule("order-blocker"),
                               source=blocker, order=list(order))

    def _choose_order(self, game: Game, creature: str, others: list[str]) -> list[str]:
        """Spec §1.5.1: the written order; else one under which the intended amounts are
        legal as the order is announced; else the blocks listing order."""
        combat = game.scenario.combat
        if creature in combat.order:
            written = [c for c in combat.order[creature] if c in others]
            return written + [c for c in others if c not in written]
        intent = combat.assign.get(creature)
        if not isinstance(intent, dict):
            return others
        source = game.perm(creature)

        def lethal(c: str) -> int:
            need = max(0, game.perm(c).toughness - game.perm(c).damage)
            return min(need, 1) if source.has("deathtouch") else need

        full = [c for c in others if intent.get(c, 0) >= lethal(c) and intent.get(c, 0) > 0]
        partial = [c for c in others if 0 < intent.get(c, 0) < lethal(c)]
        rest = [c for c in others if c not in full and c not in partial]
        return full + partial + rest if len(partial) <= 1 else others

    def _block_triggers(self, game: Game) -> None:
        """509.5 (m10) / 509.3 (foundations) / 309 (sixth): what blocking triggers."""
        for blocker, attackers in game.blocks.items():
            ability_triggers(game, blocker, "blocks", other=attackers[0] if attackers else None)
            for value in game.perm(blocker).values("bushido"):
                keyword_trigger(game, blocker, "bushido", "bushido", value=value)
            for attacker in attackers:
                ability_triggers(game, blocker, "blocks-creature", other=attacker)
        for attacker in game.attacks:
            a = game.perm(attacker)
            defending = game.defending_player(attacker)
            if attacker not in game.blocked:
                ability_triggers(game, attacker, "attacks-unblocked", defending=defending)
                continue
            ability_triggers(game, attacker, "becomes-blocked", defending=defending)
            for value in a.values("rampage"):
                keyword_trigger(game, attacker, "rampage", "rampage", value=value)
            for value in a.values("bushido"):
                keyword_trigger(game, attacker, "bushido", "bushido", value=value)
            for blocker in game.blockers_of(attacker):
                ability_triggers(game, attacker, "becomes-blocked-by-creature", other=blocker,
                                 defending=defending)
                if not game.perm(blocker).has("flanking"):
                    for _ in range(a.count("flanking")):
                        keyword_trigger(game, attacker, "flanking", "flanking", other=blocker)

    # -- combat damage ---------------------------------------------------------------------

    def _first_strike_now(self, game: Game) -> bool:
        return any(c.has("first-strike") or c.has("double-strike")
                   for c in game.creatures_in_combat())

    def _combat_damage(self, game: Game) -> None:
        # Actions moved "earlier" onto declare blockers because the first-strike windows
        # turned out not to exist are taken now, at the very end of that step.
        for _ in range(2):
            self._fs_step = self._first_strike_now(game)
            late = self._actions_for(game, "declare-blockers")
            if not late:
                break
            game.log.step = "declare-blockers"
            for index, action, moved in late:
                self._take(game, index, action, moved)
            self._resolve_stack(game)
            if game.over:
                return
        in_combat = [p.id for p in game.creatures_in_combat()]
        ordered = [p for p in game.listing_order() if p in in_combat]
        if not self._fs_step:
            self._damage_step(game, ordered, first_strike=False)
            return
        started = {p for p in ordered
                   if game.perm(p).has("first-strike") or game.perm(p).has("double-strike")}
        game.log.step = "first-strike-damage-on-stack" if self.damage_uses_stack \
            else "first-strike-damage"
        game.log.event("first-strike-step", self.rule("first-strike-step"),
                       creatures=[p for p in ordered if p in started])
        assigned = self._damage_step(game, [p for p in ordered if p in started], True)
        if game.over:
            return
        now = [p for p in game.listing_order()
               if p in {c.id for c in game.creatures_in_combat()}]
        if self.second_step_by_assignment:
            second = [p for p in now if p not in assigned or game.perm(p).has("double-strike")]
        else:
            second = [p for p in now if p not in started or game.perm(p).has("double-strike")]
        self._damage_step(game, second, first_strike=False)

    def _damage_step(self, game: Game, creatures: list[str], first_strike: bool) -> set[str]:
        dealt_window = "first-strike-damage" if first_strike else "combat-damage"
        stack_window = "first-strike-damage-on-stack" if first_strike else "damage-on-stack"
        game.log.step = stack_window if self.damage_uses_stack else dealt_window
        result = assign_step(game, creatures)
        for creature, why in result.rejected.items():
            self._illegal_assignment(game, creature, why)
        assignments = result.assignments
        for a in assignments:
            for target, amount in a.amounts.items():
                game.log.event("assign", a.rule, source=a.source, target=target, amount=amount)
        if self.damage_uses_stack:
            game.log.event("damage-on-stack", self.rule("damage-on-stack"),
                           assignments=len(assignments))
            self._window(game, stack_window)
            if game.over:
                return {a.source for a in assignments}
            game.log.step = dealt_window
            batch = self._resolve_damage_object(game, assignments)
        else:
            batch = [(a.source, t, n) for a in assignments for t, n in a.amounts.items()]
        deal(game, batch, combat=True, rule=self.rule("damage-resolves"))
        self._window(game, dealt_window)
        return {a.source for a in assignments}

    def _resolve_damage_object(
        self, game: Game, assignments: list[Assignment]
    ) -> list[tuple[str | None, str, int]]:
        """310.4: the damage on the stack is dealt exactly as assigned, using last known
        information for sources that left, but not to recipients that left."""
        batch: list[tuple[str | None, str, int]] = []
        for a in assignments:
            source = game.perm(a.source)
            if not source.on_battlefield:
                game.log.hint(self.rule("damage-lki"), (
                    f"{a.source} left the battlefield after its combat damage was put on the "
                    f"stack; that damage is still dealt as assigned "
                    f"({self.rule('damage-removed')}), using its last known information "
                    f"({self.rule('damage-lki')})."))
            elif not game.in_combat(a.source):
                game.log.hint(self.rule("damage-removed"), (
                    f"{a.source} was removed from combat after its damage was put on the "
                    f"stack; the damage is still dealt as assigned "
                    f"({self.rule('damage-removed')})."))
            for target, amount in a.amounts.items():
                if target in game.players:
                    batch.append((a.source, target, amount))
                    continue
                recipient = game.perm(target)
                if not recipient.on_battlefield:
                    game.log.hint(self.rule("damage-left"), (
                        f"{target} left the battlefield while {a.source}'s damage was on the "
                        f"stack, so the {amount} damage assigned to it is not dealt "
                        f"({self.rule('damage-left')})."))
                    continue
                batch.append((a.source, target, amount))
        return batch

    def _illegal_assignment(self, game: Game, creature: str, why: str) -> None:
        rule = self.rule("assign-check")
        game.log.note("illegal-assignment", rule, why, creature=creature)
        if self.has_damage_order and "damage assignment order" in why:
            game.log.hint(self.rule("assign-blocked"), (
                f"In this era {creature}'s damage assignment order was fixed at declare "
                f"blockers ({self.rule('order-attacker')}); now {why}, so the intended "
                f"division is illegal ({self.rule('assign-blocked')}) and the default "
                f"division is used."))

    # -- end of combat ---------------------------------------------------------------------

    def _end_of_combat(self, game: Game) -> None:
        game.log.step = "end-of-combat"
        game.log.event("end-of-combat", self.rule("end-of-combat"))
        game.pending.extend(game.delayed)
        game.delayed.clear()
        self._window(game, "end-of-combat")

    # -- windows, actions, the stack --------------------------------------------------------

    def _window(self, game: Game, window: str) -> None:
        """A point where players get priority: state-based actions, triggers onto the stack,
        the scenario's actions for this window (taken while those triggers wait, i.e. in
        response to them), then the stack resolves."""
        game.log.step = window
        self._settle(game)
        if game.over:
            return
        for index, action, moved in self._actions_for(game, window):
            self._take(game, index, action, moved)
            if game.over:
                return
        self._resolve_stack(game)

    def _settle(self, game: Game) -> None:
        sba.check(game)
        if game.over:
            for t in game.pending + game.stack:
                game.log.hint(t.rule, (
                    f"{t.source}'s {t.condition} trigger ({t.rule}) never resolved: the "
                    f"state-based actions ({self.rule('sba-life')}) that are checked before "
                    f"it ended the game first."))
            game.pending.clear()
            game.stack.clear()
            return
        put_on_stack(game)

    def _resolve_stack(self, game: Game) -> None:
        self._settle(game)
        resolved = 0
        while game.stack and not game.over:
            resolved += 1
            if resolved > MAX_RESOLUTIONS:
                game.log.note("loop", self.rule("trigger-damage"), (
                    f"more than {MAX_RESOLUTIONS} triggered abilities resolved in one "
                    f"window; the scenario loops, and the rest of the stack is dropped"))
                game.stack.clear()
                return
            trigger = game.stack.pop()
            game.log.event("resolve", trigger.rule, source=trigger.source,
                           condition=trigger.condition)
            resolve_trigger(game, trigger)
            self._settle(game)

    def _exists(self, game: Game, window: str) -> bool:
        fs = self._fs_step if self._fs_step is not None else self._first_strike_now(game)
        return self.window_exists(window, fs)

    def _actions_for(self, game: Game, window: str) -> list[tuple[int, Action, str | None]]:
        """The scenario's actions taken in `window`, with the window each was moved from."""
        here = WINDOWS.index(window)
        out: list[tuple[int, Action, str | None]] = []
        for index, action in enumerate(game.scenario.actions):
            if index in self._handled:
                continue
            at = WINDOWS.index(action.at)
            if action.at == window:
                out.append((index, action, None))
                continue
            if self._exists(game, action.at):
                continue
            between = range(min(at, here) + 1, max(at, here))
            if any(self._exists(game, WINDOWS[i]) for i in between):
                if at < here and action.if_missing != "later":
                    self._skip(game, index, action)
                continue
            if (at > here and action.if_missing == "earlier") or \
                    (at < here and action.if_missing == "later"):
                out.append((index, action, action.at))
            elif at < here:
                self._skip(game, index, action)
        return out

    def _missing_rule(self, window: str) -> str:
        if window in ON_STACK and not self.damage_uses_stack:
            return self.rule("damage-resolves")
        return self.rule("first-strike-step")

    def _skip(self, game: Game, index: int, action: Action) -> None:
        self._handled.add(index)
        rule = self._missing_rule(action.at)
        game.log.note("missing-window", rule, (
            f"window {action.at} does not exist in {self.id} here; the {action.effect} "
            f"by {action.by} is not taken (if-missing: skip)"), action=index, window=action.at)
        self._window_hint(game, action.at, rule)

    def _window_hint(self, game: Game, window: str, rule: str) -> None:
        if window in ON_STACK and not self.damage_uses_stack:
            game.log.hint(rule, (
                f"Combat damage doesn't use the stack in this era ({rule}): nobody can act "
                f"between the assignment of combat damage and its dealing, so there is no "
                f"{window} window."))

    def _take(self, game: Game, index: int, action: Action, moved: str | None) -> None:
        self._handled.add(index)
        if moved:
            rule = self._missing_rule(moved)
            game.log.note("missing-window", rule, (
                f"window {moved} does not exist in {self.id} here; the {action.effect} by "
                f"{action.by} is taken at {game.log.step} instead "
                f"(if-missing: {action.if_missing})"), action=index, window=moved,
                **{"taken-at": game.log.step})
            self._window_hint(game, moved, rule)
        try:
            self._apply_action(game, action)
        except NotTaken as why:
            game.log.note("action-not-taken", self.rule("fizzle"),
                          f"the {action.effect} by {action.by} is not taken: {why}",
                          action=index)
        self._settle(game)

    def _apply_action(self, game: Game, action: Action) -> None:
        if action.effect != "activate":
            apply(game, Effect(
                name=action.effect, target=action.target, power=action.power,
                toughness=action.toughness, amount=action.amount, keyword=action.keyword,
                by=action.by, label=action.card, id=action.id, controller=action.controller,
                attacker=action.attacker))
            return
        source = game.permanents.get(action.source or "")
        if source is None or not source.on_battlefield:
            raise NotTaken(f"{action.source} is not on the battlefield")
        ability = source.abilities[action.ability]
        cost = ability.activated
        if cost == "tap":
            if source.tapped:
                raise NotTaken(f"{source.id} is tapped")
            source.tapped = True
        elif cost == "mana":
            player = game.players[action.by]
            if player.mana < (ability.mana or 0):
                raise NotTaken(f"{action.by} has {player.mana} mana, needs {ability.mana}")
            player.mana -= ability.mana or 0
        elif cost == "sacrifice-creature":
            victim = game.permanents.get(action.sacrifice or "")
            if victim is None or not victim.on_battlefield or not victim.is_creature:
                raise NotTaken(f"no creature {action.sacrifice!r} to sacrifice")
            game.leave_battlefield(victim.id, "graveyard")
            game.log.event("sacrifice", self.rule("sacrifice"), target=victim.id,
                           card=source.name)
        game.log.event("activate", self.rule("activate"), source=source.id,
                       ability=action.ability, **({"card": action.card} if action.card else {}))
        if cost == "sacrifice-self":
            game.leave_battlefield(source.id, "graveyard")
            game.log.event("sacrifice", self.rule("sacrifice"), target=source.id,
                           card=source.name)
        target = source.id if ability.target == "self" else action.target
        apply(game, ability_effect(ability, target, source.id, action.by, source.name))

    def _unhandled_actions(self, game: Game) -> None:
        for index, action in enumerate(game.scenario.actions):
            if index not in self._handled:
                why = "the game was over" if game.over else \
                    f"its window ({action.at}) never came in {self.id}"
                game.log.note("action-not-taken", self.rule("fizzle"),
                              f"the {action.effect} by {action.by} is not taken: {why}",
                              action=index)
