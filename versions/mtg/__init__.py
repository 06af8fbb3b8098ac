"""Magic: The Gathering: its scenario format (``scenario``), the hooks an era implements
(``rules``), the combat procedure (``engine``) and one module per era (``eras``).

This module is the one place that lists Magic's eras: ``versions`` finds the game here."""

from versions.common import N_
from versions.mtg.eras.alpha import Alpha
from versions.mtg.eras.fifth import Fifth
from versions.mtg.eras.foundations import Foundations
from versions.mtg.eras.fourth import Fourth
from versions.mtg.eras.m10 import M10
from versions.mtg.eras.m11 import M11
from versions.mtg.eras.sixth import Sixth
from versions.mtg.scenario import GAME

ID = GAME
TITLE = N_("Magic: The Gathering")
ORDER = 0  # the main game: listed first, and a scenario without `game:` is one of its
PLAY = "versions.mtg.play"  # run(era, scenario), exploration(era, scenario)
ERAS = (Alpha, Fourth, Fifth, Sixth, M10, M11, Foundations)  # oldest first
