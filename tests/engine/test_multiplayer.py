"""Multiplayer combat (docs/multiplayer.md), each expectation worked by hand from the era's
text: the CR of 2009-05-01 (600-609) for `sixth`, 2009-07-08 (800-809) for `m10`,
2010-07-16 for `m11`, 2025-02-07 for `foundations`; the Fifth Edition rulings summary
(M.1-M.3) for `fourth` and `fifth`."""

from __future__ import annotations

import pytest
from helpers import life, perm, run, scenario

import versions
from comparator.files.problems import ScenarioError
from versions.common import NotInEra
from versions.mtg.engine.combat import IllegalAttacks, IllegalBlocks
from versions.mtg.table import Table, emperors_of

CR_ERAS = ("sixth", "m10", "m11", "foundations")


def board(players: str, mp: str, permanents: str, attacks: str, blocks: str = "{}",
          active: str = "A", extra: str = "") -> str:
    return f"""
id: mp
title: A multiplayer combat
players: {players}
active: {active}
multiplayer: {mp}
permanents:
{permanents}
combat:
  attacks: {attacks}
  blocks: {blocks}
{extra}"""


THREE = "[{name: A}, {name: B}, {name: C}]"
FFA = "{variant: free-for-all}"
TWO_HEADED = ("[{name: A, team: ab}, {name: B, team: ab}, {name: C, team: cd}, "
              "{name: D, team: cd}]")


# -- the table ----------------------------------------------------------------------------


def test_seats_go_to_the_left_in_turn_order():
    # 607.4: "Turn order goes to players' left": B sits to A's left, E to A's right.
    t = Table.of(scenario(board("[{name: A}, {name: B}, {name: C}, {name: D}, {name: E}]",
                                FFA, "  - {id: x, controller: A, power: 1, toughness: 1}",
                                "{x: B}")))
    assert (t.left_of("A"), t.right_of("A")) == ("B", "E")
    assert [t.seat_distance("A", p) for p in "BCDE"] == [1, 2, 2, 1]
    assert t.apnap({"E", "C", "B"}, "C") == ["C", "E", "B"]  # C first, then C's left
    assert t.opponents("A") == ["B", "C", "D", "E"]


def test_the_emperor_sits_in_the_middle_of_the_team():
    seats = ("A1", "A2", "A3", "B1", "B2", "B3")
    teams = {p: p[0] for p in seats}
    assert emperors_of(seats, teams) == {"A": "A2", "B": "B2"}
    # 607.3a: ranges 2 for emperors, 1 for generals.
    players = "[" + ", ".join(f"{{name: {p}, team: {p[0].lower()}}}" for p in seats) + "]"
    t = Table.of(scenario(board(players, "{variant: emperor}",
                                "  - {id: x, controller: A3, power: 1, toughness: 1}",
                                "{x: B1}", active="A3")))
    assert t.ranges == {"A1": 1, "A2": 2, "A3": 1, "B1": 1, "B2": 2, "B3": 1}


# -- attacks --------------------------------------------------------------------------------

FOUR = "[{name: A}, {name: B}, {name: C}, {name: D}]"
ONE_ATTACKER = "  - {id: ogre, controller: A, power: 3, toughness: 3}"


@pytest.mark.parametrize("mp, target, rules", [
    # 604.1b / 803.1b: attack right: only D, to A's right.
    ("{variant: free-for-all, attack: right}", "B", ("604.1b", "803.1b")),
    # 601.3 / 801.3: C is two seats away from A, out of a range of 1.
    ("{variant: free-for-all, range-of-influence: 1}", "C", ("601.3", "801.3")),
    # 608.2b: Grand Melee attacks left (B); 604.1a / 803.1a.
    ("{variant: grand-melee}", "D", ("604.1a", "803.1a")),
])
def test_an_attack_the_option_forbids_is_refused_by_its_rule(mp, target, rules):
    text = board(FOUR, mp, ONE_ATTACKER, f"{{ogre: {target}}}")
    for era in CR_ERAS:
        with pytest.raises(IllegalAttacks) as refused:
            run(text, era)
        assert refused.value.problems[0].rule == rules[era != "sixth"]
        assert refused.value.problems[0].path == "combat.attacks.ogre"


