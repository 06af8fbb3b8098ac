"""Duel Masters: its scenario format (``scenario``), the hooks an era implements
(``rules``), the attack procedure (``engine``) and one module per era (``eras``).

This module is the one place that lists Duel Masters' eras: ``versions`` finds the game
here."""

from versions.duel_masters import play
from versions.duel_masters.eras.dm_2021 import Dm2021
from versions.duel_masters.eras.dm_pre_2021 import DmPre2021
from versions.duel_masters.scenario import GAME

ID = GAME
TITLE = "Duel Masters"
ORDER = 1
PLAY = play  # run(era, scenario), exploration(era, scenario)
ERAS = (DmPre2021, Dm2021)  # oldest first
