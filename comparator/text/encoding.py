"""JSON as rulesdiff encodes and hashes it. Two encodings, for two purposes, named apart:

- ``ordered_json``: compact, keys in their own order. A scenario's order is meaningful
  (the order of `attacks`, `blocks` and `permanents` decides default orders and who assigns
  first), so what is stored keeps it; ``ordered_digest`` hashes it.
- ``sorted_json``: compact, keys sorted: equal states encode (and ``sorted_digest`` hashes)
  equal whatever order their keys were built in: the key of an explored outcome, the
  fingerprint of an era's state in a diff.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

# One encoder each, made once: json.dumps with any option builds a new encoder a call, a
# cost paid tens of times a scenario when a dataset is built. The same bytes.
ordered_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
sorted_json = json.JSONEncoder(sort_keys=True, separators=(",", ":")).encode


def hash_of(text: str) -> str:
    """The content hash of JSON already encoded: encode once, store it and hash it."""
    return hashlib.sha256(text.encode()).hexdigest()


def ordered_digest(data: Any) -> str:
    return hash_of(ordered_json(data))


def sorted_digest(data: Any) -> str:
    return hash_of(sorted_json(data))


# What json.dumps leaves raw without ensure_ascii that a terminal obeys or that reorders the
# text around it: DEL and the C1 controls (U+009B is ESC [), bidi controls, invisible
# marks and separators, a byte-order mark (as ``comparator.text.terminal.clean`` shows
# them in a report).
_UNSEEN = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def shown_json(data: Any, indent: int | None = 2) -> str:
    """JSON to print: text as it is written (Japanese as Japanese, not as escapes), but the
    characters a terminal would obey or that reorder text as \\u escapes: the same JSON
    to any reader, and none of it reaches a terminal raw."""
    return _UNSEEN.sub(lambda m: f"\\u{ord(m.group()):04x}",
                       json.dumps(data, indent=indent, ensure_ascii=False))
