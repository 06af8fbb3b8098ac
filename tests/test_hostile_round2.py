"""Hostile input, second round (tests/hostile/ holds the corpus): escapes and invisible
characters never reach the terminal raw; passwords in database URLs are never printed, in
any form the URL takes; card files and MTGJSON files are read guarded (encoding, numbers,
nesting, wrong JSON types); absurd numbers on the command line and in a generator manifest
are refused; a read-only or full file system is one line naming the path. Each case runs
as a real process under a timeout: exit 0, 1 or 2 only, never a traceback."""

import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

HOSTILE = Path(__file__).resolve().parent / "hostile"
# What must never reach a terminal raw: control characters, and those that reorder text.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069]")


def rulesdiff(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    exe = shutil.which("rulesdiff")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd,
                          stdin=subprocess.DEVNULL, errors="replace",
                          env={**os.environ, "COLUMNS": "80", **(env or {})})


def clean_exit(result, *, code=None):
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out[-3000:]
    assert result.returncode in (0, 1, 2), (result.returncode, out[-3000:])
    if code is not None:
        assert result.returncode == code, (result.returncode, out[-2000:])
    assert not RAW.search(out), [m.group() for m in RAW.finditer(out)][:5]
    return out


@pytest.mark.parametrize("name", ["escape-in-a-key.yaml", "bidi-player-name.yaml",
                                  "escape-in-the-title.yaml", "escape-in-the-id.yaml"])
@pytest.mark.parametrize("command", [["validate"], ["run", "--era", "m10"],
                                     ["diff", "--no-store"], ["explore", "--no-store"]])
def test_escapes_and_bidi_are_shown_escaped(name, command):
    out = clean_exit(rulesdiff(command[0], str(HOSTILE / name), *command[1:]))
    if name == "bidi-player-name.yaml" and command[0] != "validate":
        assert "B\\u202eevil" in out  # said, and escaped


@pytest.mark.parametrize("url", [
    "postgresql://u@localhost:1/db?password=SECRET",
    "postgresql:/user:SECRET@host/db",
    "user:SECRET@host/db",
    "postgresql+psycopg://user:SECRET@127.0.0.1:1/db",
])
@pytest.mark.parametrize("command", [["dataset", "check"], ["diff", "lure-all-must-block"],
                                     ["show", "x"]])
def test_a_password_is_never_printed(url, command):
    out = clean_exit(rulesdiff(*command, "--db", url), code=2)
    assert "SECRET" not in out and "***" in out


@pytest.mark.parametrize("name", ["cards-latin1.yaml", "cards-huge-number.yaml",
                                  "cards-alias-bomb.yaml"])
def test_a_card_file_is_read_guarded(name):
    example = Path(__file__).resolve().parents[1] / "data" / "scenarios" / \
        "lure-all-must-block.yaml"
    out = clean_exit(rulesdiff("--cards", str(HOSTILE / name), "validate", str(example)),
                     code=2)
    assert name in out and len(out.strip().splitlines()) == 1


def test_a_fifo_or_a_device_as_card_file_does_not_hang(tmp_path):
    fifo = tmp_path / "cards.fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        out = clean_exit(rulesdiff("scenarios", env={"RULESDIFF_CARDS": str(path)}), code=2)
        assert "not a regular file" in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_in_a_generated_folder_does_not_hang_a_build(tmp_path, jobs):
    # The folder's files are first digested to verify them against the manifest, then
    # each file is digested to skip what is stored: neither reads a FIFO, nor waits on it.
    folder, db = tmp_path / "g", tmp_path / "g.db"
    clean_exit(rulesdiff("dataset", "generate", str(folder), "--seed", "3", "--count", "6"),
               code=0)
    fifo = folder / "0000" / "0000003.yaml"
    fifo.unlink()
    os.mkfifo(fifo)
    out = clean_exit(rulesdiff("dataset", "build", str(folder), "--db", str(db),
                               "--jobs", jobs), code=2)
    assert f"{fifo}: not a regular file" in out
    assert len(out.strip().splitlines()) == 1


def test_a_file_named_twice_is_built_as_before(tmp_path):
    # Named twice (here, or as a folder and a file in it), a file is read once and
    # counted as often as it is named.
    example = Path(__file__).resolve().parents[1] / "data" / "scenarios" / \
        "giant-growth-vs-assignment-order.yaml"
    for jobs in ("1", "2"):
        out = clean_exit(rulesdiff("dataset", "build", str(example), str(example), "--db",
                                   str(tmp_path / f"{jobs}.db"), "--jobs", jobs), code=0)
        assert "2 scenarios, 14 runs stored" in out


