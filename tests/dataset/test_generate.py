"""`rulesdiff dataset generate`: reproducible, valid in every era, covering what the issue
asks for; and a generated folder built, killed and built again."""

import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.file_sets import path_of
from comparator.games.mtg.generate import GENERATOR_VERSION, scenario_document
from versions import ERA_IDS

runner = CliRunner()


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen") / "seed-5"
    result = runner.invoke(app, ["dataset", "generate", str(out), "--seed", "5", "--count",
                                 "400", "--json"])
    assert result.exit_code == 0, result.output
    return out


def runs_of(folder: Path) -> dict[str, int]:
    """How many eras run each generated scenario (an era refuses what its rules lacked)."""
    from comparator.scenarios.loader import load
    from versions import find_era

    out = {}
    for i in range(400):
        scenario = load(path_of(folder, i))
        out[scenario.id] = sum(1 for e in ERA_IDS if not find_era(e)().refusal(scenario))
    return out


def docs(folder: Path, n: int) -> list[dict]:
    return [yaml.safe_load(path_of(folder, i).read_text()) for i in range(n)]


def test_the_same_seed_gives_the_same_files(generated, tmp_path):
    again = tmp_path / "again"
    runner.invoke(app, ["dataset", "generate", str(again), "--seed", "5", "--count", "50",
                        "--jobs", "1"])
    for i in range(50):
        assert path_of(again, i).read_text() == path_of(generated, i).read_text()
    other = scenario_document(6, 0)
    assert other != scenario_document(5, 0) and other["id"] == "gen-6-0000000"


def test_checking_a_board_again_takes_its_players_and_permanents_as_checked(generated):
    """The generator validates a drawn board's players and permanents once, before its
    blocks and tricks are drawn, and takes them as they are when the whole document is
    checked: that must be the scenario the whole document gives, cards merged in too."""
    from comparator.games.mtg import generate
    from comparator.games.mtg.loading import parse, resolve_cards

    for doc in docs(generated, 150):
        whole = generate._checked(doc)
        again = generate._checked(doc, whole)
        assert again == whole
        resolved = resolve_cards(whole)
        merged = again.model_copy(update={"players": resolved.players,
                                          "permanents": resolved.permanents})
        assert merged == resolve_cards(again) == parse(json.dumps(doc), "x", doc)


def test_a_drawn_document_is_checked_as_its_file_reads(generated):
    """The generator validates the document it drew as it is, not written out and read
    back: the same model as the file's text gives, and the document left as it was."""
    import copy

    from comparator.games.mtg import generate
    from comparator.games.mtg.loading import checked

    for i, doc in enumerate(docs(generated, 100)):
        drawn = scenario_document(5, i)
        before = copy.deepcopy(drawn)
        text = path_of(generated, i).read_text()
        assert generate._checked(drawn) == checked(text, "x", yaml.safe_load(text))
        assert drawn == before == doc


def test_a_new_file_is_whole_or_absent(tmp_path, monkeypatch):
    """Files of a folder the generation made are written in place, in one call: a full
    disk leaves no part of one; one found there after all is replaced whole."""
    import errno
    import os

    from comparator.dataset import generate

    path = tmp_path / "0000001.yaml"
    generate._write_new(str(path), b"id: a\n")
    assert path.read_bytes() == b"id: a\n"
    generate._write_new(str(path), b"id: b\n")  # there already: replaced, not appended to
    assert path.read_bytes() == b"id: b\n"

    def full(fd: int, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError):
        generate._write_new(str(tmp_path / "0000002.yaml"), b"id: c\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0000001.yaml"]

    # Another generation put its whole file there meanwhile: a failed write leaves it.
    other = tmp_path / "0000003.yaml"
    monkeypatch.undo()

    def replaced_then_full(fd: int, data: object) -> int:
        theirs = tmp_path / "theirs.tmp"
        theirs.write_bytes(b"id: theirs\n")  # through io, not the os.write patched here
        os.replace(theirs, other)
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", replaced_then_full)
    with pytest.raises(OSError):
        generate._write_new(str(other), b"id: mine\n")
    monkeypatch.undo()
    assert other.read_bytes() == b"id: theirs\n"


def test_every_generated_file_passes_validate(generated):
    result = runner.invoke(app, ["validate", str(generated), "--json"])
    assert result.exit_code == 0, result.output[:2000]
    assert json.loads(result.output) == {"files": 400, "ok": True, "problems": [],
                                         "warnings": []}


