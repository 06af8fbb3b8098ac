"""`dataset build` as a whole: run and store the files here or on a Dask cluster, explore
them too if asked, and record how generated folders were made. Above both the local build
(``comparator.dataset``) and the cluster's (``comparator.dataset.cluster``), which each know only
their own way of running."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from comparator.compare.running import era_ids, era_place
from comparator.dataset.runs import (
    DatasetError,
    Summary,
    build,
    save_explorations,
    save_generation,
    to_explore,
    write_failed,
)
from comparator.explore.files import Searching, TooLargeError, explore_file
from comparator.files.file_sets import Generated, read_manifest, verify_generated
from comparator.games.exploration import DEFAULT_LIMIT
from comparator.scenarios.loader import load


@dataclass
class Built:
    """What `dataset build` reports."""

    summary: Summary
    # With --explore: scenarios explored, diverging, and those too large to explore.
    explored: dict[str, Any] | None
    generated: list[dict[str, int]]  # each generated folder built: seed, count, generator

    def pairs(self) -> list[tuple[tuple[str, str], int]]:
        """Each diverging pair of eras with its count, in the order of history (each
        game's oldest era first, then the other by date), as a reader follows the rules'
        changes: not "fifth vs foundations" before "alpha vs fifth"."""
        return sorted(self.summary.pairs.items(),
                      key=lambda kv: (era_place(kv[0][0]), era_place(kv[0][1])))

    def document(self) -> dict[str, Any]:
        """The `dataset build --json` document."""
        total = self.summary
        doc: dict[str, Any] = {
            "scenarios": total.scenarios, "new": total.new,
            "stored_before": total.stored_before, "runs": total.runs,
            "diverging": total.diverging,
            "pairs": [{"era_a": a, "era_b": b, "diverging": n}
                      for (a, b), n in self.pairs()]}
        if self.explored is not None:
            explored = {k: v for k, v in self.explored.items() if k != "too_large"}
            if self.explored.get("too_large"):  # only where some were: the shape as before
                explored["too_large"] = self.explored["too_large"]
            doc["explored"] = explored
        if self.generated:
            doc["generated"] = self.generated
        if total.refused:
            doc["refused"] = dict(total.refused)
        return doc


def run_build(engine: Any, paths: Sequence[Path], folders: Sequence[Path], jobs: int = 1,
              batch: int = 500, scheduler: str | None = None, explore: bool = False,
              progress: Callable[[int], None] | None = None,
              checking: Callable[[int], None] | None = None,
              searching: Searching | None = None, limit: int = DEFAULT_LIMIT) -> Built:
    """`dataset build`: run and store `paths` in every era, here (`build`) or on the Dask
    cluster at `scheduler`; with `explore`, explore each stored batch too (here only;
    a search past `limit` lines of play is said and left out, the build goes on);
    then store how the generated ones among `folders` were made. Bad input is a
    ScenarioError, a cluster's failure a ClusterError, a search too large an
    ExploreError."""
    eras = era_ids(None)
    total = Summary()
    explored: dict[str, Any] | None = (
        {"scenarios": 0, "diverging": 0, "too_large": []} if explore else None)
    if scheduler:
        from comparator.dataset.cluster import build_on_cluster

        # It only takes the length and slices: a generated folder's files are never listed.
        for part in build_on_cluster(engine, paths, eras, scheduler,  # type: ignore[arg-type]
                                     batch):
            total.add(part)
            if progress:
                progress(part.scenarios)
    else:
        for part in getattr(paths, "parts", []):
            if isinstance(part, Generated):
                verify_generated(part, jobs)  # if so, its files need no second check
        for results in build(engine, paths, eras, jobs, batch, progress, checking, explore):
            for ran in results:
                total.add(ran.summary)
            if explored is not None:
                found = explore_and_store(engine, [r.file for r in results], eras, searching,
                                          limit)
                explored["scenarios"] += found["scenarios"]
                explored["diverging"] += found["diverging"]
                explored["too_large"] += found["too_large"]
    return Built(total, explored, store_generations(engine, folders))


def explore_and_store(engine: Any, files: list[str], eras: list[str],
                      searching: Searching | None = None,
                      limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """Explore files already checked (explore's default options, `limit`) and store that
    in one transaction; how many were explored and how many diverge, and the files whose
    search has more lines of play than `limit` (not stored: said, with why)."""
    docs = []
    too_large = []
    for file in files:
        scenario = load(file)
        if not to_explore(scenario, eras):
            continue  # every era refuses its written blocks, as it expects: nothing to play
        try:
            docs.append((scenario, explore_file(file, scenario, eras, limit=limit,
                                                searching=searching)))
        except TooLargeError as big:  # known only once searched: the others go on
            too_large.append({"file": file, "refused": str(big)})
    try:
        save_explorations(engine, docs)
    except SQLAlchemyError as exc:
        raise DatasetError(write_failed(exc)) from None
    return {"scenarios": len(docs), "diverging": sum(d["diverges"] for _, d in docs),
            "too_large": too_large}


def store_generations(engine: Any, folders: Sequence[Path]) -> list[dict[str, int]]:
    """Store how the generated folders among `folders` were made (their manifests)."""
    out = []
    for folder in folders:
        manifest = read_manifest(folder) if folder.is_dir() else None
        if manifest is not None:
            save_generation(engine, manifest)
            out.append({"seed": manifest["seed"], "count": manifest["count"],
                        "generator": manifest["generator"]})
    return out