def test_the_attack_the_option_allows_runs():
    text = board(FOUR, "{variant: free-for-all, attack: right}", ONE_ATTACKER, "{ogre: D}")
    for era in CR_ERAS:
        assert life(run(text, era), "D") == 17


def test_an_emperors_general_attacks_across_the_circle_but_no_teammate():
    players = ("[{name: A1, team: a}, {name: A2, team: a}, {name: A3, team: a}, "
               "{name: B1, team: b}, {name: B2, team: b}, {name: B3, team: b}]")
    ogre = "  - {id: ogre, controller: A1, power: 3, toughness: 3}"
    # A1's right is B3 (the table is a circle): next to A1, within its range of 1.
    assert life(run(board(players, "{variant: emperor}", ogre, "{ogre: B3}",
                          active="A1"), "m10"), "B3") == 17
    with pytest.raises(IllegalAttacks) as refused:
        run(board(players, "{variant: emperor}", ogre, "{ogre: A2}", active="A1"), "m10")
    assert refused.value.problems[0].rule == "506.2a"  # a teammate is no opponent


def test_teams_attack_only_the_opponents_seated_next_to_them():
    # Teams of two, seated so that no one sits next to a teammate (609.3): A B C D E F with
    # teams x y z x y z. A's neighbours are B and F; E (team y) is two seats away.
    players = ("[{name: A, team: x}, {name: B, team: y}, {name: C, team: z}, "
               "{name: D, team: x}, {name: E, team: y}, {name: F, team: z}]")
    permanents = ("  - {id: ogre, controller: A, power: 3, toughness: 3}\n"
                  "  - {id: bear, controller: A, power: 2, toughness: 2}")
    legal = board(players, "{variant: teams}", permanents, "{ogre: B, bear: F}")
    for era in CR_ERAS:
        out = run(legal, era)
        assert (life(out, "B"), life(out, "F")) == (17, 18)
    far = board(players, "{variant: teams}", permanents, "{ogre: B, bear: E}")
    for era, rule in zip(CR_ERAS, ("609.4", "809.4", "811.4", "811.4"), strict=True):
        with pytest.raises(IllegalAttacks) as refused:
            run(far, era)
        assert (refused.value.problems[0].path, refused.value.problems[0].rule) == \
            ("combat.attacks.bear", rule)


def test_two_headed_giant_attackers_of_both_players_and_no_teammate():
    permanents = ("  - {id: giant, controller: A, power: 5, toughness: 5}\n"
                  "  - {id: wolf, controller: B, power: 4, toughness: 4}")
    text = board(TWO_HEADED, "{variant: two-headed-giant}", permanents,
                 "{giant: C, wolf: D}")
    for era in CR_ERAS:
        out = run(text, era)
        # 606.4a: 30 unwritten; 9 damage to the team's shared total, shown on both.
        assert [life(out, p) for p in "ABCD"] == [30, 30, 21, 21]
    with pytest.raises(IllegalAttacks) as refused:
        run(board(TWO_HEADED, "{variant: two-headed-giant}", permanents, "{giant: B}"),
            "m11")
    assert refused.value.problems[0].rule == "810.7c"


# -- blocks -----------------------------------------------------------------------------------

LURE = """  - {id: boar, controller: A, power: 4, toughness: 4, keywords: [lure]}
  - {id: bear, controller: A, power: 2, toughness: 2}
  - {id: wall, controller: B, power: 0, toughness: 3}
  - {id: elf, controller: B, power: 1, toughness: 1}
  - {id: knight, controller: C, power: 2, toughness: 2}"""


