"""Duel Masters: its scenario format (``scenario``), the hooks an era implements
(``rules``), the attack procedure (``engine``) and one module per era (``eras``).

This module is the one place that lists Duel Masters' eras: ``versions`` finds the game
here. Listing them loads neither the engine nor the scenario model: a command that runs a
Magic scenario never pays for Duel Masters' code."""

from versions.common import N_
from versions.duel_masters.eras.dm_2021 import Dm2021
from versions.duel_masters.eras.dm_pre_2021 import DmPre2021
from versions.duel_masters.rules import GAME

ID = GAME
TITLE = N_("Duel Masters")
ORDER = 1
PLAY = "versions.duel_masters.play"  # run(era, scenario), exploration(era, scenario)
ERAS = (DmPre2021, Dm2021)  # oldest first
