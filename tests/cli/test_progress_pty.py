"""Progress bars (issue 50): the real `rulesdiff`, its stderr on a pseudo-terminal, shows a
bar saying what it does on a long explore and a long dataset build; the same commands piped,
with --json, or quick print nothing but their result.

The long commands are started together, once for the module (each is a process of its
own: a bar appears after a second of work, so each must work for a few), and each test
reads the one it is about."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "scenarios"
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLUMNS, LINES = 120, 40
# Six Giant Growths, each castable once blocks are declared on any of six 2/2s, three
# blocked by three: in one era, forty million lines of play, in a few seconds of search.
WINDOWS = "[declare-blockers]"
TARGETS = "[a1, a2, a3, b1, b2, b3]"
PUMPS = "\n".join([
    "id: six-pumps", "title: six pump spells once blocks are declared",
    "players: [{name: A}, {name: B}]", "active: A", "permanents:",
    *(f"  - {{id: {c}{i}, controller: {c.upper()}, power: 2, toughness: 2}}"
      for c in "ab" for i in (1, 2, 3)),
    "combat:", "  attacks: {a1: B, a2: B, a3: B}", "  blocks: {b1: a1, b2: a2, b3: a3}",
    "actions:",
    *(f"  - {{at: {WINDOWS}, by: {'AB'[k % 2]}, effect: pump, target: {TARGETS}, "
      f"power: 3, toughness: 3, card: Giant Growth}}" for k in range(6)),
]) + "\n"
COPIES = 3  # of the shipped library, for a build of a few seconds on one process


def _environment() -> dict[str, str]:
    """A terminal's environment, of a known size; nothing that forces rich's hand."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    return {**env, "COLUMNS": str(COLUMNS), "LINES": str(LINES), "TERM": "xterm"}


def _command(*args: str) -> list[str]:
    exe = shutil.which("rulesdiff", path=str(Path(sys.executable).parent))
    return [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]


class Run:
    """A command started now, its stdout on a pipe and its stderr on a pseudo-terminal
    (`terminal`) or a pipe."""

    def __init__(self, *args: str, terminal: bool = True) -> None:
        self.terminal = terminal
        self._seen: list[bytes] = []
        if not terminal:
            self.process = subprocess.Popen(_command(*args), stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                            env=_environment())
            return
        leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.process = subprocess.Popen(_command(*args), stdout=subprocess.PIPE,
                                        stderr=follower, stdin=subprocess.DEVNULL,
                                        env=_environment())
        os.close(follower)
        # Read as it comes: a terminal nobody reads fills up and stops the command.
        self._reader = threading.Thread(target=self._drain, args=(leader,), daemon=True)
        self._reader.start()

    def _drain(self, leader: int) -> None:
        try:
            while chunk := os.read(leader, 65536):
                self._seen.append(chunk)
        except OSError:  # the command is gone: its terminal is closed
            pass
        finally:
            os.close(leader)

    def result(self) -> tuple[int, str, str]:
        """Its exit code, stdout and stderr (what the terminal was sent)."""
        out, err = self.process.communicate(timeout=120)
        if self.terminal:
            self._reader.join(10)
            err = b"".join(self._seen)
        return self.process.returncode, out.decode(), err.decode("utf-8", "replace")


def _shown(sent: str) -> str:
    """What a terminal was sent, its control sequences left out."""
    return CONTROL.sub("", sent)


def _library(folder: Path) -> Path:
    """COPIES copies of the shipped scenarios, each under an id of its own."""
    folder.mkdir()
    for k in range(COPIES):
        for f in sorted(SHIPPED.glob("*.yaml")):
            text, n = re.subn(r"(?m)^id: (\S+)", rf"id: \1-copy-{k}", f.read_text(), count=1)
            assert n == 1, f
            (folder / f"{f.stem}-copy-{k}.yaml").write_text(text)
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Run]:
    tmp = tmp_path_factory.mktemp("progress")
    pumps = tmp / "pumps.yaml"
    pumps.write_text(PUMPS)
    library = _library(tmp / "library")
    explore = ("explore", str(pumps), "--era", "foundations", "--limit", "100000000",
               "--no-store")
    # A quick one alone first: the others would slow it past the bar's second.
    quick = Run("explore", "giant-growth-vs-assignment-order", "--era", "foundations",
                "--no-store")
    quick.result()
    started = {
        "quick": quick,
        "explore": Run(*explore),
        "explore piped": Run(*explore, terminal=False),
        "explore json": Run(*explore, "--json"),
        "build": Run("dataset", "build", str(library), "--db", str(tmp / "a.db"), "--jobs",
                     "1"),
        "build piped": Run("dataset", "build", str(library), "--db", str(tmp / "b.db"),
                           "--jobs", "1", terminal=False),
    }
    yield started
    for run in started.values():
        if run.process.poll() is None:
            run.process.kill()
            run.process.wait()


@pytest.fixture(scope="module")
def results(runs) -> dict[str, tuple[int, str, str]]:
    return {name: run.result() for name, run in runs.items()}


def test_a_long_explore_shows_a_bar_on_the_terminal(results):
    code, out, err = results["explore"]
    assert code in (0, 1), err
    shown = _shown(err)
    # The scenario, the era under way with its lines so far, the time it has taken.
    assert "exploring six-pumps" in shown, shown[-2000:]
    assert re.search(r"foundations +[\d,]+ lines", shown), shown[-2000:]
    assert re.search(r"\d:\d\d:\d\d", shown)
    assert "\x1b[?25h" in err[-60:]  # at its end the cursor is shown again, the bar erased
    assert "exploring" not in out and "foundations" in out  # the report alone on stdout


def test_a_long_explore_piped_prints_only_its_result(results):
    code, out, err = results["explore piped"]
    assert code in (0, 1), err
    assert err == ""
    assert out == results["explore"][1]  # the same report as beside the bar


def test_explore_json_on_a_terminal_shows_no_bar(results):
    code, out, err = results["explore json"]
    assert code in (0, 1), err
    assert err == ""
    assert json.loads(out)["scenario"] == "six-pumps"


def test_a_quick_command_prints_nothing_more_on_a_terminal(results):
    code, out, err = results["quick"]
    assert code in (0, 1), err
    assert err == ""
    assert "foundations" in out


def test_a_long_build_shows_a_bar_on_the_terminal(results):
    code, out, err = results["build"]
    n = COPIES * len(list(SHIPPED.glob("*.yaml")))
    assert code == 0, err
    shown = _shown(err)
    assert "checking the scenario files" in shown, shown[-2000:]
    assert "running and storing" in shown
    assert re.search(rf"\b{n:,}/{n:,} +\d:\d\d:\d\d", shown)  # how many, the time taken
    assert out.startswith(f"{n} scenarios, ") and "checking" not in out


def test_a_long_build_piped_prints_only_its_result(results):
    code, out, err = results["build piped"]
    assert code == 0, err
    assert err == ""
    assert out == results["build"][1]
