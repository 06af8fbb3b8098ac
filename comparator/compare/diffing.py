"""Where the eras' outcomes diverge (spec §3), found with deepdiff.

Only the state (`players`, `permanents`) makes eras diverge; event logs are compared on
their own and reported apart. Outcomes are plain JSON-able dicts already; equal states are
recognised by hash first, so deepdiff runs only on pairs that differ.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from comparator.games.states import MISSING, cards_in_name_order, comparable, same, state
from comparator.text.encoding import sorted_digest
from comparator.text.language import _, ngettext
from comparator.text.phrases import zone_name


def _get(data: Any, path: list[Any]) -> Any:
    for part in path:
        if not isinstance(data, dict) or part not in data:
            return MISSING
        data = data[part]
    return comparable(path, data)




def _to_first_list(data: Any, path: list[Any]) -> list[Any]:
    """The path cut where it first enters a list: a list is one value of the state (a
    keyword list, a graveyard), reported whole rather than item by item."""
    for i, part in enumerate(path):
        if isinstance(data, list):
            return path[:i]
        if not isinstance(data, dict) or part not in data:
            return path[:i + 1]
        data = data[part]
    return path


def _deep_paths(a: Any, b: Any, prefix: list[Any]) -> list[list[Any]]:
    from deepdiff import DeepDiff

    diff = DeepDiff(a, b, view="tree", verbose_level=2)
    paths: list[list[Any]] = []
    for report in diff.values():
        for item in report:
            inner = item.path(output_format="list")
            path = prefix + min(_to_first_list(a, inner), _to_first_list(b, inner), key=len)
            if path not in paths:  # several changes inside one list are one value
                paths.append(path)
    return paths


def _changed_paths(a: dict[str, Any], b: dict[str, Any]) -> list[list[Any]]:
    """The paths where two states differ, as deepdiff gives them. A state is two levels of
    mappings (players and permanents, then their entries) over fields that are nearly
    always plain values: those are compared directly, and deepdiff is asked only about a
    field holding a list or mapping, for the paths inside it."""
    paths: list[list[Any]] = []
    for part in ("players", "permanents"):
        left, right = a.get(part, {}), b.get(part, {})
        for key in left.keys() | right.keys():
            x, y = left.get(key, MISSING), right.get(key, MISSING)
            if x == y and type(x) is type(y):
                continue
            if key not in left or key not in right or not (isinstance(x, dict)
                                                          and isinstance(y, dict)):
                paths.append([part, key])
                continue
            for name in x.keys() | y.keys():
                u, v = x.get(name, MISSING), y.get(name, MISSING)
                if name not in x or name not in y:
                    paths.append([part, key, name])
                elif isinstance(u, list) and isinstance(v, list):
                    where = [part, key, name]
                    if not same(comparable(where, u), comparable(where, v)):
                        paths.append(where)
                elif isinstance(u, dict) and isinstance(v, dict):
                    if not same(u, v):
                        paths += _deep_paths(u, v, [part, key, name])
                elif u != v or type(u) is not type(v):
                    paths.append([part, key, name])
    return paths






def _differing_entries(
    a: dict[str, Any], b: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the players and permanents whose entries differ, for deepdiff to look into."""
    out_a: dict[str, Any] = {}
    out_b: dict[str, Any] = {}
    for part in ("players", "permanents"):
        keys = set(a[part]) | set(b[part])
        diff_keys = [k for k in keys if a[part].get(k) != b[part].get(k)]
        out_a[part] = {k: a[part][k] for k in diff_keys if k in a[part]}
        out_b[part] = {k: b[part][k] for k in diff_keys if k in b[part]}
    return out_a, out_b


def value_text(value: Any, zones: dict[str, str] | None = None,
               names: Callable[[str], str] | None = None) -> str:
    """A divergence's value as a person reads it: text bare (a zone in the language
    spoken, `zones`: its game's own names), a list of names joined ("none" for an empty
    one: a graveyard, a keyword list; `names`: how its game says a card's name, for a list
    of cards), anything else as JSON."""
    if isinstance(value, str):
        return zone_name(value, zones)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        said = [names(v) for v in value] if names else value
        return ", ".join(said) if said else _("none")
    if isinstance(value, bool):
        return _("true") if value else _("false")
    return json.dumps(value)


def state_path(path: list[Any]) -> str:
    return ".".join(str(p) for p in path)


