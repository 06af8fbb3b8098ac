"""The scenario format (spec §1) as pydantic models.

These models check the *shape* of a scenario: keys, types, closed vocabularies. Checks that
need the whole scenario (ids that must exist, blocks that must name attackers) live in
``comparator.games.mtg.checks``; block legality, which depends on the era's rules, lives in
``versions.mtg.engine.blocks``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from versions.common import (
    BOUND,
    ID_LENGTH,
    ID_PATTERN,
    Count,
    Described,
    ExpectOutcome,
    ExpectState,
    Number,
    Strict,
    empty,
    keyword_list,
)
from versions.common import Keyword as WrittenKeyword
from versions.common import parse_keyword as read_keyword

COLORS = ("white", "blue", "black", "red", "green")

PLAIN_KEYWORDS = (
    "flying", "reach", "first-strike", "double-strike", "trample", "deathtouch", "lifelink",
    "vigilance", "menace", "defender", "indestructible", "fear", "shadow", "flanking",
    "unblockable", "cant-block", "must-block", "lure", "can-block-any-number",
    "can-block-additional", "banding", "wither", "infect",
    # restrictions that count blockers (509.1b; the cards' own text)
    "cant-be-blocked-by-more-than-one", "cant-attack-or-block-alone",
    "cant-block-unless-greater-power-blocks", "must-be-blocked-by-all",
    "trample-over-planeswalkers",  # 702.19c (2020 on)
    "assign-as-unblocked",  # Thorn Elemental: may assign as though it weren't blocked
)
# One-key maps: the value's type.
VALUED_KEYWORDS: dict[str, type] = {"rampage": int, "bushido": int, "protection": str,
                                    "cant-be-blocked-except-by": int}

GAME = "mtg"  # the `game:` of a Magic scenario (the default)


class Window(StrEnum):
    """The timing windows of §1.2, in the order they come in a combat: where a player may
    act. One name for each, used by the file format, the engine, explore and narration."""

    # After attackers are declared, before blockers: where a would-be blocker can still be
    # tapped or removed (C.5 "Instants before Blocking"; 308.1 of 2009; 508.2-508.3 later).
    DECLARE_ATTACKERS = "declare-attackers"
    DECLARE_BLOCKERS = "declare-blockers"
    FIRST_STRIKE_DAMAGE_ON_STACK = "first-strike-damage-on-stack"  # sixth only (310.1)
    FIRST_STRIKE_DAMAGE_PREVENTION = "first-strike-damage-prevention"  # fifth only (T.10)
    FIRST_STRIKE_DAMAGE = "first-strike-damage"
    DAMAGE_ON_STACK = "damage-on-stack"  # sixth only
    DAMAGE_PREVENTION = "damage-prevention"  # fifth only
    COMBAT_DAMAGE = "combat-damage"
    END_OF_COMBAT = "end-of-combat"


WINDOWS: tuple[Window, ...] = tuple(Window)
# The windows that exist only if a creature has first or double strike as combat damage
# begins: until then, whether they exist is not known.
FIRST_STRIKE_WINDOWS = (Window.FIRST_STRIKE_DAMAGE_ON_STACK,
                        Window.FIRST_STRIKE_DAMAGE_PREVENTION, Window.FIRST_STRIKE_DAMAGE)


def damage_window(first_strike: bool) -> Window:
    """The window after a combat damage step's damage is dealt."""
    return Window.FIRST_STRIKE_DAMAGE if first_strike else Window.COMBAT_DAMAGE

# effect -> the fields it needs beyond `effect` (others are optional).
EFFECT_FIELDS: dict[str, tuple[str, ...]] = {
    "pump": ("target", "power", "toughness"),
    "damage": ("target", "amount"),
    "destroy": ("target",),
    "sacrifice": ("target",),
    "activate": ("source",),
    "regenerate": ("target",),
    "prevent": ("amount",),  # and a `target`, or `from` a source
    "bounce": ("target",),
    "tap": ("target",),
    "remove-from-combat": ("target",),
    "grant": ("target", "keyword"),
    "gain-life": ("target", "amount"),
    "counters": ("target", "amount"),
    "lose-life": ("target", "amount"),
    "lose-keyword": ("target", "keyword"),
    "prevent-all-combat-damage": (),  # this turn; optional `from` a source
    "become-blocked": ("target",),
    "enter-blocking": ("id", "controller", "power", "toughness", "attacker"),
    "add-mana": ("amount",),
    # Abyssal Nightstalker: the seed asks for the discard to be counted as an event.
    "discard": ("target",),
    # Underworld Cerberus: each player returns all creature cards from their graveyard to
    # their hand (with `exile-self`, the ability's source is exiled first).
    "return-creature-cards": (),
}
# Effects an ability (rather than an action) supplies with its own numbers; the action or the
# trigger supplies the target.
ABILITY_EFFECT_FIELDS = {k: tuple(f for f in v if f != "target") for k, v in EFFECT_FIELDS.items()}