def test_defending_players_declare_in_apnap_order():
    # C's attacker is listed first; B sits first to A's left, so B declares first (602.4).
    text = board(THREE, FFA, LURE, "{bear: C, boar: B}", "{knight: bear, wall: boar, "
                 "elf: boar}")
    for era in CR_ERAS:
        out = run(text, era)
        said = [(e["target"], e["blockers"]) for e in out["events"]
                if e["type"] == "declares-blockers"]
        assert said == [("B", ["elf", "wall"]), ("C", ["knight"])]
        assert {e["rule"] for e in out["events"] if e["type"] == "declares-blockers"} == \
            {"sixth": {"602.4"}}.get(era, {"802.4"})


def test_a_lure_binds_only_the_creatures_of_the_player_it_attacks():
    # 602.4b / 802.4b: C's knight need not block the boar attacking B (it can't), and B's
    # elf must: leaving it out breaks the requirement (B's own declaration).
    free = board(THREE, FFA, LURE, "{boar: B, bear: C}", "{wall: boar, elf: boar}")
    for era in CR_ERAS:
        assert perm(run(free, era), "knight")["zone"] == "battlefield"
    short = board(THREE, FFA, LURE, "{boar: B, bear: C}", "{wall: boar}")
    for era in CR_ERAS:
        with pytest.raises(IllegalBlocks) as refused:
            run(short, era)
        assert "elf must block boar" in refused.value.problems[0].message


def test_cant_block_alone_counts_only_the_same_players_blockers():
    # 602.4b / 802.4b: B's creature that can't block alone blocks beside C's blocker only:
    # B's declaration, looked at alone, has it block alone.
    permanents = """  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: bear, controller: A, power: 2, toughness: 2}
  - {id: loner, controller: B, power: 2, toughness: 2, keywords: [cant-attack-or-block-alone]}
  - {id: knight, controller: C, power: 2, toughness: 2}"""
    text = board(THREE, FFA, permanents, "{ogre: B, bear: C}", "{loner: ogre, knight: bear}")
    for era in CR_ERAS:
        with pytest.raises(IllegalBlocks) as refused:
            run(text, era)
        assert refused.value.problems[0].message == "loner can't block alone"


def test_two_headed_giant_blocks_as_one_team():
    permanents = """  - {id: giant, controller: A, power: 6, toughness: 6, keywords: [lure]}
  - {id: cwall, controller: C, power: 1, toughness: 3}
  - {id: dwall, controller: D, power: 1, toughness: 3}"""
    # The lure attacks C; D's wall is able to block it too (606.7c: any attacking creature)
    # and so must (the requirement is the team's one combined block).
    text = board(TWO_HEADED, "{variant: two-headed-giant}", permanents, "{giant: C}",
                 "{cwall: giant}")
    for era in CR_ERAS:
        with pytest.raises(IllegalBlocks) as refused:
            run(text, era)
        assert "dwall must block giant" in refused.value.problems[0].message
    both = text.replace("{cwall: giant}", "{cwall: giant, dwall: giant}")
    for era in CR_ERAS:
        out = run(both, era)
        assert perm(out, "cwall")["zone"] == perm(out, "dwall")["zone"] == "graveyard"
        assert perm(out, "giant")["damage"] == 2


# -- losing and leaving -----------------------------------------------------------------------


