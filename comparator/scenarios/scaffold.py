"""`rulesdiff new`: a first scenario without guessing, written from the commented
template every top-level field of which is explained (docs/scenario-format.md shows it)."""

from __future__ import annotations

import re
from pathlib import Path

from comparator.files.locations import template_file


class ScaffoldError(Exception):
    """The file can't be written: one line for the user."""


def scenario_id(name: str) -> str:
    """A scenario id from a name: lowercase letters, digits and '-'."""
    slug = re.sub(r"[^a-z0-9]+", "-", Path(name).stem.lower()).strip("-")
    if not slug:
        raise ScaffoldError(f"{name!r}: a scenario name needs a letter or a digit")
    return slug[:80]


def new_scenario(name: str) -> Path:
    """Write the template as ID.yaml, ID made from NAME ("My First" -> my-first.yaml; a
    NAME ending in .yaml is the path as given), its `id:` the same; never over an existing
    file."""
    given = Path(name)
    path = given if name.endswith((".yaml", ".yml")) else given.with_name(
        f"{scenario_id(name)}.yaml")
    text = template_file().read_text(encoding="utf-8")
    text = text.replace("\nid: NAME ", f"\nid: {scenario_id(name)} ", 1)
    try:
        with path.open("x", encoding="utf-8") as f:  # "x": an existing file is kept
            f.write(text)
    except FileExistsError:
        raise ScaffoldError(f"{path}: the file exists; choose another name") from None
    except OSError as exc:
        raise ScaffoldError(f"{path}: can't write it: {exc.strerror or exc}") from None
    return path
