"""`dataset build --scheduler`: the build on a Dask distributed cluster (the `cluster`
extra). The files are read and checked here, so bad input writes nothing; each batch's
texts go to a worker, which runs them and stores them itself in the shared database, in
one transaction, and sends back only a summary. Workers need rulesdiff installed and must
reach the database; they need no copy of the scenario files."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from comparator.dataset.runs import Summary, check_some

# How many batches may wait per worker thread: enough to keep every worker busy, few
# enough that the texts in flight stay a small, fixed amount of memory.
IN_FLIGHT_PER_THREAD = 2
CHECK_CHUNK = 500  # files checked at a time before the first batch is sent


class ClusterError(Exception):
    """The cluster can't be used: no scheduler at the address, no workers, a worker that
    failed. One line for the user."""


_engines: dict[str, Any] = {}


def run_and_store(items: list[tuple[str, str, bytes | None]], eras: list[str],
                  url: str) -> Summary:
    """On a worker: run (file name, text, digest) triples in every era and store them in
    one transaction; a file this engine version stored from the same bytes, or its
    scenario version, is not run again (as on one machine). The engine is kept per worker
    process, so each opens the database once."""
    from comparator.dataset.runs import run_once, store_ran
    from comparator.scenarios.loader import parse
    from comparator.store.database import open_engine
    from comparator.store.reading import reader_for

    engine = _engines.get(url)
    if engine is None:
        engine = _engines[url] = open_engine(url)
    texts = {name: text for name, text, _ in items}
    ran = run_once(list(texts), {name: digest for name, _, digest in items},
                   lambda name: parse(texts[name], name), eras, reader_for(url))
    return store_ran(engine, ran)


def _batches(paths: list[Path], size: int) -> Iterator[list[tuple[str, str, bytes | None]]]:
    from comparator.dataset.runs import digest_of
    from comparator.scenarios.loader import read_scenario_text

    for start in range(0, len(paths), size):
        texts = [(str(p), read_scenario_text(p)) for p in paths[start:start + size]]
        # The text is the file's bytes read as UTF-8, which encodes back to the same bytes:
        # the digest of a file read once.
        yield [(name, text, digest_of(text.encode())) for name, text in texts]


def build_on_cluster(engine: Any, paths: list[Path], eras: list[str], address: str,
                     batch: int = 500) -> Iterator[Summary]:
    """Check every file, then run the batches on the cluster at `address`; yields each
    stored batch's summary as it completes."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ClusterError("--scheduler needs Dask distributed: pip install "
                           "'rulesdiff[cluster]'") from None
    url = engine.url.render_as_string(hide_password=False)
    for start in range(0, len(paths), CHECK_CHUNK):  # a file stored from its bytes: checked
        check_some(([str(p) for p in paths[start:start + CHECK_CHUNK]], eras, url))
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"no Dask scheduler answers at {address} ({exc})") from None
    try:
        threads = sum(client.nthreads().values())
        if not threads:
            raise ClusterError(f"the Dask scheduler at {address} has no workers")
        batches = _batches(paths, batch)
        waiting = as_completed()
        for _ in range(threads * IN_FLIGHT_PER_THREAD):
            items = next(batches, None)
            if items is None:
                break
            waiting.add(client.submit(run_and_store, items, eras, url, pure=False))
        for future in waiting:
            try:
                summary = future.result()
            except Exception as exc:  # a worker's failure, raised here with its message
                raise ClusterError(f"a worker failed: {type(exc).__name__}: "
                                   f"{str(exc).splitlines()[0] if str(exc) else ''}") from None
            future.release()
            items = next(batches, None)
            if items is not None:
                waiting.add(client.submit(run_and_store, items, eras, url, pure=False))
            yield summary
    finally:
        client.close()
