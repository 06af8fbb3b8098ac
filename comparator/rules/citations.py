"""Which shipped scenarios each era's change changes: for every era and the one before it
(of the same game), the scenarios whose outcomes differ between the two, each with the rule
keys that the events and notes in which the two runs differ cite (in either era's
numbering: a key is the rule under both). `history` reads it to name, next to a change of a
rule's words, the combats that show it: precision over recall, so a scenario that differs
for another reason (a tapped blocker) and merely cites the rule on the way is not named.

Running every shipped scenario under every era takes about a second, too long for a
lookup, so the index is shipped as `data/shipped-citations.json`, written by
`python -m comparator.rules.citations` and kept true by a test that builds it anew.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from comparator.files.locations import data_dir, shipped_scenarios

FILE = "shipped-citations.json"


def keys_cited(era: Any, outcome: dict[str, Any]) -> set[str]:
    """The era's rule keys whose numbers the outcome's events and notes cite."""
    by_number: dict[str, set[str]] = {}
    for key, number in era.RULES.items():
        by_number.setdefault(number, set()).add(key)
    return {k for item in [*outcome.get("events", []), *outcome.get("notes", [])]
            for k in by_number.get(str(item.get("rule", "")), ())}


def differing_keys(era_a: Any, outcome_a: dict[str, Any], era_b: Any,
                   outcome_b: dict[str, Any]) -> set[str]:
    """The rule keys cited by the events and notes one run has and the other has not,
    each read with its rule as the era's keys for it (the same rule under two numbers is
    the same key) and without its step (an assignment made in another step, as damage on
    the stack has it, is the same assignment)."""
    def said(era: Any, outcome: dict[str, Any]) -> Counter[str]:
        by_number: dict[str, set[str]] = {}
        for key, number in era.RULES.items():
            by_number.setdefault(number, set()).add(key)
        return Counter(json.dumps({**{k: v for k, v in item.items()
                                      if k not in ("rule", "step")},
                                   "keys": sorted(by_number.get(str(item.get("rule", "")),
                                                                ()))}, sort_keys=True)
                       for item in [*outcome.get("events", []), *outcome.get("notes", [])])

    a, b = said(era_a, outcome_a), said(era_b, outcome_b)
    return {k for item in (a - b) + (b - a) for k in json.loads(item)["keys"]}


def build() -> dict[str, dict[str, list[str]]]:
    """{"sixth>m10": {scenario id: sorted keys cited}, ...} for each era after the first
    of its game."""
    from comparator.compare.diffing import divergences
    from comparator.compare.running import run_all
    from comparator.scenarios.loader import load
    from versions import GAMES, eras_of, find_era

    pairs = [(a, b) for game in GAMES
             for a, b in zip(eras_of(game), eras_of(game)[1:], strict=False)]
    out: dict[str, dict[str, list[str]]] = {f"{a}>{b}": {} for a, b in pairs}
    for path in shipped_scenarios():
        scenario = load(path)
        outcomes = run_all(scenario, [e for pair in pairs for e in pair], str(path), {})
        for a, b in pairs:
            if a not in outcomes or b not in outcomes:
                continue
            if not divergences({a: outcomes[a], b: outcomes[b]}):  # as `diff` compares
                continue
            keys = differing_keys(find_era(a), outcomes[a], find_era(b), outcomes[b])
            out[f"{a}>{b}"][scenario.id] = sorted(keys)
    return out


def shipped() -> dict[str, dict[str, list[str]]]:
    path = data_dir() / FILE
    try:
        loaded: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded


def scenarios_changed(older: str, newer: str, keys: set[str]) -> list[str]:
    """The shipped scenarios whose outcome differs from era `older` to `newer` and whose
    differing events cite one of `keys`."""
    return sorted(s for s, cited in shipped().get(f"{older}>{newer}", {}).items()
                  if keys & set(cited))


def main() -> None:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else data_dir() / FILE
    target.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
