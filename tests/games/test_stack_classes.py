"""Explore searches damage on the stack once for each class of it (the `sixth` era,
comparator.games.mtg.stack_classes): the same results as searching every position, worked
by hand on a small case and compared with brute force and with the search without
classes on hand-written and random combats (and, in tests/explore/test_explore.py, on every
shipped scenario against brute force)."""

import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import scenario

from comparator.games.exploration import TooLarge, era_result
from comparator.games.mtg.explore import Explorer, Options
from comparator.games.mtg.stack_classes import stack_class
from versions import ERA_IDS as ERAS
from versions import NotInEra, find_era
from versions.mtg.play import exploration

ROOT = Path(__file__).resolve().parents[2]

# A 4/4 trampler blocked by a 2/2; the defender has a Giant Growth for the 2/2 once the
# damage is on the stack.
PUMPED_BEAR = """
id: t-pumped-bear
title: A trampler's damage on the stack, answered by a pump
players: [{name: A}, {name: B, life: LIFE}]
active: A
permanents:
  - {id: wurm, controller: A, power: 4, toughness: 4, keywords: [trample KEYWORD]}
  - {id: bear, controller: B, power: 2, toughness: 2}
combat:
  attacks: {wurm: B}
  blocks: {bear: wurm}
actions:
  - {at: damage-on-stack, by: B, effect: pump, target: bear, power: 3, toughness: 3,
     card: Giant Growth}
EXTRA
"""


def board(life: int = 20, keyword: str = "", extra: str = "") -> str:
    return (PUMPED_BEAR.replace("LIFE", str(life)).replace(" KEYWORD", keyword)
            .replace("EXTRA", extra))


def explored(text: str, era: str = "sixth", classes: bool = True, merge: bool = True,
             **options):
    s = scenario(text)
    e = Explorer(s, era, merge=merge, **options)
    e.stack_classes = e.stack_classes and classes
    return e, era_result(e, e.run())


def test_three_divisions_are_one_class_worked_by_hand():
    # Trample (sixth: lethal damage to the bear before any to B): 4 to the bear, 3 and 1,
    # or 2 and 2. Each is answered by the pump or not: 6 lines, 6 outcomes (the bear dies
    # or lives; B at 20, 19 or 18). Every amount from 2 to 4 kills the bear unpumped and
    # none kills it pumped (5 toughness): one class, searched once, moved in B's life.
    e, res = explored(board())
    assert res["lines"] == 6 and len(res["outcomes"]) == 6
    assert {(o["state"]["permanents"]["bear"]["zone"], o["state"]["players"]["B"]["life"])
            for o in res["outcomes"]} == {(z, life) for z in ("battlefield", "graveyard")
                                         for life in (20, 19, 18)}
    # Best play: 2 to the bear and 2 to B; B pumps and keeps the bear.
    value = res["value"]
    assert value["state"]["players"]["B"]["life"] == 18
    assert value["state"]["permanents"]["bear"]["zone"] == "battlefield"
    assert value["score"] == [0, 0, 2]
    assert value["line"][0]["choice"] == {"bear": 2, "B": 2}
    # The class is known twice: as the division's (the first division searched, the two
    # others answered by it, without being played) and as its damage on the stack's.
    assert len(e.by_class) == 2 and e.reused == 2 and e.leaves == 2
    _, brute = explored(board(), merge=False)
    assert brute == res


def stack_position(text: str) -> tuple[Any, list[Any]]:
    """The first decision with damage on the stack, along the first option of each."""
    s = scenario(text)
    combat = exploration(find_era("sixth")(), s)
    options = Options(combat, "fixed")
    while True:
        d = combat.advance()
        assert d is not None, "no damage on the stack"
        if combat.on_stack and d.kind == "priority":
            return combat, s.actions
        combat.resume(options.of(d)[0])