OUTCOME_PLAYER_FIELDS = ("life", "lost", "poison", "graveyard", "hand")
OUTCOME_PERMANENT_FIELDS = (
    "zone", "controller", "damage", "power", "toughness", "tapped", "loyalty", "counters",
    "keywords", "defense",
)
# Outcome fields an older stored outcome (before engine 7) leaves out where they are their
# default: what `dataset check` and `verify` read when one is absent.
OUTCOME_DEFAULTS: dict[str, Any] = {"poison": 0, "counters": {}, "keywords": [],
                                     "graveyard": [], "hand": []}
COUNTER_KINDS = ("+1/+1", "-1/-1", "poison")
CounterKind = Literal["+1/+1", "-1/-1", "poison"]
ZONES = ("battlefield", "graveyard", "exile", "hand", "gone")


class Keyword(WrittenKeyword):
    """One keyword instance: `flying`, or `rampage` with value 2, or `protection` with `black`."""

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        """The keyword as a file writes it: a name, or a one-key map for valued ones."""
        return {"anyOf": [
            {"type": "string", "enum": list(PLAIN_KEYWORDS)},
            {"type": "object", "additionalProperties": False, "minProperties": 1,
             "maxProperties": 1, "properties": {
                 "rampage": {"type": "integer", "minimum": 1, "maximum": BOUND},
                 "bushido": {"type": "integer", "minimum": 1, "maximum": BOUND},
                 "cant-be-blocked-except-by": {"type": "integer", "minimum": 1,
                                               "maximum": BOUND},
                 "protection": {"type": "string", "enum": list(COLORS)}}},
        ]}


def parse_keyword(raw: Any) -> Keyword:
    """Read a keyword of Magic's vocabulary as written in a scenario or the card library
    (spec §1.1)."""
    return read_keyword(raw, Keyword, PLAIN_KEYWORDS, VALUED_KEYWORDS,
                                {"protection": COLORS})


class Filter(Strict):
    """`if:` on a trigger: a test on the other creature."""

    color: str | None = None
    not_color: str | None = Field(default=None, alias="not-color")

    @field_validator("color", "not_color")
    @classmethod
    def _color(cls, v: str | None) -> str | None:
        if v is not None and v not in COLORS:
            raise ValueError(f"unknown color {v!r}")
        return v


class Ability(Strict):
    trigger: Literal[
        "blocks", "blocks-creature", "becomes-blocked", "becomes-blocked-by-creature",
        "attacks-unblocked", "attacks-player-unblocked", "deals-combat-damage-to-player",
        "dealt-damage", "gains-life", "dies",
    ] | None = None
    activated: Literal["sacrifice-self", "tap", "sacrifice-creature", "mana"] | None = None
    effect: str
    target: Literal["self", "that-creature", "defending-player", "controller"] | None = None
    power: Number | None = None
    toughness: Number | None = None
    amount: Count | None = None  # damage, life, counters, prevention, mana: never negative
    mana: Count | None = None
    keyword: Keyword | None = None
    kind: CounterKind | None = None  # counters: +1/+1 (default), -1/-1, poison
    # pump: the amounts are per creature blocking the source as the ability resolves
    for_each: Literal["blocker"] | None = Field(default=None, alias="for-each")
    delay: Literal["end-of-combat"] | None = None
    if_: Filter | None = Field(default=None, alias="if")
    # return-creature-cards of a dies trigger: "exile it and each player returns ..."
    exile_self: bool = Field(default=False, alias="exile-self")

    @field_validator("keyword", mode="before")
    @classmethod
    def _keyword(cls, v: Any) -> Any:
        return None if v is None else parse_keyword(v)

    @model_validator(mode="after")
    def _shape(self) -> Ability:
        if (self.trigger is None) == (self.activated is None):
            raise ValueError("an ability has exactly one of `trigger` or `activated`")
        if self.effect not in EFFECT_FIELDS:
            raise ValueError(f"unknown effect {self.effect!r}")
        if self.effect in ("activate", "enter-blocking"):
            raise ValueError(f"effect {self.effect!r} is for actions, not abilities")
        needed = ABILITY_EFFECT_FIELDS[self.effect]
        missing = [f for f in needed if getattr(self, f) is None]
        if missing:
            raise ValueError(f"effect {self.effect!r} needs {', '.join(missing)}")
        if self.trigger is not None and self.target is None and (
                "target" in EFFECT_FIELDS[self.effect] or self.effect == "prevent"):
            raise ValueError(f"a triggered {self.effect!r} needs a `target`")
        if self.kind is not None and self.effect != "counters":
            raise ValueError(f"`kind` is for counters, not {self.effect!r}")
        if self.for_each is not None and self.effect != "pump":
            raise ValueError(f"`for-each` is for pump, not {self.effect!r}")
        if self.activated == "mana" and self.mana is None:
            raise ValueError("an ability with cost `mana` needs `mana: N`")
        if self.exile_self and (self.effect != "return-creature-cards" or self.trigger != "dies"):
            raise ValueError("`exile-self` is for a dies trigger's return-creature-cards")
        return self


