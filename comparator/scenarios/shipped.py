"""The shipped scenarios as `scenarios` lists them: each file's id, title and tags read as
plain YAML, neither validated nor run, so that the list comes at once (`catalog` runs
them)."""

from __future__ import annotations

from typing import Any

import yaml

from comparator.files.locations import shipped_scenarios


def scenario_rows() -> list[dict[str, Any]]:
    rows = []
    for path in shipped_scenarios():
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        rows.append({"id": raw.get("id"), "title": raw.get("title"),
                     "tags": raw.get("tags", []), "file": str(path)})
    return rows