@pytest.mark.parametrize("keyword,extra", [
    (", deathtouch", ""),  # any amount kills: not by lethal damage only
    (", lifelink", ""),  # A's life moves with the damage dealt
    ("", "  - {at: damage-on-stack, by: B, effect: damage, target: wurm, amount: 2}"),
    ("", "  - {at: damage-on-stack, by: B, effect: prevent, target: B, amount: 1}"),
    ("", "  - {at: damage-on-stack, by: A, effect: gain-life, target: A, amount: 3}"),
], ids=["deathtouch", "lifelink", "a shock", "prevention", "life gained"])
def test_no_class_where_an_amount_matters_otherwise(keyword, extra):
    assert stack_class(*stack_position(board())) is not None
    text = board(keyword=keyword, extra=extra)
    assert stack_class(*stack_position(text)) is None
    # Once the action is taken, the positions after it may have classes: still exact.
    e, res = explored(text)
    _, brute = explored(text, merge=False)
    assert brute == res


def test_a_player_the_damage_would_kill_is_kept_exact():
    # At 2 life, the division 2 and 2 kills B: it is no class of the others (4 to the
    # bear, and 3 and 1, leave B alive: one class).
    e, res = explored(board(life=2))
    assert e.reused == 1 and len(e.by_class) == 4  # two classes, each known twice
    assert any(o["state"]["players"]["B"]["lost"] for o in res["outcomes"])
    assert res["value"]["state"]["players"]["B"]["lost"] is True
    _, brute = explored(board(life=2), merge=False)
    assert brute == res


def test_the_contract_case_is_the_same_with_and_without_classes():
    text = (ROOT / "benchmarks" / "explore-trampler-five-blockers.yaml").read_text()
    e, fast = explored(text)
    _, exact = explored(text, classes=False)
    assert fast == exact and fast["lines"] == 35336 and len(fast["outcomes"]) == 59
    # Classes of divisions and of damage on the stack: 949 positions searched, not 11,589.
    assert e.reused > 2000 and e.visited < 1000 and e.leaves < 500


TRICKS = [
    "{at: AT, by: B, effect: pump, target: BLOCKER, power: 3, toughness: 3}",
    "{at: AT, by: A, effect: pump, target: a1, power: 2, toughness: 2}",
    "{at: AT, by: B, effect: counters, target: BLOCKER, amount: 1}",
    "{at: AT, by: A, effect: counters, target: BLOCKER, amount: 2, kind: -1/-1}",
    "{at: AT, by: B, effect: regenerate, target: BLOCKER}",
    "{at: AT, by: A, effect: destroy, target: BLOCKER}",
    "{at: AT, by: B, effect: bounce, target: BLOCKER}",
    "{at: AT, by: B, effect: grant, target: BLOCKER, keyword: indestructible}",
    "{at: AT, by: A, effect: damage, target: BLOCKER, amount: 2}",
    "{at: AT, by: B, effect: prevent, target: B, amount: 2}",
    "{at: AT, by: A, effect: gain-life, target: A, amount: 2}",
    "{at: AT, by: B, effect: prevent, target: BLOCKER, amount: 1}",
    "{at: AT, by: B, effect: grant, target: BLOCKER, keyword: {protection: green}}",
]


def random_combat(rng: random.Random, n: int) -> str:
    """A trampler or two against one to three blockers, two or three tricks in the
    windows around damage on the stack: the positions classes are made of."""
    attackers = [f"a{i}" for i in range(1, rng.randint(1, 2) + 1)]
    blockers = [f"b{i}" for i in range(1, rng.randint(1, 3) + 1)]
    lines = [f"id: t-random-{n}", "title: random", "players: [{name: A}, "
             f"{{name: B, life: {rng.choice([2, 3, 5, 20])}}}]", "active: A", "permanents:"]
    for a in attackers:
        keywords = ["trample"] + rng.sample(["first-strike", "deathtouch", "lifelink"],
                                            rng.choice([0, 0, 0, 1]))
        lines.append(f"  - {{id: {a}, controller: A, power: {rng.randint(3, 8)}, "
                     f"toughness: {rng.randint(2, 6)}, keywords: [{', '.join(keywords)}], "
                     f"colors: [{rng.choice(['green', 'red'])}]}}")
    for b in blockers:
        keywords = rng.sample(["indestructible", "first-strike", "{protection: green}"],
                              rng.choice([0, 0, 1]))
        lines.append(f"  - {{id: {b}, controller: B, power: {rng.randint(0, 3)}, "
                     f"toughness: {rng.randint(1, 4)}, keywords: [{', '.join(keywords)}]}}")
    lines += ["combat:", f"  attacks: {{{', '.join(f'{a}: B' for a in attackers)}}}",
              f"  blocks: {{{', '.join(f'{b}: {rng.choice(attackers)}' for b in blockers)}}}",
              "actions:"]
    for trick in rng.sample(TRICKS, rng.randint(2, 3)):
        at = rng.choice(["damage-on-stack", "[declare-blockers, damage-on-stack]",
                         "combat-damage", "[damage-on-stack, combat-damage]",
                         "[damage-prevention, damage-on-stack]"])
        lines.append("  - " + trick.replace("AT", at).replace("BLOCKER", rng.choice(blockers)))
    return "\n".join(lines) + "\n"


