"""Figures for the regression dataset at scale (issue 11), each against a baseline measured
in the same run. Run: python benchmarks/dataset_bench.py [--small N] [--large N] [--only NAME]

- engine: runs per CPU-second of `dataset build --jobs 1` on generated scenarios, against
  the same runs without checking or storing;
- jobs: `dataset build --jobs 2` against `--jobs 1`;
- generate: `dataset generate --jobs` on every core against one core (the same files);
- memory: peak memory (the whole process tree) of `dataset build` at --small and --large
  generated scenarios (the issue asks 50,000 and 500,000; generating and building those
  takes hours on two cores, so pass smaller sizes to look at the trend);
- store: storing the rows of N results against raw `sqlite3` `executemany` of the same rows;
- startup: `rulesdiff run` and `rulesdiff diff --no-store` against
  `python -c "import typer, pydantic, yaml"`;
- blocks: 509.1c with 16 attackers and 16 blockers with requirements, exactly, against
  walking every declaration of 7 attackers and 7 blockers (the old way);
- kills: `most-kills` over 1,560,780 divisions, planned, against walking 77,520 of them;
- rebuild: building a built folder again, against building it the first time;
- export: peak memory of `dataset export` (jsonl, csv, parquet) and `dataset check` at
  --n and at 3 × --n generated scenarios, each against the smaller (flat is 1.0x);
- size: bytes on disk per scenario of a built database (SQLite), against the
  scenario files' own bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench import timed  # noqa: E402 - the same timing as the start-up benchmark

EXE = shutil.which("rulesdiff")


def cli(*args: str) -> list[str]:
    return [EXE, *args] if EXE else [sys.executable, "-m", "comparator", *args]


def generated(folder: Path, count: int, seed: int = 11) -> Path:
    from comparator.dataset.generate import generate_all
    from comparator.files.file_sets import read_manifest

    out = folder / f"seed{seed}-{count}"
    if read_manifest(out) is None:
        generate_all(out, seed, count, jobs=os.cpu_count() or 1)
    return out


def engine_figures(tmp: Path, n: int) -> None:
    from comparator.compare.running import run_all
    from comparator.dataset.runs import build
    from comparator.files.file_sets import Generated
    from comparator.scenarios.loader import load
    from comparator.store.database import open_engine
    from versions import ERA_IDS

    folder = generated(tmp, n)
    files = Generated(folder, n)
    start = time.process_time()
    # An era that refuses a scenario (fifth, for what came later) runs nothing for it.
    runs = sum(len(run_all(load(path), list(ERA_IDS), refused={})) for path in files)
    bare = time.process_time() - start
    engine = open_engine(str(tmp / "engine.db"))
    start = time.process_time()
    stored = sum(len(batch) for batch in build(engine, files, list(ERA_IDS), jobs=1, batch=500))
    assert stored == n
    built = time.process_time() - start
    print(f"engine only:           {runs / bare:7.0f} runs per CPU-second")
    print(f"dataset build --jobs 1: {runs / built:6.0f} runs per CPU-second "
          f"({bare / built:.2f}x the engine alone: checks and storing included)")


def jobs_figures(tmp: Path, n: int) -> None:
    rates = {}
    folder = generated(tmp, n)
    for jobs in (1, 2):
        db = tmp / f"jobs{jobs}.db"
        start = time.perf_counter()
        subprocess.run(cli("dataset", "build", str(folder), "--db", str(db), "--jobs",
                           str(jobs)), check=False, capture_output=True)
        rates[jobs] = n / (time.perf_counter() - start)
        print(f"dataset build --jobs {jobs}: {rates[jobs]:6.0f} scenarios/s")
    print(f"--jobs 2: {rates[2] / rates[1]:.2f}x --jobs 1 ({os.cpu_count()} cores)")


def generate_figures(tmp: Path, n: int) -> None:
    """`dataset generate` on one core and on every core: the same files (the command's
    promise, checked here by their bytes), and how many a second."""
    rates, digests = {}, {}
    cores = os.cpu_count() or 1
    for jobs in sorted({1, cores}):
        out = tmp / f"generate{jobs}"
        start = time.perf_counter()
        subprocess.run(cli("dataset", "generate", str(out), "--seed", "5", "--count", str(n),
                           "--jobs", str(jobs)), check=True, capture_output=True)
        rates[jobs] = n / (time.perf_counter() - start)
        digests[jobs] = sorted((str(f.relative_to(out)), f.read_bytes())
                               for f in out.rglob("*.yaml"))
        print(f"dataset generate --jobs {jobs}: {rates[jobs]:6.0f} scenarios/s")
    same = "the same files" if len({str(d) for d in digests.values()}) == 1 else "OTHER FILES"
    print(f"--jobs {cores}: {rates[cores] / rates[1]:.2f}x --jobs 1 ({same}; a million "
          f"would take {1_000_000 / rates[cores] / 60:.0f} min)")


def _tree(pid: int) -> list[int]:
    """A process and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def _field_kib(path: str, name: str) -> int:
    with contextlib.suppress(OSError):  # the process has just ended
        for line in Path(path).read_text().splitlines():
            if line.startswith(name):
                return int(line.split()[1])
    return 0


