"""Problems of a file a user wrote, each with its place (file, line, field path), and the one
exception that carries every problem of a file: what every reader of scenarios, cards and
rules documents reports with."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from pydantic import ValidationError

from comparator.files.documents import SafeLoader
from versions.common import did_you_mean


@dataclass(frozen=True)
class Problem:
    file: str
    path: str
    message: str
    line: int | None = None
    # Pydantic's own message: its error type and context, by which another language says it
    # (``comparator.text.messages``); the English `message` is pydantic's words.
    error: tuple[str, dict[str, Any]] | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.said(self.message)

    def said(self, message: str) -> str:
        """The problem's line, "FILE:LINE: FIELD: message", with `message` said (in
        another language: the file, the line and the field stay as written)."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {message}" if self.path else f"{where}: {message}"


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


def location(path: str) -> tuple[Any, ...]:
    """A field path ("combat.blocks.b", "combat.redirect[1]") as a location in the YAML
    (``field_path`` undone)."""
    out: list[Any] = []
    for part in path.split("."):
        name, *indexes = part.replace("]", "").split("[")
        out += [name, *(int(i) for i in indexes if i.isdigit())]
    return tuple(out)


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
        error = None
        if e["type"] == "extra_forbidden" and e["loc"]:
            # The key as written, whatever it holds (a "[" of an escape sequence would be
            # taken for one of pydantic's tags above).
            key = e["loc"][-1]
            loc = (*(loc[:-1] if loc and loc[-1] == key else loc), key)
            msg = f"unknown key {key!r}"
        elif msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        elif e["type"] == "missing":
            msg = "required field is missing"
        elif e["type"] == "literal_error" and isinstance(e.get("input"), str):
            # A misspelt name of a closed list (a window, a zone): the closest one first.
            allowed = re.findall(r"'([^']*)'", str(e.get("ctx", {}).get("expected", "")))
            msg = (f"{e['input']!r} is not one of {', '.join(allowed)}"
                   f"{did_you_mean(e['input'], allowed)}")
        else:
            error = (e["type"], {k: v if isinstance(v, int | float | str) else str(v)
                                 for k, v in (e.get("ctx") or {}).items()})
        out.append(Problem(file, field_path(loc), msg, line_for(lines, loc), error))
    # One mistake inside a union is reported once per alternative: keep one of each place.
    seen: dict[str, Problem] = {}
    for p in out:
        seen.setdefault(p.path, p)
    return list(seen.values())


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
