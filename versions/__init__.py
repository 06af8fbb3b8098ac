"""The rules of each era of each game, and a registry that finds an era by id or alias.

Each game is a subpackage (``versions/mtg``, ``versions/duel_masters``) whose
``__init__`` declares its ``ID``, ``TITLE``, ``ORDER``, ``ERAS`` (oldest first) and ``PLAY``
(the name of its module with ``run(era, scenario)`` and ``exploration(era, scenario)``,
imported when a scenario of the game is first run); this registry discovers them, so adding
a game or an era touches that game's folder only.

``versions`` never imports ``comparator``: the eras know nothing of files, databases or
the command line.
"""

from __future__ import annotations

import pkgutil
import re
from importlib import import_module
from types import ModuleType
from typing import Any

from versions.common import EraInfo, IllegalChoice, NotInEra, did_you_mean

# Bump when the engine's outcomes change on purpose: stored runs are keyed by it.
# 13: the era alpha (the 1993 rulebook: prevention before damage, no window once damage
# dealing begins; trample's excess dealt with the rest); fourth begins on 1994-01-01; no
# other era's outcome changed;
# 12: fourth: damage redirected as a damage prevention step ends waits until that step
# has ended (creatures with lethal damage destroyed, their triggers resolved: T.10.1 steps
# 5-6) before its new step begins (T.10.11): the events come in that order, the state as
# before; flanking triggers for a creature put onto the battlefield blocking where "becomes
# blocked by a creature" abilities do (sixth, for an unblocked attacker: 309.4; m11 and
# foundations: 509.4d of 2010), never before Sixth (A.19.2: "assigned to block");
# 11: no run's outcome changed, but explorations did where an attacking band was blocked:
# a blocker declared on two members and one blocking the second only through the band
# were merged (the same blocks), though before Sixth rampage and flanking count only
# the declared (found by comparing random bands with brute force);
# 10: no run's outcome changed, but explorations did (lines counted for the wrong outcome,
# found by comparing random combats with brute force): positions where nothing could change
# who survives merged without seeing a regeneration shield or indestructible on a creature
# with lethal damage; divisions merged in fourth and fifth though players act in the damage
# prevention step, and past damage an earlier creature assigned to one protected from it;
# a `lines-refused` note counted a merged subtree's refusals once;
# 9: no outcome changed, but their divergences did (a hand's or graveyard's cards, and
# keyword lists, were dropped from diffs): stored runs are run again to store them;
# 8: the fourth era; m10: a creature put onto the battlefield blocking never "blocked"
# (509.7 of 2009-07-08), sixth: it triggers only an unblocked attacker (309.4);
# 7: every player and permanent carries every field (poison, counters, keywords at the
# end of combat); 6: fifth: a prevention shield ends with its damage prevention step;
# 5: Duel Masters: shinobi in a hand try Ninja Strike unless combat.ninja lists them;
# 4: counters events name their kind; poison, wither, infect.
ENGINE_VERSION = "13"


def _games() -> list[ModuleType]:
    found = [import_module(f"{__name__}.{m.name}") for m in pkgutil.iter_modules(__path__)
             if m.ispkg]
    return sorted((g for g in found if hasattr(g, "ERAS")), key=lambda g: g.ORDER)


_GAME_MODULES = _games()
# Each game's eras, oldest first. Era ids are unique across games.
GAMES: dict[str, tuple[Any, ...]] = {g.ID: tuple(g.ERAS) for g in _GAME_MODULES}
TITLES: dict[str, str] = {g.ID: g.TITLE for g in _GAME_MODULES}
# The game's package name (``duel_masters`` for ``duel-masters``): the comparator's adapter
# for a game lives in a package of the same name under ``comparator/games``.
PACKAGES: dict[str, str] = {g.ID: g.__name__.rpartition(".")[2] for g in _GAME_MODULES}
_PLAYS: dict[str, str] = {g.ID: g.PLAY for g in _GAME_MODULES}
DEFAULT_GAME: str = _GAME_MODULES[0].ID
ERAS: tuple[Any, ...] = GAMES[DEFAULT_GAME]  # the main game's
ERA_IDS: tuple[str, ...] = tuple(e.id for e in ERAS)
ALL_ERAS: tuple[Any, ...] = tuple(e for eras in GAMES.values() for e in eras)


def eras_of(game: str) -> tuple[str, ...]:
    """The ids of a game's eras, oldest first."""
    return tuple(e.id for e in GAMES[game])


def find_era(name: str, game: str | None = None) -> Any:
    """The era named by its id or one of its aliases (case-insensitive), of any game; or,
    named by a date (YYYY-MM-DD), the era of `game` (the main game's by default) in force
    that day."""
    key = name.strip().lower()
    if re.fullmatch(r"\d{4}-\d\d-\d\d", key):
        return era_on(key, game or DEFAULT_GAME)
    for era in ALL_ERAS:
        if key == era.id or key in era.aliases:
            return era
    known = ", ".join(e.id + (f" ({', '.join(e.aliases)})" if e.aliases else "")
                      for e in ALL_ERAS)
    names = [n for e in ALL_ERAS for n in (e.id, *e.aliases)]
    raise KeyError(f"unknown era {name!r}{did_you_mean(key, names)}; known: {known}")


def run(era: str, scenario: Any) -> dict[str, Any]:
    """The outcome JSON of `scenario`'s written line under the era named `era`, of its
    game (``NotInEra`` if the era can't run it)."""
    rules = find_era(era)
    return import_module(_PLAYS[rules.game]).run(rules(), scenario)


def exploration(era: str, scenario: Any) -> Any:
    """`scenario` under the era named `era`, to be played decision by decision: an object
    with ``advance()`` (the next decision, or None at the end), ``resume(choice)``,
    ``copy()`` and ``outcome()`` (``versions.common.Playing``)."""
    rules = find_era(era)
    return import_module(_PLAYS[rules.game]).exploration(rules(), scenario)


def era_on(date: str, game: str) -> Any:
    """The era of `game` in force on `date` (YYYY-MM-DD)."""
    for era in GAMES[game]:
        if era.began <= date and (era.ended is None or date <= era.ended):
            return era
    first = GAMES[game][0]
    raise KeyError(f"no era of {game} modelled on {date}: the first, {first.id}, began "
                   f"{first.began}" if date < first.began else
                   f"no era of {game} modelled on {date}")


def eras_on(date: str) -> list[Any]:
    """Each game's era in force on `date` (those of games that had one)."""
    out = []
    for game in GAMES:
        try:
            out.append(era_on(date, game))
        except KeyError:
            continue
    return out


__all__ = ["ALL_ERAS", "DEFAULT_GAME", "ENGINE_VERSION", "ERAS", "ERA_IDS", "GAMES",
           "PACKAGES", "TITLES", "EraInfo", "IllegalChoice", "NotInEra", "era_on",
           "eras_of", "eras_on", "exploration", "find_era", "run"]