def test_random_combats_are_the_same_with_and_without_classes():
    rng = random.Random(2026_12_03)
    reused = compared = brute_forced = 0
    for n in range(120):
        text = random_combat(rng, n)
        for objective in ("material", "life"):
            try:
                e, fast = explored(text, objective=objective, limit=50_000)
            except TooLarge:
                continue
            _, exact = explored(text, classes=False, objective=objective, limit=50_000)
            assert fast == exact, (text, objective)
            if fast["lines"] <= 2_000:
                _, brute = explored(text, merge=False, objective=objective)
                assert brute == fast, (text, objective, "brute force")
                brute_forced += 1
            reused += e.reused
            compared += 1
    # The classes were used, not only skipped; and brute force checked most of it.
    assert compared > 200 and brute_forced > 100 and reused > 500, (
        compared, brute_forced, reused)


def combat(name: str, permanents: list[str], blocks: str, actions: list[str] = (),
           life: int = 20) -> str:
    """A two-player combat in which A attacks B with every creature of A's."""
    attackers = [re.search(r"id: (\w+), controller: A", p) for p in permanents]
    return "\n".join([
        f"id: t-{name}", f"title: {name}", "players: [{name: A}, "
        f"{{name: B, life: {life}}}]", "active: A", "permanents:",
        *(f"  - {{{p}}}" for p in permanents), "combat:",
        f"  attacks: {{{', '.join(f'{m[1]}: B' for m in attackers if m)}}}",
        f"  blocks: {{{blocks}}}", *(["actions:"] if actions else []),
        *(f"  - {{{a}}}" for a in actions)]) + "\n"


# Found by comparing random combats with brute force in every era: positions merged where
# nothing could change who survives, though a creature with lethal damage had a
# regeneration shield in one and none in the other (lines counted for the wrong outcome);
# and refused lines counted once for a merged subtree, where brute force counts each.
REGENERATION_SHIELD = combat("shield-or-not", [
    "id: a1, controller: A, power: 3, toughness: 4, keywords: [trample, first-strike]",
    "id: a2, controller: A, power: 7, toughness: 3, keywords: [trample]",
    "id: b1, controller: B, power: 2, toughness: 1, keywords: [first-strike]",
    "id: b2, controller: B, power: 0, toughness: 4",
    "id: b3, controller: B, power: 0, toughness: 1"], "b1: a1, b2: a2, b3: a2", [
    "at: combat-damage, by: A, effect: damage, target: b3, amount: 2",
    "at: [declare-blockers, damage-on-stack], by: B, effect: counters, target: b2, amount: 1",
    "at: [declare-blockers, damage-on-stack], by: B, effect: regenerate, target: b3"], life=2)
# Before Urza's Saga: a trampler whose blocker leaves combat is a line the era refuses.
REFUSED_TWICE = combat("refused-twice", [
    "id: a1, controller: A, power: 3, toughness: 3, keywords: [trample]",
    "id: b1, controller: B, power: 2, toughness: 4"], "b1: a1", [
    "at: [declare-blockers, damage-on-stack], by: B, effect: bounce, target: b1",
    "at: [declare-blockers, damage-on-stack], by: A, effect: pump, target: a1, power: 2, "
    "toughness: 2"], life=3)
