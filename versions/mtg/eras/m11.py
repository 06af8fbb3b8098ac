"""m11 — deathtouch damage is lethal: Magic 2011 through Duskmourn (2010-07-16 to 2024-11-07).

Cited in the numbering of the M11 Comprehensive Rules (effective 2010-07-16;
shared/reference/cr-2010-07-16.txt). Later texts of the era renumbered some rules (the CR of
2022-04-29 has deathtouch's lethal rule at 702.2c, trample at 702.19, lifelink at 702.15);
the rules modelled here did not change within the era.

What M11 changed from m10 ("July 2010 Update Bulletin", 2010-07-14, "So Touchy"):

- 702.2b: any nonzero amount of combat damage assigned to a creature by a source with
  deathtouch is lethal damage for assigning combat damage. A deathtouch creature follows its
  damage assignment order like any other (the July 2009 exception is gone), but 1 damage
  is enough to move on: a 3/3 deathtouch attacker ordered 9/9, 7/7, 4/4, 2/2 may assign 1
  to each of the first three, never to the 2/2. And deathtouch now helps trample: a 4/4
  deathtouch trampler blocked by a 3/3 may assign 1 to it and 3 to the player.
- 702.2c / 704.5h: only a creature with toughness greater than 0 is destroyed for having
  been dealt deathtouch damage (one with 0 toughness goes to the graveyard anyway).
- 509.2-509.3: an order is announced for every blocked attacker and every blocker; one of a
  single creature changes nothing, so rulesdiff announces only orders of two or more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.mtg.engine.assigned import toughness_lethal
from versions.mtg.eras.m10 import M10
from versions.mtg.rules import cites
from versions.mtg.table import Table

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment
    from versions.mtg.engine.state import Board
    from versions.mtg.scenario import Scenario


def _poisoned(scenario: Scenario) -> bool:
    return any(p.poison for p in scenario.players) or any(
        a.effect == "counters" and a.kind == "poison" for a in scenario.actions)


def _infect(scenario: Scenario) -> bool:
    return any(k.name == "infect" for p in scenario.permanents for k in p.keywords) or any(
        a.keyword is not None and a.keyword.name == "infect"
        for p in scenario.permanents for a in p.abilities) or any(
        a.keyword is not None and a.keyword.name == "infect" for a in scenario.actions)


def team_poison_refusal(scenario: Scenario, era: str) -> str | None:
    """Two-Headed Giant's poison counters, which the rules changed within this era: each
    player's own, ten to lose, in the CR of 2010-07-16 (704.5c; 810.5: "with the exception
    of life total, a team's resources ... are not shared"); the team's, fifteen to lose,
    from Scars of Mirrodin (2010-10; 704.5u of the CR of 2011-07-15), the set that brought
    infect. A game with infect is of the later rule; one with poison and no infect could
    be of either, and is refused rather than guessed. The team's counters are one count:
    teammates written with different ones are refused too."""
    if not Table.of(scenario).two_headed or not _poisoned(scenario) and not _infect(scenario):
        return None
    for team in {p.team for p in scenario.players}:
        counts = {p.poison for p in scenario.players if p.team == team}
        if len(counts) > 1:
            return (f"team {team}'s players have different poison counters, but a "
                    f"Two-Headed Giant team's poison counters are shared (704.6b and "
                    f"810.10 of the CR of 2022-04-29): write the team's count on both")
    if era == "m11" and not _infect(scenario):
        return ("Two-Headed Giant poison counters changed within this era: each player's "
                "own, ten to lose, in the CR of 2010-07-16 (704.5c, 810.5); the team's, "
                "fifteen to lose, from Scars of Mirrodin in 2010 (704.5u of the CR of "
                "2011-07-15); with no infect to date the game, rulesdiff doesn't guess "
                "which")
    return None


class M11(M10):
    """As m10, but 1 deathtouch damage is lethal for assignment, and the order binds."""

    id = "m11"
    name = N_("Magic 2011 (deathtouch damage is lethal)")
    summary = N_("As m10, but 1 deathtouch damage is lethal for assignment, and the order "
                 "binds.")
    aliases = ()
    began = "2010-07-16"
    ended = "2024-11-07"
    cr_modelled = "Comprehensive Rules of 2010-07-16"
    cr_date = "2010-07-16"
    sources = (
        "Mark L. Gottlieb, \"July 2010 Update Bulletin\", 2010-07-14",
        "Comprehensive Rules, 2010-07-16 (509, 510, 702.2, 702.13, 702.17, 704.5)",
        "Comprehensive Rules, 2011-07-15 and 2022-04-29 (the same rules, renumbered)",
    )
    changes = (
        N_("Any nonzero deathtouch damage assigned to a creature is lethal damage for "
        "assignment (702.2b); the damage assignment order binds deathtouch creatures too."),
        N_("Deathtouch helps trample: 1 damage to each blocker, the rest to the player."),
        N_("\"Becomes blocked by a creature\" abilities trigger for a creature put onto the "
        "battlefield blocking (509.4d), where M10's \"whenever a creature blocks\" did not "
        "(509.7 of 2009-07-08)."),
        N_("Two-Headed Giant renumbered 810 (its combat 810.7a-f); within the era its team "
        "poison (fifteen, 2010-2011) and, in 2018, the shared team turns combat (805.10)."),
    )

    # What the CR of 2010-07-16 renumbered or added; the rest is M10's numbering. (M10's
    # "deathtouch-divides", 702.2b of 2009, is no longer cited: deathtouch follows the order.)
    RULES = {
        # Multiplayer renumbered: Emperor 809, Two-Headed Giant 810, Alternating Teams 811.
        "mp-emperor-attack": "809.3c",
        "mp-teams-attack": "811.4",
        "mp-2hg-attack": "810.7c",
        "mp-2hg-block": "810.7d",
        "mp-2hg-damage": "810.7f",
        "mp-2hg-life": "810.4",
        "mp-2hg-loses": "810.8c",
        "mp-team-loses": "810.8a",
        "mp-emperor-loses": "809.5b",
        # Infect (Scars of Mirrodin, 2010) came with the team's shared poison (704.5u of
        # the CR of 2011-07-15, in the excerpts only), cited as infect is, from the whole
        # text of 2022-04-29: 704.6b.
        "mp-2hg-poison": "704.6b (CR 2022-04-29)",
        "deathtouch-lethal": "702.2b",
        "lifelink": "702.13b",
        "priority": "116.3d",
        "fizzle": "608.2b",
        "pump": "611.2a",
        "noncombat-damage": "119.2b",
        "prevent": "615.1a",
        "gain-life": "118.3",
        "counters": "121.1",
        "tap": "701.16a",
        "lose-life": "118.3",
        "prevent-all": "615.1a",
        "trigger-gains-life": "118.8",
        # Infect came within this era, after its first text: cited from a later one of it.
        "infect": "702.90c (CR 2022-04-29)",
        "infect-player": "702.90b (CR 2022-04-29)",
        "trample-over-planeswalkers": "702.19c (CR 2022-04-29)",
    }
    # Battles came late in this era (2023-04-21), but no text of the era at hand has their
    # rules (the CR of 2022-04-29 is before them, that of 2025-02-07 after the era): this
    # era can't cite them, so it refuses them rather than borrow Foundations' numbers.
    not_yet = {"battle": "2023, late in this era, with no text of the era here to cite (310 "
                         "of the CR of 2025-02-07, after it)"}
    absent = frozenset({"battle-damage", "sba-battle"})

    @cites("mp-2hg-poison")
    def team_poison(self) -> int | None:
        return 15  # a Two-Headed Giant team shares its poison counters and loses at 15

    def refusal(self, scenario: Scenario) -> str | None:
        return self.anachronism(scenario) or team_poison_refusal(scenario, self.id)

    def ignores_order(self, board: Board, source: str) -> bool:
        return False

    def entered_blocker_triggers(self, board: Board, attacker: str, was_blocked: bool,
                                 blocker: str) -> bool:
        # 509.4d of 2010-07-16 ("becomes blocked by a creature"): "In addition, it will
        # trigger if a creature is put onto the battlefield blocking that creature."
        return True

    @cites("deathtouch-lethal")
    def lethal_damage(self, board: Board, source: str | None, target: str,
                      others: list[Assignment]) -> int:
        if any(board.perm(a.source).has("deathtouch") and a.amounts.get(target, 0) > 0
               for a in others):
            return 0
        need = toughness_lethal(board, target, others)
        if need > 0 and source is not None and board.perm(source).has("deathtouch"):
            return 1
        return need

    @cites("deathtouch-lethal")
    def explain_assignment(self, board: Board, assignments: list[Assignment]) -> None:
        for a in assignments:
            if not board.perm(a.source).has("deathtouch"):
                continue
            # In order: the creatures (its damage assignment order), then what it attacks.
            order = board.damage_orders.get(a.source, []) + [
                k for k in a.amounts if k not in board.damage_orders.get(a.source, [])]
            short = [c for i, c in enumerate(order) if c in board.permanents
                     and board.perm(c).is_creature
                     and 0 < a.amounts.get(c, 0) < toughness_lethal(board, c, [])
                     and any(a.amounts.get(later, 0) for later in order[i + 1:])]
            if short:
                board.log.hint(self.rule("deathtouch-lethal"), (
                    f"{a.source} has deathtouch, so in this era any damage it assigns to a "
                    f"creature counts as lethal damage ({self.rule('deathtouch-lethal')}): "
                    f"{', '.join(short)} needed only 1 before {a.source}'s damage could move "
                    f"on."))
