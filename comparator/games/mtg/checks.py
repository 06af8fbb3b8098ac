"""Checks that need the whole scenario: ids that must exist and must not clash, blocks that
must name attackers, assignments that must name what a creature fights, targets, expect.

Each check yields (field path as a tuple, message). Block legality under an era's rules is
checked by the era itself (``versions.mtg.engine.blocks``) when the scenario is run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from comparator.games.mtg.cards import library
from comparator.games.mtg.table_checks import active_team, check_table
from versions import ERA_IDS
from versions.mtg.scenario import (
    OUTCOME_PERMANENT_FIELDS,
    OUTCOME_PLAYER_FIELDS,
    ZONES,
    ExpectState,
    Scenario,
    SplitAssign,
)
from versions.mtg.table import Table

Found = Iterator[tuple[tuple[Any, ...], str]]

PERMANENT_TARGET = {
    "pump", "destroy", "sacrifice", "regenerate", "bounce", "remove-from-combat", "grant",
    "counters", "become-blocked", "lose-keyword",
}
PLAYER_TARGET = {"gain-life", "discard", "lose-life"}
ANY_TARGET = {"damage", "prevent"}


def check_scenario(s: Scenario) -> list[tuple[tuple[Any, ...], str]]:
    return [
        *_players(s), *check_table(s), *_permanents(s), *_attacks(s), *_attacking_alone(s),
        *_bands(s),
        *_blocks(s),
        *_orders(s), *_assign(s),
        *_actions(s), *_expect(s),
    ]


def _players(s: Scenario) -> Found:
    seen: set[str] = set()
    for i, p in enumerate(s.players):
        if p.name in seen:
            yield ("players", i, "name"), f"player {p.name!r} is listed twice"
        seen.add(p.name)
        for zone in ("graveyard", "hand"):
            for j, c in enumerate(getattr(p, zone)):
                if isinstance(c, str) and c not in library():
                    yield ("players", i, zone, j), (
                        f"unknown card {c!r}: not in the card library; write it out as "
                        f"{{name: {c}, creature: true}} (or false)")
    if s.active not in seen:
        yield ("active",), f"{s.active!r} is not one of the players"


def _permanents(s: Scenario) -> Found:
    players = set(s.player_names())
    cards = library()
    seen: set[str] = set()
    for i, p in enumerate(s.permanents):
        here = ("permanents", i)
        if p.id in seen:
            yield (*here, "id"), f"id {p.id!r} is used twice"
        if p.id in players:
            yield (*here, "id"), f"id {p.id!r} is also a player's name"
        seen.add(p.id)
        if p.controller not in players:
            yield (*here, "controller"), f"{p.controller!r} is not one of the players"
        card = None
        if p.card is not None:
            card = cards.get(p.card)
            if card is None:
                continue  # said by loading.raw_card_problems, once for all unknown cards
            if not card.is_permanent_card:
                yield (*here, "card"), (f"{p.card} is a {card.type_line}, not a creature or "
                                        f"planeswalker; name it in an action's `card:`")
                card = None
        types = p.types or (card.types if card else ["creature"])
        if "creature" in types:
            for stat in ("power", "toughness"):
                if getattr(p, stat) is None and (card is None or getattr(card, stat) is None):
                    yield (*here, stat), f"a creature needs {stat} (give it, or a `card`)"
        if "planeswalker" in types and p.loyalty is None and (card is None or card.loyalty is None):
            yield (*here, "loyalty"), "a planeswalker needs loyalty"
        if p.loyalty is not None and "planeswalker" not in types:
            yield (*here, "loyalty"), "only planeswalkers have loyalty"
        if "battle" in types and p.defense is None and (card is None or card.defense is None):
            yield (*here, "defense"), "a battle needs defense"
        for field in ("defense", "protector"):
            if getattr(p, field) is not None and "battle" not in types:
                yield (*here, field), f"only battles have a {field}"
        if p.protector is not None and p.protector not in players:
            yield (*here, "protector"), f"{p.protector!r} is not one of the players"
        if p.animated_by is not None:
            yield from _animated(s, p, here, types)


def _animated(s: Scenario, p: Any, here: tuple[Any, ...], types: list[str]) -> Found:
    """`animated-by`: a noncreature permanent made a creature by another one's effect."""
    if p.animated_by == p.id or s.permanent(p.animated_by) is None:
        yield (*here, "animated-by"), (f"{p.animated_by!r} is not another permanent of the "
                                       f"scenario")
    if not p.types or "creature" in p.types:
        yield (*here, "types"), ("a permanent `animated-by` another is not a creature by "
                                 "itself: give its own types (e.g. [land])")
    for stat in ("power", "toughness"):
        if getattr(p, stat) is None:
            yield (*here, stat), f"an animated permanent needs the {stat} it is given"


