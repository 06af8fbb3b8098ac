"""The YAML text that ``yaml.dump(doc, sort_keys=False, default_flow_style=None,
width=100)`` writes, written directly for the plain documents the generator draws; and
such a text read back directly (``load``), as the build reads a generated scenario.

PyYAML builds a node for every value and asks its resolver about every string; that was a
fifth of generating a scenario. This writes the same text by the same rules, for what it
can be sure of: mappings, lists, whole numbers, booleans, and strings that PyYAML writes
unquoted in block style. Anything else (a string it would quote there, another kind of
value, an object met twice, which PyYAML writes as an anchor, a list in a list, a long
key) is handed to PyYAML whole, so the text is PyYAML's in every case.

PyYAML's rules followed here (``yaml.emitter.Emitter``): a list or mapping whose items are
all scalars is written in flow style (``[a, b]``, ``{k: v}``), any other in block style; a
string with a comma is quoted in flow style; a list in a block mapping is not indented
under its key; a mapping that is an item of a block list starts on the item's line. A
line goes on on the next only once it has passed the width: before an item of a flow
collection, indented two columns from where the collection's line is; or at a space of a
scalar, two columns further in."""

from __future__ import annotations

import re
from typing import Any

import yaml

WIDTH = 100
STR_TAG = "tag:yaml.org,2002:str"
# Characters that never make PyYAML quote a string in block style nor fold it at a line
# break; a string of them that the resolver reads back as a string (not a number, a
# boolean, a date, null) is written as it is, but in a flow collection where it has a
# comma (a flow indicator): PyYAML quotes it there.
_PLAIN_SHAPE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._'()/+,-]| (?! ))*")
_RESOLVER = yaml.resolver.Resolver()
_SCALARS = frozenset({str, int, bool})  # others (floats, None, dates) are PyYAML's to write
_texts: dict[str, tuple[str, str]] = {}  # the strings met, up to TEXTS_KEPT
TEXTS_KEPT = 20_000  # a dataset's ids and titles are all different: never all kept
# PyYAML writes a longer key as a complex key (``? key``), and refuses to read a simple
# key over 1,024 characters; keys are left to it well before either.
LONGEST_KEY = WIDTH


class _NotPlain(Exception):
    """The document holds something only PyYAML should write."""


def dump(doc: dict[str, Any], dumper: type = yaml.SafeDumper) -> str:
    """The text of ``yaml.dump(doc, Dumper=dumper, sort_keys=False,
    default_flow_style=None, width=100)``."""
    try:
        return _document(doc)
    except _NotPlain:
        return yaml.dump(doc, Dumper=dumper, sort_keys=False, default_flow_style=None,
                         width=WIDTH)


def _document(doc: dict[str, Any]) -> str:
    if type(doc) is not dict or _is_flow(doc):
        raise _NotPlain
    lines: list[str] = []
    _block_mapping(doc, 0, "", lines, set())
    return "\n".join(lines) + "\n"


def _scalar(value: Any, flow: bool = False) -> str | None:
    """The text of a scalar (in a flow collection if `flow`); None for a list or a
    mapping."""
    kind = type(value)
    if kind is str:
        texts = _texts.get(value) or _texts_of(value)
        return texts[flow]
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    if kind is dict or kind is list:
        return None
    raise _NotPlain


def _texts_of(value: str) -> tuple[str, str]:
    """A string's text in block style and in flow style, when PyYAML writes it unquoted
    in block style (in flow style too unless it has a comma, a flow indicator: PyYAML
    quotes it there)."""
    if not (_PLAIN_SHAPE.fullmatch(value) and not value.endswith(" ")
            and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False)) == STR_TAG):
        raise _NotPlain
    texts = (value, "'" + value.replace("'", "''") + "'" if "," in value else value)
    if len(_texts) >= TEXTS_KEPT:
        _texts.clear()
    _texts[value] = texts
    return texts


