"""`dataset build --scheduler` on a real Dask LocalCluster (worker processes), writing to a
real PostgreSQL server: the same rows as a build on SQLite with --jobs 1."""

import json

import pytest
from stored_rows import counts, rows, sqlite_url, variants
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import scenarios_dir

distributed = pytest.importorskip("distributed")
runner = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local


def test_cluster_build_matches_sqlite(cluster, postgres_url, tmp_path):
    more = variants(tmp_path / "more", 5)
    args = ["dataset", "build", str(scenarios_dir()), str(more), "--json", "--batch", "7"]
    on_cluster = runner.invoke(app, [*args, "--db", postgres_url, "--scheduler",
                                     cluster.scheduler_address])
    assert on_cluster.exit_code == 0, on_cluster.output
    lite = sqlite_url(tmp_path / "d.db")
    here = runner.invoke(app, [*args, "--db", lite, "--jobs", "1"])
    assert json.loads(on_cluster.output) == json.loads(here.output)
    assert counts(postgres_url) == counts(lite)
    sql = ("SELECT s.id, r.era, r.packed_outcome FROM run r JOIN scenario s "
           "ON s.scenario_key = r.scenario_key")
    assert rows(postgres_url, sql) == rows(lite, sql)
    # A rerun on the cluster runs nothing: every file is found stored from its bytes, and
    # its summary is read back from the store, as on one machine.
    again = runner.invoke(app, [*args, "--db", postgres_url, "--scheduler",
                                cluster.scheduler_address])
    assert again.exit_code == 0 and counts(postgres_url) == counts(lite)
    first, second = json.loads(on_cluster.output), json.loads(again.output)
    assert second["new"] == 0 and second["stored_before"] == first["scenarios"]
    assert {k: v for k, v in second.items() if k not in ("new", "stored_before")} == \
        {k: v for k, v in first.items() if k not in ("new", "stored_before")}
    files = "SELECT digest, scenario_key, refused FROM source_file"
    assert rows(postgres_url, files) == rows(lite, files) != []


def test_cluster_refuses_bad_input_before_writing(cluster, postgres_url, tmp_path):
    folder = variants(tmp_path / "s", 3)
    (folder / "zz-broken.yaml").write_text("id: broken\ntitle: x\nplayers: 3\n")
    result = runner.invoke(app, ["dataset", "build", str(folder), "--db", postgres_url,
                                 "--scheduler", cluster.scheduler_address])
    assert result.exit_code == 2 and "zz-broken.yaml" in result.output
    assert counts(postgres_url)["run"] == 0


def test_cluster_needs_a_shared_database_and_a_scheduler(tmp_path):
    lite = runner.invoke(app, ["dataset", "build", "--db", str(tmp_path / "d.db"),
                               "--scheduler", "tcp://127.0.0.1:1"])
    assert lite.exit_code == 2 and "PostgreSQL" in lite.output


def test_no_scheduler_at_the_address(postgres_url):
    result = runner.invoke(app, ["dataset", "build", "--db", postgres_url,
                                 "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in result.output
