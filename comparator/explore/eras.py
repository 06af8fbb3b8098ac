"""The `explore` command's work: one scenario explored in each era of its game, by that
game's explorer, as the contract's JSON (docs/contract/explore.md §6.4): every era's
outcomes, which outcomes only one era reaches, and whether the eras diverge."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from comparator.games.exploration import (
    BLOCKS,
    DEFAULT_LIMIT,
    FIELDS,
    OBJECTIVES,
    TooLarge,
    Unsupported,
    era_result,
)
from comparator.text.encoding import sorted_json

__all__ = ["BLOCKS", "FIELDS", "OBJECTIVES", "TooLarge", "Unsupported", "explore"]


def explore(scenario: Any, eras: list[str], objective: str = "material",
            fields: str = "end-of-turn", blocks: str = "fixed", limit: int = DEFAULT_LIMIT,
            progress: Callable[[str, int], None] | None = None,
            jobs: int = 1) -> dict[str, Any]:
    """The explore JSON (contract §6.4) of `scenario` in `eras`; with `jobs` > 1, the eras
    are searched at once in that many processes (each era's search is its own)."""
    from comparator.compare.running import of_game

    results: dict[str, dict[str, Any]] = {}
    refused: dict[str, str] = {}  # eras whose rules did not have what the scenario uses
    mine = of_game(scenario, eras)  # another game's eras have nothing to say
    jobs = min(jobs, len(mine))
    if jobs > 1:
        found = _in_parallel(scenario, mine, (objective, fields, blocks, limit), jobs,
                             progress)
    else:
        found = [("again", None)] * len(mine)
    for era, (how, what) in zip(mine, found, strict=True):
        if how == "stopped":  # a search before it was refused as too large: said below
            continue
        if how == "too-large":
            raise TooLarge(*what)
        if how == "again":  # here, one at a time, with progress, raising what it raises
            report = (lambda n, e=era: progress(e, n)) if progress else None
            if progress is not None:
                progress(era, 0)  # begun: a long search is named before its first count
            how, what = _search(scenario, era, objective, fields, blocks, limit, report)
            if progress is not None and how == "found":
                progress(era, what["lines"])  # every line, merged ones too, as elsewhere
        if how == "refused":
            refused[era] = what
        else:
            results[era] = what
    eras = [e for e in eras if e in results]
    keysets = {e: {r["_key"] for r in res["outcomes"]} for e, res in results.items()}
    only_in = {
        e: [i for i, r in enumerate(res["outcomes"])
            if not any(r["_key"] in keysets[o] for o in eras if o != e)]
        for e, res in results.items()
    }
    values = {e: (sorted_json(res["value"]) if res["value"] is None else
                  sorted_json({"score": res["value"]["score"], "state": res["value"]["state"]}))
              for e, res in results.items()}
    diverges = len({frozenset(k) for k in keysets.values()}) > 1 or len(set(values.values())) > 1
    for res in results.values():
        for r in res["outcomes"]:
            del r["_key"]
    doc = {
        "schema": 1, "scenario": scenario.id, "objective": objective, "fields": fields,
        "blocks": blocks, "eras": results, "only_in": only_in, "diverges": diverges,
    }
    if refused:
        doc["refused"] = refused  # for the command to say on stderr; not in the JSON it prints
    return doc


def _in_parallel(scenario: Any, eras: list[str], how: tuple[str, str, str, int],
                 jobs: int, progress: Callable[[str, int], None] | None = None
                 ) -> list[tuple[str, Any]]:
    """Each era's search in a worker process, as ("found" | "refused" | "too-large" |
    "again", what). A search refused as too large stops all the others: the workers are
    ended at once, whatever they were searching, and the command refuses that era (any
    era too large refuses the command; waiting for the eras before it in order to tell
    which is first would cost the whole search of the slowest). The eras stopped so are
    ("stopped", None). The newest eras are handed out first: their searches refuse a
    board too large soonest (bounded from below, ``LineBound``), where the oldest count
    their lines one by one.
    `progress` hears of each era twice, here: when it is handed to the workers (0 lines)
    and when its search is done (all its lines); a worker does not report as it goes."""
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    found: list[tuple[str, Any]] = [("stopped", None)] * len(eras)
    pool = ProcessPoolExecutor(max_workers=jobs)
    ended = False  # the workers ended, the searches left in them stopped
    try:
        futures: dict[Future[tuple[str, Any]], int] = {
            pool.submit(_explore_era, (scenario, eras[i], *how)): i
            for i in reversed(range(len(eras)))}
        if progress is not None:
            for era in eras:
                progress(era, 0)
        first_too_large = len(eras)
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i = futures[future]
                try:
                    found[i] = future.result()
                except BrokenProcessPool:  # a worker died (out of memory, killed): here
                    found[i] = ("again", None)
                if found[i][0] == "too-large":
                    first_too_large = min(first_too_large, i)
                elif found[i][0] == "found" and progress is not None:
                    progress(eras[i], found[i][1]["lines"])
            if first_too_large < len(eras):
                if pending:
                    _end_workers(pool)  # the futures left end as the pool breaks
                    ended = True
                pending = set()
        return found
    finally:
        # Never cancelled here: a cancelled future the broken pool then fails is an error
        # in the pool's own thread (Python 3.11).
        pool.shutdown(wait=True, cancel_futures=not ended)


def _end_workers(pool: Any) -> None:
    """End a pool's worker processes now: the searches they run are not waited for."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)


def _search(scenario: Any, era: str, objective: str, fields: str, blocks: str, limit: int,
            report: Callable[[int], None] | None = None) -> tuple[str, Any]:
    """One era's search: ("found", its result) or ("refused", why its rules can't run
    the scenario)."""
    from comparator.games.registry import game_of
    from versions import NotInEra

    explorer = game_of(scenario).explorer(scenario, era, objective, fields, blocks, limit,
                                          progress=report)
    try:
        with _fewer_collections():
            return "found", era_result(explorer, explorer.run())
    except NotInEra as refusal:
        return "refused", refusal.why


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """A search allocates hundreds of thousands of small objects that it keeps (state keys,
    memoised results), and the cyclic collector, run every 700 allocations by default,
    scans them again and again. Run 300 times less often (the older generations as often
    as before, relative to it: the copies a search drops do form some cycles), the search
    takes a fifth less time (benchmarks/explore_bench.py)."""
    before = gc.get_threshold()
    gc.set_threshold(200_000, 10, 10)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _explore_era(job: tuple[Any, str, str, str, str, int]) -> tuple[str, Any]:
    """One era's search in a worker process. A search that fails (too large, a refused
    choice) is searched again in the calling process, which raises its error as such:
    exceptions with their own fields don't always survive the trip between processes."""
    try:
        return _search(*job)
    except TooLarge as big:  # said as it is, not searched twice
        return "too-large", (big.era, big.reached, big.limit, big.how)
    except Exception:
        return "again", None
