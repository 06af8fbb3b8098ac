"""How the store packs what it keeps whole: a scenario's canonical JSON and a run's outcome
JSON, deflated (zlib, stdlib) against a preset dictionary of typical text, one per era for
outcomes (each era cites its own rule numbers), one for scenarios. A run's outcome packs
to about 160 bytes, not 2,500; a scenario's to about 120, not 1,700.

A packed value starts with its codec's number. Codec 1's dictionaries are frozen: a
database keeps them readable for ever, so new dictionaries (retrained for a new engine's
events, or for a new era) come as codec 2, beside 1, never in its place. `rulesdiff dataset`
always writes with the newest codec and reads every one.

What SQL must read without rulesdiff (zones, life, who lost) is kept beside the packed
outcome in plain columns: `outcome_columns`.
"""

from __future__ import annotations

import hashlib
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from comparator.encoding import ordered_json

DICTIONARIES = Path(__file__).parent / "dictionaries"
CODEC = 1  # what is written now
CODECS = (1,)  # what can be read
SCENARIO = "scenario"  # the dictionary of scenarios' canonical JSON
ANY_ERA = "any-era"  # the dictionary of outcomes of an era that has none of its own


class PackingError(ValueError):
    """A packed value this rulesdiff can't unpack: damaged, or of an unknown codec."""


@cache
def dictionary(codec: int, name: str) -> bytes:
    folder = DICTIONARIES / f"codec-{codec}"
    path = folder / f"{name}.zdict"
    if not path.is_file():
        path = folder / f"{ANY_ERA}.zdict"
    return path.read_bytes()


# The zlib format, not raw deflate: its header names the dictionary (by its Adler-32) and
# its trailer checks the text (Adler-32), so a damaged value or the wrong dictionary is an
# error, never other text. Ten bytes a value.
_WBITS = 15


@cache
def _primed(zdict: bytes) -> Any:
    """A compressor with the dictionary loaded, to copy: loading a dictionary into a new
    compressor costs as much as packing a value (a copy starts from the same state, so it
    writes the same bytes). Memory level 8, zlib's default, not 9: level 9's state is half
    as large again, and its copy and packing took twice as long or more (measured on
    outcomes: 85 against 280 µs a value), for the same bytes on values of a few KiB."""
    return zlib.compressobj(9, zlib.DEFLATED, _WBITS, 8, zlib.Z_DEFAULT_STRATEGY, zdict)


def _deflate(text: str, zdict: bytes) -> bytes:
    packer = _primed(zdict).copy()
    return packer.compress(text.encode()) + packer.flush()


def _inflate(data: bytes, zdict: bytes) -> str:
    unpacker = zlib.decompressobj(_WBITS, zdict)
    raw = unpacker.decompress(data) + unpacker.flush()
    if not unpacker.eof or unpacker.unused_data:
        raise PackingError("truncated or followed by other bytes")
    return raw.decode()


def pack(text: str, name: str) -> bytes:
    """`text` packed with the newest codec's dictionary `name` (an era id, or SCENARIO)."""
    return bytes([CODEC]) + _deflate(text, dictionary(CODEC, name))


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
        return _inflate(data[1:], dictionary(data[0], name))
    except (zlib.error, UnicodeDecodeError) as exc:
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
