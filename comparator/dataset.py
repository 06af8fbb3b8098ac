"""Run scenario files in every era and keep the results: the work behind `diff` and
`dataset build/generate/check/export`. Everything is computed before anything is written,
so bad input leaves the database untouched."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from comparator.diffing import pairs_apart
from comparator.encoding import hash_of, ordered_json
from comparator.file_sets import read_manifest, regular_bytes
from comparator.loader import MAX_BYTES, ScenarioError, load, model_for, parse
from comparator.packing import SCENARIO, PackingError, digest, scenario_key, unpack
from comparator.running import (
    Result,
    choices_refused,
    illegal_choice,
    of_game,
    run_all,
    run_scenario,
    scenario_json,
)
from comparator.store import (
    Rows,
    each_result_rows,
    insert_rows,
    merge_rows,
    store_eras,
    store_explorations,
    store_results,
    write,
)
from comparator.store_schema import NEWEST, NEWEST_AND_FIRST
from versions import ALL_ERAS, ENGINE_VERSION


def stored_json(text: str | None, table: str, row: object) -> Any:
    """A JSON column of a stored row; a damaged one is an error naming the table and row."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"table {table}, row {row}: the stored JSON is damaged "
                         f"({exc})") from None


def check_files(paths: Sequence[Path], eras: list[str]) -> None:
    """Everything that could make a file unusable, found before anything is written: the
    format, the cross-checks, and each era's verdict on the written choices (Magic's
    blocks) (ScenarioError)."""
    for path in paths:
        illegal = choices_refused(load(path), eras)
        if illegal:
            raise illegal_choice(illegal, str(path))


def check_some(job: tuple[list[str], list[str], str]) -> int:
    """Check a chunk of files; a file this engine version has stored from the same bytes
    (read with the same card library) was checked then, and is not read again."""
    names, eras, url = job
    digests = {name: source_digest(name) for name in names}
    known = _stored_files(reader_for(url), [d for d in digests.values() if d is not None])
    check_files([Path(n) for n in names if digests[n] not in known], eras)
    return len(names)


@lru_cache(maxsize=1)
def _reading_context() -> bytes:
    """What reading a file depends on besides its bytes: this engine version and the card
    library (the shipped one and the user's), digested."""
    import os

    from comparator.data_files import cards_file

    h = hashlib.sha256(f"rulesdiff {ENGINE_VERSION}\0".encode())
    user = os.environ.get("RULESDIFF_CARDS")
    for library in (cards_file(), Path(user) if user else None):
        if library is not None:
            data = regular_bytes(library)
            h.update(b"unreadable" if data is None else data)
        h.update(b"\0")
    return h.digest()


def source_digest(path: str) -> bytes | None:
    """The digest of a scenario file's bytes in its reading context, or None if it can't
    be read here (then it is read the usual way, which says what is wrong)."""
    return _digest_of_read(regular_bytes(path, MAX_BYTES))


def _digest_of_read(data: bytes | None) -> bytes | None:
    """``source_digest`` of what `regular_bytes` read (None: read the usual way)."""
    return None if data is None or len(data) > MAX_BYTES else digest_of(data)


def digest_of(data: bytes) -> bytes:
    """The digest of a scenario file's bytes in its reading context (``source_digest``)."""
    return hashlib.sha256(_reading_context() + data).digest()


QUERY_CHUNK = 500  # keys per IN (...) list: far below every driver's parameter limit


def _chunks(keys: list[Any]) -> Iterator[list[Any]]:
    for i in range(0, len(keys), QUERY_CHUNK):
        yield keys[i:i + QUERY_CHUNK]


def _stored_versions(conn: Any, hashes: list[str]
                     ) -> tuple[dict[str, set[str]], dict[str, set[tuple[str, str]]]]:
    """Of these scenario versions, the eras this engine version ran each in, and the era
    pairs it diverges on."""
    from sqlalchemy import bindparam, text

    ran: dict[str, set[str]] = {}
    pairs: dict[str, set[tuple[str, str]]] = {}
    hash_of_key = {scenario_key(h): h for h in hashes}
    runs = text("SELECT scenario_key, era FROM run WHERE engine_version = :v AND "
                "scenario_key IN :ks").bindparams(bindparam("ks", expanding=True))
    divs = text("SELECT DISTINCT scenario_key, era_a, era_b FROM divergence WHERE "
                "engine_version = :v AND scenario_key IN :ks").bindparams(
                    bindparam("ks", expanding=True))
    for part in _chunks(sorted(hash_of_key)):
        for key, era in conn.execute(runs, {"v": ENGINE_VERSION, "ks": part}):
            ran.setdefault(hash_of_key[key], set()).add(era)
        for key, a, b in conn.execute(divs, {"v": ENGINE_VERSION, "ks": part}):
            pairs.setdefault(hash_of_key[key], set()).add((a, b))
    return ran, pairs