def test_mtgjson_of_the_wrong_shape(tmp_path):
    wrong = clean_exit(rulesdiff("cards", "import", str(HOSTILE / "mtgjson-wrong-types.json"),
                                 "--out", str(tmp_path / "a.yaml")), code=0)
    assert "skipped data.A.0: text: a string, not int" in wrong  # each with its reason
    said = " ".join(wrong.split())
    assert "2 skipped" in said and ": 1 cards" in said
    for name in ("mtgjson-deep.json", "mtgjson-huge-number.json"):
        clean_exit(rulesdiff("cards", "import", str(HOSTILE / name), "--out",
                             str(tmp_path / "b.yaml")))


@pytest.mark.parametrize("args", [
    ["--count", str(2**63)], ["--seed", "9" * 4000], ["--jobs", "100000"],
    ["--jobs", str(2**63)], ["--count", "0"], ["--seed", "-1"]])
def test_absurd_numbers_on_the_command_line_are_refused(tmp_path, args):
    clean_exit(rulesdiff("dataset", "generate", str(tmp_path / "g"), *args), code=2)
    assert not (tmp_path / "g").exists()


def test_an_absurd_limit_is_refused():
    clean_exit(rulesdiff("explore", "lure-all-must-block", "--limit", str(2**70),
                         "--no-store"), code=2)


@pytest.mark.parametrize("folder", sorted(p.name for p in HOSTILE.glob("manifest-*")))
def test_a_manifest_is_checked_like_any_input(tmp_path, folder):
    path = HOSTILE / folder
    db = tmp_path / "x.db"
    for args in (["validate", str(path)], ["dataset", "build", str(path), "--db", str(db)]):
        out = clean_exit(rulesdiff(*args), code=2)
        assert "generator.json: count:" in out
    assert not db.exists() or db.stat().st_size == 0 or _no_runs(db)


def _no_runs(db: Path) -> bool:
    import sqlite3

    with sqlite3.connect(db) as c:
        tables = {r[0] for r in c.execute("select name from sqlite_master")}
        return "run" not in tables or not c.execute("select count(*) from run").fetchone()[0]


