"""Duel Masters: the turn player's attacks, each with its block step, before and after the
2021-09-07 change. Its scenario model and checks are ``versions.duel_masters.scenario``; its eras
``versions.duel_masters.ERAS``."""

from __future__ import annotations

from typing import Any

from comparator.files.problems import refuse_problems, validated
from comparator.games.duel_masters import board, explore, narrate, schema
from comparator.games.registry import GameAdapter
from versions import TITLES, eras_of
from versions.duel_masters.rules import GAME as GAME_ID
from versions.duel_masters.scenario import Scenario, problems


def parse(text: str, file: str, raw: dict[str, Any]) -> Scenario:
    """The checked scenario, or a ScenarioError with every problem (docs/duel-masters.md)."""
    scenario: Scenario = validated(text, file, raw, Scenario)
    refuse_problems(file, text, problems(scenario, eras_of(GAME_ID)))
    return scenario


GAME = GameAdapter(
    id=GAME_ID,
    title=TITLES[GAME_ID],
    model=Scenario,
    parse=parse,
    explorer=explore.Explorer,
    describe_decision=explore.describe_decision,
    losses=explore.losses,
    sentence=narrate.sentence,
    step_titles=narrate.STEP_TITLES,
    zone_words=narrate.ZONE_WORDS,
    outcome_lines=narrate.outcome_lines,
    explaining=frozenset({"redirect", "block", "blocked", "unblocked", "draw", "tap",
                          "destroy", "power", "battle", "break-shields", "wins",
                          "ninja-strike", "no-attack"}),
    outcome_defaults={},
    schema=schema.scenario_schema,
    board=board.board,
)
