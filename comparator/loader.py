"""Read scenario files: YAML -> pydantic model -> cross-checks -> cards merged in.

Every problem is reported with its place (file, line, field path) and all problems of a
file are reported together, never just the first. A file that loads here never crashes
the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from comparator.cards import library
from versions.scenario import PermanentSpec, Scenario


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


def dotted(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it


def _load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader


def _line_map(text: str) -> dict[tuple[Any, ...], int]:
    """Field path -> 1-based line, from the YAML node tree."""
    lines: dict[tuple[Any, ...], int] = {}

    def walk(node: yaml.Node, path: tuple[Any, ...]) -> None:
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


def _line_for(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None


def _pydantic_problems(
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
        out.append(Problem(file, dotted(loc), msg, _line_for(lines, loc)))
    # One mistake inside a union is reported once per alternative: keep one of each place.
    seen: dict[str, Problem] = {}
    for p in out:
        seen.setdefault(p.path, p)
    return list(seen.values())


def parse(text: str, file: str) -> Scenario:
    """YAML text -> checked, card-resolved Scenario; raise ScenarioError with every problem."""
    try:
        raw = _load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ScenarioError([Problem(file, "", f"malformed YAML: {problem}", line)]) from None
    if not isinstance(raw, dict):
        raise ScenarioError([Problem(file, "", "a scenario file is a YAML mapping", 1)])
    try:
        scenario = Scenario.model_validate(raw)
    except ValidationError as err:
        lines = _line_map(text)  # only a file with problems pays for the line numbers
        problems = _pydantic_problems(file, err, lines) + _raw_card_problems(file, raw, lines)
        raise ScenarioError(problems) from None
    from comparator.checks import check_scenario

    found = check_scenario(scenario)
    if found:
        lines = _line_map(text)
        raise ScenarioError([
            Problem(file, dotted(loc), msg, _line_for(lines, loc)) for loc, msg in found
        ])
    return resolve_cards(scenario)


def _raw_card_problems(
    file: str, raw: dict[str, Any], lines: dict[tuple[Any, ...], int]
) -> list[Problem]:
    """Unknown card names, found even when the rest of the file failed to parse, so that
    one run of `validate` shows them too."""
    cards = library()
    out = []
    permanents = raw.get("permanents")
    for i, p in enumerate(permanents if isinstance(permanents, list) else []):
        name = p.get("card") if isinstance(p, dict) else None
        if isinstance(name, str) and name not in cards:
            loc = ("permanents", i, "card")
            out.append(Problem(file, dotted(loc), f"unknown card {name!r} (not in the card "
                               f"library)", _line_for(lines, loc)))
    return out


def load(path: Path | str) -> Scenario:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError([Problem(str(path), "", f"can't read the file: {exc}")]) from None
    return parse(text, str(path))


def resolve_cards(scenario: Scenario) -> Scenario:
    """Merge each permanent's card into it: printed values unless overridden, the card's
    keywords and abilities plus the scenario's."""
    cards = library()
    permanents = []
    for spec in scenario.permanents:
        card = cards.get(spec.card) if spec.card else None
        if card is None:
            permanents.append(spec.model_copy(update={"types": spec.types or ["creature"]}))
            continue
        types = spec.types or (card.types + (["artifact"] if card.artifact else []))
        permanents.append(PermanentSpec.model_construct(**{
            **dict(spec),
            "name": card.name,
            "power": spec.power if spec.power is not None else card.power,
            "toughness": spec.toughness if spec.toughness is not None else card.toughness,
            "keywords": list(card.keywords) + list(spec.keywords),
            "abilities": list(card.abilities) + list(spec.abilities),
            "colors": spec.colors or list(card.colors),
            "types": types,
        }))
    return scenario.model_copy(update={"permanents": permanents})
