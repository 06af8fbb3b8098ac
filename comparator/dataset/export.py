"""`dataset export` as JSON lines or CSV: the newest run of each scenario and era, the
divergences, the scenarios, streamed so memory stays flat whatever the size of the dataset
(Parquet: `comparator.dataset.parquet`)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from comparator.store.reading import (
    _binary,
    _streamed,
    divergence_row,
    outcome_text,
    stored_json,
    stored_outcome,
)
from comparator.store.schema import NEWEST


def _newest_runs_sql(dialect: str) -> str:
    """The newest run of each (scenario, era), in export order: by scenario id, then era,
    compared byte by byte (the same order on SQLite and PostgreSQL, whatever its locale)."""
    binary = _binary(dialect)
    return (f"SELECT r.run_id, s.id AS scenario_id, r.era, r.engine_version, "
            f"r.packed_outcome, s.content_hash AS scenario_hash FROM run r "
            f"JOIN scenario s ON s.scenario_key = r.scenario_key "
            f"WHERE r.run_id IN ({NEWEST}) ORDER BY s.id{binary}, r.era{binary}")


def _latest_divergences_sql(dialect: str) -> str:
    """The divergences of each scenario's newest runs (as the views read them)."""
    binary = _binary(dialect)
    return (f"SELECT s.id AS scenario_id, d.scenario_key, d.era_a, d.era_b, d.path, "
            f"d.value_a, d.value_b, d.engine_version FROM divergence d JOIN scenario s "
            f"ON s.scenario_key = d.scenario_key WHERE EXISTS (SELECT 1 FROM run r "
            f"WHERE r.run_id IN ({NEWEST}) AND r.scenario_key = d.scenario_key "
            f"AND r.engine_version = d.engine_version) "
            # Two versions of an id (or two engine versions) may diverge on the same field:
            # the one stored first comes first, as its rows were inserted first.
            f"ORDER BY s.id{binary}, d.era_a{binary}, d.era_b{binary}, d.path{binary}, "
            f"(SELECT MIN(f.run_id) FROM run f WHERE f.scenario_key = d.scenario_key "
            f"AND f.engine_version = d.engine_version), s.content_hash")


def export_runs(engine: Any) -> Iterator[Any]:
    return _streamed(engine, _newest_runs_sql(engine.dialect.name))


def export_divergences(engine: Any) -> Iterator[Any]:
    return _streamed(engine, _latest_divergences_sql(engine.dialect.name))


def export_scenarios(engine: Any) -> Iterator[Any]:
    """The scenario versions the newest runs ran, by id (then hash)."""
    binary = _binary(engine.dialect.name)
    return _streamed(engine, (
        f"SELECT s.content_hash, s.id, s.title, s.tags, s.sources, b.stored AS first_stored, "
        f"s.packed_json FROM scenario s JOIN batch b ON b.batch_id = s.batch_id "
        f"WHERE s.scenario_key IN (SELECT scenario_key FROM run WHERE run_id IN ({NEWEST})) "
        f"ORDER BY s.id{binary}, s.content_hash"))


def export_lines(engine: Any, fmt: str) -> Iterator[str]:
    """`dataset export` as text, a line at a time: one record per scenario × era (with its
    outcome), then the divergences (jsonl or csv)."""
    if fmt == "jsonl":
        for r in export_runs(engine):
            yield json.dumps({"record": "outcome", "scenario": r.scenario_id, "era": r.era,
                              "engine_version": r.engine_version,
                              "outcome": stored_outcome(r)}) + "\n"
        for d in export_divergences(engine):
            row = divergence_row(d)
            yield json.dumps({"record": "divergence", "scenario": d.scenario_id,
                              "era_a": d.era_a, "era_b": d.era_b, "path": d.path,
                              "value_a": stored_json(d.value_a, "divergence", row),
                              "value_b": stored_json(d.value_b, "divergence", row)}) + "\n"
        return
    buf = io.StringIO()
    w = csv.writer(buf)

    def line(row: list[Any]) -> str:
        buf.seek(0)
        buf.truncate()
        w.writerow(row)
        return buf.getvalue()

    yield line(["record", "scenario", "era", "era_b", "path", "value", "value_b",
                "engine_version", "outcome"])
    for r in export_runs(engine):
        text = outcome_text(r)
        stored_outcome(r, text)  # a damaged row is an error here too
        yield line(["outcome", r.scenario_id, r.era, "", "", "", "", r.engine_version, text])
    for d in export_divergences(engine):
        yield line(["divergence", d.scenario_id, d.era_a, d.era_b, d.path, d.value_a,
                    d.value_b, d.engine_version, ""])


def export(engine: Any, fmt: str) -> str:
    """The whole export as one text (small datasets, tests): `export_lines` joined."""
    return "".join(export_lines(engine, fmt))