PlayerProtection = Literal["white", "blue", "black", "red", "green", "creatures"]


class ZoneCard(Strict):
    """A card in a graveyard or hand as combat begins: its name, and whether it is a
    creature card (what Nighthowler counts and Underworld Cerberus returns)."""

    name: str = Field(min_length=1, max_length=ID_LENGTH)
    creature: bool = False


# A card of the library by name (its types say whether it is a creature card), or written
# out. The loader turns names into ZoneCards.
ZoneCards = list[Annotated[str | ZoneCard, Field(union_mode="left_to_right")]]


class Player(Strict):
    name: str = Field(min_length=1, max_length=ID_LENGTH)
    # Two-Headed Giant's teams share a life total of 30 (606.4a of 2009-05-01): unwritten,
    # a player's life there is 30, else 20 (``versions.mtg.table``).
    life: Number = 20
    # The player's team in a multiplayer game with teams (Two-Headed Giant, Emperor, Teams);
    # unwritten, each player plays alone.
    team: str | None = Field(default=None, pattern=ID_PATTERN, max_length=ID_LENGTH)
    mana: Count = 0
    poison: Count = 0
    protection: list[PlayerProtection] = empty(list)  # colors, or creatures (702.16e)
    graveyard: ZoneCards = empty(list, max_length=200)  # bottom first
    hand: ZoneCards = empty(list, max_length=200)


class PermanentSpec(Strict):
    id: str = Field(pattern=ID_PATTERN, max_length=ID_LENGTH)
    controller: str
    card: str | None = None
    power: Number | None = None
    toughness: Number | None = None
    keywords: list[Keyword] = empty(list)
    abilities: list[Ability] = empty(list)
    damage: Count = 0
    tapped: bool = False
    # `artifact` is accepted beside the spec's three so that fear can see artifact creatures.
    types: list[Literal["creature", "planeswalker", "battle", "artifact", "land"]] = empty(list)
    loyalty: Count | None = None
    defense: Count | None = None  # a battle's defense counters (310.4)
    protector: str | None = None  # a battle's protector (310.8; default: its controller)
    colors: list[str] = empty(list)
    token: bool = False
    block_cost: Count = Field(default=0, alias="block-cost")
    # Counters it has as combat begins: +1/+1 and -1/-1 (a player's are `poison`).
    counters: dict[Literal["+1/+1", "-1/-1"], Count] = empty(dict)
    # A noncreature permanent (a land) that is a creature only through this permanent's
    # effect (Ambush Commander's Forests), with the `power` and `toughness` it gives: when
    # that permanent leaves the battlefield, this one stops being a creature.
    animated_by: str | None = Field(default=None, alias="animated-by", pattern=ID_PATTERN)
    # +X/+X, X the number of creature cards in all graveyards (Nighthowler; Lhurgoyf with
    # toughness 1 printed), counted as it is now: it grows once the dead are in graveyards.
    graveyard_count: bool = Field(default=False, alias="grows-with-graveyards")
    name: str | None = None  # filled from `card` when resolved; a label for the log

    @field_validator("keywords", mode="before")
    @classmethod
    def _keywords(cls, v: Any) -> Any:
        return keyword_list(v, parse_keyword)

    @field_validator("colors")
    @classmethod
    def _colors(cls, v: list[str]) -> list[str]:
        for c in v:
            if c not in COLORS:
                raise ValueError(f"unknown color {c!r} (one of {', '.join(COLORS)})")
        return v


AssignAmounts = dict[str, Count]
Intent = AssignAmounts | Literal["most-kills"]


class SplitAssign(Strict):
    """A double striker's intended divisions in each of its two combat damage steps."""

    first: Intent | None = None
    second: Intent | None = None


