"""How the store packs what it keeps whole: a scenario's canonical JSON and a run's outcome
JSON, compressed against a dictionary of typical text, one per era for outcomes (each era
cites its own rule numbers), one for scenarios. A run's outcome packs to about 150 bytes,
not 2,500; a scenario's to about 120, not 1,700.

A packed value starts with its codec's number, and a codec's dictionaries are frozen: a
database keeps them readable for ever, so new dictionaries (retrained for a new engine's
events, or for a new era) come as a new codec, beside the others, never in their place.
`rulesdiff dataset` always writes with the newest codec and reads every one.

- Codec 1: zlib (deflate, level 9) with a preset dictionary: the last 32 KiB of sample
  text. Read only.
- Codec 2: Zstandard (level 12) with a dictionary of 32 KiB trained on the same samples
  (``comparator.store.dictionary_training``): outcomes about a tenth smaller (about 150 bytes
  against 167; scenarios the same), packed in half the time or less (about 50 against
  100-125 µs an outcome) and unpacked faster.

A value codec 2 packed that an older rulesdiff reads (`show`, `dataset export`) is an error
there, "codec 2 is unknown to this rulesdiff", never other text.

What SQL must read without rulesdiff (zones, life, who lost) is kept beside the packed
outcome in plain columns: `outcome_columns`.
"""

from __future__ import annotations

import hashlib
import threading
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import zstandard

from comparator.text.encoding import ordered_json

DICTIONARIES = Path(__file__).parent / "dictionaries"
CODEC = 2  # what is written now
CODECS = (1, 2)  # what can be read
SUFFIX = {1: ".zdict", 2: ".zstd-dict"}
ZSTD_LEVEL = 12
# Text longer than this is never packed, nor unpacked: a damaged or forged value can't make
# a reader build gigabytes (Zstandard reaches thousands to one, zlib about a thousand).
MOST_TEXT = 64 * 1024 * 1024
SCENARIO = "scenario"  # the dictionary of scenarios' canonical JSON
ANY_ERA = "any-era"  # the dictionary of outcomes of an era that has none of its own


class PackingError(ValueError):
    """A packed value this rulesdiff can't unpack: damaged, or of an unknown codec."""


@cache
def dictionary(codec: int, name: str) -> bytes:
    folder = DICTIONARIES / f"codec-{codec}"
    path = folder / f"{name}{SUFFIX[codec]}"
    if not path.is_file():
        path = folder / f"{ANY_ERA}{SUFFIX[codec]}"
    return path.read_bytes()


# Codec 1 (read only) is the zlib format, not raw deflate: its header names the dictionary
# (by its Adler-32) and its trailer checks the text (Adler-32), so a damaged value or the
# wrong dictionary is an error, never other text. Ten bytes a value.
_WBITS = 15


def _inflate(data: bytes, zdict: bytes) -> str:
    unpacker = zlib.decompressobj(_WBITS, zdict)
    raw = unpacker.decompress(data) + unpacker.flush()
    if not unpacker.eof or unpacker.unused_data:
        raise PackingError("truncated or followed by other bytes")
    return raw.decode()


# A Zstandard frame without its magic number (the codec's byte says what follows), its
# content size or a dictionary id, but with a checksum of the text (the low 32 bits of its
# XXH64): a damaged value, or one read with another dictionary, fails the frame or the
# checksum and is an error; that it is never other text rests on the checksum, where
# zlib's header named its dictionary. Nine bytes a value, against zlib's ten.
_FRAME = zstandard.ZstdCompressionParameters.from_level(
    ZSTD_LEVEL, format=zstandard.FORMAT_ZSTD1_MAGICLESS, write_checksum=1,
    write_content_size=0, write_dict_id=0)


@cache
def _zstd_dictionary(name: str) -> Any:
    """Codec 2's dictionary `name`, digested once for packing and for unpacking: read
    only after that, so one is shared by every thread."""
    data = zstandard.ZstdCompressionDict(dictionary(2, name))
    data.precompute_compress(level=ZSTD_LEVEL)
    # Unpacking digests it on first use, and two threads could both do it: done here.
    zstandard.ZstdDecompressor(dict_data=data, format=zstandard.FORMAT_ZSTD1_MAGICLESS
                               ).decompressobj()
    return data


