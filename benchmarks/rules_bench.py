"""Figures for the rules' history (run: python benchmarks/rules_bench.py [REFERENCE_DIR]).

- importing the 2025-02-07 Comprehensive Rules into a new SQLite store (read, parse,
  store), against reading the file alone (target: under 2 s);
- a `history` lookup (510.1c, 702.2b, trample) with every full text imported, against the
  same read of the file (target: under 100 ms);
- an archive of 126 releases (issue 48): `rules import --git` of a git history of one file,
  one commit a release, made here from the six full texts (each text 21 times, its
  effective date moved on each time, so every release is a text of its own), against
  reading its 126 texts (target: well under a minute); then `history` over the 126
  releases against reading one file (target: under 200 ms);
- the same archive made adversarial: each release after a text's first changes one word in
  every line of it (a word further on each release), so no rule's words are the same in
  two releases and every step compares words (target: under 200 ms too);
- hostile texts (issue 49), each against reading the 2025 text: `history` of two texts whose
  rule is 2,000 words, the same ones over and over (was 88 s; target under 1 s), and reading
  a rule wrapped over 200,000 lines, its length bound lifted (was seconds, quadratic;
  target under 1 s).

Usage: python benchmarks/rules_bench.py [REFERENCE_DIR] (--help: this text).

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

    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__.strip())
        return
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
        archive(folder, Path(tmp), read)
        archive(folder, Path(tmp), read, vary=True)
        hostile(Path(tmp), read)


def hostile(tmp: Path, read: float) -> None:
    """The hostile texts of issue 49 that were slow, as their fixes leave them."""
    from comparator.rules import reading
    from comparator.rules.history import _likeness, history
    from comparator.rules.store import import_document
    from comparator.store.database import open_engine

    head = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}."
            "\n\n5. Turn Structure\n\n510. Combat Damage Step\n\n")
    engine = open_engine(f"{tmp}/repeated.db")
    for day, words in (("July 11, 2009", ["damage"] * 2000),
                       ("July 16, 2010", ["damage", "combat"] * 1000)):
        text = head.format(day) + "510.1c " + " ".join(words) + "\n"
        import_document(engine, reading.read_rules(text), f"{day}.txt", text)
    # Each time from nothing: likeness is cached.
    t = median_time(lambda: (_likeness.cache_clear(), history(engine, "510.1c")), repeat=3)
    print(f"history of 2,000 repeated words {t * 1000:8.1f} ms  ({t / read:.0f}x the read; "
          f"was 88 s; target < 1000 ms)")
    wrapped = head.format("July 11, 2009") + "510.1c start\n" + "\n".join(["word"] * 200_000)
    bound, reading.MAX_WORDS = reading.MAX_WORDS, 10**9
    try:
        t = median_time(lambda: reading.read_rules(wrapped), repeat=3)
    finally:
        reading.MAX_WORDS = bound
    print(f"read a rule wrapped over 200,000 lines {t * 1000:6.1f} ms  ({t / read:.0f}x the "
          f"read; target < 1000 ms)")


def varied(text: str, m: int) -> str:
    """The text with one word of each long line changed, a word further on in release `m`
    (the rule numbers, the headings and the contents are left as they are)."""
    import re

    def one(line: str) -> str:
        words = line.split(" ")
        spoken = [k for k, w in enumerate(words) if re.fullmatch(r"[a-z]{3,}", w)]
        if len(line.split()) < 8 or not spoken or " as of " in line:  # its date stays
            return line
        k = spoken[m % len(spoken)]
        words[k] = words[k] + "s"
        return " ".join(words)

    return "\n".join(one(line) for line in text.split("\n"))


def archive(folder: Path, tmp: Path, read: float, copies: int = 21, vary: bool = False
            ) -> None:
    import os
    import re
    import subprocess
    from datetime import date, timedelta

    from comparator.rules.history import history
    from comparator.store.database import open_engine

    repo = tmp / ("varied" if vary else "archive")
    repo.mkdir()
    git = ["git", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    texts = []
    # Each text first on its own day (so each era's own document is there, as in a real
    # archive), then again, dated on, until the next text's day.
    starts = [date.fromisoformat("2009-07-11" if d == "2009-07-08" else d) for d in FULL]
    for k, when in enumerate(FULL):
        text = (folder / f"cr-{when}.txt").read_text(encoding="utf-8", errors="replace")
        step = ((starts[k + 1] - starts[k]) / copies if k + 1 < len(starts)
                else timedelta(days=30))
        for m in range(copies):
            day = starts[k] + step * m
            stamp = day.strftime("%B %-d, %Y")
            texts.append((day, text if m == 0 else re.sub(
                r"(current|effective) as of [A-Z][a-z]+ \d{1,2}, \d{4}", rf"\1 as of {stamp}",
                varied(text, m) if vary else text, count=1)))
    for day, text in texts:
        (repo / "comprehensive-rules.txt").write_text(text, encoding="utf-8")
        when = f"{day.isoformat()}T12:00:00"
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "-c", "user.name=b", "-c", "user.email=b@example.invalid",
                        "commit", "-q", "-m", f"[{day:%B %Y}] Release {day} R{len(texts)}"],
                       check=True, env={**os.environ, "GIT_AUTHOR_DATE": when,
                                        "GIT_COMMITTER_DATE": when})
    start = time.perf_counter()
    for _, text in texts:
        text.encode("utf-8")
    read_all = max(time.perf_counter() - start, read * len(texts))
    db = tmp / f"{repo.name}.db"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "comparator", "rules", "import", "--git", str(repo),
                    "--db", str(db), "--json"], check=True, capture_output=True)
    took = time.perf_counter() - start
    kind = "varied releases" if vary else "releases (--git)"
    print(f"import {len(texts)} {kind}  {took:6.1f} s  ({took / read_all:.0f}x reading "
          f"them; target well under 60 s)")
    engine = open_engine(str(db))
    for rule in ("510.1c", "deathtouch", "trample", "509.2", "first strike",
                 "damage on the stack"):
        t = median_time(lambda rule=rule: history(engine, rule), repeat=5)
        print(f"history {rule:<19} over {len(texts)} {'varied ' if vary else ''}releases "
              f"{t * 1000:7.1f} ms  "
              f"({t / read:.1f}x reading one file; target < 200 ms)")


if __name__ == "__main__":
    main()
