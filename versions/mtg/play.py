"""Playing a Magic scenario under an era: the entry points the comparator calls.

The era (``versions.mtg.rules.Era``) says what its rules are; this module builds the combat
that follows them (``versions.mtg.engine.combat.Combat``) with the scripted line of ``run``
or the open choices of ``explore``, and answers the questions asked of a scenario without
playing it out (every legal block, every legal division).
"""

from __future__ import annotations

from typing import Any

from versions.common import NotInEra
from versions.mtg.engine.assignment import legal_divisions, targets_of
from versions.mtg.engine.availability import Availability
from versions.mtg.engine.blockers import blocking_groups
from versions.mtg.engine.blocks import can_block as blocks_allow
from versions.mtg.engine.blocks import survey
from versions.mtg.engine.combat import Combat
from versions.mtg.engine.script import Script, ScriptedChooser
from versions.mtg.engine.state import QuietLog
from versions.mtg.engine.steps import Step
from versions.mtg.rules import Era
from versions.mtg.scenario import Scenario


def refuse(era: Era, scenario: Scenario) -> None:
    """Raise ``NotInEra`` if the era can't run the scenario (another game's, or using what
    the era's rules did not have)."""
    era.check_game(scenario)
    why = era.refusal(scenario)
    if why:
        raise NotInEra(era.id, why)


def combat(era: Era, scenario: Scenario) -> Combat:
    """A combat ready to play the scenario's scripted line."""
    refuse(era, scenario)
    scenario = era.prepared(scenario)
    return Combat(era, scenario, Script(scenario, era.has_window))


def exploration(era: Era, scenario: Scenario) -> Combat:
    """A combat in which every action of the scenario is available, not scripted, and
    nothing is narrated (an exploration reads outcomes)."""
    refuse(era, scenario)
    scenario = era.prepared(scenario)
    played = Combat(era, scenario, Availability(scenario, era.has_window), exploring=True)
    played.board.log = QuietLog(step=played.board.log.step)
    return played


def run(era: Era, scenario: Scenario) -> dict[str, Any]:
    """The outcome JSON (spec §2) of `scenario`'s scripted line under `era`."""
    return combat(era, scenario).play(ScriptedChooser(scenario))


def block_survey(era: Era, scenario: Scenario, work: int | None = None) -> dict[str, Any]:
    """Every block declaration the scenario's attacks allow, with the requirements each
    obeys (see ``versions.mtg.engine.blocks.survey``); past `work` block choices examined,
    ``TooManyDeclarations``."""
    board = combat(era, scenario).board
    groups = blocking_groups(board)
    if len(groups) > 1:
        # Each defending player declares their own blocks, in APNAP order, with the
        # creatures attacking other players ignored (602.4-602.4b; 802.4-802.4b).
        return {"by_player": [
            {"player": g.player, **(survey(board.scoped(g.attackers)) if work is None else
                                    survey(board.scoped(g.attackers), work=work))}
            for g in groups]}
    return survey(board) if work is None else survey(board, work=work)


def can_block(era: Era, scenario: Scenario, blocker: str, attacker: str,
              work: int | None = None) -> tuple[str, str] | None:
    """Whether `blocker` may block `attacker` under `era` as blockers are declared: None,
    or the rule (in the era's numbering) that forbids it and why; past `work` block
    choices examined, ``TooManyDeclarations``."""
    board = combat(era, scenario).board
    found = blocks_allow(board, blocker, attacker) if work is None else \
        blocks_allow(board, blocker, attacker, work)
    return None if found is None else (era.rule(found[0]), found[1])


def divisions(era: Era, scenario: Scenario, creature: str) -> list[dict[str, int]]:
    """Every legal division of `creature`'s combat damage as combat damage begins (after
    the scripted declare blockers step), ignoring what others assign."""
    played = combat(era, scenario)
    chooser = ScriptedChooser(scenario)
    while (d := played.advance(stop_before=Step.COMBAT_DAMAGE)) is not None:
        played.resume(chooser.choose(d.player, d.kind, d.options))
    board = played.board
    return legal_divisions(board, creature, targets_of(board, creature), [])
