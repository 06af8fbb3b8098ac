"""Is the scenario's block declaration legal? (509.1a-b from M10 on; 309.2a-b in sixth.)

Checked: each blocker is an untapped creature of the defending player, on the battlefield;
it blocks no more attackers than it may; and the restrictions of the keyword vocabulary
(flying/reach, shadow, fear, menace, unblockable, cant-block, protection). Requirements
(`must-block`, `lure`) and costs to block are not checked here.
"""

from __future__ import annotations

from dataclasses import dataclass

from versions.game.state import Game, Permanent


@dataclass
class BlockProblem:
    path: str  # where in the scenario, e.g. "combat.blocks.bear"
    rule: str
    message: str


def check_blocks(game: Game) -> list[BlockProblem]:
    problems: list[BlockProblem] = []
    blocks = game.scenario.combat
    untapped_rule = game.rule("block-untapped")
    restriction = game.rule("block-restriction")
    counts: dict[str, int] = {}
    for blocker_id in blocks.blocks:
        path = f"combat.blocks.{blocker_id}"
        blocker = game.perm(blocker_id)
        attackers = blocks.blocked_attackers(blocker_id)
        if not blocker.is_creature:
            problems.append(BlockProblem(path, untapped_rule, f"{blocker_id} is not a creature"))
            continue
        if blocker.tapped:
            problems.append(BlockProblem(path, untapped_rule, f"{blocker_id} is tapped"))
        if blocker.has("cant-block"):
            problems.append(BlockProblem(path, restriction, f"{blocker_id} can't block"))
        allowed = 1 + blocker.count("can-block-additional")
        if blocker.has("can-block-any-number"):
            allowed = len(attackers)
        if len(attackers) > allowed:
            problems.append(BlockProblem(
                path, untapped_rule,
                f"{blocker_id} blocks {len(attackers)} attackers but may block {allowed}"))
        for attacker_id in attackers:
            counts[attacker_id] = counts.get(attacker_id, 0) + 1
            attacker = game.perm(attacker_id)
            defending = game.defending_player(attacker_id)
            if blocker.controller != defending:
                problems.append(BlockProblem(
                    path, untapped_rule,
                    f"{blocker_id} is controlled by {blocker.controller}, but {attacker_id} "
                    f"attacks {game.attacks[attacker_id]} (defending player {defending})"))
            why = _restriction(blocker, attacker)
            if why:
                problems.append(BlockProblem(path, restriction,
                                             f"{blocker_id} can't block {attacker_id}: {why}"))
    for attacker_id, n in counts.items():
        if game.perm(attacker_id).has("menace") and n < 2:
            problems.append(BlockProblem(
                f"combat.blocks (attacker {attacker_id})", restriction,
                f"{attacker_id} has menace and is blocked by only one creature"))
    return problems


def _restriction(blocker: Permanent, attacker: Permanent) -> str | None:
    if attacker.has("unblockable"):
        return "it can't be blocked"
    if attacker.has("flying") and not (blocker.has("flying") or blocker.has("reach")):
        return "it has flying, and the blocker has neither flying nor reach"
    if attacker.has("shadow") and not blocker.has("shadow"):
        return "it has shadow and the blocker doesn't"
    if blocker.has("shadow") and not attacker.has("shadow"):
        return "the blocker has shadow and it doesn't"
    if attacker.has("fear") and not (blocker.artifact or "black" in blocker.colors):
        return "it has fear, and the blocker is neither an artifact creature nor black"
    for color in attacker.values("protection"):
        if color in blocker.colors:
            return f"it has protection from {color}"
    return None
