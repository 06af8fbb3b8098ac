"""Explore figures (run: python benchmarks/explore_bench.py).

- the contract's case in every era as the command runs it, the eras one after another
  (the baseline) and at once on every core (`--jobs`), and the peak memory of each (the
  process tree's, proportional: shared pages counted once);
- the contract's case (explore contract §6.6): a 10-power trampler blocked by five
  creatures, one pump for each player, explored in every era on one core; the target is
  under 5 seconds for the eras of the contract's time (sixth, m10, foundations);
- lines of play per second, with the exact merging on and, as the baseline measured in the
  same run, with it off (brute force) on a case small enough for both;
- the same for Duel Masters: five blockers that each draw a card, every redirection
  (`--blocks all`) before the 2021-09-07 change, where every order of the draws is a line;
  the merge plays one order out for all;
- two boards a judge meets at a prerelease (issue 50), `explore` of all eras as a user
  runs it, today's code against a baseline revision (`--baseline REV`, a `git archive` of
  it run side by side; its time printed where it finishes within BASELINE_TIMEOUT): a
  1/100 blocked by nine 1/1s (9! damage assignment orders in m10 and m11; goal < 2 s), and
  six Giant Growths castable in six windows on any of six creatures (goal < 10 s), with
  the same line counts and outcomes where both finish.

Run: python benchmarks/explore_bench.py [--baseline REV] [--only prerelease]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from dataset_bench import peak_sizes  # noqa: E402 - the process tree's memory, sampled

CASE = Path(__file__).with_name("explore-trampler-five-blockers.yaml")
PRERELEASE = {"nine chump blockers": Path(__file__).with_name("explore-nine-chump-blockers.yaml"),
              "six pumps": Path(__file__).with_name("explore-six-pumps.yaml")}
BASELINE_TIMEOUT = 120  # seconds the baseline may take on one board before it is stopped
SMALL = "enormous-baloth-shared-blocker"


def calibration() -> float:
    """A fixed pure-Python workload, to compare machines: seconds of CPU."""
    start = time.process_time()
    total = 0
    for i in range(3_000_000):
        total += i % 7
    spent = time.process_time() - start
    print(f"calibration: 3,000,000 loop steps in {spent:.2f} s cpu")
    return spent


def contract_case(unit: float) -> None:
    from comparator.games.mtg.explore import Explorer
    from comparator.scenarios.loader import load
    from versions import ERA_IDS

    scenario = load(CASE)
    total = 0.0
    contract = 0.0
    for era in ERA_IDS:
        start = time.process_time()
        explorer = Explorer(scenario, era)
        found = explorer.run()
        spent = time.process_time() - start
        total += spent
        if era in ("sixth", "m10", "foundations"):
            contract += spent
        assert found is not None
        print(f"{era:<12} {spent:6.2f} s cpu  {found.lines:>8} lines  "
              f"{explorer.leaves:>6} played out  {len(found.outcomes):>3} outcomes")
    print(f"contract case: {contract:.2f} s for sixth, m10, foundations "
          f"(target < 5 s; {contract / unit:.1f}x the calibration); {total:.2f} s for all "
          f"{len(ERA_IDS)} eras")


def stack_classes() -> None:
    """Damage searched once for each class of it (on the stack in sixth; dealt at once in
    m10), against the same search position by position (the baseline), in the same run."""
    from comparator.games.mtg.explore import Explorer
    from comparator.scenarios.loader import load

    scenario = load(CASE)
    for era in ("sixth", "m10"):
        spent = {}
        for classes in (False, True):
            start = time.process_time()
            explorer = Explorer(scenario, era)
            explorer.stack_classes = explorer.stack_classes and classes
            found = explorer.run()
            spent[classes] = time.process_time() - start
            assert found is not None
            print(f"{era}, classes of damage {'on ' if classes else 'off'}: "
                  f"{spent[classes]:.2f} s cpu, {explorer.visited} positions, "
                  f"{len(explorer.by_class)} classes, {explorer.reused} positions answered "
                  f"by their class")
        print(f"classes of damage: {era} {spent[False] / spent[True]:.1f}x faster")


def orders_at_once() -> None:
    """The windows before combat damage searched once for every damage assignment order
    (skyshroud-behemoth-five-blockers: 120 orders of five blockers, four tricks), against
    the same search order by order (the baseline), in the same run, m10 and m11."""
    from comparator.files.locations import find_scenario
    from comparator.games.mtg.explore import Explorer
    from comparator.scenarios.loader import load

    scenario = load(find_scenario("skyshroud-behemoth-five-blockers"))
    for era in ("m10", "m11"):
        spent = {}
        for at_once in (False, True):
            start = time.process_time()
            explorer = Explorer(scenario, era)
            explorer.orders_at_once = at_once
            found = explorer.run()
            spent[at_once] = time.process_time() - start
            assert found is not None
            print(f"{era}, orders {'at once    ' if at_once else 'one by one'}: "
                  f"{spent[at_once]:.2f} s cpu, {found.lines} lines, {explorer.visited} "
                  f"positions searched")
        print(f"orders at once: {era} {spent[False] / spent[True]:.2f}x faster")


def lines_per_second() -> None:
    from comparator.files.locations import find_scenario
    from comparator.games.mtg.explore import Explorer
    from comparator.scenarios.loader import load

    path = find_scenario(SMALL)
    assert path is not None
    scenario = load(path)
    rates = {}
    for merge in (False, True):
        start = time.process_time()
        lines = 0
        for era in ("sixth", "m10", "foundations"):
            found = Explorer(scenario, era, merge=merge).run()
            lines += found.lines if found else 0
        spent = time.process_time() - start
        rates[merge] = lines / spent
        print(f"{SMALL}, merging {'on ' if merge else 'off'}: {lines} lines in "
              f"{spent:.2f} s ({rates[merge]:.0f} lines/s)")
    print(f"merging: {rates[True] / rates[False]:.1f}x the brute-force baseline")


def duel_masters_lines_per_second() -> None:
    from comparator.games.duel_masters.explore import Explorer
    from comparator.scenarios.loader import parse

    blockers = "\n".join(f"  - {{id: b{i}, controller: B, power: {1000 * (i + 1)}, keywords: "
                         f"[blocker], abilities: [{{trigger: blocks, effect: draw}}]}}"
                         for i in range(5))
    scenario = parse(f"id: dm-bench\ntitle: Five blockers that draw\ngame: duel-masters\n"
                     f"players: [{{name: A}}, {{name: B}}]\nactive: A\npermanents:\n"
                     f"  - {{id: att, controller: A, power: 3500}}\n{blockers}\n"
                     f"combat:\n  attacks: {{att: B}}\n", "dm-bench")
    rates = {}
    for merge in (False, True):
        start = time.process_time()
        found = Explorer(scenario, "dm-pre-2021-09", blocks="all", merge=merge).run()
        spent = time.process_time() - start
        lines = found.lines if found else 0
        rates[merge] = lines / spent
        print(f"Duel Masters, five blockers that draw (dm-pre-2021-09, blocks all), merging "
              f"{'on ' if merge else 'off'}: {lines} lines in {spent:.2f} s "
              f"({rates[merge]:.0f} lines/s)")
    print(f"Duel Masters merging: {rates[True] / rates[False]:.1f}x the one-line-at-a-time "
          f"baseline")


def all_eras_at_once() -> None:
    """The contract's case and skyshroud-behemoth-five-blockers (four tricks, five
    blockers) in every era as `explore` runs them: the eras one after another (--jobs 1,
    the baseline) and at once on every core, wall-clock time of the command; and the
    default human output against the JSON."""
    import os
    import shutil
    import subprocess

    exe = shutil.which("rulesdiff")
    cmd = [exe] if exe else [sys.executable, "-m", "comparator"]
    cores = os.cpu_count() or 1
    # As an installed rulesdiff runs: its bytecode cached (see dataset_bench's start-up).
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([*cmd, "eras"], capture_output=True, check=False, env=cached)
    for name, case in (("the contract case", str(CASE)),
                       ("skyshroud-behemoth-five-blockers", "skyshroud-behemoth-five-blockers")):
        walls = {}
        for jobs in (1, cores):
            start = time.perf_counter()
            subprocess.run([*cmd, "explore", case, "--no-store", "--json", "--jobs",
                            str(jobs)], capture_output=True, check=False, env=cached)
            walls[jobs] = time.perf_counter() - start
            print(f"explore of {name}, all eras, --jobs {jobs}: {walls[jobs]:.2f} s wall")
        print(f"eras at once on {cores} cores: {walls[1] / walls[cores]:.2f}x faster than "
              f"one after another (goal: all eras < 3 s)")
        # What a user sees by default: the words and the table of outcomes, not the JSON.
        start = time.perf_counter()
        subprocess.run([*cmd, "explore", case, "--no-store", "--jobs", str(cores)],
                       capture_output=True, check=False, env=cached)
        human = time.perf_counter() - start
        print(f"explore of {name}, all eras, --jobs {cores}, the human output: {human:.2f} s "
              f"wall ({human / walls[cores]:.2f}x the JSON's)")
        # Peak memory, run again (sampling /proc would slow the timed runs): the resident
        # sizes of the process tree added up, and its proportional size, which counts once
        # the pages forked workers share with their parent (goal: < 150 MB).
        peaks = {}
        for jobs in (1, cores):
            rss, pss, _ = peak_sizes([*cmd, "explore", case, "--no-store", "--json", "--jobs",
                                      str(jobs)], proportional=True, env=cached)
            peaks[jobs] = pss
            print(f"explore of {name}, all eras, --jobs {jobs}: peak {pss / 2**20:.0f} MiB "
                  f"proportional ({pss / 1e6:.0f} MB), {rss / 2**20:.0f} MiB resident sizes "
                  f"added up")
        print(f"peak on {cores} cores: {peaks[cores] / peaks[1]:.2f}x one process's "
              f"(goal: < 150 MB)")


def prerelease_boards(baseline: str) -> None:
    """The two boards of issue 50, all eras, `explore --json` as a user runs it: today's
    code and the baseline's, wall time of each, and what each found."""
    import json
    import subprocess
    import tempfile

    from side_by_side import baseline_tree

    def explore(code: Path, case: Path, timeout: float | None) -> tuple[float, dict | str]:
        env = {**__import__("os").environ, "PYTHONPATH": str(code), "NO_COLOR": "1"}
        start = time.perf_counter()
        try:
            done = subprocess.run([sys.executable, "-m", "comparator", "explore", str(case),
                                   "--json", "--no-store"], cwd=code, env=env,
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return time.perf_counter() - start, f"stopped after {timeout} s"
        wall = time.perf_counter() - start
        if done.returncode != 0:
            return wall, done.stderr.strip().splitlines()[-1] if done.stderr else "failed"
        eras = json.loads(done.stdout)["eras"]
        return wall, {era: (found["lines"], sorted(json.dumps(o["state"], sort_keys=True)
                                                   for o in found["outcomes"]))
                      for era, found in eras.items()}

    def said(found: dict | str) -> str:
        return found if isinstance(found, str) else ", ".join(
            f"{era} {lines}" for era, (lines, _) in found.items())

    with tempfile.TemporaryDirectory() as tmp:
        old = baseline_tree(baseline, Path(tmp))
        # Seven of the nine blockers: small enough (5,040 orders) for the baseline to
        # finish, so that the lines and outcomes of both can be compared.
        seven = Path(tmp) / "seven-chump-blockers.yaml"
        nine = PRERELEASE["nine chump blockers"].read_text(encoding="utf-8")
        seven.write_text("\n".join(line for line in nine.splitlines()
                                    if "id: g8" not in line and "id: g9" not in line)
                         .replace(", g8: giant, g9: giant", "") + "\n", encoding="utf-8")
        for name, case in {"seven chump blockers": seven, **PRERELEASE}.items():
            new_wall, new = explore(ROOT, case, None)
            old_wall, was = explore(old, case, BASELINE_TIMEOUT)
            print(f"{name}, all eras: {new_wall:.2f} s today ({said(new)})")
            print(f"{name}, all eras: {old_wall:.2f} s at {baseline} ({said(was)})")
            if isinstance(new, dict) and isinstance(was, dict):
                same = new == was
                print(f"{name}: {old_wall / new_wall:.1f}x faster; the same lines and "
                      f"outcomes in every era: {same}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", default="ccb0d90", help="the revision compared with")
    parser.add_argument("--only", choices=("prerelease",))
    args = parser.parse_args()
    prerelease_boards(args.baseline)
    if args.only:
        sys.exit(0)
    all_eras_at_once()
    contract_case(calibration())
    stack_classes()
    orders_at_once()
    lines_per_second()
    duel_masters_lines_per_second()