def _is_flow(value: dict[str, Any] | list[Any]) -> bool:
    """Whether PyYAML writes the collection in flow style: all its items are scalars, keys
    too (a number or a boolean may be a key in flow style; `_block_mapping` leaves such a
    key to PyYAML)."""
    # issuperset(map(type, ...)): the all() of a generator, without resuming it per item.
    if type(value) is dict:
        return _SCALARS.issuperset(map(type, value)) and _SCALARS.issuperset(
            map(type, value.values()))
    return _SCALARS.issuperset(map(type, value))


def _key(key: Any, flow: bool = False) -> str:
    text = _scalar(key, flow)
    if text is None or len(text) > LONGEST_KEY:
        raise _NotPlain
    return text


def _seen(value: Any, seen: set[int]) -> None:
    if id(value) in seen:
        raise _NotPlain  # PyYAML writes an anchor and an alias
    seen.add(id(value))


def _folded(text: str, scalar: str, indent: int, lines: list[str]) -> str:
    """The line `text` with `scalar` written on, folded as PyYAML folds a scalar: at each
    space it reaches past the width, the rest going on at `indent`. Finished lines go to
    `lines`; the last one is returned, to be written on."""
    if len(text) + len(scalar) <= WIDTH or " " not in scalar:
        return text + scalar
    words = scalar.split(" ")
    text += words[0]
    for word in words[1:]:
        if len(text) > WIDTH:
            lines.append(text)
            text = " " * indent + word
        else:
            text += " " + word
    return text


def _flow(line: str, value: dict[str, Any] | list[Any], indent: int,
          lines: list[str]) -> None:
    """`line` followed by the flow collection `value`, whose lines go on at `indent`."""
    if type(value) is dict:
        pairs = [(_key(k, True) + ": ", str(_scalar(v, True))) for k, v in value.items()]
        opening, closing = "{", "}"
    else:
        pairs = [("", str(_scalar(v, True))) for v in value]
        opening, closing = "[", "]"
    text = line + opening + ", ".join([key + item for key, item in pairs])
    if len(text) <= WIDTH:  # nothing reached past the width: nothing folded
        lines.append(text + closing)
        return
    text = line + opening
    for i, (key, item) in enumerate(pairs):
        if i:
            text += ","
        if len(text) > WIDTH:  # PyYAML goes on on a new line before an item past the width
            lines.append(text)
            text = " " * indent + key
        else:
            text += (" " if i else "") + key
        text = _folded(text, item, indent + 2, lines)
    lines.append(text + closing)


def _value(head: str, value: Any, indent: int, lines: list[str], seen: set[int]) -> None:
    """`head` (a key and its colon, or a list item's dash) followed by `value`."""
    text = _scalar(value)
    if text is not None:
        lines.append(_folded(head + " ", text, indent + 2, lines))
        return
    _seen(value, seen)
    if _is_flow(value):
        _flow(head + " ", value, indent + 2, lines)
    elif type(value) is list:
        lines.append(head)
        _block_list(value, indent, lines, seen)
    else:
        lines.append(head)
        _block_mapping(value, indent + 2, "", lines, seen)


def _block_mapping(mapping: dict[str, Any], indent: int, first: str, lines: list[str],
                   seen: set[int]) -> None:
    """`first`: the list item's dash the first key follows on its line."""
    for i, (key, value) in enumerate(mapping.items()):
        if type(key) is not str:
            raise _NotPlain
        _value((first if i == 0 and first else " " * indent) + _key(key) + ":", value, indent,
               lines, seen)


def _block_list(items: list[Any], indent: int, lines: list[str], seen: set[int]) -> None:
    dash = " " * indent + "-"
    for item in items:
        if type(item) is dict and not _is_flow(item):
            _seen(item, seen)
            _block_mapping(item, indent + 2, dash + " ", lines, seen)
        elif type(item) is list and not _is_flow(item):
            raise _NotPlain  # a block list in a block list: not drawn, not written here
        else:
            _value(dash, item, indent, lines, seen)


