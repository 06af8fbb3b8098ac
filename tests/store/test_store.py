"""The diff command and the SQLite store: shapes, exit codes, idempotence, regressions,
parallel writers, bad URLs, export, and transactions."""

import csv
import io
import itertools
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import stored_rows
from helpers import TRADE
from stored_rows import EXAMPLE, variants
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.compare import running as running_module
from comparator.dataset import runs as dataset_module
from comparator.files.locations import find_scenario
from versions import ERA_IDS

runner = CliRunner()




def count(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def test_diff_json_shape_and_exit_1_on_divergence(tmp_path):
    result = runner.invoke(app, ["diff", EXAMPLE, "--json", "--db", str(tmp_path / "d.db")])
    assert result.exit_code == 1
    doc = json.loads(result.output)
    assert set(doc) == {"schema", "scenario", "eras", "diverges", "outcomes", "divergences"}
    assert doc["eras"] == list(ERA_IDS) and doc["diverges"] is True
    zone = next(d for d in doc["divergences"] if d["path"] == "permanents.bear.zone")
    assert zone["values"] == {"alpha": "battlefield", "fourth": "battlefield",
                              "fifth": "battlefield", "sixth": "battlefield", "m10": "graveyard",
                              "m11": "graveyard", "foundations": "battlefield"}
    assert set(doc["outcomes"]["m10"]) >= {"players", "permanents", "events", "notes"}


def test_diff_exit_0_when_eras_agree(tmp_path):
    trade = tmp_path / "trade.yaml"
    trade.write_text(TRADE)
    result = runner.invoke(app, ["diff", str(trade), "--no-store"])
    assert result.exit_code == 0
    assert "no divergence" in result.output
    # Naming eras: m10 and m11 agree on this one; one era alone is not a comparison.
    two = runner.invoke(app, ["diff", EXAMPLE, "--era", "m10", "--era", "m11", "--no-store",
                              "--json"])
    assert two.exit_code == 0 and json.loads(two.output)["eras"] == ["m10", "m11"]
    one = runner.invoke(app, ["diff", EXAMPLE, "--era", "m10", "--no-store"])
    assert one.exit_code == 2 and "at least two eras" in one.output


def test_diff_table_and_verdict(tmp_path):
    result = runner.invoke(app, ["diff", EXAMPLE, "--no-store"])
    assert result.exit_code == 1
    assert "hawk.zone" in result.output
    verdict = "diverges on 10 fields: alpha, fourth, fifth, foundations ≠ sixth ≠ m10, m11"
    assert verdict in result.output
    assert "[509.2]" in result.output  # the rule that made m10 differ


def test_several_files_give_json_lines(tmp_path):
    folder = variants(tmp_path / "s", 2)
    result = runner.invoke(app, ["diff", str(folder), "--json", "--no-store"])
    lines = result.output.strip().splitlines()
    assert [json.loads(x)["scenario"] for x in lines] == ["v-0", "v-1"]


def test_bad_input_exit_2_nothing_stored(tmp_path):
    db = tmp_path / "d.db"
    broken = Path(__file__).parents[1] / "broken" / "references.yaml"
    result = runner.invoke(app, ["diff", EXAMPLE, str(broken), "--db", str(db)])
    assert result.exit_code == 2
    assert not db.exists()  # opened only once there is something to store


def test_store_is_idempotent_and_versions_changed_files(tmp_path):
    db = tmp_path / "d.db"
    args = ["diff", EXAMPLE, "--db", str(db)]
    runner.invoke(app, args)
    first = (count(db, "scenario"), count(db, "run"), count(db, "divergence"))
    runner.invoke(app, args)
    assert (count(db, "scenario"), count(db, "run"), count(db, "divergence")) == first
    assert first[:2] == (1, len(ERA_IDS))
    changed = tmp_path / "changed.yaml"
    changed.write_text(find_scenario(EXAMPLE).read_text().replace("power: 5", "power: 6"))
    runner.invoke(app, ["diff", str(changed), "--db", str(db)])
    assert count(db, "scenario") == 2 and count(db, "run") == 2 * len(ERA_IDS)  # old kept


def test_dataset_check_detects_a_changed_outcome(tmp_path):
    db = tmp_path / "d.db"
    assert runner.invoke(app, ["dataset", "build", "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["dataset", "check", "--db", str(db)]).exit_code == 0
    with sqlite3.connect(db) as conn:
        (row,) = stored_rows.runs(conn, "WHERE r.era = 'm10' AND s.id = ?", EXAMPLE)
        outcome = json.loads(row["outcome_json"])
        outcome["permanents"]["hawk"]["zone"] = "graveyard"
        stored_rows.set_outcome(conn, row["run_id"], json.dumps(outcome))
    result = runner.invoke(app, ["dataset", "check", "--db", str(db)])
    assert result.exit_code == 1
    assert (f'{EXAMPLE}: m10: permanents.hawk.zone: stored "graveyard", now "battlefield"'
            in result.output)


def test_parallel_writers_lose_nothing(tmp_path):
    db = tmp_path / "shared.db"
    procs = []
    for w in range(4):
        folder = variants(tmp_path / f"w{w}", 5, prefix=f"w{w}")
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "comparator", "dataset", "build", str(folder),
             "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    assert count(db, "scenario") == 20
    assert count(db, "run") == 20 * len(ERA_IDS)


@pytest.mark.parametrize("url", ["notadb://x", "sqlite:////no/such/dir/x.db"])
def test_bad_db_url_one_line_exit_2(url):
    result = runner.invoke(app, ["diff", EXAMPLE, "--db", url])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "database" in result.output


def test_newer_schema_is_refused(tmp_path):
    db = tmp_path / "d.db"
    runner.invoke(app, ["dataset", "build", "--db", str(db)])
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    result = runner.invoke(app, ["dataset", "check", "--db", str(db)])
    assert result.exit_code == 2 and "schema version 99 is newer" in result.output


def test_export_round_trips(tmp_path):
    db = tmp_path / "d.db"
    runner.invoke(app, ["dataset", "build", "--db", str(db)])
    with sqlite3.connect(db) as conn:
        stored = {(r["scenario_id"], r["era"]): json.loads(r["outcome_json"])
                  for r in stored_rows.runs(conn)}
        n_div = conn.execute("SELECT COUNT(*) FROM divergence").fetchone()[0]
    out = tmp_path / "x.jsonl"
    assert runner.invoke(app, ["dataset", "export", "--out", str(out), "--db",
                               str(db)]).exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    outcomes = {(r["scenario"], r["era"]): r["outcome"] for r in records
                if r["record"] == "outcome"}
    assert outcomes == stored
    assert sum(r["record"] == "divergence" for r in records) == n_div
    as_csv = runner.invoke(app, ["dataset", "export", "--format", "csv", "--db", str(db)])
    rows = list(csv.DictReader(io.StringIO(as_csv.output)))
    assert {(r["scenario"], r["era"]): json.loads(r["outcome"]) for r in rows
            if r["record"] == "outcome"} == stored


def test_interrupted_build_leaves_database_as_it_was(tmp_path, monkeypatch):
    db = tmp_path / "d.db"
    runner.invoke(app, ["diff", EXAMPLE, "--db", str(db)])
    before = (count(db, "scenario"), count(db, "run"), count(db, "divergence"))
    real = dataset_module.store_results

    def crash(session, engine_version, records):
        real(session, engine_version, records)  # rows written inside the transaction...
        raise RuntimeError("power cut")  # ...then the process dies

    monkeypatch.setattr(dataset_module, "store_results", crash)
    with pytest.raises(RuntimeError):
        dataset_module.save(__import__("comparator.store.database", fromlist=["x"]).open_engine(
            str(db)), running_module.run_files(list(variants(tmp_path / "n", 3).glob("*")),
                                               list(ERA_IDS)))
    assert (count(db, "scenario"), count(db, "run"), count(db, "divergence")) == before


def test_show_and_views(tmp_path):
    db = tmp_path / "d.db"
    runner.invoke(app, ["dataset", "build", "--db", str(db)])
    shown = json.loads(runner.invoke(app, ["show", EXAMPLE, "--json", "--db",
                                           str(db)]).output)
    assert [r["era"] for r in shown["versions"][0]["runs"]] == list(ERA_IDS)
    with sqlite3.connect(db) as conn:
        survivors = set(conn.execute(
            "SELECT permanent, surviving_era FROM survives_in_one_era "
            "WHERE scenario_id = ?", (EXAMPLE,)))
        pairs = {(a, b) for a, b, *_ in conn.execute("SELECT * FROM divergences_by_era_pair")}
    # The hawk lives in m10 and m11: in more than one era, so not listed.
    assert survivors == {("wurm", "sixth")}
    # Over the whole dataset every two eras of a game differ somewhere (m10 and m11 on
    # deathtouch; Duel Masters' two on what blocks); eras of two games are never compared.
    from versions import GAMES

    assert pairs == {pair for eras in GAMES.values()
                     for pair in itertools.combinations([e.id for e in eras], 2)}
    missing = runner.invoke(app, ["show", "nope", "--db", str(db)])
    assert missing.exit_code == 2


def test_era_pairs_are_stored_in_the_registry_order(tmp_path):
    db = tmp_path / "pairs.db"
    runner.invoke(app, ["diff", EXAMPLE, "--era", "m10", "--era", "sixth", "--db", str(db)])
    with sqlite3.connect(db) as conn:
        pairs = set(conn.execute("SELECT era_a, era_b FROM divergence"))
    assert pairs == {("sixth", "m10")}


def test_export_gives_the_newest_run_only(tmp_path):
    db = tmp_path / "latest.db"
    runner.invoke(app, ["diff", EXAMPLE, "--db", str(db)])
    changed = tmp_path / "changed.yaml"
    changed.write_text(find_scenario(EXAMPLE).read_text().replace("power: 5", "power: 6"))
    runner.invoke(app, ["diff", str(changed), "--db", str(db)])
    out = runner.invoke(app, ["dataset", "export", "--db", str(db)]).output
    records = [json.loads(line) for line in out.splitlines()]
    outcomes = [r for r in records if r["record"] == "outcome"]
    # Two versions stored, one record per era: the newer version's (the 6-power wurm).
    assert len(outcomes) == len(ERA_IDS)
    assert all(r["outcome"]["permanents"]["wurm"]["power"] == 6 for r in outcomes)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM latest_outcomes").fetchone()[0] == len(
            ERA_IDS)
        # Both versions diverge on the same fields, but only the newest is counted.
        newest = conn.execute("SELECT SUM(scenarios) FROM divergences_by_era_pair").fetchone()
        pairs = conn.execute("SELECT COUNT(*) FROM divergences_by_era_pair").fetchone()[0]
        assert newest[0] == pairs


def test_build_in_batches_on_several_processes(tmp_path):
    import shutil as sh

    folder = tmp_path / "some"
    folder.mkdir()
    for p in sorted(Path(find_scenario(EXAMPLE)).parent.glob("*.yaml"))[:12]:
        sh.copy(p, folder / p.name)
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    a = runner.invoke(app, ["dataset", "build", str(folder), "--db", str(one), "--jobs", "1",
                            "--batch", "5", "--json"])
    b = runner.invoke(app, ["dataset", "build", str(folder), "--db", str(two), "--jobs", "2",
                            "--batch", "5", "--json"])
    assert a.exit_code == 0 and b.exit_code == 0
    assert json.loads(a.output[a.output.index("{"):]) == json.loads(b.output[b.output.index("{"):])
    with sqlite3.connect(one) as c1, sqlite3.connect(two) as c2:
        def outcomes(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
            return sorted((r["scenario_id"], r["era"], r["outcome_hash"])
                          for r in stored_rows.runs(conn))

        assert outcomes(c1) == outcomes(c2)
        # Every era runs each file but the eras that refuse it (what their rules lacked).
        from comparator.scenarios.loader import load
        from versions import find_era

        accepted = sum(1 for p in folder.glob("*.yaml") for e in ERA_IDS
                       if not find_era(e)().refusal(load(p)))
        assert len(outcomes(c1)) == accepted > 12


def test_build_writes_nothing_when_one_file_is_bad(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a-good.yaml").write_text(find_scenario(EXAMPLE).read_text())
    (folder / "z-bad.yaml").write_text(
        (Path(__file__).parents[1] / "broken" / "illegal-block.yaml").read_text())
    db = tmp_path / "mixed.db"
    result = runner.invoke(app, ["dataset", "build", str(folder), "--db", str(db),
                                 "--batch", "1"])
    assert result.exit_code == 2 and "z-bad.yaml" in result.output
    assert not db.exists()  # refused before anything is stored: no database file


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_rebuild_runs_only_what_is_not_stored_and_reports_the_same(tmp_path, jobs):
    import shutil as sh

    folder = tmp_path / "some"
    folder.mkdir()
    # Shipped files with refusals and divergences among them, so every part of the
    # summary read back from the store is exercised.
    for p in sorted(Path(find_scenario(EXAMPLE)).parent.glob("*.yaml"))[:19]:
        sh.copy(p, folder / p.name)
    # One that every era refuses, as it expects: it has no run, and is stored all the same.
    sh.copy(find_scenario("menace-against-one-blocker"), folder / "menace.yaml")
    db = tmp_path / "d.db"

    def build() -> dict:
        r = runner.invoke(app, ["dataset", "build", str(folder), "--db", str(db), "--jobs",
                                jobs, "--batch", "7", "--json"])
        assert r.exit_code == 0, r.output
        return json.loads(r.output[r.output.index("{"):])

    first = build()
    assert (first["new"], first["stored_before"]) == (20, 0)
    runs = count(db, "run")
    assert first["runs"] == runs and first["diverging"] > 0 and first.get("refused")
    again = build()
    assert (again["new"], again["stored_before"]) == (0, 20)
    assert {k: v for k, v in again.items() if k not in ("new", "stored_before")} == \
        {k: v for k, v in first.items() if k not in ("new", "stored_before")}
    assert count(db, "run") == runs
    # A changed file is a new version: run and stored; the others are not run again.
    changed = sorted(folder.glob("*.yaml"))[0]
    changed.write_text(changed.read_text().replace("title:", "title: Changed -", 1))
    # Other bytes, the same scenario version (a comment): known by its version, not run.
    commented = sorted(folder.glob("*.yaml"))[1]
    commented.write_text("# a comment changes the bytes, not the scenario\n"
                         + commented.read_text())
    third = build()
    assert (third["new"], third["stored_before"]) == (1, 19)
    assert count(db, "scenario") == 21 and count(db, "source_file") == 22
    assert {k: v for k, v in third.items() if k not in ("new", "stored_before")} == \
        {k: v for k, v in build().items() if k not in ("new", "stored_before")}


def test_parquet_export_reads_back_as_the_sqlite_rows(tmp_path):
    from comparator.dataset.parquet import read_back

    db = tmp_path / "d.db"
    folder = variants(tmp_path / "v", 3)
    assert runner.invoke(app, ["dataset", "build", str(folder), "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["diff", str(find_scenario(EXAMPLE)), "--db",
                               str(db)]).exit_code == 1  # diverges: divergence rows
    out = tmp_path / "pq"
    r = runner.invoke(app, ["dataset", "export", "--format", "parquet", "--out", str(out),
                            "--db", str(db)])
    assert r.exit_code == 0, r.output
    with sqlite3.connect(db) as conn:
        runs = sorted(tuple(r[k] for k in ("scenario_id", "era", "engine_version",
                                           "scenario_hash", "outcome_hash", "outcome_json"))
                      for r in stored_rows.runs(conn))
        scenarios = [tuple(s.values())[:7] for s in stored_rows.scenarios(conn)]
        divergences = conn.execute(
            "SELECT s.id, era_a, era_b, path, value_a, value_b, engine_version "
            "FROM divergence d JOIN scenario s ON s.scenario_key = d.scenario_key "
            "ORDER BY s.id, era_a, era_b, path").fetchall()
    assert [tuple(r.values()) for r in read_back(out / "runs.parquet")] == runs
    assert [(r["scenario"], r["content_hash"], r["title"], json.dumps(r["tags"]),
             json.dumps(r["sources"]), r["first_stored"], r["scenario_json"])
            for r in read_back(out / "scenarios.parquet")] == [
        (i, h, t, json.dumps(json.loads(tags)), json.dumps(json.loads(src)), f, c)
        for i, h, t, tags, src, f, c in scenarios]
    assert [tuple(r.values()) for r in read_back(out / "divergences.parquet")] == divergences
    assert len(runs) > 4 and divergences
    # The files are what DuckDB, polars and pandas read: plain Parquet with zstd pages.
    import pyarrow.parquet as pq

    assert pq.ParquetFile(out / "runs.parquet" / "part-00000.parquet").schema_arrow.names == [
        "scenario", "era", "engine_version", "scenario_hash", "outcome_hash", "outcome_json"]


def test_a_parquet_table_is_a_folder_of_bounded_files_read_in_order(tmp_path, monkeypatch):
    """A file's writer holds its row groups' metadata until it closes: a table is split into
    files of ROW_GROUPS_PER_FILE row groups, which readers take as one table, in order. An
    older export's single file is replaced, and a failed export leaves the previous one."""
    import pyarrow.parquet as pq

    from comparator.dataset import parquet as parquet_export

    db = tmp_path / "d.db"
    assert runner.invoke(app, ["dataset", "build", str(variants(tmp_path / "v", 4)), "--db",
                               str(db)]).exit_code == 0
    out = tmp_path / "pq"
    out.mkdir()
    (out / "runs.parquet").write_text("an older export's single file")
    whole = runner.invoke(app, ["dataset", "export", "--db", str(db)]).output
    expected = [json.loads(line) for line in whole.splitlines()]
    outcomes = [(e["scenario"], e["era"], json.dumps(e["outcome"], separators=(",", ":")))
                for e in expected if e["record"] == "outcome"]
    monkeypatch.setattr(parquet_export, "PARQUET_BATCH", 3)
    monkeypatch.setattr(parquet_export, "ROW_GROUPS_PER_FILE", 2)
    r = runner.invoke(app, ["dataset", "export", "--format", "parquet", "--out", str(out),
                            "--db", str(db)])
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in (out / "runs.parquet").iterdir())
    assert len(outcomes) > 12 and len(files) == -(-len(outcomes) // 6)
    assert all(pq.ParquetFile(out / "runs.parquet" / f).metadata.num_row_groups <= 2
               for f in files)
    runs = parquet_export.read_back(out / "runs.parquet")
    assert [(r["scenario"], r["era"]) for r in runs] == [(s, e) for s, e, _ in outcomes]
    assert [json.loads(r["outcome_json"]) for r in runs] == [
        json.loads(text) for _, _, text in outcomes]
    assert sorted(p.name for p in out.iterdir()) == [
        "divergences.parquet", "runs.parquet", "scenarios.parquet"]
    with sqlite3.connect(db) as conn:  # the last run damaged: this export fails at its end
        stored_rows.damage_outcomes(conn, "WHERE run_id = (SELECT MAX(run_id) FROM run)")
    r = runner.invoke(app, ["dataset", "export", "--format", "parquet", "--out", str(out),
                            "--db", str(db)])
    assert r.exit_code == 2 and "damaged" in r.output
    assert sorted(p.name for p in (out / "runs.parquet").iterdir()) == files
    assert parquet_export.read_back(out / "runs.parquet") == runs
    assert sorted(p.name for p in out.iterdir()) == [
        "divergences.parquet", "runs.parquet", "scenarios.parquet"]


def test_parquet_export_needs_a_folder(tmp_path):
    db = tmp_path / "d.db"
    runner.invoke(app, ["diff", str(find_scenario(EXAMPLE)), "--db", str(db)])
    r = runner.invoke(app, ["dataset", "export", "--format", "parquet", "--db", str(db)])
    assert r.exit_code == 2 and "--out" in r.output
    (tmp_path / "file").write_text("x")
    r = runner.invoke(app, ["dataset", "export", "--format", "parquet", "--db", str(db),
                            "--out", str(tmp_path / "file")])
    assert r.exit_code == 2 and "not a folder" in r.output


def test_a_failed_export_leaves_no_half_written_file(tmp_path):
    db = tmp_path / "d.db"
    runner.invoke(app, ["diff", str(find_scenario(EXAMPLE)), "--db", str(db)])
    with sqlite3.connect(db) as conn:  # the last run damaged: the export fails at its end
        stored_rows.damage_outcomes(conn, "WHERE run_id = (SELECT MAX(run_id) FROM run)")
    out = tmp_path / "x.jsonl"
    out.write_text("the previous export\n")
    r = runner.invoke(app, ["dataset", "export", "--out", str(out), "--db", str(db)])
    assert r.exit_code == 2 and "damaged" in r.output
    assert out.read_text() == "the previous export\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_an_export_to_a_full_disk_is_one_line(tmp_path):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    db = tmp_path / "d.db"
    runner.invoke(app, ["diff", str(find_scenario(EXAMPLE)), "--db", str(db)])
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "comparator", "dataset", "export", "--db",
                            str(db)], stdout=full, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "No space left on device" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_long_export_does_not_keep_a_writer_waiting(tmp_path):
    from comparator.dataset.export import export_lines
    from comparator.store.database import open_engine

    db = tmp_path / "d.db"
    runner.invoke(app, ["diff", str(find_scenario(EXAMPLE)), "--db", str(db)])
    lines = export_lines(open_engine(str(db), create=False), "jsonl")
    assert next(lines).startswith('{"record": "outcome"')  # a read in progress
    other = find_scenario("lure-all-must-block")
    r = subprocess.run([sys.executable, "-m", "comparator", "diff", str(other), "--db",
                        str(db)], capture_output=True, text=True, timeout=25)
    assert r.returncode in (0, 1), r.stderr  # stored at once: no lock held by the reader
    assert count(db, "run") > len(ERA_IDS)
    lines.close()
