"""Is a block declaration legal? (Cited in each era's numbering: 509.1a-f of the later texts.)

- 509.1a: each blocker is an untapped creature (not a battle) of the defending player, and
  blocks attackers attacking that player or a planeswalker it controls; a creature blocks
  one attacker unless it can block more (`can-block-additional`, `can-block-any-number`).
- 509.1b restrictions: `cant-block`, `unblockable`, flying/reach, shadow, fear,
  protection from a color; and those that count blockers (``blockers.limits``):
  menace, `cant-be-blocked-except-by: N`, `cant-be-blocked-by-more-than-one`,
  `must-be-blocked-by-all`, `cant-attack-or-block-alone`,
  `cant-block-unless-greater-power-blocks`.
- 509.1c requirements: `must-block` (this creature blocks if able), `lure` (every creature
  able to block it does so). The declaration must obey as many requirements as any
  declaration could without breaking a restriction; a creature with a cost to block is
  never required to pay it.
- 509.1d-f costs: `block-cost` (generic mana), paid from the player's mana and the mana
  abilities of its permanents.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from math import comb

from versions.mtg.engine import block_search
from versions.mtg.engine.blockers import (
    Declaration,
    blockable,
    capacity,
    limits,
    options,
    potential_blockers,
    restriction,
)
from versions.mtg.engine.state import Board, Permanent
from versions.mtg.scenario import CombatSpec


@dataclass
class BlockProblem:
    path: str  # where in the scenario, e.g. "combat.blocks.bear"
    rule: str
    message: str


def option_count(game: Board, blocker: str) -> int:
    can = len(blockable(game, blocker))
    return sum(comb(can, n) for n in range(0, min(capacity(game.perm(blocker)), can) + 1))


def declaration_count(game: Board) -> int:
    """How many declarations `declarations` walks (menace not yet taken into account)."""
    total = 1
    for b in potential_blockers(game):
        total *= option_count(game, b)
    return total


COUNTING = ("menace", "cant-be-blocked-except-by", "cant-be-blocked-by-more-than-one",
            "must-be-blocked-by-all")


def count_problems(game: Board, decl: Declaration) -> list[tuple[str, str]]:
    """The restrictions that count blockers, broken by `decl`: (where, why) for each."""

    counts: dict[str, int] = {}
    for attackers in decl.values():
        for a in attackers:
            counts[a] = counts.get(a, 0) + 1
    out = []
    for a, n in counts.items():
        lim = limits(game, a)
        if lim is not None and not lim.allows(n):
            bound = (f"at least {lim.least}" if lim.most is None or n < lim.least
                     else f"at most {lim.most}")
            if lim.most is not None and lim.least > lim.most:
                bound = "no number of creatures at all"
            why = ", ".join(k for k in COUNTING if game.perm(a).has(k))
            out.append((f"combat.blocks (attacker {a})",
                        f"{a} has {why} and is blocked by {n} creature(s), but may be "
                        f"blocked by none or by {bound}"))
    blocking = [b for b, attackers in decl.items() if attackers]
    for b in blocking:
        p = game.perm(b)
        if p.has("cant-attack-or-block-alone") and len(blocking) < 2:
            out.append((f"combat.blocks.{b}", f"{b} can't block alone"))
        if p.has("cant-block-unless-greater-power-blocks") and not any(
                game.perm(o).power > p.power for o in blocking if o != b):
            out.append((f"combat.blocks.{b}", f"{b} can't block unless a creature with "
                        f"greater power ({p.power}) also blocks"))
    return out


def requirements(game: Board) -> list[tuple[str, str | None]]:
    """Every requirement on the block: (creature, attacker it must block or None for
    "blocks if able"). A creature that could block only by paying a cost has none."""
    out: list[tuple[str, str | None]] = []
    free = [b for b in potential_blockers(game) if game.perm(b).block_cost == 0]
    for b in free:
        if game.perm(b).has("must-block") and blockable(game, b):
            out.append((b, None))
    for a in game.attacks:
        if game.perm(a).has("lure"):
            out += [(b, a) for b in free if a in blockable(game, b)]
    return out


def obeyed(decl: Declaration, reqs: list[tuple[str, str | None]]) -> int:
    n = 0
    for blocker, attacker in reqs:
        blocking = decl.get(blocker, ())
        if (attacker is None and blocking) or (attacker is not None and attacker in blocking):
            n += 1
    return n


def declarations(game: Board, include_costs: bool = True) -> Iterator[Declaration]:
    """Every declaration that breaks no restriction (those counting blockers included),
    lazily."""
    blockers = [b for b in potential_blockers(game)
                if include_costs or game.perm(b).block_cost == 0]

    def walk(i: int, decl: Declaration) -> Iterator[Declaration]:
        if i == len(blockers):
            if not count_problems(game, decl):
                yield dict(decl)
            return
        for choice in options(game, blockers[i]):
            if choice:
                decl[blockers[i]] = choice
            yield from walk(i + 1, decl)
            decl.pop(blockers[i], None)

    yield from walk(0, {})


def most_obeyed(game: Board) -> tuple[int, Declaration]:
    """The most requirements any restriction-respecting declaration obeys (paying no
    costs), with one declaration that does: an exact search (block_search.py)."""
    if not requirements(game):
        return 0, {}
    return block_search.most_obeyed(game)


def mana_sources(game: Board, player: str) -> list[tuple[Permanent, int]]:
    """The player's mana abilities (509.1e), in the order rulesdiff uses them to pay a
    cost to block: those that tap come before those that sacrifice, each group in listing
    order, so a creature is sacrificed only when nothing else will do."""
    found: dict[str, list[tuple[Permanent, int]]] = {"tap": [], "sacrifice-self": []}
    for pid in game.order:
        perm = game.perm(pid)
        if perm.controller != player or not perm.on_battlefield:
            continue
        for i, ability in enumerate(perm.abilities):
            if ability.effect != "add-mana" or ability.activated not in found:
                continue
            if ability.activated == "tap" and perm.tapped:
                continue
            found[ability.activated].append((perm, i))
    return found["tap"] + found["sacrifice-self"]


def mana_available(game: Board, player: str) -> int:
    """The player's mana plus what its mana abilities can make."""
    return game.players[player].mana + sum(
        perm.abilities[i].amount or 0 for perm, i in mana_sources(game, player))


