"""`dataset export --format parquet`: the dataset as three Parquet files that DuckDB, polars
and pandas read directly (schema: docs/dataset.md), written a batch of rows at a time so a
dataset of any size exports in bounded memory. Needs pyarrow (the `parquet` extra)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from comparator.dataset import (
    divergence_row,
    export_divergences,
    export_runs,
    export_scenarios,
    outcome_text,
    stored_json,
    stored_outcome,
    stored_text,
)
from comparator.packing import SCENARIO, digest

# Rows per row group: what is held at a time (outcomes are a few KB each).
PARQUET_BATCH = 1_000
REPEATED = ("era", "engine_version", "era_a", "era_b")  # few distinct values
# Texts of kilobytes: no min/max statistics for them. The writer keeps every row group's
# statistics in memory until the file's footer is written, so for these columns they grew
# the export's memory with the dataset (206 MiB at a million scenarios, 136 at 100,000),
# and a JSON document's min and max help no reader.
LONG = ("title", "scenario_json", "outcome_json", "value_a", "value_b")


class ParquetMissing(Exception):
    """pyarrow is not installed: one line for the user."""


def _arrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ParquetMissing("--format parquet needs pyarrow: pip install "
                             "'rulesdiff[parquet]'") from None
    return pa, pq


def _schemas(pa: Any) -> dict[str, Any]:
    text, texts = pa.string(), pa.list_(pa.string())
    return {
        "scenarios": pa.schema([
            ("scenario", text), ("content_hash", text), ("title", text), ("tags", texts),
            ("sources", texts), ("first_stored", text), ("scenario_json", text)]),
        "runs": pa.schema([
            ("scenario", text), ("era", text), ("engine_version", text),
            ("scenario_hash", text), ("outcome_hash", text), ("outcome_json", text)]),
        "divergences": pa.schema([
            ("scenario", text), ("era_a", text), ("era_b", text), ("path", text),
            ("value_a", text), ("value_b", text), ("engine_version", text)]),
    }


def _scenario_rows(engine: Any) -> Iterator[dict[str, Any]]:
    for s in export_scenarios(engine):
        content_hash = bytes(s.content_hash).hex()
        shown = content_hash[:12]
        yield {"scenario": s.id, "content_hash": content_hash, "title": s.title,
               "tags": stored_json(s.tags, "scenario", shown),
               "sources": stored_json(s.sources, "scenario", shown),
               "first_stored": s.first_stored,
               "scenario_json": stored_text(s.packed_json, SCENARIO, "scenario", shown)}


def _run_rows(engine: Any) -> Iterator[dict[str, Any]]:
    for r in export_runs(engine):
        text = outcome_text(r)
        stored_outcome(r, text)  # a damaged row is an error
        yield {"scenario": r.scenario_id, "era": r.era, "engine_version": r.engine_version,
               "scenario_hash": bytes(r.scenario_hash).hex(),
               "outcome_hash": digest(text).hex(), "outcome_json": text}


def _divergence_rows(engine: Any) -> Iterator[dict[str, Any]]:
    for d in export_divergences(engine):
        row = divergence_row(d)
        for v in (d.value_a, d.value_b):
            stored_json(v, "divergence", row)
        yield {"scenario": d.scenario_id, "era_a": d.era_a, "era_b": d.era_b,
               "path": d.path, "value_a": d.value_a, "value_b": d.value_b,
               "engine_version": d.engine_version}


TABLES: dict[str, Callable[[Any], Iterator[dict[str, Any]]]] = {
    "scenarios": _scenario_rows, "runs": _run_rows, "divergences": _divergence_rows}


def write_parquet(engine: Any, out: Path) -> dict[str, int]:
    """Write scenarios.parquet, runs.parquet and divergences.parquet into the folder `out`
    (made if need be); how many rows each. The files are written beside their final names
    and renamed once all three are whole, so a failed export leaves the folder as it was."""
    pa, pq = _arrow()
    # The system allocator gives freed row groups back; Arrow's default pool keeps them.
    pa.set_memory_pool(pa.system_memory_pool())
    schemas = _schemas(pa)
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    parts = {name: out / f".{name}.parquet.part" for name in TABLES}
    try:
        for name, rows in TABLES.items():
            counts[name] = _write_table(pa, pq, parts[name], schemas[name], rows(engine))
        for name, part in parts.items():  # all three whole: only then replace any
            os.replace(part, out / f"{name}.parquet")
    finally:
        for part in parts.values():
            part.unlink(missing_ok=True)
    return counts


def _write_table(pa: Any, pq: Any, path: Path, schema: Any,
                 rows: Iterator[dict[str, Any]]) -> int:
    """Write rows to one Parquet file, a row group at a time; how many."""
    n = 0
    # Dictionary pages only where values repeat (eras, versions): the JSON columns'
    # dictionaries would grow with the whole row group, for nothing.
    dictionary = [n for n in REPEATED if n in schema.names]
    statistics = [n for n in schema.names if n not in LONG]
    with pq.ParquetWriter(path, schema, compression="zstd", use_dictionary=dictionary,
                          write_statistics=statistics) as writer:
        batch: list[dict[str, Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) == PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                n += len(batch)
                batch = []
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            n += len(batch)
    return n


def read_back(path: Path) -> list[dict[str, Any]]:
    """A Parquet file's rows (for checks and tests)."""
    _, pq = _arrow()
    return pq.read_table(path).to_pylist()
