"""Today's code against a baseline revision, run side by side on this machine in one run
(issue 47: a change of layout must change no behaviour, no speed and no stored byte).

Run: python benchmarks/side_by_side.py --baseline REV [--n 20000] [--only behaviour|speed]

- behaviour: every shipped scenario's `diff --json --no-store` (its output and exit code),
  the help of every command and group, the README's diff transcript, and every byte of
  the site built from the shipped library into an empty store: the same from both codes,
  or each difference named (exit 1);
- speed: `dataset generate --count N --jobs 2` and `dataset build --jobs 2` of what each
  generated, each code timed in turns (four rounds, ABBA, the median of each kept: wall
  time, and CPU time in user mode and in the kernel); and the
  stored bytes: both stores hold the same scenarios (by content hash), packed to the same
  bytes, and take the same bytes on disk per scenario.

The baseline is a `git archive` of REV in a temporary folder, run with this environment's
packages (PYTHONPATH puts its code first); today's code is this checkout.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GROUPS = ("cards", "rules", "dataset")


def rulesdiff(code: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(code), "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "comparator", *args], cwd=cwd or code,
                          env=env, capture_output=True, text=True)


def baseline_tree(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, check=True,
                             capture_output=True).stdout
    out = into / "baseline"
    out.mkdir()
    with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
        tar.extractall(out, filter="data")
    return out


# -- behaviour --------------------------------------------------------------------------

_OUTPUTS = """
import json, sys
from typer.testing import CliRunner
try:
    from comparator.cli.main import app
except ImportError:  # the layout before issue 47
    from comparator.cli import app
ids = json.loads(sys.argv[1])
runner = CliRunner()
out = {}
for i in ids:
    r = runner.invoke(app, ["diff", i, "--json", "--no-store"])
    out["diff " + i] = [r.exit_code, r.output]
commands = [[]] + [c.split() for c in sys.argv[2].split(",")]
for c in commands:
    r = runner.invoke(app, [*c, "--help"], terminal_width=100)
    out["help " + " ".join(c)] = [r.exit_code, r.output]
print(json.dumps(out))
"""


def outputs(code: Path, ids: list[str], commands: list[str]) -> dict[str, list]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run([sys.executable, "-c", _OUTPUTS, json.dumps(ids), ",".join(commands)],
                          cwd=code, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def site_files(code: Path, out: Path) -> dict[str, bytes]:
    done = rulesdiff(code, "site", str(out), "--db", str(out.parent / f"{out.name}.db"))
    if done.returncode != 0:
        raise SystemExit(f"site failed with {code}: {done.stderr}")
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file()}


def behaviour(base: Path, tmp: Path) -> bool:
    ids = sorted(p.stem for p in (ROOT / "data" / "scenarios").glob("*.yaml"))
    section = rulesdiff(ROOT, "--help").stdout.split("Commands:")[1].splitlines()
    commands = [line.split()[0] for line in section if line.startswith("  ")
                and not line.startswith("   ")]
    commands += [f"{g} {c}" for g in GROUPS
                 for c in ("import", "show", "check", "build", "generate", "export")
                 if rulesdiff(ROOT, g, c, "--help").returncode == 0]
    differing = []
    then, now = outputs(base, ids, commands), outputs(ROOT, ids, commands)
    differing += [k for k in sorted(set(then) | set(now)) if then.get(k) != now.get(k)]
    print(f"diff --json of {len(ids)} shipped scenarios and the help of {len(commands) + 1} "
          f"commands: {len(then) - len(differing)} of {len(then)} the same")
    readme = (ROOT / "README.md").read_text()
    shown = readme.split("<!-- diff-example -->")[1].split("```")[1]
    command = shown.strip().splitlines()[0].removeprefix("$ rulesdiff ").split()
    same = [rulesdiff(c, *command).stdout for c in (base, ROOT)]
    print(f"README transcript (rulesdiff {' '.join(command)}): "
          f"{'the same' if same[0] == same[1] else 'DIFFERENT'}")
    if same[0] != same[1]:
        differing.append("README transcript")
    sites = [site_files(c, tmp / name) for c, name in ((base, "site-then"), (ROOT, "site-now"))]
    files = set(sites[0]) | set(sites[1])
    other = sorted(f for f in files if sites[0].get(f) != sites[1].get(f))
    print(f"site: {len(files)} files, {len(files) - len(other)} byte for byte the same")
    differing += [f"site {f}" for f in other]
    for d in differing[:40]:
        print(f"  DIFFERENT: {d}")
    return not differing


# -- speed and stored bytes -------------------------------------------------------------

def stored(db: Path) -> dict[str, object]:
    with sqlite3.connect(db) as conn:
        scenarios = conn.execute("SELECT hex(content_hash), packed_json FROM scenario").fetchall()
        runs = conn.execute("SELECT SUM(LENGTH(packed_outcome)), COUNT(*) FROM run").fetchone()
    return {"hashes": sorted(h for h, _ in scenarios),
            "packed_scenarios": sum(len(p) for _, p in scenarios),
            "packed_outcomes": runs[0], "runs": runs[1], "disk": db.stat().st_size}


def _timed(code: Path, *args: str) -> tuple[dict[str, float], subprocess.CompletedProcess]:
    """Wall seconds, and the CPU seconds of the command's whole process tree: in user mode
    (the code's own work) and in the kernel (creating and writing files, mostly)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = rulesdiff(code, *args)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"wall": wall, "user": after.ru_utime - before.ru_utime,
            "kernel": after.ru_stime - before.ru_stime}, done


