"""Build and run scenarios written inline in tests."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import versions
from comparator.scenarios.loader import parse
from versions import find_era
from versions.mtg import play
from versions.mtg.scenario import Scenario

# Two Grizzly Bears trade: the same in every era.
TRADE = """
id: trade
title: Two bears trade
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: a, controller: A, card: Grizzly Bears}
  - {id: b, controller: B, card: Grizzly Bears}
combat:
  attacks: {a: B}
  blocks: {b: a}
"""


def scenario(text: str) -> Scenario:
    return parse(textwrap.dedent(text), "<test>")


def run(text: str, era: str) -> dict[str, Any]:
    return versions.run(era, scenario(text))


def divisions(text: str, era: str, creature: str) -> set[tuple[tuple[str, int], ...]]:
    found = play.divisions(find_era(era)(), scenario(text), creature)
    return {tuple(sorted((k, v) for k, v in d.items() if v)) for d in found}


def shipped_duels() -> list[tuple[Path, Any]]:
    """Every shipped Magic scenario explore takes (two players), loaded, with its file."""
    from comparator.files.locations import shipped_scenarios
    from comparator.scenarios.loader import load

    loaded = [(path, load(path)) for path in shipped_scenarios()]
    return [(path, s) for path, s in loaded
            if getattr(s, "game", "mtg") == "mtg" and len(s.players) == 2]


def explored_with_and_without(s: Any, era: str, switch: str) -> tuple[Any, Any]:
    """The era's explore JSON (or its refusal, as text) with the explorer's `switch` on,
    then off: a reduction of the search checked against the search without it."""
    from comparator.games.exploration import era_result
    from comparator.games.mtg.explore import Explorer

    found = []
    for on in (True, False):
        explorer = Explorer(s, era)
        setattr(explorer, switch, on)
        try:
            found.append(era_result(explorer, explorer.run()))
        except versions.NotInEra as refused:
            found.append(str(refused))
    return found[0], found[1]


def perm(outcome: dict[str, Any], pid: str) -> dict[str, Any]:
    return outcome["permanents"][pid]


def life(outcome: dict[str, Any], player: str) -> int:
    return outcome["players"][player]["life"]


def dealt(outcome: dict[str, Any], source: str, target: str) -> list[int]:
    """Amounts of combat damage `source` dealt to `target`, in order."""
    return [e["amount"] for e in outcome["events"]
            if e["type"] == "damage" and e.get("combat") and e["source"] == source
            and e["target"] == target]


def notes(outcome: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [n for n in outcome["notes"] if n["type"] == kind]


def explored_both_ways(s: Scenario, era: str, limit: int | None = None,
                       **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """An era's exploration (contract §6.4's era result) by the merged search, then by brute
    force. The merged search goes first and raises TooLarge past `limit` lines, before
    brute force would take too long."""
    from comparator.games.exploration import DEFAULT_LIMIT, era_result
    from comparator.games.mtg.explore import Explorer

    fast = Explorer(s, era, limit=limit or DEFAULT_LIMIT, **options)
    found = era_result(fast, fast.run())
    slow = Explorer(s, era, merge=False, **options)
    return found, era_result(slow, slow.run())


HEAD = "Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}.\n\n"


def write_cr(path: Path, date: str, rules: list[tuple[str, str]], title: str) -> Path:
    body = f"{title}\n\n" + "\n\n".join(f"{n} {t}" for n, t in rules) + "\n"
    path.write_text(HEAD.format(date) + body, encoding="utf-8")
    return path
