"""The store, SQLite by default or PostgreSQL (the `postgres` extra): scenarios, eras,
runs, divergences, explorations.

Writes are content-addressed and idempotent: a scenario version is keyed by the hash of its
canonical JSON, a run by (scenario version, era, engine version). Storing the same thing
twice adds nothing; a changed scenario file is a new version beside the old one. Each
command writes in one transaction; on SQLite it takes the write lock up front (BEGIN
IMMEDIATE) and waits for other writers (WAL, busy timeout, retry), so parallel `rulesdiff`
processes lose nothing.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Engine,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    event,
    insert,
    inspect,
    make_url,
)
from sqlalchemy import text as sql_text
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from comparator.encoding import ordered_digest, ordered_json
from comparator.packing import SCENARIO, digest, outcome_columns, pack, scenario_key
from versions import ALL_ERAS

SCHEMA_VERSION = 8  # = len(MIGRATIONS)
DEFAULT_DB = "rulesdiff.db"


class StoreError(Exception):
    """The database can't be used: a bad URL, a newer schema. One line for the user."""




def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- tables ---------------------------------------------------------------------------------


class Meta(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


class EraRow(SQLModel, table=True):
    __tablename__ = "era"
    id: str = Field(primary_key=True)
    name: str
    aliases: str  # JSON list
    began: str
    ended: str | None = None
    cr_modelled: str
    summary: str
    changes: str  # JSON list
    sources: str  # JSON list


class BatchRow(SQLModel, table=True):
    """A stored batch (one transaction): when its rows were stored. The rows name their
    batch instead of each carrying a timestamp."""

    __tablename__ = "batch"
    batch_id: int | None = Field(default=None, primary_key=True)
    stored: str


# A scenario key is a 64-bit integer (see `packing.scenario_key`): PostgreSQL's BIGINT,
# SQLite's INTEGER, whose primary key is then the rowid itself (no second index).
_KEY = BigInteger().with_variant(Integer(), "sqlite")


def _key_column(*references: str, primary: bool = False) -> Any:
    if primary:
        return Column(_KEY, primary_key=True, autoincrement=False)
    return Column(_KEY, ForeignKey(*references), nullable=False)


class ScenarioRow(SQLModel, table=True):
    """One version of a scenario: its canonical JSON (packed), keyed by the hash of it."""

    __tablename__ = "scenario"
    scenario_key: int = Field(sa_column=_key_column(primary=True))
    content_hash: bytes = Field(sa_column=Column(LargeBinary, nullable=False))  # SHA-256
    id: str = Field(index=True)
    title: str
    tags: str  # JSON list
    sources: str  # JSON list
    packed_json: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    batch_id: int = Field(foreign_key="batch.batch_id")


class RunRow(SQLModel, table=True):
    """One era's outcome of a scenario version, by an engine version: the outcome JSON
    packed, and in plain columns what SQL reads of it (life, who lost, zones)."""

    __tablename__ = "run"
    __table_args__ = (UniqueConstraint("scenario_key", "era", "engine_version"),)
    run_id: int | None = Field(default=None, primary_key=True)
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    era: str = Field(foreign_key="era.id")
    engine_version: str
    packed_outcome: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    life: str | None = None  # JSON {player: life}; None where a game has no life
    losers: str | None = None  # JSON list of the players who lost
    zones: str | None = None  # JSON {zone: [permanents]}
    batch_id: int = Field(foreign_key="batch.batch_id")


class DivergenceRow(SQLModel, table=True):
    """A field on which two eras' outcomes of a scenario version differ. Keyed by what it
    is (on SQLite the key is the table: one B-tree, not a table and its index)."""

    __tablename__ = "divergence"
    __table_args__ = {"sqlite_with_rowid": False}
    scenario_key: int = Field(sa_column=Column(_KEY, ForeignKey("scenario.scenario_key"),
                                               primary_key=True, autoincrement=False))
    engine_version: str = Field(primary_key=True)
    era_a: str = Field(foreign_key="era.id", primary_key=True)
    era_b: str = Field(foreign_key="era.id", primary_key=True)
    path: str = Field(primary_key=True)
    value_a: str | None  # JSON
    value_b: str | None  # JSON


class SourceFileRow(SQLModel, table=True):
    """A scenario file as this rulesdiff read it: the digest of its bytes, with the engine
    version and the card library it was read with, and the scenario version it gave. A
    rebuild finds a file stored without parsing it again. Stored with the file's runs, in
    the same transaction."""

    __tablename__ = "source_file"
    __table_args__ = {"sqlite_with_rowid": False}  # the digest is the key: one B-tree, not two
    digest: bytes = Field(sa_column=Column(LargeBinary, primary_key=True))
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    refused: str  # JSON list: the eras of its game that refused it, when it was run


# The newest run of each scenario (by id) and era: what "latest" means everywhere.
_NEWEST = ("SELECT MAX(n.run_id) FROM run n JOIN scenario ns "
           "ON ns.scenario_key = n.scenario_key GROUP BY ns.id, n.era")

# The same three views on both databases; only JSON access is spelt per dialect.
VIEWS = {
    # Only the divergences of each scenario's newest runs: "latest" means the same here as
    # in export and latest_outcomes.
    "divergences_by_era_pair": f"""
        SELECT d.era_a, d.era_b, COUNT(DISTINCT s.id) AS scenarios, COUNT(*) AS fields
        FROM divergence d JOIN scenario s ON s.scenario_key = d.scenario_key
        WHERE EXISTS (SELECT 1 FROM run r
                      WHERE r.run_id IN ({_NEWEST})
                        AND r.scenario_key = d.scenario_key
                        AND r.engine_version = d.engine_version)
        GROUP BY d.era_a, d.era_b ORDER BY d.era_a, d.era_b""",
    "survives_in_one_era": {
        "sqlite": f"""
        SELECT s.id AS scenario_id, p.value AS permanent,
               MAX(CASE WHEN z.key = 'battlefield' THEN r.era END) AS surviving_era
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key,
             json_each(r.zones) z, json_each(z.value) p
        WHERE r.run_id IN ({_NEWEST})
        GROUP BY s.id, p.value
        HAVING SUM(z.key = 'battlefield') = 1 AND COUNT(*) > 1""",
        "postgresql": f"""
        SELECT s.id AS scenario_id, p.value AS permanent,
               MAX(CASE WHEN z.key = 'battlefield' THEN r.era END) AS surviving_era
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key,
             jsonb_each(r.zones::jsonb) z, jsonb_array_elements_text(z.value) p
        WHERE r.run_id IN ({_NEWEST})
        GROUP BY s.id, p.value
        HAVING SUM(CASE WHEN z.key = 'battlefield' THEN 1 ELSE 0 END) = 1
           AND COUNT(*) > 1""",
    },
    "latest_outcomes": f"""
        SELECT s.id AS scenario_id, r.era, r.engine_version, b.stored AS created,
               r.life, r.losers, r.zones
        FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key
             JOIN batch b ON b.batch_id = r.batch_id
        WHERE r.run_id IN ({_NEWEST})""",
}


def view_sql(name: str, dialect: str) -> str | None:
    """A view's SQL for this database, or None where it has no spelling for it."""
    sql = VIEWS[name]
    return sql if isinstance(sql, str) else sql.get(dialect)


class ExplorationRow(SQLModel, table=True):
    """One era's exploration of a scenario version (explore contract §6.6)."""

    __tablename__ = "exploration"
    __table_args__ = (UniqueConstraint("scenario_key", "era", "engine_version", "objective",
                                       "fields", "blocks"),)
    exploration_id: int | None = Field(default=None, primary_key=True)
    scenario_key: int = Field(sa_column=_key_column("scenario.scenario_key"))
    scenario_id: str = Field(index=True)
    era: str = Field(foreign_key="era.id")
    engine_version: str
    objective: str
    fields: str
    blocks: str
    lines: int
    outcomes: int
    value_json: str  # {"score", "state", "line"}
    result_json: str  # the era's whole result, as in the explore JSON
    created: str


class GenerationRow(SQLModel, table=True):
    """How generated scenarios were made (`dataset generate`): stored when a generated
    folder is built, so a dataset says what distribution its scenarios come from."""

    __tablename__ = "generation"
    __table_args__ = (UniqueConstraint("generator", "seed", "count", "parameters_hash"),)
    generation_id: int | None = Field(default=None, primary_key=True)
    generator: int
    seed: int
    count: int
    parameters_json: str
    parameters_hash: str
    stored: str


class RuleDocumentRow(SQLModel, table=True):
    """A rules document the user imported (`rules import`): the texts are the publisher's,
    never shipped; keyed by the hash of the text, so importing it again adds nothing."""

    __tablename__ = "rule_document"
    document_id: int | None = Field(default=None, primary_key=True)
    content_hash: str = Field(unique=True)
    effective: str  # YYYY-MM-DD, as the document says
    name: str  # the file it was imported from
    imported: str
    # Which game's rules, and which kind of document (comparator.rules_document.KINDS).
    game: str = Field(default="mtg", sa_column_kwargs={"server_default": "mtg"})
    kind: str = Field(default="Comprehensive Rules",
                      sa_column_kwargs={"server_default": "Comprehensive Rules"})


class RuleTextRow(SQLModel, table=True):
    """One numbered rule of an imported document, with the headings above it."""

    __tablename__ = "rule_text"
    __table_args__ = (UniqueConstraint("document_id", "number"),)
    rule_id: int | None = Field(default=None, primary_key=True)
    document_id: int = Field(foreign_key="rule_document.document_id", index=True)
    number: str = Field(index=True)
    text: str
    section: str
    title: str


class GlossaryRow(SQLModel, table=True):
    """One glossary entry of an imported document."""

    __tablename__ = "rule_glossary"
    __table_args__ = (UniqueConstraint("document_id", "term"),)
    entry_id: int | None = Field(default=None, primary_key=True)
    document_id: int = Field(foreign_key="rule_document.document_id", index=True)
    term: str = Field(index=True)
    text: str


# -- connecting -----------------------------------------------------------------------------


def database_url(db: str | None) -> str:
    """`--db`, else RULESDIFF_DB, else ./rulesdiff.db; a plain path means SQLite."""
    value = db or os.environ.get("RULESDIFF_DB") or DEFAULT_DB
    if "://" in value:
        return value
    return f"sqlite:///{Path(value)}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _shown(url: str) -> str:
    """A database URL for messages: never with its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "the database URL given"


def open_engine(db: str | None, create: bool = True) -> Engine:
    """The database, made ready. `create`: make the file and tables if need be (commands
    that store); else (commands that only read) it must already be a rulesdiff database."""
    url = database_url(db)
    shown = _shown(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise StoreError(f"can't use database {shown}: not a database URL") from None
    memory = parsed.drivername.startswith("sqlite") and parsed.database in (None, "",
                                                                           ":memory:")
    if memory:
        raise StoreError(f"{shown} is an in-memory database: nothing stored there would be "
                         f"kept; name a file")
    if parsed.drivername.startswith("sqlite"):
        path = Path(parsed.database or "")
        if not create and not path.is_file():
            raise StoreError(f"no database at {path} (build one with `rulesdiff dataset "
                             f"build`, or name it with --db)")
        if path.exists() and not path.is_file():
            raise StoreError(f"{path} is not a database file")
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError, ValueError) as exc:
        raise StoreError(f"can't use database {shown}: {exc}") from None
    if engine.dialect.name == "sqlite":
        # Let SQLAlchemy not open its own transactions: we issue BEGIN IMMEDIATE ourselves.
        event.listen(engine, "connect", _sqlite_pragmas)

        @event.listens_for(engine, "connect")
        def _no_autobegin(dbapi_conn: Any, _record: Any) -> None:
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin_immediate(conn: Any) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
    try:
        if create:
            try:
                _prepare(engine)
            except StoreError as exc:
                raise StoreError(f"{shown}: {exc}") from None
        else:
            _check_readable(engine, shown)
    except (OperationalError, DatabaseError) as exc:
        why = str(getattr(exc, "orig", exc)).splitlines()[0]
        if engine.dialect.name == "sqlite" and not os.access(
                Path(parsed.database or ".").resolve().parent, os.W_OK):
            # SQLite's WAL needs its shared-memory file beside the database, even to read.
            why += " (its folder is read-only: SQLite must write beside the file)"
        raise StoreError(f"can't open database {shown}: {why}") from None
    return engine


def _check_readable(engine: Engine, shown: str) -> None:
    """A database to read must be a rulesdiff one; an older one is upgraded first (a read
    command reads the tables as they are now)."""
    with Session(engine) as session:
        names = set(inspect(session.connection()).get_table_names())
        if "meta" not in names:
            raise StoreError(f"{shown} is not a rulesdiff database (no meta table)")
        try:
            version = _schema_version(session)
        except StoreError as exc:
            raise StoreError(f"{shown}: {exc}") from None
    if version < SCHEMA_VERSION:
        try:
            _prepare(engine)
        except StoreError as exc:
            raise StoreError(f"{shown}: {exc}") from None


def _schema_version(session: Session) -> int:
    """The schema version of a rulesdiff database; StoreError if it has none this rulesdiff
    can use: missing or damaged, or newer than it understands."""
    row = session.get(Meta, "schema_version")
    # isdecimal, not isdigit: int() refuses digits such as "²" that isdigit accepts.
    if row is None or not row.value.isdecimal():
        raise StoreError("meta.schema_version is missing or not a number: not a database "
                         "this rulesdiff wrote")
    version = int(row.value)
    if version > SCHEMA_VERSION:
        raise StoreError(f"database schema version {version} is newer than this rulesdiff "
                         f"understands ({SCHEMA_VERSION}); upgrade rulesdiff")
    return version


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
    GenerationRow.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _rule_texts(session: Session) -> None:
    for row in (RuleDocumentRow, RuleTextRow):
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
    GlossaryRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


# Named migrations, in order: the schema version is the number of them applied. A database
# of an older version is upgraded in the transaction that opens it; a newer one is refused.
def _views_anew(session: Session) -> None:
    conn = session.connection()
    for name in VIEWS:  # recreated, as they are now, right after the migrations
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
    for name in sorted(set(names) - set(VIEWS)):
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
    import json

    try:
        return outcome_columns(json.loads(outcome_json))
    except (ValueError, TypeError, AttributeError):
        return {"life": None, "losers": None, "zones": None}  # damaged: reported on reading


def _compact_store(session: Session) -> None:
    conn = session.connection()
    if "packed_outcome" in {c["name"] for c in inspect(conn).get_columns("run")}:
        return  # the tables are compact already (as migrations 2 and 7, it is idempotent)
    _refuse_what_cant_move(conn)
    for name in VIEWS:
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {name}")
    for table in _V7_TABLES:
        _set_aside(conn, table)
    for model in (BatchRow, ScenarioRow, RunRow, DivergenceRow, SourceFileRow, ExplorationRow):
        model.__table__.create(conn)  # type: ignore[attr-defined]
    stamps = [s for (s,) in conn.execute(sql_text(
        "SELECT first_stored FROM v7_scenario UNION SELECT created FROM v7_run")).all()]
    batch: dict[str, int] = {}
    for stamp in sorted(stamps):
        batch[stamp] = new_batch(session, stamp)
    for rows in _chunks_of(conn, "SELECT content_hash, id, title, tags, sources, "
                                 "canonical_json, first_stored FROM v7_scenario", "content_hash"):
        scenarios = [{
            "scenario_key": _key_of("scenario", r, "content_hash"),
            "content_hash": bytes.fromhex(r["content_hash"]), "id": r["id"],
            "title": r["title"], "tags": r["tags"], "sources": r["sources"],
            "packed_json": pack(r["canonical_json"], SCENARIO),
            "batch_id": batch[r["first_stored"]]} for r in rows]
        _insert_ignore(session, ScenarioRow, scenarios)
        _check_keys(session, scenarios)
    for rows in _chunks_of(conn, "SELECT run_id, scenario_hash, era, engine_version, "
                                 "outcome_json, created FROM v7_run", "run_id"):
        _insert_ignore(session, RunRow, [{
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
        _insert_ignore(session, DivergenceRow, rows)
    for rows in _chunks_of(conn, "SELECT digest, scenario_hash, refused FROM v7_source_file",
                           "digest"):
        for r in rows:
            r["scenario_key"] = _key_of("source_file", r)
            del r["scenario_hash"]
            r["digest"] = bytes(r["digest"])
        _insert_ignore(session, SourceFileRow, rows)
    for rows in _chunks_of(conn, "SELECT exploration_id, scenario_hash, scenario_id, era, "
                                 "engine_version, objective, fields, blocks, lines, outcomes, "
                                 "value_json, result_json, created FROM v7_exploration",
                           "exploration_id"):
        for r in rows:
            r["scenario_key"] = _key_of("exploration", r)
            del r["scenario_hash"]
        _insert_ignore(session, ExplorationRow, rows)
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
]


def _prepare(engine: Engine) -> None:
    def work(session: Session) -> list[str]:
        applied: list[str] = []
        conn = session.connection()
        if conn.dialect.name == "postgresql":
            # Several processes may open a new database at once (parallel builds, cluster
            # workers): one prepares it, the others wait and then find it ready.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7461726)")
        tables = set(inspect(conn).get_table_names())
        if tables and "meta" not in tables:
            raise StoreError("the database has tables but is not a rulesdiff database "
                             "(no meta table); name another with --db")
        if not tables:  # a new database: the whole schema at once
            SQLModel.metadata.create_all(conn)
            session.add(Meta(key="schema_version", value=str(SCHEMA_VERSION)))
            for name, _ in MIGRATIONS:
                session.add(Meta(key=f"migration:{name}", value=now()))
        else:
            version = _schema_version(session)
            for name, migrate in MIGRATIONS[version:]:
                migrate(session)
                session.merge(Meta(key=f"migration:{name}", value=now()))
                applied.append(name)
            session.merge(Meta(key="schema_version", value=str(SCHEMA_VERSION)))
        present = set(inspect(conn).get_view_names())
        for name in VIEWS:
            sql = view_sql(name, engine.dialect.name)
            if sql is not None and name not in present:
                conn.exec_driver_sql(f"CREATE VIEW {name} AS {sql}")
        return applied

    applied = write(engine, work)
    if "8-compact-store" in applied and engine.dialect.name == "sqlite":
        # The old tables' pages are free but still in the file: give them back (outside
        # any transaction, as VACUUM must be).
        # Best effort: the upgrade is done; if another process holds the database (or the
        # disk can't hold a copy), the free pages stay and later writes reuse them.
        raw = engine.raw_connection()
        try:
            raw.cursor().execute("VACUUM")
            raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (OperationalError, DatabaseError, sqlite3.Error):
            pass
        finally:
            raw.close()


# Why a whole transaction may be worth trying again: SQLite stayed locked beyond the busy
# timeout; PostgreSQL chose this writer as a deadlock's victim or could not serialize it.
_TRANSIENT = ("locked", "deadlock detected", "could not serialize")


def write(engine: Engine, work: Any) -> Any:
    """Run `work(session)` in one transaction, retrying the whole transaction when another
    writer got in the way."""
    for attempt in range(20):
        try:
            with Session(engine) as session, session.begin():
                return work(session)
        except OperationalError as exc:
            if not any(t in str(exc.orig) for t in _TRANSIENT) or attempt == 19:
                raise
            time.sleep(0.05 * (attempt + 1))
    return None



# -- writing --------------------------------------------------------------------------------


def _insert_ignore(session: Session, model: type[SQLModel], rows: list[dict[str, Any]]) -> int:
    """Insert the rows not stored yet; how many that was (-1 where the driver can't say)."""
    if not rows:
        return 0
    dialect = session.connection().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        for row in rows:
            session.merge(model(**row))
        return -1
    # One plain statement that both databases understand, executed for all the rows with
    # the driver's executemany: none of the ORM's per-row work, close to raw executemany.
    columns = list(rows[0])
    sql = (f"INSERT INTO {model.__tablename__} ({', '.join(columns)}) "
           f"VALUES ({', '.join(':' + c for c in columns)}) ON CONFLICT DO NOTHING")
    return int(getattr(session.execute(sql_text(sql), rows), "rowcount", -1))


def store_eras(session: Session, eras: list[dict[str, Any]]) -> None:
    _insert_ignore(session, EraRow, [{
        "id": e["id"], "name": e["name"], "aliases": ordered_json(e["aliases"]),
        "began": e["began"], "ended": e["ended"], "cr_modelled": e["cr"],
        "summary": e["summary"], "changes": ordered_json(e["changes"]),
        "sources": ordered_json(e["sources"]),
    } for e in eras])


ALL_ERA_IDS = tuple(e.id for e in ALL_ERAS)


def _era_rank(era: str) -> int:
    return ALL_ERA_IDS.index(era) if era in ALL_ERA_IDS else len(ALL_ERA_IDS)


def _scenario_row(sc: dict[str, Any], text: str) -> dict[str, Any]:
    content_hash = digest(text)
    return {
        "scenario_key": scenario_key(content_hash), "content_hash": content_hash,
        "id": sc["id"], "title": sc["title"], "tags": ordered_json(sc.get("tags", [])),
        "sources": ordered_json(sc.get("sources", [])), "packed_json": pack(text, SCENARIO),
    }


Rows = dict[str, list[dict[str, Any]]]  # table -> rows to insert


def store_results(
    session: Session, engine_version: str, results: list[dict[str, Any]]
) -> None:
    """Store scenarios, their runs and divergences. Each result is
    {"scenario": canonical dict, "outcomes": {era: outcome}, "divergences": [...]}."""
    insert_rows(session, result_rows(engine_version, results))


def result_rows(engine_version: str, results: list[dict[str, Any]]) -> Rows:
    """The rows that store results: everything encoded (and packed) here, so that worker
    processes can do it and the process that writes only inserts. They name no batch yet:
    `insert_rows` does, in the transaction that stores them."""
    scenarios: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    divergences: list[dict[str, Any]] = []
    for r in results:
        sc = r["scenario"]
        row = _scenario_row(sc, ordered_json(sc))
        key = row["scenario_key"]
        scenarios.append(row)
        for era, outcome in r["outcomes"].items():
            text = ordered_json(outcome)
            runs.append({
                "scenario_key": key, "era": era, "engine_version": engine_version,
                "packed_outcome": pack(text, era),
                **outcome_columns(outcome),
            })
        for d in r["divergences"]:
            eras = sorted(d["values"], key=_era_rank)  # one pair, in the registry's order
            for i, a in enumerate(eras):
                for b in eras[i + 1:]:
                    va, vb = d["values"][a], d["values"][b]
                    if va == vb:
                        continue
                    divergences.append({
                        "scenario_key": key, "engine_version": engine_version,
                        "era_a": a, "era_b": b, "path": d["path"],
                        "value_a": ordered_json(va), "value_b": ordered_json(vb),
                    })
    return {"scenario": scenarios, "run": runs, "divergence": divergences, "source_file": []}


def merge_rows(parts: list[Rows]) -> Rows:
    out: Rows = {"scenario": [], "run": [], "divergence": [], "source_file": []}
    for part in parts:
        for table, rows in part.items():
            out[table] += rows
    return out


def new_batch(session: Session, stored: str | None = None) -> int:
    """A batch row for the rows this transaction stores: its number. (The key as the
    driver reports it, not RETURNING, which SQLite has only from 3.35.)"""
    done = session.execute(insert(BatchRow).values(stored=stored or now()))
    return int(done.inserted_primary_key[0])


def insert_rows(session: Session, rows: Rows) -> None:
    scenarios, runs, divergences = rows["scenario"], rows["run"], rows["divergence"]
    files = sorted(rows.get("source_file", []), key=lambda row: row["digest"])
    if not (scenarios or runs or divergences or files):
        return
    if scenarios or runs:
        batch = new_batch(session)
        for row in scenarios + runs:
            row["batch_id"] = batch
    # Scenarios and divergences in key order, so that concurrent writers of overlapping rows
    # take their locks in the same order (PostgreSQL finds deadlocks otherwise; `write`
    # retries those). Runs keep the files' order: the newest run of an id is the last.
    scenarios.sort(key=lambda row: row["scenario_key"])
    divergences.sort(key=lambda row: (row["scenario_key"], row["era_a"], row["era_b"],
                                      row["path"]))
    counts = [_insert_ignore(session, ScenarioRow, scenarios)]
    _check_keys(session, scenarios)
    counts.append(_insert_ignore(session, RunRow, runs))
    if counts == [0, 0] and scenarios + runs:  # all stored before: the batch names nothing
        session.execute(sql_text("DELETE FROM batch WHERE batch_id = :b"),
                        {"b": scenarios[0]["batch_id"] if scenarios else runs[0]["batch_id"]})
    _insert_ignore(session, DivergenceRow, divergences)
    _insert_ignore(session, SourceFileRow, files)


def _check_keys(session: Session, scenarios: list[dict[str, Any]]) -> None:
    """Refuse to store a scenario version whose key another version has (two SHA-256s
    alike in their first 64 bits): its runs would be taken for the other's."""
    mine = {row["scenario_key"]: row["content_hash"] for row in scenarios}
    keys = sorted(mine)
    for i in range(0, len(keys), 500):
        stored = session.execute(select(ScenarioRow.scenario_key, ScenarioRow.content_hash)
                                 .where(col(ScenarioRow.scenario_key).in_(keys[i:i + 500])))
        for key, content_hash in stored:
            if bytes(content_hash) != mine[key]:
                raise StoreError(f"scenario version {mine[key].hex()[:12]} has the key of "
                                 f"the stored version {bytes(content_hash).hex()[:12]}: "
                                 f"it can't be stored beside it")


def store_explorations(
    session: Session, engine_version: str, items: list[tuple[dict[str, Any], dict[str, Any]]]
) -> None:
    """Store explorations: (canonical scenario, explore JSON) pairs, one row per era."""
    stamp = now()
    scenarios, rows = [], []
    for sc, doc in items:
        row = _scenario_row(sc, ordered_json(sc))
        scenarios.append(row)
        for era, res in doc["eras"].items():
            rows.append({
                "scenario_key": row["scenario_key"], "scenario_id": sc["id"], "era": era,
                "engine_version": engine_version, "objective": doc["objective"],
                "fields": doc["fields"], "blocks": doc["blocks"], "lines": res["lines"],
                "outcomes": len(res["outcomes"]), "value_json": ordered_json(res["value"]),
                "result_json": ordered_json(res), "created": stamp,
            })
    if scenarios:
        batch = new_batch(session)
        for row in scenarios:
            row["batch_id"] = batch
    scenarios.sort(key=lambda row: row["scenario_key"])
    if _insert_ignore(session, ScenarioRow, scenarios) == 0 and scenarios:
        session.execute(sql_text("DELETE FROM batch WHERE batch_id = :b"),
                        {"b": scenarios[0]["batch_id"]})
    _check_keys(session, scenarios)
    _insert_ignore(session, ExplorationRow, rows)


def store_generation(session: Session, manifest: dict[str, Any]) -> None:
    _insert_ignore(session, GenerationRow, [{
        "generator": int(manifest["generator"]), "seed": int(manifest["seed"]),
        "count": int(manifest["count"]), "parameters_json": ordered_json(manifest["parameters"]),
        "parameters_hash": ordered_digest(manifest["parameters"]), "stored": now()}])


# -- reading --------------------------------------------------------------------------------


def latest_runs(session: Session) -> list[Any]:
    """The newest stored run of each scenario (by id) and era: what "latest" means
    everywhere (export, check, the latest_outcomes view); older versions stay stored.
    They come in the order each (scenario, era) was first stored, the order in which
    `dataset check` reports changes: rows of run_id, scenario_id, era, engine_version and
    scenario_hash (hex)."""
    rows = session.execute(sql_text(
        "SELECT r.run_id, s.id AS scenario_id, r.era, r.engine_version, s.content_hash "
        "FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key JOIN "
        "(SELECT MAX(n.run_id) AS newest, MIN(n.run_id) AS first_run FROM run n JOIN "
        "scenario ns ON ns.scenario_key = n.scenario_key GROUP BY ns.id, n.era) k "
        "ON r.run_id = k.newest ORDER BY k.first_run")).all()
    return [LatestRun(r.run_id, r.scenario_id, r.era, r.engine_version,
                      bytes(r.content_hash).hex()) for r in rows]


@dataclass(frozen=True)
class LatestRun:
    run_id: int
    scenario_id: str
    era: str
    engine_version: str
    scenario_hash: str
