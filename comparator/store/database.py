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

import contextlib
import errno
import os
import sqlite3
import stat
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    event,
    inspect,
    make_url,
)
from sqlalchemy import text as sql_text
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlmodel import Session, SQLModel, create_engine

from comparator.compare.diffing import pairs_apart
from comparator.files.guarded import names_too_long
from comparator.store.migrations import MIGRATIONS, SCHEMA_VERSION
from comparator.store.packing import SCENARIO, digest, outcome_columns, pack, scenario_key
from comparator.store.schema import (
    NEWEST_AND_FIRST,
    VIEWS,
    DivergenceRow,
    EraRow,
    ExplorationRow,
    GenerationRow,
    Meta,
    RunRow,
    ScenarioRow,
    SourceFileRow,
    StoreError,
    check_keys,
    insert_ignore,
    new_batch,
    now,
    view_sql,
)
from comparator.text.encoding import ordered_digest, ordered_json
from versions import ALL_ERAS

DEFAULT_DB = "rulesdiff.db"


# -- connecting -----------------------------------------------------------------------------


def database_url(db: str | None) -> str:
    """`--db`, else RULESDIFF_DB, else ./rulesdiff.db; a plain path means SQLite."""
    value = db or os.environ.get("RULESDIFF_DB") or DEFAULT_DB
    if "://" in value:
        return value
    return f"sqlite:///{Path(value)}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # The wait first: turning WAL on waits, too, for a writer that holds the file.
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _shown(url: str) -> str:
    """A database URL for messages: never with its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "the database URL given"


def _sqlite_file(path: Path, create: bool) -> bool:
    """Whether the SQLite file `path` exists; StoreError, in one line naming it, where it
    can't be a database: a folder or a device, a name the system refuses (too long), a
    folder that is missing; and, to read (`create` false), a file that is missing."""
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:  # a name too long, a loop of links, a file in place of a folder
        raise StoreError(f"can't use database {path}: {exc.strerror or exc}") from None
    if info is None:
        if not create:
            raise StoreError(f"no database at {path} (build one with `rulesdiff dataset "
                             f"build`, or name it with --db)")
        folder = path.parent
        try:
            if not folder.is_dir():
                raise StoreError(f"can't use database {path}: no folder {folder}")
        except OSError as exc:
            raise StoreError(f"can't use database {path}: {exc.strerror or exc}") from None
        if names_too_long(path):  # the name itself may be one the system refuses
            raise StoreError(f"can't use database {path}: {os.strerror(errno.ENAMETOOLONG)}")
        return False
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{path} is not a database file")
    return True


# Engines opened with `later` whose store is not made yet (``prepare`` makes it).
_NOT_PREPARED: weakref.WeakSet[Engine] = weakref.WeakSet()


def prepared(engine: Engine) -> bool:
    """Whether the store `engine` names was made ready when it was opened (or since):
    not one that `open_engine(..., later=True)` found missing. Another process may make
    the file meanwhile, but only ``prepare`` waits for its tables."""
    return engine not in _NOT_PREPARED


def open_engine(db: str | None, create: bool = True, later: bool = False) -> Engine:
    """The database, made ready. `create`: make the file and tables if need be (commands
    that store); else (commands that only read) it must already be a rulesdiff database,
    and no file is ever made. `later`: a SQLite file that does not exist yet is not made
    now but by ``prepare``, once the caller has checked that it has something valid to
    write (a refused command leaves no file behind)."""
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
    exists = True
    if parsed.drivername.startswith("sqlite"):
        exists = _sqlite_file(Path(parsed.database or ""), create)
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
    if create and later and not exists:
        _NOT_PREPARED.add(engine)
        return engine  # made by `prepare`, when there is something to write
    if create:
        prepare(engine)
    else:
        _opening(engine, lambda: _check_readable(engine, shown))
    return engine


def prepare(engine: Engine) -> None:
    """Make the store ready to write: its file (SQLite) and tables made, or upgraded;
    StoreError in one line if it can't be."""
    shown = _shown(engine.url.render_as_string(hide_password=False))

    def work() -> None:
        try:
            _prepare(engine)
        except StoreError as exc:
            raise StoreError(f"{shown}: {exc}") from None

    _opening(engine, work)
    _NOT_PREPARED.discard(engine)


