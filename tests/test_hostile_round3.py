"""Hostile input, third round (issue 49): the store's, the dataset's and the loader's part.
A stored row nested thousands deep, an MTGJSON file nested as deep, a scenario's unknown
key holding control characters, a path component longer than the system allows, escapes
in stored keys and paths, a folder whose Duel Masters file its eras refuse only as they
run it, a refused command's database file. Each case runs as a real process under a
timeout: one line on stderr naming the file (or the table and row) and the cause, exit 2,
nothing half-written, no traceback, no raw control character."""

import json
import os
import pty
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from test_hostile_round2 import RAW, clean_exit, rulesdiff

from comparator.store.packing import SCENARIO, pack, unpack

HOSTILE = Path(__file__).resolve().parent / "hostile"
SCENARIOS = Path(__file__).resolve().parents[1] / "data" / "scenarios"
DIVERGING = "giant-growth-vs-assignment-order"  # every era runs it; some diverge


def one_line(result, code: int = 2) -> str:
    """The one line a refusal says on stderr."""
    clean_exit(result, code=code)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A store of one diverging scenario, explored too: copied for each test to tamper."""
    db = tmp_path_factory.mktemp("built") / "built.db"
    clean_exit(rulesdiff("dataset", "build", DIVERGING, "--explore", "--db", str(db)), code=0)
    return db


def _copy(built: Path, tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    shutil.copy(built, db)
    return db


def _left(folder: Path) -> list[str]:
    """What is in `folder`, but a database's own WAL files (a reader of it leaves those)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm")))


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- 1. JSON nested thousands deep ------------------------------------------------------------


def _tamper(db: Path, table: str, depth: int) -> str:
    """Put JSON nested `depth` deep in one row of `table`; how messages name that row."""
    with sqlite3.connect(db) as c:
        if table == "run":
            c.execute("UPDATE run SET packed_outcome = ? WHERE run_id = 1",
                      (pack(_deep(depth), "alpha"),))
            return "table run, row 1"
        if table == "scenario":
            [(content_hash,)] = c.execute("SELECT content_hash FROM scenario").fetchall()
            c.execute("UPDATE scenario SET packed_json = ?", (pack(_deep(depth), SCENARIO),))
            return f"table scenario, row {bytes(content_hash).hex()[:12]}"
        if table == "divergence":
            a, b, path = c.execute("SELECT era_a, era_b, path FROM divergence ORDER BY era_a, "
                                   "era_b, path LIMIT 1").fetchone()
            c.execute("UPDATE divergence SET value_a = ? WHERE era_a = ? AND era_b = ? AND "
                      "path = ?", (_deep(depth), a, b, path))
            return "table divergence, row"
        if table == "exploration":
            c.execute("UPDATE exploration SET value_json = ? WHERE exploration_id = 1",
                      (_deep(depth),))
            return "table exploration, row 1"
        [(digest,)] = c.execute("SELECT digest FROM source_file").fetchall()
        c.execute("UPDATE source_file SET refused = ?", (_deep(depth),))
        return f"table source_file, row {bytes(digest).hex()[:12]}"


# Which commands read each table's JSON (the others don't: they pass).
READERS = {
    "run": [["dataset", "check"], ["show", DIVERGING], ["show", DIVERGING, "--json"],
            ["dataset", "export"], ["dataset", "export", "--format", "csv"]],
    "scenario": [["dataset", "check"]],
    "divergence": [["show", DIVERGING], ["dataset", "export"]],
    "exploration": [["show", DIVERGING]],
    "source_file": [["dataset", "build", DIVERGING]],
}


@pytest.mark.parametrize("depth", [10_000, 900])
@pytest.mark.parametrize("table", sorted(READERS))
def test_a_stored_row_nested_deep_is_one_line_naming_table_and_row(built, tmp_path, table,
                                                                   depth):
    # 10,000 deep was a RecursionError in the JSON decoder; 900 decodes, and broke what
    # walks the value next (a diff, a printing): both refused as damaged rows.
    db = _copy(built, tmp_path)
    row = _tamper(db, table, depth)
    for command in READERS[table]:
        said = one_line(rulesdiff(*command, "--db", str(db)))
        assert row in said and "damaged" in said, (command, said)