# Before Urza's Saga trample redirected to the player what a blocker was dealt beyond
# lethal damage, and nothing from one protected from the trampler (A.27.Note): there, damage
# past lethal to a protected blocker is not "the same future" (a first draft merged it).
PROTECTED_FROM_A_TRAMPLER = combat("protected-blocker", [
    "id: a1, controller: A, power: 6, toughness: 5, keywords: [trample], colors: [green]",
    "id: b1, controller: B, power: 0, toughness: 4, keywords: [{protection: green}]",
    "id: b2, controller: B, power: 2, toughness: 1"], "b1: a1, b2: a1", life=2)
# A damage prevention step's damage waits too, but its rules read the amounts: before Urza's
# Saga trample redirects what a blocker is dealt past lethal (all these lines leave B at 17),
# and only a dying creature may regenerate. No class there.
REDIRECTED = combat("fourth-redirect", [
    "id: wurm, controller: A, power: 5, toughness: 5, keywords: [trample]",
    "id: bear, controller: B, power: 2, toughness: 2"], "bear: wurm", [
    "at: damage-prevention, by: B, effect: regenerate, target: bear"])
# Regenerating removes the damage marked: a creature with 2 damage that may regenerate
# before the damage on the stack is dealt (in answer to a destroy) survives 2 more, not 3;
# a first draft of the classes measured lethal from its damage marked only.
REGENERATED_FIRST = combat("regenerated-first", [
    "id: a1, controller: A, power: 3, toughness: 5, keywords: [trample], colors: [green]",
    "id: b1, controller: B, power: 0, toughness: 3"], "b1: a1", [
    "at: damage-on-stack, by: A, effect: destroy, target: b1",
    "at: damage-on-stack, by: B, effect: regenerate, target: b1",
    "at: declare-blockers, by: A, effect: damage, target: b1, amount: 2"], life=2)


