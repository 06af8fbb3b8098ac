"""Run scenario files in every era and keep the results: the work behind `diff` and
`dataset build/generate/check/export`. Everything is computed before anything is written,
so bad input leaves the database untouched."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import Any

from comparator.compare.diffing import pairs_apart
from comparator.compare.running import (
    Result,
    choices_refused,
    illegal_choice,
    of_game,
    run_all,
    run_scenario,
    scenario_json,
)
from comparator.files.file_sets import read_manifest, regular_bytes
from comparator.scenarios.loader import MAX_BYTES, load, parse
from comparator.store.database import (
    Rows,
    each_result_rows,
    insert_rows,
    merge_rows,
    prepare,
    prepared,
    store_eras,
    store_explorations,
    store_results,
    write,
)
from comparator.store.packing import scenario_key
from comparator.store.reading import reader_for, stored_json
from comparator.text.encoding import hash_of, ordered_json
from versions import ALL_ERAS, ENGINE_VERSION


def check_files(paths: Sequence[Path], eras: list[str]) -> None:
    """Everything that could make a file unusable, found before anything is written: the
    format, the cross-checks, and each era's verdict on the written choices (ScenarioError).
    A game whose rules check the choices before anything runs (Magic's blocks) is asked;
    one whose eras refuse a choice only as they come to it (Duel Masters' redirections)
    runs the file in its eras, so that no file is refused halfway through a build, after
    batches before it are stored."""
    from comparator.games.registry import game_of

    for path in paths:
        scenario = load(path)
        if game_of(scenario).choices_refused is None:
            run_all(scenario, eras, str(path), refused={})  # what no era refuses: kept
            continue
        illegal = choices_refused(scenario, eras)
        if illegal:
            raise illegal_choice(illegal, str(path))


def to_explore(scenario: Any, eras: list[str]) -> bool:
    """Whether `dataset build --explore` explores the scenario: not where every era of its
    game refuses it as its `expect` says (nothing to play with its written blocks)."""
    from comparator.compare.running import expected_refusals

    return not set(of_game(scenario, eras)) <= set(expected_refusals(scenario))


def check_exploring(paths: Sequence[Path], eras: list[str]) -> None:
    """What would refuse a file's exploration before any search (ExploreError): players the
    explorer can't take, written choices an era refuses. Found before the first batch is
    stored, as every other check: a refused build stores nothing."""
    from comparator.explore.files import check_explorable

    for path in paths:
        scenario = load(path)
        if to_explore(scenario, eras):
            check_explorable(path, scenario, eras)


def check_some(job: tuple[list[str], list[str], str | None], explore: bool = False) -> int:
    """Check a chunk of files; a file this engine version has stored from the same bytes
    (read with the same card library) was checked then, and is not read again. No `url`:
    there is no store yet, and every file is checked. With `explore`, what would refuse
    each file's exploration is checked too, stored or not (each is explored)."""
    names, eras, url = job
    digests = {name: source_digest(name) for name in names}
    known = {} if url is None else _stored_files(
        reader_for(url), [d for d in digests.values() if d is not None])
    check_files([Path(n) for n in names if digests[n] not in known], eras)
    if explore:
        check_exploring([Path(n) for n in names], eras)
    return len(names)


@lru_cache(maxsize=1)
def _reading_context() -> bytes:
    """What reading a file depends on besides its bytes: this engine version and the card
    library (the shipped one and the user's), digested."""
    import os

    from comparator.files.locations import cards_file

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
            for d, h, refused in conn.execute(query, {"ds": part}):
                files[bytes(d)] = (bytes(h).hex(), _refused_eras(refused, bytes(d)))
        ran, pairs = _stored_versions(conn, sorted({h for h, _ in files.values()}))
    return {d: _stored_summary(h, refused, ran, pairs) for d, (h, refused) in files.items()}


def _refused_eras(text: str, digest: bytes) -> list[str]:
    """A stored file's refused eras; a damaged row is a DatasetError naming it."""
    try:
        eras = stored_json(text, "source_file", digest.hex()[:12])
        if not (isinstance(eras, list) and all(isinstance(e, str) for e in eras)):
            raise ValueError(f"table source_file, row {digest.hex()[:12]}: refused is not "
                             f"a list of eras")
    except ValueError as exc:
        raise DatasetError(f"can't read the stored data ({exc}); the database is damaged "
                           f"or was not written by this rulesdiff") from None
    return eras


@dataclass
class Ran:
    """One file run in every era, as a worker hands it back: the rows that store it,
    encoded, and its share of the summary (never the objects themselves, which would cost
    the writing process their unpickling). A file already stored by this engine version
    is not run again: no rows, and its share of the summary read from the store."""

    file: str
    rows: Rows
    summary: Summary






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
          checking: Callable[[int], None] | None = None,
          explore: bool = False) -> Iterable[list[Ran]]:
    """Run every file and store the results batch by batch, each batch in one transaction,
    so memory stays flat however many files there are and a killed build leaves whole
    batches (a rerun stores only what is missing: writes are idempotent). Every file is
    checked first, so bad input writes nothing: a SQLite file that does not exist yet is
    made only once every file has passed (``open_engine(..., later=True)``); with
    `explore`, that includes what would refuse a file's exploration before its search
    (``check_exploring``). With `jobs` > 1 the checks and the runs use that many processes;
    the parent alone writes. Yields each stored batch (for summaries), then forgets it."""
    from functools import partial

    pool = None
    url = engine.url.render_as_string(hide_password=False)
    fresh = not prepared(engine)  # no store yet, nothing to skip: every file checked
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
            known = None if fresh else url
            # A generated folder's verified files (left out above) are two-player boards
            # whose blocks every era takes: nothing in them refuses an exploration either.
            check = partial(check_some, explore=explore)
            if pool is None:
                checked = [check((names, eras, known))]
            else:
                size = max(1, len(names) // (jobs * 4))
                checked = list(pool.map(check, [(names[i:i + size], eras, known)
                                                 for i in range(0, len(names), size)]))
            if checking:
                checking(sum(checked))
        if fresh:
            prepare(engine)  # every file passed: the store is made now
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
    from comparator.store.database import store_generation

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


def generation_count(out: Path, seed: int, count: int, generator: int,
                     multiplayer_share: float = 0.0) -> int:
    """How many scenarios `dataset generate` writes into `out`: `count`, or the count
    already there if `out` is a generated folder of the same seed, generator and share of
    multiplayer boards holding more, since generating into it again resumes it (or
    extends it). A folder of other scenarios is refused (DatasetError), so nothing written
    by hand is mixed in."""
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
    share = (before.get("parameters") or {}).get("multiplayer_share", 0.0)
    if share != multiplayer_share:
        raise DatasetError(f"{out}: holds scenarios drawn with --multiplayer {share}; "
                           f"generate into a new folder")
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


















# -- export: streamed, so memory stays flat whatever the size of the dataset ----------------





















