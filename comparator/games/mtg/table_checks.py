"""The multiplayer table a scenario writes (contract §1.8), checked before any era runs it:
teams and seats each variant requires, and what a file may leave unwritten. Whom the
creatures may attack under the variant's options is each era's to say, in its numbering
(``versions.mtg.engine.attackers``); these are the shapes no era's text allows.

Citations here are to the CR of 2009-05-01 (600-609), the first text of the variants; the
later texts say the same under other numbers (800-811)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from versions.mtg.scenario import Scenario
from versions.mtg.table import Table, emperors_of

Found = Iterator[tuple[tuple[Any, ...], str]]


def check_table(s: Scenario) -> Found:
    names = s.player_names()
    if len(set(names)) != len(names):
        return  # said by the players' own check
    mp = s.multiplayer
    teams = {p.name: p.team for p in s.players}
    if mp is None:
        if len(names) == 2 and any(teams.values()):
            yield ("players",), ("teams are for multiplayer games: two players play alone "
                                 "(write `multiplayer:` for more players)")
        elif len(names) > 2 and any(teams.values()):
            yield ("multiplayer",), ("players have teams: name the variant they play "
                                     "(`multiplayer: {variant: two-headed-giant}`, emperor, "
                                     "teams)")
        return
    if len(names) < 3:
        yield ("multiplayer",), ("a multiplayer game begins with more than two players "
                                 "(600.1)")
        return
    yield from _ranges(s)
    table = Table.of(s)
    if mp.variant in ("free-for-all", "grand-melee"):
        for i, p in enumerate(s.players):
            if p.team:
                yield ("players", i, "team"), (f"in {mp.variant}, players compete as "
                                                f"individuals (605.1, 608.1): no teams")
    elif mp.variant == "two-headed-giant":
        yield from _two_headed(s, table)
    elif mp.variant == "emperor":
        yield from _emperor(s, table)
    elif mp.variant == "teams":
        yield from _teams(s, table)
    if mp.variant == "two-headed-giant" and mp.attack is not None:
        yield ("multiplayer", "attack"), ("no other multiplayer options are used in "
                                          "Two-Headed Giant games (606.2)")
    if mp.variant == "grand-melee" and mp.attack == "multiple":
        yield ("multiplayer", "attack"), ("the attack multiple players option isn't used in "
                                          "Grand Melee (608.2c): it attacks left (608.2b)")


def _ranges(s: Scenario) -> Found:
    mp = s.multiplayer
    assert mp is not None
    written = mp.range_of_influence
    if isinstance(written, dict):
        names = set(s.player_names())
        for name in written:
            if name not in names:
                yield ("multiplayer", "range-of-influence", name), (
                    f"{name!r} is not one of the players")
    if written is not None and mp.variant == "two-headed-giant":
        yield ("multiplayer", "range-of-influence"), (
            "no other multiplayer options are used in Two-Headed Giant games (606.2)")
    if isinstance(written, dict) and mp.variant == "free-for-all" and \
            len(set(written.values())) > 1:
        yield ("multiplayer", "range-of-influence"), (
            "in Free-for-All each player has the same range of influence (605.2a): one "
            "number")
    if written is not None and mp.variant == "grand-melee" and \
            set(written.values() if isinstance(written, dict) else [written]) != {1}:
        yield ("multiplayer", "range-of-influence"), (
            "in Grand Melee each player has a range of influence of 1 (608.2a)")


def _unteamed(s: Scenario, variant: str) -> Found:
    for i, p in enumerate(s.players):
        if not p.team:
            yield ("players", i, "team"), f"{variant} is played by teams: {p.name} has none"


def _together(table: Table) -> bool:
    """Whether each team's players sit next to one another (in turn order)."""
    n = len(table.seats)
    runs = sum(1 for i in range(n)
               if table.team(table.seats[i]) != table.team(table.seats[i - 1]))
    return runs == len(set(table.teams.values())) or runs == 0


def _two_headed(s: Scenario, table: Table) -> Found:
    missing = list(_unteamed(s, "Two-Headed Giant"))
    yield from missing
    if missing:
        return
    sizes = _sizes(table)
    if len(s.players) != 4 or sorted(sizes.values()) != [2, 2]:
        yield ("players",), ("Two-Headed Giant games are played with two teams of two "
                             "players each (606.1; teams of more, 606.10, are not "
                             "modelled)")
        return
    if not _together(table):
        yield ("players",), ("each Two-Headed Giant team sits together (606.3): list the "
                             "players in turn order, each team's two side by side")
    for team in sizes:
        # The life total is the team's in every text (606.4a); poison counters only from
        # 2010 (whether teammates' differ is each era's to say: ``Era.refusal``).
        members = [p for p in s.players if p.team == team]
        if len({p.life for p in members}) > 1:
            i = s.players.index(members[1])
            yield ("players", i, "life"), (
                f"a Two-Headed Giant team's life total is shared (606.4a): "
                f"{members[0].name} and {members[1].name} must have the same")


def _team_problems(s: Scenario, table: Table, variant: str, sized: bool, rule: str
                   ) -> list[tuple[tuple[Any, ...], str]]:
    """Every player has a team, and there are two teams or more, sized as `sized` says
    (`rule` where they are not)."""
    missing = list(_unteamed(s, variant))
    if missing:
        return missing
    return [] if len(_sizes(table)) >= 2 and sized else [(("players",), rule)]


def _emperor(s: Scenario, table: Table) -> Found:
    problems = _team_problems(s, table, "Emperor", set(_sizes(table).values()) == {3},
                              "the Emperor variant involves two or more teams of three "
                              "players each (607.1)")
    yield from problems
    if problems:
        return
    sizes = _sizes(table)
    emperors = emperors_of(table.seats, table.teams)
    for team in sizes:
        if team not in emperors:
            yield ("players",), (f"team {team} does not sit together with its emperor in the "
                                 f"middle (607.2): list each team's three players side by "
                                 f"side, in turn order")


def _teams(s: Scenario, table: Table) -> Found:
    problems = _team_problems(s, table, "Teams", len(set(_sizes(table).values())) == 1,
                              "the Teams variant involves two or more teams of equal size "
                              "(609.1)")
    yield from problems
    if problems:
        return
    sizes = _sizes(table)
    for i, name in enumerate(table.seats):
        if table.team(table.left_of(name)) == table.team(name):
            yield ("players", i, "team"), (f"in the Teams variant no one sits next to a "
                                            f"teammate (609.3): {name} and "
                                            f"{table.left_of(name)} do")
            return
    n, size = len(table.seats), next(iter(sizes.values()))
    for team in sizes:
        seats = [i for i, p in enumerate(table.seats) if table.team(p) == team]
        gaps = {(seats[(k + 1) % size] - seats[k]) % n for k in range(size)}
        if gaps != {n // size}:
            yield ("players",), (f"in the Teams variant each team is equally spaced out "
                                 f"around the table (609.3): team {team} is not")
            return


def _sizes(table: Table) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for name in table.seats:
        sizes[table.team(name)] = sizes.get(table.team(name), 0) + 1
    return sizes


def active_team(s: Scenario) -> set[str]:
    """The players whose creatures may attack: the active player, or in Two-Headed Giant
    the active team (606.7a)."""
    table = Table.of(s)
    return set(table.teammates(s.active)) if table.two_headed else {s.active}
