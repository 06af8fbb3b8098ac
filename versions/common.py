"""What every era of every game says about itself: its id, dates, the rules text it
models, what changed, and its table of rule numbers. The games' eras (Magic's
``versions.mtg.rules.Era``, Duel Masters' ``versions.duel_masters.rules.DuelMastersEra``) add
their procedures to it."""

from __future__ import annotations

from typing import Any, ClassVar


class NotInEra(Exception):
    """The scenario uses something this era's rules did not have (a keyword that did not
    exist yet, another game): the era refuses to run it rather than answer with an
    anachronism."""

    def __init__(self, era: str, why: str):
        self.era = era
        self.why = why
        super().__init__(f"{era}: {why}")


class IllegalChoice(Exception):
    """A choice the scenario writes (blocks, redirections) that the era's rules forbid: a
    problem of the scenario file, not of the engine. `problems` each have a `path` (the
    field), a `message` and the `rule`."""

    what: ClassVar[str] = "illegal"  # how a report names it: "illegal block in m10: ..."
    era: str
    problems: list[Any]


class EraInfo:
    game: ClassVar[str] = ""
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    began: ClassVar[str] = ""
    ended: ClassVar[str | None] = None
    cr_modelled: ClassVar[str] = ""  # the document the rule numbers are taken from
    cr_date: ClassVar[str] = ""  # that document's date, YYYY-MM-DD
    sources: ClassVar[tuple[str, ...]] = ()
    changes: ClassVar[tuple[str, ...]] = ()  # what this era changed from the one before
    unverified: ClassVar[tuple[str, ...]] = ()  # RULES keys whose number no text confirms
    RULES: ClassVar[dict[str, str]] = {}

    def check_game(self, scenario: Any) -> None:
        """Refuse a scenario of another game."""
        if scenario.game != self.game:
            raise NotInEra(self.id, f"it is a {scenario.game} scenario, and {self.id} is an "
                                    f"era of {self.game}")

    @classmethod
    def rule(cls, key: str) -> str:
        return cls.RULES[key]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        return {
            "id": cls.id, "game": cls.game, "name": cls.name, "aliases": list(cls.aliases),
            "began": cls.began, "ended": cls.ended, "cr": cls.cr_modelled,
            "cr_date": cls.cr_date, "sources": list(cls.sources),
            "changes": list(cls.changes),
            "summary": (cls.__doc__ or "").strip().split("\n")[0],
        }