# Found by a review of the merges, each against brute force (the first two were wrong
# before the classes too): players act in a damage prevention step (fourth, fifth); damage
# an earlier creature assigns to one protected from it is not dealt; a creature that grows
# with the graveyards grows when one is sacrificed in answer; a shrink destroys a damaged
# creature, a shield regenerates it, and the waiting damage decides again; lifelink given
# to the source in answer makes the damage a protected blocker takes count; regenerated,
# a creature keeps the -1/-1 counters of all the wither damage.
REVIEWED = {
    "prevention-step": (combat("prevention-step", [
        "id: a1, controller: A, power: 4, toughness: 5",
        "id: b1, controller: B, power: 0, toughness: 2",
        "id: b2, controller: B, power: 0, toughness: 1"], "b1: a1, b2: a1", [
        "at: damage-prevention, by: B, effect: prevent, target: b1, amount: 1"]),
        ["fourth", "fifth"]),
    "protected-earlier": (combat("protected-earlier", [
        "id: a1, controller: A, power: 5, toughness: 9, colors: [green]",
        "id: a2, controller: A, power: 4, toughness: 9, colors: [red]",
        "id: b, controller: B, power: 0, toughness: 3, keywords: [can-block-additional, "
        "{protection: green}]",
        "id: c, controller: B, power: 0, toughness: 1"], "b: [a1, a2], c: a2"),
        ["sixth", "m10", "foundations"]),
    "grows": (combat("grows", [
        "id: a1, controller: A, power: 4, toughness: 9",
        "id: nh, controller: B, power: 0, toughness: 2, grows-with-graveyards: true",
        "id: b2, controller: B, power: 0, toughness: 1",
        "id: b3, controller: B, power: 0, toughness: 1"], "nh: a1, b2: a1", [
        "at: damage-on-stack, by: B, effect: sacrifice, target: b3"]), ["sixth"]),
    "shrink-regenerate": (combat("shrink-regenerate", [
        "id: a1, controller: A, power: 6, toughness: 9",
        "id: b1, controller: B, power: 0, toughness: 5, damage: 4",
        "id: b2, controller: B, power: 0, toughness: 1"], "b1: a1, b2: a1", [
        "at: declare-blockers, by: B, effect: regenerate, target: b1, required: true",
        "at: damage-on-stack, by: A, effect: pump, target: b1, power: 0, toughness: -1"]),
        ["sixth"]),
    "lifelink-given": (combat("lifelink-given", [
        "id: a1, controller: A, power: 6, toughness: 9, colors: [green]",
        "id: b, controller: B, power: 0, toughness: 2, keywords: [{protection: green}]",
        "id: c, controller: B, power: 0, toughness: 1"], "b: a1, c: a1", [
        "at: damage-on-stack, by: A, effect: grant, target: a1, keyword: lifelink"]),
        ["sixth"]),
    "wither-regenerate": (combat("wither-regenerate", [
        "id: a1, controller: A, power: 4, toughness: 9, keywords: [wither]",
        "id: b1, controller: B, power: 0, toughness: 4, damage: 2",
        "id: b2, controller: B, power: 0, toughness: 1"], "b1: a1, b2: a1", [
        "at: declare-blockers, by: B, effect: regenerate, target: b1, required: true"]),
        ["sixth", "m10", "m11", "foundations"]),
    # Settled positions merged with and without a first-strike step, which decides where an
    # `if-missing: later` action lands (older than the classes; a second review's find).
    "first-strike-step": (combat("first-strike-step", [
        "id: a1, controller: A, power: 2, toughness: 5",
        "id: a9, controller: A, power: 1, toughness: 1",
        "id: b1, controller: B, power: 0, toughness: 4"], "b1: a1", [
        "at: declare-blockers, by: A, effect: grant, target: [a1, a9], keyword: first-strike",
        "at: combat-damage, by: B, effect: counters, target: [a1, b1], amount: 2, "
        "kind: -1/-1, required: true",
        "at: first-strike-damage-prevention, by: A, effect: pump, target: a1, power: 0, "
        "toughness: 0, if-missing: later"]), ["sixth", "m10", "m11", "foundations"]),
    # A creature protected from one of a band of attackers was kept exact by its total
    # damage: so much from each is not that much from the one it is not protected from
    # (the second review's fuzzer, run again on the reviewed code).
    "shares-of-a-protected-blocker": ("""
id: t-shares
title: a blocker protected from one of a band of attackers
players: [{name: A, life: 2}, {name: B, life: 20, mana: 2, graveyard: [Grizzly Bears]}]
active: A
permanents:
  - {id: a1, controller: A, power: 6, toughness: 4, damage: 1, keywords: [{rampage: 1}],
     colors: [green]}
  - {id: a2, controller: A, power: 6, toughness: 2, damage: 1, keywords: [banding], colors: [white]}
  - {id: b1, controller: B, power: 3, toughness: 1, damage: 0, keywords: [], colors: [white]}
  - {id: b2, controller: B, power: 0, toughness: 5, damage: 0,
     keywords: [{protection: green}, banding], colors: [white]}
combat:
  attacks: {a1: B, a2: B}
  blocks: {b1: a1, b2: a2}
  bands: [[a2, a1]]
actions:
  - {at: damage-on-stack, by: A, effect: pump, target: a2, power: 0, toughness: 0}
  - {at: [first-strike-damage-prevention, first-strike-damage], by: B, effect: bounce,
     target: a1, if-missing: later}
  - {at: combat-damage, by: B, effect: sacrifice, target: b1, if-missing: later}
""", ["sixth"]),
}


@pytest.mark.parametrize("name", list(REVIEWED))
def test_found_by_review(name):
    text, eras = REVIEWED[name]
    for era in eras:
        _, fast = explored(text, era=era)
        _, brute = explored(text, era=era, merge=False)
        assert fast == brute, era


