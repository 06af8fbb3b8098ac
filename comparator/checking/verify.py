"""Check a scenario's hand-written `expect:` against what the engine computes: the work
behind `verify`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from comparator.compare.running import Refusal, choices_refused, illegal_choice, run_all
from comparator.games.registry import game_of
from comparator.games.states import comparable, same
from comparator.scenarios.loader import load
from versions import eras_of, find_era
from versions.common import ExpectState


@dataclass(frozen=True)
class Mismatch:
    era: str
    field: str
    expected: Any
    got: Any


def mismatches(scenario: Any, outcomes: dict[str, dict[str, Any]],
               refusals: dict[str, Refusal] | None = None, file: str = "") -> list[Mismatch]:
    defaults = game_of(scenario).outcome_defaults
    out: list[Mismatch] = []
    for era, exp in scenario.expect.items():
        wanted = getattr(exp, "refused", None)
        got = (refusals or {}).get(era)
        if wanted is not None:  # contract §2.1: the era must refuse it, so
            if got is None:
                out.append(Mismatch(era, "refused", _said(wanted), "it runs"))
            elif wanted.rule is not None and got.rule != wanted.rule:
                out.append(Mismatch(era, "refused.rule", wanted.rule, got.rule))
            elif wanted.reason is not None and got.reason != wanted.reason:
                out.append(Mismatch(era, "refused.reason", wanted.reason, got.reason))
            continue
        if got is not None:
            out.append(Mismatch(era, "refused", "an outcome", f"refused: {got.text}"))
            continue
        outcome = outcomes[era]
        out += _compare(era, "", exp, outcome, defaults)
        out += _can_block(scenario, era, getattr(exp, "can_block", {}))
        out += _best_blocks(scenario, era, getattr(exp, "best_blocks", None), file)
        for window, wanted in getattr(exp, "after", {}).items():
            seen = outcome.get("after", {}).get(window)
            if seen is None:  # the window never ended: the game was over before it
                out.append(Mismatch(era, f"after.{window}", "the state after it",
                                    "no such point in this combat"))
                continue
            out += _compare(era, f"after.{window}.", wanted, seen, defaults)
    return out


def _can_block(scenario: Any, era: str, wanted: dict[str, list[str]]) -> list[Mismatch]:
    """`can-block`: each blocker can block exactly the attackers listed, of those that
    attack (`blocks --can`)."""
    if not wanted:
        return []
    from versions.mtg import play

    # The ids are those of the scenario and its attackers: `validate` checks them as the
    # file loads.
    out = []
    rules = find_era(era)()
    attackers = sorted(scenario.combat.attacks)
    for blocker, listed in wanted.items():
        can = sorted(a for a in attackers
                     if play.can_block(rules, scenario, blocker, a) is None)
        if can != sorted(listed):
            out.append(Mismatch(era, f"can-block.{blocker}", sorted(listed), can))
    return out


def _best_blocks(scenario: Any, era: str, wanted: dict[str, Any] | None,
                 file: str) -> list[Mismatch]:
    """`best-blocks`: the declaration best play makes (`blocks --best`, objective
    material) is exactly this one."""
    if wanted is None:
        return []
    from comparator.explore.best_blocks import best_blocks

    found = best_blocks(scenario, [era], "material", file)["eras"][era]
    expected = _plain_blocks(wanted)
    got = found["refused"] if "refused" in found else _plain_blocks(found["blocks"])
    return [] if got == expected else [Mismatch(era, "best-blocks", expected, got)]


def _plain_blocks(declared: dict[str, Any]) -> dict[str, list[str]]:
    """A declaration with each blocker's attackers as a sorted list (a file may write one
    attacker as a string)."""
    return {b: sorted([a] if isinstance(a, str) else a) for b, a in sorted(declared.items())}


def _said(wanted: Any) -> str:
    return f"refused ({wanted.rule or wanted.reason})"


def _compare(era: str, prefix: str, wanted: ExpectState, state: dict[str, Any],
             defaults: dict[str, Any]) -> list[Mismatch]:
    out: list[Mismatch] = []
    for kind, fields_of in (("players", wanted.players), ("permanents", wanted.permanents)):
        for name, fields in fields_of.items():
            actual = state[kind].get(name, {})
            for f, value in fields.items():
                got = actual.get(f, defaults.get(f))
                # As `diff` compares them: a hand's or graveyard's cards, not their order.
                where = [kind, name, f]
                if not same(comparable(where, got), comparable(where, value)):
                    out.append(Mismatch(era, f"{prefix}{kind}.{name}.{f}", value, got))
    return out


@dataclass
class Verified:
    """What `verify` found in a set of files."""

    files: int
    checked: int = 0  # era outcomes compared with an `expect:`
    mismatches: list[dict[str, Any]] = field(default_factory=list)  # with the file of each
    # era -> files whose `expect:` doesn't name it
    unchecked: dict[str, int] = field(default_factory=dict)
    # era -> files it can't run (they use what its rules lacked): not counted as unchecked
    refused: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def document(self) -> dict[str, Any]:
        """The `verify --json` document."""
        return {"files": self.files, "checked": self.checked, "ok": self.ok,
                "unchecked": self.unchecked, "refused": self.refused,
                "mismatches": self.mismatches}


def verify_files(paths: Sequence[Path]) -> Verified:
    """Run each file's `expect:` eras and compare; tally the eras of its game it leaves
    unchecked, apart from those whose rules can't run it. A file that can't be loaded or
    run is a ScenarioError."""
    out = Verified(files=len(paths))
    for path in paths:
        scenario = load(path)
        # A choice an era refuses makes the file invalid, whichever eras it expects.
        if refused := choices_refused(scenario, list(eras_of(scenario.game))):
            raise illegal_choice(refused, str(path))
        refusals: dict[str, Refusal] = {}
        outcomes = run_all(scenario, list(scenario.expect), str(path), refusals=refusals)
        for m in mismatches(scenario, outcomes, refusals, str(path)):
            out.mismatches.append({"file": str(path), "era": m.era, "field": m.field,
                                   "expected": m.expected, "got": m.got})
        out.checked += len(scenario.expect)
        for era in eras_of(scenario.game):
            if era in scenario.expect:
                continue
            counts = out.refused if find_era(era)().refusal(scenario) else out.unchecked
            counts[era] = counts.get(era, 0) + 1
    return out
