"""The outcome JSON of spec §2: the state at the end of the end of combat step."""

from __future__ import annotations

from typing import Any

from versions.mtg.engine.state import Board
from versions.mtg.scenario import Keyword

SCHEMA = 1


def outcome(board: Board) -> dict[str, Any]:
    result = {"schema": SCHEMA, "scenario": board.scenario.id, "era": board.era.id,
              **state(board), "events": board.log.events, "notes": board.log.notes}
    if board.snapshots:  # only windows the scenario's expectations look at (contract v1.1)
        result["after"] = dict(board.snapshots)
    return result


def state(board: Board) -> dict[str, Any]:
    """The players and permanents as they are now."""
    # Every field of its kind, zero or empty included (contract §2): one shape whatever
    # happened.
    players = {name: {"life": p.life, "lost": p.lost, "poison": p.poison,
                      "graveyard": [c.name for c in p.graveyard],
                      "hand": [c.name for c in p.hand]}
               for name, p in board.players.items()}
    permanents: dict[str, dict[str, Any]] = {}
    for pid in board.order:
        p = board.perm(pid)
        here = p.on_battlefield
        permanents[pid] = {
            "zone": p.zone,
            "controller": p.controller,
            # Off the battlefield a card is a new object: no damage, printed values (§2).
            "damage": p.damage if here else 0,
            # Only a creature has power and toughness (a land no longer animated: 0/0).
            "power": (p.power if here else p.printed_power) if p.is_creature else 0,
            "toughness": (p.toughness if here else p.printed_toughness) if p.is_creature else 0,
            "tapped": p.tapped if here else False,
            "loyalty": (p.loyalty if here else p.printed_loyalty) if p.is_planeswalker else None,
        }
        permanents[pid]["counters"] = dict(p.counters) if here else {}
        # The keywords it has at the end of combat (off the battlefield, printed), as a
        # scenario writes them, sorted.
        permanents[pid]["keywords"] = [
            k.written() for k in sorted(p.keywords if here else p.base_keywords, key=_sort_key)]
        if "battle" in p.types:  # a battle's defense (contract v1.1)
            permanents[pid]["defense"] = p.defense if here else p.printed_defense
    return {"players": players, "permanents": permanents}


def _sort_key(k: Keyword) -> tuple[str, str]:
    """A keyword's place in the outcome: by name, then by its value as text."""
    return (k.name, "" if k.value is None else str(k.value))
