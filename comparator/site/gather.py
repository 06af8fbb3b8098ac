"""What the site shows, gathered in one pass: every scenario run in its game's eras (and
stored, as `diff` stores it), its explorations read from the store or, where none is
stored, explored now (and stored); the rules' words where their texts are imported; and
what the store says of a built dataset. Pages are then written from this alone
(``comparator.site.pages``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from comparator.compare.running import Result, run_file, scenario_json
from comparator.rules.document import without_examples
from comparator.store.packing import scenario_key
from comparator.text.encoding import hash_of, ordered_json
from versions import ENGINE_VERSION, GAMES, TITLES, find_era

EXPLORE = {"objective": "material", "fields": "end-of-turn", "blocks": "fixed"}


@dataclass
class Scenario:
    id: str
    game: str
    file: Path
    data: dict[str, Any]  # the canonical scenario
    result: Result
    explored: dict[str, dict[str, Any]] = field(default_factory=dict)  # era -> result
    not_explored: str | None = None  # why, where it could not be


@dataclass
class Gathered:
    scenarios: list[Scenario]
    quotes: dict[tuple[str, str], dict[str, str]]  # (era, number) -> its words, document
    imported: dict[str, str]  # era -> the document of it that is imported
    change_rules: dict[str, list[dict[str, Any]]]  # new era -> the rules it changed
    dataset: dict[str, Any]  # the store's divergence statistics


def gather(engine: Engine, paths: Sequence[Path], eras: list[str], explore: bool = True,
           jobs: int = 1, progress: Callable[[str], None] | None = None) -> Gathered:
    from comparator.dataset.runs import save

    say = progress or (lambda what: None)
    say(f"running {len(paths)} scenario(s)")
    results = [run_file(p, eras) for p in paths]
    save(engine, results)
    scenarios = [Scenario(r.scenario.id, r.scenario.game, Path(r.file),
                          scenario_json(r.scenario), r) for r in results]
    if explore:
        _explorations(engine, scenarios, eras, jobs, say)
    say("reading the rules texts")
    quotes, imported = _quotes(engine, scenarios)
    return Gathered(scenarios, quotes, imported, _change_rules(engine),
                    _dataset(engine))


# -- explorations -------------------------------------------------------------------------


def _explorations(engine: Engine, scenarios: list[Scenario], eras: list[str], jobs: int,
                  say: Callable[[str], None]) -> None:
    """Each scenario's stored exploration (default options), else one made now."""
    from sqlmodel import Session, col, select

    from comparator.store.schema import ExplorationRow

    keys = {s.id: scenario_key(hash_of(ordered_json(s.data))) for s in scenarios}
    with Session(engine) as session:
        rows = session.exec(select(ExplorationRow).where(
            col(ExplorationRow.scenario_key).in_(sorted(set(keys.values()))),
            ExplorationRow.engine_version == ENGINE_VERSION,
            ExplorationRow.objective == EXPLORE["objective"],
            ExplorationRow.fields == EXPLORE["fields"],
            ExplorationRow.blocks == EXPLORE["blocks"])).all()
    stored: dict[int, dict[str, Any]] = {}
    for row in rows:
        stored.setdefault(row.scenario_key, {})[row.era] = json.loads(row.result_json)
    missing = []
    for s in scenarios:
        mine = [e for e in eras if find_era(e).game == s.game and e in s.result.outcomes]
        have = stored.get(keys[s.id], {})
        if mine and all(e in have for e in mine):
            s.explored = {e: have[e] for e in mine}
        elif mine:
            missing.append((s, mine))
    if not missing:
        return
    say(f"exploring {len(missing)} scenario(s) not explored in the store")
    jobs_list = [(str(s.file), mine) for s, mine in missing]
    if jobs > 1 and len(missing) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            done = list(pool.map(_explore_one, jobs_list))
    else:
        done = [_explore_one(job) for job in jobs_list]
    from comparator.dataset.runs import save_explorations

    keep = []
    for (s, _), (doc, why) in zip(missing, done, strict=True):
        if doc is None:  # said without the file's path, which is the builder's own
            s.not_explored = why.replace(str(s.file), s.file.name)
            continue
        s.explored = doc["eras"]
        keep.append((s.result.scenario, doc))
    save_explorations(engine, keep)


def _explore_one(job: tuple[str, list[str]]) -> tuple[dict[str, Any] | None, str]:
    from comparator.explore.files import ExploreError, explore_file
    from comparator.scenarios.loader import load

    path, eras = job
    try:
        doc = explore_file(path, load(Path(path)), eras, **EXPLORE)
    except ExploreError as err:
        return None, str(err)
    doc.pop("refused", None)
    return doc, ""


# -- the rules' words ---------------------------------------------------------------------