def _opening(engine: Engine, work: Any) -> None:
    """`work()`, the first use of the database: an error of the database (or of the file
    system under it) is a StoreError in one line."""
    shown = _shown(engine.url.render_as_string(hide_password=False))
    try:
        work()
    except (OperationalError, DatabaseError) as exc:
        why = str(getattr(exc, "orig", exc)).splitlines()[0]
        if engine.dialect.name == "sqlite" and not _writable_folder(engine):
            # SQLite's WAL needs its shared-memory file beside the database, even to read.
            why += " (its folder is read-only: SQLite must write beside the file)"
        raise StoreError(f"can't open database {shown}: {why}") from None
    except OSError as exc:
        raise StoreError(f"can't open database {shown}: {exc.strerror or exc}") from None


def _writable_folder(engine: Engine) -> bool:
    try:
        return os.access(Path(engine.url.database or ".").resolve().parent, os.W_OK)
    except OSError:
        return True  # nothing more to say of it


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
            with contextlib.suppress(OperationalError, DatabaseError, sqlite3.Error):
                raw.cursor().execute("VACUUM")
                raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
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


def store_eras(session: Session, eras: list[dict[str, Any]]) -> None:
    insert_ignore(session, EraRow, [{
        "id": e["id"], "name": e["name"], "aliases": ordered_json(e["aliases"]),
        "began": e["began"], "ended": e["ended"], "cr_modelled": e["cr"],
        "summary": e["summary"], "changes": ordered_json(e["changes"]),
        "sources": ordered_json(e["sources"]),
    } for e in eras])


ALL_ERA_IDS = tuple(e.id for e in ALL_ERAS)


def _era_rank(era: str) -> int:
    return ALL_ERA_IDS.index(era) if era in ALL_ERA_IDS else len(ALL_ERA_IDS)


# A value waiting to be packed: (the dictionary, its row, the column, the text).
Waiting = list[tuple[str, dict[str, Any], str, str]]


def _scenario_row(sc: dict[str, Any], text: str, waiting: Waiting | None = None
                  ) -> dict[str, Any]:
    """A scenario's row; its text packed now, or, given `waiting`, once it is packed."""
    content_hash = digest(text)
    row = {
        "scenario_key": scenario_key(content_hash), "content_hash": content_hash,
        "id": sc["id"], "title": sc["title"], "tags": ordered_json(sc.get("tags", [])),
        "sources": ordered_json(sc.get("sources", [])), "packed_json": None,
    }
    if waiting is None:
        row["packed_json"] = pack(text, SCENARIO)
    else:
        waiting.append((SCENARIO, row, "packed_json", text))
    return row


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
    `insert_rows` does, in the transaction that stores them. A result may bring its
    scenario's `ordered_json` as "scenario_text", where it was encoded already."""
    return merge_rows(each_result_rows(engine_version, results))


def each_result_rows(engine_version: str, results: list[dict[str, Any]]) -> list[Rows]:
    """``result_rows`` of each result apart, their values packed dictionary by dictionary
    once all are encoded: packing one value between runs of the engine finds the
    dictionary's tables out of the processor's caches, and took twice as long (90 against
    40 µs an outcome). The same bytes in any order."""
    waiting: Waiting = []
    out = [_rows_of(engine_version, r, waiting) for r in results]
    waiting.sort(key=lambda w: w[0])  # stable: each dictionary's values as they came
    for name, row, column, text in waiting:
        row[column] = pack(text, name)
    return out


def _rows_of(engine_version: str, r: dict[str, Any], waiting: Waiting) -> Rows:
    sc = r["scenario"]
    row = _scenario_row(sc, r.get("scenario_text") or ordered_json(sc), waiting)
    key = row["scenario_key"]
    runs: list[dict[str, Any]] = []
    divergences: list[dict[str, Any]] = []
    for era, outcome in r["outcomes"].items():
        run = {"scenario_key": key, "era": era, "engine_version": engine_version,
               "packed_outcome": None, **outcome_columns(outcome)}
        waiting.append((era, run, "packed_outcome", ordered_json(outcome)))
        runs.append(run)
    for d in r["divergences"]:
        # One row a pair, its eras in the registry's order.
        for a, b in pairs_apart(d, sorted(d["values"], key=_era_rank)):
            divergences.append({
                "scenario_key": key, "engine_version": engine_version,
                "era_a": a, "era_b": b, "path": d["path"],
                "value_a": ordered_json(d["values"][a]),
                "value_b": ordered_json(d["values"][b]),
            })
    return {"scenario": [row], "run": runs, "divergence": divergences, "source_file": []}


