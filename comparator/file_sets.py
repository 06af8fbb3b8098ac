"""The scenario files a command is given, as one sequence: files named one by one, the
*.yaml files of a folder, and generated folders, whose manifest says how many files there
are and where, so a million of them are never listed in memory."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

MANIFEST = "generator.json"  # not *.yaml: a folder's scenarios are its *.yaml files
PER_FOLDER = 1000


def path_of(out: Path, index: int) -> Path:
    """Where file `index` of a generated folder lives: a thousand to a subfolder."""
    return out / f"{index // PER_FOLDER:04d}" / f"{index:07d}.yaml"


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
    """The files of a generated folder, by index (`path_of`)."""

    def __init__(self, folder: Path, count: int) -> None:
        self.folder, self.count = folder, count

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
    from comparator.data_files import find_scenario

    parts: list[Any] = []
    for f in files:
        if f.is_dir():
            manifest = read_manifest(f)  # ValueError: a damaged manifest
            if manifest is not None:
                parts.append(Generated(f, int(manifest["count"])))
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
