"""The scenario files a command is given, as one sequence: files named one by one, the
*.yaml files of a folder, and generated folders, whose manifest says how many files there
are and where, so a million of them are never listed in memory."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

MANIFEST = "generator.json"  # not *.yaml: a folder's scenarios are its *.yaml files
PER_FOLDER = 1000


def regular_bytes(path: Path | str, limit: int | None = None) -> bytes | None:
    """A regular file's bytes (at most `limit` + 1 of them, where a limit is given), or None
    for a missing or unreadable file and for anything else: a FIFO or a device put where a
    scenario was is never read, nor waited on (opened without blocking, then looked at)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read() if limit is None else f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def path_of(out: Path, index: int) -> Path:
    """Where file `index` of a generated folder lives: a thousand to a subfolder."""
    return out / folder_of(index) / f"{index:07d}.yaml"


def folder_of(index: int) -> str:
    """The subfolder of a generated folder that holds file `index`."""
    return f"{index // PER_FOLDER:04d}"


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: not a generator manifest ({exc})") from None
    if not isinstance(doc, dict) or not {"generator", "seed", "count",
                                         "parameters"} <= set(doc):
        raise ValueError(f"{path}: not a generator manifest (it needs generator, seed, count "
                         f"and parameters)")
    for field, low, high in (("seed", 0, 2**63 - 1), ("count", 0, 100_000_000),
                             ("generator", 1, 1_000)):
        value = doc[field]  # a manifest is input like any other: checked, never trusted
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{path}: {field}: a whole number from {low} to {high}, not "
                             f"{json.dumps(value)[:40]}")
    if not isinstance(doc["parameters"], dict):
        raise ValueError(f"{path}: parameters: a map of the generator's parameters")
    return doc


class Generated(Sequence[Path]):
    """The files of a generated folder, by index (`path_of`). `intact`: every file is
    byte for byte what the generator wrote and checked (``verify_generated``)."""

    def __init__(self, folder: Path, count: int, manifest: dict[str, Any] | None = None) -> None:
        self.folder, self.count = folder, count
        self.manifest = manifest or {}
        self.intact = False

    def verified(self, i: int) -> bool:
        """Whether file `i` is known to be as the generator wrote (and checked) it."""
        return self.intact

    def __len__(self) -> int:
        return self.count

    @overload
    def __getitem__(self, i: int) -> Path: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Path]: ...

    def __getitem__(self, i: int | slice) -> Path | Sequence[Path]:
        if isinstance(i, slice):
            return [path_of(self.folder, j) for j in range(*i.indices(self.count))]
        if not -self.count <= i < self.count:
            raise IndexError(i)
        return path_of(self.folder, i % self.count)


class Files(Sequence[Path]):
    """Several sequences of files read as one."""

    def __init__(self, parts: list[Sequence[Path]]) -> None:
        self.parts = [p for p in parts if len(p)]

    def __len__(self) -> int:
        return sum(len(p) for p in self.parts)

    @overload
    def __getitem__(self, i: int) -> Path: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Path]: ...

    def verified(self, i: int) -> bool:
        """Whether file `i` is in a generated folder whose files were verified as the
        generator wrote (and checked) them."""
        for part in self.parts:
            if i < len(part):
                return isinstance(part, Generated) and part.verified(i)
            i -= len(part)
        raise IndexError(i)

    def __getitem__(self, i: int | slice) -> Path | Sequence[Path]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            out: list[Path] = []
            for part in self.parts:
                n = len(part)
                if start < n and stop > 0:
                    out += list(part[max(start, 0):min(stop, n)])
                start, stop = start - n, stop - n
            return out
        if i < 0:
            i += len(self)
        for part in self.parts:
            if i < len(part):
                return part[i]
            i -= len(part)
        raise IndexError(i)


class NoScenarios(ValueError):
    """A path named on the command line holds no scenario: one line for the user."""


def expand(files: Sequence[Path]) -> Files:
    """The scenario files the command line names: a file, a shipped scenario's id, a folder
    of *.yaml files, or a generated folder (its files by index, never listed)."""
    from comparator.files.locations import find_scenario

    parts: list[Any] = []
    for f in files:
        if f.is_dir():
            manifest = read_manifest(f)  # ValueError: a damaged manifest
            if manifest is not None:
                parts.append(Generated(f, int(manifest["count"]), manifest))
                continue
            found_here = sorted(f.glob("*.yaml")) + sorted(f.glob("*.yml"))
            if not found_here:
                raise NoScenarios(f"{f}: no scenario files (*.yaml) in this folder")
            parts.append(found_here)
            continue
        found = find_scenario(str(f))
        if found is None:
            raise NoScenarios(f"{f}: no such file, and no shipped scenario with that id")
        parts.append([found])
    return Files(parts)


# Files digested together by the generator, and by the build that verifies them.
DIGEST_RANGE = 250


def range_digest(folder: Path, start: int, stop: int) -> str | None:
    """The SHA-256 of files start … stop-1 of a generated folder, their bytes one after
    another; None if one is missing or unreadable."""
    h = hashlib.sha256()
    for i in range(start, stop):
        data = regular_bytes(path_of(folder, i))
        if data is None:
            return None
        h.update(data)
    return h.hexdigest()


def files_digest(range_digests: list[str]) -> str:
    """The digest of a generated folder's files: of its ranges' digests, in order."""
    return hashlib.sha256("".join(range_digests).encode()).hexdigest()


def _range_job(job: tuple[str, int, int]) -> str | None:
    return range_digest(Path(job[0]), job[1], job[2])


def verify_generated(part: Generated, jobs: int = 1) -> bool:
    """Whether every file of a generated folder is still what the generator wrote: its
    manifest's digest of the files, recomputed from their bytes (a read, no parse). The
    generator checked each file as it wrote it (the format and the blocks in every era),
    so a verified folder's files need no second check before a build."""
    files = part.manifest.get("files")
    if not isinstance(files, dict) or files.get("range") != DIGEST_RANGE \
            or not isinstance(files.get("sha256"), str):
        return False
    ranges = [(str(part.folder), i, min(i + DIGEST_RANGE, part.count))
              for i in range(0, part.count, DIGEST_RANGE)]
    if jobs > 1 and len(ranges) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            digests = list(pool.map(_range_job, ranges, chunksize=16))
    else:
        digests = [_range_job(r) for r in ranges]
    if any(d is None for d in digests):
        return False
    part.intact = files_digest([d for d in digests if d is not None]) == files["sha256"]
    return part.intact
