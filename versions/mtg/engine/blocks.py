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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import comb

from versions.mtg.engine import block_search
from versions.mtg.engine.blockers import (
    Declaration,
    Group,
    blockable,
    blocking_groups,
    capacity,
    limits,
    potential_blockers,
    restriction,
)
from versions.mtg.engine.state import Board, Permanent
from versions.mtg.scenario import CombatSpec

# Block choices a survey, or `can_block`, examines at most (`rulesdiff blocks --limit`).
SURVEY_LIMIT = 1_000_000


@dataclass
class BlockProblem:
    path: str  # where in the scenario, e.g. "combat.blocks.bear"
    rule: str
    message: str


def option_count(board: Board, blocker: str) -> int:
    can = len(blockable(board, blocker))
    return sum(comb(can, n) for n in range(0, min(capacity(board.perm(blocker)), can) + 1))


def declaration_count(board: Board) -> int:
    """How many declarations `declarations` walks (menace not yet taken into account)."""
    total = 1
    for b in potential_blockers(board):
        total *= option_count(board, b)
    return total


COUNTING = ("menace", "cant-be-blocked-except-by", "cant-be-blocked-by-more-than-one",
            "must-be-blocked-by-all")


def count_problems(board: Board, decl: Declaration) -> list[tuple[str, str]]:
    """The restrictions that count blockers, broken by `decl`: (where, why) for each."""

    counts: dict[str, int] = {}
    for attackers in decl.values():
        for a in attackers:
            counts[a] = counts.get(a, 0) + 1
    out = []
    for a, n in counts.items():
        lim = limits(board, a)
        if lim is not None and not lim.allows(n):
            bound = (f"at least {lim.least}" if lim.most is None or n < lim.least
                     else f"at most {lim.most}")
            if lim.most is not None and lim.least > lim.most:
                bound = "no number of creatures at all"
            why = ", ".join(k for k in COUNTING if board.perm(a).has(k))
            out.append((f"combat.blocks (attacker {a})",
                        f"{a} has {why} and is blocked by {n} creature(s), but may be "
                        f"blocked by none or by {bound}"))
    blocking = [b for b, attackers in decl.items() if attackers]
    for b in blocking:
        p = board.perm(b)
        if p.has("cant-attack-or-block-alone") and len(blocking) < 2:
            out.append((f"combat.blocks.{b}", f"{b} can't block alone"))
        if p.has("cant-block-unless-greater-power-blocks") and not any(
                board.perm(o).power > p.power for o in blocking if o != b):
            out.append((f"combat.blocks.{b}", f"{b} can't block unless a creature with "
                        f"greater power ({p.power}) also blocks"))
    return out


def requirements(board: Board) -> list[tuple[str, str | None]]:
    """Every requirement on the block: (creature, attacker it must block or None for
    "blocks if able"). A creature that could block only by paying a cost has none."""
    out: list[tuple[str, str | None]] = []
    lures = [a for a in board.attacks if board.perm(a).has("lure")]
    if not lures and not any(p.has("must-block") for p in board.permanents.values()):
        return out  # nothing requires a block (most boards): no blocker need be looked at
    free = [b for b in potential_blockers(board) if board.perm(b).block_cost == 0]
    for b in free:
        if board.perm(b).has("must-block") and blockable(board, b):
            out.append((b, None))
    for a in lures:
        out += [(b, a) for b in free if a in blockable(board, b)]
    return out


def obeyed(decl: Declaration, reqs: list[tuple[str, str | None]]) -> int:
    n = 0
    for blocker, attacker in reqs:
        blocking = decl.get(blocker, ())
        if (attacker is None and blocking) or (attacker is not None and attacker in blocking):
            n += 1
    return n


def declarations(board: Board, include_costs: bool = True) -> Iterator[Declaration]:
    """Every declaration that breaks no restriction (those counting blockers included),
    lazily."""
    blockers = [b for b in potential_blockers(board)
                if include_costs or board.perm(b).block_cost == 0]
    return (d for d in block_search.every_choice(board, blockers)
            if not count_problems(board, d))


