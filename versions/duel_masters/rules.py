"""``DuelMastersEra``: what a Duel Masters era's rulebook must say, as hooks, and its
metadata: the same shape as Magic's ``versions.mtg.rules``.

The attack procedure (``versions.duel_masters.engine.attack``) is the same in every era; the
2021-09-07 change is one hook (``designate``: which redirections count as blocks) and what a
single redirection does (``redirected``). The era modules (``eras/dm_pre_2021.py``,
``eras/dm_2021.py``) override only what their rules say differently, and the later
subclasses the earlier, as the Magic eras do."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from versions.common import EraInfo

# The game's id, as a scenario's `game:` names it.
GAME = "duel-masters"

if TYPE_CHECKING:
    from versions.duel_masters.engine.state import Fight


# The rule keys the attack procedure cites, whatever the era.
CORE_RULES = frozenset({"attack", "choose", "resolve", "blocked", "unblocked", "trigger",
                        "trigger-blocks", "battle", "win", "ninja", "break"})


class DuelMastersEra(EraInfo, ABC):
    """What every Duel Masters era says: its metadata and RULES (checked against what the
    procedure cites when the class is defined), and the hooks of the 2021-09-07 change."""

    game: ClassVar[str] = GAME

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # RULES merged over the parent's
        if cls.id:
            cls.check_rules(CORE_RULES)

    def refusal(self, scenario: Any) -> str | None:
        """Why this era can't run the scenario, or None (every Duel Masters era runs every
        Duel Masters scenario)."""
        return None

    @abstractmethod
    def redirected(self, fight: Fight, pid: str, ability: str) -> None:
        """What one redirection does as it resolves, beyond changing the target."""

    @abstractmethod
    def designate(self, fight: Fight, chosen: list[str], uses: list[str]) -> None:
        """Which creatures count as blocking once the redirections resolved (before
        2021-09-07, none beyond those that blocked as they redirected; after, the last, if
        a blocker)."""