class CombatSpec(Strict):
    """The scenario's `combat:` section: what the file declares and intends (the running
    combat is the engine's)."""

    attacks: dict[str, str] = empty(dict)
    # Attacking bands (banding): each a list of attackers declared together; a creature
    # blocking one member blocks them all (A.11.8; 502.10e; 702.19h; 702.22h).
    bands: list[list[str]] = empty(list, max_length=100)
    blocks: dict[str, str | list[str]] = empty(dict)
    order: dict[str, list[str]] = empty(dict)
    assign: dict[str, Annotated[AssignAmounts | Literal["most-kills"] | SplitAssign,
                                Field(union_mode="left_to_right")]] = empty(dict)

    def blocked_attackers(self, blocker: str) -> list[str]:
        v = self.blocks.get(blocker)
        if v is None:
            return []
        return [v] if isinstance(v, str) else list(v)


# A window as a file names it: the model keeps the text (the engine compares it with
# ``Window`` members, which are equal to their names), built from the one list above.
WindowName = Literal[tuple(w.value for w in Window)]  # type: ignore[valid-type]


class Action(Strict):
    # `explore` offers the action in each window listed and at each target listed (explore
    # contract §6.2); `run` and `diff` take it in the first listed window the era has (else
    # the first, with `if-missing`), at the first target.
    at: WindowName | list[WindowName] = Field(union_mode="left_to_right")
    by: str
    effect: str
    target: str | list[str] | None = Field(default=None, union_mode="left_to_right")
    power: Number | None = None
    toughness: Number | None = None
    amount: Count | None = None  # damage, life, counters, prevention, mana: never negative
    # activate: whose ability; damage: the permanent that deals it (its deathtouch,
    # lifelink, wither and infect apply)
    source: str | None = None
    ability: Count = 0
    kind: CounterKind | None = None  # counters: +1/+1 (default), -1/-1, poison
    keyword: Keyword | None = None
    id: str | None = Field(default=None, pattern=ID_PATTERN)
    controller: str | None = None
    attacker: str | None = None
    sacrifice: str | None = None  # the creature sacrificed to a `sacrifice-creature` cost
    # prevent, prevent-all-combat-damage: the source whose damage is prevented
    from_: str | None = Field(default=None, alias="from", pattern=ID_PATTERN)
    if_missing: Literal["skip", "earlier", "later"] = Field(default="skip", alias="if-missing")
    required: bool = False  # explore: taken at its first legal window
    card: str | None = None

    @property
    def windows(self) -> list[str]:
        return [self.at] if isinstance(self.at, str) else list(self.at)

    @property
    def window(self) -> str:
        return self.windows[0]

    @property
    def targets(self) -> list[str | None]:
        if self.target is None:
            return [None]
        return [self.target] if isinstance(self.target, str) else list(self.target)

    @property
    def first_target(self) -> str | None:
        return self.targets[0]

    @field_validator("keyword", mode="before")
    @classmethod
    def _keyword(cls, v: Any) -> Any:
        return None if v is None else parse_keyword(v)

    @model_validator(mode="after")
    def _shape(self) -> Action:
        if self.effect not in EFFECT_FIELDS:
            raise ValueError(f"unknown effect {self.effect!r} (one of {', '.join(EFFECT_FIELDS)})")
        missing = [f for f in EFFECT_FIELDS[self.effect] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"effect {self.effect!r} needs {', '.join(missing)}")
        if isinstance(self.at, list) and not self.at:
            raise ValueError("`at` lists at least one window")
        if isinstance(self.target, list) and not self.target:
            raise ValueError("`target` lists at least one candidate")
        if self.source is not None and self.effect not in ("activate", "damage"):
            raise ValueError(f"`source` is for activate and damage, not {self.effect!r}")
        if self.kind is not None and self.effect != "counters":
            raise ValueError(f"`kind` is for counters, not {self.effect!r}")
        if self.from_ is not None and self.effect not in ("prevent",
                                                          "prevent-all-combat-damage"):
            raise ValueError(f"`from` is for prevent and prevent-all-combat-damage, not "
                             f"{self.effect!r}")
        if self.effect == "prevent" and (self.target is None) == (self.from_ is None):
            raise ValueError("prevent needs a `target` (the next N damage to it) or `from` "
                             "(the next N damage that source would deal), not both")
        return self