def _stored_summary(scenario_hash: str, refused: list[str], ran: dict[str, set[str]],
                    pairs: dict[str, set[tuple[str, str]]]) -> Summary:
    summary = Summary(scenarios=1, runs=len(ran.get(scenario_hash, ())),
                      diverging=int(scenario_hash in pairs), stored_before=1)
    summary.refused.update(refused)
    summary.pairs.update(pairs.get(scenario_hash, ()))
    return summary


def _stored_files(engine: Any, digests: list[bytes]) -> dict[bytes, Summary]:
    """Of these file digests, those this engine version stored, each with its part of the
    summary read back from the store. A file's row is written in the transaction that
    stores its runs, so it is trusted as it is: even a file every era refused, which has
    none."""
    from sqlalchemy import bindparam, text

    if not digests:
        return {}
    files: dict[bytes, tuple[str, list[str]]] = {}
    query = text("SELECT f.digest, s.content_hash, f.refused FROM source_file f JOIN "
                 "scenario s ON s.scenario_key = f.scenario_key WHERE f.digest IN :ds"
                 ).bindparams(bindparam("ds", expanding=True))
    with engine.connect() as conn:
        for part in _chunks(digests):
            files.update({bytes(d): (bytes(h).hex(), json.loads(refused))
                          for d, h, refused in conn.execute(query, {"ds": part})})
        ran, pairs = _stored_versions(conn, sorted({h for h, _ in files.values()}))
    return {d: _stored_summary(h, refused, ran, pairs) for d, (h, refused) in files.items()}


@dataclass
class Ran:
    """One file run in every era, as a worker hands it back: the rows that store it,
    encoded, and its share of the summary (never the objects themselves, which would cost
    the writing process their unpickling). A file already stored by this engine version
    is not run again: no rows, and its share of the summary read from the store."""

    file: str
    rows: Rows
    summary: Summary


# Each process's own reading engine for the store, opened once. Plain reads: never the
# writer's BEGIN IMMEDIATE, so a worker reading never waits for the batch being written
# (SQLite's WAL lets readers and the writer go on together).
_READERS: dict[str, Any] = {}


def reader_for(url: str) -> Any:
    if url not in _READERS:
        from sqlalchemy import create_engine

        _READERS[url] = create_engine(url)
    return _READERS[url]


def _run_some(job: tuple[list[str], list[str], str]) -> list[Ran]:
    """Run a chunk of files in every era, but those this engine version stored already:
    from the same bytes (not even parsed), or the same scenario version from other bytes
    (parsed, not run); their part of the summary is read back from the store instead."""
    names, eras, url = job
    # Each file read once: its bytes give its digest, then its scenario.
    data = {name: regular_bytes(name, MAX_BYTES) for name in names}
    digests = {name: _digest_of_read(b) for name, b in data.items()}

    def read(name: str) -> Any:
        b = data.pop(name)
        try:
            text = b.decode("utf-8") if b is not None and digests[name] is not None else None
        except UnicodeDecodeError:
            text = None
        # As `load` reads it; else the usual way, which says what is wrong.
        return load(Path(name)) if text is None else parse(text, str(Path(name)))

    return run_once(names, digests, read, eras, reader_for(url))


def run_once(names: list[str], digests: dict[str, bytes | None], read: Callable[[str], Any],
             eras: list[str], reader: Any) -> list[Ran]:
    """`_run_some`'s work, wherever the files come from: `digests` are their digests
    (``source_digest``), `read(name)` gives one parsed (a file here, a text a cluster
    worker was sent)."""
    known = _stored_files(reader, [d for d in digests.values() if d is not None])
    # A file named twice (a folder and a file in it) is read once.
    unknown = {name: read(name) for name in dict.fromkeys(names)
               if digests[name] not in known}
    # The scenario as stored, encoded once: its hash, then its row.
    stored = {name: scenario_json(s) for name, s in unknown.items()}
    texts = {name: ordered_json(sc) for name, sc in stored.items()}
    hashes = {name: hash_of(text) for name, text in texts.items()}
    with reader.connect() as conn:
        ran, pairs = _stored_versions(conn, sorted(set(hashes.values())))
    out: list[Ran] = []
    fresh: list[tuple[Rows, dict[str, Any]]] = []  # rows still to encode, and their result
    for name in names:
        digest = digests[name]
        if digest in known:
            out.append(Ran(name, EMPTY_ROWS, known[digest]))
            continue
        scenario, h = unknown[name], hashes[name]
        rows: Rows = {**EMPTY_ROWS, "source_file": []}
        if h in ran:  # the same version, stored from other bytes: remember these too
            refused = [e for e in of_game(scenario, eras) if e not in ran[h]]
            summary = _stored_summary(h, refused, ran, pairs)
        else:
            result = run_scenario(scenario, name, eras)
            summary = summarise([result], eras)
            fresh.append((rows, {**result.record(stored[name]), "scenario_text": texts[name]}))
            refused = [e for e in eras if e in summary.refused]  # in the eras' order
        if digest is not None:
            rows["source_file"] = [{"digest": digest, "scenario_key": scenario_key(h),
                                    "refused": json.dumps(refused)}]
        out.append(Ran(name, rows, summary))
    # Encoded once all have run, so that packing goes dictionary by dictionary.
    encoded = each_result_rows(ENGINE_VERSION, [result for _, result in fresh])
    for (rows, _), mine in zip(fresh, encoded, strict=True):
        rows.update({table: mine[table] for table in ("scenario", "run", "divergence")})
    return out


