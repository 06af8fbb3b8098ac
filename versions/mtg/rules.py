"""``Era``: what an era's rulebook must say, as named hooks, and its metadata.

The combat procedure (``versions.mtg.engine.combat``) is the same in every era; at each point
where the rules of two eras differ, it calls one of the hooks below. An era module
subclasses the era whose rules it changed and overrides only the hooks of that change
(as Showdown's generation mods and python-chess's variants do), so the module reads as
the era's rulebook: metadata, what changed, and the code of the change.

Each hook that cites a rule says which ``RULES`` keys it cites (``@cites``). When an era
class is defined, its ``RULES`` table is checked against what it cites: every key the
core or its hooks cite must be there, and no other.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from versions.common import EraInfo, NotInEra
from versions.mtg.engine.availability import Availability
from versions.mtg.engine.blocks import survey
from versions.mtg.engine.combat import Combat
from versions.mtg.engine.script import Script, ScriptedChooser
from versions.mtg.engine.state import QuietLog

if TYPE_CHECKING:
    from versions.mtg.engine.assignment import Assignment, DivisionRule
    from versions.mtg.engine.damage import Dealt
    from versions.mtg.engine.state import Game, Permanent
    from versions.mtg.scenario import Scenario

F = TypeVar("F", bound=Callable[..., Any])


# The rule keys the era-agnostic core cites, whatever the era.
CORE_RULES = frozenset({
    # declaring blockers and their costs
    "block", "blocked", "block-untapped", "block-restriction", "block-requirement",
    "block-cost", "block-mana", "block-pay", "block-becomes", "enter-blocking",
    # block and damage triggers
    "trigger-blocks", "trigger-blocks-creature", "trigger-becomes-blocked",
    "trigger-becomes-blocked-by-creature", "trigger-attacks-unblocked", "trigger-damage",
    "trigger-left", "rampage", "bushido", "flanking", "trigger-gains-life",
    # assigning and dealing combat damage
    "assign-unblocked", "assign-blocked", "assign-blocker", "assign-check",
    "trample", "trample-no-blockers", "damage-resolves", "first-strike-step", "banding",
    "protection", "indestructible",
    # the decisions players make (cited by the decisions themselves)
    "priority", "trigger-order",
    # state-based actions
    "sba-life", "sba-toughness", "sba-lethal", "sba-loyalty",
    # end of combat and effects
    "end-of-combat", "delayed", "activate", "fizzle", "pump", "noncombat-damage",
    "destroy", "sacrifice", "regenerate", "prevent", "bounce", "remove-from-combat",
    "gain-life", "counters", "add-mana", "discard", "tap", "lose-life",
    # poison, and damage that becomes counters (where an era has them: ``Era.absent``)
    "sba-poison", "wither", "infect", "infect-player",
    # preventing all combat damage (Fog), of everything or of one source
    "prevent-all",
    # trample over planeswalkers and battles (where an era has them: ``Era.absent``)
    "trample-over-planeswalkers", "battle-damage", "sba-battle",
})


def cites(*keys: str) -> Callable[[F], F]:
    """Declare the ``RULES`` keys a hook cites."""

    def mark(fn: F) -> F:
        fn.cites = keys  # type: ignore[attr-defined]
        return fn

    return mark


class Era(EraInfo, ABC):
    # -- metadata (each era module fills these in: ``versions.common``) -------------------
    game: ClassVar[str] = "mtg"
    # Keywords, permanent types and effects of the scenario vocabulary these rules did not
    # have, with when they arrived: a scenario using one is refused (``anachronism``).
    not_yet: ClassVar[dict[str, str]] = {}
    # Core RULES keys of what `not_yet` refuses: this era has no number for them, and is
    # never asked for one.
    absent: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.id:
            return
        cited = cls.cited_keys()
        missing = sorted(cited - cls.RULES.keys() - cls.absent)
        unused = sorted(cls.RULES.keys() - cited)
        stray = sorted(set(cls.unverified) - cls.RULES.keys())
        both = sorted(cls.absent & cls.RULES.keys())
        if missing or unused or stray or both:
            raise TypeError(
                f"era {cls.id}: RULES " + "; ".join(
                    f"{what}: {', '.join(keys)}" for what, keys in (
                        ("cited but missing", missing), ("never cited", unused),
                        ("unverified but not in RULES", stray),
                        ("absent but given", both)) if keys))

    @classmethod
    def cited_keys(cls) -> frozenset[str]:
        """Every rule key the core and this era's hooks cite."""
        keys = set(CORE_RULES)
        for name in HOOKS:
            keys.update(getattr(getattr(cls, name), "cites", ()))
        return frozenset(keys)

    # -- running a scenario -----------------------------------------------------------------

    def combat(self, scenario: Scenario) -> Combat:
        """A combat ready to play the scenario's scripted line."""
        self._refuse(scenario)
        return Combat(self, scenario, Script(scenario, self.has_window))

    def exploration(self, scenario: Scenario) -> Combat:
        """A combat in which every action of the scenario is available, not scripted, and
        nothing is narrated (an exploration reads outcomes)."""
        self._refuse(scenario)
        combat = Combat(self, scenario, Availability(scenario), exploring=True)
        combat.game.log = QuietLog(step=combat.game.log.step)
        return combat

    def run(self, scenario: Scenario) -> dict[str, Any]:
        """The outcome JSON (spec §2) of `scenario`'s scripted line under this era."""
        return self.combat(scenario).play(ScriptedChooser(scenario))

    def _refuse(self, scenario: Scenario) -> None:
        self.check_game(scenario)
        why = self.refusal(scenario)
        if why:
            raise NotInEra(self.id, why)

    def anachronism(self, scenario: Scenario) -> str | None:
        """What of `not_yet` the scenario uses, said as a refusal, or None."""
        late = self.not_yet
        if not late:
            return None
        for p in scenario.permanents:
            for k in p.keywords:
                if k.name in late:
                    return (f"{p.id} has {k.name}, which did not exist under these rules: it "
                            f"arrived in {late[k.name]}")
            for t in p.types or ():
                if t in late:
                    return (f"{p.id} is a {t}, which did not exist under these rules: "
                            f"{t}s arrived in {late[t]}")
            for a in p.abilities:
                if a.keyword is not None and a.keyword.name in late:
                    return (f"{p.id}'s ability gives {a.keyword.name}, which did not exist "
                            f"under these rules: it arrived in {late[a.keyword.name]}")
        if "player-protection" in late:
            for player in scenario.players:
                if player.protection:
                    return (f"player {player.name} has protection, which these rules gave "
                            f"only to permanents: {late['player-protection']}")
        for i, a in enumerate(scenario.actions):
            if a.keyword is not None and a.keyword.name in late:
                return (f"action {i + 1} names {a.keyword.name}, which did not exist under "
                        f"these rules: it arrived in {late[a.keyword.name]}")
            if a.effect in late:
                return (f"action {i + 1} is a {a.effect}, which these rules did not have: "
                        f"it arrived in {late[a.effect]}")
        return None

    def block_survey(self, scenario: Scenario) -> dict[str, Any]:
        """Every block declaration the scenario's attacks allow, with the requirements
        each obeys (see ``versions.mtg.engine.blocks.survey``)."""
        return survey(self.combat(scenario).game)

    def divisions(self, scenario: Scenario, creature: str) -> list[dict[str, int]]:
        """Every legal division of `creature`'s combat damage as combat damage begins
        (after the scripted declare blockers step), ignoring what others assign."""
        from versions.mtg.engine.assignment import legal_divisions, targets_of

        combat = self.combat(scenario)
        chooser = ScriptedChooser(scenario)
        while (d := combat.advance(stop_before="combat_damage")) is not None:
            combat.resume(chooser.choose(d.player, d.kind, d.options))
        game = combat.game
        return legal_divisions(game, creature, targets_of(game, creature), [])

    # -- the hooks: what an era's rules say -------------------------------------------------
    # Each era overrides those its rules changed; the first era defines them all (an era
    # missing one can't be instantiated).

    @abstractmethod
    def has_window(self, window: str) -> bool:
        """Whether combats in this era have this kind of window at all (the first-strike
        ones exist only when a creature has first or double strike)."""

    @abstractmethod
    def window_missing(self, game: Game, window: str) -> str:
        """An action's window doesn't exist here: the rule that says why (and any hint)."""

    @abstractmethod
    def orders_to_announce(self, game: Game) -> list[tuple[str, list[str], str]]:
        """The damage assignment orders announced after blocks: (creature, the creatures
        it orders, the RULES key of the announcement)."""

    @abstractmethod
    def place_in_order(self, game: Game, attacker: str, blocker: str) -> None:
        """A creature put onto the battlefield blocking `attacker` takes a place in its
        damage assignment order, if the era has one."""

    @abstractmethod
    def lethal_damage(self, game: Game, source: str | None, target: str,
                      others: list[Assignment]) -> int:
        """What `source` must assign to `target` for it to count as lethal damage, given
        what `others` assign to it in the same step (`source` None: nobody in particular)."""

    @abstractmethod
    def division_rules(self, game: Game, source: str) -> tuple[DivisionRule, ...]:
        """The rules a division of `source`'s combat damage must obey (see
        ``versions.mtg.engine.assignment``: Total, InOrder, Trample)."""

    def assignment_refused(self, game: Game, creature: str, why: str) -> None:
        """The scenario's intended division was illegal here: explain the era's rule
        (by default the refusal itself is the explanation)."""
        return None

    def explain_assignment(self, game: Game, assignments: list[Assignment]) -> None:
        """Hints for an assignment that only this era's rules allow (none by default)."""
        return None

    @abstractmethod
    def assignment_step(self, first_strike: bool) -> str:
        """The step (window name) in which combat damage is assigned."""

    @abstractmethod
    def deal_combat_damage(self, combat: Combat, assignments: list[Assignment],
                           first_strike: bool) -> None:
        """From assignment to dealing: what happens between, and the dealing."""

    @abstractmethod
    def second_step_creatures(self, combat: Combat, now: list[str]) -> list[str]:
        """The creatures that assign combat damage in the second combat damage step."""

    @abstractmethod
    def damage_dealt(self, game: Game, dealt: list[Dealt]) -> None:
        """What deathtouch and lifelink do as the damage is dealt."""

    @abstractmethod
    def damage_triggers(self, game: Game, dealt: list[Dealt]) -> None:
        """What deathtouch and lifelink trigger once the damage is dealt."""

    @abstractmethod
    def deathtouch_sba(self, game: Game, creature: Permanent) -> str | None:
        """The RULES key of the state-based action that destroys `creature` for having
        been dealt deathtouch damage, or None."""

    @abstractmethod
    def refusal(self, scenario: Scenario) -> str | None:
        """Why this era can't run the scenario (it uses what the era's rules did not
        have), or None."""

    @abstractmethod
    def action_refused(self, combat: Combat, window: str, effect: str,
                       target: str | None, origin: str | None = None,
                       ) -> tuple[str, str] | None:
        """Why an action with this effect may not be taken in this window (the RULES key
        and the reason), or None: the era's rules on what may be played when. `origin`:
        for a prevention, the source whose damage it prevents."""

    @abstractmethod
    def deals_combat_damage(self, game: Game, creature: str) -> bool:
        """Whether a creature in combat deals its combat damage in the step now beginning."""

    @abstractmethod
    def loses_now(self, game: Game) -> bool:
        """Whether a player at 0 or less life loses the game at this point of combat."""

    @abstractmethod
    def counter_pairs_removed(self) -> str | None:
        """The RULES key of the state-based action that removes +1/+1 and -1/-1 counters
        in pairs, or None where both kinds stay on a permanent."""

    @abstractmethod
    def responds_to_triggers(self) -> bool:
        """Whether players act while a window's triggered abilities wait (with a stack),
        or only after they have resolved."""


HOOKS = tuple(
    name for name, value in vars(Era).items()
    if callable(value) and not name.startswith("_") and name not in (
        "cited_keys", "rule", "metadata", "combat", "exploration", "run", "block_survey",
        "divisions")
)