@pytest.mark.parametrize("era", ["fourth", "fifth"])
def test_no_class_in_a_damage_prevention_step(era):
    e, fast = explored(REDIRECTED, era=era)
    assert e.by_class == {}
    _, brute = explored(REDIRECTED, era=era, merge=False)
    assert fast == brute
    if era == "fourth":
        assert {o["state"]["players"]["B"]["life"] for o in fast["outcomes"]} == {17}


@pytest.mark.parametrize("text,era", [(REGENERATED_FIRST, "sixth"),
                                      (REGENERATION_SHIELD, "sixth"),
                                      (REFUSED_TWICE, "fourth"),
                                      (PROTECTED_FROM_A_TRAMPLER, "fourth")],
                         ids=["regenerated", "shield", "refused", "protected"])
def test_found_by_brute_force(text, era):
    _, fast = explored(text, era=era)
    _, brute = explored(text, era=era, merge=False)
    assert fast == brute
    if text == REFUSED_TWICE:
        assert [n["positions"] for n in fast["notes"] if n["type"] == "lines-refused"] == [3]


def test_random_combats_agree_with_brute_force_in_every_era():
    rng = random.Random(11)
    compared = 0
    for n in range(40):
        text = random_combat(rng, n)
        for era in ERAS:
            try:
                _, fast = explored(text, era=era, limit=3_000)
            except (TooLarge, NotInEra):  # too large for brute force; a keyword too new
                continue
            _, brute = explored(text, era=era, merge=False)
            assert brute == fast, (text, era)
            compared += 1
    assert compared > 150


def test_classes_where_a_damage_prevention_step_reads_no_amount():
    """A damage prevention step in which no one can act (the pumps are refused there,
    T.10.3) deals the damage as M10 does: fifth has classes of divisions. Before Urza's
    Saga trample redirected what a blocker was dealt past lethal damage (A.27.Note), so
    fourth has none for the trampler."""
    text = (ROOT / "benchmarks" / "explore-trampler-five-blockers.yaml").read_text()
    for era, classed in (("fifth", True), ("fourth", False)):
        e, fast = explored(text, era=era)
        _, exact = explored(text, era=era, classes=False)
        assert fast == exact
        assert (e.reused > 1000) == classed and (e.by_class != {}) == classed


SHIELDED_AND_PROTECTED = combat("shielded-and-protected", [
    "id: a1, controller: A, power: 7, toughness: 7, keywords: [trample], colors: [green]",
    "id: b1, controller: B, power: 1, toughness: 2",
    "id: b2, controller: B, power: 2, toughness: 2, colors: [red]",
    "id: b3, controller: B, power: 1, toughness: 3"], "b1: a1, b2: a1, b3: a1", [
    "at: declare-blockers, by: B, effect: prevent, target: b1, amount: 2",
    "at: declare-blockers, by: B, effect: grant, target: b3, keyword: {protection: green}",
    "at: declare-blockers, by: A, effect: grant, target: a1, keyword: {protection: red}"])


@pytest.mark.parametrize("era", ["sixth", "m10", "foundations"])
def test_shields_and_protection_join_classes(era):
    """With its shield b1 dies of 4 or more (2 prevented, 2 lethal), not of less; b3
    protected from green is dealt nothing whatever a1 assigns it; a1 protected from red is
    dealt only b1's and b3's damage. Those are the terms of the classes: the unused
    actions' windows have passed, so they refuse none. Worked by hand: a1's 7 is exactly
    its blockers' lethal damage (2, 2, 3: trample counts neither shield nor protection),
    so nothing reaches B; a1 is dealt 4 at most and lives."""
    e, fast = explored(SHIELDED_AND_PROTECTED, era=era)
    _, brute = explored(SHIELDED_AND_PROTECTED, era=era, merge=False)
    assert fast == brute and e.reused > 0
    states = [o["state"] for o in fast["outcomes"]]
    assert {s["players"]["B"]["life"] for s in states} == {20}
    assert {s["permanents"]["a1"]["zone"] for s in states} == {"battlefield"}
    # b3 protected survives every division; unprotected, some kill it.
    assert {s["permanents"]["b3"]["zone"] for s in states} == {"battlefield", "graveyard"}