def _ids(s: Scenario) -> set[str]:
    return {p.id for p in s.permanents}


def _types(s: Scenario, pid: str) -> list[str]:
    p = s.permanent(pid)
    if p is None:
        return []
    if p.types:  # and a creature as combat begins, where another permanent animates it
        return list(p.types) + (["creature"] if p.animated_by else [])
    card = library().get(p.card) if p.card else None
    return list(card.types) if card else ["creature"]


def _attacks(s: Scenario) -> Found:
    ids, players = _ids(s), set(s.player_names())
    table, attacking = Table.of(s), active_team(s)
    for attacker, target in s.combat.attacks.items():
        here = ("combat", "attacks", attacker)
        if attacker not in ids:
            yield here, f"attacker {attacker!r} is not a permanent of the scenario"
            continue
        a = s.permanent(attacker)
        assert a is not None
        if a.controller not in attacking:
            yield here, f"{attacker} is controlled by {a.controller}, not the active player"
        if "creature" not in _types(s, attacker):
            yield here, f"{attacker} is not a creature"
        if target not in players and target not in ids and \
                table.team_attacked(target, s.active) is not None:
            continue  # Two-Headed Giant: the team (its player chosen as the rules say)
        if target in players:
            if target == s.active:
                yield here, f"{attacker} can't attack its own controller {target}"
        elif target in ids:
            if not {"planeswalker", "battle"} & set(_types(s, target)):
                yield here, f"{target} is not a planeswalker or battle, so it can't be attacked"
            elif (t := s.permanent(target)) and "battle" in _types(s, target):
                if (t.protector or t.controller) == s.active:
                    yield here, (f"{target} is protected by {s.active}, and a battle's "
                                 f"protector can never attack it")
            elif t and t.controller == s.active:
                yield here, f"{target} is the active player's own planeswalker"
        else:
            yield here, f"{target!r} is neither a player nor a permanent"


def _keywords_of(s: Scenario, pid: str) -> set[str]:
    """The keyword names a permanent starts with: its own and its card's."""
    spec = s.permanent(pid)
    if spec is None:
        return set()
    card = library().get(spec.card) if spec.card else None
    return {k.name for k in [*spec.keywords, *(card.keywords if card else [])]}


def _attacking_alone(s: Scenario) -> Found:
    if len(s.combat.attacks) == 1:
        (attacker,) = s.combat.attacks
        if "cant-attack-or-block-alone" in _keywords_of(s, attacker):
            yield ("combat", "attacks", attacker), f"{attacker} can't attack alone"