def merge_rows(parts: list[Rows]) -> Rows:
    out: Rows = {"scenario": [], "run": [], "divergence": [], "source_file": []}
    for part in parts:
        for table, rows in part.items():
            out[table] += rows
    return out


def _in_new_batch(session: Session, rows: list[dict[str, Any]]) -> int | None:
    """Name a new batch in these rows (they are stored in it); its number, or None for no
    rows."""
    if not rows:
        return None
    batch = new_batch(session)
    for row in rows:
        row["batch_id"] = batch
    return batch


def _forget_batch(session: Session, batch: int | None) -> None:
    """Drop a batch none of whose rows were new: nothing names it."""
    if batch is not None:
        session.execute(sql_text("DELETE FROM batch WHERE batch_id = :b"), {"b": batch})


def insert_rows(session: Session, rows: Rows) -> None:
    scenarios, runs, divergences = rows["scenario"], rows["run"], rows["divergence"]
    files = sorted(rows.get("source_file", []), key=lambda row: row["digest"])
    if not (scenarios or runs or divergences or files):
        return
    batch = _in_new_batch(session, scenarios + runs)
    # Scenarios and divergences in key order, so that concurrent writers of overlapping rows
    # take their locks in the same order (PostgreSQL finds deadlocks otherwise; `write`
    # retries those). Runs keep the files' order: the newest run of an id is the last.
    scenarios.sort(key=lambda row: row["scenario_key"])
    divergences.sort(key=lambda row: (row["scenario_key"], row["era_a"], row["era_b"],
                                      row["path"]))
    counts = [insert_ignore(session, ScenarioRow, scenarios)]
    check_keys(session, scenarios)
    counts.append(insert_ignore(session, RunRow, runs))
    if counts == [0, 0]:  # all stored before: the batch names nothing
        _forget_batch(session, batch)
    insert_ignore(session, DivergenceRow, divergences)
    insert_ignore(session, SourceFileRow, files)


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
    batch = _in_new_batch(session, scenarios)
    scenarios.sort(key=lambda row: row["scenario_key"])
    if insert_ignore(session, ScenarioRow, scenarios) == 0:
        _forget_batch(session, batch)
    check_keys(session, scenarios)
    insert_ignore(session, ExplorationRow, rows)


def store_generation(session: Session, manifest: dict[str, Any]) -> None:
    insert_ignore(session, GenerationRow, [{
        "generator": int(manifest["generator"]), "seed": int(manifest["seed"]),
        "count": int(manifest["count"]), "parameters_json": ordered_json(manifest["parameters"]),
        "parameters_hash": ordered_digest(manifest["parameters"]), "stored": now()}])


# -- reading --------------------------------------------------------------------------------


def latest_runs(session: Session) -> list[Any]:
    """The newest stored run of each scenario (by id) and era: what "latest" means
    everywhere (export, check, the latest_outcomes view); older versions stay stored.
    They come in the order each (scenario, era) was first stored, the order in which
    `dataset check` reports changes: rows of run_id, scenario_id, era, engine_version and
    scenario_key."""
    rows = session.execute(sql_text(
        f"SELECT r.run_id, s.id AS scenario_id, r.era, r.engine_version, r.scenario_key "
        f"FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key JOIN "
        f"({NEWEST_AND_FIRST}) k ON r.run_id = k.newest ORDER BY k.first_run")).all()
    return [LatestRun(r.run_id, r.scenario_id, r.era, r.engine_version, r.scenario_key)
            for r in rows]


@dataclass(frozen=True)
class LatestRun:
    run_id: int
    scenario_id: str
    era: str
    engine_version: str
    scenario_key: int
