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
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    LargeBinary,
    UniqueConstraint,
    event,
    func,
    inspect,
    make_url,
)
from sqlalchemy import text as sql_text
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlmodel import Field, Session, SQLModel, col, create_engine, select

from comparator.encoding import hash_of, ordered_digest, ordered_json
from versions import ALL_ERAS

SCHEMA_VERSION = 7  # = len(MIGRATIONS)
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


class ScenarioRow(SQLModel, table=True):
    """One version of a scenario: its canonical JSON, keyed by the hash of it."""

    __tablename__ = "scenario"
    content_hash: str = Field(primary_key=True)
    id: str = Field(index=True)
    title: str
    tags: str  # JSON list
    sources: str  # JSON list
    canonical_json: str
    first_stored: str


class RunRow(SQLModel, table=True):
    __tablename__ = "run"
    __table_args__ = (UniqueConstraint("scenario_hash", "era", "engine_version"),)
    run_id: int | None = Field(default=None, primary_key=True)
    scenario_hash: str = Field(foreign_key="scenario.content_hash", index=True)
    scenario_id: str = Field(index=True)
    era: str = Field(foreign_key="era.id")
    engine_version: str
    outcome_json: str
    outcome_hash: str
    created: str


class DivergenceRow(SQLModel, table=True):
    __tablename__ = "divergence"
    __table_args__ = (
        UniqueConstraint("scenario_hash", "engine_version", "era_a", "era_b", "path"),
    )
    divergence_id: int | None = Field(default=None, primary_key=True)
    scenario_hash: str = Field(foreign_key="scenario.content_hash", index=True)
    scenario_id: str = Field(index=True)
    engine_version: str
    era_a: str = Field(foreign_key="era.id")
    era_b: str = Field(foreign_key="era.id")
    path: str
    value_a: str | None  # JSON
    value_b: str | None  # JSON


class SourceFileRow(SQLModel, table=True):
    """A scenario file as this rulesdiff read it: the digest of its bytes, with the engine
    version and the card library it was read with, and the scenario version it gave. A
    rebuild finds a file stored without parsing it again. Stored with the file's runs, in
    the same transaction."""

    __tablename__ = "source_file"
    digest: bytes = Field(sa_column=Column(LargeBinary, primary_key=True))
    scenario_hash: str = Field(foreign_key="scenario.content_hash")
    refused: str  # JSON list: the eras of its game that refused it, when it was run


# The newest run of each scenario (by id) and era: what "latest" means everywhere.
_NEWEST = "SELECT MAX(run_id) FROM run GROUP BY scenario_id, era"

# The same three views on both databases; only JSON access is spelt per dialect.
VIEWS = {
    # Only the divergences of each scenario's newest runs: "latest" means the same here as
    # in export and latest_outcomes.
    "divergences_by_era_pair": f"""
        SELECT d.era_a, d.era_b, COUNT(DISTINCT d.scenario_id) AS scenarios,
               COUNT(*) AS fields
        FROM divergence d
        WHERE EXISTS (SELECT 1 FROM run r
                      WHERE r.run_id IN ({_NEWEST})
                        AND r.scenario_hash = d.scenario_hash
                        AND r.engine_version = d.engine_version)
        GROUP BY d.era_a, d.era_b ORDER BY d.era_a, d.era_b""",
    "survives_in_one_era": {
        "sqlite": f"""
        SELECT r.scenario_id, p.key AS permanent,
               MAX(CASE WHEN json_extract(p.value, '$.zone') = 'battlefield'
                        THEN r.era END) AS surviving_era
        FROM run r, json_each(r.outcome_json, '$.permanents') p
        WHERE r.run_id IN ({_NEWEST})
        GROUP BY r.scenario_id, p.key
        HAVING SUM(json_extract(p.value, '$.zone') = 'battlefield') = 1
           AND COUNT(*) > 1""",
        "postgresql": f"""
        SELECT r.scenario_id, p.key AS permanent,
               MAX(CASE WHEN p.value ->> 'zone' = 'battlefield'
                        THEN r.era END) AS surviving_era
        FROM run r, jsonb_each(r.outcome_json::jsonb -> 'permanents') p
        WHERE r.run_id IN ({_NEWEST})
        GROUP BY r.scenario_id, p.key
        HAVING SUM(CASE WHEN p.value ->> 'zone' = 'battlefield' THEN 1 ELSE 0 END) = 1
           AND COUNT(*) > 1""",
    },
    "latest_outcomes": f"""
        SELECT r.scenario_id, r.era, r.engine_version, r.outcome_hash, r.created,
               r.outcome_json
        FROM run r
        WHERE r.run_id IN ({_NEWEST})""",
}


