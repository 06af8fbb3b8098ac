"""An outcome's state (players, permanents) as eras are compared on it, whatever the game:
the cards of a hand or graveyard in name order, values equal as JSON."""

from __future__ import annotations

import json
from typing import Any

MISSING = None  # a permanent that exists in one era only (a token made by a skipped action)


# A player's cards in these zones compare as the cards they hold, not their order: in every
# era the owner orders cards that reach a graveyard at once (1999 rulings Z.1.4, Z.3.3; CR
# 2009-05-01 217.4c; 2009-07-08 and 2025-02-07 404.3), and a hand has no order that matters.
# The outcome doesn't record which cards arrived together, so no difference of order alone
# is reported (docs/commands.md, `diff`, says so); `verify` compares expectations so too.
UNORDERED = frozenset({"hand", "graveyard"})


def state(outcome: dict[str, Any]) -> dict[str, Any]:
    return {"players": outcome["players"], "permanents": outcome["permanents"]}


def comparable(path: list[Any], value: Any) -> Any:
    """A value as eras are compared on it: the cards of a hand or graveyard in name order.
    `path` is the value's place in the state (players, a name, a field)."""
    if path and path[0] == "players" and path[-1] in UNORDERED and isinstance(value, list):
        return sorted(value, key=str)
    return value


def cards_in_name_order(s: dict[str, Any]) -> dict[str, Any]:
    """A state (`players`, `permanents`) with each hand's and graveyard's cards as eras are
    compared on them (``comparable``)."""
    players = {name: {k: comparable(["players", name, k], v) for k, v in p.items()}
               if isinstance(p, dict) else p for name, p in s["players"].items()}
    return {**s, "players": players}


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: 1 and True are not (Python's == says they are)."""
    return a == b and json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
