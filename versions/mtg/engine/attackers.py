"""Whom a multiplayer game's creatures may attack (cited in each era's numbering: 306.2 and
601-609 of 2009-05-01; 506.2a and 801-811 after). A two-player game has nothing to check
here: the scenario's structural checks (``comparator.games.mtg.checks``) already refuse an
attack on the attacker's own controller.

- an attacked player (or the controller of an attacked planeswalker, the protector of an
  attacked battle) is an opponent, never a teammate (306.2; 506.2a; M.2.1, M.3.1 of the
  Fifth Edition rulings);
- within the attacking player's range of influence (601.3; 801.3);
- attack left or right: only the opponent seated immediately to that side, and nobody if
  the nearest opponent that way is more than a seat away (604.1a-b; 803.1a-b);
- Emperor, Teams (Alternating Teams): only an opponent seated next to the attacker
  (607.3c, 609.4; 807.3c/809.3c, 809.4/811.4);
- without the attack multiple players option, one opponent is the defending player
  (306.2; 506.2a); Two-Headed Giant's creatures attack the other team as a group
  (606.7a-b; 806.7a-c; 810.7a-c; 805.10a-b).
"""

from __future__ import annotations

from dataclasses import dataclass

from versions.mtg.engine.state import Board


@dataclass
class AttackProblem:
    path: str  # where in the scenario, e.g. "combat.attacks.bear"
    rule: str
    message: str


def check_attacks(board: Board) -> list[AttackProblem]:
    """What the variant and options in force forbid of the scenario's attacks."""
    table = board.table
    if not table.multiplayer:
        return []
    problems: list[AttackProblem] = []
    defenders: dict[str, list[str]] = {}

    def refuse(attacker: str, key: str, why: str) -> None:
        problems.append(AttackProblem(f"combat.attacks.{attacker}", board.rule(key), why))

    for attacker, target in board.attacks.items():
        attacking = board.perm(attacker).controller
        defending = board.defending_player(attacker)
        if defending is None:
            continue
        if table.team(defending) == table.team(attacking):
            refuse(attacker, "mp-2hg-attack" if table.two_headed else "mp-opponent",
                   f"{attacker} attacks {target}, but {defending} is on {attacking}'s team: "
                   f"creatures attack opponents only")
            continue
        defenders.setdefault(defending, []).append(attacker)
        if not table.in_range(attacking, defending):
            refuse(attacker, "mp-range",
                   f"{defending} sits {table.seat_distance(attacking, defending)} seats from "
                   f"{attacking}, outside {attacking}'s range of influence "
                   f"({table.ranges[attacking]})")
            continue
        if table.variant in ("emperor", "teams") and not table.next_to(attacking, defending):
            refuse(attacker, f"mp-{table.variant}-attack",
                   f"{attacking} can attack only an opponent seated immediately next to "
                   f"them, and {defending} is not")
            continue
        if table.attack in ("left", "right"):
            side = table.left_of(attacking) if table.attack == "left" else \
                table.right_of(attacking)
            if table.team(side) == table.team(attacking):
                refuse(attacker, f"mp-attack-{table.attack}",
                       f"with the attack {table.attack} option, {attacking}'s nearest "
                       f"opponent to the {table.attack} is more than one seat away: "
                       f"{attacking} can't attack")
            elif side != defending:
                refuse(attacker, f"mp-attack-{table.attack}",
                       f"with the attack {table.attack} option, {attacking} can attack only "
                       f"the opponent seated immediately to their {table.attack} ({side}), "
                       f"not {defending}")
    if table.attack is None and not table.two_headed and len(defenders) > 1:
        names = sorted(defenders)
        refuse(defenders[names[1]][0], "mp-defending-player",
               f"creatures attack {' and '.join(names)}: without the attack multiple "
               f"players option the attacking player chooses one opponent as the defending "
               f"player")
    return problems
