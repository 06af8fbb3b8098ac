"""Figures for the performance targets (run: python benchmarks/bench.py).

- start-up: `rulesdiff --help` and `rulesdiff eras` against `python -c pass`;
- dataset build: scenarios × eras per second, storage included, on copies of the shipped
  scenarios with fresh ids.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(cmd: list[str], repeat: int = 7, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=False, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def startup() -> None:
    exe = shutil.which("rulesdiff")
    base = timed([sys.executable, "-c", "pass"])
    print(f"python -c pass          {base * 1000:7.1f} ms")
    for args in (["--help"], ["eras"]):
        cmd = [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]
        t = timed(cmd)
        print(f"rulesdiff {' '.join(args):<13} {t * 1000:7.1f} ms  ({t / base:.1f}x python)")


def build(n: int = 600) -> None:
    from comparator.compare.running import run_files
    from comparator.dataset.runs import save
    from comparator.files.locations import shipped_scenarios
    from comparator.store.database import open_engine
    from versions import ERA_IDS

    sources = shipped_scenarios()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "s"
        folder.mkdir()
        for i in range(n):
            src = sources[i % len(sources)]
            text = src.read_text()
            first = text.split("\n", 1)
            (folder / f"b{i}.yaml").write_text(f"id: bench-{i}\n" + first[1])
        paths = sorted(folder.glob("*.yaml"))
        engine = open_engine(str(Path(tmp) / "bench.db"))
        start = time.perf_counter()
        results = run_files(paths, list(ERA_IDS))
        ran = time.perf_counter() - start
        save(engine, results)
        total = time.perf_counter() - start
    runs = n * len(ERA_IDS)
    print(f"dataset build: {n} scenarios x {len(ERA_IDS)} eras in {total:.2f} s "
          f"({n / total:.0f} scenarios/s, {runs / total:.0f} runs/s; "
          f"running {ran:.2f} s, storing {total - ran:.2f} s)")


def build_jobs(n: int = 600) -> None:
    """`dataset build` as a user runs it, batches and worker processes, against one worker
    (the baseline, in the same run)."""
    from comparator.dataset.runs import build as build_dataset
    from comparator.files.locations import shipped_scenarios
    from comparator.store.database import open_engine
    from versions import ERA_IDS

    sources = shipped_scenarios()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "s"
        folder.mkdir()
        for i in range(n):
            text = sources[i % len(sources)].read_text()
            (folder / f"b{i}.yaml").write_text(f"id: bench-{i}\n" + text.split("\n", 1)[1])
        paths = sorted(folder.glob("*.yaml"))
        rates = {}
        for jobs in (1, 2):
            engine = open_engine(str(Path(tmp) / f"jobs{jobs}.db"))
            start = time.perf_counter()
            stored = sum(len(batch) for batch in build_dataset(
                engine, paths, list(ERA_IDS), jobs=jobs, batch=200))
            assert stored == n
            rates[jobs] = n / (time.perf_counter() - start)
            print(f"dataset build --jobs {jobs}: {rates[jobs]:.0f} scenarios/s")
        print(f"--jobs 2: {rates[2] / rates[1]:.2f}x --jobs 1")


if __name__ == "__main__":
    startup()
    build()
    build_jobs()
