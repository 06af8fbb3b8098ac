"""The turn player's Duel Masters attacks under one era's rules, one after another, each from
the block step (507) to the battle or the direct attack: the procedure every era shares.
Where the eras differ it calls the era's hooks (``versions.duel_masters.rules.
DuelMastersEra``: ``redirected``, ``designate``).

Every choice a player makes on the way is one ``Decision`` put to a chooser: ``run`` takes
the scenario's written choice; ``explore`` (in the comparator) tries every legal option of
each, through ``versions.duel_masters.engine.playthrough``."""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from math import factorial, perm, prod
from typing import Any

from versions.common import IllegalChoice
from versions.duel_masters.engine.state import (
    Attack,
    Chooser,
    Creature,
    Decision,
    Fight,
    PlayerState,
    scripted,
)
from versions.duel_masters.rules import DuelMastersEra
from versions.duel_masters.scenario import COMMUTING_EFFECTS, Ability, Scenario

SCHEMA = 1


class IllegalRedirect(IllegalChoice):
    """The scenario's chosen redirections break the era's rule (507.1a): exit 2."""

    def __init__(self, era: str, path: str, rule: str, message: str):
        self.era, self.path, self.rule, self.message = era, path, rule, message
        self.problems = [self]
        super().__init__(f"{path}: {message} ({rule})")


# -- the attack -------------------------------------------------------------------------

def run(era: DuelMastersEra, scenario: Scenario, choose: Chooser = scripted) -> dict[str, Any]:
    """The outcome JSON of the scenario's attacks under `era`, one after another, each
    choice put to `choose`."""
    era.check_game(scenario)
    fight = start(scenario, choose)
    for attacker, target in scenario.combat.attacks.items():
        if fight.over:
            break
        if not declare(era, fight, attacker, target):
            continue
        attack_triggers(era, fight)
        # The non-turn player's Ninja Strike: the opponent's creature attacked (112.3c).
        ninja_strike(era, fight, fight.defending, "attacked")
        block_step(era, fight)
        if not fight.over:
            battle_or_direct(era, fight)
    return outcome(era, fight)

def start(scenario: Scenario, choose: Chooser) -> Fight:
    players = {p.name: PlayerState(p.name, p.shields, p.mana, p.hand)
               for p in scenario.players}
    creatures = {c.id: Creature(
        c.id, c.name or c.id, c.controller, c.power,
        frozenset(k.name for k in c.keywords),
        {k.name: k.value for k in c.keywords if k.value is not None},
        list(c.abilities), c.tapped, c.zone) for c in scenario.permanents}
    return Fight(scenario, players, creatures, choose=choose)

def declare(era: DuelMastersEra, fight: Fight, attacker: str, target: str) -> bool:
    """The next written attack, if it can still be made now: an earlier attack may have
    destroyed its attacker or its target, or left its target untapped."""
    a = fight.creatures[attacker]
    t = fight.creatures.get(target)
    fight.step = "attack"
    why = None
    if a.zone != "battlefield":
        why = f"{attacker} is no longer in the battle zone"
    elif a.tapped:
        why = f"{attacker} is tapped"
    elif t is not None and t.zone != "battlefield":
        why = f"{target} is no longer in the battle zone"
    elif t is not None and not t.tapped and not a.has("mach-fighter"):
        why = f"{target} is untapped: only a tapped creature can be attacked"
    if why is not None:
        fight.event("no-attack", era.rule("attack"), source=attacker, target=target,
                    reason=why)
        return False
    a.tapped = True  # a creature taps to attack
    fight.attacks.append(Attack(attacker, target, target))
    fight.event("attack", era.rule("attack"), source=attacker, target=target)
    return True

def attack_triggers(era: DuelMastersEra, fight: Fight) -> None:
    a = fight.creatures[fight.attack.attacker]
    resolve(era, fight, [(a.id, ab, _other(fight, a.id)) for ab in a.abilities
                         if ab.trigger == "attacks"], era.rule("trigger"))