def most_obeyed(board: Board) -> tuple[int, Declaration]:
    """The most requirements any restriction-respecting declaration obeys (paying no
    costs), with one declaration that does: an exact search (block_search.py)."""
    if not requirements(board):
        return 0, {}
    return block_search.most_obeyed(board)


def most_obeyed_count(board: Board) -> int:
    """`most_obeyed`'s number alone: where no restriction counts blockers, each blocker's
    most, added up, without the search."""
    if not requirements(board):
        return 0
    if block_search.independent(board):
        return block_search.each_most(board)
    return block_search.most_obeyed(board)[0]


def mana_sources(board: Board, player: str) -> list[tuple[Permanent, int]]:
    """The player's mana abilities (509.1e), in the order rulesdiff uses them to pay a
    cost to block: those that tap come before those that sacrifice, each group in listing
    order, so a creature is sacrificed only when nothing else will do."""
    found: dict[str, list[tuple[Permanent, int]]] = {"tap": [], "sacrifice-self": []}
    for pid in board.order:
        perm = board.perm(pid)
        if perm.controller != player or not perm.on_battlefield:
            continue
        for i, ability in enumerate(perm.abilities):
            if ability.effect != "add-mana" or ability.activated not in found:
                continue
            if ability.activated == "tap" and perm.tapped:
                continue
            found[ability.activated].append((perm, i))
    return found["tap"] + found["sacrifice-self"]


def mana_available(board: Board, player: str) -> int:
    """The player's mana plus what its mana abilities can make."""
    return board.players[player].mana + sum(
        perm.abilities[i].amount or 0 for perm, i in mana_sources(board, player))


def costs_owed(board: Board, decl: Declaration | dict[str, list[str]]) -> dict[str, int]:
    """The total cost to block (509.1d), per player."""
    owed: dict[str, int] = {}
    for b in decl:
        p = board.perm(b)
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


def affordable(board: Board, decl: Declaration) -> bool:
    return all(mana_available(board, pl) >= c for pl, c in costs_owed(board, decl).items())


def _maximal(board: Board, budget: int | None = None) -> tuple[Iterator[Declaration], bool]:
    """The declarations that break no restriction and obey as many requirements as can be
    (509.1c), lazily, and whether any blocker has a cost to pay (else all are legal).
    `budget`: the most blocker choices the search may examine (TooMuchWork)."""
    blockers = potential_blockers(board)
    costs = any(board.perm(b).block_cost for b in blockers)
    if not block_search.independent(board) and _at_most(board, blockers, FEW_TO_WALK):
        # Few declarations in all (most drawn boards): walked one by one, which costs less
        # than setting up the search; the same declarations in the same order.
        reqs = requirements(board)
        best = max(obeyed(d, reqs) for d in declarations(board, include_costs=False)) \
            if reqs else 0
        return (d for d in declarations(board) if obeyed(d, reqs) >= best), costs
    return block_search.reaching(board, most_obeyed_count(board), budget), costs


# Declarations (restrictions aside) that `_maximal` walks rather than searches.
FEW_TO_WALK = 128


def _at_most(board: Board, blockers: list[str], most: int) -> bool:
    """Whether the blockers' choices make at most `most` declarations, restrictions aside."""
    n = 1
    for b in blockers:
        n *= option_count(board, b)
        if n > most:  # stopped here: a blocker of thousands of options is never multiplied
            return False
    return True


def legal_declarations(board: Board) -> Iterator[Declaration]:
    """Every legal declaration, lazily: no restriction broken, as many requirements obeyed
    as can be (509.1c), costs payable."""
    found, costs = _maximal(board)
    if not costs:
        return found  # nothing to pay (most boards): every declaration is affordable
    payable = _payable(board)
    return (d for d in found if payable(d))


