"""Read scenario files: YAML -> pydantic model -> cross-checks -> cards merged in.

Every problem is reported with its place (file, line, field path) and all problems of a
file are reported together, never just the first. A file that loads here never crashes
the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from comparator.files.documents import _yaml_hint, load_yaml
from comparator.files.guarded import read_text_file
from comparator.files.problems import Problem, ScenarioError

MAX_BYTES = 1_000_000  # a scenario file is a page of YAML, not a megabyte
















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
    from comparator.games.registry import game_id, game_named

    return game_named(game_id(raw)).parse(text, file, raw)


def model_for(raw: Any) -> Any:
    """The scenario model of the game a scenario document names (Magic's by default)."""
    from comparator.games.registry import game_id, game_named

    return game_named(game_id(raw)).model








def read_scenario_text(path: Path) -> str:
    """A scenario file's text (``read_text_file``, at most MAX_BYTES)."""
    try:
        return read_text_file(path, MAX_BYTES, "scenario")
    except ValueError as exc:
        file, _, why = str(exc).partition(": ")
        raise ScenarioError([Problem(file, "", why)]) from None




def load(path: Path | str) -> Any:
    path = Path(path)
    return parse(read_scenario_text(path), str(path))
