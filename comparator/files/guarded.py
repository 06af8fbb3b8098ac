"""A user's text file read safely: only a regular file, of a bounded size, as UTF-8; and a
path whose names the file system would refuse, said before anything is made."""

from __future__ import annotations

import os
import stat
from contextlib import suppress
from itertools import accumulate
from pathlib import Path


def names_too_long(path: Path) -> bool:
    """Whether a name in `path` is longer than its file system takes, asked of the nearest
    folder that exists and without making anything (where a folder before it is still to
    be made, the system would say only that that folder is missing)."""
    at = path.absolute()
    while at.parent != at:
        with suppress(OSError):  # a name too long itself: look further up
            if at.exists():
                break
        at = at.parent
    try:
        most = os.pathconf(at, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # not said here (or not POSIX)
        most = 255
    if most is None or most < 0:  # no limit
        return False
    return any(len(os.fsencode(part)) > most for part in path.parts)


def read_text_file(path: Path, max_bytes: int, what: str = "file",
                   fallback: str | None = None) -> str:
    """A text file's contents, guarded: only a regular file (a FIFO, a device or /dev/zero
    would hang or fill memory), at most `max_bytes`, UTF-8 (else the `fallback` encoding,
    if one is given). Raises ValueError with one line naming the file and the cause."""
    try:
        # Opened without blocking, then looked at: a FIFO put in place of a file between a
        # look and an opening would otherwise wait for a writer for ever.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        with os.fdopen(fd, "rb") as f:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise ValueError(f"{path}: not a regular file")
            if info.st_size > max_bytes:
                raise ValueError(f"{path}: the file is {info.st_size} bytes; a {what} is at "
                                 f"most {max_bytes}")
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise ValueError(f"{path}: more than {max_bytes} bytes")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            if fallback is None:
                raise
            return data.decode(fallback, errors="replace")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}; save it "
                         f"as UTF-8)") from None
    except OSError as exc:
        raise ValueError(f"{path}: can't read the file: {exc.strerror or exc}") from None


_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def json_depth(path: Path, limit: int, chunk: int = 1 << 20) -> int | None:
    """How deep the JSON file at `path` nests lists and objects, at most (brackets inside
    strings are counted too: an upper bound), read a chunk at a time at C speed and
    stopped once past `limit`; None if it is not a regular file that can be read (its
    reader says why). A streaming parser keeps the path to each value, so a file nested
    100,000 deep would need gigabytes: it is refused from this first."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            depth = deepest = 0
            while data := f.read(chunk):
                steps = [_STEP[b] for b in data.translate(None, _NOT_BRACKETS)]
                if steps:
                    deepest = max(deepest, max(accumulate(steps, initial=depth)))
                    depth += sum(steps)
                if deepest > limit:
                    break
        except OSError:
            return None
    return deepest
