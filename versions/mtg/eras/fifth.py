"""fifth — the damage prevention step, with Urza's Saga's trample: Fifth Edition rules as
last revised before Sixth (1998-10-18 to 1999-04-22).

Cited by the sections of Stephen D'Angelo's General Rulings Summary, the final release under
the Fifth Edition rules (updated 1999-05-16; shared/reference/
rulings-summary-fifth-edition-1999.txt), as ``fourth`` is: everything of ``fourth`` holds
(the damage prevention step, tapped blockers, losing at the end of the attack, Series of
triggers), except what Urza's Saga changed on 1998-10-18 (Moursund's summary of that date:
"Trample is no longer a damage-redirection ability"):

- A.27.2, A.27.Ruling.2: a blocked trampler may assign damage to the defending player once
  lethal damage (K.12.4) is assigned to every blocker that can receive combat damage; it
  may still put it all on one blocker, but then nothing goes past.
- A.27.Ruling.4-5: lethal damage counts damage already on the blocker and never
  prevention: protection from the trampler's color no longer stops trample.
- A.27.Ruling.6: a trampler whose blockers have all been removed deals all its damage to
  the defending player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.mtg.engine.assigned import Division
from versions.mtg.eras.fourth import RULINGS_MULTIPLAYER, Fourth, still_there
from versions.mtg.rules import MULTIPLAYER_RULES, Batch

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment
    from versions.mtg.engine.state import Board


class Fifth(Fourth):
    """Urza's Saga's trample (lethal damage to every blocker first); the damage
    prevention step; tapped blockers deal no damage."""

    id = "fifth"
    name = N_("Fifth Edition (damage prevention step)")
    summary = N_("Urza's Saga's trample (lethal damage to every blocker first); the damage "
                 "prevention step; tapped blockers deal no damage.")
    aliases = ("pre-sixth", "damage-prevention-step", "urza")
    began = "1998-10-18"
    ended = "1999-04-22"
    cr_modelled = ("General Rulings Summary, final release under the Fifth Edition rules "
                   "(D'Angelo, updated 1999-05-16)")
    cr_date = "1999-05-16"
    sources = (
        "D'Angelo, General Rulings Summary, final Fifth Edition release, 1999 (C.1-C.9, "
        "T.10, A.27, G.12, G.22, G.32)",
        "Moursund, Magic Rulings & Errata, 1998-10-18: Rules Changes as of Urza's Saga",
        "Fourth Edition FAQ and General Rulings Summary, 1995 (reposted 2009-08-17)",
        "Bleiweiss, \"Damage on the Stack\", 2002-12-11",
        "Bleiweiss, \"Thanksgiving in Dominia\", 2002-11-27",
    )
    changes = (
        N_("Trample is no longer damage redirection: a blocked trampler assigns damage to the "
        "defending player once every blocker is assigned lethal damage (A.27.2)."),
        N_("Lethal damage for trample ignores prevention: protection no longer stops trample "
        "(A.27.Ruling.5)."),
        N_("A trampler whose blockers are all removed deals its damage to the defending player "
        "(A.27.Ruling.6)."),
    )
    absent = frozenset({"wither", "infect", "infect-player", "trample-over-planeswalkers",
                        "battle-damage", "sba-battle"}) | (MULTIPLAYER_RULES -
                                                           RULINGS_MULTIPLAYER)

    RULES = {
        "trample": "A.27.2",
        "trample-no-blockers": "A.27.Ruling.6",
    }

    def division_rules(self, board: Board, source: str) -> tuple[Division, ...]:
        return (Division.TOTAL, Division.TRAMPLE)  # C.8.5, A.27.2: trample aside, free

    def trample_assigns_over(self, board: Board, creature: str) -> bool:
        return True  # A.27.2: to the defending player, once every blocker has lethal

    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        return still_there(board, waiting), []  # trample redirects nothing any more
