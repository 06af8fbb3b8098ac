"""Reading back what the store packed: a stored row's JSON and packed columns (a damaged one
is an error naming its table and row), a scenario's every stored version with its runs,
divergences and explorations, and rows streamed in batches so memory stays flat."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from comparator.store.packing import PackingError, digest, unpack

# Deeper than anything rulesdiff stores (the shipped scenarios nest 7 deep at most, their
# outcomes 6): a value nested deeper is damaged or forged, refused before anything (a
# diff, a printing) walks it by recursion.
MAX_DEPTH = 64


def stored_json(text: str | None, table: str, row: object) -> Any:
    """A JSON column of a stored row; a damaged one (not JSON, or nested deeper than
    MAX_DEPTH) is an error naming the table and row."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except RecursionError:
        value = None
    except ValueError as exc:
        raise ValueError(f"table {table}, row {row}: the stored JSON is damaged "
                         f"({exc})") from None
    else:
        # Only a text with that many brackets can nest that deep: the others, nearly all,
        # are not walked.
        if text.count("[") + text.count("{") <= MAX_DEPTH or _within(value, MAX_DEPTH):
            return value
    raise ValueError(f"table {table}, row {row}: the stored JSON is damaged (nested more "
                     f"than {MAX_DEPTH} deep)") from None


