"""Who sits where and who plays with whom: a scenario's players as a multiplayer table.

Players are listed in turn order, which goes to each player's left (607.4 of 2009-05-01):
the next player in the list sits to the left, the one before to the right, and the table is
a circle. Teams are the players' `team`s (each player alone where unwritten); the variant
and its options are the scenario's `multiplayer` (contract §1.8), filled in with each
variant's own defaults. A two-player game without `multiplayer` is no multiplayer game: no
rule here applies to it.

What the variants say about attacking, in the numbering of 2009-05-01 (each era cites its
own: ``MultiplayerRules``): an opponent is a player not on your team (M.2.1 and M.3.1 of
the Fifth Edition rulings, 102.x of the texts); range of influence (601.3); attack left or
right (604.1a-b); attack multiple players (602.1-602.3); Emperor and Teams attack only
opponents seated next to the attacker (607.3c, 609.4); Two-Headed Giant's creatures
attack the other team as a group (606.7a).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from versions.mtg.scenario import Scenario

# What each variant attacks with when the file names no option: Grand Melee attacks left
# (608.2b); Free-for-All and Teams use one of the three options (605.2b, 609.2b), and
# rulesdiff takes attack multiple players; Emperor names none (607.3), so its attacking
# player chooses one opponent as the defending player (506.2a of M10 on; 306.2 before),
# seated next to them (607.3c); Two-Headed Giant uses no option (606.2): the team attacks.
DEFAULT_ATTACK = {"free-for-all": "multiple", "teams": "multiple", "grand-melee": "left",
                  "emperor": None, "two-headed-giant": None}


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    teams: dict[str, str] = field(default_factory=dict)  # player -> team
    variant: str | None = None  # None: a two-player game
    attack: str | None = None  # "multiple", "left", "right"; None: Two-Headed Giant, duel
    ranges: dict[str, int] = field(default_factory=dict)  # limited range of influence

    @classmethod
    def of(cls, scenario: Scenario) -> Table:
        seats = tuple(p.name for p in scenario.players)
        teams = {p.name: p.team or p.name for p in scenario.players}
        mp = scenario.multiplayer
        if mp is None and len(seats) == 2:
            return cls(seats, teams)
        variant = mp.variant if mp is not None else "free-for-all"
        attack = mp.attack if mp is not None and mp.attack is not None else \
            DEFAULT_ATTACK[variant]
        ranges: dict[str, int] = {}
        written = mp.range_of_influence if mp is not None else None
        if isinstance(written, int):
            ranges = dict.fromkeys(seats, written)
        elif isinstance(written, dict):
            ranges = dict(written)
        elif variant == "grand-melee":
            ranges = dict.fromkeys(seats, 1)
        elif variant == "emperor":
            emperors = set(emperors_of(seats, teams).values())
            ranges = {p: 2 if p in emperors else 1 for p in seats}
        return cls(seats, teams, variant, attack, ranges)

    @property
    def multiplayer(self) -> bool:
        return self.variant is not None

    @property
    def two_headed(self) -> bool:
        return self.variant == "two-headed-giant"

    def team(self, player: str) -> str:
        return self.teams.get(player, player)

    def teammates(self, player: str) -> list[str]:
        """The player's team, the player included, in turn order."""
        return [p for p in self.seats if self.team(p) == self.team(player)]

    def opponents(self, player: str) -> list[str]:
        """Every player not on the player's team, in turn order from the player's left."""
        i = self.seats.index(player)
        order = self.seats[i + 1:] + self.seats[:i]
        return [p for p in order if self.team(p) != self.team(player)]

    def seat_distance(self, a: str, b: str) -> int:
        n = len(self.seats)
        d = abs(self.seats.index(a) - self.seats.index(b))
        return min(d, n - d)

    def left_of(self, player: str) -> str:
        i = self.seats.index(player)
        return self.seats[(i + 1) % len(self.seats)]

    def right_of(self, player: str) -> str:
        i = self.seats.index(player)
        return self.seats[i - 1]

    def in_range(self, player: str, other: str) -> bool:
        """Whether `other` is within `player`'s range of influence (601.2; no limit where
        the option is not used)."""
        reach = self.ranges.get(player)
        return reach is None or self.seat_distance(player, other) <= reach

    def emperor(self, player: str) -> str | None:
        """The emperor of `player`'s team in the Emperor variant (607.2), else None."""
        if self.variant != "emperor":
            return None
        return emperors_of(self.seats, self.teams).get(self.team(player))

    def next_to(self, player: str, other: str) -> bool:
        return other in (self.left_of(player), self.right_of(player))

    def team_attacked(self, target: str, active: str) -> str | None:
        """In Two-Headed Giant, the defending player a creature written as attacking a
        team (`attacks: {giant: cd}`) deals its damage to, the file naming no player: the
        team's first player in turn order from the active player; None if `target` is no
        team of this table."""
        if not self.two_headed or target in self.seats or target not in self.teams.values():
            return None
        return next(p for p in self.apnap(list(self.seats), active)
                    if self.team(p) == target)

    def apnap(self, players: set[str] | list[str], active: str) -> list[str]:
        """`players` in APNAP order: the active player first, then the others in turn
        order (103.4 of 2009-05-01)."""
        i = self.seats.index(active)
        order = self.seats[i:] + self.seats[:i]
        return [p for p in order if p in players]


def emperors_of(seats: tuple[str, ...], teams: dict[str, str]) -> dict[str, str]:
    """Each team's emperor: the player seated in the middle of the team (607.2), where its
    three players sit together in turn order; a team seated otherwise has none."""
    out: dict[str, str] = {}
    n = len(seats)
    for team in dict.fromkeys(teams[p] for p in seats):
        members = [i for i, p in enumerate(seats) if teams[p] == team]
        if len(members) != 3:
            continue
        for i in members:
            if teams[seats[(i - 1) % n]] == team and teams[seats[(i + 1) % n]] == team:
                out[team] = seats[i]
    return out
