"""`dataset generate`: a folder of generated scenarios, a million in minutes, written by
several processes, each file whole or absent, with the manifest that lets a build read
them without listing them (the scenarios are drawn by `comparator.games.mtg.generate`)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from comparator.files.file_sets import (
    DIGEST_RANGE,
    MANIFEST,
    files_digest,
    folder_of,
    regular_bytes,
)
from comparator.games.mtg.generate import GENERATOR_VERSION, Parameters, scenario_document, to_text


def _write_range(job: tuple[str, int, int, int, Parameters]) -> tuple[int, str]:
    """Write scenarios start … stop-1 (one range, in whichever process gets it); how
    many, and the digest of their bytes (``file_sets.range_digest``). A file already there
    with the same content is left alone: generating again resumes."""
    out, seed, start, stop, p = job
    digest = hashlib.sha256()
    # Folders made (or found): one system call a folder, not a file. In a folder this
    # range made, none of its files was there before: nothing to compare.
    fresh: dict[str, bool] = {}
    for index in range(start, stop):
        data = to_text(scenario_document(seed, index, p)).encode("utf-8")
        digest.update(data)
        folder = os.path.join(out, folder_of(index))
        if folder not in fresh:
            try:
                os.mkdir(folder)
                fresh[folder] = True
            except FileExistsError:
                fresh[folder] = False
        path = os.path.join(folder, f"{index:07d}.yaml")
        if fresh[folder]:
            _write_new(path, data)
        elif regular_bytes(path, len(data)) != data:
            _write_whole(path, data)
    return stop - start, digest.hexdigest()


def _write_new(path: str, data: bytes) -> None:
    """`data` as a new file at `path`, in a folder this generation made: no file was
    there for a reader to see replaced, so it is written in place, in one system call (a
    rename costs the file system as much again as creating the file). A process killed
    meanwhile leaves the file empty or whole (one write of a few KiB to a local disk); a
    full disk leaves none. A reader of a generation under way may see a file being
    written: generating again rewrites a file whose bytes are not the scenario's, and
    until a generation ends its manifest names no digest, so a build checks every file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:  # another generation writes here too: as an existing file
        _write_whole(path, data)
        return
    made = None
    try:
        try:
            made = os.fstat(fd)
            _write_all(fd, data)
        finally:
            os.close(fd)
    except OSError:
        with contextlib.suppress(OSError):
            # Only the file this call made: another generation may have put its own there.
            there = os.stat(path)
            if made is not None and (there.st_dev, there.st_ino) == (made.st_dev,
                                                                    made.st_ino):
                os.unlink(path)
        raise


def _write_all(fd: int, data: bytes) -> None:
    """All of `data` to the open file `fd` (a write may take only part of it)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_whole(path: str, data: bytes) -> None:
    """`data` as the file at `path`, written to a temporary name and renamed: a reader
    never sees a half-written scenario file, and a full disk leaves no half of it behind."""
    tmp = path[:-len(".yaml")] + ".tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def generate_all(out: Path, seed: int, count: int, jobs: int = 1,
                 progress: Callable[[int], None] | None = None,
                 parameters: Parameters | None = None) -> None:
    """Write scenarios 0 … count-1 of `seed` under `out`, 1,000 per folder, and the
    manifest first, so a dataset built from the folder knows how it was made."""
    out.mkdir(parents=True, exist_ok=True)
    p = parameters or Parameters()
    manifest = {"generator": GENERATOR_VERSION, "seed": seed, "count": count,
                "parameters": p.document()}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    step = DIGEST_RANGE
    ranges = [(str(out), seed, i, min(i + step, count), p) for i in range(0, count, step)]
    if jobs == 1:
        done = map(_write_range, ranges)
    else:
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(max_workers=jobs)
        done = pool.map(_write_range, ranges)
    digests = []
    try:
        for n, digest in done:
            digests.append(digest)
            if progress:
                progress(n)
    finally:
        if jobs > 1:
            pool.shutdown(cancel_futures=True)
    # Written last: only a folder generated to its end says what its files are, so that a
    # build can verify them by their bytes instead of checking each again.
    manifest["files"] = {"sha256": files_digest(digests), "range": DIGEST_RANGE}
    tmp = out / f".{MANIFEST}.tmp"
    try:
        tmp.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        tmp.replace(out / MANIFEST)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
