"""YAML documents read with the guards a user's file needs: an alias bomb refused before it
is built, a key written twice refused, a malformed document said in one line with a hint."""

from __future__ import annotations

import json
from typing import Any

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it


MAX_NODES = 100_000  # YAML nodes once aliases are expanded ("billion laughs" attacks)


class UniqueKeyLoader(SafeLoader):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key written twice in one mapping (YAML would keep the
    last silently)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                hash(key)
            except TypeError:
                continue  # an unhashable key: the constructor reports it
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} is written twice (first at line {seen[key]})",
                    key_node.start_mark)
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def _expanded_size(text: str, max_nodes: int = MAX_NODES) -> int:
    """How many nodes the document has with every alias expanded, counted from the parser's
    events without building anything; stops counting past MAX_NODES."""
    sizes: dict[str, int] = {}
    open_sizes = [0]
    anchors: list[str | None] = []
    for event in yaml.parse(text, Loader=SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            open_sizes.append(1)
            anchors.append(event.anchor)
            continue
        if isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            size = open_sizes.pop()
            anchor = anchors.pop()
            if anchor:
                sizes[anchor] = size
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor not in sizes:  # it names a node that contains it
                raise yaml.YAMLError(f"alias *{event.anchor} refers to a value that contains "
                                     f"it (a recursive document)")
            size = sizes[event.anchor]
        else:
            continue
        open_sizes[-1] += size
        if open_sizes[-1] > max_nodes:
            break
    return max(open_sizes)


def _yaml_hint(problem: str) -> str:
    """What a newcomer most likely did, for PyYAML's sentence about it."""
    if "'\\t'" in problem or "\t" in problem or "tab" in problem:
        return " (YAML indents with spaces, never tabs)"
    if any(k in problem for k in ("indicator", "block end", "mapping values",
                                  "expected ':'", "simple key")):
        return (" (check the indentation: the items of one list, and the keys of one "
                "mapping, start in the same column; a key is followed by ': ')")
    if "flow" in problem or "expected ','" in problem:
        return " (check the brackets: each `{` and `[` needs its `}` or `]`, items apart by ',')"
    return ""


class _NotAsYaml(Exception):
    """JSON reads the document otherwise than YAML does: YAML's reading is the one."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        raise _NotAsYaml  # a key written twice: YAML's loader says where
    return mapping


def _float_as_yaml(text: str) -> float:
    if "e" in text or "E" in text:
        raise _NotAsYaml  # YAML 1.1 reads 1e5 (no dot, no sign) as a string
    return float(text)


def _not_as_yaml(text: str) -> Any:
    raise _NotAsYaml  # NaN, Infinity: strings to YAML


_JSON = json.JSONDecoder(object_pairs_hook=_unique, parse_float=_float_as_yaml,
                         parse_constant=_not_as_yaml)
# A tab between tokens, and any escape (a surrogate pair, an escaped slash: read otherwise
# in corner cases), are left to YAML.
_UNLIKE_YAML = frozenset("\t\\")


def _as_json(text: str) -> Any:
    """A document written as JSON (``comparator.games.mtg.generate`` writes generated
    scenarios so), read by the C decoder, where that reads it as YAML would: JSON is YAML
    for a document of strings, whole numbers, booleans, null, lists and mappings with
    unique keys. None where it is not such a document; YAML then reads it (and says what
    is wrong with it)."""
    try:
        return _JSON.decode(text)
    except (ValueError, RecursionError, _NotAsYaml):
        return None


def load_yaml(text: str, max_nodes: int = MAX_NODES) -> Any:
    """YAML with the guards of a scenario file (an alias bomb refused before it is built,
    a key written twice refused); `max_nodes` bounds the document once aliases expand."""
    if text[:1] == "{" and not _UNLIKE_YAML.intersection(text):
        plain = _as_json(text)
        if plain is not None:  # a generated scenario's text: JSON, read at C speed
            return plain
    if "*" in text:
        size = _expanded_size(text, max_nodes)
        if size > max_nodes:
            raise yaml.YAMLError(f"more than {max_nodes} values once its aliases are "
                                 f"expanded (an alias bomb?)")
    return yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a safe loader
