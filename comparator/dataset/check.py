"""`dataset check`: every stored scenario version run again with this engine, and what
changed, field by field. The runs are streamed from the store, so memory stays flat."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from comparator.compare.running import (
    run_all,
)
from comparator.files.problems import ScenarioError
from comparator.scenarios.loader import model_for
from comparator.store.packing import SCENARIO
from comparator.store.reading import _streamed, stored_json, stored_outcome, stored_text
from comparator.store.schema import NEWEST_AND_FIRST


@dataclass
class Change:
    scenario: str
    era: str
    path: str
    stored: Any
    now: Any


def _check_rows(engine: Any) -> Iterator[Any]:
    """The newest run of each (scenario, era) with its scenario's canonical JSON, in the
    order each was first stored, streamed."""
    return _streamed(engine, (
        f"SELECT r.run_id, s.id AS scenario_id, r.era, r.packed_outcome, s.content_hash, "
        f"s.packed_json FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key "
        f"JOIN ({NEWEST_AND_FIRST}) k ON r.run_id = k.newest ORDER BY k.first_run"))


def check(engine: Any) -> tuple[int, list[Change]]:
    """Re-run every stored scenario version with this engine; what changed per field.
    The runs are streamed from the store, so memory stays flat whatever its size (only
    the changes are kept)."""
    from deepdiff import DeepDiff

    from comparator.compare.diffing import state_path

    changes: list[Change] = []
    checked = 0
    parsed: tuple[bytes, Any] | None = None  # the last scenario read: its eras come together
    for run in _check_rows(engine):
        checked += 1
        content_hash = bytes(run.content_hash)
        shown = content_hash.hex()[:12]
        try:
            if parsed is None or parsed[0] != content_hash:
                raw = stored_json(stored_text(run.packed_json, SCENARIO, "scenario", shown),
                                  "scenario", shown)
                parsed = (content_hash, model_for(raw).model_validate(raw))
            now = run_all(parsed[1], [run.era])[run.era]
        except (ValidationError, ScenarioError) as exc:
            raise ValueError(f"table scenario, row {shown}: not a scenario "
                             f"this rulesdiff can run ({str(exc).splitlines()[0]})") from None
        stored = stored_outcome(run)
        if now == stored:
            continue
        diff = DeepDiff(stored, now, view="tree", verbose_level=2)
        for report in diff.values():
            for item in report:
                path = item.path(output_format="list")
                changes.append(Change(run.scenario_id, run.era, state_path(path),
                                      _value(item.t1), _value(item.t2)))
    return checked, changes


def _value(v: Any) -> Any:
    from deepdiff.helper import NotPresent

    return None if isinstance(v, NotPresent) else v
