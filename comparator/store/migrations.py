"""The store's named migrations, in order: the schema version is the number of them
applied. A database of an older version is upgraded in the transaction that opens
it; a newer one is refused."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    Column,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    inspect,
)
from sqlalchemy import text as sql_text
from sqlmodel import Session

from comparator.store import schema
from comparator.store.packing import SCENARIO, outcome_columns, pack, scenario_key
from comparator.store.schema import StoreError

# The tables migrations 2 and 7 made, as they made them: migration 8 reads them so.
_V7 = MetaData()
_V7_EXPLORATION = Table(
    "exploration", _V7, Column("exploration_id", Integer, primary_key=True),
    *(Column(name, String, nullable=False) for name in (
        "scenario_hash", "scenario_id", "era", "engine_version", "objective", "fields",
        "blocks")),
    Column("lines", Integer, nullable=False), Column("outcomes", Integer, nullable=False),
    *(Column(name, String, nullable=False) for name in ("value_json", "result_json",
                                                        "created")),
    UniqueConstraint("scenario_hash", "era", "engine_version", "objective", "fields",
                     "blocks"))
_V7_SOURCE_FILE = Table(
    "source_file", _V7, Column("digest", LargeBinary, primary_key=True),
    Column("scenario_hash", String, nullable=False), Column("refused", String, nullable=False))


def _explorations(session: Session) -> None:
    _V7_EXPLORATION.create(session.connection(), checkfirst=True)


def _generations(session: Session) -> None:
    schema.GenerationRow.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _rule_texts(session: Session) -> None:
    for row in (schema.RuleDocumentRow, schema.RuleTextRow):
        row.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _source_files(session: Session) -> None:
    _V7_SOURCE_FILE.create(session.connection(), checkfirst=True)


def _rule_kinds_and_glossary(session: Session) -> None:
    conn = session.connection()
    # Migration 5 creates the table as the model is now, so from version 4 it has them.
    have = {c["name"] for c in inspect(conn).get_columns("rule_document")}
    for column, default in (("game", "mtg"), ("kind", "Comprehensive Rules")):
        if column in have:
            continue
        conn.exec_driver_sql(f"ALTER TABLE rule_document ADD COLUMN {column} VARCHAR "
                             f"NOT NULL DEFAULT '{default}'")
    schema.GlossaryRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


def _rule_releases(session: Session) -> None:
    conn = session.connection()
    have = {c["name"] for c in inspect(conn).get_columns("rule_document")}
    for column, kind in (("release", "VARCHAR"), ("archive", "VARCHAR"),
                         ("position", "INTEGER")):
        if column not in have:
            conn.exec_driver_sql(f"ALTER TABLE rule_document ADD COLUMN {column} {kind}")


def _views_anew(session: Session) -> None:
    conn = session.connection()
    for name in schema.VIEWS:  # recreated, as they are now, right after the migrations
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {name}")


# Migration 8: the compact store. The tables of version 7 are set aside (renamed, their
# indexes and sequences too, so the new ones can take their names), their rows copied into
# the new tables a chunk at a time (packed, keyed, each timestamp a batch), and dropped.
# Run and exploration ids are kept, so "newest" means what it meant; stored JSON is packed
# as it is, never rebuilt, so a damaged outcome stays damaged and is reported as before.
# What can't be carried over is refused first, in one line (_refuse_what_cant_move).
_V7_TABLES = ("exploration", "source_file", "divergence", "run", "scenario")  # children first
_SERIALS = {"run": "run_id", "divergence": "divergence_id", "exploration": "exploration_id"}
_NEW_SERIALS = {"run": "run_id", "exploration": "exploration_id"}
_CHUNK = 2_000


def _set_aside(conn: Any, table: str) -> None:
    if conn.dialect.name == "postgresql":
        for (index,) in conn.execute(sql_text(
                "SELECT indexname FROM pg_indexes WHERE tablename = :t AND "
                "schemaname = current_schema()"), {"t": table}).all():
            conn.exec_driver_sql(f'ALTER INDEX "{index}" RENAME TO "v7_{index}"')
        conn.exec_driver_sql(f"ALTER TABLE {table} RENAME TO v7_{table}")
        if table in _SERIALS:
            seq = conn.execute(sql_text("SELECT pg_get_serial_sequence(:t, :c)"),
                               {"t": f"v7_{table}", "c": _SERIALS[table]}).scalar()
            if seq:
                name = seq.split(".")[-1].strip('"')
                conn.exec_driver_sql(f'ALTER SEQUENCE {seq} RENAME TO "v7_{name}"')
        return
    for (index,) in conn.execute(sql_text(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = :t "
            "AND sql IS NOT NULL"), {"t": table}).all():
        conn.exec_driver_sql(f'DROP INDEX "{index}"')
    conn.exec_driver_sql(f"ALTER TABLE {table} RENAME TO v7_{table}")


def _chunks_of(conn: Any, sql: str, key: str) -> Any:
    """The rows of a v7 table a chunk at a time, in the order of `key` (keyset paging)."""
    last: Any = None
    while True:
        where = "" if last is None else f"WHERE {key} > :last"
        rows = conn.execute(sql_text(f"{sql} {where} ORDER BY {key} LIMIT {_CHUNK}"),
                            {"last": last}).mappings().all()
        if not rows:
            return
        yield [dict(r) for r in rows]
        last = rows[-1][key]


_ID_OF = {"run": "run_id", "divergence": "divergence_id", "source_file": "digest",
          "exploration": "exploration_id", "scenario": "content_hash"}


def _key_of(table: str, row: dict[str, Any], column: str = "scenario_hash") -> int:
    """The scenario key of a v7 row's hash; a hash that is none is one line naming it."""
    value = row[column]
    try:
        if not isinstance(value, str) or len(bytes.fromhex(value)) != 32:
            raise ValueError
    except ValueError:
        shown = row[_ID_OF[table]]
        shown = bytes(shown).hex()[:12] if isinstance(shown, bytes | memoryview) else shown
        raise StoreError(f"table {table}, row {shown!r}: its {column} {str(value)[:70]!r} is "
                         f"not a SHA-256 in hex: migration 8 can't key it; mend or delete "
                         f"the row, then open the database again") from None
    return scenario_key(value)