def store_ran(engine: Any, ran: list[Ran]) -> Summary:
    """Store what `run_once` gave in one transaction; its summary."""
    _store(engine, ran, None)
    total = Summary()
    for r in ran:
        total.add(r.summary)
    return total


EMPTY_ROWS: Rows = {"scenario": [], "run": [], "divergence": [], "source_file": []}


def build(engine: Any, paths: Sequence[Path], eras: list[str], jobs: int = 1,
          batch: int = 500, progress: Callable[[int], None] | None = None,
          checking: Callable[[int], None] | None = None) -> Iterable[list[Ran]]:
    """Run every file and store the results batch by batch, each batch in one transaction,
    so memory stays flat however many files there are and a killed build leaves whole
    batches (a rerun stores only what is missing: writes are idempotent). Every file is
    checked first, so bad input writes nothing. With `jobs` > 1 the checks and the runs
    use that many processes; the parent alone writes. Yields each stored batch (for
    summaries), then forgets it."""
    pool = None
    url = engine.url.render_as_string(hide_password=False)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        verified = getattr(paths, "verified", lambda i: False)
        for start in range(0, len(paths), batch):
            stop = min(start + batch, len(paths))
            names = [str(paths[i]) for i in range(start, stop) if not verified(i)]
            if checking and len(names) < stop - start:
                checking(stop - start - len(names))  # verified by their bytes already
            if not names:
                continue
            if pool is None:
                checked = [check_some((names, eras, url))]
            else:
                size = max(1, len(names) // (jobs * 4))
                checked = list(pool.map(check_some, [(names[i:i + size], eras, url)
                                                      for i in range(0, len(names), size)]))
            if checking:
                checking(sum(checked))
        # With workers, the next batch runs while this one is stored: two in flight at most.
        waiting: deque[Iterator[Ran]] = deque()
        for start in range(0, len(paths), batch):
            names = [str(p) for p in paths[start:start + batch]]
            if pool is None:
                waiting.append(iter(_run_some((names, eras, url))))
            else:
                size = max(1, len(names) // (jobs * 4))
                waiting.append(chain.from_iterable(pool.map(
                    _run_some, [(names[i:i + size], eras, url)
                                for i in range(0, len(names), size)])))
            if len(waiting) == (2 if pool is not None else 1):
                yield _store(engine, list(waiting.popleft()), progress)
        while waiting:
            yield _store(engine, list(waiting.popleft()), progress)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def _with_eras(engine: Any, work: Callable[[Any], None]) -> None:
    """`work(session)` in one transaction, with the eras' rows its rows refer to."""
    eras = [e.metadata() for e in ALL_ERAS]

    def both(session: Any) -> None:
        store_eras(session, eras)
        work(session)

    write(engine, both)


def _store(engine: Any, ran: list[Ran], progress: Callable[[int], None] | None) -> list[Ran]:
    rows = merge_rows([r.rows for r in ran])
    _with_eras(engine, lambda session: insert_rows(session, rows))
    if progress:
        progress(len(ran))
    return ran


def save_generation(engine: Any, manifest: dict[str, Any]) -> None:
    from comparator.store import store_generation

    write(engine, lambda session: store_generation(session, manifest))


def save(engine: Any, results: list[Result]) -> None:
    """Store everything in one transaction."""
    records = [r.record() for r in results]
    _with_eras(engine, lambda session: store_results(session, ENGINE_VERSION, records))


def save_explorations(engine: Any, items: list[tuple[Any, dict[str, Any]]]) -> None:
    """Store explorations in one transaction."""
    records = [(scenario_json(s), doc) for s, doc in items]
    _with_eras(engine, lambda session: store_explorations(session, ENGINE_VERSION, records))


@dataclass
class Summary:
    """What a build reports, added up batch by batch so that no result is kept."""

    scenarios: int = 0
    diverging: int = 0
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)  # diverging per pair
    runs: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # era -> scenarios it can't run
    stored_before: int = 0  # of `scenarios`, those this engine version had stored already

    @property
    def new(self) -> int:
        """Scenarios run and stored now."""
        return self.scenarios - self.stored_before

    def add(self, other: Summary) -> None:
        self.stored_before += other.stored_before
        self.scenarios += other.scenarios
        self.diverging += other.diverging
        self.runs += other.runs
        self.refused.update(other.refused)
        self.pairs.update(other.pairs)


class DatasetError(Exception):
    """A dataset command that can't go on: a folder it can't generate into, a write the
    database refused. One line for the user."""


def write_failed(exc: Exception) -> str:
    """A write the database refused (an SQLAlchemyError), as one line for the user."""
    return f"can't write the database: {getattr(exc, 'orig', exc)}"


def generation_count(out: Path, seed: int, count: int, generator: int) -> int:
    """How many scenarios `dataset generate` writes into `out`: `count`, or the count
    already there if `out` is a generated folder of the same seed and generator holding
    more, since generating into it again resumes it (or extends it). A folder of other
    scenarios is refused (DatasetError), so nothing written by hand is mixed in."""
    if out.exists() and not out.is_dir():
        raise DatasetError(f"{out}: not a folder")
    if out.is_dir() and any(out.glob("*.yaml")):
        raise DatasetError(f"{out}: holds scenario files already; generate into a new folder")
    try:
        before = read_manifest(out) if out.is_dir() else None
    except ValueError as exc:
        raise DatasetError(str(exc)) from None
    if before is None:
        return count
    if (before["seed"], before["generator"]) != (seed, generator):
        raise DatasetError(f"{out}: holds scenarios of seed {before['seed']} (generator "
                           f"{before['generator']}); generate into a new folder")
    return max(count, int(before["count"]))


def summarise(results: list[Result], eras: list[str]) -> Summary:
    """The summary of fresh results. A pair of eras diverges where a divergence row says
    so (a field with different values), so that a rebuild, which reads the rows back,
    reports the same."""
    out = Summary(scenarios=len(results))
    for r in results:
        out.diverging += bool(r.divergences)
        out.runs += len(r.outcomes)
        out.refused.update(r.refused.keys())  # counted by era, not by reason
        ran = [e for e in eras if e in r.outcomes]
        out.pairs.update({pair for d in r.divergences for pair in pairs_apart(d, ran)})
    return out


@dataclass
class Change:
    scenario: str
    era: str
    path: str
    stored: Any
    now: Any


def _check_rows(engine: Any) -> Iterator[Any]:
    """The newest run of each (scenario, era) with its scenario's canonical JSON, in the
    order each was first stored, streamed."""
    return _streamed(engine, (
        f"SELECT r.run_id, s.id AS scenario_id, r.era, r.packed_outcome, s.content_hash, "
        f"s.packed_json FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key "
        f"JOIN ({NEWEST_AND_FIRST}) k ON r.run_id = k.newest ORDER BY k.first_run"))


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


def check(engine: Any) -> tuple[int, list[Change]]:
    """Re-run every stored scenario version with this engine; what changed per field.
    The runs are streamed from the store, so memory stays flat whatever its size (only
    the changes are kept)."""
    from deepdiff import DeepDiff

    from comparator.diffing import state_path

    changes: list[Change] = []
    checked = 0
    parsed: tuple[bytes, Any] | None = None  # the last scenario read: its eras come together
    for run in _check_rows(engine):
        checked += 1
        content_hash = bytes(run.content_hash)
        shown = content_hash.hex()[:12]
        try:
            if parsed is None or parsed[0] != content_hash:
                raw = stored_json(stored_text(run.packed_json, SCENARIO, "scenario", shown),
                                  "scenario", shown)
                parsed = (content_hash, model_for(raw).model_validate(raw))
            now = run_all(parsed[1], [run.era])[run.era]
        except (ValidationError, ScenarioError) as exc:
            raise ValueError(f"table scenario, row {shown}: not a scenario "
                             f"this rulesdiff can run ({str(exc).splitlines()[0]})") from None
        stored = stored_outcome(run)
        if now == stored:
            continue
        diff = DeepDiff(stored, now, view="tree", verbose_level=2)
        for report in diff.values():
            for item in report:
                path = item.path(output_format="list")
                changes.append(Change(run.scenario_id, run.era, state_path(path),
                                      _value(item.t1), _value(item.t2)))
    return checked, changes


def _value(v: Any) -> Any:
    from deepdiff.helper import NotPresent

    return None if isinstance(v, NotPresent) else v


# -- export: streamed, so memory stays flat whatever the size of the dataset ----------------

EXPORT_BATCH = 2_000  # rows fetched and written at a time


def _binary(dialect: str) -> str:
    return ' COLLATE "C"' if dialect == "postgresql" else " COLLATE BINARY"


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
