"""The scenario format of `game: duel-masters` (docs/duel-masters.md): one attack, from the
block step (ブロッククリーチャー指定ステップ, 507) to the battle or the direct attack.

The shape is checked here; what needs the whole scenario (ids, targets) is checked by
``problems``; whether the chosen redirections are legal is the era's (507.1a), as the
combat runs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from versions.common import (
    BOUND,
    ID_LENGTH,
    ID_PATTERN,
    Count,
    Described,
    ExpectOutcome,
    Strict,
    empty,
    keyword_list,
)
from versions.common import Keyword as WrittenKeyword
from versions.common import parse_keyword as read_keyword

PLAIN_KEYWORDS = ("blocker", "guardman", "cant-block", "cant-be-blocked", "cant-redirect",
                  "mach-fighter")  # マッハファイター: may attack an untapped creature
VALUED_KEYWORDS = ("breaker", "ninja-strike")
# Effects that commute: a group of triggered abilities with only these leaves the same state
# in whatever order it resolves (draws add up; a creature destroyed first is not then
# tapped or pumped, but off the battle zone neither shows). An effect added later that
# reads the state (say, "destroy one with 2000 power or less") must not be listed here.
COMMUTING_EFFECTS = frozenset({"draw", "tap", "destroy", "power"})
OUTCOME_PLAYER_FIELDS = ("shields", "drawn", "lost", "hand")
OUTCOME_PERMANENT_FIELDS = ("zone", "controller", "tapped", "power")
ZONES = ("battlefield", "graveyard", "hand")


class Keyword(WrittenKeyword):
    """`blocker`, or `{breaker: 2}`: written as Magic's keywords are, from its own list."""

    value: int | None = None  # type: ignore[assignment]

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        return {"anyOf": [
            {"type": "string", "enum": list(PLAIN_KEYWORDS)},
            {"type": "object", "additionalProperties": False, "minProperties": 1,
             "maxProperties": 1, "properties": {k: {"type": "integer", "minimum": 1,
                                                                   "maximum": BOUND}
                                                for k in VALUED_KEYWORDS}}]}


def parse_keyword(raw: Any) -> Keyword:
    """Read a keyword from Duel Masters' vocabulary, written as Magic's are."""
    return read_keyword(raw, Keyword, PLAIN_KEYWORDS, dict.fromkeys(VALUED_KEYWORDS, int))


Id = Annotated[str, Field(pattern=ID_PATTERN, max_length=ID_LENGTH)]
MAX_ATTACKS = 20
Redirections = Annotated[list[Id], Field(max_length=50)]  # in the order they resolve


class Ability(Strict):
    # attacks-player-unblocked: sabotage as dmwiki quotes it, "when it attacks the opponent
    # and isn't blocked" (seed 004): not when it attacks a creature
    trigger: Literal["blocks", "attacks-unblocked", "attacks-player-unblocked", "attacks"]
    effect: Literal["draw", "tap", "destroy", "power"]
    # draw: its controller; tap, destroy, power: self, the other creature of the attack, or
    # a creature named by id (an attack trigger that taps a would-be blocker)
    target: Literal["self", "that-creature", "controller"] | Id = "self"
    amount: Count = 1  # cards drawn; power added (until the end of the turn)


class Player(Strict):
    name: str = Field(min_length=1, max_length=ID_LENGTH)
    shields: Count = 5
    mana: Count = 0  # cards in the mana zone
    hand: Count = 0


class Creature(Strict):
    id: str = Field(pattern=ID_PATTERN, max_length=ID_LENGTH)
    controller: str
    name: str | None = Field(default=None, max_length=ID_LENGTH)  # a label for the log
    power: Count
    keywords: list[Keyword] = empty(list)
    abilities: list[Ability] = empty(list)
    tapped: bool = False
    zone: Literal["battlefield", "hand"] = "battlefield"  # a shinobi waits in the hand

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, v: Any) -> Any:
        return keyword_list(v, parse_keyword)


class CombatSpec(Strict):
    """The scenario's `combat:` section: what the file declares and intends (the running
    combat is the engine's)."""

    # Each attacker -> its target: the turn player's attacks, one after another, in this
    # order (a creature attacks once a turn).
    attacks: dict[str, str] = empty(dict, max_length=MAX_ATTACKS)
    # The creatures that redirect an attack, in the order they resolve: a list when the
    # scenario has one attack, else each attacker -> its list.
    redirect: Redirections | dict[Id, Redirections] = empty(list, max_length=MAX_ATTACKS)
    # Shinobi in their controllers' hands that try Ninja Strike at their timing (112.3c)
    # None: every shinobi in a hand tries, in listing order; []: none does
    ninja: list[str] | None = Field(default=None, max_length=50)