def _refuse_what_cant_move(conn: Any) -> None:
    """What migration 8 can't carry over, said before anything is changed: views of the
    user's own on the tables it rebuilds, and rows whose scenario version is not stored."""
    if conn.dialect.name == "postgresql":
        names = conn.execute(sql_text(
            "SELECT table_name FROM information_schema.views "
            "WHERE table_schema = current_schema()")).scalars().all()
    else:
        names = conn.execute(sql_text(
            "SELECT name FROM sqlite_master WHERE type = 'view'")).scalars().all()
    for name in sorted(set(names) - set(schema.VIEWS)):
        raise StoreError(f"view {name} is not rulesdiff's, and migration 8 rebuilds the "
                         f"tables it may read: drop it, open the database again, and make "
                         f"it anew on the new tables (docs/dataset.md)")
    for table in _V7_TABLES[:-1]:
        found = conn.execute(sql_text(
            f"SELECT x.{_ID_OF[table]}, x.scenario_hash FROM {table} x WHERE NOT EXISTS "
            f"(SELECT 1 FROM scenario s WHERE s.content_hash = x.scenario_hash) LIMIT 1")
        ).first()
        if found is not None:
            shown = bytes(found[0]).hex()[:12] if table == "source_file" else found[0]
            raise StoreError(f"table {table}, row {shown!r}: its scenario version "
                             f"{str(found[1])[:12]} is not stored, and migration 8 keeps no "
                             f"row without its scenario: delete the row, then open the "
                             f"database again")


def _old_columns(outcome_json: str) -> dict[str, str | None]:
    try:
        return outcome_columns(json.loads(outcome_json))
    except (ValueError, TypeError, AttributeError, RecursionError):
        return {"life": None, "losers": None, "zones": None}  # damaged: reported on reading


