"""Explore for Duel Masters: every line of play of the turn player's attacks in one era, the
outcomes they reach, and the value with best play (explore contract; what is Duel Masters' own is in
docs/duel-masters.md, "Explore").

The search walks the attack through the choice protocol every game's engine offers
(``versions.common.Playing``): advance to a decision, copy the run for each option, resume
each copy with its option (a Duel Masters playthrough replays its choices from the start:
the attacks are short). The decisions are the era's
(``versions.duel_masters.engine.state.Decision``): the non-turn player's Ninja Strike when the
creature attacks, its choice of redirecting creatures and their order (507.1a, 507.2), the
turn player's Ninja Strike when a creature blocks (112.3c), and each player's order of its
triggered abilities.

One merge, exact: where every order of a player's triggered abilities leaves the same state
(``COMMUTING_EFFECTS``), the first order is played out and stands for all of them, its lines
counted once for each. Before 2021-09-07 six blockers that each draw a card give 518,400
orders of draws on one redirection alone.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from comparator.games.exploration import (
    DEFAULT_LIMIT,
    MAX_OPTIONS,
    Reach,
    TooLarge,
    combine,
    most_work,
)
from comparator.text.encoding import sorted_json
from comparator.text.language import _, current
from comparator.text.messages import spaced
from versions import find_era
from versions.common import Playing
from versions.duel_masters.engine.attack import IllegalRedirect
from versions.duel_masters.engine.state import Decision
from versions.duel_masters.play import exploration
from versions.duel_masters.scenario import Scenario

# What survives the turn: a shinobi summoned by Ninja Strike goes to the bottom of its
# owner's deck at the end of the turn (the ability's reminder text); power pumps end; a
# creature in the battle zone stays tapped until its controller's next untap step.
END_OF_TURN_PLAYER = ("shields", "hand", "lost")
END_OF_TURN_CREATURE = ("zone", "controller", "tapped")


def project(result: dict[str, Any], fields: str) -> dict[str, Any]:
    if fields == "all":
        return {"players": result["players"], "permanents": result["permanents"]}
    summoned = {e["source"] for e in result["events"] if e["type"] == "ninja-strike"}
    permanents = {}
    for cid, c in result["permanents"].items():
        seen = {f: c[f] for f in END_OF_TURN_CREATURE}
        if cid in summoned and c["zone"] == "battlefield":
            seen["zone"] = "deck"
        if seen["zone"] != "battlefield":
            del seen["tapped"]  # only a creature in the battle zone is tapped or not
        permanents[cid] = seen
    players = {n: {f: p[f] for f in END_OF_TURN_PLAYER} for n, p in result["players"].items()}
    return {"players": players, "permanents": permanents}


class Scorer:
    """The score from the turn player's side: (game, creatures, shields) for `material`;
    creatures are those destroyed (the defender's minus the turn player's), shields those
    broken (likewise); `kills` drops the shields, `life` the creatures (shields are Duel
    Masters' life)."""

    def __init__(self, scenario: Scenario, objective: str):
        self.objective = objective
        self.active = scenario.active
        self.defending = next(p.name for p in scenario.players if p.name != scenario.active)
        self.shields = {p.name: p.shields for p in scenario.players}

    def __call__(self, result: dict[str, Any]) -> tuple[int, ...]:
        players = result["players"]
        game = int(players[self.defending]["lost"]) - int(players[self.active]["lost"])
        destroyed = dict.fromkeys((self.active, self.defending), 0)
        for c in result["permanents"].values():
            if c["zone"] == "graveyard":
                destroyed[c["controller"]] += 1
        creatures = destroyed[self.defending] - destroyed[self.active]
        shields = ((self.shields[self.defending] - players[self.defending]["shields"])
                   - (self.shields[self.active] - players[self.active]["shields"]))
        return {"material": (game, creatures, shields), "kills": (game, creatures),
                "life": (game, shields)}[self.objective]


def canonical_options(d: Decision) -> list[Any]:
    """The contract's canonical order: a redirection (a `blocks` choice) by its JSON; not
    using Ninja Strike (a pass) before using it, shinobi in listing order; trigger orders
    as the era lists them."""
    options = d.options()
    if d.kind == "redirect":
        return sorted(options, key=json.dumps)
    return options


def record(d: Decision, choice: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"step": d.step, "player": d.player}
    match d.kind:
        case "redirect":
            entry: dict[str, Any] = {"kind": "blocks", "choice": list(choice)}
            if d.attacker is not None:  # several attacks: whose this one is
                entry["attacker"] = d.attacker
        case "ninja-strike" if choice is None:
            entry = {"kind": "pass"}
        case "ninja-strike":
            entry = {"kind": "ninja-strike", "creature": choice}
        case "trigger-order":
            entry = {"kind": "trigger-order", "choice": [d.labels[i] for i in choice]}
        case _:
            raise ValueError(d.kind)
    return {**base, **entry, "rule": d.rule}


class Explorer:
    def __init__(self, scenario: Scenario, era: str, objective: str = "material",
                 fields: str = "end-of-turn", blocks: str = "fixed",
                 limit: int = DEFAULT_LIMIT, merge: bool = True,
                 progress: Callable[[int], None] | None = None):
        self.merge = merge  # one order standing for all that leave the same state
        self.scenario = scenario
        self.era = find_era(era)()
        self.fields = fields
        self.blocks = blocks
        self.limit = limit
        self.progress = progress
        self.score = Scorer(scenario, objective)
        self.states: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {}
        self.leaves = 0
        self.work = most_work(limit)
        self.notes: list[dict[str, Any]] = []
        self.dropped = 0  # lines where a written redirection can't be made (--blocks fixed)

    def run(self) -> Reach | None:
        """Refused (TooLarge) past `limit` lines of play: counted as they are played out,
        and, at the end, with the orders one order stood for. With the redirections as
        written, the written line is played first: a redirection it can't make is the
        file's error (exit 2, as in `run`); in another line, where an earlier attack went
        otherwise, a later one's written redirection may not be possible: that line is left
        out, and the notes say how many were."""
        if self.blocks == "fixed":
            from versions.duel_masters.engine.attack import run as run_written

            run_written(self.era, self.scenario)  # IllegalRedirect: the file's error
        found = self._search(exploration(self.era, self.scenario))
        if found is not None and found.lines > self.limit:
            raise TooLarge(self.era.id, found.lines, self.limit)
        if self.dropped:
            self.notes.append({"type": "lines-refused", "positions": self.dropped,
                               "text": f"a redirection written for a later attack can't "
                                       f"be made after what an earlier attack did in that "
                                       f"line ({self.era.rule('choose')})"})
        return found

    def _search(self, play: Playing) -> Reach | None:
        try:
            return self._walk(play)
        except IllegalRedirect:
            if self.blocks != "fixed":
                raise
            self.dropped += 1
            return None

    def _walk(self, play: Playing) -> Reach | None:
        while (d := play.advance()) is not None:
            if d.kind == "redirect" and self.blocks == "fixed":
                play.resume(d.scripted)  # as written; the era refuses an illegal choice
                continue
            if d.count > min(self.limit, MAX_OPTIONS):  # each option is at least one line
                raise TooLarge(self.era.id, d.count, self.limit, "decision")
            if self.merge and d.kind == "trigger-order" and d.commute:
                # Every order leaves the same state: the first, as listed, stands for all
                # of them (its line counted once for each; the value the same).
                weighted = [(d.scripted, d.count)]
            else:
                weighted = [(choice, 1) for choice in canonical_options(d)]
            if len(weighted) == 1 and weighted[0][1] == 1:  # not a choice: not recorded
                play.resume(weighted[0][0])
                continue
            children = []
            for choice, count in weighted:
                branch = play.copy()
                branch.resume(choice)
                sub = self._search(branch)
                if sub is not None:
                    children.append((record(d, choice), sub, count))
            return combine(children, maximise=d.player == self.scenario.active)
        return self._leaf(play.outcome())

    def _leaf(self, result: dict[str, Any]) -> Reach:
        self.leaves += 1
        if self.leaves > self.limit:
            raise TooLarge(self.era.id, self.leaves, self.limit)
        if self.leaves > self.work:  # as in Magic's search: time and memory bounded
            raise TooLarge(self.era.id, self.work, self.limit, "work")
        if self.progress is not None and self.leaves % 1000 == 0:
            self.progress(self.leaves)
        state = project(result, self.fields)
        key = sorted_json(state)
        score = self.score(result)
        self.states[key] = (state, score)
        return Reach({key: (1, None)}, 1, (score, key, None))


# -- the human report's words -----------------------------------------------------------------

def describe_decision(d: dict[str, Any], scenario: Scenario) -> str:
    """A decision of a line of play in words, in the language spoken (names as written)."""
    who = d["player"]
    then = _(", then ")
    match d["kind"]:
        case "blocks":
            chosen = then.join(d["choice"])
            if "attacker" in d:
                said = _("{player} redirects {attacker}'s attack with {creatures}") if chosen \
                    else _("{player} redirects nothing of {attacker}'s attack")
            else:
                said = _("{player} redirects the attack with {creatures}") if chosen \
                    else _("{player} redirects nothing")
            return said.format(player=who, attacker=d.get("attacker"), creatures=chosen)
        case "pass":
            return _("{player} does not use Ninja Strike").format(player=who)
        case "ninja-strike":
            return _("{player} summons {creature} by Ninja Strike").format(
                player=who, creature=d["creature"])
        case "trigger-order":
            return _("{player} resolves triggers: {order}").format(
                player=who, order=then.join(d["choice"]))
    return json.dumps(d)


def losses(state: dict[str, Any], scenario: Scenario) -> str:
    """Who loses what in this outcome, in words, in the language spoken."""
    start = {p.name: p.shields for p in scenario.players}
    parts = []
    for p in scenario.players:
        me = state["players"][p.name]
        bits = [_("the game")] if me["lost"] else []
        gone = [cid for cid, c in state["permanents"].items()
                if c["controller"] == p.name and c["zone"] == "graveyard"]
        if gone:
            bits.append(_(", ").join(gone))
        if me["shields"] < start[p.name]:
            bits.append(_("{n} shield(s)").format(n=start[p.name] - me["shields"]))
        if current() == "en":
            parts.append(f"{p.name} loses {' and '.join(bits) if bits else 'nothing'}")
            continue
        said = _("{player} loses {what}") if bits else _("{player} loses nothing")
        parts.append(spaced(said.format(player=p.name, what=_(", ").join(bits))))
    return _("; ").join(parts)
