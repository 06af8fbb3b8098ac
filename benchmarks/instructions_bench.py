"""Instructions a generated scenario costs, this checkout against another git revision,
counted by valgrind's callgrind: the same count whatever else the machine is doing, where
wall and CPU times on a 2-core machine whose speed changes by half from one minute to the
next can't tell a change of 10 % from noise.

Run: python benchmarks/instructions_bench.py --baseline REV [--n 100]

- generate: drawing one scenario and writing its YAML text (`dataset generate` without
  the files: creating them is the kernel's time);
- build: what a build's worker does with one generated file (`dataset._run_some`, given
  an empty store): read and check it, hash it, run it in every era, compare the eras,
  encode and pack the rows (the writing process's inserts not counted).

Each figure is counted at N and at 0 scenarios after the same warm-up (imports, the card
library, the first run), so start-up is taken off; each code runs from its own directory,
the baseline from a temporary git worktree, on the same generated files. Needs valgrind.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORK = {
    "generate": """
import sys
sys.path.insert(0, ".")
from comparator.games.mtg import generate
from comparator.games.mtg.generate import scenario_document
to_text = getattr(generate, "to_text", None) or generate.to_yaml  # a baseline before issue 47
for i in range(5):
    to_text(scenario_document(77, i))
for i in range({n}):
    to_text(scenario_document(77, 1000 + i))
""",
    "build": """
import sys, tempfile
sys.path.insert(0, ".")
from pathlib import Path
try:  # the layout of issue 47, else the one before it (a baseline may be either)
    from comparator.dataset.runs import _run_some
    from comparator.store.database import open_engine
except ImportError:
    from comparator.dataset import _run_some
    from comparator.store import open_engine
from versions import ERA_IDS
files = [str(p) for p in sorted(Path({folder!r}).rglob("*.yaml"))]
eras = list(ERA_IDS)
url = str(open_engine(tempfile.mkdtemp() + "/bench.db").url)  # empty: nothing is skipped
_run_some((files[:5], eras, url))
_run_some((files[5:5 + {n}], eras, url))
""",
}


def instructions(code: Path, script: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", script], cwd=code, capture_output=True, text=True, check=True)
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if not found:
        raise SystemExit(f"callgrind counted nothing:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_scenario(code: Path, work: str, n: int, folder: Path) -> float:
    counts = [instructions(code, WORK[work].format(n=k, folder=str(folder))) for k in (0, n)]
    return (counts[1] - counts[0]) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="a git revision to compare with")
    parser.add_argument("--n", type=int, default=100, help="scenarios counted (default 100)")
    parser.add_argument("--only", choices=sorted(WORK))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is needed (Debian: apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "-f", str(base), args.baseline],
                       cwd=ROOT, check=True, capture_output=True)
        try:
            folder = Path(tmp) / "gen"
            subprocess.run([sys.executable, "-m", "comparator", "dataset", "generate",
                            str(folder), "--seed", "3", "--count", str(args.n + 5)],
                           cwd=ROOT, check=True, capture_output=True)
            for work in [args.only] if args.only else sorted(WORK):
                now = per_scenario(ROOT, work, args.n, folder)
                then = per_scenario(base, work, args.n, folder)
                print(f"{work:9} {now / 1e6:6.2f} M instructions a scenario against "
                      f"{then / 1e6:6.2f} M at {args.baseline}: {now / then:.2f}x")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                           check=False, capture_output=True)


if __name__ == "__main__":
    main()