def _within(value: Any, depth: int) -> bool:
    """Whether `value` nests at most `depth` lists and objects deep (walked without
    recursion)."""
    level = [value]
    for _ in range(depth):
        level = [v for item in level if isinstance(item, list | dict)
                 for v in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return True
    return False


def stored_text(packed: Any, name: str, table: str, row: object) -> str:
    """A packed column's text; a damaged one is an error naming the table and row."""
    try:
        return unpack(packed, name)
    except PackingError as exc:
        raise ValueError(f"table {table}, row {row}: the stored JSON is damaged "
                         f"(can't unpack it: {exc})") from None


def divergence_row(d: Any) -> str:
    """How messages name a divergence row: by its key."""
    return f"{d.scenario_id} {d.era_a}/{d.era_b} {d.path}"


def outcome_text(r: Any) -> str:
    """A run row's outcome JSON (from its run_id, era and packed_outcome), unpacked."""
    return stored_text(r.packed_outcome, r.era, "run", r.run_id)


def stored_outcome(r: Any, text: str | None = None) -> Any:
    """A run row's outcome, read (from `text` if it is unpacked already)."""
    return stored_json(outcome_text(r) if text is None else text, "run", r.run_id)


EXPORT_BATCH = 2_000  # rows fetched and written at a time


def _binary(dialect: str) -> str:
    return ' COLLATE "C"' if dialect == "postgresql" else " COLLATE BINARY"


def _streamed(engine: Any, sql: str) -> Iterator[Any]:
    """The rows of a query, fetched a batch at a time (a server-side cursor on
    PostgreSQL). Read through a plain reading connection, not the writer's: a read that
    lasts minutes must not hold SQLite's write lock (the writer's BEGIN IMMEDIATE) and keep
    a build waiting; in WAL a reader sees the database as its statement began."""
    from sqlalchemy import text

    with reader_for(engine.url.render_as_string(hide_password=False)).connect() as conn:
        result = conn.execution_options(stream_results=True, yield_per=EXPORT_BATCH) \
            .execute(text(sql))
        yield from result


def stored_scenario(engine: Any, scenario_id: str) -> dict[str, Any] | None:
    from sqlalchemy import text

    binary = _binary(engine.dialect.name)
    with engine.connect() as conn:
        versions = conn.execute(text(
            "SELECT s.scenario_key, s.content_hash, s.title, b.stored AS first_stored "
            "FROM scenario s JOIN batch b ON b.batch_id = s.batch_id WHERE s.id = :id "
            "ORDER BY b.stored, s.batch_id, s.content_hash"), {"id": scenario_id}).all()
        if not versions:
            return None
        out: dict[str, Any] = {"scenario": scenario_id, "versions": []}
        for v in versions:
            key = {"k": v.scenario_key}
            runs = conn.execute(text(
                "SELECT r.run_id, r.era, r.engine_version, r.packed_outcome, "
                "b.stored AS created FROM run r JOIN batch b ON b.batch_id = r.batch_id "
                "WHERE r.scenario_key = :k ORDER BY r.run_id"), key).all()
            divs = conn.execute(text(
                f"SELECT :id AS scenario_id, era_a, era_b, path, value_a, value_b, "
                f"engine_version FROM divergence WHERE scenario_key = :k ORDER BY "
                f"engine_version{binary}, era_a{binary}, era_b{binary}, path{binary}"),
                {**key, "id": scenario_id}).all()
            explored = conn.execute(text(
                "SELECT exploration_id, era, engine_version, objective, fields, blocks, lines, "
                "outcomes, value_json, created FROM exploration WHERE scenario_key = :k "
                "ORDER BY exploration_id"), key).all()
            texts = {r.run_id: outcome_text(r) for r in runs}  # unpacked once, hashed and read
            out["versions"].append({
                "content_hash": bytes(v.content_hash).hex(), "title": v.title,
                "first_stored": v.first_stored,
                "runs": [{"era": r.era, "engine_version": r.engine_version,
                          "outcome_hash": digest(texts[r.run_id]).hex(),
                          "created": r.created, "outcome": stored_outcome(r, texts[r.run_id])}
                         for r in runs],
                "divergences": [{"era_a": d.era_a, "era_b": d.era_b, "path": d.path,
                                 "value_a": stored_json(d.value_a, "divergence",
                                                        row := divergence_row(d)),
                                 "value_b": stored_json(d.value_b, "divergence", row),
                                 "engine_version": d.engine_version} for d in divs],
                "explorations": [{"era": x.era, "engine_version": x.engine_version,
                                  "objective": x.objective, "fields": x.fields,
                                  "blocks": x.blocks, "lines": x.lines,
                                  "outcomes": x.outcomes,
                                  "value": stored_json(x.value_json, "exploration",
                                                       x.exploration_id),
                                  "created": x.created}
                                 for x in explored],
            })
        return out


# Each process's own reading engine for the store, opened once. Plain reads: never the
# writer's BEGIN IMMEDIATE, so a worker reading never waits for the batch being written
# (SQLite's WAL lets readers and the writer go on together).
_READERS: dict[str, Any] = {}


def reader_for(url: str) -> Any:
    if url not in _READERS:
        from sqlalchemy import create_engine

        _READERS[url] = create_engine(url)
    return _READERS[url]


def stored_list(engine: Any, most: int = 2000) -> list[dict[str, str]]:
    """The scenarios the store holds, by id, each with the title of its latest version;
    at most `most` of them (an editor's list, not an export)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        rows = conn.execute(text(
            "SELECT s.id, s.title FROM scenario s JOIN batch b ON b.batch_id = s.batch_id "
            "ORDER BY s.id, b.stored DESC, s.batch_id DESC"), {}).all()
    out: dict[str, str] = {}
    for r in rows:
        if r.id not in out:
            if len(out) >= most:
                break
            out[r.id] = r.title
    return [{"id": i, "title": t} for i, t in out.items()]


def latest_scenario(engine: Any, scenario_id: str) -> dict[str, Any] | None:
    """The latest stored version of a scenario, as stored (its canonical JSON), or None."""
    from sqlalchemy import text

    from comparator.store.packing import SCENARIO

    with engine.connect() as conn:
        row = conn.execute(text(
            "SELECT s.scenario_key, s.packed_json FROM scenario s JOIN batch b ON "
            "b.batch_id = s.batch_id WHERE s.id = :id ORDER BY b.stored DESC, "
            "s.batch_id DESC LIMIT 1"), {"id": scenario_id}).first()
    if row is None:
        return None
    shown = f"{scenario_id} (key {row.scenario_key})"
    value = stored_json(stored_text(row.packed_json, SCENARIO, "scenario", shown), "scenario",
                        shown)
    return value if isinstance(value, dict) else None
