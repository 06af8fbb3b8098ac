"""Read and change a SQLite store's rows as the tests need them: outcomes and scenarios
are packed (comparator/store/packing.py), so raw SQL sees bytes; these give and take text."""

from __future__ import annotations

import sqlite3
from typing import Any

from comparator.store.packing import SCENARIO, digest, pack, unpack

RUNS = ("SELECT r.run_id, s.id, r.era, r.engine_version, s.content_hash, r.packed_outcome "
        "FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key")


def runs(conn: sqlite3.Connection, where: str = "", *args: Any) -> list[dict[str, Any]]:
    """Every run (or those `where` picks: `r.` and `s.` name run and scenario), in run_id
    order, with its outcome JSON as text and its hashes in hex."""
    out = []
    for run_id, sid, era, version, content_hash, packed in conn.execute(
            f"{RUNS} {where} ORDER BY r.run_id", args):
        text = unpack(packed, era)
        out.append({"run_id": run_id, "scenario_id": sid, "era": era,
                    "engine_version": version, "scenario_hash": bytes(content_hash).hex(),
                    "outcome_hash": digest(text).hex(), "outcome_json": text})
    return out


def scenarios(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    out = []
    for sid, content_hash, title, tags, sources, stored, packed in conn.execute(
            "SELECT s.id, s.content_hash, s.title, s.tags, s.sources, b.stored, s.packed_json "
            "FROM scenario s JOIN batch b ON b.batch_id = s.batch_id ORDER BY s.id"):
        out.append({"id": sid, "content_hash": bytes(content_hash).hex(), "title": title,
                    "tags": tags, "sources": sources, "first_stored": stored,
                    "canonical_json": unpack(packed, SCENARIO)})
    return out


def set_outcome(conn: sqlite3.Connection, run_id: int, text: str) -> None:
    (era,) = conn.execute("SELECT era FROM run WHERE run_id = ?", (run_id,)).fetchone()
    conn.execute("UPDATE run SET packed_outcome = ? WHERE run_id = ?", (pack(text, era), run_id))


def damage_outcomes(conn: sqlite3.Connection, where: str = "") -> None:
    """Outcomes that no longer unpack: a damaged database."""
    conn.execute(f"UPDATE run SET packed_outcome = X'01FFFF' {where}")