def test_a_player_who_leaves_takes_what_they_own_and_the_game_goes_on():
    permanents = """  - {id: striker, controller: A, power: 3, toughness: 3,
     keywords: [first-strike]}
  - {id: ogre, controller: A, power: 4, toughness: 4, keywords: [trample]}
  - {id: bear, controller: A, power: 2, toughness: 2}
  - {id: wall, controller: B, power: 0, toughness: 5}
  - {id: elf, controller: C, power: 1, toughness: 1}"""
    players = "[{name: A}, {name: B, life: 3}, {name: C}]"
    text = board(players, FFA, permanents, "{striker: B, ogre: B, bear: C}", "{wall: ogre}")
    # First strike takes B to 0: B leaves with the wall; the trampling ogre, blocked by
    # no one now, assigns all its damage to B (702.19e), who has left: M10 deals none
    # (800.4d), Foundations assigns none (800.4e); the CR of 2009-05-01 says nothing of
    # damage assigned after the player left: refused. The bear hits C either way.
    for era in ("m10", "m11", "foundations"):
        out = run(text, era)
        assert out["players"]["B"]["lost"] and not out["players"]["C"]["lost"]
        assert perm(out, "wall")["zone"] == "gone"
        assert life(out, "B") == 0 and life(out, "C") == 18
        assert [n["rule"] for n in out["notes"] if n["type"] == "departed-damage"] == \
            [{"foundations": "800.4e"}.get(era, "800.4d")]
    with pytest.raises(NotInEra, match="600.4a"):
        run(text, "sixth")


def test_the_rulings_play_one_defending_player_and_refuse_two():
    permanents = """  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: bear, controller: A, power: 2, toughness: 2}"""
    one = board(THREE, FFA, permanents, "{ogre: B, bear: B}")
    for era in ("fourth", "fifth"):
        assert life(run(one, era), "B") == 15
    two = board(THREE, FFA, permanents, "{ogre: B, bear: C}")
    for era in ("alpha", "fourth", "fifth"):
        with pytest.raises(NotInEra, match="M.1.1"):
            run(two, era)
    with pytest.raises(NotInEra, match="1993"):
        run(one, "alpha")


def test_two_headed_giant_poison_is_the_teams_where_the_text_says_so():
    # m11 and Foundations: shared, fifteen to lose (704.5u of 2011-07-15, cited from the
    # whole text of 2022-04-29 as 704.6b, as m11 cites infect; 810.8d).
    permanents = "  - {id: horror, controller: A, power: 6, toughness: 6, keywords: [infect]}"
    players = TWO_HEADED.replace("{name: C, team: cd}", "{name: C, team: cd, poison: 9}") \
        .replace("{name: D, team: cd}", "{name: D, team: cd, poison: 9}")
    text = board(players, "{variant: two-headed-giant}", permanents, "{horror: D}")
    for era in ("m11", "foundations"):
        out = run(text, era)
        assert [out["players"][p]["poison"] for p in "CD"] == [15, 15]
        assert out["players"]["C"]["lost"] and out["players"]["D"]["lost"]
        assert [e["rule"] for e in out["events"] if e["type"] == "loses"][0] == \
            {"m11": "704.6b (CR 2022-04-29)", "foundations": "810.8d"}[era]
    # Five more make fourteen: no loss for the team, where a duel would lose at ten.
    low = text.replace("power: 6", "power: 5")
    for era in ("m11", "foundations"):
        assert not run(low, era)["players"]["C"]["lost"]


def test_a_general_who_loses_leaves_alone_and_an_emperor_takes_the_team():
    players = ("[{name: A1, team: a}, {name: A2, team: a}, {name: A3, team: a}, "
               "{name: B1, team: b, life: 2}, {name: B2, team: b}, "
               "{name: B3, team: b}]")
    # General A3 attacks B1 (next to A3): B1 at 2 takes 3 and loses. B1 is a general: the
    # game goes on, B1 leaves with its bear.
    permanents = """  - {id: knight, controller: A3, power: 3, toughness: 3}
  - {id: bear, controller: B1, power: 2, toughness: 2}"""
    text = board(players, "{variant: emperor}", permanents, "{knight: B1}", active="A3")
    for era in CR_ERAS:
        out = run(text, era)
        assert out["players"]["B1"]["lost"] and not out["players"]["B2"]["lost"]
        assert perm(out, "bear")["zone"] == "gone"
    # No one sits next to an emperor but teammates: it loses by other means. A3's spell
    # makes B2 lose 20 life: the team loses with its emperor (607.5a; 807.5a; 809.5b), and
    # with one team left the game is over.
    drained = text.replace("{name: B1, team: b, life: 2}", "{name: B1, team: b}") + \
        "actions:\n  - {at: declare-blockers, by: A3, effect: lose-life, target: B2, " \
        "amount: 20}\n"
    for era, rule in zip(CR_ERAS, ("607.5a", "807.5a", "809.5b", "809.5b"), strict=True):
        out = run(drained, era)
        assert all(out["players"][p]["lost"] for p in ("B1", "B2", "B3"))
        assert {e["rule"] for e in out["events"] if e["type"] == "loses" and "team" in e} \
            == {rule}
        assert perm(out, "bear")["zone"] == "battlefield"  # the game ended: nothing left


