"""sixth — damage on the stack: Sixth Edition through Shards of Alara (1999-04-23 to 2009-07-10).

Cited in the numbering of the last Comprehensive Rules before M10 (2009-05-01;
shared/reference/cr-2009-05-01.txt): 309 declare blockers, 310 combat damage, 311 end of
combat, 306.4 removal from combat, 4xx spells and effects (409 playing abilities, 410
triggered abilities, 413 resolving, 418 continuous effects, 419 replacement and
prevention, 420.5 state-based effects), 500 legal blocks, 501 keyword actions, 502 keyword
abilities.

What the Sixth Edition rules changed from what came before (1999): combat damage goes on
the stack as one object (310.1), and players may respond before it is dealt; the old
"damage prevention step" is gone; tapped blockers deal damage.

How this era differs from the later ones:

- 310.1: the active player, then the defending player, announce how each creature assigns
  its combat damage; it all goes on the stack as one object, and players get priority.
  The windows `first-strike-damage-on-stack` and `damage-on-stack` exist only here.
- 310.2c-d: a blocked creature divides its damage among its blockers as its controller
  chooses: no order, no lethal requirement (trample aside).
- 310.4a-c: the damage is dealt exactly as assigned, even if the source has left play (its
  last known information is used) or the recipient was removed from combat; damage
  assigned to a creature that has left is not dealt. A source that has left deals its
  damage but its own abilities no longer exist to trigger (410.10d: only leaves-play
  abilities look back in time).
- 310.5: the second combat damage step is for creatures without first strike or double
  strike "at the start of the combat damage step" plus double strikers; read with
  502.28d, a creature that did not put damage on the stack in the first step assigns in
  the second.
- 502.9b/d: trample needs lethal damage (actual toughness, damage already marked and damage
  assigned at the same time) on each blocker; 1 deathtouch damage is not lethal here.
- 502.63a, 502.68a: deathtouch and lifelink (keyworded in Future Sight, 2007) are
  triggered: "whenever this permanent deals damage to a creature, destroy that creature";
  "whenever this permanent deals damage, you gain that much life". State-based effects are
  checked before they resolve, each instance triggers (502.63b, 502.68b), and a
  regeneration shield made in response saves the creature.

Citations the 2009-05-01 text gives only through its glossary (indestructible, damage,
mana pool, discard) or only by the zone rule (a return to hand, 217.1) are listed
in ``unverified``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_, NotInEra
from versions.mtg.engine.state import PendingTrigger
from versions.mtg.eras.fifth import Fifth
from versions.mtg.eras.fourth import INFECT, OVER_WALKERS, PREVENTION
from versions.mtg.rules import Batch, cites
from versions.mtg.scenario import Ability, Window

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment, Dealt
    from versions.mtg.engine.state import Board
    from versions.mtg.scenario import Scenario

ON_STACK = (Window.FIRST_STRIKE_DAMAGE_ON_STACK, Window.DAMAGE_ON_STACK)
# Battles: 2023-04-21 (March of the Machine); in none of the texts before the CR of
# 2025-02-07 (310).
BATTLES = "2023 (March of the Machine; 310 of the CR of 2025-02-07)"
# The triggered abilities deathtouch and lifelink stand for (502.63a, 502.68a); how much
# life lifelink gains is the trigger's own amount.
DEATHTOUCH = Ability(trigger="dealt-damage", effect="destroy", target="that-creature")
LIFELINK = Ability(trigger="dealt-damage", effect="gain-life", target="controller", amount=0)


class Sixth(Fifth):
    """Combat damage on the stack; free division; triggered deathtouch and lifelink."""
    id = "sixth"
    name = N_("Sixth Edition (damage on the stack)")
    summary = N_("Combat damage on the stack; free division; triggered deathtouch and "
                 "lifelink.")
    aliases = ("5.5.2", "damage-on-stack", "pre-m10")
    began = "1999-04-23"
    ended = "2009-07-10"
    cr_modelled = "Comprehensive Rules of 2009-05-01 (the last before M10)"
    cr_date = "2009-05-01"
    # Rampage and flanking read "becomes blocked" and "each creature blocking it" (502.x):
    # a creature blocking through a band (502.10e) counts like any other.
    counts_band_blockers = True
    sources = (
        "Comprehensive Rules, 2009-05-01 (306.4, 309, 310, 311, 410, 419, 420.5, 500, 502)",
        "Comprehensive Rules 5.5.2, rule 310 (seed 003, via MTG Wiki)",
        "Bleiweiss, \"Damage on the Stack\", 2002-12-11",
    )
    changes = (
        N_("Combat damage uses the stack (310.1); players may respond before it is dealt."),
        N_("The damage prevention step is gone."),
        N_("Tapped blockers deal combat damage."),
        N_("Multiplayer rules in the text (600-609, from 2004-2005, within the era): several "
        "defending players declare blockers in APNAP order (602.4); Two-Headed Giant's "
        "combined block and shared life (606); a player who leaves takes all they own, "
        "and combat damage on the stack is dealt all the same (600.4a)."),
    )
    unverified = ("indestructible", "noncombat-damage", "bounce", "add-mana", "discard")
    # 600.4a: what a player who leaves owns "leave[s] the game" (not exile).
    departed_zone = "gone"
    not_yet = {"infect": INFECT, "trample-over-planeswalkers": OVER_WALKERS, "battle": BATTLES}
    absent = frozenset({"infect", "infect-player", "trample-over-planeswalkers",
                        "battle-damage", "sba-battle"})

    RULES = {
        # Multiplayer (600-609): the text's optional rules for more than two players.
        "mp-opponent": "306.2",
        "mp-defending-player": "306.2",
        "mp-attack-multiple": "602.3",
        "mp-range": "601.3",
        "mp-attack-left": "604.1a",
        "mp-attack-right": "604.1b",
        "mp-emperor-attack": "607.3c",
        "mp-teams-attack": "609.4",
        "mp-apnap-blocks": "602.4",
        "mp-block-own": "602.4a",
        "mp-2hg-attack": "606.7b",
        "mp-2hg-block": "606.7c",
        "mp-2hg-damage": "606.7d",
        "mp-2hg-life": "606.4a",
        "mp-2hg-loses": "606.8a",
        "mp-team-loses": "606.8b",
        "mp-emperor-loses": "607.5a",
        "mp-leaves": "600.4a",
        "mp-left-damage": "600.4a",
        "block": "309.2e",
        "blocked": "309.2f",
        "block-untapped": "309.2a",
        "block-restriction": "500.3",
        "block-requirement": "500.4",
        "block-cost": "309.2b",
        "block-mana": "309.2c",
        "block-pay": "309.2d",
        "block-becomes": "309.2e",
        "enter-blocking": "309.5",
        "band-blocked": "502.10e",
        "band-effect": "502.10g",
        "stops-being-creature": "306.4",
        "trigger-dies": "410.10d",
        "return-cards": "217.3a",
        "exile-card": "217.7a",
        "trigger-blocks": "309.3",
        "trigger-blocks-creature": "309.3",
        "trigger-becomes-blocked": "309.4",
        "trigger-becomes-blocked-by-creature": "309.4",
        "trigger-attacks-unblocked": "410.9",
        "assign-unblocked": "310.2b",
        "assign-blocked": "310.2c",
        "assign-blocker": "310.2d",
        "assign-check": "310.2",
        "damage-on-stack": "310.1",
        "damage-resolves": "310.4",
        "damage-removed": "310.4a",
        "damage-lki": "310.4b",
        "damage-left": "310.4c",
        "first-strike-step": "310.5",
        "trample": "502.9b",
        "trample-no-blockers": "502.9c",
        "deathtouch": "502.63a",
        "lifelink": "502.68a",
        "protection": "502.7e",
        "indestructible": "Glossary: Indestructible",
        "rampage": "502.12a",
        "bushido": "502.38a",
        "flanking": "502.3a",
        "end-of-combat": "311.1",
        "delayed": "311.1",
        "priority": "408.1c",
        "trigger-order": "410.3",
        "trigger-damage": "410.2",
        "trigger-left": "410.10d",
        "activate": "409.1",
        "fizzle": "413.2a",
        "sba-life": "420.5a",
        "sba-toughness": "420.5b",
        "sba-lethal": "420.5c",
        "sba-loyalty": "420.5p",
        "pump": "418.3a",
        "noncombat-damage": "Glossary: Damage",
        "destroy": "501.4a",
        "sacrifice": "501.6a",
        "regenerate": "501.5a",
        "prevent": "419.7b",
        "bounce": "217.1",
        "remove-from-combat": "306.4",
        "gain-life": "215.3",
        "counters": "200.10a",
        "add-mana": "Glossary: Mana Pool",
        "banding": "502.10h",
        "tap": "501.7a",
        "discard": "Glossary: Discard",
        "lose-life": "215.3",
        "sba-poison": "420.5h",
        "sba-counters": "420.5n",
        "wither": "502.80a",
        "prevent-all": "419.1d",
        "trigger-gains-life": "410.2",
    }

    # -- a creature put into play blocking (309.4-309.5) -----------------------------------

    @cites("trigger-becomes-blocked", "enter-blocking")
    def entered_blocker_triggers(self, board: Board, attacker: str, was_blocked: bool,
                                 blocker: str) -> bool:
        """309.4: abilities on becoming blocked trigger "by a creature that's put into play
        as a blocker ... but only if the attacking creature hadn't yet been blocked that
        combat"."""
        if was_blocked:
            board.log.hint(self.rule("trigger-becomes-blocked"), (
                f"{blocker} is put into play blocking {attacker}, which was already blocked: "
                f"its abilities on becoming blocked trigger only the first time it becomes "
                f"blocked ({self.rule('trigger-becomes-blocked')}; the new blocker never "
                f"\"blocked\", {self.rule('enter-blocking')})."))
        return not was_blocked

    # -- windows: players act with combat damage on the stack (310.1) -----------------------

    def has_window(self, window: str) -> bool:
        # 310.1: each combat damage step has priority with its damage on the stack; the
        # damage prevention step of the rules before is gone.
        return window not in PREVENTION

    @cites("first-strike-step", "damage-on-stack")
    def window_missing(self, board: Board, window: str) -> str:
        if window in PREVENTION:
            return self.rule("damage-on-stack")  # damage uses the stack; no prevention step
        return self.rule("first-strike-step")

    def responds_to_triggers(self) -> bool:
        return True  # 410.3: triggered abilities go on the stack; players may respond

    def action_refused(self, board: Board, waiting: list[Assignment], window: str,
                       effect: str, target: str | None, origin: str | None = None,
                       ) -> tuple[str, str] | None:
        return None  # any instant or ability whenever a player has priority

    # -- combat damage: tapped blockers deal it, and it goes on the stack (310.1, 310.4) ----

    def deals_combat_damage(self, board: Board, creature: str) -> bool:
        return True  # tapped blockers deal combat damage too

    def assignment_step(self, first_strike: bool) -> str:
        return Window.FIRST_STRIKE_DAMAGE_ON_STACK if first_strike else Window.DAMAGE_ON_STACK

    @cites("damage-on-stack")
    def damage_waits(self, board: Board, assignments: list[Assignment],
                     first_strike: bool) -> str | None:
        board.log.event("damage-on-stack", self.rule("damage-on-stack"),
                        assignments=len(assignments))
        return self.assignment_step(first_strike)

    def waiting_damage_over(self, board: Board) -> None:
        """Prevention lasts until it is used up or the turn ends (419.7b of 2009-05-01):
        nothing ends with the damage."""

    @cites("damage-lki", "damage-removed", "damage-left")
    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        """310.4: the damage on the stack is dealt exactly as assigned, using last known
        information for sources that left, but not to recipients that left."""
        batch: Batch = []
        for a in waiting:
            source = board.perm(a.source)
            if not source.on_battlefield:
                board.log.hint(self.rule("damage-lki"), (
                    f"{a.source} left the battlefield after its combat damage was put on the "
                    f"stack; that damage is still dealt as assigned "
                    f"({self.rule('damage-removed')}), using its last known information "
                    f"({self.rule('damage-lki')})."))
            elif not board.in_combat(a.source):
                board.log.hint(self.rule("damage-removed"), (
                    f"{a.source} was removed from combat after its damage was put on the "
                    f"stack; the damage is still dealt as assigned "
                    f"({self.rule('damage-removed')})."))
            for target, amount in a.amounts.items():
                if target not in board.players and not board.perm(target).on_battlefield:
                    board.log.hint(self.rule("damage-left"), (
                        f"{target} left the battlefield while {a.source}'s damage was on the "
                        f"stack, so the {amount} damage assigned to it is not dealt "
                        f"({self.rule('damage-left')})."))
                    continue
                batch.append((a.source, target, amount))
        return batch, []  # nothing is redirected afterwards

    def second_step_creatures(self, board: Board, now: list[str],
                              first_strikers: frozenset[str],
                              assigned_first: frozenset[str]) -> list[str]:
        # 310.5: those that did not assign combat damage in the first step, and double
        # strikers (read literally: a 0-power first striker assigns in the second).
        return [p for p in now if p not in assigned_first
                or board.perm(p).has("double-strike")]

    # -- deathtouch and lifelink: triggered abilities ---------------------------------------

    @cites("deathtouch", "lifelink")
    def damage_triggers(self, board: Board, dealt: list[Dealt]) -> None:
        """Deathtouch: "whenever this deals damage to a creature, destroy that creature";
        lifelink: "whenever this deals damage, you gain that much life". Each instance
        triggers; neither works once the source has left the battlefield."""
        by_source: dict[str, int] = {}
        instances: dict[str, int] = {}  # deathtouch instances of each source, counted once
        for d in dealt:
            if d.source is None:
                continue
            by_source[d.source] = by_source.get(d.source, 0) + d.amount
            if d.target in board.players or not board.perm(d.target).is_creature:
                continue
            source = board.perm(d.source)
            if d.source not in instances:
                instances[d.source] = source.count("deathtouch")
            if not instances[d.source]:
                continue
            if not source.on_battlefield:  # read from its last known information
                board.log.hint(self.rule("deathtouch"), (
                    f"{d.source} had left the battlefield when its damage was dealt, so "
                    f"its triggered deathtouch was not around to trigger "
                    f"({self.rule('deathtouch')}); {d.target} is only dealt damage."))
                continue
            for _ in range(instances[d.source]):
                board.pending.append(PendingTrigger(
                    source=d.source, controller=source.controller, ability=DEATHTOUCH,
                    rule=self.rule("deathtouch"), condition="deathtouch", other=d.target,
                    kind="deathtouch"))
        for source_id, amount in by_source.items():
            source = board.perm(source_id)
            links = source.count("lifelink")
            if not links:
                continue
            if not source.on_battlefield:
                board.log.hint(self.rule("lifelink"), (
                    f"{source_id} had left the battlefield when its damage was dealt, so "
                    f"its triggered lifelink, which works only on the battlefield, did "
                    f"not trigger ({self.rule('lifelink')})."))
                continue
            for _ in range(links):
                board.pending.append(PendingTrigger(
                    source=source_id, controller=source.controller, ability=LIFELINK,
                    rule=self.rule("lifelink"), condition="lifelink", amount=amount,
                    kind="lifelink"))

    # -- state-based effects: at once, and counters cancel out (420.5) ----------------------

    def loses_now(self, board: Board) -> bool:
        return True  # 420.5a: whenever state-based effects are checked

    # -- a player who has left the game (600.4a) ---------------------------------------------

    def refusal(self, scenario: Scenario) -> str | None:
        return self.anachronism(scenario)  # the multiplayer rules are this text's (600-609)

    def departed_assignment(self, board: Board, creature: str, player: str) -> bool:
        """600.4a says only that "a player leaving the game doesn't affect combat damage
        on the stack"; damage assigned to a player who left before it was assigned is in
        no rule of this text (M10's 800.4d is the first: it "simply isn't dealt")."""
        raise NotInEra(self.id, (
            f"{creature} would assign combat damage to {player}, who has left the game: "
            f"the CR of 2009-05-01 says only that leaving doesn't affect combat damage "
            f"already on the stack ({self.rule('mp-left-damage')}), not what becomes of "
            f"damage assigned afterwards (M10's 800.4d: it isn't dealt)"))

    def departed_damage(self, board: Board, source: str | None, player: str) -> bool:
        # On the stack as the player left (``departed_assignment`` refuses the rest): dealt.
        board.log.note("departed-damage", self.rule("mp-left-damage"), (
            f"{player} has left the game, but a player leaving the game doesn't affect "
            f"combat damage on the stack: {source}'s damage to {player} is dealt"))
        return True

    @cites("sba-counters")
    def counter_pairs_removed(self) -> str | None:
        return "sba-counters"  # 420.5n: a +1/+1 and a -1/-1 counter cancel out