def block_step(era: DuelMastersEra, fight: Fight) -> None:
    """507: the non-turn player chooses, at once, the creatures whose redirecting
    abilities it uses; they resolve one by one in its order; the last decides."""
    fight.step = "block"
    legal = redirectors(era, fight)
    chosen = list(fight.choose(Decision(
        "redirect", fight.defending, fight.step, era.rule("choose"),
        fight.scenario.redirect_for(fight.attack.attacker),
        lambda: [list(p) for k in range(len(legal) + 1) for p in permutations(legal, k)],
        sum(perm(len(legal), k) for k in range(len(legal) + 1)),
        attacker=fight.attack.attacker if len(fight.scenario.combat.attacks) > 1 else None)))
    uses = [ability_used(era, fight, c, i) for i, c in enumerate(chosen)]
    for c, ability in zip(chosen, uses, strict=True):
        creature = fight.creatures[c]
        creature.tapped = True
        fight.attack.now = c
        fight.event("redirect", era.rule("resolve"), source=c, ability=ability,
                    target=fight.attack.attacker)
        era.redirected(fight, c, ability)
    era.designate(fight, chosen, uses)
    triggers: list[tuple[str, Ability, str | None]] = []
    a = fight.creatures[fight.attack.attacker]
    if fight.attack.blocked:
        fight.event("blocked", era.rule("blocked"), target=a.id,
                    blockers=list(fight.attack.blockers))
        for b in fight.attack.blockers:
            triggers += [(b, ab, a.id) for ab in fight.creatures[b].abilities
                         if ab.trigger == "blocks"]
        rule = era.rule("trigger-blocks")
    else:
        fight.event("unblocked", era.rule("unblocked"), target=a.id)
        on_player = fight.attack.target in fight.players
        triggers += [(a.id, ab, _other(fight, a.id)) for ab in a.abilities
                     if ab.trigger == "attacks-unblocked"
                     or (ab.trigger == "attacks-player-unblocked" and on_player)]
        rule = era.rule("unblocked")
    if fight.attack.blocked:  # the turn player's Ninja Strike: a creature blocked (112.3c)
        ninja_strike(era, fight, fight.scenario.active, "blocked")
    resolve(era, fight, triggers, rule)

def redirectors(era: DuelMastersEra, fight: Fight) -> list[str]:
    """The non-turn player's creatures that could legally redirect the attack now
    (507.1a), in listing order."""
    out = []
    for c in fight.creatures.values():
        if c.controller != fight.defending or c.zone != "battlefield":
            continue
        try:
            ability_used(era, fight, c.id, 0)
        except IllegalRedirect:
            continue
        out.append(c.id)
    return out

def ability_used(era: DuelMastersEra, fight: Fight, pid: str, index: int) -> str:
    """The redirecting ability `pid` uses, checked as all the choices are made at once
    (507.1a): each must be usable legally in the state before any resolves."""
    c = fight.creatures[pid]
    a = fight.creatures[fight.attack.attacker]
    where = f"{fight.scenario.redirect_path(a.id)}[{index}]"
    if c.zone != "battlefield":
        raise IllegalRedirect(era.id, where, era.rule("choose"),
                              f"{pid} can't redirect the attack: it is not in the battle "
                              f"zone")
    rule = era.rule("choose")

    def refuse(why: str) -> IllegalRedirect:
        return IllegalRedirect(era.id, where, rule, f"{pid} can't redirect the attack: "
                                                     f"{why}")

    if a.has("cant-redirect"):
        raise refuse(f"the target of {a.id}'s attack can't be changed")
    if c.tapped:
        raise refuse("it is tapped")
    if c.has("blocker") and not a.has("cant-be-blocked") and not c.has("cant-block") \
            and fight.attack.target != pid:
        return "blocker"
    if c.has("guardman") and fight.attack.target in fight.creatures \
            and fight.attack.target != pid:
        return "guardman"
    if c.has("blocker"):
        if a.has("cant-be-blocked"):
            raise refuse(f"{a.id} can't be blocked")
        if c.has("cant-block"):
            raise refuse("it can't block")
        raise refuse("an attack on a creature can't be redirected to that creature itself")
    if c.has("guardman"):
        raise refuse("a guardman redirects only an attack on a creature, not on a player")
    raise refuse("it has no ability that redirects an attack (blocker, guardman)")

def ninja_strike(era: DuelMastersEra, fight: Fight, player: str, because: str) -> None:
    """112.3c: a player's shinobi with Ninja Strike N, when the opponent's creature
    attacks or blocks, is summoned without paying its cost if the player has N or more
    cards in the mana zone; one Ninja Strike a player per attack."""
    mana = fight.players[player].mana
    usable = [c.id for c in fight.creatures.values()
              if c.controller == player and c.zone == "hand" and c.has("ninja-strike")
              and mana >= c.values["ninja-strike"]]
    listed = fight.scenario.combat.ninja
    if listed is None:  # not written: every shinobi in a hand tries
        listed = [c.id for c in fight.creatures.values() if c.has("ninja-strike")]
    written = None
    for sid in listed:
        s = fight.creatures[sid]
        if s.controller != player or s.zone != "hand":
            continue
        if sid in usable:
            written = sid
            break
        fight.event("ninja-strike-unusable", era.rule("ninja"), source=sid,
                    amount=s.values["ninja-strike"], mana=mana)
    if not usable:
        return
    sid = fight.choose(Decision("ninja-strike", player, fight.step, era.rule("ninja"),
                                written, lambda: [None, *usable], len(usable) + 1))
    if sid is None:  # "may": the player need not summon it
        return
    s = fight.creatures[sid]
    s.zone = "battlefield"
    s.tapped = False
    fight.event("ninja-strike", era.rule("ninja"), source=sid, target=player,
                because=because)