def divergences(outcomes: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every state path on which some eras differ, with each era's value there."""
    eras = list(outcomes)
    if len(eras) < 2:
        return []
    states = {e: state(outcomes[e]) for e in eras}
    hashes = {e: sorted_digest(states[e]) for e in eras}
    seen: dict[str, list[Any]] = {}
    first = eras[0]
    # Any path where two eras differ is a path where one of them differs from the first
    # era, so comparing each era with the first finds them all.
    for other in eras[1:]:
        if hashes[other] == hashes[first]:
            continue
        a, b = _differing_entries(states[first], states[other])
        found = _changed_paths(a, b)
        if not found:  # equal to ==, not as JSON: a 1 for a true, or only cards' order
            a, b = cards_in_name_order(states[first]), cards_in_name_order(states[other])
            # Most often only the order of cards: nothing differs, and deepdiff took
            # milliseconds to say so.
            found = [] if sorted_digest(a) == sorted_digest(b) else _deep_paths(a, b, [])
        for path in found:
            seen.setdefault(state_path(path), path)
    out = []
    for key in sorted(seen, key=lambda k: (k.split(".")[0], k)):
        values = {e: _get(states[e], seen[key]) for e in eras}
        if len({sorted_digest(v) for v in values.values()}) > 1:
            out.append({"path": key, "values": values})
    return out


def event_differences(outcomes: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """Pairs of eras whose event logs differ (reported apart from the state)."""
    eras = list(outcomes)
    logs = {e: sorted_digest(outcomes[e]["events"]) for e in eras}
    return [(a, b) for i, a in enumerate(eras) for b in eras[i + 1:] if logs[a] != logs[b]]


def log_difference(outcomes: dict[str, dict[str, Any]]) -> str:
    """What differs between event logs when the states agree, in words: only the rule
    numbers each era cites (one event as an example), or the events some eras have and
    others lack."""
    def bare(era: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in e.items() if k != "rule"} for e in outcomes[era]["events"]]

    eras = list(outcomes)
    if all(bare(e) == bare(eras[0]) for e in eras[1:]):
        first = outcomes[eras[0]]["events"]
        for i, event in enumerate(first):
            rules = {e: outcomes[e]["events"][i]["rule"] for e in eras}
            if len(set(rules.values())) > 1:
                cited = ", ".join(f"{e} {r}" for e, r in rules.items())
                return (f"the same events, cited by each era's own numbering (e.g. "
                        f"{event['type']}: {cited})")
        return "the same events"
    kinds = {e: Counter(ev["type"] for ev in outcomes[e]["events"]) for e in eras}
    types = sorted({t for k in kinds.values() for t in k
                    if len({kinds[e][t] for e in eras}) > 1})
    parts = []
    for t in types[:4]:
        having = [e for e in eras if kinds[e][t]]
        parts.append(f"{t} ({', '.join(having) or 'none'})")
    more = f", and {len(types) - 4} more" if len(types) > 4 else ""
    return ("events some eras have more of: " + "; ".join(parts) + more if parts else
            "the same kinds of events, in another order or with other details")


def pairs_apart(divergence: dict[str, Any], eras: list[str]) -> list[tuple[str, str]]:
    """The pairs of `eras` (each pair in their order) whose values differ on a divergence:
    the pairs it counts for, in a summary and in the stored rows alike."""
    values = divergence["values"]
    return [(a, b) for i, a in enumerate(eras) for b in eras[i + 1:]
            if not same(values[a], values[b])]


def groups(outcomes: dict[str, dict[str, Any]],
           found: list[dict[str, Any]] | None = None) -> list[list[str]]:
    """Eras grouped by their values on the fields that diverge (`found`, else computed), in
    era order: eras apart here are apart on a field the report lists, never on what it
    leaves out (the order of cards put into a graveyard at once)."""
    found = divergences(outcomes) if found is None else found
    by_values: dict[str, list[str]] = {}
    for era in outcomes:
        by_values.setdefault(sorted_digest([d["values"][era] for d in found]), []).append(era)
    return list(by_values.values())


def verdict(outcomes: dict[str, dict[str, Any]], found: list[dict[str, Any]]) -> str:
    if len(outcomes) == 1:
        return _("only {era} runs this scenario: nothing to compare").format(
            era=next(iter(outcomes)))
    if not found:
        return _("no divergence: {eras} agree").format(eras=", ".join(outcomes))
    parts = groups(outcomes, found)
    if len(parts) == 2:
        small, big = sorted(parts, key=len)
        split = f"{', '.join(small)} ≠ {', '.join(big)}"
    else:
        split = " ≠ ".join(", ".join(g) for g in parts)
    return ngettext("diverges on {n} field: {split}", "diverges on {n} fields: {split}",
                    len(found)).format(n=len(found), split=split)


def diff_document(scenario_id: str, outcomes: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The diff JSON of spec §3 (its keys exactly: an era that can't run the scenario is
    simply not in `eras`, and the command says why on stderr)."""
    found = divergences(outcomes)
    return {
        "schema": 1,
        "scenario": scenario_id,
        "eras": list(outcomes),
        "diverges": bool(found),
        "outcomes": outcomes,
        "divergences": found,
    }