# -- the file's shape --------------------------------------------------------------------------


@pytest.mark.parametrize("players, mp, said", [
    ("[{name: A}, {name: B}]", FFA, "more than two players (600.1)"),
    ("[{name: A, team: x}, {name: B, team: x}, {name: C, team: y}]",
     "{variant: two-headed-giant}", "two teams of two players each (606.1"),
    (TWO_HEADED.replace("team: ab}, {name: C", "team: cd}, {name: C").replace(
        "{name: B, team: cd}, {name: C, team: cd}", "{name: B, team: cd}, {name: C, team: ab}"),
     "{variant: two-headed-giant}", "sits together (606.3)"),
    (THREE.replace("{name: B}", "{name: B, team: q}"), FFA, "compete as individuals"),
    ("[{name: A, team: x}, {name: B, team: x}, {name: C, team: y}, {name: D, team: y}]",
     "{variant: teams}", "no one sits next to a teammate (609.3)"),
    (THREE, "{variant: free-for-all, range-of-influence: {Z: 1}}", "'Z' is not one of"),
    (TWO_HEADED.replace("{name: C, team: cd}", "{name: C, team: cd, life: 10}"),
     "{variant: two-headed-giant}", "life total is shared"),
])
def test_validation_refuses_a_table_no_text_allows(players, mp, said):
    text = board(players, mp, ONE_ATTACKER, "{ogre: B}")
    with pytest.raises(ScenarioError) as bad:
        scenario(text)
    assert said in str(bad.value)


def test_teams_need_a_variant():
    text = board("[{name: A, team: x}, {name: B, team: y}, {name: C, team: y}]", "null",
                 ONE_ATTACKER, "{ogre: B}")
    with pytest.raises(ScenarioError, match="name the variant"):
        scenario(text)


def test_a_two_player_file_is_no_multiplayer_game():
    s = scenario(board("[{name: A}, {name: B}]", "null", ONE_ATTACKER, "{ogre: B}"))
    assert not Table.of(s).multiplayer
    out = versions.run("m10", s)
    assert not any(e["type"] == "declares-blockers" for e in out["events"])


# -- what a review found ----------------------------------------------------------------------


def test_a_player_who_has_left_acts_no_more_and_nothing_touches_them():
    # 102.5 / 600.4a of 2009-05-01 (104.5 / 800.4a after): B, killed by first-strike
    # damage, casts nothing: the ogre lives and deals C 3; B's heal and A's shock aimed at
    # B are not taken.
    text = board("[{name: A}, {name: B, life: 3}, {name: C}]", FFA,
                 """  - {id: striker, controller: A, power: 3, toughness: 3,
     keywords: [first-strike]}
  - {id: ogre, controller: A, power: 3, toughness: 3}""", "{striker: B, ogre: C}",
                 extra="""actions:
  - {at: first-strike-damage, by: B, effect: damage, target: ogre, amount: 3, card: Shock}
  - {at: first-strike-damage, by: B, effect: gain-life, target: B, amount: 5, card: Heal}
  - {at: first-strike-damage, by: A, effect: damage, target: B, amount: 2, card: Shock}
""")
    for era in CR_ERAS:
        out = run(text, era)
        assert (life(out, "B"), life(out, "C")) == (0, 17), era
        assert perm(out, "ogre")["zone"] == "battlefield"
        said = [n["text"] for n in out["notes"] if n["type"] == "action-not-taken"]
        assert len(said) == 3 and all("left the game" in t for t in said), said


