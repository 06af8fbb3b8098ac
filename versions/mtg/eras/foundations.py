"""foundations — free division: Foundations onward (2024-11-08 to today).

Cited in the numbering of the first Comprehensive Rules after Foundations (2025-02-07;
shared/reference/cr-2025-02-07.txt). The declare blockers rules lost 509.2-509.3 and were
renumbered (seed 000): 509.2 is now "the active player gets priority" (509.2a: block
triggers go on the stack first), 509.3a-g are the trigger conditions, 509.4 is "put onto
the battlefield blocking". Elsewhere the numbers moved since 2010 too (trample 702.19,
lifelink 702.15, protection 702.16, indestructible 702.12, first strike's second step 510.4).

What Foundations changed from m11 ("Magic: The Gathering Foundations Mechanics",
2024-10-25; "Foundations Update Bulletin", 2024-11):

- No damage assignment order. A creature blocked by two or more creatures divides its
  damage among them as its controller chooses (510.1c); so does a blocker blocking two or
  more attackers (510.1d). The CR example: a 4/3 blocked by a 2/3 and a 1/1 may split 4/0,
  3/1, 2/2, 1/3 or 0/4. No decision about combat damage is made in the declare blockers
  step, so the defender must commit a pump before knowing the split.
- Unchanged from m11: no stack for combat damage (510.2), trample still needs lethal on
  every blocker (702.19b) with 1 deathtouch damage lethal for that check (702.2c), static
  deathtouch and lifelink, first and double strike (510.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.mtg.engine.assigned import Division, toughness_lethal
from versions.mtg.eras.m11 import M11, team_poison_refusal
from versions.mtg.rules import cites

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment
    from versions.mtg.engine.state import Board
    from versions.mtg.scenario import Scenario


class Foundations(M11):
    """Free division of combat damage among blockers; no damage assignment order."""

    id = "foundations"
    name = N_("Foundations (free division)")
    summary = N_("Free division of combat damage among blockers; no damage assignment "
                 "order.")
    aliases = ("fdn", "post-foundations")
    began = "2024-11-08"
    ended = None
    cr_modelled = "Comprehensive Rules of 2025-02-07 (the first after Foundations)"
    cr_date = "2025-02-07"
    not_yet = {}  # battles (310) are in this era's text
    absent = frozenset()
    sources = (
        "\"Magic: The Gathering Foundations Mechanics\", 2024-10-25 (Removal of Damage "
        "Assignment Order)",
        "\"Foundations Update Bulletin\", 2024-11",
        "Comprehensive Rules, 2025-02-07 (509, 510, 702, 704)",
    )
    changes = (
        N_("Damage assignment order removed; 509.2-509.3 deleted and 509 renumbered."),
        N_("A blocked creature divides its damage freely among its blockers (510.1c-d)."),
        N_("Trample still needs lethal damage on every blocker first (702.19b)."),
        N_("Two-Headed Giant: each attacker attacks a defending player named as attackers "
        "are declared (805.10b); combat damage to a player who has left the game isn't "
        "assigned (800.4e)."),
    )

    # What the CR of 2025-02-07 renumbered or added; the rest is M11's numbering (509.1,
    # 510.1b-d, 510.2, 511.1, 603, 704.5 and more kept their numbers). 509.2-509.3 (the
    # damage assignment order) are gone, and with them the keys that cited them.
    two_headed_choice = "attack"  # 805.10b
    RULES = {
        # Two-Headed Giant plays the shared team turns option's combat (810.7, 805.10);
        # the creature attacks a defending player, named as it is declared (805.10b).
        "mp-2hg-attack": "805.10b",
        "mp-2hg-block": "805.10d",
        "mp-2hg-damage": "805.10b",
        "mp-left-damage": "800.4e",
        "mp-2hg-poison": "810.8d",
        "trigger-blocks": "509.3a",
        "trigger-blocks-creature": "509.3b",
        "trigger-becomes-blocked": "509.3c",
        "trigger-becomes-blocked-by-creature": "509.3d",
        "trigger-attacks-unblocked": "509.3g",
        "enter-blocking": "509.4",
        "band-blocked": "702.22h",
        "band-effect": "702.22i",
        "trigger-dies": "603.10a",
        "assign-check": "510.1e",
        "first-strike-step": "510.4",
        "trample": "702.19b",
        "trample-no-blockers": "702.19d",
        "deathtouch-lethal": "702.2c",
        "lifelink": "702.15b",
        "protection": "702.16e",
        "indestructible": "702.12b",
        "rampage": "702.23a",
        "bushido": "702.45a",
        "flanking": "702.25a",
        "delayed": "511.2",
        "priority": "117.3d",
        "trigger-left": "603.10a",
        "noncombat-damage": "120.2b",
        "destroy": "701.7a",
        "sacrifice": "701.17a",
        "regenerate": "701.15a",
        "gain-life": "119.3",
        "counters": "122.1a",
        "lose-life": "119.3",
        "sba-counters": "704.5q",
        "wither": "702.80a",
        "trigger-gains-life": "119.9",
        "infect": "702.90c",
        "infect-player": "702.90b",
        "trample-over-planeswalkers": "702.19c",
        "battle-damage": "310.6",
        "sba-battle": "704.5v",
        "banding": "702.22j",
        "tap": "701.21a",
        "discard": "701.8a",
    }


    # -- no damage assignment order (509.2-509.3 deleted) -----------------------------------

    def orders_to_announce(self, board: Board) -> list[tuple[str, list[str], str]]:
        return self.no_damage_order(board)

    def place_in_order(self, board: Board, attacker: str, blocker: str) -> None:
        return None  # there is no damage assignment order to take a place in

    def division_rules(self, board: Board, source: str) -> tuple[Division, ...]:
        # No order: divided as its controller chooses (510.1c-d), trample aside.
        return (Division.TOTAL, Division.TRAMPLE)

    def assignment_refused(self, board: Board, creature: str, why: str) -> None:
        return None

    def refusal(self, scenario: Scenario) -> str | None:
        return self.anachronism(scenario) or team_poison_refusal(scenario, self.id)

    def departed_assignment(self, board: Board, creature: str, player: str) -> bool:
        board.log.note("departed-damage", self.rule("mp-left-damage"), (
            f"{player} has left the game: combat damage that would be assigned to a player "
            f"who has left the game isn't assigned ({creature}'s)"))
        return False

    @cites("deathtouch-lethal")
    def explain_assignment(self, board: Board, assignments: list[Assignment]) -> None:
        # Only trample still asks for lethal damage, so only there can 1 deathtouch matter.
        for a in assignments:
            if not board.perm(a.source).has("deathtouch") or not any(
                    k not in board.permanents or not board.perm(k).is_creature
                    for k in a.amounts):
                continue
            short = [c for c, n in a.amounts.items() if c in board.permanents
                     and board.perm(c).is_creature and 0 < n < toughness_lethal(board, c, [])]
            if short:
                board.log.hint(self.rule("deathtouch-lethal"), (
                    f"{a.source} has deathtouch, so any damage it assigns to a creature "
                    f"counts as lethal damage ({self.rule('deathtouch-lethal')}): "
                    f"{', '.join(short)} needed only 1 before the rest could trample over."))
