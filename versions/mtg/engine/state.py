"""The era-agnostic game state: players, permanents, who attacks and blocks whom, the log.

Nothing here knows an era's rules; the era's hooks (``versions.mtg.rules``) drive it. Rule numbers
reach the log through ``Board.rule(key)``, which asks the era, so every event is cited in
that era's own numbering.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from versions.common import EraInfo
from versions.mtg.scenario import Ability, Keyword, Scenario, Window
from versions.mtg.table import Table


@dataclass
class PlayerState:
    name: str
    life: int
    mana: int = 0
    lost: bool = False
    prevention: int = 0  # the next N damage to this player is prevented
    poison: int = 0
    protection: tuple[str, ...] = ()  # colors, or "creatures"
    graveyard: list[Card] = field(default_factory=list)  # bottom first
    hand: list[Card] = field(default_factory=list)


@dataclass(frozen=True)
class Card:
    """A card in a graveyard or hand: a scenario's permanent that went there (`pid`), or
    one that was there as combat began."""

    name: str
    creature: bool
    pid: str | None = None


def _copy_player(p: PlayerState) -> PlayerState:
    twin = object.__new__(PlayerState)
    twin.__dict__.update(p.__dict__)
    twin.graveyard, twin.hand = list(p.graveyard), list(p.hand)
    return twin


@dataclass(frozen=True)
class Snapshot:
    """Last known information of a permanent as it left the battlefield: what leaving
    resets (its controller and colors stay on the object)."""

    power: int
    toughness: int
    keywords: tuple[Keyword, ...]


@dataclass
class Permanent:
    id: str
    name: str
    controller: str
    printed_power: int
    printed_toughness: int
    printed_loyalty: int | None
    base_keywords: list[Keyword]
    abilities: list[Ability]
    colors: frozenset[str]
    types: frozenset[str]
    artifact: bool = False
    token: bool = False
    block_cost: int = 0
    damage: int = 0
    tapped: bool = False
    loyalty: int | None = None
    printed_defense: int | None = None
    defense: int | None = None  # a battle's defense counters
    protector: str | None = None
    zone: str = "battlefield"
    pumps: list[tuple[int, int]] = field(default_factory=list)
    plus: int = 0  # +1/+1 counters
    minus: int = 0  # -1/-1 counters
    granted: list[Keyword] = field(default_factory=list)
    # Keywords it lost until end of turn, each with how many grants came before the loss:
    # effects apply in timestamp order (a keyword granted after the loss is kept).
    losses: list[tuple[str, int]] = field(default_factory=list)
    regen_shields: int = 0
    prevention: int = 0
    deathtouched: bool = False  # dealt damage by a deathtouch source since SBA were checked
    lki: Snapshot | None = None
    animated_by: str | None = None  # a creature only through this permanent's effect
    grows: bool = False  # +X/+X, X the creature cards in all graveyards
    grown: int = 0  # that X, as the board last counted it
    # The printed keywords never change once the permanent exists: their names are looked
    # up hundreds of times a combat, so they are kept as a set.
    base_names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.base_names = frozenset(k.name for k in self.base_keywords)

    @property
    def on_battlefield(self) -> bool:
        return self.zone == "battlefield"

    @property
    def is_creature(self) -> bool:
        return "creature" in self.types

    @property
    def is_planeswalker(self) -> bool:
        return "planeswalker" in self.types

    @property
    def power(self) -> int:
        if self.zone != "battlefield" and self.lki is not None:
            return self.lki.power
        power = self.printed_power + self.plus - self.minus + self.grown
        for p, _ in self.pumps:
            power += p
        return power

    @property
    def toughness(self) -> int:
        if self.zone != "battlefield" and self.lki is not None:
            return self.lki.toughness
        toughness = self.printed_toughness + self.plus - self.minus + self.grown
        for _, t in self.pumps:
            toughness += t
        return toughness

    @property
    def keywords(self) -> list[Keyword]:
        if not self.on_battlefield and self.lki is not None:
            return list(self.lki.keywords)
        if not self.losses:
            return self.base_keywords + self.granted
        return ([k for k in self.base_keywords if not self._lost_after(k.name, -1)]
                + [k for i, k in enumerate(self.granted) if not self._lost_after(k.name, i)])

    def _lost_after(self, name: str, grant: int) -> bool:
        """Whether a loss of `name` came after grant number `grant` (-1: printed)."""
        return any(n == name and grant < before for n, before in self.losses)

    def count(self, name: str) -> int:
        """Instances of a keyword: triggered keywords trigger once per instance."""
        return sum(1 for k in self.keywords if k.name == name)

    def has(self, name: str) -> bool:
        if self.zone != "battlefield" and self.lki is not None:
            return any(k.name == name for k in self.lki.keywords)
        if self.losses:
            return any(k.name == name for k in self.keywords)
        if name in self.base_names:
            return True
        return bool(self.granted) and any(k.name == name for k in self.granted)

    @property
    def counters(self) -> dict[str, int]:
        """Its counters by kind, where it has any (the outcome's `counters`)."""
        return {k: n for k, n in (("+1/+1", self.plus), ("-1/-1", self.minus)) if n}

    def values(self, name: str) -> list[Any]:
        return [k.value for k in self.keywords if k.name == name]

    def protected_from(self, source: Permanent | None) -> bool:
        if source is None or not source.colors:
            return False
        return any(k.name == "protection" and k.value in source.colors
                   for k in self.keywords)

    def snapshot(self) -> Snapshot:
        return Snapshot(power=self.power, toughness=self.toughness,
                        keywords=tuple(self.keywords))

    def deanimate(self) -> None:
        """It stops being a creature: what made it one has left, or it has."""
        self.types, self.animated_by = self.types - {"creature"}, None

    def copy(self) -> Permanent:
        # Everything else on a permanent is immutable or replaced, never changed in place.
        # (Built by hand: dataclasses.replace is several times slower, and a search copies
        # every permanent at every decision.)
        twin = object.__new__(Permanent)
        twin.__dict__.update(self.__dict__)
        twin.pumps = list(self.pumps)
        twin.granted = list(self.granted)
        twin.losses = list(self.losses)
        return twin


@dataclass
class Log:
    events: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    step: str = Window.DECLARE_BLOCKERS.value  # plain text: events are written as JSON, YAML
    quiet = False  # a log that writes nothing: explanations needn't be worked out for it

    def enter(self, step: str) -> None:
        """The events and notes that follow happen in `step` (a window name)."""
        self.step = str(step)

    def event(self, type_: str, rule: str, **fields: Any) -> None:
        self.events.append({"step": self.step, "type": type_, **fields, "rule": rule})

    def note(self, type_: str, rule: str, text: str, **fields: Any) -> None:
        self.notes.append({"type": type_, "step": self.step, **fields, "rule": rule,
                           "text": text})

    def hint(self, rule: str, text: str) -> None:
        """An era-specific rule changed what happened: say so as a judge would."""
        self.notes.append({"type": "hint", "step": self.step, "rule": rule, "text": text})

    def copy(self) -> Log:
        # Entries are never changed once written, so the lists can share them.
        return Log(list(self.events), list(self.notes), self.step)


class QuietLog(Log):
    """A log that keeps only the current step: a search that looks at outcomes, not
    narrations, needn't pay for writing (and copying) every event."""

    quiet = True

    def event(self, type_: str, rule: str, **fields: Any) -> None:
        return None

    def note(self, type_: str, rule: str, text: str, **fields: Any) -> None:
        return None

    def hint(self, rule: str, text: str) -> None:
        return None

    def copy(self) -> Log:
        return QuietLog(step=self.step)


@dataclass
class PendingTrigger:
    source: str  # permanent id
    controller: str
    ability: Ability
    rule: str
    condition: str
    other: str | None = None  # "that creature"
    defending: str | None = None
    amount: int | None = None  # lifelink: how much; rampage: computed on resolution
    kind: str = "ability"  # ability | deathtouch | lifelink | rampage | bushido | flanking

    def key(self) -> tuple[Any, ...]:
        return (self.source, self.controller, self.ability, self.rule, self.condition,
                self.other, self.defending, self.amount, self.kind)


@dataclass
class Board:
    # The era whose rules drive this game (a ``versions.mtg.rules.Era``): the state knows
    # only what every era says of itself (its id, its rule numbers); the procedure asks the
    # era's hooks through ``versions.mtg.rules.era_of``.
    era: EraInfo
    scenario: Scenario
    players: dict[str, PlayerState]
    permanents: dict[str, Permanent]
    order: list[str]  # permanents in listing order
    active: str
    attacks: dict[str, str] = field(default_factory=dict)  # attacker -> player or permanent
    blocked: set[str] = field(default_factory=set)  # attackers that became blocked (509.1h)
    blocks: dict[str, list[str]] = field(default_factory=dict)  # blocker -> attackers
    damage_orders: dict[str, list[str]] = field(default_factory=dict)
    not_attacked: set[str] = field(default_factory=set)  # attacked, then removed from combat
    # Attacker -> the other members of its attacking band (never changed: a member removed
    # from combat leaves the band because only attackers are read from it, 702.22f).
    bands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # (blocker, attacker) pairs blocking only through a band, never declared: before Sixth
    # they count for no ability of the attacker (A.25.Ruling.1, C.6.Ruling.5).
    band_blocks: set[tuple[str, str]] = field(default_factory=set)
    stack: list[PendingTrigger] = field(default_factory=list)
    pending: list[PendingTrigger] = field(default_factory=list)
    delayed: list[PendingTrigger] = field(default_factory=list)
    log: Log = field(default_factory=Log)
    over: bool = False
    fog: bool = False  # all combat damage this turn is prevented
    fogged: frozenset[str] = frozenset()  # sources whose combat damage this turn is
    source_shields: dict[str, int] = field(default_factory=dict)  # next N from a source
    # The state as each window the scenario's expectations check ends (not part of `key`:
    # like the log, it records what happened, and decides nothing).
    snapshots: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Who sits where, with whom (never changed: shared by copies).
    table: Table = field(default_factory=lambda: Table(()))

    def copy(self) -> Board:
        """An independent copy, cheap enough to take at every decision of a search: the
        scenario, the era and the triggers (never changed once made) are shared."""
        twin = object.__new__(Board)
        twin.__dict__.update(self.__dict__)
        twin.players = {n: _copy_player(p) for n, p in self.players.items()}
        twin.permanents = {i: p.copy() for i, p in self.permanents.items()}
        twin.order = list(self.order)
        twin.attacks = dict(self.attacks)
        twin.blocked = set(self.blocked)
        twin.blocks = {b: list(a) for b, a in self.blocks.items()}
        twin.damage_orders = {c: list(o) for c, o in self.damage_orders.items()}
        twin.not_attacked = set(self.not_attacked)
        twin.band_blocks = set(self.band_blocks)
        twin.stack, twin.pending, twin.delayed = (
            list(self.stack), list(self.pending), list(self.delayed))
        twin.log = self.log.copy()
        twin.source_shields = dict(self.source_shields)
        twin.snapshots = dict(self.snapshots)
        return twin

    def under(self, era: EraInfo) -> Board:
        """This board under another era's rules, everything else shared: for reading only
        (checking written blocks in every era, on the board as combat begins, which
        ``setup.new_board`` builds alike for every era but for the era it keeps)."""
        twin = object.__new__(Board)
        twin.__dict__.update(self.__dict__)
        twin.era = era
        return twin

    def scoped(self, attackers: frozenset[str]) -> Board:
        """This board with only `attackers` attacking, everything else shared: for reading
        only. One defending player's blocks are legal or not with the creatures attacking
        other players ignored (602.4b of 2009-05-01, 802.4b after)."""
        twin = object.__new__(Board)
        twin.__dict__.update(self.__dict__)
        twin.attacks = {a: t for a, t in self.attacks.items() if a in attackers}
        return twin

    def key(self, orders: bool | frozenset[str] = True) -> tuple[Any, ...]:
        """The state as a hashable value (the log left out); `orders`: whether damage
        assignment orders still matter (all, none, or only those of these creatures)."""
        # Lists made into tuples, not generators: a key is taken at every position of a
        # search, and a generator's resumption per item costs more than the item.
        if orders is True:
            ordering = tuple([(c, tuple(o)) for c, o in self.damage_orders.items()])
        elif orders:
            ordering = tuple([(c, tuple(o)) for c, o in self.damage_orders.items()
                              if c in orders])
        else:
            ordering = None
        permanents = self.permanents
        return (
            tuple([(p.life, p.mana, p.lost, p.prevention, p.poison)
                   for p in self.players.values()]),
            tuple([(p.id, p.zone, p.controller, p.damage, p.tapped, p.loyalty, p.defense,
                    tuple(p.pumps) if p.pumps else (), p.plus, p.minus,
                    tuple(p.granted) if p.granted else (),
                    tuple(p.losses) if p.losses else (),
                    p.regen_shields, p.prevention,
                    p.deathtouched, p.lki)
                   for p in map(permanents.__getitem__, self.order)]),
            tuple(self.attacks.items()), frozenset(self.blocked),
            tuple([(b, tuple(a)) for b, a in self.blocks.items()]),
            # Blocks alike may differ in which were declared and which came through a band
            # (before Sixth only the declared count for rampage and flanking).
            frozenset(self.band_blocks) if self.band_blocks else None,
            ordering,
            frozenset(self.not_attacked),
            tuple([t.key() for t in self.stack]), tuple([t.key() for t in self.pending]),
            tuple([t.key() for t in self.delayed]), self.over,
            self.fog, self.fogged, tuple(self.source_shields.items()),
        )

    # -- lookups ----------------------------------------------------------------------------

    def rule(self, key: str) -> str:
        return self.era.rule(key)

    def perm(self, pid: str) -> Permanent:
        return self.permanents[pid]

    def is_player(self, name: str) -> bool:
        return name in self.players

    def defending_player(self, attacker: str) -> str | None:
        target = self.attacks.get(attacker)
        if target is None:
            return None
        if target in self.players:
            return target
        p = self.permanents[target]
        # 310.8d: the defending player of an attacked battle is its protector.
        return p.protector or p.controller  # only battles have a protector

    def defends(self, player: str, attacker: str) -> bool:
        """Whether `player`'s creatures may block `attacker`: it attacks that player (or what
        that player controls or protects), or, in Two-Headed Giant, that player's team
        (606.7c of 2009-05-01: "creatures controlled by the defending players can block
        any attacking creatures")."""
        defending = self.defending_player(attacker)
        if defending == player:
            return True
        table = self.table
        return defending is not None and table.two_headed and \
            table.team(defending) == table.team(player)

    def change_life(self, player: str, amount: int) -> None:
        """`player` gains (or, negative, loses) `amount` life; in Two-Headed Giant the
        team's shared life total changes (606.4a of 2009-05-01; 810.9 of M11 on: "damage,
        loss of life, and gaining life happen to each player individually. The result is
        applied to the team's shared life total")."""
        if not self.table.two_headed:
            self.players[player].life += amount
            return
        for mate in self.table.teammates(player):
            self.players[mate].life += amount

    def in_combat(self, pid: str) -> bool:
        return pid in self.attacks or pid in self.blocks

    def being_attacked(self, pid: str) -> bool:
        """A planeswalker or battle that an attacking creature attacks (506.4)."""
        return pid not in self.not_attacked and pid in self.attacks.values()

    def blockers_of(self, attacker: str) -> list[str]:
        """Creatures blocking `attacker` now, in the order the scenario lists the blocks."""
        return [b for b, atts in self.blocks.items() if attacker in atts]

    def creatures_in_combat(self) -> list[Permanent]:
        return [
            self.permanents[p] for p in self.order
            if self.in_combat(p) and self.permanents[p].on_battlefield
        ]

    def listing_order(self) -> list[str]:
        """Active player's permanents in listing order, then the others' (§1.5.3, APNAP)."""
        names = list(self.players)
        i = names.index(self.active)
        turn = names[i:] + names[:i]
        return [p for name in turn for p in self.order if self.permanents[p].controller == name]

    # -- combat bookkeeping -----------------------------------------------------------------

    def _dies_triggers(self, p: Permanent) -> None:
        """Its "when this creature dies" abilities trigger: leaves-the-battlefield abilities
        look back in time (A.8.4's "unless otherwise stated"; 410.10d; 603.6d; 603.10a)."""
        for ability in p.abilities:
            if ability.trigger == "dies":
                self.pending.append(PendingTrigger(
                    source=p.id, controller=p.controller, ability=ability,
                    rule=self.rule("trigger-dies"), condition="dies",
                    defending=next((n for n in self.players if n != p.controller), None)))

    def count_graveyards(self) -> None:
        """What grows with graveyards counts the creature cards in them now (never in the
        middle of a simultaneous event: the procedure moves all the dead first)."""
        n = sum(c.creature for player in self.players.values() for c in player.graveyard)
        for p in self.permanents.values():
            if p.grows:
                p.grown = n

    def move_card(self, card: Card, owner: str, to: str) -> None:
        """A card moves from its owner's graveyard to their hand or exile."""
        player = self.players[owner]
        player.graveyard.remove(card)
        if to == "hand":
            player.hand.append(card)
        if card.pid is not None:
            self.permanents[card.pid].zone = to
        self.count_graveyards()

    def _animations_end(self, source: str) -> None:
        """The permanents `source`'s effect made creatures stop being creatures now that it
        has left the battlefield, and leave combat (C.1.7; 506.4)."""
        for p in self.permanents.values():
            if p.animated_by != source or not p.on_battlefield:
                continue
            p.deanimate()
            fighting = self.in_combat(p.id)
            self.remove_from_combat(p.id)
            self.log.event("stops-being-creature", self.rule("stops-being-creature"),
                           target=p.id, source=source, **{"removed-from-combat": fighting})

    def blockers_counted(self, attacker: str) -> list[str]:
        """The creatures blocking `attacker` that its abilities (rampage, flanking) count:
        all of them, or before Sixth only those assigned to block it."""
        return [b for b in self.blockers_of(attacker)
                if self.era.counts_band_blockers or (b, attacker) not in self.band_blocks]

    def band_of(self, attacker: str) -> list[str]:
        """The other members of `attacker`'s band still attacking (702.22f)."""
        return [m for m in self.bands.get(attacker, ()) if m in self.attacks]

    def remove_from_combat(self, pid: str) -> None:
        if self.being_attacked(pid):
            # 506.4c: its attackers keep attacking, but attack nothing.
            self.not_attacked.add(pid)
        self.attacks.pop(pid, None)
        self.blocks.pop(pid, None)
        for atts in self.blocks.values():
            if pid in atts:
                atts.remove(pid)
        for creature, ordered in self.damage_orders.items():
            if pid in ordered and creature != pid:
                ordered.remove(pid)
        self.damage_orders.pop(pid, None)

    def leave_battlefield(self, pid: str, zone: str) -> None:
        p = self.permanents[pid]
        p.lki = p.snapshot()
        self.remove_from_combat(pid)
        if p.animated_by is not None:  # the animation applied on the battlefield only
            p.deanimate()
        dies = zone == "graveyard" and p.is_creature
        if zone in ("graveyard", "hand") and not p.token:
            getattr(self.players[p.controller], zone).append(Card(p.name, p.is_creature, pid))
        if dies:
            self._dies_triggers(p)
        self._animations_end(pid)
        self.count_graveyards()
        p.zone = "gone" if (p.token and zone != "battlefield") else zone
        # Off the battlefield a card is a new object: printed values, no damage (spec §2).
        p.damage = 0
        p.pumps.clear()
        p.granted.clear()
        p.losses.clear()
        p.plus = p.minus = 0
        p.defense = p.printed_defense
        p.tapped = False
        p.regen_shields = 0
        p.prevention = 0
        p.deathtouched = False