def test_a_deep_row_leaves_no_export_behind(built, tmp_path):
    db = _copy(built, tmp_path)
    _tamper(db, "run", 10_000)
    out = tmp_path / "out.jsonl"
    assert "table run, row 1" in one_line(rulesdiff("dataset", "export", "--db", str(db),
                                                    "--out", str(out)))
    assert _left(tmp_path) == ["t.db"]  # no export, no part file
    pytest.importorskip("pyarrow")
    folder = tmp_path / "new" / "parquet"
    assert "table run, row 1" in one_line(rulesdiff(
        "dataset", "export", "--format", "parquet", "--db", str(db), "--out", str(folder)))
    assert not (tmp_path / "new").exists()  # the folders it made are gone again


@pytest.mark.parametrize(("before", "after"), [
    ("", ""),                                                    # the whole file
    ('{"meta": {}, "data": ', "}"),                              # data itself
    ('{"meta": ', ', "data": {}}'),                              # beside data
    ('{"data": {"A": ', "}}"),                                   # a card's faces
    ('{"data": {"A": [{"name": "A", "types": ["Creature"], "text": ', "}]}}"),  # a field
])
@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_an_mtgjson_file_nested_deep_is_refused_in_bounded_memory(tmp_path, before, after,
                                                                  depth):
    # 100,000 deep, the streaming reader kept the path to every level (gigabytes): killed.
    src = tmp_path / "deep.json"
    src.write_text(before + _deep(depth) + after)
    out = tmp_path / "cards.yaml"
    said = one_line(rulesdiff("cards", "import", str(src), "--out", str(out)))
    assert said == f"rulesdiff: {src}: not JSON, or not MTGJSON: nested more than 512 deep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep.json"]


def test_the_round_two_deep_mtgjson_is_refused_too(tmp_path):
    said = one_line(rulesdiff("cards", "import", str(HOSTILE / "mtgjson-deep.json"), "--out",
                              str(tmp_path / "c.yaml")))
    assert "mtgjson-deep.json: not JSON, or not MTGJSON: nested more than 512 deep" in said


# -- 2. control characters in an unknown key --------------------------------------------------


UNKNOWN_KEYS = {
    "scenario-escape-in-an-unknown-key.yaml": ("11", "\\x1b[31mfoo"),
    "scenario-bidi-in-an-unknown-key.yaml": ("11", "\\u202e"),
    "scenario-c1-in-an-unknown-key.yaml": ("11", "\\x85"),
    "scenario-escape-in-a-nested-unknown-key.yaml": ("7", "\\x1b]0;pwned\\x07\\x9b31m"),
}


@pytest.mark.parametrize("name", sorted(UNKNOWN_KEYS))
@pytest.mark.parametrize("command", [["validate"], ["diff", "--no-store"],
                                     ["explore", "--no-store"], ["run", "--era", "m10"],
                                     ["dataset", "build"]])
def test_an_unknown_key_holding_controls_is_said_escaped(tmp_path, name, command):
    # A key with "[" (an escape sequence's) was taken for one of pydantic's tags and
    # dropped: an IndexError in the message that names the unknown key.
    line, key = UNKNOWN_KEYS[name]
    db = tmp_path / "x.db"
    if command[0] == "dataset":
        args = [*command, str(HOSTILE / name), "--db", str(db)]
    else:
        args = [command[0], str(HOSTILE / name), *command[1:]]
    out = clean_exit(rulesdiff(*args), code=2)
    assert f"{name}:{line}: " in out and f"unknown key '{key}'" in out, out
    assert not db.exists()


# -- 3. a path component too long -------------------------------------------------------------


LONG = "x" * 300


@pytest.mark.parametrize("args", [
    ["dataset", "export", "--out", "{tmp}/" + LONG + ".jsonl"],
    ["dataset", "export", "--format", "csv", "--out", "{tmp}/" + LONG + "/out.csv"],
    ["dataset", "export", "--format", "parquet", "--out", "{tmp}/" + LONG],
])
def test_an_export_to_a_name_too_long_is_one_line(built, tmp_path, args):
    db = _copy(built, tmp_path)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    said = one_line(rulesdiff(*args, "--db", str(db)))
    assert said.endswith(": can't write the export: File name too long"), said
    assert _left(tmp_path) == ["t.db"]


