"""The era-agnostic game state: players, permanents, who attacks and blocks whom, the log.

Nothing here knows an era's rules; the era (``versions.game.era``) drives it. Rule numbers
reach the log through ``Game.rule(key)``, which asks the era, so every event is cited in
that era's own numbering.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from versions.scenario import Ability, Keyword, Scenario

if TYPE_CHECKING:
    from versions.game.era import Era


@dataclass
class PlayerState:
    name: str
    life: int
    mana: int = 0
    lost: bool = False
    prevention: int = 0  # the next N damage to this player is prevented


@dataclass
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
    zone: str = "battlefield"
    pumps: list[tuple[int, int]] = field(default_factory=list)
    counters: int = 0
    granted: list[Keyword] = field(default_factory=list)
    regen_shields: int = 0
    prevention: int = 0
    deathtouched: bool = False  # dealt damage by a deathtouch source since SBA were checked
    lki: Snapshot | None = None

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
        if not self.on_battlefield and self.lki is not None:
            return self.lki.power
        return self.printed_power + sum(p for p, _ in self.pumps) + self.counters

    @property
    def toughness(self) -> int:
        if not self.on_battlefield and self.lki is not None:
            return self.lki.toughness
        return self.printed_toughness + sum(t for _, t in self.pumps) + self.counters

    @property
    def keywords(self) -> list[Keyword]:
        if not self.on_battlefield and self.lki is not None:
            return list(self.lki.keywords)
        return self.base_keywords + self.granted

    def count(self, name: str) -> int:
        """Instances of a keyword: triggered keywords trigger once per instance."""
        return sum(1 for k in self.keywords if k.name == name)

    def has(self, name: str) -> bool:
        return self.count(name) > 0

    def values(self, name: str) -> list[Any]:
        return [k.value for k in self.keywords if k.name == name]

    def protected_from(self, source: Permanent | None) -> bool:
        if source is None:
            return False
        return any(c in source.colors for c in self.values("protection"))

    def snapshot(self) -> Snapshot:
        return Snapshot(power=self.power, toughness=self.toughness,
                        keywords=tuple(self.keywords))

    def copy(self) -> Permanent:
        # Everything else on a permanent is immutable or replaced, never changed in place.
        return replace(self, base_keywords=list(self.base_keywords), pumps=list(self.pumps),
                       granted=list(self.granted))


@dataclass
class Log:
    events: list[dict[str, Any]] = field(default_factory=list)
    notes: list[dict[str, Any]] = field(default_factory=list)
    step: str = "declare-blockers"

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


@dataclass
class Game:
    era: Era
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
    stack: list[PendingTrigger] = field(default_factory=list)
    pending: list[PendingTrigger] = field(default_factory=list)
    delayed: list[PendingTrigger] = field(default_factory=list)
    log: Log = field(default_factory=Log)
    over: bool = False

    def copy(self) -> Game:
        """An independent copy, cheap enough to take at every decision of a search: the
        scenario, the era and the triggers (never changed once made) are shared."""
        return replace(
            self,
            players={n: replace(p) for n, p in self.players.items()},
            permanents={i: p.copy() for i, p in self.permanents.items()},
            order=list(self.order), attacks=dict(self.attacks), blocked=set(self.blocked),
            blocks={b: list(a) for b, a in self.blocks.items()},
            damage_orders={c: list(o) for c, o in self.damage_orders.items()},
            not_attacked=set(self.not_attacked),
            stack=list(self.stack), pending=list(self.pending), delayed=list(self.delayed),
            log=self.log.copy(),
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
        return self.permanents[target].controller

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
        p.zone = "gone" if (p.token and zone != "battlefield") else zone
        # Off the battlefield a card is a new object: printed values, no damage (spec §2).
        p.damage = 0
        p.pumps.clear()
        p.granted.clear()
        p.counters = 0
        p.tapped = False
        p.regen_shields = 0
        p.prevention = 0
        p.deathtouched = False