def load(text: str) -> Any:
    """The document ``yaml.safe_load(text)`` gives, when `text` is exactly what `dump`
    writes itself for it (a generated scenario, say); None otherwise, for PyYAML to read.

    Read by a small reader that knows only what `dump` writes, then written again: the same
    text means the same document, since PyYAML reads what `dump` writes itself back as it
    was (every string unquoted is one its resolver reads as a string). So any other text,
    a comment, an anchor, a key written twice, a tab, an empty value, gives None, never
    another document, nor an error: PyYAML reads it, or says what is wrong with it."""
    if not text.endswith("\n"):
        return None
    try:
        lines = _logical_lines(text[:-1].split("\n"))
        doc, end = _block(lines, 0, 0)
        if end != len(lines) or type(doc) is not dict or _document(doc) != text:
            return None
    except (_NotPlain, _Unread, RecursionError):  # nested deeper than read here: PyYAML's
        return None
    return doc


class _Unread(Exception):
    """Not a text `dump` writes itself."""


_WHOLE_NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits: str.isdigit takes "²" and "١" too


def _logical_lines(raw: list[str]) -> list[tuple[int, str]]:
    """(indent, text) of each line, a flow collection's lines joined into one: PyYAML
    goes on on the next line inside one, and a line break there reads as a space."""
    out: list[tuple[int, str]] = []
    i = 0
    while i < len(raw):
        line = raw[i]
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        depth = _open_brackets(text)
        while depth > 0:
            i += 1
            if i == len(raw):
                raise _Unread
            more = raw[i].lstrip(" ")
            text += " " + more
            depth += _open_brackets(more)
        out.append((indent, text))
        i += 1
    return out


def _open_brackets(text: str) -> int:
    # No string `dump` writes has a bracket, quoted or not.
    return text.count("[") + text.count("{") - text.count("]") - text.count("}")


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    """The block list or mapping whose first line is `lines[i]`, at `indent`; the line
    after it."""
    if i >= len(lines) or lines[i][0] != indent:
        raise _Unread
    if lines[i][1].startswith("- "):
        items: list[Any] = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            rest = lines[i][1][2:]
            if _key_of(rest) is not None:  # a mapping begins on the item's line
                lines[i] = (indent + 2, rest)
                value, i = _block(lines, i, indent + 2)
            else:
                value, i = _scalar_or_flow(rest), i + 1
            items.append(value)
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("- "):
        key = _key_of(lines[i][1])
        if key is None:
            raise _Unread
        rest = lines[i][1][len(key) + 1:]
        if rest:
            mapping[key], i = _scalar_or_flow(rest[1:]), i + 1
        elif i + 1 < len(lines) and lines[i + 1][1].startswith("- "):
            mapping[key], i = _block(lines, i + 1, indent)  # a list, not indented
        else:
            mapping[key], i = _block(lines, i + 1, indent + 2)
    return mapping, i


def _key_of(text: str) -> str | None:
    colon = text.find(":")
    if colon <= 0 or text[0] in "[{'" or (colon + 1 < len(text) and text[colon + 1] != " "):
        return None
    return text[:colon]


def _scalar_or_flow(text: str) -> Any:
    if not text:
        raise _Unread  # an empty value: null to PyYAML, never written by `dump`
    if text[0] == "[" and text[-1] == "]":
        return [_read_scalar(t) for t in _flow_items(text[1:-1])]
    if text[0] == "{" and text[-1] == "}":
        pairs = [t.split(": ", 1) for t in _flow_items(text[1:-1])]
        if any(len(p) != 2 for p in pairs):
            raise _Unread
        return {_read_scalar(k): _read_scalar(v) for k, v in pairs}
    return _read_scalar(text)


def _flow_items(text: str) -> list[str]:
    """A flow collection's items: split at each comma and space, but inside a quoted
    string (a value with a comma)."""
    items: list[str] = []
    for part in text.split(", ") if text else []:
        if items and _open_quote(items[-1]):
            items[-1] += ", " + part
        else:
            items.append(part)
    return items


def _open_quote(item: str) -> bool:
    value = item.split(": ", 1)[-1]
    return value.startswith("'") and (value.count("'") % 2 == 1 or value == "'")


def _read_scalar(text: str) -> Any:
    if text.startswith("'"):
        if len(text) < 2 or not text.endswith("'"):
            raise _Unread
        return text[1:-1].replace("''", "'")
    if text == "true":
        return True
    if text == "false":
        return False
    if _WHOLE_NUMBER.fullmatch(text):
        return int(text)
    return text
