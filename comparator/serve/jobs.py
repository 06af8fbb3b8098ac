"""Explores under way, each in a process of its own: so that one can be watched (the era
and the lines of play searched so far), cancelled (its process ended) and bounded in wall
time, and so that a long search never holds up the server. At most `Limits.explores` run
at once; another is refused with the reason."""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from comparator.serve.errors import Refused
from comparator.serve.limits import Limits
from comparator.text.language import N_, Later, _

KEPT = 50  # finished explores kept for their page to collect
KEPT_SECONDS = 600.0
# A process of the forkserver's: forked from a server with nothing else running in it (the
# web server's threads are not copied), the modules an explore needs already imported.
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["comparator.explore.files", "comparator.scenarios.loader",
                                 "comparator.games.mtg.explore"])


@dataclass
class Job:
    id: str
    process: Any
    messages: Any
    started: float
    scenario: str
    eras: list[str]  # those searched, in their order
    text: str  # the scenario searched, as sent, and the name messages give it
    name: str
    state: str = "running"  # then done, refused or cancelled
    era: str | None = None
    lines: int = 0
    doc: dict[str, Any] | None = None  # the explore JSON, once done
    # Why it ended without one: a problem of the file, the one line `explore` would print
    # (in English: said through comparator.text.messages) or the server's own words; each
    # said in the language of the request that asks.
    error: Any = None
    ended: float | None = None

    def record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"job": self.id, "state": self.state, "scenario": self.scenario,
                               "eras": self.eras, "era": self.era, "lines": self.lines,
                               "seconds": round((self.ended or time.monotonic())
                                                - self.started, 2)}
        if self.error is not None:
            out["error"] = said(self.error)
        if self.doc is not None:
            out["explore"] = self.doc
        return out


class Jobs:
    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def running(self) -> int:
        return sum(1 for j in self._jobs.values() if j.state == "running")

    def start(self, text: str, name: str, scenario_id: str, options: dict[str, Any]) -> Job:
        with self._lock:
            self._forget_old()
            if self.running() >= self.limits.explores:
                raise Refused(429, _("{n} explore(s) are under way, the most this server "
                                     "runs at once (serve --explores); wait for one to end, "
                                     "or cancel it").format(n=self.limits.explores))
            messages = _CONTEXT.Queue()
            # The search's own bound in CPU time: it ends even if this server is killed
            # before it can end it.
            cpu = int(self.limits.explore_seconds) + 30
            process = _CONTEXT.Process(target=_explore,
                                       args=(text, name, options, messages, cpu),
                                       daemon=True)
            process.start()
            job = Job(secrets.token_hex(8), process, messages, time.monotonic(), scenario_id,
                      list(options["eras"]), text, name)
            self._jobs[job.id] = job
        threading.Thread(target=self._watch, args=(job,), daemon=True).start()
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            self._forget_old()
        job = self._jobs.get(job_id)
        if job is None:
            raise Refused(404, _("job: no explore {job} (finished ones are kept {seconds} s)")
                          .format(job=repr(job_id), seconds=int(KEPT_SECONDS)))
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        if job.state == "running":
            self._end(job, "cancelled", Later(N_("cancelled")))
        return job

    def wait(self, job: Job, seconds: float) -> None:
        end = time.monotonic() + seconds
        while job.state == "running" and time.monotonic() < end:
            time.sleep(0.02)

    def shutdown(self) -> None:
        for job in list(self._jobs.values()):
            if job.state == "running":
                self._end(job, "cancelled", Later(N_("the server stopped")))

    def _end(self, job: Job, state: str, error: Any) -> None:
        with self._lock:
            if job.state != "running":
                return
            job.state, job.error, job.ended = state, error, time.monotonic()
        if job.process.is_alive():
            job.process.kill()
        job.process.join(5)
        with contextlib.suppress(Exception):
            job.messages.close()

    def _watch(self, job: Job) -> None:
        """Read the job's messages until it ends: its progress, then its answer; end it
        past its wall time, or if its process dies without one."""
        bound = self.limits.explore_seconds
        while job.state == "running":
            try:
                kind, *what = job.messages.get(timeout=0.1)
            except queue.Empty:
                if time.monotonic() - job.started > bound:
                    self._end(job, "refused", Later(N_(
                        "more than {seconds} s of search, the most this server allows one "
                        "explore (serve --explore-seconds); lower --limit or explore it "
                        "with the command line"), seconds=f"{bound:g}"))
                elif not job.process.is_alive():
                    self._end(job, "refused", Later(N_(
                        "the search ended without an answer (out of memory?)")))
                continue
            except Exception:  # closed (the job was ended), or a message cut short
                self._end(job, "refused", Later(N_("the search ended without an answer")))
                return
            if kind == "progress":
                job.era, job.lines = what[0], what[1]
            elif kind == "done":
                job.doc = what[0]
                job.lines = sum(e.get("lines", 0) for e in job.doc.get("eras", {}).values())
                self._end(job, "done", None)
            else:
                self._end(job, "refused", what[0])

    def _forget_old(self) -> None:
        now = time.monotonic()
        ended = sorted((j for j in self._jobs.values() if j.ended is not None),
                       key=lambda j: j.ended or 0)
        for i, j in enumerate(ended):
            if now - (j.ended or now) > KEPT_SECONDS or i < len(ended) - KEPT:
                del self._jobs[j.id]


