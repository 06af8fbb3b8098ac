"""Migration 8, the compact store, on a database the previous release wrote
(tests/fixtures/store-v7): nothing lost, every export and `show` byte for byte as that
release printed them, the views answering as before; on SQLite and on PostgreSQL."""

from __future__ import annotations

import gzip
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.store.packing import outcome_columns
from versions import ENGINE_VERSION

FIXTURE = Path(__file__).parents[1] / "fixtures" / "store-v7"
runner = CliRunner()


def fixture_text(name: str) -> str:
    return gzip.decompress((FIXTURE / f"{name}.gz").read_bytes()).decode()


@pytest.fixture
def v7(tmp_path: Path) -> Path:
    db = tmp_path / "v7.db"
    db.write_bytes(gzip.decompress((FIXTURE / "v7.db.gz").read_bytes()))
    return db


def printed(*args: str) -> str:
    done = runner.invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.output


def views(query: Callable[[str], Any]) -> dict[str, list[tuple[Any, ...]]]:
    """What two views answer; `query(sql)` gives a database's rows."""
    return {
        "pairs": sorted(tuple(r) for r in query(
            "SELECT era_a, era_b, scenarios, fields FROM divergences_by_era_pair")),
        "survivors": sorted(tuple(r) for r in query(
            "SELECT scenario_id, permanent, surviving_era FROM survives_in_one_era")),
    }


