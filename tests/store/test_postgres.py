"""The store on a real PostgreSQL server that the tests start (tests/postgres_server.py):
build, check, export, show, the views, explorations, bad input and parallel writers, each
compared with the same work on SQLite."""

import json
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text
from stored_rows import EXAMPLE, VIEWS, counts, rows, sqlite_url, variants
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir
from comparator.store.packing import pack, unpack
from versions import ERA_IDS

runner = CliRunner()
# Each run's outcome as stored: packing is deterministic, so the same bytes on both.
PACKED = ("SELECT s.id, r.era, r.engine_version, r.packed_outcome FROM run r "
          "JOIN scenario s ON s.scenario_key = r.scenario_key")








def invoke(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code in (0, 1), result.output
    return result


def test_build_check_export_show_match_sqlite(postgres_url, tmp_path):
    lite = sqlite_url(tmp_path / "d.db")
    for url in (postgres_url, lite):
        built = invoke("dataset", "build", "--db", url, "--json", "--jobs", "1")
        assert json.loads(built.output)["scenarios"] == len(list(scenarios_dir().glob(
            "*.yaml")))
    assert counts(postgres_url) == counts(lite)
    assert counts(postgres_url)["run"] > 300
    assert rows(postgres_url, PACKED) == rows(lite, PACKED)
    files = "SELECT digest, scenario_key, refused FROM source_file"
    assert rows(postgres_url, files) == rows(lite, files) != []
    for view, columns in VIEWS.items():
        sql = f"SELECT {columns} FROM {view}"
        assert rows(postgres_url, sql) == rows(lite, sql) != []

    check = runner.invoke(app, ["dataset", "check", "--db", postgres_url, "--json"])
    assert check.exit_code == 0
    assert json.loads(check.output)["checked"] == counts(lite)["run"]

    for fmt in ("jsonl", "csv"):
        exported = [runner.invoke(app, ["dataset", "export", "--format", fmt, "--db", url]).output
                    for url in (postgres_url, lite)]
        assert exported[0] == exported[1] and exported[0]
    from comparator.dataset.parquet import read_back

    tables = []
    for i, url in enumerate((postgres_url, lite)):
        out = tmp_path / f"parquet-{i}"
        assert runner.invoke(app, ["dataset", "export", "--format", "parquet", "--out",
                                   str(out), "--db", url]).exit_code == 0
        tables.append({name: [{k: v for k, v in row.items() if k != "first_stored"}
                              for row in read_back(out / f"{name}.parquet")]
                       for name in ("scenarios", "runs", "divergences")})
    assert tables[0] == tables[1] and tables[0]["runs"]

    shown = [json.loads(runner.invoke(app, ["show", EXAMPLE, "--json", "--db", url]).output)
             for url in (postgres_url, lite)]
    for doc in shown:
        for version in doc["versions"]:
            version.pop("first_stored")
            for run in version["runs"]:
                run.pop("created")
    assert shown[0] == shown[1]

    # Idempotent: the same build again adds nothing.
    before = counts(postgres_url)
    invoke("dataset", "build", "--db", postgres_url, "--jobs", "1")
    assert counts(postgres_url) == before


def test_a_changed_outcome_is_reported_by_check(postgres_url):
    invoke("diff", EXAMPLE, "--db", postgres_url)
    engine = create_engine(postgres_url)
    with engine.begin() as conn:
        # A zone changed (not the players' graveyard lists), in the packed outcome.
        for run_id, packed in conn.execute(text(
                "SELECT run_id, packed_outcome FROM run WHERE era = 'm10'")).all():
            changed = unpack(packed, "m10").replace('"zone":"graveyard"', '"zone":"exile"')
            conn.execute(text("UPDATE run SET packed_outcome = :p WHERE run_id = :r"),
                         {"p": pack(changed, "m10"), "r": run_id})
    engine.dispose()
    check = runner.invoke(app, ["dataset", "check", "--db", postgres_url, "--json"])
    assert check.exit_code == 1
    changed = json.loads(check.output)["changes"]
    assert changed and {c["era"] for c in changed} == {"m10"}
    assert {c["stored"] for c in changed} == {"exile"}


def test_explorations_are_stored(postgres_url):
    result = runner.invoke(app, ["explore", EXAMPLE, "--db", postgres_url])
    assert result.exit_code == 1, result.output
    assert counts(postgres_url)["exploration"] == len(ERA_IDS)


def test_bad_input_writes_nothing(postgres_url, tmp_path):
    folder = variants(tmp_path / "s", 3)
    (folder / "zz-broken.yaml").write_text("id: broken\ntitle: x\nplayers: 3\n")
    result = runner.invoke(app, ["dataset", "build", str(folder), "--db", postgres_url])
    assert result.exit_code == 2 and "zz-broken.yaml" in result.output
    assert counts(postgres_url)["run"] == 0


@pytest.mark.parametrize("writers", [4])
def test_parallel_writers_from_several_processes(postgres_url, tmp_path, writers):
    """Several `rulesdiff` processes building overlapping sets at once, into one new
    database: nothing lost, nothing doubled, the same rows as one build on SQLite."""
    shared = variants(tmp_path / "shared", 6, "shared")
    folders = [variants(tmp_path / f"own{i}", 3, f"own{i}") for i in range(writers)]
    procs = [subprocess.Popen(
        [sys.executable, "-m", "comparator", "dataset", "build", str(shared), str(own),
         "--db", postgres_url, "--batch", "2", "--jobs", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for own in folders]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode in (0, 1), err
    lite = sqlite_url(tmp_path / "one.db")
    invoke("dataset", "build", str(shared), *map(str, folders), "--db", lite, "--jobs", "1")
    assert counts(postgres_url) == counts(lite)
    assert counts(lite)["scenario"] == 6 + 3 * writers


def test_rules_texts_and_history_match_sqlite(postgres_url, tmp_path):
    """`rules import`, `rules show`, `history` and `rules check` give the same on
    PostgreSQL, and a version-5 store (no kinds, no glossary) is upgraded there too."""
    from helpers import write_cr

    old = write_cr(tmp_path / "a.txt", "May 1, 2009", [
        ("310.2c", "A blocked creature will assign combat damage, divided as its controller "
                   "chooses, to the creatures blocking it.")], "310. Combat Damage Step")
    new = write_cr(tmp_path / "b.txt", "July 11, 2009", [
        ("510.1c", "A blocked creature assigns its combat damage to the creatures blocking "
                   "it, according to the damage assignment order announced for it.")],
        "510. Combat Damage Step")
    lite = sqlite_url(tmp_path / "r.db")
    out = {}
    for url in (postgres_url, lite):
        assert runner.invoke(app, ["rules", "import", str(old), str(new), "--db", url]
                             ).exit_code == 0
        shown = runner.invoke(app, ["rules", "show", "510.1c", "--db", url, "--json"])
        trail = runner.invoke(app, ["history", "510.1c", "--db", url, "--json"])
        check = runner.invoke(app, ["rules", "check", "--db", url, "--json"])
        assert check.exit_code == 1  # the fixtures hold two rules of the many cited
        out[url] = (json.loads(shown.output), json.loads(trail.output),
                    json.loads(check.output))
    assert out[postgres_url] == out[lite]
    assert [v["number"] for v in out[lite][1]["versions"]] == ["310.2c", "510.1c"]
    engine = create_engine(postgres_url)
    with engine.begin() as conn:  # back to the schema of version 5
        conn.execute(text("DROP TABLE rule_glossary"))
        conn.execute(text("ALTER TABLE rule_document DROP COLUMN game"))
        conn.execute(text("ALTER TABLE rule_document DROP COLUMN kind"))
        conn.execute(text("UPDATE meta SET value = '5' WHERE key = 'schema_version'"))
    engine.dispose()
    again = runner.invoke(app, ["rules", "show", "510.1c", "--db", postgres_url, "--json"])
    assert again.exit_code == 0 and json.loads(again.output) == out[lite][0]
