"""Read and change a SQLite store's rows as the tests need them: outcomes and scenarios
are packed (comparator/store/packing.py), so raw SQL sees bytes; these give and take text."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from comparator.files.locations import find_scenario
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


EXAMPLE = "giant-growth-vs-assignment-order"


def variants(folder: Path, n: int, prefix: str = "v") -> Path:
    """n distinct copies of the spec example (own id, own life total)."""
    text = find_scenario(EXAMPLE).read_text()
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = text.replace(f"id: {EXAMPLE}", f"id: {prefix}-{i}").replace(
            "{name: A, life: 20}", f"{{name: A, life: {20 + i}}}")
        (folder / f"{prefix}-{i}.yaml").write_text(body)
    return folder


TABLES = ["scenario", "run", "divergence", "era", "exploration"]


VIEWS = {"divergences_by_era_pair": "*", "survives_in_one_era": "*",
         # all but the time stored
         "latest_outcomes": "scenario_id, era, engine_version, life, losers, zones"}


def counts(url: str) -> dict[str, int]:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = {t: conn.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar_one()
                 for t in TABLES + list(VIEWS)}
    engine.dispose()
    return found


def rows(url: str, sql: str) -> list[tuple]:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = sorted(tuple(r) for r in conn.execute(text(sql)))
    engine.dispose()
    return found


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"