def test_a_version_7_database_upgrades_with_nothing_lost(v7, tmp_path):
    with sqlite3.connect(v7) as conn:
        before = views(conn.execute)
        latest = sorted((sid, era, version, created, *outcome_columns(json.loads(o)).values())
                        for sid, era, version, _, created, o in conn.execute(
                            "SELECT scenario_id, era, engine_version, outcome_hash, created, "
                            "outcome_json FROM latest_outcomes"))
        counts = {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ("scenario", "run", "divergence", "source_file", "exploration")}
    size = v7.stat().st_size
    # The first command that opens it upgrades it: the exports are the old release's.
    assert printed("dataset", "export", "--db", str(v7)) == fixture_text("export.jsonl")
    out = tmp_path / "export.csv"
    printed("dataset", "export", "--format", "csv", "--out", str(out), "--db", str(v7))
    assert out.read_bytes().decode() == fixture_text("export.csv")
    for scenario_id, name in (("cave-tiger-double-blocked", "show.json"),
                              ("gen-7-0000001", "show-gen.json")):
        shown = printed("show", scenario_id, "--json", "--db", str(v7))
        assert json.loads(shown) == json.loads(fixture_text(name))
    with sqlite3.connect(v7) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        assert meta["schema_version"] == "9" and "migration:8-compact-store" in meta
        assert views(conn.execute) == before
        assert sorted(tuple(r) for r in conn.execute(
            "SELECT scenario_id, era, engine_version, created, life, losers, zones "
            "FROM latest_outcomes")) == latest
        assert {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in counts} == counts
        assert not [t for (t,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE name LIKE 'v7_%'")]
    assert v7.stat().st_size < size / 2  # packed, and the old pages given back
    # The same files built again after the upgrade are found stored (their digests came
    # across), and so is the stored exploration.
    shipped = Path(__file__).parents[2] / "data" / "scenarios"
    files = [str(shipped / f"{name}.yaml") for name in (
        "fourth-mammoth-all-on-one-goblin", "attacking-band-and-rampage",
        "dm-second-attack-on-the-tapped-blocker", "dm-blocker-then-guardman-relay",
        "best-blocks-wall-and-bear")]
    built = printed("dataset", "build", *files, "--db", str(v7))
    written_by = json.loads(fixture_text("export.jsonl").splitlines()[0])["engine_version"]
    if written_by == ENGINE_VERSION:  # else a new engine version runs them anew
        assert "(0 new, 5 stored before by this engine version)" in built
    again = runner.invoke(app, ["explore", "best-blocks-wall-and-bear", "--db", str(v7),
                                "--json"])
    assert again.exit_code == 1 and json.loads(again.output)["eras"]  # the eras differ
    # Found stored when the engine is the fixture's; else explored anew, beside the old one.
    new = 0 if written_by == ENGINE_VERSION else len(json.loads(again.output)["eras"])
    with sqlite3.connect(v7) as conn:
        assert conn.execute("SELECT COUNT(*) FROM exploration").fetchone()[0] == \
            counts["exploration"] + new


def _v7_on_postgres(v7: Path, url: str) -> None:
    """The fixture's tables, indexes, sequences and rows, as the previous release made them
    on PostgreSQL (its schema reflected from the SQLite file)."""
    from sqlalchemy import LargeBinary, MetaData, create_engine, insert, select
    from sqlalchemy.types import BLOB

    source = create_engine(f"sqlite:///{v7}")
    target = create_engine(url)
    meta = MetaData()
    meta.reflect(source)
    for table in meta.tables.values():
        for column in table.columns:
            if isinstance(column.type, BLOB):
                column.type = LargeBinary()
    with source.connect() as src, target.begin() as dst:
        meta.create_all(dst)
        for table in meta.sorted_tables:
            rows = [dict(r._mapping) for r in src.execute(select(table))]
            if rows:
                dst.execute(insert(table), rows)
        for table, column in (("run", "run_id"), ("divergence", "divergence_id"),
                              ("exploration", "exploration_id")):
            dst.exec_driver_sql(f"SELECT setval(pg_get_serial_sequence('{table}', "
                                f"'{column}'), COALESCE(MAX({column}), 0) + 1, false) "
                                f"FROM {table}")
        from comparator.store.schema import VIEWS

        for name in VIEWS:  # views on the old tables, which the migration must drop
            dst.exec_driver_sql(f"CREATE VIEW {name} AS SELECT 1 AS one FROM run")
    source.dispose()
    target.dispose()


def test_a_version_7_database_upgrades_on_postgresql(v7, postgres_url):
    _v7_on_postgres(v7, postgres_url)
    assert printed("dataset", "export", "--db", postgres_url) == fixture_text("export.jsonl")
    shown = printed("show", "cave-tiger-double-blocked", "--json", "--db", postgres_url)
    assert json.loads(shown) == json.loads(fixture_text("show.json"))
    with sqlite3.connect(v7) as conn:
        before = views(conn.execute)
    from sqlalchemy import create_engine

    engine = create_engine(postgres_url)
    with engine.connect() as conn:
        assert views(lambda sql: conn.exec_driver_sql(sql).all()) == before
        version = conn.exec_driver_sql(
            "SELECT value FROM meta WHERE key = 'schema_version'").scalar()
        assert version == "9"
    engine.dispose()
    # New rows take ids after the copied ones.
    printed("dataset", "build", str(FIXTURE.parent.parent.parent / "data" / "scenarios" /
                                    "craw-giant-rampage.yaml"), "--db", postgres_url)


def test_a_version_1_database_takes_every_migration(v7):
    """Migrations 2 to 8 in turn, on the fixture made to look as a version-1 database."""
    with sqlite3.connect(v7) as conn:
        for table in ("exploration", "generation", "source_file", "rule_glossary",
                      "rule_text", "rule_document"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
        conn.execute("DELETE FROM meta WHERE key LIKE 'migration:%' AND key NOT LIKE "
                     "'migration:1-%'")
    assert printed("dataset", "export", "--db", str(v7)) == fixture_text("export.jsonl")
    with sqlite3.connect(v7) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["schema_version"] == "9"
    assert sorted(k for k in meta if k.startswith("migration:")) == [
        "migration:1-scenarios-runs-divergences", "migration:2-explorations",
        "migration:3-views-of-the-newest-runs", "migration:4-generations",
        "migration:5-rule-texts", "migration:6-rule-kinds-and-glossary",
        "migration:7-source-files", "migration:8-compact-store",
        "migration:9-rule-releases"]


def test_a_newer_database_is_refused(v7):
    with sqlite3.connect(v7) as conn:
        conn.execute("UPDATE meta SET value = '10' WHERE key = 'schema_version'")
    newer = runner.invoke(app, ["dataset", "export", "--db", str(v7)])
    assert newer.exit_code == 2 and "newer" in newer.output


def test_two_versions_diverging_on_the_same_field_export_in_the_order_stored(v7):
    """gen-7-0000001's two versions both have newest runs and diverge on the same fields:
    the first version's rows come first, as version 7 gave them."""
    lines = [json.loads(line) for line in printed("dataset", "export", "--db",
                                                  str(v7)).splitlines()]
    tied = [r for r in lines if r["record"] == "divergence" and
            r["scenario"] == "gen-7-0000001" and (r["era_a"], r["era_b"]) == ("sixth", "m10")]
    assert len(tied) == 12 and len({r["path"] for r in tied}) == 6
    with sqlite3.connect(v7) as conn:  # and the view counts the scenario once, by its id
        pairs = dict(((a, b), n) for a, b, n in conn.execute(
            "SELECT era_a, era_b, scenarios FROM divergences_by_era_pair"))
    assert pairs[("sixth", "m10")] == 1 + sum(  # gen-7-0000001 and the others
        1 for r in {(x["scenario"]) for x in lines if x["record"] == "divergence"
                    and (x["era_a"], x["era_b"]) == ("sixth", "m10")} if r != "gen-7-0000001")


@pytest.mark.parametrize("damage, said", [
    ("DELETE FROM scenario WHERE id = 'cave-tiger-double-blocked'",
     "its scenario version"),
    ("INSERT INTO scenario (content_hash, id, title, tags, sources, canonical_json, "
     "first_stored) VALUES ('not hex', 'x', 'x', '[]', '[]', '{}', '2026-12-03')",
     "not a SHA-256 in hex"),
    ("CREATE VIEW my_runs AS SELECT scenario_id, era FROM run", "view my_runs is not"),
])
def test_what_migration_8_cannot_carry_is_one_line_and_changes_nothing(v7, damage, said):
    with sqlite3.connect(v7) as conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        conn.execute(damage)
    done = runner.invoke(app, ["dataset", "export", "--db", str(v7)])
    assert done.exit_code == 2 and said in done.output, done.output
    assert len(done.output.strip().splitlines()) == 1
    with sqlite3.connect(v7) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                            ).fetchone()[0] == "7"
        assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'v7_%'"
                            ).fetchone()[0] == 0