def _quotes(engine: Engine, scenarios: list[Scenario]
            ) -> tuple[dict[tuple[str, str], dict[str, str]], dict[str, str]]:
    """The words of every rule the scenarios cite, in each era's imported document (one
    query an era), and which document that is."""
    from comparator.explore.report import cited_in
    from comparator.rules.quoting import cited
    from comparator.rules.store import era_words

    wanted: dict[str, set[str]] = {}
    for s in scenarios:
        for era, outcome in s.result.outcomes.items():
            wanted.setdefault(era, set()).update(cited(outcome))
        for era, res in s.explored.items():
            wanted.setdefault(era, set()).update(cited_in(res))
    out: dict[tuple[str, str], dict[str, str]] = {}
    imported: dict[str, str] = {}
    for era_id in sorted(wanted):
        era = find_era(era_id)
        document, found = era_words(engine, era, sorted(wanted[era_id] | set(
            era.RULES.values())))
        if document is not None:
            imported[era_id] = document
        for number, f in found.items():
            out[(era_id, number)] = {"text": without_examples(f.text),
                                     "document": f.document, "effective": f.effective,
                                     "kind": f.kind}
    return out, imported


def _change_rules(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """For each era after its game's first: the rules it names in what it changed, each
    with its words in the era before and in this one, where the texts are imported."""
    from comparator.rules.history import UnknownRule, history, word_diff

    out: dict[str, list[dict[str, Any]]] = {}
    for game, eras in GAMES.items():
        for older, era in zip(eras, eras[1:], strict=False):
            said = " ".join(era.changes) + " " + (era.__doc__ or "")
            numbers = sorted(set(re.findall(r"(?<![\w.])(\d{3}\.\d+[a-z]?|[A-Z]\.\d+\.\d+)"
                                            r"(?![\w])", said)))
            rules = []
            for number in numbers:
                entry: dict[str, Any] = {"number": number, "before": None, "after": None}
                try:
                    trail = history(engine, number, game)
                except UnknownRule:
                    trail = None
                for v in trail.versions if trail else []:
                    rule = without_examples(v.text)
                    if v.era == older.id:
                        entry["before"] = {"number": v.number, "text": rule,
                                           "effective": v.effective, "kind": v.kind}
                    if v.era == era.id and entry["after"] is None:
                        entry["after"] = {"number": v.number, "text": rule,
                                          "effective": v.effective, "kind": v.kind}
                if entry["before"] and entry["after"]:
                    entry["after"]["words"] = word_diff(entry["before"]["text"],
                                                        entry["after"]["text"])
                rules.append(entry)
            out[era.id] = rules
    return out


# -- the dataset --------------------------------------------------------------------------


def _dataset(engine: Engine) -> dict[str, Any]:
    """What the store holds, newest run of each scenario: how many scenarios each pair of
    eras ran, how many of them diverge; the same by tag."""
    from sqlmodel import Session, select

    from comparator.store.database import latest_runs
    from comparator.store.schema import DivergenceRow, ScenarioRow

    with Session(engine) as session:
        runs = latest_runs(session)
        ran: dict[str, set[str]] = {}
        key_of_id: dict[str, int] = {}
        for r in runs:
            ran.setdefault(r.scenario_id, set()).add(r.era)
            key_of_id[r.scenario_id] = r.scenario_key
        id_of_key = {key: sid for sid, key in key_of_id.items()}
        tags = {row.scenario_key: json.loads(row.tags)
                for row in session.exec(select(ScenarioRow.scenario_key, ScenarioRow.tags)).all()}
        diverging: set[tuple[str, str, str]] = set()
        for d in session.exec(select(DivergenceRow).where(
                DivergenceRow.engine_version == ENGINE_VERSION)).all():
            if d.scenario_key in id_of_key:
                diverging.add((id_of_key[d.scenario_key], d.era_a, d.era_b))
    pairs = []
    for game, eras in GAMES.items():
        for a, b in zip(eras, eras[1:], strict=False):
            both = [s for s, done in ran.items() if a.id in done and b.id in done]
            diverge = [s for s in both if (s, a.id, b.id) in diverging]
            pairs.append({"game": TITLES[game], "pair": f"{a.id} → {b.id}",
                          "scenarios": len(both), "diverging": len(diverge),
                          "rate": round(len(diverge) / len(both), 4) if both else 0.0})
    by_tag: dict[str, list[int]] = {}
    for sid, done in ran.items():
        if len(done) < 2:
            continue
        any_diverge = any(s == sid for s, _, _ in diverging)
        for tag in tags.get(key_of_id[sid], []):
            counts = by_tag.setdefault(tag, [0, 0])
            counts[0] += 1
            counts[1] += any_diverge
    return {"scenarios": len(ran), "pairs": pairs,
            "tags": [{"tag": t, "scenarios": n, "diverging": d,
                      "rate": round(d / n, 4)} for t, (n, d) in sorted(by_tag.items())]}