@pytest.fixture
def small_disk(tmp_path):
    """A 512 KB file system of its own (a tmpfs), which the tests fill or make read-only:
    needs the right to mount (CI runs as root); skipped elsewhere."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(where)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("can't mount a small file system here (not root)")
    yield where
    subprocess.run(["umount", str(where)], capture_output=True)


def test_a_full_disk_is_one_line_and_leaves_whole_files(small_disk):
    out = clean_exit(rulesdiff("dataset", "generate", str(small_disk / "gen"), "--count",
                               "1500", "--jobs", "1"), code=2)
    assert "No space left on device" in out and len(out.strip().splitlines()) == 1
    assert not list(small_disk.rglob("*.tmp"))


def test_a_read_only_file_system_is_one_line(small_disk):
    db = small_disk / "x.db"
    clean_exit(rulesdiff("dataset", "build", "lure-all-must-block", "--db", str(db)), code=0)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        out = clean_exit(rulesdiff("dataset", "build", "lure-all-must-block",
                                   "--db", str(db)), code=2)
        # A database left whole (its journal folded in) can't even be opened there: SQLite
        # writes its shared-memory file beside it; one left with its journal is read-only.
        assert "readonly database" in out or "folder is read-only" in out
        out = clean_exit(rulesdiff("dataset", "generate", str(small_disk / "g"), "--count",
                                   "3"), code=2)
        assert "Read-only file system" in out
        out = clean_exit(rulesdiff("new", "x", cwd=small_disk), code=2)
        assert "Read-only file system" in out
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)


def test_a_large_mtgjson_is_streamed_in_flat_memory(tmp_path):
    # 20,000 distinct cards (about 8 MB): read as a stream and written as it goes, under a
    # 2 GiB address-space cap; the child's peak memory stays far below the file's objects.
    import json
    import resource

    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps({"meta": {}, "data": {
        f"Card {i:05d}": [{"name": f"Card {i:05d}", "type": "Creature — Test",
                           "types": ["Creature"], "power": str(i % 9),
                           "toughness": str(i % 7 + 1), "text": "Flying\n" + "x" * 300}]
        for i in range(20_000)}}))

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    exe = shutil.which("rulesdiff")
    cmd = [exe] if exe else [sys.executable, "-m", "comparator"]
    out = tmp_path / "cards.yaml"
    said, errors = tmp_path / "said.json", tmp_path / "errors.txt"
    with said.open("w") as stdout, errors.open("w") as stderr:
        child = subprocess.Popen([*cmd, "cards", "import", str(src), "--out", str(out),
                                  "--json"], stdout=stdout, stderr=stderr, preexec_fn=capped)
        timer = threading.Timer(120, child.kill)
        timer.start()
        # The child's own peak, not the largest of every child this test session started.
        _, status, usage = os.wait4(child.pid, 0)
        timer.cancel()
    assert os.waitstatus_to_exitcode(status) == 0, errors.read_text()[-2000:]
    assert json.loads(said.read_text())["cards"] == 20_000
    assert usage.ru_maxrss < 400_000, usage.ru_maxrss  # KB: well under the file's objects
    assert out.read_text().startswith("cards:\n- name: Card 00000")


def _capped_explore(path: Path, *more: str):
    """`explore` as its own process under a 2 GiB address-space cap and a 60 s clock."""
    import resource

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    exe = shutil.which("rulesdiff")
    cmd = [exe] if exe else [sys.executable, "-m", "comparator"]
    return subprocess.run([*cmd, "explore", str(path), "--no-store", *more],
                          capture_output=True, text=True, timeout=60, preexec_fn=capped,
                          env={**os.environ, "COLUMNS": "80"})


def test_explore_of_hostile_boards_stays_bounded(tmp_path):
    blockers = [f"b{i}" for i in range(1, 13)]
    magic = "\n".join([
        "id: twelve-blockers", "title: twelve blockers, burn and pumps",
        "players: [{name: A}, {name: B}]", "active: A", "permanents:",
        "  - {id: wurm, controller: A, power: 40, toughness: 40}",
        "  - {id: wurm2, controller: A, power: 40, toughness: 40}",
        *[f"  - {{id: {b}, controller: B, power: 1, toughness: 1, abilities: [{{trigger: "
          f"blocks, effect: pump, target: self, power: 1, toughness: 1}}]}}"
          for b in blockers],
        "combat:", "  attacks: {wurm: B, wurm2: B}",
        "  blocks: {" + ", ".join(f"{b}: wurm" for b in blockers) + "}",
        "actions:",
        *[f"  - {{at: [declare-blockers, combat-damage, end-of-combat], by: {by}, effect: "
          f"damage, amount: 1, target: [{', '.join(blockers)}, wurm, wurm2]}}"
          for by in ("A", "B", "A", "B")], ""])
    (tmp_path / "magic.yaml").write_text(magic)
    redirectors = [f"g{i}" for i in range(1, 13)]
    dm = "\n".join([
        "id: dm-twelve-blockers", "title: twelve blockers and a huge limit",
        "game: duel-masters", "players: [{name: A}, {name: B}]", "active: A", "permanents:",
        "  - {id: big, controller: A, power: 9000}",
        *[f"  - {{id: {g}, controller: B, power: 1000, keywords: [blocker], abilities: "
          f"[{{trigger: blocks, effect: draw, target: controller}}]}}" for g in redirectors],
        "combat:", "  attacks: {big: B}", ""])
    (tmp_path / "dm.yaml").write_text(dm)
    for path, more in ((tmp_path / "magic.yaml", ["--blocks", "all"]),
                       (tmp_path / "magic.yaml", []),
                       (tmp_path / "dm.yaml", ["--blocks", "all", "--limit", str(10**12)])):
        result = _capped_explore(path, *more)
        out = result.stdout + result.stderr
        assert result.returncode in (0, 1, 2) and "Traceback" not in out, out[-2000:]
        if result.returncode == 2:
            assert "raise --limit" in out or "lists that many" in out, out[-500:]


@pytest.mark.parametrize(("args", "said"), [
    (["run", "--era", "m10"], "rulesdiff run: Missing argument 'FILE'."),
    (["run", "giant-growth-vs-assignment-order", "--era", "m10", "--bogus"],
     "rulesdiff run: No such option: --bogus"),
    (["explore", "giant-growth-vs-assignment-order", "--limit", "0", "--no-store"],
     "rulesdiff explore: Invalid value for '--limit'"),
    (["bogus"], "rulesdiff: No such command 'bogus'."),
    # Said before click knows the command: named from the command line.
    (["run", "giant-growth-vs-assignment-order", "--era"],
     "rulesdiff run: Option '--era' requires an argument."),
    (["dataset", "build", "--jobs"], "rulesdiff dataset build: Option '--jobs' requires"),
])
def test_a_usage_error_is_one_line(args, said):
    # Bad input on the command line is said as any other: one line on stderr, exit 2,
    # with where to read more; nothing on stdout.
    result = rulesdiff(*args)
    clean_exit(result, code=2)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(said), result.stderr
    assert "--help" in lines[0]


@pytest.mark.parametrize("command", [["diff"], ["explore"], ["run", "--era", "m10"]])
def test_a_refused_file_leaves_no_database_behind(tmp_path, command):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nplayers: []\n")
    db = tmp_path / "new.db"
    out = clean_exit(rulesdiff(*command, str(bad), "--db", str(db)), code=2)
    assert "bad.yaml" in out and "title" in out
    assert not db.exists()