def _payable(board: Board) -> Callable[[Declaration], bool]:
    """`affordable` on this board, its players' mana counted once (not for every
    declaration)."""
    cost = {b: (p.controller, p.block_cost) for b in potential_blockers(board)
            if (p := board.perm(b)).block_cost}
    mana: dict[str, int] = {}
    payers = {player for player, _ in cost.values()}
    if len(payers) == 1 and not any(p.block_cost for pid, p in board.permanents.items()
                                    if pid not in cost):
        # One player pays every cost (the defending player's blockers): a sum, checked
        # for each of the many declarations a board of costs walks.
        (player,) = payers
        amounts = {b: n for b, (_, n) in cost.items()}
        available = mana_available(board, player)
        return lambda decl: sum([amounts.get(b, 0) for b in decl]) <= available

    def payable(decl: Declaration) -> bool:
        owed: dict[str, int] = {}
        for b in decl:
            if b in cost:
                player, n = cost[b]
                owed[player] = owed.get(player, 0) + n
            elif board.perm(b).block_cost:  # not a potential blocker: as `affordable`
                return affordable(board, decl)
        for player, n in owed.items():
            if player not in mana:
                mana[player] = mana_available(board, player)
            if mana[player] < n:
                return False
        return True

    return payable


def legal_count(board: Board, most: int, walked: int) -> int | None:
    """How many legal declarations there are, counted up to `most + 1` (stopping there),
    walking at most `walked` of ``_maximal``'s; None where that was not enough to know
    (costs no one can pay leave most of what is walked illegal). Bounded, where
    ``declaration_count`` counts the declarations a restriction forbids too. Where no
    blocker has a cost, and the walk would be long, the same answer is counted instead of
    walked (``block_search.count_obeying``), in a moment whatever the size."""
    blockers = potential_blockers(board)
    if not any(board.perm(b).block_cost for b in blockers) and \
            not _at_most(board, blockers, min(walked, most + 1)):
        try:
            best = most_obeyed_count(board)
            found = min(block_search.count_obeying(board, best, budget=COUNT_BUDGET),
                        most + 1)
            # As the walk would say it: it stops once it has walked `walked`.
            return None if walked < found else found
        except block_search.TooMuchWork:
            pass  # walked, as far as it may be
    found, costs = _maximal(board)
    payable = _payable(board) if costs else None
    legal = 0
    for n, decl in enumerate(found, 1):
        if n > walked:
            return None
        if payable is None or payable(decl):
            legal += 1
            if legal > most:
                return legal
    return legal


# Blocker choices `legal_count` examines at most to count rather than walk.
COUNT_BUDGET = 2_000_000


def check_blocks(board: Board, decl: Declaration) -> list[BlockProblem]:
    """What is wrong with declaring `decl` on `board`: broken restrictions, then unobeyed
    requirements (509.1c) and unpayable costs. The era is read only to cite its rules, so a
    declaration is legal in every era or in none, on the same board (a scenario's written
    blocks are checked once as combat begins: ``comparator.games.mtg.blocks``).

    Where several defending players declare (``blocking_groups``), each one's part is
    checked alone, ignoring the creatures attacking other players and the other players'
    blockers (602.4b of 2009-05-01; 802.4b after)."""
    groups = blocking_groups(board)
    if len(groups) <= 1:
        return check_declaration(board, decl)
    # Each block is part of its blocker's controller's declaration; a blocker of a player
    # no creature attacks, of the declaration of its first attacker's defending player.
    parts: dict[str, Declaration] = {g.player: {} for g in groups}
    for b, attackers in decl.items():
        perm = board.permanents.get(b)
        group = next((g for g in groups if perm is not None and perm.controller in g.players),
                     None) or next((g for g in groups if attackers and
                                    attackers[0] in g.attackers), groups[0])
        parts[group.player][b] = attackers
    return [p for g in groups for p in group_problems(board, g, parts[g.player])]