def _bands(s: Scenario) -> Found:
    """Attacking bands (A.11.4; 502.10b-c; 702.22c-d): attackers only, each in one band,
    all attacking the same player, planeswalker or battle, at most one without banding."""
    seen: dict[str, int] = {}
    for i, band in enumerate(s.combat.bands):
        here = ("combat", "bands", i)
        if len(band) < 2:
            yield here, "a band has at least two attacking creatures"
        for member in band:
            if member not in s.combat.attacks:
                yield here, f"{member!r} is not attacking, so it can't be in a band"
            elif member in seen:
                yield here, (f"{member} is already in band {seen[member]}: a creature may be "
                             f"in one band only")
            seen.setdefault(member, i)
        attacking = {s.combat.attacks[m] for m in band if m in s.combat.attacks}
        if len(attacking) > 1:
            yield here, (f"a band's creatures all attack the same player, planeswalker or "
                         f"battle; these attack {', '.join(sorted(attacking))}")
        without = [m for m in band if s.permanent(m) is not None
                   and "banding" not in _keywords_of(s, m)]
        if len(without) > 1:
            yield here, (f"a band has at most one creature without banding; "
                         f"{', '.join(without)} have none")


def _blocks(s: Scenario) -> Found:
    ids = _ids(s)
    for blocker in s.combat.blocks:
        here = ("combat", "blocks", blocker)
        if blocker not in ids:
            yield here, f"blocker {blocker!r} is not a permanent of the scenario"
            continue
        if blocker in s.combat.attacks:
            yield here, f"{blocker} is attacking, so it can't block"
        attackers = s.combat.blocked_attackers(blocker)
        if not attackers:
            yield here, "a block names at least one attacker"
        if len(set(attackers)) != len(attackers):
            yield here, "the same attacker is named twice"
        for a in attackers:
            if a not in s.combat.attacks:
                yield here, f"{a!r} is not attacking"


def _fights(s: Scenario, creature: str) -> list[str]:
    """The creatures `creature` blocks or is blocked by, as declared (a band blocked as
    one), and the tokens an action puts onto the battlefield blocking it."""
    if creature in s.combat.attacks:
        band = {creature, *_band(s, creature)}
        return [b for b in s.combat.blocks if band & set(s.combat.blocked_attackers(b))] + [
            a.id for a in s.actions
            if a.effect == "enter-blocking" and a.attacker in band and a.id]
    blocked = s.combat.blocked_attackers(creature)
    return blocked + [m for a in blocked for m in _band(s, a) if m not in blocked]


def _band(s: Scenario, attacker: str) -> list[str]:
    """The other members of `attacker`'s band."""
    band = next((b for b in s.combat.bands if attacker in b), [])
    return [m for m in band if m != attacker]


def _orders(s: Scenario) -> Found:
    for creature, order in s.combat.order.items():
        here = ("combat", "order", creature)
        fights = _fights(s, creature)
        if creature not in s.combat.attacks and creature not in s.combat.blocks:
            yield here, f"{creature} is neither attacking nor blocking"
        elif sorted(order) != sorted(fights):
            yield here, (f"an order lists exactly the creatures {creature} fights "
                         f"({', '.join(fights) or 'none'}), once each")


def _assign(s: Scenario) -> Found:
    for creature, amounts in s.combat.assign.items():
        here = ("combat", "assign", creature)
        if creature not in s.combat.attacks and creature not in s.combat.blocks:
            yield here, f"{creature} is neither attacking nor blocking"
            continue
        if isinstance(amounts, SplitAssign):
            if not _double_striker(s, creature):
                yield here, (f"{creature} assigns in two steps only with double strike "
                             f"(`first` and `second` are for a double striker)")
            steps = [(("first",), amounts.first), (("second",), amounts.second)]
        else:
            steps = [((), amounts)]
        for step, intent in steps:
            if isinstance(intent, dict):
                yield from _amounts(s, creature, (*here, *step), intent)


def _double_striker(s: Scenario, creature: str) -> bool:
    granted = {a.keyword.name for a in s.actions if a.effect == "grant" and a.keyword}
    return "double-strike" in _keywords_of(s, creature) | granted


def _amounts(s: Scenario, creature: str, here: tuple[Any, ...],
             amounts: dict[str, int]) -> Found:
    fights = _fights(s, creature)
    attacked = s.combat.attacks.get(creature)
    walker = s.permanent(attacked) if attacked else None
    # Trample over planeswalkers may go past an attacked planeswalker to its controller.
    beyond = (walker.controller if walker is not None
              and "trample-over-planeswalkers" in _keywords_of(s, creature) else None)
    for key in amounts:
        if key in fights or key == beyond:
            continue
        if attacked is not None and key == attacked:
            continue
        role = "is blocked by" if creature in s.combat.attacks else "blocks"
        yield (*here, key), (f"{key!r} is not a creature {creature} {role}"
                             + (f", nor the {attacked} it attacks" if attacked else ""))


