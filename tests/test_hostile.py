"""Hostile input: every file gets a one-line answer naming it (exit 2) or a result, never a
traceback or a hang; broken databases and paths are refused; nothing false reports ok.
Each case runs as a real process under a timeout (the harness bounds time, not the test)."""

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import stored_rows

EXAMPLE = Path(__file__).resolve().parents[1] / "data" / "scenarios" / \
    "giant-growth-vs-assignment-order.yaml"


def rulesdiff(*args, cwd=None):
    exe = shutil.which("rulesdiff")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=cwd,
                          stdin=subprocess.DEVNULL)


def refused(result, name):
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out[-2000:]
    assert result.returncode == 2, (result.returncode, out[-2000:])
    assert name in out, out[-2000:]
    return out


def hostile_files(tmp: Path) -> dict[str, Path]:
    files = {}

    def write(name, text):
        files[name] = tmp / name
        files[name].write_text(text)

    lol = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lol.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    write("bomb.yaml", "\n".join(lol) + "\n")
    base = EXAMPLE.read_text()
    write("duplicate-key.yaml", base + "\nid: again\n")
    write("huge-int.yaml", base.replace("life: 20}", "life: " + "9" * 5000 + "}", 1))
    write("negative.yaml", base.replace("power: 3, toughness: 3", "power: 3, toughness: 3")
          + "  - {at: combat-damage, by: A, effect: gain-life, target: A, amount: -100}\n")
    write("string-number.yaml", base.replace("power: 5,", 'power: "5",'))
    write("bool-number.yaml", base.replace("power: 5,", "power: true,"))
    write("deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    write("not-a-mapping.yaml", "- just\n- a list\n")
    write("long-id.yaml", base.replace("id: giant-growth-vs-assignment-order",
                                       "id: " + "x" * 200_000))
    files["binary.yaml"] = tmp / "binary.yaml"
    files["binary.yaml"].write_bytes(os.urandom(4000))
    files["big.yaml"] = tmp / "big.yaml"
    files["big.yaml"].write_text("# " + "x" * 2_000_000 + "\n")
    os.mkfifo(tmp / "fifo.yaml")
    files["fifo.yaml"] = tmp / "fifo.yaml"
    (tmp / "folder.yaml").mkdir()
    files["folder.yaml"] = tmp / "folder.yaml"
    os.symlink(tmp / "loop.yaml", tmp / "loop.yaml")
    files["loop.yaml"] = tmp / "loop.yaml"
    return files


@pytest.mark.parametrize("command", [["validate"], ["run", "--era", "m10"], ["diff",
                                                                                "--no-store"]])
def test_hostile_files_are_refused_with_their_name(tmp_path, command):
    for name, path in hostile_files(tmp_path).items():
        result = rulesdiff(*command[:1], str(path), *command[1:])
        refused(result, name)


def test_dev_zero_is_not_read_forever():
    refused(rulesdiff("validate", "/dev/zero"), "/dev/zero")


def test_markup_and_control_characters_reach_no_terminal(tmp_path):
    f = tmp_path / "evil.yaml"
    f.write_text(EXAMPLE.read_text().replace(
        "title: Giant Growth once the attacker's plan is known",
        'title: "[/bold] \\x1b[2J [red]boom"'))
    for args in (["diff", str(f), "--no-store"], ["run", str(f), "--era", "m10"],
                 ["explore", str(f), "--no-store", "--era", "sixth", "--era", "m10"]):
        result = rulesdiff(*args)
        assert result.returncode in (0, 1) and "Traceback" not in result.stderr
        assert "\x1b" not in result.stdout and "[/bold]" in result.stdout


def test_no_false_ok(tmp_path):
    (tmp_path / "empty").mkdir()
    for cmd in ("validate", "verify", "diff"):
        refused(rulesdiff(cmd, str(tmp_path / "empty")), "empty")
    for args in (["dataset", "check"], ["dataset", "export"], ["show", "x"]):
        refused(rulesdiff(*args, "--db", str(tmp_path / "typo.db")), "typo.db")
        assert not (tmp_path / "typo.db").exists()


def test_broken_databases_are_refused(tmp_path):
    rnd = tmp_path / "random.db"
    rnd.write_bytes(os.urandom(8192))
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE things (x)")
    tampered = tmp_path / "tampered.db"
    assert rulesdiff("diff", str(EXAMPLE), "--db", str(tampered)).returncode == 1
    with sqlite3.connect(tampered) as conn:
        conn.execute("UPDATE meta SET value = 'abc' WHERE key = 'schema_version'")
    for db in (rnd, foreign, tampered):
        refused(rulesdiff("dataset", "check", "--db", str(db)), db.name)
        refused(rulesdiff("diff", str(EXAMPLE), "--db", str(db)), db.name)
    refused(rulesdiff("diff", str(EXAMPLE), "--db", "sqlite://"), "in-memory")
    secret = rulesdiff("dataset", "check", "--db", "postgresql://u:hunter2@127.0.0.1:1/x")
    assert secret.returncode == 2 and "hunter2" not in secret.stdout + secret.stderr


def test_a_tampered_row_is_a_clear_error(tmp_path):
    db = tmp_path / "rows.db"
    assert rulesdiff("diff", str(EXAMPLE), "--db", str(db)).returncode == 1
    with sqlite3.connect(db) as conn:
        stored_rows.damage_outcomes(conn)
    for args in (["dataset", "check"], ["dataset", "export"],
                 ["show", "giant-growth-vs-assignment-order"]):
        out = refused(rulesdiff(*args, "--db", str(db)), "rows.db")
        assert "damaged" in out and "table run, row" in out


def test_unwritable_outputs_are_refused(tmp_path):
    db = tmp_path / "out.db"
    assert rulesdiff("diff", str(EXAMPLE), "--db", str(db)).returncode == 1
    refused(rulesdiff("dataset", "export", "--db", str(db), "--out",
                      str(tmp_path / "missing" / "x.jsonl")), "x.jsonl")
    if Path("/dev/full").exists():
        refused(rulesdiff("dataset", "export", "--db", str(db), "--out", "/dev/full"),
                "/dev/full")


def test_one_era_is_not_a_diff():
    refused(rulesdiff("diff", str(EXAMPLE), "--era", "m10", "--no-store"), "--era")


def test_version():
    result = rulesdiff("--version")
    assert result.returncode == 0 and result.stdout.startswith("rulesdiff ")


def test_block_searches_stay_bounded(tmp_path):
    # A creature that can block any number of 24 attackers has 16 million options, and
    # Lure with 30 blockers 2^30 declarations: answered quickly, in little memory.
    attackers = "\n".join(f"  - {{id: a{i}, controller: A, power: 1, toughness: 1}}"
                          for i in range(24))
    many = tmp_path / "many.yaml"
    many.write_text(f"""id: many
title: One blocker of any number against 24 attackers
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
{attackers}
  - {{id: wall, controller: B, power: 0, toughness: 30,
     keywords: [can-block-any-number, must-block]}}
combat:
  attacks: {{{", ".join(f"a{i}: B" for i in range(24))}}}
  blocks: {{wall: a0}}
""")
    assert rulesdiff("validate", str(many)).returncode == 0
    assert rulesdiff("blocks", str(many)).returncode == 0
    blockers = "\n".join(f"  - {{id: b{i}, controller: B, power: 1, toughness: 1}}"
                         for i in range(30))
    lure = tmp_path / "lure.yaml"
    lure.write_text(f"""id: lure30
title: Lure with 30 blockers
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: lure, controller: A, power: 1, toughness: 1, keywords: [lure]}}
{blockers}
combat:
  attacks: {{lure: B}}
  blocks: {{{", ".join(f"b{i}: lure" for i in range(30))}}}
""")
    assert rulesdiff("validate", str(lure)).returncode == 0
    out = refused(rulesdiff("explore", str(lure), "--blocks", "all", "--no-store"), "lure.yaml")
    assert "--limit" in out


def test_a_recursive_document_is_refused(tmp_path):
    f = tmp_path / "recursive.yaml"
    f.write_text("id: r\ntitle: t\nplayers: &p [{name: A}, {name: B, friends: *p}]\n")
    out = refused(rulesdiff("validate", str(f)), "recursive.yaml")
    assert "recursive" in out


def test_mutated_scenarios_never_crash_the_engine():
    """Shipped scenarios with random fields replaced by odd values (seeded): each is
    refused as a scenario, or runs and explores; nothing else escapes."""
    import random

    import yaml

    from comparator.explore.eras import TooLarge, Unsupported, explore
    from comparator.files.locations import shipped_scenarios
    from comparator.files.problems import ScenarioError
    from comparator.scenarios.loader import parse
    from versions import ERA_IDS, NotInEra, run
    from versions.common import IllegalChoice  # an illegal block or attack

    rng = random.Random(20261130)
    odd = [-1, 0, 1, 10**6, "", "x", None, True, "B", "A", "bear", "wurm", 2.5,
           "declare-blockers", "damage-on-stack"]

    def places(o, path=()):
        if isinstance(o, dict):
            for k, v in o.items():
                yield from places(v, (*path, k))
        elif isinstance(o, list):
            for i, v in enumerate(o):
                yield from places(v, (*path, i))
        if path:
            yield path

    files = shipped_scenarios()
    for _ in range(120):
        raw = yaml.safe_load(rng.choice(files).read_text())
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(list(places(raw)))
            node = raw
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = rng.choice(odd)
        try:
            scenario = parse(yaml.safe_dump(raw), "mutant.yaml")
        except ScenarioError:
            continue
        for era in ERA_IDS:
            with contextlib.suppress(IllegalChoice, NotInEra):
                run(era, scenario)
        with contextlib.suppress(TooLarge, IllegalChoice, Unsupported):
            explore(scenario, list(ERA_IDS), limit=5000)