def group_problems(board: Board, group: Group, decl: Declaration) -> list[BlockProblem]:
    """What is wrong with one defending player's (or team's) declaration where several
    declare (``blocking_groups``). Their creatures block only creatures attacking them
    (602.4a; 802.4a): a block of any other attacker is refused as such. The rest is
    checked as the player's own declaration, the creatures attacking other players and
    the other players' blockers ignored (602.4b; 802.4b)."""
    problems: list[BlockProblem] = []
    own: Declaration = {}
    for b, attackers in decl.items():
        perm = board.permanents.get(b)
        mine = perm is not None and perm.controller in group.players
        foreign = [a for a in attackers if not mine or a not in group.attackers]
        for a in foreign:
            where = board.attacks.get(a)
            if where is None:
                continue  # not attacking at all: said by the declaration's own check
            problems.append(BlockProblem(
                f"combat.blocks.{b}", board.rule("mp-block-own"),
                f"{b} is controlled by {perm.controller if perm else '?'}, but {a} attacks "
                f"{where} (defending player {board.defending_player(a)}): a defending "
                f"player's creatures block only creatures attacking them"))
        if not foreign:
            own[b] = attackers
        elif not mine or all(a in foreign for a in attackers):
            continue
        else:  # its own part still counts (menace, lure) among this player's blocks
            own[b] = tuple(a for a in attackers if a not in foreign)
    return problems + check_declaration(board.scoped(group.attackers), own)


def _multiplayer_rules(board: Board) -> bool:
    """Whether the board's era has rules for several defending players to cite (the
    rulings before the Comprehensive Rules play one defending player only)."""
    return board.table.multiplayer and "mp-block-own" in board.era.RULES


def check_declaration(board: Board, decl: Declaration) -> list[BlockProblem]:
    """``check_blocks`` of one player's (or one team's) declaration."""
    problems: list[BlockProblem] = []
    rule_a = board.rule("block-untapped")
    rule_b = board.rule("block-restriction")
    for blocker_id, attackers in decl.items():
        path = f"combat.blocks.{blocker_id}"
        blocker = board.perm(blocker_id)
        if not blocker.on_battlefield:  # it left before blockers were declared
            problems.append(BlockProblem(path, rule_a, f"{blocker_id} is no longer on the "
                                                       f"battlefield"))
            continue
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
            if attacker_id not in board.attacks:  # removed from combat before blocks
                problems.append(BlockProblem(path, rule_a, f"{attacker_id} is no longer "
                                                           f"attacking"))
                continue
            defending = board.defending_player(attacker_id)
            if not board.defends(blocker.controller, attacker_id):
                problems.append(BlockProblem(
                    path, board.rule("mp-block-own") if _multiplayer_rules(board) else rule_a,
                    f"{blocker_id} is controlled by {blocker.controller}, but {attacker_id} "
                    f"attacks {board.attacks[attacker_id]} (defending player {defending})"))
            why = restriction(blocker, board.perm(attacker_id))
            if why:
                problems.append(BlockProblem(
                    path, rule_b, f"{blocker_id} can't block {attacker_id}: {why}"))
    for path, why in count_problems(board, decl):
        problems.append(BlockProblem(path, rule_b, why))
    if problems:
        return problems
    problems += _requirement_problems(board, decl)
    problems += _cost_problems(board, decl)
    return problems


def _requirement_problems(board: Board, decl: Declaration) -> list[BlockProblem]:
    reqs = requirements(board)
    have = obeyed(decl, reqs)
    if have == len(reqs):  # all of them: no declaration obeys more (and none is searched)
        return []
    best, example = most_obeyed(board)
    if have >= best:
        return []
    unmet = [f"{b} must block {a}" if a else f"{b} must block if able"
             for b, a in reqs if not ((a is None and decl.get(b)) or (a and a in
                                                                     decl.get(b, ())))]
    return [BlockProblem(
        "combat.blocks", board.rule("block-requirement"),
        f"the blocks obey {have} of {len(reqs)} requirements ({'; '.join(unmet)}), but "
        f"{best} can be obeyed without breaking a restriction, e.g. blocks: "
        f"{describe(example)}")]


def _cost_problems(board: Board, decl: Declaration) -> list[BlockProblem]:
    return [BlockProblem(
        "combat.blocks", board.rule("block-cost"),
        f"{player} must pay {cost} mana to block but can make only "
        f"{mana_available(board, player)}")
        for player, cost in costs_owed(board, decl).items()
        if mana_available(board, player) < cost]