def speed(base: Path, tmp: Path, n: int, rounds: int = 4) -> bool:
    """Each code in turn, `rounds` times, in the order ABBA (the first run of a sequence
    meets a quieter kernel): the median of each figure. The kernel's time to create files
    drifts by the minute on this machine (1 to 9 s for the same 20,000 files), so the user
    time, the code's own work, is printed beside the wall time."""
    times: dict[tuple[str, str, str], list[float]] = {}
    kept: dict[str, dict[str, object]] = {}
    codes = (("baseline", base), ("today", ROOT))
    for r in range(rounds):
        for name, code in codes if r % 2 == 0 else codes[::-1]:
            out, db = tmp / f"gen-{name}-{r}", tmp / f"build-{name}-{r}.db"
            generated, done = _timed(code, "dataset", "generate", str(out), "--seed", "3",
                                     "--count", str(n), "--jobs", "2")
            assert done.returncode == 0, done.stderr
            built, done = _timed(code, "dataset", "build", str(out), "--db", str(db),
                                 "--jobs", "2")
            assert done.returncode in (0, 1), done.stderr
            for what, figures in (("generate", generated), ("build", built)):
                for kind, took in figures.items():
                    times.setdefault((name, what, kind), []).append(took)
            kept[name] = stored(db)
            subprocess.run(["rm", "-rf", str(out), str(db)], check=True)
    for what in ("generate", "build"):
        m = {(name, kind): statistics.median(times[(name, what, kind)])
             for name, _ in codes for kind in ("wall", "user", "kernel")}
        then, now = m[("baseline", "wall")], m[("today", "wall")]
        print(f"dataset {what} --jobs 2, {n:,} scenarios (medians of {rounds}): baseline "
              f"{n / then:6.0f}/s, today {n / now:6.0f}/s ({then / now:.2f}x); user CPU "
              f"{m[('baseline', 'user')]:5.1f} s against {m[('today', 'user')]:5.1f} s "
              f"({m[('baseline', 'user')] / m[('today', 'user')]:.2f}x), kernel "
              f"{m[('baseline', 'kernel')]:4.1f} s against {m[('today', 'kernel')]:4.1f} s")
    then, now = kept["baseline"], kept["today"]
    same_scenarios = then["hashes"] == now["hashes"]
    print(f"stored: the same {len(now['hashes']):,} scenarios by content hash: "
          f"{'yes' if same_scenarios else 'NO'}; runs {then['runs']:,} / {now['runs']:,}")
    for key in ("packed_scenarios", "packed_outcomes", "disk"):
        print(f"  {key}: baseline {then[key] / n:8.1f} B a scenario, today "
              f"{now[key] / n:8.1f} B")
    return same_scenarios and all(then[k] == now[k] for k in
                                  ("packed_scenarios", "packed_outcomes", "runs"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="a git revision to compare with")
    parser.add_argument("--n", type=int, default=20_000, help="scenarios generated and built")
    parser.add_argument("--only", choices=("behaviour", "speed"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        base = baseline_tree(args.baseline, tmp)
        ok = True
        if args.only in (None, "behaviour"):
            ok &= behaviour(base, tmp)
        if args.only in (None, "speed"):
            ok &= speed(base, tmp, args.n)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
