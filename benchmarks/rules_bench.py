"""Figures for the rules' history (run: python benchmarks/rules_bench.py [REFERENCE_DIR]).

- importing the 2025-02-07 Comprehensive Rules into a new SQLite store (read, parse,
  store), against reading the file alone (target: under 2 s);
- a `history` lookup (510.1c, 702.2b, trample) with every full text imported, against the
  same read of the file (target: under 100 ms).

The texts are not shipped: they are read from ../shared/reference/ beside the repository,
or from the folder given.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FULL = ("1999-04-23", "2009-05-01", "2009-07-08", "2010-07-16", "2022-04-29", "2025-02-07")


def median_time(work, repeat: int = 5) -> float:  # noqa: ANN001 - any callable
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    from comparator.rules.history import history
    from comparator.rules.reading import read_rules
    from comparator.rules.store import import_document
    from comparator.store.database import open_engine

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "reference"
    newest = folder / "cr-2025-02-07.txt"
    if not newest.exists():
        sys.exit(f"no {newest}: give the folder of the rules texts")
    read = median_time(lambda: newest.read_text(encoding="utf-8"))
    print(f"read the 2025-02-07 text      {read * 1000:8.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        counter = iter(range(1000))

        def import_once() -> None:
            engine = open_engine(f"{tmp}/import-{next(counter)}.db")
            text = newest.read_text(encoding="utf-8")
            import_document(engine, read_rules(text), newest.name, text)
            engine.dispose()

        t = median_time(import_once)
        print(f"import it (new SQLite store)  {t * 1000:8.1f} ms  ({t / read:.0f}x the read; "
              f"target < 2000 ms)")

        engine = open_engine(f"{tmp}/all.db")
        for date in FULL:
            path = folder / f"cr-{date}.txt"
            text = path.read_text(encoding="utf-8")
            import_document(engine, read_rules(text), path.name, text)
        for rule in ("510.1c", "702.2b", "trample"):
            t = median_time(lambda rule=rule: history(engine, rule), repeat=9)
            print(f"history {rule:<21} {t * 1000:8.1f} ms  ({t / read:.1f}x the read; "
                  f"target < 100 ms)")


if __name__ == "__main__":
    main()