def tree_memory(pid: int, proportional: bool = False) -> tuple[int, int]:
    """Resident memory of a process and all its descendants, in bytes: their resident sizes
    added up, and (if `proportional`) their proportional sizes (PSS: a page shared by n of
    them counted 1/n to each, as forked workers share their parent's pages), which is what
    the tree really holds."""
    rss = pss = 0
    for p in _tree(pid):
        rss += _field_kib(f"/proc/{p}/status", "VmRSS:") * 1024
        if proportional:
            pss += _field_kib(f"/proc/{p}/smaps_rollup", "Pss:") * 1024
    return rss, pss


def peak_sizes(cmd: list[str], proportional: bool = False,
               env: dict[str, str] | None = None) -> tuple[int, int, float]:
    """Run `cmd`: the peaks of ``tree_memory`` sampled every 0.2 s, and the seconds taken."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env)
    peaks = [0, 0]
    start = time.perf_counter()
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            for i, size in enumerate(tree_memory(proc.pid, proportional)):
                peaks[i] = max(peaks[i], size)
            time.sleep(0.2)

    watcher = threading.Thread(target=sample)
    watcher.start()
    proc.wait()
    stop.set()
    watcher.join()
    return peaks[0], peaks[1], time.perf_counter() - start


def peak_memory(cmd: list[str]) -> tuple[int, float]:
    rss, _, took = peak_sizes(cmd)
    return rss, took


def memory_figures(tmp: Path, small: int, large: int) -> None:
    peaks = {}
    for n in (small, large):
        folder = generated(tmp, n)
        peak, took = peak_memory(cli("dataset", "build", str(folder), "--db",
                                     str(tmp / f"mem{n}.db"), "--jobs", "2"))
        peaks[n] = peak
        print(f"dataset build of {n:>7} generated scenarios, --jobs 2: peak "
              f"{peak / 2**20:6.0f} MiB (process tree), {took:.0f} s")
    print(f"peak at {large}: {peaks[large] / peaks[small]:.2f}x the peak at {small} "
          f"({large / small:.0f}x the scenarios)")


def store_figures(tmp: Path, n: int) -> None:
    from comparator.compare.running import run_file
    from comparator.files.file_sets import Generated
    from comparator.store.database import (
        insert_rows,
        merge_rows,
        open_engine,
        result_rows,
        store_eras,
        write,
    )
    from versions import ENGINE_VERSION, ERA_IDS, ERAS

    def ready(db: Path):  # noqa: ANN202 - the schema, and the eras the runs refer to
        engine = open_engine(str(db))
        write(engine, lambda session: store_eras(session, [e.metadata() for e in ERAS]))
        return engine

    folder = generated(tmp, n)
    rows = merge_rows([result_rows(ENGINE_VERSION, [run_file(p, list(ERA_IDS)).record()])
                       for p in Generated(folder, n)])
    times = []
    for i in range(3):
        engine = ready(tmp / f"store{i}.db")
        start = time.perf_counter()
        write(engine, lambda session: insert_rows(session, rows))
        times.append(time.perf_counter() - start)
        engine.dispose()
    ours = statistics.median(times)
    raw_times = []
    for i in range(3):
        ready(tmp / f"raw{i}.db").dispose()  # the same schema and indexes
        conn = sqlite3.connect(tmp / f"raw{i}.db", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        start = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        for table, items in rows.items():
            if not items:
                continue
            columns = list(items[0])
            conn.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                f"({', '.join('?' for _ in columns)}) ON CONFLICT DO NOTHING",
                [tuple(r[c] for c in columns) for r in items])
        conn.execute("COMMIT")
        raw_times.append(time.perf_counter() - start)
        conn.close()
    raw = statistics.median(raw_times)
    count = sum(len(v) for v in rows.values())
    print(f"store {count} rows of {n} scenarios: {ours * 1000:.0f} ms; raw sqlite3 "
          f"executemany {raw * 1000:.0f} ms; {ours / raw:.2f}x raw")


def startup_figures() -> None:
    """As an installed rulesdiff starts: with its modules' bytecode cached, as `pip install`
    writes it. (Under PYTHONDONTWRITEBYTECODE an editable install compiles every module of
    rulesdiff at each start, and typer's were compiled at install: no fair comparison.)"""
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base = timed([sys.executable, "-c", "import typer, pydantic, yaml"], env=cached)
    print(f'python -c "import typer, pydantic, yaml": {base * 1000:6.0f} ms')
    # `import pydantic` alone imports almost nothing (its names load when first used): what
    # any command that validates one model pays on top of the baseline, for comparison.
    one_model = ("import typer, yaml\nfrom pydantic import BaseModel\n"
                 "class A(BaseModel):\n    x: int\nA(x=1)")
    floor = timed([sys.executable, "-c", one_model],
                  env={**cached, "PYDANTIC_DISABLE_PLUGINS": "__all__"})
    print(f"the same, one pydantic model built and used: {floor * 1000:6.0f} ms "
          f"({floor / base:.2f}x)")
    # What typer itself costs a command: this typer builds a pydantic TypeAdapter for each
    # parameter of the command it runs, importing pydantic's model machinery to do so. The
    # least any typer command with rulesdiff run's parameters (a file, an option, a flag)
    # can take, for comparison with the goal of 1.5x.
    with tempfile.TemporaryDirectory() as folder:
        app = Path(folder) / "least_typer_app.py"
        app.write_text(
            "from pathlib import Path\nimport typer\napp = typer.Typer()\n"
            "@app.command()\ndef run(file: Path, era: str = 'm11', json: bool = False):\n"
            "    print(file, era, json)\n"
            "@app.command()\ndef other(n: int = 1):\n    print(n)\n"
            "app()\n")
        least = timed([sys.executable, str(app), "run", "x.yaml", "--era", "m10", "--json"],
                      env=cached)
    print(f"a typer app of two commands running one (file, --era, --json), nothing else: "
          f"{least * 1000:6.0f} ms ({least / base:.2f}x)")
    for args in (["run", "giant-growth-vs-assignment-order", "--era", "m10"],
                 ["diff", "giant-growth-vs-assignment-order", "--no-store"]):
        subprocess.run(cli(*args), env=cached, capture_output=True, check=False)  # caches
        t = timed(cli(*args), env=cached)
        name = f"rulesdiff {args[0]:<4} {'--no-store' if 'diff' in args else '':<10}"
        print(f"{name}{t * 1000:6.0f} ms ({t / base:.2f}x the imports alone)")


def _board(attackers: int, blockers: int) -> str:
    att = [f"  - {{id: a{i}, controller: A, power: 2, toughness: 2, keywords: "
           f"[{'lure' if i % 4 == 0 else 'menace' if i % 4 == 1 else ''}]}}"
           for i in range(attackers)]
    blk = [f"  - {{id: b{i}, controller: B, power: 1, toughness: 1, keywords: "
           f"[{'must-block' if i % 4 == 0 else ''}]}}" for i in range(blockers)]
    return f"""
id: big
title: requirements
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
{chr(10).join(att + blk)}
combat:
  attacks: {{{', '.join(f'a{i}: B' for i in range(attackers))}}}
"""


def blocks_figures() -> None:
    from helpers import scenario

    from versions import find_era
    from versions.mtg.engine import block_search
    from versions.mtg.engine.blocks import declarations, obeyed, requirements, survey
    from versions.mtg.engine.setup import new_board

    game = new_board(find_era("foundations")(), scenario(_board(16, 16)))
    start = time.perf_counter()
    doc = survey(game, limit=1000)
    exact = time.perf_counter() - start
    print(f"509.1c, 16 attackers x 16 blockers: most obeyed {doc['most_obeyed']} of "
          f"{len(doc['requirements'])}, {doc['count']:.3e} declarations counted, first "
          f"{doc['maximal']} maximal listed: {exact * 1000:.0f} ms")
    small = new_board(find_era("foundations")(), scenario(_board(7, 7)))
    reqs = requirements(small)
    start = time.perf_counter()
    walked = 0
    best = 0
    for decl in declarations(small, include_costs=False):
        walked += 1
        best = max(best, obeyed(decl, reqs))
    brute = time.perf_counter() - start
    assert best == block_search.most_obeyed(small)[0]
    print(f"509.1c, 7 x 7 by walking all {walked} declarations (the old way): "
          f"{brute * 1000:.0f} ms; 16 x 16 exactly took {exact / brute:.3f}x that")


def kills_figures() -> None:
    from helpers import scenario

    from versions import find_era
    from versions.mtg.engine import assignment
    from versions.mtg.engine.assignment import divisions_count
    from versions.mtg.engine.setup import new_board

    def setup(power: int, blockers: int):  # noqa: ANN202
        rows = "\n".join(f"  - {{id: t{i}, controller: B, power: 0, toughness: {i}}}"
                         for i in range(1, blockers + 1))
        text = f"""
id: kills
title: kills
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: big, controller: A, power: {power}, toughness: 30, keywords: [trample]}}
{rows}
combat:
  attacks: {{big: B}}
"""
        game = new_board(find_era("foundations")(), scenario(text))
        game.blocked.add("big")
        for i in range(1, blockers + 1):
            game.blocks[f"t{i}"] = ["big"]
        return game, assignment.Targets([f"t{i}" for i in range(1, blockers + 1)],
                                        overflow="B", rule="x")

    game, targets = setup(22, 7)
    start = time.perf_counter()
    assignment.most_kills(game, "big", targets, [])
    planned = time.perf_counter() - start
    print(f"most-kills over {divisions_count(22, 8):,} divisions, planned: "
          f"{planned * 1000:.1f} ms")
    game, targets = setup(13, 7)
    start = time.perf_counter()
    assignment.most_kills_by_enumeration(game, "big", targets, [])
    walked = time.perf_counter() - start
    ratio = divisions_count(22, 8) / divisions_count(13, 8)
    print(f"most-kills over {divisions_count(13, 8):,} divisions, walked: {walked * 1000:.0f} "
          f"ms; planning {ratio:.0f}x as many took {planned / walked:.4f}x that")


def rebuild_figures(tmp: Path, n: int) -> None:
    folder = generated(tmp, n)
    db = tmp / f"rebuild{n}.db"
    first = time.perf_counter()
    subprocess.run(cli("dataset", "build", str(folder), "--db", str(db), "--jobs", "2"),
                   check=True, capture_output=True)
    first = time.perf_counter() - first
    again = time.perf_counter()
    out = subprocess.run(cli("dataset", "build", str(folder), "--db", str(db), "--jobs", "2"),
                         check=True, capture_output=True, text=True).stdout.strip()
    out = out.splitlines()[0]
    again = time.perf_counter() - again
    print(f"rebuild of {n} built scenarios: {again:.1f} s against {first:.1f} s the first "
          f"time ({again / first:.2f}x; goal < 0.10x); it says: {out}")


def export_figures(tmp: Path, n: int) -> None:
    peaks: dict[str, list[int]] = {}
    for size in (n, 3 * n):
        folder = generated(tmp, size)
        db = tmp / f"export{size}.db"
        subprocess.run(cli("dataset", "build", str(folder), "--db", str(db)), check=True,
                       capture_output=True)
        for what, args in (("export jsonl", ["export", "--out", str(tmp / "x.jsonl")]),
                           ("export csv", ["export", "--format", "csv", "--out",
                                           str(tmp / "x.csv")]),
                           ("export parquet", ["export", "--format", "parquet", "--out",
                                               str(tmp / "pq")]),
                           ("check", ["check"])):
            peak, took = peak_memory(cli("dataset", *args, "--db", str(db)))
            peaks.setdefault(what, []).append(peak)
            print(f"dataset {what:<15} {size:>7} scenarios: peak {peak / 2**20:6.0f} MiB, "
                  f"{took:.1f} s")
    for what, (small, large) in peaks.items():
        print(f"dataset {what}: peak at {3 * n} is {large / small:.2f}x the peak at {n} "
              f"(flat: 1.0x; goal <= 150 MiB)")


def size_figures(tmp: Path, n: int) -> None:
    from comparator.store.packing import SCENARIO, unpack

    folder = generated(tmp, n)
    db = tmp / f"size{n}.db"
    subprocess.run(cli("dataset", "build", str(folder), "--db", str(db)), check=True,
                   capture_output=True)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        built = db.stat().st_size
        conn.execute("VACUUM")
        # What the store holds, as text: what schema version 7 kept (outcome and scenario
        # JSON whole, hashes in hex, a timestamp a row), before the indexes.
        plain = sum(len(unpack(p, era)) + 64 + 64 + 25 for era, p in conn.execute(
            "SELECT era, packed_outcome FROM run"))
        plain += sum(len(unpack(p, SCENARIO)) + 64 + 25 for (p,) in conn.execute(
            "SELECT packed_json FROM scenario"))
    files = sum(p.stat().st_size for p in folder.rglob("*.yaml"))
    stored = db.stat().st_size
    print(f"store size: {built / n / 1024:.2f} KiB per scenario as built, "
          f"{stored / n / 1024:.2f} KiB after VACUUM ({n} generated; goal <= 2 KiB); "
          f"the same content as text (version 7's rows, without their indexes): "
          f"{plain / n / 1024:.1f} KiB ({built / plain:.2f}x); the scenario files: "
          f"{files / n / 1024:.1f} KiB")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--small", type=int, default=50_000)
    ap.add_argument("--large", type=int, default=500_000)
    ap.add_argument("--n", type=int, default=2000, help="scenarios for engine, jobs, store")
    ap.add_argument("--only", action="append", help="engine jobs generate memory store "
                    "startup blocks kills rebuild export size")
    args = ap.parse_args()
    want = set(args.only or ["engine", "jobs", "generate", "memory", "store", "startup",
                             "blocks", "kills", "rebuild", "export", "size"])
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        figures = {
            "startup": startup_figures, "blocks": blocks_figures, "kills": kills_figures,
            "store": lambda: store_figures(tmp, args.n),
            "engine": lambda: engine_figures(tmp, args.n),
            "jobs": lambda: jobs_figures(tmp, args.n),
            "generate": lambda: generate_figures(tmp, args.n),
            "rebuild": lambda: rebuild_figures(tmp, args.n),
            "export": lambda: export_figures(tmp, args.n),
            "size": lambda: size_figures(tmp, args.n),
            "memory": lambda: memory_figures(tmp, args.small, args.large),
        }
        for name_, figure in figures.items():  # in this order: the slowest last
            if name_ in want:
                figure()

if __name__ == "__main__":
    main()