def view_sql(name: str, dialect: str) -> str | None:
    """A view's SQL for this database, or None where it has no spelling for it."""
    sql = VIEWS[name]
    return sql if isinstance(sql, str) else sql.get(dialect)


class ExplorationRow(SQLModel, table=True):
    """One era's exploration of a scenario version (explore contract §6.6)."""

    __tablename__ = "exploration"
    __table_args__ = (UniqueConstraint("scenario_hash", "era", "engine_version", "objective",
                                       "fields", "blocks"),)
    exploration_id: int | None = Field(default=None, primary_key=True)
    scenario_hash: str = Field(foreign_key="scenario.content_hash", index=True)
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
    with Session(engine) as session:
        names = set(inspect(session.connection()).get_table_names())
        if "meta" not in names:
            raise StoreError(f"{shown} is not a rulesdiff database (no meta table)")
        try:
            _schema_version(session)
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


def _explorations(session: Session) -> None:
    ExplorationRow.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _generations(session: Session) -> None:
    GenerationRow.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _rule_texts(session: Session) -> None:
    for row in (RuleDocumentRow, RuleTextRow):
        row.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


def _source_files(session: Session) -> None:
    SourceFileRow.__table__.create(session.connection(), checkfirst=True)  # type: ignore[attr-defined]


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


MIGRATIONS: list[tuple[str, Any]] = [
    ("1-scenarios-runs-divergences", lambda session: None),  # the first schema
    ("2-explorations", _explorations),
    ("3-views-of-the-newest-runs", _views_anew),
    ("4-generations", _generations),
    ("5-rule-texts", _rule_texts),
    ("6-rule-kinds-and-glossary", _rule_kinds_and_glossary),
    ("7-source-files", _source_files),
]


def _prepare(engine: Engine) -> None:
    def work(session: Session) -> None:
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
            session.merge(Meta(key="schema_version", value=str(SCHEMA_VERSION)))
        present = set(inspect(conn).get_view_names())
        for name in VIEWS:
            sql = view_sql(name, engine.dialect.name)
            if sql is not None and name not in present:
                conn.exec_driver_sql(f"CREATE VIEW {name} AS {sql}")

    write(engine, work)


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


