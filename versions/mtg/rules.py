"""``Era``: what an era's rulebook must say, as named hooks, and its metadata.

The combat procedure (``versions.mtg.engine.combat``) is the same in every era; at each point
where the rules of two eras differ, it calls one of the hooks below. The eras inherit in the
order of history: ``fourth`` defines every hook, and each later era subclasses the one whose
rules it changed and overrides only the hooks of that change (as Showdown's generation mods
and python-chess's variants do), so an era module reads as that era's rulebook: metadata,
what changed, and the code of the change.

This module is the interface only: hooks and metadata. Building and playing a combat is
``versions.mtg.play``'s; the procedure is ``versions.mtg.engine``'s.

Each hook (or helper) that cites a rule says which ``RULES`` keys it cites (``@cites``). An
era's ``RULES`` table states only what it renumbered or added: it is merged over its
parent's when the class is defined, kept to what the era cites, and checked: every key the
core or its hooks cite must be there, and every key the era states must be cited.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

from versions.common import EraInfo
from versions.mtg.scenario import GAME

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment, Dealt, Division
    from versions.mtg.engine.state import Board, Permanent
    from versions.mtg.scenario import Scenario

F = TypeVar("F", bound=Callable[..., Any])

# What a waiting combat damage step deals: (source, recipient, amount) for each recipient.
Batch = list[tuple[str | None, str, int]]


# The multiplayer rules the core cites (``versions.mtg.table``, contract §1.8): eras whose
# texts have none (before the Comprehensive Rules) refuse multiplayer games and list them
# in ``Era.absent``.
MULTIPLAYER_RULES = frozenset({
    # attacking: an opponent; one defending player unless attacking multiple players;
    # range of influence; attack left or right; Emperor's and Teams' neighbours
    "mp-opponent", "mp-defending-player", "mp-attack-multiple", "mp-range",
    "mp-attack-left", "mp-attack-right", "mp-emperor-attack", "mp-teams-attack",
    # blocking: each defending player in APNAP order, with their own creatures
    "mp-apnap-blocks", "mp-block-own",
    # Two-Headed Giant: the team's combined attack and block, whom an attacker's damage
    # goes to, the shared life total, losing as a team
    "mp-2hg-attack", "mp-2hg-block", "mp-2hg-damage", "mp-2hg-life", "mp-2hg-loses",
    "mp-team-loses", "mp-emperor-loses",
    # a player who loses leaves the game, with what they own; damage to a player who left
    "mp-leaves", "mp-left-damage",
})

# The rule keys the era-agnostic core cites, whatever the era.
CORE_RULES = MULTIPLAYER_RULES | frozenset({
    # declaring blockers and their costs
    "block", "blocked", "block-untapped", "block-restriction", "block-requirement",
    "block-cost", "block-mana", "block-pay", "block-becomes", "enter-blocking",
    # block and damage triggers
    "trigger-blocks", "trigger-blocks-creature", "trigger-becomes-blocked",
    "trigger-becomes-blocked-by-creature", "trigger-attacks-unblocked", "trigger-damage",
    "trigger-left", "rampage", "bushido", "flanking", "trigger-gains-life",
    # attacking bands: blocked together, by a blocker or an effect
    "band-blocked", "band-effect",
    # a permanent that stops being a creature leaves combat
    "stops-being-creature",
    # "when this creature dies" (a leaves-the-battlefield trigger), and cards moving from a
    # graveyard to a hand or to exile (Underworld Cerberus)
    "trigger-dies", "return-cards", "exile-card",
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
    game: ClassVar[str] = GAME
    # Where the permanents of a player who leaves a multiplayer game go: they leave the game
    # (600.4a of 2009-05-01; 800.4a), or, in the rulings before, are "removed from the
    # game" (M.1.Ruling.1 of the Fifth Edition rulings summary): exile.
    departed_zone: ClassVar[str] = "gone"
    # In Two-Headed Giant, when the defending player an attacker's damage goes to is
    # chosen: as combat damage is assigned ("damage": 606.7d; 806.7f; 810.7f), or as
    # attackers are declared, the creature attacking that player ("attack": 805.10b).
    two_headed_choice: ClassVar[str] = "damage"
    # Keywords, permanent types and effects of the scenario vocabulary these rules did not
    # have, with when they arrived: a scenario using one is refused (``anachronism``).
    not_yet: ClassVar[dict[str, str]] = {}
    # Core RULES keys of what `not_yet` refuses: this era has no number for them, and is
    # never asked for one.
    absent: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # RULES merged over the parent's
        # A key no hook of this era cites any more (the rule it numbered is gone) is left
        # behind.
        cited = cls.cited_keys()
        # A key this era lacks (``absent``) is not inherited: its parent's number for it
        # is a rule of another text.
        cls.RULES = {k: v for k, v in cls.RULES.items() if k in cited
                     and (k not in cls.absent or k in cls.STATED)}
        if "unverified" not in cls.__dict__:
            cls.unverified = tuple(k for k in cls.unverified if k in cls.RULES)
        if cls.id:
            cls.check_rules(cited, cls.absent)

    @classmethod
    def cited_keys(cls) -> frozenset[str]:
        """Every rule key the core and this era's hooks and helpers cite (``@cites``)."""
        keys = set(CORE_RULES)
        for name in dir(cls):
            keys.update(getattr(getattr(cls, name, None), "cites", ()))
        return frozenset(keys)

    # -- helpers the eras' hooks share ----------------------------------------------------

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

    @cites("assign-blocked")
    def no_damage_order(self, board: Board) -> list[tuple[str, list[str], str]]:
        """``orders_to_announce`` of an era without a damage assignment order: a written
        `order` is noted as unused."""
        if board.scenario.combat.order:
            board.log.note("order-ignored", self.rule("assign-blocked"),
                           f"{self.id} has no damage assignment order; `order` is not used")
        return []

    # -- the hooks: what an era's rules say -------------------------------------------------
    # Each era overrides those its rules changed; the first era (fourth) defines them all
    # (an era missing one can't be instantiated).

    @abstractmethod
    def has_window(self, window: str) -> bool:
        """Whether combats in this era have this kind of window at all (the first-strike
        ones exist only when a creature has first or double strike)."""

    @abstractmethod
    def window_missing(self, board: Board, window: str) -> str:
        """An action's window doesn't exist here: the rule that says why (and any hint)."""

    @abstractmethod
    def responds_to_triggers(self) -> bool:
        """Whether players act while a window's triggered abilities wait (with a stack),
        or only after they have resolved."""

    @abstractmethod
    def action_refused(self, board: Board, waiting: list[Assignment], window: str,
                       effect: str, target: str | None, origin: str | None = None,
                       ) -> tuple[str, str] | None:
        """Why an action with this effect may not be taken in this window (the RULES key
        and the reason), or None: the era's rules on what may be played when. `waiting`:
        the combat damage assigned and not yet dealt; `origin`: for a prevention, the
        source whose damage it prevents."""

    @abstractmethod
    def orders_to_announce(self, board: Board) -> list[tuple[str, list[str], str]]:
        """The damage assignment orders announced after blocks: (creature, the creatures
        it orders, the RULES key of the announcement)."""

    @abstractmethod
    def place_in_order(self, board: Board, attacker: str, blocker: str) -> None:
        """A creature put onto the battlefield blocking `attacker` takes a place in its
        damage assignment order, if the era has one."""

    @abstractmethod
    def entered_blocker_triggers(self, board: Board, attacker: str, was_blocked: bool,
                                 blocker: str) -> bool:
        """Whether a creature put onto the battlefield blocking `attacker` triggers its
        "becomes blocked by a creature" abilities (`was_blocked`: it was already blocked)."""

    @abstractmethod
    def deals_combat_damage(self, board: Board, creature: str) -> bool:
        """Whether a creature in combat deals its combat damage in the step now beginning."""

    @abstractmethod
    def assignment_step(self, first_strike: bool) -> str:
        """The step (window name) in which combat damage is assigned."""

    @abstractmethod
    def lethal_damage(self, board: Board, source: str | None, target: str,
                      others: list[Assignment]) -> int:
        """What `source` must assign to `target` for it to count as lethal damage, given
        what `others` assign to it in the same step (`source` None: nobody in particular)."""

    @abstractmethod
    def division_rules(self, board: Board, source: str) -> tuple[Division, ...]:
        """The rules a division of `source`'s combat damage must obey (``Division``)."""

    @abstractmethod
    def trample_assigns_over(self, board: Board, creature: str) -> bool:
        """Whether a blocked creature with trample may assign damage past its blockers to
        what it attacks (Urza's Saga on), or assigns all of it to them (before: trample
        redirected damage afterwards). May refuse (``NotInEra``) where the era's texts
        don't say what it does."""

    @abstractmethod
    def assignment_refused(self, board: Board, creature: str, why: str) -> None:
        """The scenario's intended division was illegal here: explain the era's rule
        (or nothing: the refusal itself is the explanation)."""

    @abstractmethod
    def explain_assignment(self, board: Board, assignments: list[Assignment]) -> None:
        """Hints for an assignment that only this era's rules allow (or none)."""

    @abstractmethod
    def damage_waits(self, board: Board, assignments: list[Assignment],
                     first_strike: bool) -> str | None:
        """Between assignment and dealing: the window in which the assigned damage waits
        (on the stack, or through a damage prevention step), or None: it is dealt at once."""

    @abstractmethod
    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        """Damage that waited is dealt: what of it is dealt, and to whom; and what is
        dealt once the damage prevention it waited through is over (damage redirected by
        trample before Urza's Saga), which nothing can prevent any more."""

    @abstractmethod
    def waiting_damage_over(self, board: Board) -> None:
        """What ends once a damage step's waiting damage has been dealt (nothing, where
        prevention lasts until the end of the turn)."""

    @abstractmethod
    def second_step_creatures(self, board: Board, now: list[str],
                              first_strikers: frozenset[str],
                              assigned_first: frozenset[str]) -> list[str]:
        """The creatures that assign combat damage in the second combat damage step, of
        those in combat `now`: `first_strikers` had first or double strike as the first
        step began, `assigned_first` assigned damage in it."""

    def prepared(self, scenario: Scenario) -> Scenario:
        """The scenario as these rules play it, where they read one of its actions
        otherwise than as written (the 1993 rulebook's regeneration); else itself."""
        return scenario

    def regenerates(self, board: Board, creature: str) -> None:
        """`creature` is about to regenerate: an era whose rules don't say what then
        becomes of it in combat may refuse the scenario here (``NotInEra``)."""
        return None

    def trigger_resolves(self, board: Board, source: str, condition: str) -> None:
        """A triggered ability of `source` is about to resolve: an era whose rules don't
        say when it would may refuse the scenario here (``NotInEra``)."""
        return None

    @abstractmethod
    def damage_dealt(self, board: Board, dealt: list[Dealt]) -> None:
        """What deathtouch and lifelink do as the damage is dealt."""

    @abstractmethod
    def damage_triggers(self, board: Board, dealt: list[Dealt]) -> None:
        """What deathtouch and lifelink trigger once the damage is dealt."""

    @abstractmethod
    def deathtouch_sba(self, board: Board, creature: Permanent) -> str | None:
        """The RULES key of the state-based action that destroys `creature` for having
        been dealt deathtouch damage, or None."""

    @abstractmethod
    def loses_now(self, board: Board) -> bool:
        """Whether a player at 0 or less life loses the game at this point of combat."""

    @abstractmethod
    def counter_pairs_removed(self) -> str | None:
        """The RULES key of the state-based action that removes +1/+1 and -1/-1 counters
        in pairs, or None where both kinds stay on a permanent."""

    @abstractmethod
    def refusal(self, scenario: Scenario) -> str | None:
        """Why this era can't run the scenario (it uses what the era's rules did not
        have), or None."""

    def team_poison(self) -> int | None:
        """In Two-Headed Giant, the poison counters a team shares and loses at, where the
        era's text has the team share them; None: each player has their own."""
        return None

    def departed_assignment(self, board: Board, creature: str, player: str) -> bool:
        """`creature` is to assign combat damage to `player`, who has left the game: whether
        it may (the damage is then not dealt: ``departed_damage``), or, where the era's
        text does not say what becomes of it, refuse the scenario (``NotInEra``)."""
        return True

    @abstractmethod
    def departed_damage(self, board: Board, source: str | None, player: str) -> bool:
        """Combat damage would be dealt to `player`, who has left the game: whether it is
        dealt all the same, the era's text noted either way."""


# The hooks are the interface's abstract methods: declared above, none from a hand list.
HOOKS: tuple[str, ...] = tuple(sorted(Era.__abstractmethods__))


def era_of(board: Board) -> Era:
    """The era whose hooks drive `board`. The board holds it as the ``EraInfo`` the state
    layer may know; only ``versions.mtg.play`` builds boards, and always with an ``Era``."""
    return cast(Era, board.era)