# A compressor or a decompressor serves one thread at a time (python-zstandard's rule):
# each thread that packs (a Dask worker runs tasks in threads) keeps its own, made once.
_each_thread = threading.local()


def _packer(name: str) -> Any:
    packers = _each_thread.__dict__.setdefault("packers", {})
    found = packers.get(name)
    if found is None:
        found = packers[name] = zstandard.ZstdCompressor(
            dict_data=_zstd_dictionary(name), compression_params=_FRAME)
    return found


def _unpacker(name: str) -> Any:
    unpackers = _each_thread.__dict__.setdefault("unpackers", {})
    found = unpackers.get(name)
    if found is None:
        found = unpackers[name] = zstandard.ZstdDecompressor(
            dict_data=_zstd_dictionary(name), format=zstandard.FORMAT_ZSTD1_MAGICLESS)
    return found


def _unzstd(data: bytes, name: str) -> str:
    # A stream reader, not `decompress`, which let bytes after the frame, or a second
    # frame, pass; fed a KiB at a time so that output past MOST_TEXT stops it early.
    reader = _unpacker(name).decompressobj()
    raw = bytearray()
    for at in range(0, len(data), 1024):
        if reader.eof:  # the frame ended, and more follows
            raise PackingError("followed by other bytes")
        raw += reader.decompress(data[at:at + 1024])
        if len(raw) > MOST_TEXT:
            raise PackingError(f"more than {MOST_TEXT} bytes of text")
    if not reader.eof or reader.unused_data:
        raise PackingError("truncated or followed by other bytes")
    return raw.decode()


def pack(text: str, name: str) -> bytes:
    """`text` packed with the newest codec's dictionary `name` (an era id, or SCENARIO)."""
    raw = text.encode()
    if len(raw) > MOST_TEXT:
        raise PackingError(f"more than {MOST_TEXT} bytes of text")
    return bytes([CODEC]) + _packer(name).compress(raw)


def unpack(data: bytes | memoryview | None, name: str) -> str:
    """The text of a packed value; PackingError if it is not one."""
    if not isinstance(data, bytes | memoryview | bytearray):
        raise PackingError(f"not bytes but {type(data).__name__}")
    if len(data) < 2:
        raise PackingError("empty")
    data = bytes(data)
    if data[0] not in CODECS:
        raise PackingError(f"codec {data[0]} is unknown to this rulesdiff")
    try:
        if data[0] == 1:
            return _inflate(data[1:], dictionary(1, name))
        return _unzstd(data[1:], name)
    except (zlib.error, zstandard.ZstdError, UnicodeDecodeError) as exc:
        raise PackingError(str(exc)) from None


# -- keys -----------------------------------------------------------------------------------


def scenario_key(content_hash: str | bytes) -> int:
    """The row key of a scenario version: the first 8 bytes of its SHA-256, as a signed
    64-bit integer (SQLite's rowid, PostgreSQL's BIGINT). Computed where the rows are
    encoded, so a worker needs no round trip to learn it; the whole hash stays in the row,
    and a build refuses a key that two versions would share (2^-34 likely at a billion)."""
    raw = bytes.fromhex(content_hash) if isinstance(content_hash, str) else content_hash
    return int.from_bytes(raw[:8], "big", signed=True)


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


# -- what SQL reads ---------------------------------------------------------------------------


def outcome_columns(outcome: dict[str, Any]) -> dict[str, str | None]:
    """The plain columns of a run, read by the views and by SQL: each player's life (None
    in a game without life: Duel Masters counts shields), who lost, and where each
    permanent ended ({zone: [permanents]})."""
    players = outcome.get("players", {})
    life = {p: v["life"] for p, v in players.items() if isinstance(v, dict) and "life" in v}
    losers = [p for p, v in players.items() if isinstance(v, dict) and v.get("lost")]
    zones: dict[str, list[str]] = {}
    for permanent, state in outcome.get("permanents", {}).items():
        zones.setdefault(state.get("zone", "unknown"), []).append(permanent)
    return {"life": ordered_json(life) if life else None, "losers": ordered_json(losers),
            "zones": ordered_json(dict(sorted(zones.items())))}