def _compact_store(session: Session) -> None:
    conn = session.connection()
    if "packed_outcome" in {c["name"] for c in inspect(conn).get_columns("run")}:
        return  # the tables are compact already (as migrations 2 and 7, it is idempotent)
    _refuse_what_cant_move(conn)
    for name in schema.VIEWS:
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {name}")
    for table in _V7_TABLES:
        _set_aside(conn, table)
    for model in (schema.BatchRow, schema.ScenarioRow, schema.RunRow, schema.DivergenceRow,
                  schema.SourceFileRow, schema.ExplorationRow):
        model.__table__.create(conn)  # type: ignore[attr-defined]
    stamps = [s for (s,) in conn.execute(sql_text(
        "SELECT first_stored FROM v7_scenario UNION SELECT created FROM v7_run")).all()]
    batch: dict[str, int] = {}
    for stamp in sorted(stamps):
        batch[stamp] = schema.new_batch(session, stamp)
    for rows in _chunks_of(conn, "SELECT content_hash, id, title, tags, sources, "
                                 "canonical_json, first_stored FROM v7_scenario", "content_hash"):
        scenarios = [{
            "scenario_key": _key_of("scenario", r, "content_hash"),
            "content_hash": bytes.fromhex(r["content_hash"]), "id": r["id"],
            "title": r["title"], "tags": r["tags"], "sources": r["sources"],
            "packed_json": pack(r["canonical_json"], SCENARIO),
            "batch_id": batch[r["first_stored"]]} for r in rows]
        schema.insert_ignore(session, schema.ScenarioRow, scenarios)
        schema.check_keys(session, scenarios)
    for rows in _chunks_of(conn, "SELECT run_id, scenario_hash, era, engine_version, "
                                 "outcome_json, created FROM v7_run", "run_id"):
        schema.insert_ignore(session, schema.RunRow, [{
            "run_id": r["run_id"], "scenario_key": _key_of("run", r),
            "era": r["era"], "engine_version": r["engine_version"],
            "packed_outcome": pack(r["outcome_json"], r["era"]),
            **_old_columns(r["outcome_json"]), "batch_id": batch[r["created"]]}
            for r in rows])
    for rows in _chunks_of(conn, "SELECT divergence_id, scenario_hash, engine_version, era_a, "
                                 "era_b, path, value_a, value_b FROM v7_divergence",
                           "divergence_id"):
        for r in rows:
            r["scenario_key"] = _key_of("divergence", r)
            del r["scenario_hash"], r["divergence_id"]
        schema.insert_ignore(session, schema.DivergenceRow, rows)
    for rows in _chunks_of(conn, "SELECT digest, scenario_hash, refused FROM v7_source_file",
                           "digest"):
        for r in rows:
            r["scenario_key"] = _key_of("source_file", r)
            del r["scenario_hash"]
            r["digest"] = bytes(r["digest"])
        schema.insert_ignore(session, schema.SourceFileRow, rows)
    for rows in _chunks_of(conn, "SELECT exploration_id, scenario_hash, scenario_id, era, "
                                 "engine_version, objective, fields, blocks, lines, outcomes, "
                                 "value_json, result_json, created FROM v7_exploration",
                           "exploration_id"):
        for r in rows:
            r["scenario_key"] = _key_of("exploration", r)
            del r["scenario_hash"]
        schema.insert_ignore(session, schema.ExplorationRow, rows)
    if conn.dialect.name == "postgresql":
        for table, column in _NEW_SERIALS.items():  # ids were copied: the sequences go on after
            conn.exec_driver_sql(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                f"COALESCE(MAX({column}), 0) + 1, false) FROM {table}")
    for table in _V7_TABLES:
        conn.exec_driver_sql(f"DROP TABLE v7_{table}")


MIGRATIONS: list[tuple[str, Any]] = [
    ("1-scenarios-runs-divergences", lambda session: None),  # the first schema
    ("2-explorations", _explorations),
    ("3-views-of-the-newest-runs", _views_anew),
    ("4-generations", _generations),
    ("5-rule-texts", _rule_texts),
    ("6-rule-kinds-and-glossary", _rule_kinds_and_glossary),
    ("7-source-files", _source_files),
    ("8-compact-store", _compact_store),
    ("9-rule-releases", _rule_releases),
]

SCHEMA_VERSION = len(MIGRATIONS)
