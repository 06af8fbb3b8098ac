"""The rules of each era, and a registry that finds an era by id or alias.

``versions`` never imports ``comparator``: the eras know nothing of files, databases or
the command line.
"""

from __future__ import annotations

from versions.fifth import Fifth
from versions.foundations import Foundations
from versions.game.combat import IllegalBlocks
from versions.game.era import Era, NotInEra
from versions.m10 import M10
from versions.m11 import M11
from versions.sixth import Sixth

# Bump when the engine's outcomes change on purpose: stored runs are keyed by it.
ENGINE_VERSION = "4"  # 4: counters events name their kind; poison, wither, infect

ERAS: tuple[type[Era], ...] = (Fifth, Sixth, M10, M11, Foundations)
ERA_IDS: tuple[str, ...] = tuple(e.id for e in ERAS)


def find_era(name: str) -> type[Era]:
    """The era named by its id or one of its aliases (case-insensitive)."""
    key = name.strip().lower()
    for era in ERAS:
        if key == era.id or key in era.aliases:
            return era
    known = ", ".join(f"{e.id} ({', '.join(e.aliases)})" for e in ERAS)
    raise KeyError(f"unknown era {name!r}; known: {known}")


__all__ = ["ENGINE_VERSION", "ERAS", "ERA_IDS", "Era", "IllegalBlocks", "NotInEra", "find_era"]