@pytest.mark.parametrize("command", [
    ["dataset", "build", DIVERGING], ["dataset", "check"], ["dataset", "export"],
    ["show", DIVERGING], ["diff", DIVERGING], ["explore", DIVERGING],
])
@pytest.mark.parametrize("where", [LONG + ".db", LONG + "/x.db"])
def test_a_database_name_too_long_is_one_line(tmp_path, command, where):
    said = one_line(rulesdiff(*command, "--db", str(tmp_path / where)))
    assert said.startswith(f"rulesdiff: can't use database {tmp_path}/{LONG}"), said
    assert said.endswith(": File name too long"), said
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("where", ["missing/x.db", "file/x.db"])
def test_a_database_in_no_folder_is_one_line(tmp_path, where):
    (tmp_path / "file").write_text("")
    said = one_line(rulesdiff("dataset", "build", DIVERGING, "--db", str(tmp_path / where)))
    assert f"can't use database {tmp_path / where}: " in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


# -- 4. escapes in what is said -----------------------------------------------------------


EVIL = "B\x1b[31m\u202eX\x9b"  # a player named with an escape, a bidi override, a C1 CSI


@pytest.fixture(scope="module")
def evil_store(tmp_path_factory) -> Path:
    """A store whose divergence paths and outcome keys hold the evil player's name, and one
    outcome with a key added, so that `dataset check` reports it."""
    tmp = tmp_path_factory.mktemp("evil")
    text = (SCENARIOS / f"{DIVERGING}.yaml").read_text().split("\nexpect:")[0] + "\n"
    name = json.dumps(EVIL)  # a YAML double-quoted string, as JSON writes it
    text = text.replace("{name: B,", f"{{name: {name},").replace("controller: B", f"controller: "
                        f"{name}").replace("by: B,", f"by: {name},").replace("wurm: B}", f"wurm: "
                        f"{name}}}")
    (tmp / "evil.yaml").write_text(text, encoding="utf-8")
    db = tmp / "evil.db"
    clean_exit(rulesdiff("dataset", "build", str(tmp / "evil.yaml"), "--db", str(db)), code=0)
    with sqlite3.connect(db) as c:
        run_id, era, packed = c.execute("SELECT run_id, era, packed_outcome FROM run ORDER BY "
                                        "run_id LIMIT 1").fetchone()
        outcome = json.loads(unpack(packed, era))
        outcome["players"]["\x1b]0;pwned\x07" + EVIL] = {"life": 3}
        c.execute("UPDATE run SET packed_outcome = ? WHERE run_id = ?",
                  (pack(json.dumps(outcome, ensure_ascii=False), era), run_id))
        c.execute("UPDATE divergence SET path = path || ?", ("\x1b[2J",))
    return db


@pytest.mark.parametrize("command", [["dataset", "check"], ["show", DIVERGING],
                                     ["dataset", "check", "--json"], ["show", DIVERGING, "--json"],
                                     ["dataset", "export"]])
def test_stored_keys_and_paths_are_shown_escaped(evil_store, command):
    out = clean_exit(rulesdiff(*command, "--db", str(evil_store)))
    assert "\\u202e" in out  # said, and escaped
    if command == ["dataset", "check"]:
        assert "players.\\x1b]0;pwned\\x07B\\x1b[31m\\u202eX\\x9b: stored" in out
    if command == ["show", DIVERGING]:
        assert "\\x1b[2J:" in out


def _on_a_terminal(*args: str) -> tuple[int, str]:
    """The command with its standard output on a terminal (a pseudo-terminal); its exit
    code and what the terminal was sent."""
    exe = shutil.which("rulesdiff")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]
    leader, follower = pty.openpty()
    child = subprocess.Popen(cmd, stdout=follower, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL)
    os.close(follower)
    sent = []
    while True:  # read as it comes: a full terminal would stop the child
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child is gone
            break
        if not chunk:
            break
        sent.append(chunk)
    child.stderr.read()
    code = child.wait(timeout=60)
    os.close(leader)
    return code, b"".join(sent).decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_an_export_to_a_terminal_is_escaped(evil_store, fmt):
    code, shown = _on_a_terminal("dataset", "export", "--format", fmt, "--db",
                                 str(evil_store))
    assert code == 0
    shown = shown.replace("\r", "")  # the terminal's, and CSV's, line ends
    assert "\\u202e" in shown and not RAW.search(shown), RAW.findall(shown)[:5]


