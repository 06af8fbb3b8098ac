"""What one request may ask of the workbench, as `serve`'s options set it: a request that
would exceed a bound is refused with the reason, as the command line refuses it."""

from __future__ import annotations

from dataclasses import dataclass

from comparator.games.exploration import DEFAULT_LIMIT


@dataclass(frozen=True)
class Limits:
    body_bytes: int = 256_000  # a request's body: a scenario is a page of YAML
    explore_limit: int = DEFAULT_LIMIT  # the most lines of play an explore may be asked
    seconds: float = 30.0  # the wall time of a validate, run or diff
    explore_seconds: float = 300.0  # the wall time of one explore
    explores: int = 2  # explores under way at once
    runs: int = 4  # validates, runs and diffs under way at once