def _actions(s: Scenario) -> Found:
    ids, players = _ids(s), set(s.player_names())
    made: set[str] = set()
    for i, a in enumerate(s.actions):
        here = ("actions", i)
        if a.by not in players:
            yield (*here, "by"), f"{a.by!r} is not one of the players"
        known = ids | made
        poison = a.effect == "counters" and a.kind == "poison"
        for t in a.targets:
            if t is None:
                continue
            if poison:
                if t not in players:
                    yield (*here, "target"), f"poison counters go on a player, not {t!r}"
            elif a.effect in PERMANENT_TARGET and t not in known:
                yield (*here, "target"), f"target {t!r} is not a permanent of the scenario"
            if a.effect in PLAYER_TARGET and t not in players:
                yield (*here, "target"), f"target {t!r} is not a player"
            if a.effect in ANY_TARGET and t not in known | players:
                yield (*here, "target"), f"target {t!r} is neither a permanent nor a player"
        if a.effect == "damage" and a.source is not None and a.source not in known:
            yield (*here, "source"), f"source {a.source!r} is not a permanent of the scenario"
        if a.from_ is not None and a.from_ not in known:
            yield (*here, "from"), f"{a.from_!r} is not a permanent of the scenario"
        if a.effect == "become-blocked":
            for t in a.targets:
                if t not in s.combat.attacks:
                    yield (*here, "target"), f"{t!r} is not attacking"
        if a.effect == "enter-blocking":
            if a.id in known or a.id in players:
                yield (*here, "id"), f"id {a.id!r} is already used"
            if a.controller not in players:
                yield (*here, "controller"), f"{a.controller!r} is not one of the players"
            if a.attacker not in s.combat.attacks:
                yield (*here, "attacker"), f"{a.attacker!r} is not attacking"
            elif a.controller == s.active:
                yield (*here, "controller"), (
                    f"{a.controller!r} is the attacking player: a creature put onto the "
                    f"battlefield blocking enters under a defending player's control")
            if a.id:
                made.add(a.id)
        if a.effect == "activate":
            for t in a.targets:
                yield from _activation(s, i, a.source, a.ability, t, a.sacrifice, a.by,
                                       known | players)


def _activation(s: Scenario, i: int, source: str | None, index: int, target: str | None,
                sacrifice: str | None, by: str, known: set[str]) -> Found:
    here = ("actions", i)
    spec = s.permanent(source or "")
    if spec is None:
        yield (*here, "source"), f"source {source!r} is not a permanent of the scenario"
        return
    card = library().get(spec.card) if spec.card else None
    abilities = (list(card.abilities) if card else []) + list(spec.abilities)
    if index >= len(abilities):
        yield (*here, "ability"), f"{source} has {len(abilities)} abilities; no ability {index}"
        return
    ability = abilities[index]
    if ability.activated is None:
        yield (*here, "ability"), f"ability {index} of {source} is triggered, not activated"
        return
    if spec.controller != by:
        yield (*here, "by"), f"only {source}'s controller {spec.controller} can activate it"
    if ability.target != "self" and ability.effect not in ("add-mana",) and target is None:
        yield (*here, "target"), f"{source}'s {ability.effect} needs a `target`"
    if target is not None and target not in known:
        yield (*here, "target"), f"target {target!r} is neither a permanent nor a player"
    if ability.activated == "sacrifice-creature" and sacrifice not in _ids(s):
        yield (*here, "sacrifice"), "name the creature sacrificed to pay the cost (`sacrifice:`)"