def costs_owed(game: Board, decl: Declaration | dict[str, list[str]]) -> dict[str, int]:
    """The total cost to block (509.1d), per player."""
    owed: dict[str, int] = {}
    for b in decl:
        p = game.perm(b)
        if p.block_cost:
            owed[p.controller] = owed.get(p.controller, 0) + p.block_cost
    return owed


def written(combat: CombatSpec) -> Declaration:
    """The declaration a scenario writes."""
    return {b: tuple(combat.blocked_attackers(b)) for b in combat.blocks}


def describe(decl: Declaration) -> str:
    if not decl:
        return "no blocks"
    parts = [f"{b}: {a[0] if len(a) == 1 else '[' + ', '.join(a) + ']'}"
             for b, a in decl.items()]
    return "{" + ", ".join(parts) + "}"


def affordable(game: Board, decl: Declaration) -> bool:
    return all(mana_available(game, pl) >= c for pl, c in costs_owed(game, decl).items())


def legal_declarations(game: Board) -> Iterator[Declaration]:
    """Every legal declaration, lazily: no restriction broken, as many requirements obeyed
    as can be (509.1c), costs payable."""
    best = most_obeyed(game)[0]
    return (d for d in block_search.reaching(game, best) if affordable(game, d))


def check_blocks(game: Board, decl: Declaration) -> list[BlockProblem]:
    problems: list[BlockProblem] = []
    rule_a = game.rule("block-untapped")
    rule_b = game.rule("block-restriction")
    for blocker_id, attackers in decl.items():
        path = f"combat.blocks.{blocker_id}"
        blocker = game.perm(blocker_id)
        if not blocker.is_creature or "battle" in blocker.types:
            problems.append(BlockProblem(path, rule_a, f"{blocker_id} is not a creature"))
            continue
        if blocker.tapped:
            problems.append(BlockProblem(path, rule_a, f"{blocker_id} is tapped"))
        if blocker.has("cant-block"):
            problems.append(BlockProblem(path, rule_b, f"{blocker_id} can't block"))
        if len(attackers) > capacity(blocker):
            problems.append(BlockProblem(
                path, rule_a,
                f"{blocker_id} blocks {len(attackers)} attackers but may block "
                f"{capacity(blocker)}"))
        for attacker_id in attackers:
            defending = game.defending_player(attacker_id)
            if blocker.controller != defending:
                problems.append(BlockProblem(
                    path, rule_a,
                    f"{blocker_id} is controlled by {blocker.controller}, but {attacker_id} "
                    f"attacks {game.attacks[attacker_id]} (defending player {defending})"))
            why = restriction(blocker, game.perm(attacker_id))
            if why:
                problems.append(BlockProblem(
                    path, rule_b, f"{blocker_id} can't block {attacker_id}: {why}"))
    for path, why in count_problems(game, decl):
        problems.append(BlockProblem(path, rule_b, why))
    if problems:
        return problems
    problems += _requirement_problems(game, decl)
    problems += _cost_problems(game, decl)
    return problems