def battle_or_direct(era: DuelMastersEra, fight: Fight) -> None:
    a = fight.creatures[fight.attack.attacker]
    if a.zone != "battlefield":
        return
    target = fight.attack.now
    if target in fight.players:
        direct_attack(era, fight, a, fight.players[target])
        return
    t = fight.creatures[target]
    if t.zone != "battlefield":
        fight.step = "battle"
        fight.event("no-battle", era.rule("battle"), source=a.id, target=target)
        return
    fight.step = "battle"
    fight.event("battle", era.rule("battle"), source=a.id, target=t.id,
                powers=[a.power, t.power])
    losers = [c for c in (a, t) if c.power <= (t.power if c is a else a.power)]
    for c in losers:
        c.zone = "graveyard"
        fight.event("destroy", era.rule("battle"), target=c.id)

def direct_attack(era: DuelMastersEra, fight: Fight, a: Creature, player: PlayerState) -> None:
    fight.step = "direct-attack"
    if player.shields == 0:
        if fight.attack.now == fight.attack.target:
            player.lost = True
            fight.over = True
            fight.event("wins", era.rule("win"), source=a.id, target=player.name)
        return
    n = min(a.values.get("breaker", 1), player.shields)
    player.shields -= n
    player.hand += n
    fight.event("break-shields", era.rule("break"), source=a.id, target=player.name,
                amount=n)

# -- triggered abilities ----------------------------------------------------------------

def resolve(era: DuelMastersEra, fight: Fight, triggers: list[tuple[str, Ability, str | None]],
            rule: str) -> None:
    """The turn player's triggered abilities first, then the non-turn player's, each
    in the order its controller chooses."""
    for player in (fight.scenario.active, fight.defending):
        mine = [t for t in triggers if fight.creatures[t[0]].controller == player]
        for i in trigger_order(era, fight, player, mine):
            resolve_one(era, fight, *mine[i], rule)

def trigger_order(era: DuelMastersEra, fight: Fight, player: str,
                  triggers: list[tuple[str, Ability, str | None]]) -> tuple[int, ...]:
    as_listed = tuple(range(len(triggers)))
    if len(triggers) < 2:
        return as_listed
    labels = tuple(f"{s}: {a.trigger} {a.effect}"
                   + (f" {a.amount}" if a.effect in ("draw", "power") else "")
                   + ("" if a.target == "self" or a.effect == "draw" else f" {a.target}")
                   for s, a, _ in triggers)

    def orders() -> list[tuple[int, ...]]:
        # Two triggers alike (the same source and ability) can't be told apart.
        seen: dict[tuple[str, ...], tuple[int, ...]] = {}
        for order in permutations(as_listed):
            seen.setdefault(tuple(labels[i] for i in order), order)
        return list(seen.values())

    # Orders that can be told apart: n! over the orderings of each set of alike ones.
    distinct = factorial(len(labels)) // prod(factorial(n)
                                              for n in Counter(labels).values())
    return tuple(fight.choose(Decision(
        "trigger-order", player, fight.step, era.rule("trigger"), as_listed, orders,
        distinct, labels, all(a.effect in COMMUTING_EFFECTS for _, a, _ in triggers))))

def resolve_one(era: DuelMastersEra, fight: Fight, source: str, ability: Ability, other: str | None,
                rule: str) -> None:
    s = fight.creatures[source]
    fight.event("trigger", rule, source=source, condition=ability.trigger)
    target = {"self": source, "that-creature": other,
              "controller": None}.get(ability.target, ability.target)
    if ability.effect == "draw":
        p = fight.players[s.controller]
        p.drawn += ability.amount
        p.hand += ability.amount
        fight.event("draw", rule, target=s.controller, amount=ability.amount)
        return
    c = fight.creatures.get(target or "")
    if c is None or c.zone != "battlefield":
        return
    if ability.effect == "tap":
        c.tapped = True
    elif ability.effect == "destroy":
        c.zone = "graveyard"
    elif ability.effect == "power":
        c.pumps += ability.amount
    fight.event(ability.effect, rule, target=c.id, amount=ability.amount)

def _other(fight: Fight, pid: str) -> str | None:
    """The other creature of the attack, if the attack is on a creature now."""
    now = fight.attack.now
    return now if now in fight.creatures and now != pid else None

# -- the outcome ------------------------------------------------------------------------

def outcome(era: DuelMastersEra, fight: Fight) -> dict[str, Any]:
    return {
        "schema": SCHEMA, "scenario": fight.scenario.id, "era": era.id,
        "players": {n: {"shields": p.shields, "drawn": p.drawn, "lost": p.lost,
                        "hand": p.hand} for n, p in fight.players.items()},
        "permanents": {c.id: {"zone": c.zone, "controller": c.controller,
                              "tapped": c.tapped if c.zone == "battlefield" else False,
                              "power": c.power if c.zone == "battlefield"
                              else c.printed_power}
                       for c in fight.creatures.values()},
        "events": fight.events, "notes": [],
    }