def test_the_distribution_covers_what_the_dataset_needs(generated):
    found = docs(generated, 400)
    blocks = [d["combat"].get("blocks", {}) for d in found]
    by_attacker = [[a for v in b.values() for a in (v if isinstance(v, list) else [v])]
                   for b in blocks]
    assert sum(any(att.count(a) > 1 for a in att) for att in by_attacker) > 40  # multi-blocks
    assert any(isinstance(v, list) for b in blocks for v in b.values())  # one blocks several
    text = "\n".join(yaml.safe_dump(d) for d in found)
    for word in ("trample", "deathtouch", "first-strike", "double-strike", "lifelink",
                 "flying", "rampage", "bushido", "flanking", "lure", "must-block",
                 "trigger: blocks", "most-kills", "card: "):
        assert word in text, word
    actions = [a for d in found for a in d.get("actions", [])]
    assert {a["effect"] for a in actions} == {"pump", "damage", "bounce", "sacrifice",
                                              "regenerate", "prevent"}
    assert {a["at"] for a in actions} >= {"damage-on-stack", "first-strike-damage-on-stack",
                                          "declare-blockers", "combat-damage"}
    assert any(isinstance(d["combat"].get("assign", {}).get(a), dict)
               for d in found for a in d["combat"].get("assign", {}))


