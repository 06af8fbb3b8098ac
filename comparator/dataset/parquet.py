"""`dataset export --format parquet`: the dataset as three Parquet tables that DuckDB, polars
and pandas read directly (schema: docs/dataset.md), written a batch of rows at a time so a
dataset of any size exports in bounded memory. Each table is a folder of part files
(`runs.parquet/part-00000.parquet`, ...), the layout Spark and Hive write: a Parquet
writer holds every row group's metadata until it writes the file's footer, so one file a
table grows the export's memory with the dataset, and a file of bounded size does not.
Needs pyarrow (the `parquet` extra)."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from comparator.dataset.export import export_divergences, export_runs, export_scenarios
from comparator.store.packing import SCENARIO, digest
from comparator.store.reading import (
    divergence_row,
    outcome_text,
    stored_json,
    stored_outcome,
    stored_text,
)

# Rows per row group: what is held at a time (outcomes are a few KB each).
PARQUET_BATCH = 1_000
# Row groups per part file: its footer's metadata, held until the file is closed, stays
# near a MiB (about 5 KiB a row group); a file is 250,000 rows, some 100 MB of runs.
ROW_GROUPS_PER_FILE = 250
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
    """Write the folders scenarios.parquet, runs.parquet and divergences.parquet into the
    folder `out` (made if need be); how many rows each. They are written beside their final
    names and put in place once all three are whole, so a failed export leaves the folder as
    it was."""
    pa, pq = _arrow()
    # The system allocator gives freed row groups back; Arrow's default pool keeps them.
    pa.set_memory_pool(pa.system_memory_pool())
    schemas = _schemas(pa)
    made = _missing(out)  # the folders made here, the outermost last
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    parts = {name: out / f".{name}.parquet.part" for name in TABLES}
    olds = {name: out / f".{name}.parquet.old" for name in TABLES}
    done = False
    try:
        for name, rows in TABLES.items():
            _remove(parts[name])
            counts[name] = _write_table(pa, pq, parts[name], schemas[name], rows(engine))
        for name, part in parts.items():  # all three whole: only then replace any
            final = out / f"{name}.parquet"
            _remove(olds[name])
            if final.exists() or final.is_symlink():  # a file (an older export) or a folder
                final.rename(olds[name])
            part.rename(final)
        done = True
    finally:
        for path in (*parts.values(), *olds.values()):
            _remove(path)
        if not done:  # a failed export leaves no folder it made, either
            for folder in made:
                with contextlib.suppress(OSError):
                    folder.rmdir()  # only if empty: never what another put there
    return counts


def _missing(out: Path) -> list[Path]:
    """`out` and those of its parents that do not exist, innermost first."""
    missing = []
    for folder in (out, *out.parents):
        if folder.exists():
            break
        missing.append(folder)
    return missing


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _write_table(pa: Any, pq: Any, folder: Path, schema: Any,
                 rows: Iterator[dict[str, Any]]) -> int:
    """Write rows into part files in `folder`, a row group at a time and ROW_GROUPS_PER_FILE
    row groups a file; how many. An empty table is one file with no rows: its schema."""
    folder.mkdir()
    # Dictionary pages only where values repeat (eras, versions): the JSON columns'
    # dictionaries would grow with the whole row group, for nothing.
    dictionary = [n for n in REPEATED if n in schema.names]
    statistics = [n for n in schema.names if n not in LONG]

    def part(number: int) -> Any:
        return pq.ParquetWriter(folder / f"part-{number:05d}.parquet", schema,
                                compression="zstd", use_dictionary=dictionary,
                                write_statistics=statistics)

    n, groups, files = 0, 0, 0
    writer = part(files)
    try:
        for batch in _batches(rows):
            if groups == ROW_GROUPS_PER_FILE:
                writer.close()
                files, groups = files + 1, 0
                writer = part(files)
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            n, groups = n + len(batch), groups + 1
    finally:
        writer.close()
    return n


def _batches(rows: Iterator[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == PARQUET_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def read_back(path: Path) -> list[dict[str, Any]]:
    """A Parquet table's rows, a file or a folder of part files, in order (for checks and
    tests)."""
    _, pq = _arrow()
    return pq.read_table(path).to_pylist()
