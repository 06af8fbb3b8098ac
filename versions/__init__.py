"""The rules of each era, and a registry that finds an era by id or alias.

``versions`` never imports ``comparator``: the eras know nothing of files, databases or
the command line.
"""

from __future__ import annotations

from typing import Any

from versions.dm_2021 import Dm2021
from versions.dm_pre_2021 import DmPre2021
from versions.duel_masters.era import DuelMastersEra, IllegalRedirect
from versions.era_info import IllegalChoice
from versions.fifth import Fifth
from versions.foundations import Foundations
from versions.game.combat import IllegalBlocks
from versions.game.era import Era, NotInEra
from versions.m10 import M10
from versions.m11 import M11
from versions.sixth import Sixth

# Bump when the engine's outcomes change on purpose: stored runs are keyed by it.
ENGINE_VERSION = "5"  # 5: Duel Masters: shinobi in a hand try Ninja Strike unless combat.ninja
# lists them; 4: counters events name their kind; poison, wither, infect

# Each game's eras, oldest first. Era ids are unique across games.
GAMES: dict[str, tuple[Any, ...]] = {
    "mtg": (Fifth, Sixth, M10, M11, Foundations),
    "duel-masters": (DmPre2021, Dm2021),
}
ERAS: tuple[type[Era], ...] = GAMES["mtg"]  # Magic's, the main game's
ERA_IDS: tuple[str, ...] = tuple(e.id for e in ERAS)
ALL_ERAS: tuple[Any, ...] = tuple(e for eras in GAMES.values() for e in eras)


def eras_of(game: str) -> tuple[str, ...]:
    """The ids of a game's eras, oldest first."""
    return tuple(e.id for e in GAMES[game])


def find_era(name: str) -> Any:
    """The era named by its id or one of its aliases (case-insensitive), of any game."""
    key = name.strip().lower()
    for era in ALL_ERAS:
        if key == era.id or key in era.aliases:
            return era
    known = ", ".join(f"{e.id} ({', '.join(e.aliases)})" for e in ALL_ERAS)
    raise KeyError(f"unknown era {name!r}; known: {known}")


__all__ = ["ALL_ERAS", "ENGINE_VERSION", "ERAS", "ERA_IDS", "GAMES", "DuelMastersEra", "Era",
           "IllegalBlocks", "IllegalChoice", "IllegalRedirect", "NotInEra", "eras_of", "find_era"]