def survey(board: Board, limit: int = 10_000, sample: int = 25,
           work: int = SURVEY_LIMIT) -> dict[str, object]:
    """The block declarations that break no restriction: how many (counted, not walked),
    how many requirements each obeys, and a sample with the maximal ones first (those
    obeying the most that can be obeyed, with costs payable: the legal ones, 509.1c).
    Maximal declarations are counted up to `limit`. Past `work` block choices examined
    (declarations walked, the search's choices), TooManyDeclarations."""
    try:
        return _survey(board, limit, sample, work)
    except block_search.TooMuchWork as more:
        raise TooManyDeclarations(more.examined, work) from None


def _survey(board: Board, limit: int, sample: int, work: int) -> dict[str, object]:
    reqs = requirements(board)
    best = most_obeyed(board)[0]
    walked = 0

    def walking(found: Iterator[Declaration]) -> Iterator[Declaration]:
        nonlocal walked
        for decl in found:
            walked += 1
            if walked > work:
                raise block_search.TooMuchWork(walked)
            yield decl

    def row(decl: Declaration, maximal: bool) -> dict[str, object]:
        cost = costs_owed(board, decl)
        return {"blocks": {b: list(a) for b, a in decl.items()},
                "requirements_obeyed": obeyed(decl, reqs), "cost": sum(cost.values()),
                "affordable": affordable(board, decl), "maximal": maximal}

    rows = []
    maximal = 0
    found, costs = _maximal(board, budget=work)
    payable = _payable(board) if costs else None
    for decl in walking(found):
        if payable is not None and not payable(decl):
            continue
        maximal += 1
        if len(rows) < sample:
            rows.append(row(decl, True))
        if maximal >= limit:
            break
    if len(rows) < sample:
        # Those a restriction forbids are never walked (`reaching`, obeying 0 or more).
        payable = _payable(board)
        for decl in walking(block_search.reaching(board, 0, budget=work)):
            if obeyed(decl, reqs) >= best and payable(decl):
                continue  # listed above
            rows.append(row(decl, False))
            if len(rows) == sample:
                break
    total = block_search.count(board, budget=work)
    return {
        "requirements": [{"creature": b, "must_block": a} for b, a in reqs],
        "most_obeyed": best,
        "count": total, "maximal": maximal, "complete": maximal < limit,
        "declarations": rows, "sample": total > len(rows),
    }


class TooManyDeclarations(Exception):
    """A survey or `can_block` would examine more than its limit of block choices."""

    def __init__(self, examined: int, limit: int):
        self.examined, self.limit = examined, limit
        super().__init__(f"more than {limit} block choices to examine")


def can_block(board: Board, blocker: str, attacker: str,
              limit: int = SURVEY_LIMIT) -> tuple[str, str] | None:
    """None if `blocker` may block `attacker` in some declaration that breaks no
    restriction (509.1b; others may have to block with it, as against menace); else the
    rule key that forbids it and why. Requirements are not asked: a creature that must
    block another still *can* block this one."""
    b, a = board.perm(blocker), board.perm(attacker)
    if not (b.on_battlefield and b.is_creature) or "battle" in b.types:
        return "block", f"{blocker} is not a creature on the battlefield"
    if blocker in board.attacks:
        return "block", f"{blocker} is attacking"
    if not board.defends(b.controller, attacker):
        return ("mp-block-own" if _multiplayer_rules(board) else "block",
                f"{attacker} is not attacking {b.controller} or what they control")
    groups = blocking_groups(board)
    if len(groups) > 1:  # the blocker's own player's declaration, the others ignored
        group = next(g for g in groups if attacker in g.attackers)
        board = board.scoped(group.attackers)
    if b.tapped:
        return "block-untapped", f"{blocker} is tapped"
    if b.has("cant-block"):
        return "block-restriction", f"{blocker} can't block"
    if (why := restriction(b, a)) is not None:
        return "block-restriction", f"{attacker}: {why}"
    if block_search.independent(board):
        return None  # nothing counts blockers: it blocks that attacker, the others nothing
    try:
        if block_search.can_block(board, blocker, attacker, budget=limit):
            return None
    except block_search.TooMuchWork as work:
        raise TooManyDeclarations(work.examined, limit) from None
    return "block-restriction", (f"no declaration that breaks no restriction has {blocker} "
                                 f"block {attacker} (a restriction counts its blockers)")