def test_a_generated_folder_builds_with_its_manifest(generated, tmp_path):
    db = tmp_path / "g.db"
    result = runner.invoke(app, ["dataset", "build", str(generated), "--db", str(db),
                                 "--json", "--batch", "100"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["scenarios"] == 400
    assert summary["runs"] == 400 * len(ERA_IDS) - sum(summary.get("refused", {}).values())
    assert summary["generated"] == [{"seed": 5, "count": 400, "generator": GENERATOR_VERSION}]
    assert 0 < summary["diverging"] < 400
    with sqlite3.connect(db) as conn:
        [(seed, count, params)] = conn.execute(
            "SELECT seed, count, parameters_json FROM generation").fetchall()
        assert (seed, count) == (5, 400) and json.loads(params)["blockers"] == [0, 4]
    again = runner.invoke(app, ["dataset", "build", str(generated), "--db", str(db)])
    assert again.exit_code == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM generation").fetchone()[0] == 1
        assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == summary["runs"]


def test_a_killed_build_keeps_whole_batches_and_a_rerun_completes_it(generated, tmp_path):
    db = tmp_path / "killed.db"
    cmd = [sys.executable, "-m", "comparator", "dataset", "build", str(generated), "--db",
           str(db), "--batch", "10", "--jobs", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stored = 0
    deadline = time.time() + 120
    while time.time() < deadline and not stored:
        time.sleep(0.2)
        if db.exists():
            # OperationalError: the tables are not made yet.
            with contextlib.suppress(sqlite3.OperationalError), sqlite3.connect(db) as conn:
                stored = conn.execute("SELECT COUNT(*) FROM run").fetchone()[0]
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as conn:
        runs = conn.execute("SELECT COUNT(*) FROM run").fetchone()[0]
        scenarios = conn.execute("SELECT COUNT(*) FROM scenario").fetchone()[0]
    expected = runs_of(generated)
    assert 0 < runs < sum(expected.values()) and scenarios % 10 == 0
    with sqlite3.connect(db) as conn:  # whole batches: every stored scenario has all its runs
        for scenario_id, n in conn.execute(
                "SELECT s.id, COUNT(*) FROM run r JOIN scenario s "
                "ON s.scenario_key = r.scenario_key GROUP BY 1"):
            assert n == expected[scenario_id]
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert rerun.returncode in (0, 1), rerun.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM run").fetchone()[0] == sum(expected.values())
        assert conn.execute("SELECT COUNT(DISTINCT scenario_key) FROM run").fetchone()[0] == 400


def test_bad_arguments_and_a_damaged_manifest(generated, tmp_path):
    assert runner.invoke(app, ["dataset", "generate", str(tmp_path / "x"), "--count",
                               "0"]).exit_code == 2
    a_file = tmp_path / "f"
    a_file.write_text("")
    assert runner.invoke(app, ["dataset", "generate", str(a_file)]).exit_code == 2
    again = runner.invoke(app, ["dataset", "generate", str(generated), "--seed", "5",
                                "--count", "3"])
    assert again.exit_code == 0  # a generated folder: generating again resumes it
    assert json.loads((generated / "generator.json").read_text())["count"] == 400
    other = runner.invoke(app, ["dataset", "generate", str(generated), "--seed", "6"])
    assert other.exit_code == 2 and "seed 5" in other.output
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "mine.yaml").write_text("id: x\n")
    refused = runner.invoke(app, ["dataset", "generate", str(occupied)])
    assert refused.exit_code == 2 and "holds scenario files" in refused.output
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "generator.json").write_text("{not json")
    built = runner.invoke(app, ["dataset", "build", str(damaged), "--db",
                                str(tmp_path / "d.db")])
    assert built.exit_code == 2 and "generator.json" in built.output


def test_a_generated_folder_verified_by_its_bytes_is_not_checked_again(generated, tmp_path,
                                                                        monkeypatch):
    import shutil

    from comparator.dataset import runs as dataset_module

    manifest = json.loads((generated / "generator.json").read_text())
    assert manifest["files"]["range"] == 250 and len(manifest["files"]["sha256"]) == 64
    checked: list[str] = []
    real = dataset_module.check_files
    monkeypatch.setattr(dataset_module, "check_files",
                        lambda paths, eras: (checked.extend(map(str, paths)), real(paths,
                                                                                   eras)))
    db = tmp_path / "v.db"
    r = runner.invoke(app, ["dataset", "build", str(generated), "--db", str(db), "--jobs",
                            "1", "--json"])
    assert r.exit_code == 0, r.output
    assert checked == []  # every file is what the generator wrote and checked
    # A copy with one file changed is not what was generated: every file is checked again,
    # and a bad one is refused before anything is written.
    copy = tmp_path / "copy"
    shutil.copytree(generated, copy)
    first = path_of(copy, 0)
    first.write_text(first.read_text().replace('"active": "A"', '"active": "Nobody"'))
    db2 = tmp_path / "w.db"
    r = runner.invoke(app, ["dataset", "build", str(copy), "--db", str(db2), "--jobs", "1"])
    assert r.exit_code == 2 and "0000000.yaml" in r.output and "active" in r.output
    assert checked and checked[0].endswith("0000000.yaml")  # checked, not verified
    assert not db2.exists()  # refused before anything is stored
    # A folder whose generation did not finish says nothing of its files: checked.
    unfinished = json.loads((copy / "generator.json").read_text())
    del unfinished["files"]
    (copy / "generator.json").write_text(json.dumps(unfinished))
    first.write_text(path_of(generated, 0).read_text())
    checked.clear()
    r = runner.invoke(app, ["dataset", "build", str(copy), "--db", str(db2), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert len(checked) == 400


def test_a_generated_folder_is_built_from_its_own_sequence_of_files(generated, tmp_path):
    """`dataset.build` takes a generated folder's files as they are (`Generated`, as the
    engine benchmark passes them): each file checked until the folder's bytes are
    verified. (A `verified` that was a flag, not the sequences' method, made it fail.)"""
    from comparator.dataset.runs import build
    from comparator.files.file_sets import Generated, read_manifest, verify_generated
    from comparator.store.database import open_engine

    files = Generated(generated, 30, read_manifest(generated))
    assert not files.verified(0)
    checked: list[int] = []
    engine = open_engine(str(tmp_path / "plain.db"))
    assert sum(len(b) for b in build(engine, files, ["m11"], checking=checked.append)) == 30
    assert sum(checked) == 30
    whole = Generated(generated, 400, read_manifest(generated))
    assert verify_generated(whole) and whole.verified(0) and whole.verified(399)


def test_multiplayer_boards_are_drawn_legal_and_played(tmp_path):
    """`--multiplayer SHARE` draws that share of the boards as multiplayer games
    (docs/multiplayer.md): Free-for-All of three or four players attacking several, and
    Two-Headed Giant; each valid, its blocks legal in every era that can run it, and the
    share in the manifest, so that a folder is resumed only with the same."""
    from comparator.scenarios.loader import load
    from versions import NotInEra, run

    out = tmp_path / "mp"
    done = runner.invoke(app, ["dataset", "generate", str(out), "--seed", "11", "--count",
                               "40", "--multiplayer", "1", "--json"])
    assert done.exit_code == 0, done.output
    paths = [path_of(out, i) for i in range(40)]
    docs = [yaml.safe_load(p.read_text()) for p in paths]
    variants = {d["multiplayer"]["variant"] for d in docs}
    assert variants == {"free-for-all", "two-headed-giant"}
    for d in docs:
        names = [p["name"] for p in d["players"]]
        if d["multiplayer"]["variant"] == "two-headed-giant":
            assert [p["team"] for p in d["players"]] == ["ab", "ab", "cd", "cd"]
            assert set(d["combat"]["attacks"].values()) <= {"C", "D"}
        else:
            assert len(names) in (3, 4)
            assert set(d["combat"]["attacks"].values()) <= set(names[1:])
    several = [d for d in docs if d["multiplayer"]["variant"] == "free-for-all"
               and len(set(d["combat"]["attacks"].values())) > 1]
    assert several, "no board attacks two players at once"
    ran = 0
    for path in paths:
        scenario = load(path)
        for era in ("sixth", "m10", "m11", "foundations"):
            try:
                out_ = run(era, scenario)
            except NotInEra:
                continue
            ran += 1
            assert set(out_["players"]) == {p.name for p in scenario.players}
    assert ran > 100
    manifest = json.loads((out / "generator.json").read_text())
    assert manifest["parameters"]["multiplayer_share"] == 1.0
    again = runner.invoke(app, ["dataset", "generate", str(out), "--seed", "11", "--count",
                                "40"])
    assert again.exit_code == 2 and "--multiplayer 1.0" in again.output
