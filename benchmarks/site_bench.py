"""Figures for `rulesdiff site` on the shipped library (run: python benchmarks/site_bench.py).

- from an empty store: every scenario run, explored and stored, every page written, the
  search index made (target: under 60 s on the 2-core machine);
- with everything stored: the same site again (target: under 10 s);
- the baseline, measured in the same run: running every shipped scenario in every era
  once (`diff`'s work, no storing, no pages).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from comparator.compare.running import run_files
    from comparator.files.locations import shipped_scenarios
    from versions import ALL_ERAS

    paths = shipped_scenarios()
    eras = [e.id for e in ALL_ERAS]
    jobs = os.cpu_count() or 1
    start = time.perf_counter()
    run_files(paths, eras)
    base = time.perf_counter() - start
    print(f"baseline: run {len(paths)} scenarios in every era   {base:7.2f} s")
    with tempfile.TemporaryDirectory() as tmp:
        # Each build a new process, as `rulesdiff site` is: nothing kept in memory between.
        for label, out, target in (("site from an empty store", "one", 60),
                                   ("site with everything stored", "two", 10)):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "comparator", "site",
                                   f"{tmp}/{out}", "--db", f"{tmp}/store.db", "--json",
                                   "--jobs", str(jobs)], capture_output=True, text=True,
                                  check=True)
            took = time.perf_counter() - start
            pages = json.loads(done.stdout)["pages"]
            print(f"{label:<32} {took:7.2f} s  ({took / base:.0f}x the baseline; "
                  f"target < {target} s; {pages} pages, {jobs} jobs)")


if __name__ == "__main__":
    main()
