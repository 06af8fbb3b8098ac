"""m10 — the damage assignment order: Magic 2010 (2009-07-11 to 2010-07-15).

Cited in the numbering of the M10 Comprehensive Rules (effective 2009-07-11, posted
2009-07-08; shared/reference/cr-2009-07-08.txt).

What M10 changed from sixth (Forsythe and Gottlieb, "Magic 2010 Rules Change", 2009-06-10):

- Combat damage no longer uses the stack (510.2). Nobody can act between assignment and
  damage: a creature sacrificed "with damage on the stack" (Mogg Fanatic, Sakura-Tribe Elder)
  now deals no combat damage, and a pump after the split is known no longer exists.
- Right after blockers are declared, the active player announces a damage assignment order
  for each attacker blocked by two or more creatures (509.2), the defending player one for
  each blocker blocking two or more attackers (509.3). The order is fixed there.
- A creature may assign damage to a creature in its order only if every creature before it
  is assigned lethal damage (510.1c-d), counting damage already marked and damage other
  creatures assign in the same step. Lethal damage is toughness-based, for trample too.
- Deathtouch became static (702.2a): the creature dealt damage by a deathtouch source is
  destroyed as a state-based action (704.5h), so one regeneration shield covers it; and a
  creature with deathtouch may divide its combat damage as its controller chooses among
  the creatures it blocks or is blocked by, ignoring the order (702.2b). It gives trample no
  help: 1 deathtouch damage is not lethal damage (a 4/4 deathtouch trampler must assign 2 to
  a 2/2 blocker; rules-list answer of 2009-07-30 and the July 2010 Update Bulletin).
- Lifelink became static (702.13a): life is gained as the damage is dealt, not when a trigger
  resolves; instances no longer add up.

Read with the contract (scenario-format §4): the defaults of §1.5 are unchanged here (the
default division follows the order, with toughness-based lethal damage); only an intended
division (or the `most-kills` policy) of a deathtouch creature may ignore the order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.mtg.engine.assigned import Division
from versions.mtg.engine.triggers import life_gained
from versions.mtg.eras.fourth import PREVENTION
from versions.mtg.eras.sixth import ON_STACK, Sixth
from versions.mtg.rules import Batch, cites
from versions.mtg.scenario import damage_window

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment, Dealt
    from versions.mtg.engine.state import Board, Permanent


class M10(Sixth):
    """Damage assignment order; no damage on the stack; static deathtouch that may ignore
    the order; static lifelink."""

    id = "m10"
    name = N_("Magic 2010 (damage assignment order)")
    summary = N_("Damage assignment order; no damage on the stack; static deathtouch that "
                 "may ignore the order; static lifelink.")
    aliases = ()
    began = "2009-07-11"
    ended = "2010-07-15"
    cr_modelled = "Comprehensive Rules of 2009-07-08 (effective 2009-07-11)"
    cr_date = "2009-07-08"
    cr_effective = "2009-07-11"
    sources = (
        "Aaron Forsythe and Mark Gottlieb, \"Magic 2010 Rules Change\", 2009-06-10",
        "Mark L. Gottlieb, \"July 2009 Update Bulletin\", 2009-07-08",
        "Comprehensive Rules, 2009-07-08 (506, 509, 510, 511, 702.2, 702.13, 702.17, 704.5)",
        "MTGRULES-L answer on trample and deathtouch, 2009-07-30 (Gavin Duggan)",
    )
    changes = (
        N_("Combat damage no longer uses the stack (510.2)."),
        N_("Multiplayer moves to 800-809; combat damage to a player who has left the game "
        "isn't dealt (800.4d)."),
        N_("Damage assignment order announced right after blocks (509.2, 509.3)."),
        N_("Lethal damage to each creature in the order before the next (510.1c-d)."),
        N_("Deathtouch static: destroys as a state-based action (704.5h); a deathtouch "
        "creature divides its damage ignoring the order (702.2b)."),
        N_("Lifelink static (702.13a)."),
    )
    unverified = ()

    RULES = {
        # Multiplayer moves to 800-809 (506.2a: one defending player or several).
        "mp-opponent": "506.2a",
        "mp-defending-player": "506.2a",
        "mp-attack-multiple": "802.3",
        "mp-range": "801.3",
        "mp-attack-left": "803.1a",
        "mp-attack-right": "803.1b",
        "mp-emperor-attack": "807.3c",
        "mp-teams-attack": "809.4",
        "mp-apnap-blocks": "802.4",
        "mp-block-own": "802.4a",
        "mp-2hg-attack": "806.7c",
        "mp-2hg-block": "806.7d",
        "mp-2hg-damage": "806.7f",
        "mp-2hg-life": "806.4a",
        "mp-2hg-loses": "806.8a",
        "mp-team-loses": "806.8b",
        "mp-emperor-loses": "807.5a",
        "mp-leaves": "800.4a",
        "mp-left-damage": "800.4d",
        "block": "509.1g",
        "blocked": "509.1h",
        "block-untapped": "509.1a",
        "block-restriction": "509.1b",
        "block-requirement": "509.1c",
        "block-cost": "509.1d",
        "block-mana": "509.1e",
        "block-pay": "509.1f",
        "block-becomes": "509.1g",
        "order-attacker": "509.2",
        "order-blocker": "509.3",
        "trigger-blocks": "509.4a",
        "trigger-blocks-creature": "509.4b",
        "trigger-becomes-blocked": "509.4c",
        "trigger-becomes-blocked-by-creature": "509.4d",
        "trigger-attacks-unblocked": "509.4g",
        "enter-blocking": "509.7",
        "band-blocked": "702.19h",
        "band-effect": "702.19i",
        "stops-being-creature": "506.4",
        "trigger-dies": "603.6d",
        "return-cards": "402.1",
        "exile-card": "406.1",
        "assign-unblocked": "510.1b",
        "assign-blocked": "510.1c",
        "assign-blocker": "510.1d",
        "assign-check": "510.1c",
        "damage-resolves": "510.2",
        "first-strike-step": "510.5",
        "trample": "702.17b",
        "trample-no-blockers": "702.17c",
        "deathtouch-divides": "702.2b",
        "lifelink": "702.13a",
        "protection": "702.14e",
        "indestructible": "700.4",
        "rampage": "702.20a",
        "bushido": "702.42a",
        "flanking": "702.22a",
        "end-of-combat": "511.1",
        "delayed": "511.1",
        "priority": "115.3d",
        "trigger-order": "603.3b",
        "trigger-damage": "603.2",
        "trigger-left": "603.6d",
        "activate": "602.2",
        "fizzle": "607.2b",
        "sba-life": "704.5a",
        "sba-toughness": "704.5f",
        "sba-lethal": "704.5g",
        "sba-deathtouch": "704.5h",
        "sba-loyalty": "704.5i",
        "pump": "610.2a",
        "noncombat-damage": "118.2b",
        "destroy": "701.6a",
        "sacrifice": "701.13a",
        "regenerate": "701.11a",
        "prevent": "614.1a",
        "bounce": "400.7",
        "remove-from-combat": "506.4",
        "gain-life": "117.3",
        "counters": "120.1",
        "lose-life": "117.3",
        "sba-poison": "704.5c",
        "sba-counters": "704.5r",
        "wither": "702.77a",
        "prevent-all": "614.1a",
        "trigger-gains-life": "603.2",
        "add-mana": "106.4",
        "banding": "702.19j",
        "tap": "701.15a",
        "discard": "701.7a",
    }

    # -- windows: no damage on the stack (510.2) --------------------------------------------

    def has_window(self, window: str) -> bool:
        return window not in ON_STACK and window not in PREVENTION

    @cites("damage-resolves", "first-strike-step")
    def window_missing(self, board: Board, window: str) -> str:
        if window in PREVENTION:
            return self.rule("damage-resolves")  # damage is simply dealt (510.2)
        if window not in ON_STACK:
            return self.rule("first-strike-step")
        rule = self.rule("damage-resolves")
        board.log.hint(rule, (
            f"Combat damage doesn't use the stack in this era ({rule}): nobody can act "
            f"between the assignment of combat damage and its dealing, so there is no "
            f"{window} window."))
        return rule

    # -- declare blockers: damage assignment orders (509.2, 509.3, 509.7) -------------------

    @cites("trigger-becomes-blocked-by-creature", "enter-blocking")
    def entered_blocker_triggers(self, board: Board, attacker: str, was_blocked: bool,
                                 blocker: str) -> bool:
        """509.4d of 2009-07-08 reads the ability as "Whenever a creature blocks [this
        creature]", and 509.7: a creature put onto the battlefield blocking "is 'blocking'
        but, for the purposes of trigger events and effects, it never 'blocked'"."""
        board.log.hint(self.rule("enter-blocking"), (
            f"{blocker} is put onto the battlefield blocking {attacker}: it never \"blocked\" "
            f"({self.rule('enter-blocking')}), so \"whenever a creature blocks\" {attacker} "
            f"abilities don't trigger ({self.rule('trigger-becomes-blocked-by-creature')})."))
        return False

    @cites("order-attacker", "order-blocker")
    def orders_to_announce(self, board: Board) -> list[tuple[str, list[str], str]]:
        orders: list[tuple[str, list[str], str]] = []
        for attacker in board.listing_order():
            blockers = board.blockers_of(attacker) if attacker in board.attacks else []
            if len(blockers) > 1:
                orders.append((attacker, blockers, "order-attacker"))
        for blocker in board.listing_order():
            attackers = board.blocks.get(blocker, [])
            if len(attackers) > 1:
                orders.append((blocker, list(attackers), "order-blocker"))
        return orders

    @cites("enter-blocking")
    def place_in_order(self, board: Board, attacker: str, blocker: str) -> None:
        """509.7: the active player places the new blocker in the attacker's order (where
        the scenario's `order` puts it, else last); the others keep their order."""
        if len(board.blockers_of(attacker)) < 2:
            return
        current = board.damage_orders.get(attacker) or board.blockers_of(attacker)[:-1]
        written = [c for c in board.scenario.combat.order.get(attacker, [])
                   if c in current or c == blocker]
        if blocker in written:
            at = written.index(blocker)
            before = [c for c in written[:at] if c in current]
            cut = max((current.index(c) + 1 for c in before), default=0)
            order = current[:cut] + [blocker] + current[cut:]
        else:
            order = [*current, blocker]
        board.damage_orders[attacker] = order
        board.log.event("damage-assignment-order", self.rule("enter-blocking"),
                       source=attacker, order=list(order))

    # -- assigning combat damage: the order binds (510.1c-d) --------------------------------

    def ignores_order(self, board: Board, source: str) -> bool:
        """702.2b: a creature with deathtouch divides as its controller chooses."""
        return board.perm(source).has("deathtouch")

    def division_rules(self, board: Board, source: str) -> tuple[Division, ...]:
        if self.ignores_order(board, source):
            return (Division.TOTAL, Division.TRAMPLE)
        return (Division.TOTAL, Division.IN_ORDER, Division.TRAMPLE)

    @cites("order-attacker", "assign-blocked")
    def assignment_refused(self, board: Board, creature: str, why: str) -> None:
        if "damage assignment order" in why:
            board.log.hint(self.rule("assign-blocked"), (
                f"In this era {creature}'s damage assignment order was fixed at declare "
                f"blockers ({self.rule('order-attacker')}); now {why}, so the intended "
                f"division is illegal ({self.rule('assign-blocked')}) and the default "
                f"division is used."))

    @cites("deathtouch-divides")
    def explain_assignment(self, board: Board, assignments: list[Assignment]) -> None:
        for a in assignments:
            if not self.ignores_order(board, a.source) or a.source not in board.damage_orders:
                continue
            order = board.damage_orders[a.source]
            skipped = next((c for i, c in enumerate(order) if any(
                a.amounts.get(later, 0) for later in order[i + 1:])
                and a.amounts.get(c, 0) < self.lethal_damage(board, a.source, c, [])), None)
            if skipped:
                board.log.hint(self.rule("deathtouch-divides"), (
                    f"{a.source} has deathtouch, so in this era its controller divides its "
                    f"combat damage ignoring its damage assignment order "
                    f"({self.rule('deathtouch-divides')}): {skipped} need not be assigned "
                    f"lethal damage first."))

    def assignment_step(self, first_strike: bool) -> str:
        return damage_window(first_strike)

    # -- dealing combat damage at once (510.2) ----------------------------------------------

    def damage_waits(self, board: Board, assignments: list[Assignment],
                     first_strike: bool) -> str | None:
        return None  # dealt as it is assigned: nobody acts between (510.2)

    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        # Never asked (no damage waits here); were it, the damage would be dealt as
        # assigned, with none of the stack's rules on sources and recipients that left.
        return [(a.source, t, n) for a in waiting for t, n in a.amounts.items()], []

    def second_step_creatures(self, board: Board, now: list[str],
                              first_strikers: frozenset[str],
                              assigned_first: frozenset[str]) -> list[str]:
        # 510.5: those without first strike as the first step began, and double strikers.
        return [p for p in now if p not in first_strikers
                or board.perm(p).has("double-strike")]

    # -- deathtouch and lifelink: static ----------------------------------------------------

    @cites("lifelink")
    def damage_dealt(self, board: Board, dealt: list[Dealt]) -> None:
        totals: dict[str, int] = {}
        for d in dealt:
            if d.source is None:
                continue
            source = board.perm(d.source)
            if d.target not in board.players and source.has("deathtouch"):
                board.perm(d.target).deathtouched = True
            if source.has("lifelink"):
                totals[d.source] = totals.get(d.source, 0) + d.amount
        # Separate sources give separate life-gain events; instances don't add up.
        for source_id, amount in totals.items():
            controller = board.perm(source_id).controller
            board.change_life(controller, amount)
            board.log.event("gain-life", self.rule("lifelink"), source=source_id,
                           target=controller, amount=amount)
            life_gained(board, controller, amount)

    def damage_triggers(self, board: Board, dealt: list[Dealt]) -> None:
        return None

    @cites("sba-deathtouch")
    def deathtouch_sba(self, board: Board, creature: Permanent) -> str | None:
        return "sba-deathtouch" if creature.deathtouched else None

    # -- a player who has left the game (800.4) ----------------------------------------------

    def departed_assignment(self, board: Board, creature: str, player: str) -> bool:
        return True  # assigned, and then not dealt (800.4d)

    def departed_damage(self, board: Board, source: str | None, player: str) -> bool:
        board.log.note("departed-damage", self.rule("mp-left-damage"), (
            f"{player} has left the game: combat damage that would be dealt to a player "
            f"who has left the game simply isn't dealt ({source}'s)"))
        return False