class ExpectEra(ExpectOutcome):
    # The state as a window inside combat ends (its actions and triggers done), for example
    # life after first-strike damage.
    after: dict[WindowName, ExpectState] = empty(dict)
    # Blocker -> exactly the attackers it can block as blockers are declared (`blocks
    # --can`): each listed one it can, each other attacker it can't.
    can_block: dict[str, list[str]] = empty(dict, alias="can-block")
    # The blocks the defending player declares with best play (`blocks --best`, under
    # the objective `material`): blocker -> the attacker(s) it blocks; {} for none.
    best_blocks: dict[str, str | list[str]] | None = Field(default=None, alias="best-blocks")

    @model_validator(mode="after")
    def _can_block_with_an_outcome(self) -> ExpectEra:
        if self.refused is not None and (self.can_block or self.best_blocks is not None):
            raise ValueError("an era expected to refuse the scenario has no blocks to "
                             "expect: `refused` goes alone")
        return self


# The multiplayer variants of the Comprehensive Rules (605-609 of 2009-05-01; 806-811 of
# M10 on) and their attack options (602, 604; 802, 803).
# A Two-Headed Giant team's shared life as the game begins (606.4a of 2009-05-01; 806.4a;
# 810.4): a player's `life` where the file writes none.
TWO_HEADED_LIFE = 30
VARIANTS = ("free-for-all", "two-headed-giant", "emperor", "grand-melee", "teams")
ATTACK_OPTIONS = ("multiple", "left", "right")


class Multiplayer(Strict):
    """The multiplayer variant in force and its options (contract §1.8). Players are listed
    in turn order, which goes to each player's left (607.4): the next player in the list
    sits to the left, the one before to the right, the last player's left is the first."""

    variant: Literal["free-for-all", "two-headed-giant", "emperor", "grand-melee",
                     "teams"] = "free-for-all"
    # The attack multiple players option (602), attack left or attack right (604): exactly
    # one is used in Free-for-All and Teams games (605.2b, 609.2b). Unwritten, the
    # variant's own (Grand Melee: left, 608.2b; Emperor: each opponent seated next to the
    # attacker, 607.3c; Two-Headed Giant: none, 606.2) or, else, multiple.
    attack: Literal["multiple", "left", "right"] | None = None
    # The limited range of influence option (601): the seats each player reaches; a map
    # gives each player their own (601.2a). Emperor: 2 for emperors, 1 for generals
    # (607.3a); Grand Melee: 1 (608.2a).
    range_of_influence: Count | dict[str, Count] | None = Field(
        default=None, alias="range-of-influence")

    @field_validator("range_of_influence", mode="before")
    @classmethod
    def _seats(cls, value: Any) -> Any:
        """One number of seats for every player, or a map player -> seats: said as one
        problem, not as the union's two."""
        def seats(n: Any) -> bool:
            return isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= BOUND
        if value is None or seats(value) or (
                isinstance(value, dict) and all(isinstance(k, str) and seats(v)
                                                for k, v in value.items())):
            return value
        raise ValueError("a number of seats (0 or more), or a map player -> seats")


class Scenario(Described):
    game: Literal["mtg"] = GAME
    schema_: Literal[1] | None = Field(default=None, alias="schema")
    players: list[Player] = Field(min_length=2, max_length=100)  # Grand Melee: 10 or more
    active: str
    # Absent: a two-player game, or, with more players, Free-for-All attacking multiple
    # players (contract §1.7).
    multiplayer: Multiplayer | None = None

    @model_validator(mode="before")
    @classmethod
    def _two_headed_life(cls, data: Any) -> Any:
        """A Two-Headed Giant team's shared life starts at 30 (606.4a), unless written."""
        mp = data.get("multiplayer") if isinstance(data, dict) else None
        players = data.get("players") if isinstance(data, dict) else None
        if isinstance(mp, dict) and mp.get("variant") == "two-headed-giant" and \
                isinstance(players, list):
            data = {**data, "players": [{"life": TWO_HEADED_LIFE, **p}
                                        if isinstance(p, dict) else p
                                        for p in players]}
        return data
    # A combat, not a game: bounded so that no file can make a run or a search endless.
    permanents: list[PermanentSpec] = Field(max_length=200)
    combat: CombatSpec = empty(CombatSpec)
    actions: list[Action] = empty(list, max_length=200)
    # The order triggers one player controls go on the stack (the last resolves first):
    # source ids, card names or "SOURCE CONDITION" descriptions.
    trigger_order: list[str] = empty(list, alias="trigger-order", max_length=200)
    expect: dict[str, ExpectEra] = empty(dict)

    def after_windows(self) -> frozenset[str]:
        """The windows whose states some era's expectations check."""
        return frozenset(w for e in self.expect.values() for w in e.after)

    def permanent(self, pid: str) -> PermanentSpec | None:
        return next((p for p in self.permanents if p.id == pid), None)

    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