def _expect(s: Scenario) -> Found:
    ids = _ids(s) | {a.id for a in s.actions if a.id}
    players = set(s.player_names())
    for era, exp in s.expect.items():
        here = ("expect", era)
        if era not in ERA_IDS:
            yield here, f"unknown era {era!r} (one of {', '.join(ERA_IDS)})"
        yield from _expected_state(here, exp, ids, players)
        for window, state in exp.after.items():
            yield from _expected_state((*here, "after", window), state, ids, players)
        yield from _expected_blocks((*here, "can-block"), exp.can_block, s)
        if exp.best_blocks is not None:
            yield from _expected_blocks((*here, "best-blocks"), exp.best_blocks, s)


def _expected_blocks(here: tuple[Any, ...], declared: dict[str, Any], s: Scenario) -> Found:
    """`can-block`, `best-blocks`: blockers that are permanents, attackers that attack."""
    ids = _ids(s)
    if here[-1] == "best-blocks" and len(s.players) != 2:
        yield here, "best play is explored for two players only"
    for blocker, attackers in declared.items():
        if blocker not in ids:
            yield (*here, blocker), f"{blocker!r} is not a permanent of the scenario"
        if not attackers and here[-1] == "best-blocks":
            yield (*here, blocker), "a blocker here blocks at least one attacker"
        for a in [attackers] if isinstance(attackers, str) else attackers:
            if a not in s.combat.attacks:
                yield (*here, blocker), f"{a!r} does not attack in this scenario"


def _expected_state(here: tuple[Any, ...], exp: ExpectState, ids: set[str],
                    players: set[str]) -> Found:
    for name, fields in exp.players.items():
        if name not in players:
            yield (*here, "players", name), f"{name!r} is not one of the players"
        for f in fields:
            if f not in OUTCOME_PLAYER_FIELDS:
                yield (*here, "players", name, f), f"a player's outcome has no field {f!r}"
    for pid, fields in exp.permanents.items():
        if pid not in ids:
            yield (*here, "permanents", pid), f"{pid!r} is not a permanent of the scenario"
        for f, v in fields.items():
            if f not in OUTCOME_PERMANENT_FIELDS:
                yield (*here, "permanents", pid, f), \
                    f"a permanent's outcome has no field {f!r}"
            elif f == "zone" and v not in ZONES:
                yield (*here, "permanents", pid, f), \
                    f"zone {v!r} is not one of {', '.join(ZONES)}"
            elif f == "counters" and not (isinstance(v, dict) and all(
                    k in ("+1/+1", "-1/-1") and isinstance(n, int) for k, n in v.items())):
                yield (*here, "permanents", pid, f), \
                    "counters is a map of +1/+1 or -1/-1 to a number, e.g. {-1/-1: 2}"


# Keywords whose triggers change a creature's power during combat.
POWER_KEYWORDS = frozenset({"rampage", "bushido", "flanking"})


def warnings(s: Scenario) -> Iterator[tuple[tuple[Any, ...], str]]:
    """What is legal but surely not what the author meant: an intended division whose
    amounts add up to other than the creature's power, when nothing in the scenario can
    change that power (no action on it, no triggered ability, no rampage, bushido or
    flanking): `run` would replace it with the default division in every era."""
    if any(a.trigger for p in s.permanents for a in p.abilities) or any(
            k.name in POWER_KEYWORDS for p in s.permanents for k in p.keywords):
        return
    touched = {t for a in s.actions for t in a.targets} | {
        x for a in s.actions for x in (a.source, a.attacker) if x}
    for creature, intent in s.combat.assign.items():
        p = s.permanent(creature)
        if not isinstance(intent, dict) or p is None or p.power is None or creature in touched:
            continue
        total = sum(intent.values())
        if total != max(p.power, 0):
            yield (("combat", "assign", creature),
                   f"warning: the intended division adds up to {total}, but {creature}'s "
                   f"power is {p.power} and nothing in the scenario changes it: `run` uses "
                   f"the default division instead in every era (scenario-format §1.5)")
