"""The store's reads on SQLite and PostgreSQL: the newest run of each scenario and era,
chosen in SQL, and the one schema-version check of both ways of opening a database."""

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import Session, col, select
from stored_rows import EXAMPLE, variants
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.store.database import StoreError, latest_runs, open_engine
from comparator.store.schema import RunRow, ScenarioRow

runner = CliRunner()


def every_run(session: Session) -> list[Any]:
    """Every run, in run_id order, with its scenario's id."""
    return list(session.exec(select(RunRow.run_id, RunRow.era, ScenarioRow.id.label(
        "scenario_id")).join(ScenarioRow, col(ScenarioRow.scenario_key) == col(
            RunRow.scenario_key)).order_by(col(RunRow.run_id))).all())


def newest_in_python(session: Session) -> list[Any]:
    """What latest_runs returned when it read every run: the last run of each (scenario,
    era), in the order each pair was first stored."""
    newest: dict[tuple[str, str], Any] = {}
    for r in every_run(session):
        newest[(r.scenario_id, r.era)] = r
    return list(newest.values())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'd.db'}"
    return request.getfixturevalue("postgres_url")


def test_latest_runs_are_the_newest_of_each_scenario_and_era(db_url, tmp_path):
    folder = variants(tmp_path / "v", 2)
    first = folder / "v-0.yaml"
    for args in (["diff", str(first)], ["diff", str(folder / "v-1.yaml")]):
        assert runner.invoke(app, [*args, "--db", db_url]).exit_code == 1
    # A second version of v-0, stored after v-1: its runs are v-0's newest, and v-0 still
    # comes first, as it was stored first.
    first.write_text(first.read_text().replace("life: 20}", "life: 30}"))
    assert runner.invoke(app, ["diff", str(first), "--db", db_url]).exit_code == 1

    engine = open_engine(db_url, create=False)
    try:
        with Session(engine) as session:
            found = latest_runs(session)
            expected = newest_in_python(session)
            every = every_run(session)
    finally:
        engine.dispose()
    assert [r.run_id for r in found] == [r.run_id for r in expected]
    assert len(every) > len(found) == len({(r.scenario_id, r.era) for r in every})
    assert [r.scenario_id for r in found][0] == "v-0"
    newest_v0 = max(r.run_id for r in every if r.scenario_id == "v-0")
    assert newest_v0 in {r.run_id for r in found}


def test_latest_runs_of_an_empty_store(tmp_path):
    engine = open_engine(str(tmp_path / "empty.db"))
    with Session(engine) as session:
        assert latest_runs(session) == []
    engine.dispose()


def stored(tmp_path: Path) -> Path:
    db = tmp_path / "d.db"
    assert runner.invoke(app, ["diff", EXAMPLE, "--db", str(db)]).exit_code == 1
    return db


@pytest.mark.parametrize("create", [True, False])
@pytest.mark.parametrize("value, words", [
    ("99", "database schema version 99 is newer than this rulesdiff understands"),
    ("abc", "meta.schema_version is missing or not a number"),
    ("²", "meta.schema_version is missing or not a number"),
])
def test_both_ways_of_opening_refuse_a_bad_schema_version_alike(tmp_path, create, value,
                                                                 words):
    db = stored(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (value,))
    with pytest.raises(StoreError) as refused:
        open_engine(str(db), create=create)
    message = str(refused.value)
    assert message.startswith(f"sqlite:///{db}: ") and words in message


def test_a_missing_schema_version_is_refused(tmp_path):
    db = stored(tmp_path)
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'schema_version'")
    for create in (True, False):
        with pytest.raises(StoreError, match="missing or not a number"):
            open_engine(str(db), create=create)
