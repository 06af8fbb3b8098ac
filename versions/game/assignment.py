"""Combat damage assignment: who a creature may assign to, what division is legal, and the
choices of spec §1.5 (intended amounts, the default division, the `most-kills` policy).

The era supplies two switches: whether a damage assignment order binds the division
(``has_damage_order``) and whether 1 damage from a deathtouch source counts as lethal for
checking an assignment (``deathtouch_lethal_one``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from math import comb

from versions.game.state import Game

OVERFLOW_LIMIT = 2_000_000  # divisions `most-kills` may enumerate for one creature


@dataclass
class Targets:
    """What one creature may assign its damage to in this step."""

    creatures: list[str]  # in the era's order (damage assignment order, else blocks listing)
    overflow: str | None = None  # trample: the player or planeswalker attacked
    unblocked: str | None = None  # an unblocked attacker's player or planeswalker
    rule: str = ""

    @property
    def keys(self) -> list[str]:
        return self.creatures + ([self.overflow] if self.overflow else [])


@dataclass
class Assignment:
    source: str
    amounts: dict[str, int] = field(default_factory=dict)
    rule: str = ""


def _attack_target_alive(game: Game, attacker: str) -> str | None:
    target = game.attacks.get(attacker)
    if target is None:
        return None
    if game.is_player(target):
        return target
    p = game.permanents[target]
    return target if p.on_battlefield and (p.is_planeswalker or "battle" in p.types) else None


def targets_of(game: Game, pid: str) -> Targets:
    creature = game.perm(pid)
    if pid in game.attacks:
        if pid not in game.blocked:
            return Targets([], unblocked=_attack_target_alive(game, pid),
                           rule=game.rule("assign-unblocked"))
        blockers = game.blockers_of(pid)
        if game.era.has_damage_order and pid in game.damage_orders:
            ordered = [b for b in game.damage_orders[pid] if b in blockers]
            blockers = ordered + [b for b in blockers if b not in ordered]
        overflow = _attack_target_alive(game, pid) if creature.has("trample") else None
        if not blockers and overflow:
            return Targets([], unblocked=overflow, rule=game.rule("trample-no-blockers"))
        rule = game.rule("trample" if overflow else "assign-blocked")
        return Targets(blockers, overflow=overflow, rule=rule)
    attackers = list(game.blocks.get(pid, []))
    if game.era.has_damage_order and pid in game.damage_orders:
        ordered = [a for a in game.damage_orders[pid] if a in attackers]
        attackers = ordered + [a for a in attackers if a not in ordered]
    return Targets(attackers, rule=game.rule("assign-blocker"))


def _assigned_to(target: str, others: list[Assignment]) -> int:
    return sum(a.amounts.get(target, 0) for a in others)


def _deathtouch(game: Game, source: str) -> bool:
    return game.era.deathtouch_lethal_one and game.perm(source).has("deathtouch")


def lethal_needed(game: Game, source: str, target: str, others: list[Assignment]) -> int:
    """Damage `source` must assign to `target` for it to count as lethal, given what other
    creatures assign to it in the same step and damage already marked (never prevention)."""
    t = game.perm(target)
    if any(_deathtouch(game, a.source) and a.amounts.get(target, 0) > 0 for a in others):
        return 0
    need = max(0, t.toughness - t.damage - _assigned_to(target, others))
    if need > 0 and _deathtouch(game, source):
        return 1
    return need


def division_problem(
    game: Game, source: str, targets: Targets, amounts: dict[str, int], others: list[Assignment]
) -> str | None:
    """Why this division is illegal in the era, or None. `others` are every other creature's
    assignments in the step, so the check is of the assignment as a whole (510.1e)."""
    power = game.perm(source).power
    allowed = set(targets.keys) if not targets.unblocked else {targets.unblocked}
    for key in amounts:
        if key not in allowed:
            return f"{key} is not something {source} can assign damage to now"
    total = sum(amounts.values())
    if total != max(power, 0):
        return f"the amounts add up to {total}, but {source}'s power is now {power}"
    ordered = game.era.has_damage_order
    for i, target in enumerate(targets.creatures):
        if amounts.get(target, 0) == 0:
            continue
        if ordered:
            for before in targets.creatures[:i]:
                need = lethal_needed(game, source, before, others)
                if amounts.get(before, 0) < need:
                    return (f"{before} must be assigned lethal damage ({need}) before {target} "
                            f"in {source}'s damage assignment order")
    if targets.overflow and amounts.get(targets.overflow, 0) > 0:
        for blocker in targets.creatures:
            need = lethal_needed(game, source, blocker, others)
            if amounts.get(blocker, 0) < need:
                return (f"{blocker} must be assigned lethal damage ({need}) before any damage "
                        f"tramples over to {targets.overflow}")
    return None


def default_division(
    game: Game, source: str, targets: Targets, earlier: list[Assignment]
) -> dict[str, int]:
    """Spec §1.5.3: lethal to each in order, the rest to the player (trample) or the first."""
    remaining = max(game.perm(source).power, 0)
    if targets.unblocked:
        return {targets.unblocked: remaining} if remaining else {}
    if not targets.creatures:
        return {}
    amounts: dict[str, int] = {}
    for target in targets.creatures:
        give = min(lethal_needed(game, source, target, earlier), remaining)
        amounts[target] = give
        remaining -= give
    if remaining:
        sink = targets.overflow or targets.creatures[0]
        amounts[sink] = amounts.get(sink, 0) + remaining
    return {k: v for k, v in amounts.items() if v}


def _compositions(total: int, parts: int):
    """Every way to write `total` as `parts` non-negative whole numbers, in order."""
    for bars in combinations(range(total + parts - 1), parts - 1):
        prev = -1
        out = []
        for b in bars:
            out.append(b - prev - 1)
            prev = b
        out.append(total + parts - 1 - prev - 1)
        yield out


def divisions_count(power: int, parts: int) -> int:
    return comb(power + parts - 1, parts - 1) if parts else 0


def legal_divisions(
    game: Game, source: str, targets: Targets, others: list[Assignment]
) -> list[dict[str, int]]:
    power = max(game.perm(source).power, 0)
    keys = targets.keys
    if targets.unblocked or not keys:
        return [default_division(game, source, targets, others)]
    out = []
    for parts in _compositions(power, len(keys)):
        amounts = {k: v for k, v in zip(keys, parts, strict=True) if v}
        if division_problem(game, source, targets, amounts, others) is None:
            out.append(amounts)
    return out


def _is_lethal(game: Game, target: str, amounts_all: list[Assignment]) -> bool:
    t = game.perm(target)
    if any(_deathtouch(game, a.source) and a.amounts.get(target, 0) > 0 for a in amounts_all):
        return True
    return t.damage + _assigned_to(target, amounts_all) >= t.toughness


def most_kills(
    game: Game, source: str, targets: Targets, earlier: list[Assignment]
) -> dict[str, int]:
    """Spec §1.5.4: most creatures with lethal damage, then most to the player, then the
    division whose amounts, read in order, are greatest first."""
    power = max(game.perm(source).power, 0)
    if divisions_count(power, len(targets.keys)) > OVERFLOW_LIMIT:
        game.log.note(
            "policy-too-large", targets.rule,
            f"{source}: too many divisions to search for most-kills; the default is used",
            creature=source,
        )
        return default_division(game, source, targets, earlier)
    best: tuple | None = None
    best_amounts: dict[str, int] = {}
    for amounts in legal_divisions(game, source, targets, earlier):
        mine = Assignment(source, amounts)
        kills = sum(1 for c in targets.creatures if _is_lethal(game, c, [*earlier, mine]))
        over = amounts.get(targets.overflow, 0) if targets.overflow else 0
        key = (kills, over, tuple(amounts.get(k, 0) for k in targets.keys))
        if best is None or key > best:
            best, best_amounts = key, amounts
    return best_amounts


@dataclass
class StepAssignment:
    assignments: list[Assignment]
    rejected: dict[str, str]  # creature -> why its intended amounts were not used


def assign_step(game: Game, creatures: list[str]) -> StepAssignment:
    """Assign combat damage for every creature of one step (510.1 / 310.1).

    Intended amounts are kept when legal for the assignment as a whole; defaults and
    policies are computed in order, each seeing what the creatures before it assigned. A
    rejected intention changes what the others see, so the pass repeats until it is stable
    (each creature can be rejected once, so it ends).
    """
    intents = game.scenario.combat.assign
    targets = {c: targets_of(game, c) for c in creatures}
    rejected: dict[str, str] = {}
    while True:
        done: list[Assignment] = []
        for c in creatures:
            t = targets[c]
            intent = intents.get(c)
            if isinstance(intent, dict) and c not in rejected and not t.unblocked and t.keys:
                amounts = {k: v for k, v in intent.items() if v}
            elif intent == "most-kills" and not t.unblocked and t.keys:
                amounts = most_kills(game, c, t, done)
            else:
                amounts = default_division(game, c, t, done)
            done.append(Assignment(c, amounts, t.rule))
        newly = None
        for a in done:
            intent = intents.get(a.source)
            t = targets[a.source]
            if not isinstance(intent, dict) or a.source in rejected or t.unblocked or not t.keys:
                continue
            others = [o for o in done if o.source != a.source]
            why = division_problem(game, a.source, t, a.amounts, others)
            if why:
                newly = (a.source, why)
                break
        if newly is None:
            return StepAssignment([a for a in done if a.amounts], rejected)
        rejected[newly[0]] = newly[1]
