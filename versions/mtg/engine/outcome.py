"""The outcome JSON of spec §2: the state at the end of the end of combat step."""

from __future__ import annotations

from typing import Any

from versions.mtg.engine.state import Board

SCHEMA = 1


def outcome(board: Board) -> dict[str, Any]:
    result = {"schema": SCHEMA, "scenario": board.scenario.id, "era": board.era.id,
              **state(board), "events": board.log.events, "notes": board.log.notes}
    if board.snapshots:  # only windows the scenario's expectations look at (contract v1.1)
        result["after"] = dict(board.snapshots)
    return result


def state(board: Board) -> dict[str, Any]:
    """The players and permanents as they are now."""
    # `poison` and `counters` only where nonzero (contract v1.1: a v1 outcome is unchanged).
    players = {
        name: {"life": p.life, "lost": p.lost, **({"poison": p.poison} if p.poison else {})}
        for name, p in board.players.items()
    }
    permanents: dict[str, dict[str, Any]] = {}
    for pid in board.order:
        p = board.perm(pid)
        here = p.on_battlefield
        permanents[pid] = {
            "zone": p.zone,
            "controller": p.controller,
            # Off the battlefield a card is a new object: no damage, printed values (§2).
            "damage": p.damage if here else 0,
            "power": p.power if here else p.printed_power,
            "toughness": p.toughness if here else p.printed_toughness,
            "tapped": p.tapped if here else False,
            "loyalty": (p.loyalty if here else p.printed_loyalty) if p.is_planeswalker else None,
        }
        if here and (counters := p.counters):
            permanents[pid]["counters"] = counters
        if "battle" in p.types:  # a battle's defense (contract v1.1)
            permanents[pid]["defense"] = p.defense if here else p.printed_defense
    return {"players": players, "permanents": permanents}
