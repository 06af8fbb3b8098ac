"""Read scenario files: YAML -> pydantic model -> cross-checks -> cards merged in.

Every problem is reported with its place (file, line, field path) and all problems of a
file are reported together, never just the first. A file that loads here never crashes
the engine.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from comparator import quick_yaml
from versions.common import did_you_mean


@dataclass(frozen=True)
class Problem:
    file: str
    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class ScenarioError(Exception):
    """A scenario file that can't be run; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def field_path(loc: tuple[Any, ...]) -> str:
    """A pydantic error location as a scenario's field: `permanents[0].keywords`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it

MAX_BYTES = 1_000_000  # a scenario file is a page of YAML, not a megabyte
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


def line_map(text: str) -> dict[tuple[Any, ...], int]:
    """Field path -> 1-based line, from the YAML node tree."""
    lines: dict[tuple[Any, ...], int] = {}

    def walk(node: yaml.Node, path: tuple[Any, ...]) -> None:
        if len(path) > 50:  # deeper than any scenario; aliases can't loop (refused on load)
            return
        lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                k = key.value
                lines[(*path, k)] = key.start_mark.line + 1
                walk(value, (*path, k))
                lines[(*path, k)] = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, (*path, i))

    try:
        root = yaml.compose(text, Loader=SafeLoader)
    except yaml.YAMLError:
        return lines
    if root is not None:
        walk(root, ())
    return lines


def line_for(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None


def pydantic_problems(
    file: str, err: ValidationError, lines: dict[tuple[Any, ...], int]
) -> list[Problem]:
    out = []
    for e in err.errors():
        # Drop pydantic's union/validator tags ("function-after[...]", "str", "int").
        loc = tuple(p for p in e["loc"] if isinstance(p, int) or not (
            "[" in str(p) or str(p) in ("str", "int", "list[str]", "dict[str,int]",
                                        "dict[str,constrained-int]")))
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = f"unknown key {loc[-1]!r}"
        elif msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        elif e["type"] == "missing":
            msg = "required field is missing"
        elif e["type"] == "literal_error" and isinstance(e.get("input"), str):
            # A misspelt name of a closed list (a window, a zone): the closest one first.
            allowed = re.findall(r"'([^']*)'", str(e.get("ctx", {}).get("expected", "")))
            msg = (f"{e['input']!r} is not one of {', '.join(allowed)}"
                   f"{did_you_mean(e['input'], allowed)}")
        out.append(Problem(file, field_path(loc), msg, line_for(lines, loc)))
    # One mistake inside a union is reported once per alternative: keep one of each place.
    seen: dict[str, Problem] = {}
    for p in out:
        seen.setdefault(p.path, p)
    return list(seen.values())


def parse(text: str, file: str) -> Any:
    """YAML text -> the checked scenario of its game (Magic's with its cards merged in);
    raise ScenarioError with every problem."""
    try:
        raw = load_yaml(text)
    except RecursionError:
        raise ScenarioError([Problem(file, "", "nested too deeply")]) from None
    except ValueError as exc:  # e.g. an integer of thousands of digits
        raise ScenarioError([Problem(file, "", f"malformed YAML: {str(exc).splitlines()[0]}")
                             ]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        where = f" at column {mark.column + 1}" if mark else ""
        hint = _yaml_hint(problem)
        lines = text.splitlines()
        if mark and mark.line < len(lines) and "\t" in lines[mark.line]:
            hint = " (a tab on this line: YAML indents with spaces, never tabs)"
        raise ScenarioError([Problem(file, "", f"malformed YAML{where}: {problem}{hint}",
                                     line)]) from None
    if not isinstance(raw, dict):
        raise ScenarioError([Problem(file, "", "a scenario file is a YAML mapping", 1)])
    from comparator.games import game_id, game_named

    return game_named(game_id(raw)).parse(text, file, raw)


def model_for(raw: Any) -> Any:
    """The scenario model of the game a scenario document names (Magic's by default)."""
    from comparator.games import game_id, game_named

    return game_named(game_id(raw)).model


def validated(text: str, file: str, raw: dict[str, Any], model: type) -> Any:
    """`raw` as `model`, or a ScenarioError with every problem, each with its line."""
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        raise ScenarioError(pydantic_problems(file, err, line_map(text))) from None


def refuse_problems(file: str, text: str, found: list[tuple[tuple[Any, ...], str]]) -> None:
    """The whole-scenario checks' problems, if any, as a ScenarioError with line numbers."""
    if found:
        lines = line_map(text)  # only a file with problems pays for the line numbers
        raise ScenarioError([
            Problem(file, field_path(loc), msg, line_for(lines, loc)) for loc, msg in found])


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


def read_scenario_text(path: Path) -> str:
    """A scenario file's text (``read_text_file``, at most MAX_BYTES)."""
    try:
        return read_text_file(path, MAX_BYTES, "scenario")
    except ValueError as exc:
        file, _, why = str(exc).partition(": ")
        raise ScenarioError([Problem(file, "", why)]) from None


def load_yaml(text: str, max_nodes: int = MAX_NODES) -> Any:
    """YAML with the guards of a scenario file (an alias bomb refused before it is built,
    a key written twice refused); `max_nodes` bounds the document once aliases expand."""
    plain = quick_yaml.load(text)  # a generated scenario's text, read twice as fast
    if plain is not None:
        return plain
    if "*" in text:
        size = _expanded_size(text, max_nodes)
        if size > max_nodes:
            raise yaml.YAMLError(f"more than {max_nodes} values once its aliases are "
                                 f"expanded (an alias bomb?)")
    return yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a safe loader


def load(path: Path | str) -> Any:
    path = Path(path)
    return parse(read_scenario_text(path), str(path))
