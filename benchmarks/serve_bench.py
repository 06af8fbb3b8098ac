"""Figures for the workbench (`rulesdiff serve`), measured against the command line on the
same file in the same run (run: python benchmarks/serve_bench.py [FILE] [--n 50]).

- a run of one era: POST /api/run (target: under 100 ms);
- a six-era diff (fourth to foundations): POST /api/diff (target: under 300 ms);
- what the page asks on each edit: POST /api/view (check, every era, the pictures);
- the baseline: `rulesdiff diff FILE --json --no-store --era ...` (the same six eras), a
  new process each time, as a user or a script runs it.

Each figure is the median of N requests to a real server (uvicorn on 127.0.0.1), after
one request to warm it; the baseline is the median of five runs. Exit 1 if a target is
missed.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "data" / "scenarios" / "giant-growth-vs-assignment-order.yaml"
SIX = ["fourth", "fifth", "sixth", "m10", "m11", "foundations"]


def post(url: str, body: dict) -> float:
    request = urllib.request.Request(url, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as r:
        r.read()
        assert r.status == 200
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file", nargs="?", type=Path, default=FILE)
    parser.add_argument("--n", type=int, default=50)
    args = parser.parse_args()
    text = args.file.read_text(encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, "-m", "comparator", "serve", "--db",
                                   f"{tmp}/store.db", "--port", str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  cwd=tmp)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/vocabulary", timeout=2).read()
                    break
                except OSError:
                    time.sleep(0.1)
            figures = {}
            for label, path, body in (
                    ("run, one era (sixth)", "/api/run", {"yaml": text, "era": "sixth"}),
                    ("diff, six eras", "/api/diff", {"yaml": text, "eras": SIX}),
                    ("the page's view (all eras, pictures)", "/api/view", {"yaml": text})):
                post(base + path, body)  # warm
                figures[label] = statistics.median(post(base + path, body)
                                                   for _ in range(args.n))
        finally:
            server.terminate()
            server.wait(20)
        cli = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "comparator", "diff", str(args.file),
                            "--json", "--no-store", *[x for e in SIX for x in ("--era", e)]],
                           capture_output=True, check=False, cwd=tmp)
            cli.append(time.perf_counter() - start)
    baseline = statistics.median(cli)
    print(f"file: {args.file.name}; {args.n} requests each (median)")
    print(f"baseline: rulesdiff diff --json (six eras), a new process   "
          f"{baseline * 1000:8.1f} ms")
    targets = {"run, one era (sixth)": 0.100, "diff, six eras": 0.300}
    missed = False
    for label, took in figures.items():
        target = targets.get(label)
        verdict = "" if target is None else (
            f"; target < {target * 1000:.0f} ms: " + ("met" if took < target else "MISSED"))
        missed |= target is not None and took >= target
        print(f"{label:<40} {took * 1000:8.1f} ms  ({took / baseline:.2f}x the baseline"
              f"{verdict})")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
