"""The `explore` command's work: one scenario explored in each era of its game, by that
game's explorer, as the contract's JSON (docs/contract/explore.md §6.4): every era's
outcomes, which outcomes only one era reaches, and whether the eras diverge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from comparator.encoding import sorted_json
from comparator.explore_tree import (
    BLOCKS,
    DEFAULT_LIMIT,
    FIELDS,
    OBJECTIVES,
    TooLarge,
    Unsupported,
    era_result,
)

__all__ = ["BLOCKS", "FIELDS", "OBJECTIVES", "TooLarge", "Unsupported", "explore"]


def explore(scenario: Any, eras: list[str], objective: str = "material",
            fields: str = "end-of-turn", blocks: str = "fixed", limit: int = DEFAULT_LIMIT,
            progress: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """The explore JSON (contract §6.4) of `scenario` in `eras`."""
    from comparator.games import game_of
    from comparator.running import of_game
    from versions import NotInEra

    explorer_of = game_of(scenario).explorer

    results: dict[str, dict[str, Any]] = {}
    refused: dict[str, str] = {}  # eras whose rules did not have what the scenario uses
    for era in of_game(scenario, eras):  # another game's eras have nothing to say
        report = (lambda n, e=era: progress(e, n)) if progress else None
        explorer = explorer_of(scenario, era, objective, fields, blocks, limit, progress=report)
        try:
            results[era] = era_result(explorer, explorer.run())
        except NotInEra as refusal:
            refused[era] = refusal.why
    eras = [e for e in eras if e in results]
    keysets = {e: {r["_key"] for r in res["outcomes"]} for e, res in results.items()}
    only_in = {
        e: [i for i, r in enumerate(res["outcomes"])
            if not any(r["_key"] in keysets[o] for o in eras if o != e)]
        for e, res in results.items()
    }
    values = {e: (sorted_json(res["value"]) if res["value"] is None else
                  sorted_json({"score": res["value"]["score"], "state": res["value"]["state"]}))
              for e, res in results.items()}
    diverges = len({frozenset(k) for k in keysets.values()}) > 1 or len(set(values.values())) > 1
    for res in results.values():
        for r in res["outcomes"]:
            del r["_key"]
    doc = {
        "schema": 1, "scenario": scenario.id, "objective": objective, "fields": fields,
        "blocks": blocks, "eras": results, "only_in": only_in, "diverges": diverges,
    }
    if refused:
        doc["refused"] = refused  # for the command to say on stderr; not in the JSON it prints
    return doc