def test_poison_counters_from_an_effect_are_the_teams_where_the_text_shares_them():
    players = TWO_HEADED.replace("{name: C, team: cd}", "{name: C, team: cd, poison: 12}") \
        .replace("{name: D, team: cd}", "{name: D, team: cd, poison: 12}")
    text = board(players, "{variant: two-headed-giant}",
                 "  - {id: bear, controller: A, power: 2, toughness: 2}", "{bear: C}",
                 extra="""actions:
  - {at: declare-blockers, by: A, effect: counters, target: C, kind: poison, amount: 2}
  - {at: declare-blockers, by: B, effect: counters, target: D, kind: poison, amount: 2}
""")
    out = run(text, "foundations")  # 810.10: each gets them, the team shares them: 16
    assert [out["players"][p]["poison"] for p in "CD"] == [16, 16]
    assert {e["rule"] for e in out["events"] if e["type"] == "loses"} == {"810.8d"}
    assert [n["rule"] for n in out["notes"] if n["type"] == "game-over"] == ["810.8d"]
    # sixth and m10: each player's own counters, ten to lose (606.5; 806.5): at 12 each,
    # C and D have lost before any counter is added (and so nothing more reaches them).
    for era in ("sixth", "m10"):
        out = run(text, era)
        assert [out["players"][p]["poison"] for p in "CD"] == [12, 12]
        assert out["players"]["C"]["lost"] and out["players"]["D"]["lost"]
    # m11: poison without infect could be of the era's first months (each player's own)
    # or of the rest (the team's): refused rather than guessed.
    with pytest.raises(NotInEra, match="changed within this era"):
        run(text, "m11")
    uneven = text.replace("{name: D, team: cd, poison: 12}", "{name: D, team: cd, poison: 3}")
    with pytest.raises(NotInEra, match="shared"):
        run(uneven, "foundations")
    out = run(uneven, "m10")  # C's own 12 lose the game, and D loses with the team
    assert out["players"]["D"]["poison"] == 3 and out["players"]["D"]["lost"]


def test_the_rulings_refuse_damage_to_a_player_killed_in_combat():
    # B's tenth poison counter kills B at once (E.11.2), the ogre still attacking B: no
    # ruling says what becomes of its damage (M.1.1): refused, not dropped.
    text = board("[{name: A}, {name: B, poison: 9}, {name: C}]", FFA,
                 "  - {id: ogre, controller: A, power: 3, toughness: 3}", "{ogre: B}",
                 extra="""actions:
  - {at: declare-blockers, by: A, effect: counters, target: B, kind: poison, amount: 1}
""")
    for era in ("fourth", "fifth"):
        with pytest.raises(NotInEra, match="M.1.Ruling.1"):
            run(text, era)
    out = run(text, "m10")
    assert [n["rule"] for n in out["notes"] if n["type"] == "departed-damage"] == ["800.4d"]


def test_a_creature_blocking_attackers_of_two_players_is_refused_by_602_4a():
    permanents = """  - {id: x, controller: A, power: 2, toughness: 2}
  - {id: y, controller: A, power: 2, toughness: 2}
  - {id: guard, controller: B, power: 1, toughness: 4, keywords: [can-block-additional]}"""
    for blocks in ("{guard: [x, y]}", "{guard: [y, x]}"):
        text = board(THREE, FFA, permanents, "{x: B, y: C}", blocks)
        for era, rule in zip(CR_ERAS, ("602.4a", "802.4a", "802.4a", "802.4a"), strict=True):
            with pytest.raises(IllegalBlocks) as refused:
                run(text, era)
            (problem,) = refused.value.problems
            assert problem.rule == rule
            assert "y attacks C (defending player C)" in problem.message


