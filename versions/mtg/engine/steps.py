"""The steps of the combat procedure, by name: what an agenda task or a decision's `then`
names. ``versions.mtg.engine.combat`` maps each to the method that carries it out; a copy of
a combat copies its agenda, a list of (``Step``, *arguments) tasks."""

from __future__ import annotations

from enum import StrEnum


class Step(StrEnum):
    # declare blockers (509 / 309)
    DECLARE_BLOCKERS = "declare_blockers"
    BLOCKS_DECLARED = "blocks_declared"
    GROUP_BLOCKS = "group_blocks"  # one of several defending players declares (802.4)
    GROUP_DECLARED = "group_declared"
    ORDER = "order"
    ORDER_ANNOUNCED = "order_announced"
    BLOCK_TRIGGERS = "block_triggers"
    # combat damage (510 / 310)
    COMBAT_DAMAGE = "combat_damage"
    DAMAGE_STEPS = "damage_steps"
    SECOND_STEP = "second_step"
    DAMAGE_STEP = "damage_step"
    DIVIDE = "divide"
    DIVIDED = "divided"
    CHECK_ASSIGNMENT = "check_assignment"
    DEAL_WAITING = "deal_waiting"  # damage that waited (on the stack, or a prevention step)
    REDIRECTED_WAITS = "redirected_waits"  # a new prevention step for it (T.10.11)
    DEAL_REDIRECTED = "deal_redirected"  # damage redirected at a prevention step's end
    # end of combat (511 / 311)
    END_OF_COMBAT = "end_of_combat"
    FINISH = "finish"
    # windows: priority, actions, the stack
    WINDOW = "window"
    SNAPSHOT = "snapshot"
    PRIORITY_ROUND = "priority_round"
    PRIORITY = "priority"
    PRIORITY_TAKEN = "priority_taken"
    SETTLE = "settle"
    STACK_TRIGGERS = "stack_triggers"
    TRIGGERS_ORDERED = "triggers_ordered"
    RESOLVE_STACK = "resolve_stack"


# The steps that assign combat damage: while one waits, damage assignment orders matter.
ASSIGNING = frozenset({Step.COMBAT_DAMAGE, Step.DAMAGE_STEPS, Step.DAMAGE_STEP,
                       Step.SECOND_STEP, Step.DIVIDE, Step.CHECK_ASSIGNMENT})
