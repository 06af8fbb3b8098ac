"""The shipped scenarios as `scenarios` lists them: each file's id, title and tags read as
plain YAML, neither validated nor run, so that the list comes at once (`catalog` runs
them)."""

from __future__ import annotations

from typing import Any

import yaml

from comparator.files.locations import shipped_scenarios
from comparator.text.phrases import own_japanese


def scenario_rows(japanese: bool = False) -> list[dict[str, Any]]:
    """Each shipped file's id, title, tags and path; `japanese`: its title the scenario's
    own Japanese one (`ja: title:`), where it has one."""
    rows = []
    for path in shipped_scenarios():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        title = own_japanese(raw, "title") if japanese else None
        rows.append({"id": raw.get("id"), "title": title or raw.get("title"),
                     "tags": raw.get("tags", []), "file": str(path)})
    return rows