def test_the_rulings_refuse_any_written_option():
    text = board(THREE, "{variant: free-for-all, attack: multiple}", ONE_ATTACKER, "{ogre: B}")
    for era in ("fourth", "fifth"):
        with pytest.raises(NotInEra, match="attack multiple players option"):
            run(text, era)


@pytest.mark.parametrize("players, mp, said", [
    (THREE, "{variant: free-for-all, range-of-influence: {A: 1, B: 2, C: 1}}",
     "the same range of influence (605.2a)"),
    (THREE, "{variant: grand-melee, range-of-influence: 2}", "range of influence of 1"),
    ("[{name: A1, team: a}, {name: B1, team: b}, {name: A2, team: a}, {name: C1, team: c}, "
     "{name: B2, team: b}, {name: C2, team: c}]", "{variant: teams}", "equally spaced"),
])
def test_validation_holds_the_variants_seating_and_ranges(players, mp, said):
    name = players.split("name: ")[1].split(",")[0].rstrip("}")
    text = board(players, mp, ONE_ATTACKER.replace("controller: A", f"controller: {name}"),
                 "{ogre: B}" if "B}" in players else "{ogre: B1}", active=name)
    with pytest.raises(ScenarioError) as bad:
        scenario(text)
    assert said in str(bad.value)


def test_the_block_survey_is_each_defending_players_own():
    from versions import find_era
    from versions.mtg import play
    from versions.mtg.engine.blocks import can_block

    text = board(THREE, FFA, LURE, "{boar: B, bear: C}", "{wall: boar, elf: boar}")
    found = play.block_survey(find_era("m10")(), scenario(text))
    parts = {p["player"]: p for p in found["by_player"]}
    assert list(parts) == ["B", "C"]
    # B: wall and elf each block the lure or not (4); only both obey both requirements.
    assert (parts["B"]["count"], parts["B"]["maximal"]) == (4, 1)
    # C: the knight blocks the bear or not, and no lure binds it (602.4b).
    assert (parts["C"]["count"], parts["C"]["maximal"]) == (2, 2)
    combat_board = play.combat(find_era("m10")(), scenario(text)).board
    assert can_block(combat_board, "knight", "boar")[0] == "mp-block-own"


def test_a_two_headed_giant_attacker_may_name_the_team():
    # The file names no player: the damage goes to the team's first player in turn order,
    # chosen by the active team at combat damage (606.7d) or named at the declaration
    # (805.10b); the shared life takes it either way.
    permanents = "  - {id: giant, controller: A, power: 5, toughness: 5}"
    text = board(TWO_HEADED, "{variant: two-headed-giant}", permanents, "{giant: cd}")
    for era in CR_ERAS:
        out = run(text, era)
        assert [life(out, p) for p in "CD"] == [25, 25]
        (chosen,) = [e for e in out["events"] if e["type"] == "team-damage-to"]
        assert chosen["target"] == "C"
    with pytest.raises(IllegalAttacks):
        run(text.replace("{giant: cd}", "{giant: ab}"), "m10")


def test_a_grand_melee_of_twenty_attacks_left():
    # 608.1: Grand Melee is for games of ten or more; it attacks left (608.2b; 803.1a).
    players = "[" + ", ".join(f"{{name: P{i}}}" for i in range(20)) + "]"
    permanents = """  - {id: ogre, controller: P0, power: 3, toughness: 3}
  - {id: wall, controller: P1, power: 0, toughness: 4}"""
    text = board(players, "{variant: grand-melee}", permanents, "{ogre: P1}", "{wall: ogre}",
                 active="P0")
    out = run(text, "m10")
    assert len(out["players"]) == 20 and perm(out, "wall")["damage"] == 3
    with pytest.raises(IllegalAttacks) as refused:
        run(board(players, "{variant: grand-melee}", permanents, "{ogre: P19}",
                  active="P0"), "m10")
    assert refused.value.problems[0].rule == "803.1a"