class Scenario(Described):
    game: Literal["duel-masters"]
    schema_: Literal[1] | None = Field(default=None, alias="schema")
    players: list[Player] = Field(min_length=2, max_length=2)
    active: str
    permanents: list[Creature] = Field(max_length=200)
    combat: CombatSpec = empty(CombatSpec)
    expect: dict[str, ExpectOutcome] = empty(dict)  # no `after`: an attack has no windows inside

    def redirect_for(self, attacker: str) -> list[str]:
        """The creatures written to redirect `attacker`'s attack, in resolution order."""
        r = self.combat.redirect
        return list(r.get(attacker, [])) if isinstance(r, dict) else list(r)

    def redirect_path(self, attacker: str) -> str:
        """Where `attacker`'s redirections are written ("combat.redirect" or
        "combat.redirect.ID"), for errors."""
        return "combat.redirect" + (f".{attacker}" if isinstance(self.combat.redirect, dict)
                                    else "")

    def permanent(self, pid: str) -> Creature | None:
        return next((p for p in self.permanents if p.id == pid), None)

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]


def problems(s: Scenario, eras: tuple[str, ...]) -> list[tuple[tuple[Any, ...], str]]:
    """What needs the whole scenario: ids, the attack, the redirections, `expect`."""
    out: list[tuple[tuple[Any, ...], str]] = []
    players = s.player_names()
    if len(set(players)) != len(players):
        out.append((("players",), "a player is listed twice"))
    if s.active not in players:
        out.append((("active",), f"{s.active!r} is not one of the players"))
    ids: set[str] = set()
    for i, p in enumerate(s.permanents):
        if p.id in ids or p.id in players:
            out.append((("permanents", i, "id"), f"id {p.id!r} is used twice"))
        ids.add(p.id)
        if p.controller not in players:
            out.append((("permanents", i, "controller"),
                        f"{p.controller!r} is not one of the players"))
        for j, ab in enumerate(p.abilities):
            if ab.target not in ("self", "that-creature", "controller") \
                    and s.permanent(ab.target) is None:
                out.append((("permanents", i, "abilities", j, "target"),
                            f"{ab.target!r} is not a creature of the scenario"))
    if not s.combat.attacks:
        out.append((("combat", "attacks"), "a Duel Masters scenario has at least one attack"))
    for n, (attacker, target) in enumerate(s.combat.attacks.items()):
        here = ("combat", "attacks", attacker)
        a = s.permanent(attacker)
        if a is None:
            out.append((here, f"attacker {attacker!r} is not a creature of the scenario"))
            continue
        if a.zone != "battlefield":
            out.append((here, f"{attacker} is in the hand, not the battle zone"))
        if a.tapped:
            out.append((here, f"{attacker} is tapped: a creature taps to attack"))
        if a.controller != s.active:
            out.append((here, f"{attacker} is controlled by {a.controller}, not the turn "
                              f"player {s.active}"))
        t = s.permanent(target)
        if target in players:
            if target == s.active:
                out.append((here, f"{attacker} can't attack its own player"))
        elif t is None:
            out.append((here, f"{target!r} is neither a player nor a creature"))
        elif t.controller == s.active:
            out.append((here, f"{target} is the turn player's own creature"))
        elif n == 0 and not t.tapped and not any(k.name == "mach-fighter"
                                                 for k in a.keywords):
            # A later attack's target may have tapped by then (a blocker that redirected
            # an earlier attack): that one is checked as its attack comes.
            out.append((here, f"{target} is untapped: only a tapped creature can be attacked "
                              f"(or an untapped one by a creature with mach-fighter)"))
    redirect = s.combat.redirect
    if isinstance(redirect, list):
        if len(s.combat.attacks) > 1 and redirect:
            out.append((("combat", "redirect"), "with several attacks, `redirect` maps each "
                                                "attacker to the creatures that redirect "
                                                "its attack"))
        lists = [(("combat", "redirect"), redirect)]
    else:
        lists = []
        for attacker, chosen in redirect.items():
            if attacker not in s.combat.attacks:
                out.append((("combat", "redirect", attacker),
                            f"{attacker!r} is not an attacker of `combat.attacks`"))
            lists.append((("combat", "redirect", attacker), chosen))
    for where, chosen in lists:
        for i, c in enumerate(chosen):
            p = s.permanent(c)
            if p is None:
                out.append(((*where, i), f"{c!r} is not a creature of the scenario"))
            elif p.controller == s.active:
                out.append(((*where, i), f"{c} is the turn player's: only the non-turn "
                                         f"player redirects an attack"))
        if len(set(chosen)) != len(chosen):
            out.append((where, "a creature is named twice"))
    for i, c in enumerate(s.combat.ninja or []):
        p = s.permanent(c)
        if p is None or p.zone != "hand" or not any(k.name == "ninja-strike"
                                                     for k in p.keywords):
            out.append((("combat", "ninja", i), f"{c!r} is not a creature in a hand with "
                                                f"ninja-strike"))
    for era, exp in s.expect.items():
        if era not in eras:
            out.append((("expect", era), f"unknown era {era!r} for duel-masters (one of "
                                         f"{', '.join(eras)})"))
        for kind, known, allowed, what in (
                ("players", players, OUTCOME_PLAYER_FIELDS, "player"),
                ("permanents", ids, OUTCOME_PERMANENT_FIELDS, "creature")):
            for name, fields in getattr(exp, kind).items():
                here = ("expect", era, kind, name)
                if name not in known:
                    out.append((here, f"{name!r} is not a {what} of the scenario"))
                out += [((*here, f), f"a {what}'s outcome has no field {f!r}")
                        for f in fields if f not in allowed]
    return out