def test_an_export_to_a_file_keeps_the_data(evil_store, tmp_path):
    out = tmp_path / "out.csv"
    clean_exit(rulesdiff("dataset", "export", "--format", "csv", "--db", str(evil_store),
                         "--out", str(out)), code=0)
    assert "\x1b[2J" in out.read_text(encoding="utf-8")  # data, as stored


def test_an_out_path_with_escapes_is_echoed_escaped(built, tmp_path):
    db = _copy(built, tmp_path)
    out = tmp_path / "out\x1b[31mred\u202e.jsonl"
    result = rulesdiff("dataset", "export", "--db", str(db), "--out", str(out))
    said = one_line(result, code=0)
    assert said == f"wrote {tmp_path}/out\\x1b[31mred\\u202e.jsonl"
    assert out.exists()
    bad = tmp_path / "missing\x1b[2J" / "out.jsonl"
    said = one_line(rulesdiff("dataset", "export", "--db", str(db), "--out", str(bad)))
    assert "missing\\x1b[2J/out.jsonl: can't write the export" in said


# -- 5. a file refused only when it runs ------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_build_refused_by_a_file_its_eras_refuse_as_they_run_stores_nothing(tmp_path,
                                                                              jobs):
    folder = tmp_path / "folder"
    folder.mkdir()
    for name in ("lure-all-must-block", DIVERGING, "craw-giant-rampage"):
        shutil.copy(SCENARIOS / f"{name}.yaml", folder / f"a-{name}.yaml")
    shutil.copy(HOSTILE / "dataset-dm-refused-only-when-run.yaml", folder / "z-dm.yaml")
    # A new database: no file left; one built before: not a row more.
    db = tmp_path / "new.db"
    said = one_line(rulesdiff("dataset", "build", str(folder), "--db", str(db), "--batch",
                              "1", "--jobs", jobs))
    assert f"{folder / 'z-dm.yaml'}:16: combat.redirect[0]: illegal in" in said
    assert not db.exists() and not list(tmp_path.glob("new.db*"))
    old = tmp_path / "old.db"
    clean_exit(rulesdiff("dataset", "build", "lure-all-must-block", "--db", str(old)), code=0)
    before = _counts(old)
    one_line(rulesdiff("dataset", "build", str(folder), "--db", str(old), "--batch", "1",
                       "--jobs", jobs))
    assert _counts(old) == before


def _counts(db: Path) -> dict[str, int]:
    with sqlite3.connect(db) as c:
        return {t: c.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]  # noqa: S608
                for t in ("scenario", "run", "divergence", "source_file", "batch")}


# -- 6. no database file a refused or reading command made ----------------------------------


@pytest.mark.parametrize("args", [
    ["dataset", "build", "{bad}"],
    ["dataset", "build", "lure-all-must-block", "--scheduler", "tcp://127.0.0.1:1"],
    ["dataset", "build", "{bad}", "--explore"],
    ["dataset", "check"], ["dataset", "export"], ["dataset", "export", "--format", "csv"],
    ["show", "lure-all-must-block"],
])
def test_a_refused_or_reading_command_makes_no_database(tmp_path, args):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nplayers: []\n")
    db = tmp_path / "new.db"
    args = [a.replace("{bad}", str(bad)) for a in args]
    one_line(rulesdiff(*args, "--db", str(db)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]


def test_a_build_that_passes_makes_its_database(tmp_path):
    db = tmp_path / "new.db"
    out = clean_exit(rulesdiff("dataset", "build", "lure-all-must-block", "--db", str(db)),
                     code=0)
    assert "1 scenarios, 7 runs stored" in " ".join(out.split())
    assert _counts(db)["run"] == 7


def test_quoting_from_a_missing_store_makes_none(tmp_path):
    # `--quote` only reads: a store that does not exist quotes nothing and is not created.
    db = tmp_path / "none.db"
    out = clean_exit(rulesdiff("diff", "giant-growth-vs-assignment-order", "--no-store",
                               "--quote", "--db", str(db)), code=1)
    assert "rulesdiff rules import" in out and not db.exists()