def _explore(text: str, name: str, options: dict[str, Any], messages: Any,
             cpu_seconds: int) -> None:
    """In the job's process: the explore JSON of the text, or the one line that refuses it,
    put on `messages` after its progress."""
    _bound_self(cpu_seconds)
    from comparator.explore.files import ExploreError, explore_file
    from comparator.files.problems import ScenarioError
    from comparator.scenarios.loader import parse

    last = [0.0]

    def report(era: str, lines: int) -> None:
        now = time.monotonic()
        if now - last[0] > 0.1 or lines == 0:
            last[0] = now
            messages.put(("progress", era, lines))

    @contextlib.contextmanager
    def searching(_scenario_id: str) -> Iterator[Any]:
        yield report

    try:
        scenario = parse(text, name)
        doc = explore_file(name, scenario, options["eras"], options["objective"],
                           options["fields"], options["blocks"], options["limit"],
                           searching, 1)
    except ScenarioError as err:
        messages.put(("refused", _sendable(err.problems[0])))
    except ExploreError as err:
        messages.put(("refused", _sendable(err.problem) if err.problem else str(err)))
    except MemoryError:
        messages.put(("refused", Later(N_("the search needs more memory than this machine "
                                          "has"))))
    except Exception as exc:  # a bug: said in one line, not a traceback on the server's
        first = str(exc).splitlines()[0] if str(exc) else ""
        messages.put(("refused", Later(N_("the search failed ({error})"),
                                       error=f"{type(exc).__name__}: {first}")))
    else:
        messages.put(("done", doc))


def _sendable(problem: Any) -> Any:
    """A problem of the file as the job's process sends it: itself (said in the language
    of the request that asks), or its English line where it can't be sent whole."""
    import pickle

    try:
        pickle.dumps(problem)
    except Exception:
        return str(problem)
    return problem


def said(error: Any) -> str:
    """Why a job ended without an answer, in the language spoken: a problem of the file as
    `validate` says it, the server's own words, or the line `explore` prints."""
    from comparator.files.problems import Problem
    from comparator.text.messages import message, problem_line

    if isinstance(error, Problem):
        return problem_line(error)
    if isinstance(error, Later):
        return str(error)
    return message(str(error))


def _bound_self(cpu_seconds: int) -> None:
    """End this process if the server's process dies (Linux), and past its CPU time."""
    import resource
    import signal

    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