def _requirement_problems(game: Board, decl: Declaration) -> list[BlockProblem]:
    best, example = most_obeyed(game)
    reqs = requirements(game)
    have = obeyed(decl, reqs)
    if have >= best:
        return []
    unmet = [f"{b} must block {a}" if a else f"{b} must block if able"
             for b, a in reqs if not ((a is None and decl.get(b)) or (a and a in
                                                                     decl.get(b, ())))]
    return [BlockProblem(
        "combat.blocks", game.rule("block-requirement"),
        f"the blocks obey {have} of {len(reqs)} requirements ({'; '.join(unmet)}), but "
        f"{best} can be obeyed without breaking a restriction, e.g. blocks: "
        f"{describe(example)}")]


def _cost_problems(game: Board, decl: Declaration) -> list[BlockProblem]:
    return [BlockProblem(
        "combat.blocks", game.rule("block-cost"),
        f"{player} must pay {cost} mana to block but can make only "
        f"{mana_available(game, player)}")
        for player, cost in costs_owed(game, decl).items()
        if mana_available(game, player) < cost]


def survey(game: Board, limit: int = 10_000, sample: int = 25) -> dict[str, object]:
    """The block declarations that break no restriction: how many (counted, not walked),
    how many requirements each obeys, and a sample with the maximal ones first (those
    obeying the most that can be obeyed, with costs payable: the legal ones, 509.1c).
    Maximal declarations are counted up to `limit`."""
    reqs = requirements(game)
    best = most_obeyed(game)[0]

    def row(decl: Declaration, maximal: bool) -> dict[str, object]:
        cost = costs_owed(game, decl)
        return {"blocks": {b: list(a) for b, a in decl.items()},
                "requirements_obeyed": obeyed(decl, reqs), "cost": sum(cost.values()),
                "affordable": affordable(game, decl), "maximal": maximal}

    rows = []
    maximal = 0
    for decl in legal_declarations(game):
        maximal += 1
        if len(rows) < sample:
            rows.append(row(decl, True))
        if maximal >= limit:
            break
    if len(rows) < sample:
        for decl in declarations(game):
            if obeyed(decl, reqs) >= best and affordable(game, decl):
                continue  # listed above
            rows.append(row(decl, False))
            if len(rows) == sample:
                break
    total = block_search.count(game)
    return {
        "requirements": [{"creature": b, "must_block": a} for b, a in reqs],
        "most_obeyed": best,
        "count": total, "maximal": maximal, "complete": maximal < limit,
        "declarations": rows, "sample": total > len(rows),
    }