def _insert_ignore(session: Session, model: type[SQLModel], rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    dialect = session.connection().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        for row in rows:
            session.merge(model(**row))
        return
    # One plain statement that both databases understand, executed for all the rows with
    # the driver's executemany: none of the ORM's per-row work, close to raw executemany.
    columns = list(rows[0])
    sql = (f"INSERT INTO {model.__tablename__} ({', '.join(columns)}) "
           f"VALUES ({', '.join(':' + c for c in columns)}) ON CONFLICT DO NOTHING")
    session.execute(sql_text(sql), rows)


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


def _scenario_row(sc: dict[str, Any], text: str, stamp: str) -> dict[str, Any]:
    return {
        "content_hash": hash_of(text), "id": sc["id"], "title": sc["title"],
        "tags": ordered_json(sc.get("tags", [])), "sources": ordered_json(sc.get("sources", [])),
        "canonical_json": text, "first_stored": stamp,
    }


Rows = dict[str, list[dict[str, Any]]]  # table -> rows to insert


def store_results(
    session: Session, engine_version: str, results: list[dict[str, Any]]
) -> None:
    """Store scenarios, their runs and divergences. Each result is
    {"scenario": canonical dict, "outcomes": {era: outcome}, "divergences": [...]}."""
    insert_rows(session, result_rows(engine_version, results))


def result_rows(engine_version: str, results: list[dict[str, Any]]) -> Rows:
    """The rows that store results: everything encoded here, so that worker processes can
    do it and the process that writes only inserts."""
    stamp = now()
    scenarios: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    divergences: list[dict[str, Any]] = []
    for r in results:
        sc = r["scenario"]
        row = _scenario_row(sc, ordered_json(sc), stamp)
        h = row["content_hash"]
        scenarios.append(row)
        for era, outcome in r["outcomes"].items():
            text = ordered_json(outcome)  # encoded once: stored, and hashed
            runs.append({
                "scenario_hash": h, "scenario_id": sc["id"], "era": era,
                "engine_version": engine_version, "outcome_json": text,
                "outcome_hash": hash_of(text), "created": stamp,
            })
        for d in r["divergences"]:
            eras = sorted(d["values"], key=_era_rank)  # one pair, in the registry's order
            for i, a in enumerate(eras):
                for b in eras[i + 1:]:
                    va, vb = d["values"][a], d["values"][b]
                    if va == vb:
                        continue
                    divergences.append({
                        "scenario_hash": h, "scenario_id": sc["id"],
                        "engine_version": engine_version, "era_a": a, "era_b": b,
                        "path": d["path"], "value_a": ordered_json(va), "value_b": ordered_json(vb),
                    })
    return {"scenario": scenarios, "run": runs, "divergence": divergences, "source_file": []}


def merge_rows(parts: list[Rows]) -> Rows:
    out: Rows = {"scenario": [], "run": [], "divergence": [], "source_file": []}
    for part in parts:
        for table, rows in part.items():
            out[table] += rows
    return out


def insert_rows(session: Session, rows: Rows) -> None:
    scenarios, runs, divergences = rows["scenario"], rows["run"], rows["divergence"]
    # Scenarios and divergences in key order, so that concurrent writers of overlapping rows
    # take their locks in the same order (PostgreSQL finds deadlocks otherwise; `write`
    # retries those). Runs keep the files' order: the newest run of an id is the last.
    scenarios.sort(key=lambda row: row["content_hash"])
    divergences.sort(key=lambda row: (row["scenario_hash"], row["era_a"], row["era_b"],
                                      row["path"]))
    _insert_ignore(session, ScenarioRow, scenarios)
    _insert_ignore(session, RunRow, runs)
    _insert_ignore(session, DivergenceRow, divergences)
    files = sorted(rows.get("source_file", []), key=lambda row: row["digest"])
    _insert_ignore(session, SourceFileRow, files)


def store_explorations(
    session: Session, engine_version: str, items: list[tuple[dict[str, Any], dict[str, Any]]]
) -> None:
    """Store explorations: (canonical scenario, explore JSON) pairs, one row per era."""
    stamp = now()
    scenarios, rows = [], []
    for sc, doc in items:
        row = _scenario_row(sc, ordered_json(sc), stamp)
        h = row["content_hash"]
        scenarios.append(row)
        for era, res in doc["eras"].items():
            rows.append({
                "scenario_hash": h, "scenario_id": sc["id"], "era": era,
                "engine_version": engine_version, "objective": doc["objective"],
                "fields": doc["fields"], "blocks": doc["blocks"], "lines": res["lines"],
                "outcomes": len(res["outcomes"]), "value_json": ordered_json(res["value"]),
                "result_json": ordered_json(res), "created": stamp,
            })
    _insert_ignore(session, ScenarioRow, scenarios)
    _insert_ignore(session, ExplorationRow, rows)


def store_generation(session: Session, manifest: dict[str, Any]) -> None:
    _insert_ignore(session, GenerationRow, [{
        "generator": int(manifest["generator"]), "seed": int(manifest["seed"]),
        "count": int(manifest["count"]), "parameters_json": ordered_json(manifest["parameters"]),
        "parameters_hash": ordered_digest(manifest["parameters"]), "stored": now()}])


# -- reading --------------------------------------------------------------------------------


def latest_runs(session: Session) -> list[RunRow]:
    """The newest stored run of each scenario (by id) and era: what "latest" means
    everywhere (export, check, the latest_outcomes view); older versions stay stored.
    They come in the order each (scenario, era) was first stored, the order in which
    `dataset check` reports changes."""
    run_id = col(RunRow.run_id)
    per_key = (select(func.max(run_id).label("newest"), func.min(run_id).label("first_run"))
               .group_by(col(RunRow.scenario_id), col(RunRow.era)).subquery())
    return list(session.exec(select(RunRow).join(per_key, run_id == per_key.c.newest)
                             .order_by(per_key.c.first_run)).all())
