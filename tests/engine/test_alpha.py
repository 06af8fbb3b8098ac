"""The 1993 rulebook (versions/mtg/eras/alpha.py): prevention before damage, no window once
damage dealing begins, trample's excess applied to the defender as the damage is dealt —
worked by hand from the rulebook's pages (p.24-p.29, p.38) and the General Rulings of
1994-04-14, which date what changed to January 1994."""

import re
from pathlib import Path

import pytest
from helpers import dealt, life, notes, perm, run
from typer.testing import CliRunner

from comparator.cli.main import app
from versions import NotInEra, era_on, find_era
from versions.mtg.eras.alpha import PAGES

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parents[2] / "data" / "scenarios"


def shipped(name: str) -> str:
    return (SHIPPED / f"{name}.yaml").read_text(encoding="utf-8")


def test_every_citation_is_a_page_the_era_describes():
    alpha = find_era("alpha")
    # No number of the 1999 summary is inherited from fourth: every key is restated.
    assert set(alpha.RULES) == set(alpha.STATED)
    for key, cited in alpha.RULES.items():
        assert re.fullmatch(r"p\.\d+", cited), (key, cited)
        assert cited in PAGES, (key, cited)


def test_the_era_is_found_by_date_and_comes_first():
    assert era_on("1993-09-01", "mtg").id == "alpha"
    assert era_on("1993-12-31", "mtg").id == "alpha"
    assert era_on("1994-01-01", "mtg").id == "fourth"
    assert find_era("beta").id == find_era("1993").id == "alpha"
    out = runner.invoke(app, ["eras", "alpha"]).output
    assert "1993-08-05 to 1993-12-31" in out and "Samite" not in out
    assert "General Rulings, last update 1994-04-14" in " ".join(out.split())


def test_the_samite_healer_blocks_and_prevents_as_the_rulebook_says():
    # p.38: the Healer blocks and taps to prevent the Merfolk's damage to it; a blocker
    # tapped after blocking deals no damage (p.26): "neither creature would take damage".
    o = run(shipped("alpha-samite-healer-blocks-and-prevents"), "alpha")
    assert perm(o, "merfolk")["zone"] == perm(o, "healer")["zone"] == "battlefield"
    assert perm(o, "healer")["damage"] == perm(o, "merfolk")["damage"] == 0
    shield = next(e for e in o["events"] if e["type"] == "prevention-shield")
    assert shield["step"] == "declare-blockers" and shield["rule"] == "p.38"
    [tapped] = notes(o, "tapped-blocker")
    assert tapped["rule"] == "p.26"
    # From January 1994 the Healer's damage is dealt before it can prevent: the Merfolk dies.
    assert perm(run(shipped("alpha-samite-healer-blocks-and-prevents"), "fourth"),
                "merfolk")["zone"] == "graveyard"


TRAMPLER = """
id: t-alpha
title: A trampler blocked by a bear
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: tramp, controller: A, power: 5, toughness: 5, keywords: [trample], colors: [green]}
  - {id: bear, controller: B, power: 2, toughness: 2, colors: [white]}
combat:
  attacks: {tramp: B}
  blocks: {bear: tramp}
%s
"""


def test_trample_excess_is_applied_to_the_defender_with_the_rest():
    # p.28: the 3 beyond the bear's lethal 2 are "applied to the defender instead", in the
    # same damage dealing (p.26: all simultaneous), not in a prevention step of their own.
    o = run(TRAMPLER % "", "alpha")
    assert dealt(o, "tramp", "bear") == [2] and dealt(o, "tramp", "B") == [3]
    assert life(o, "B") == 17 and perm(o, "bear")["zone"] == "graveyard"
    steps = {e["step"] for e in o["events"] if e["type"] in ("damage", "trample-redirect")}
    assert steps == {"combat-damage"}
    assert not [e for e in o["events"] if e["type"] == "damage-prevention-step"]


def test_a_shield_before_damage_leaves_no_excess():
    # Prevention is played first (p.38): the bear is dealt nothing, so it has no damage to
    # exceed and nothing reaches B.
    o = run(TRAMPLER % """actions:
  - {at: declare-blockers, by: B, effect: prevent, target: bear, amount: 5}""", "alpha")
    assert life(o, "B") == 20 and perm(o, "bear")["zone"] == "battlefield"


def test_prevention_beside_protection_is_refused_unless_its_color_is_known():
    # p.28: a protected creature's damage "cannot be prevented using" cards of its color.
    guarded = TRAMPLER.replace("keywords: [trample], colors: [green]",
                               "keywords: [trample, {protection: white}], colors: [green]"
                               ).replace("colors: [white]", "colors: [blue]")
    with pytest.raises(NotInEra, match=r"p\.28"):
        run(guarded % """actions:
  - {at: declare-blockers, by: B, effect: prevent, target: bear, amount: 5}""", "alpha")
    # The same prevention by a permanent's ability, whose color is known: a white one may not
    # prevent the protected trampler's damage (refused, as the era can't say what then); a
    # blue one may.
    healer = """  - {id: healer, controller: B, power: 1, toughness: 1, colors: [%s],
     abilities: [{activated: tap, effect: prevent, amount: 1}]}
"""
    for color, runs in (("white", False), ("blue", True)):
        text = guarded.replace("combat:", healer % color + "combat:") % """actions:
  - {at: declare-blockers, by: B, effect: activate, source: healer, target: bear}"""
        if runs:
            # 1 of the 5 prevented: 2 lethal to the bear, the other 2 applied to B.
            o = run(text, "alpha")
            assert perm(o, "bear")["zone"] == "graveyard" and life(o, "B") == 18
        else:
            with pytest.raises(NotInEra, match="protection from white"):
                run(text, "alpha")
    # Prevention that can't meet the protected creature's damage runs.
    other = guarded.replace("combat:", "  - {id: ox, controller: B, power: 1, toughness: 1}\n"
                            "combat:") % """actions:
  - {at: declare-blockers, by: B, effect: prevent, target: ox, amount: 1}"""
    assert life(run(other, "alpha"), "B") == 17


FIRST_STRIKE = """
id: t-alpha-fs
title: A first striker and a dies trigger
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: knight, controller: A, power: 2, toughness: 2, keywords: [first-strike]}
  - {id: bear, controller: B, power: 2, toughness: 2%s}
combat:
  attacks: {knight: B}
  blocks: {bear: knight}
"""


def test_first_strike_kills_before_the_other_damage_with_nothing_between():
    # p.29: "afterwards, surviving creatures without first strike deal their damage".
    o = run(FIRST_STRIKE % "", "alpha")
    assert perm(o, "bear")["zone"] == "graveyard" and perm(o, "knight")["damage"] == 0


def test_what_first_strike_damage_triggers_is_refused():
    # The rulebook has no word on when a death's effects come; the January 1994 ruling put
    # them before the other damage as a change: refused, not guessed.
    dies = (", abilities: [{trigger: dies, effect: gain-life, target: controller, "
            "amount: 1}]")
    with pytest.raises(NotInEra, match=r"between first-strike and other combat damage.*p\.29"):
        run(FIRST_STRIKE % dies, "alpha")
    assert life(run(FIRST_STRIKE % dies, "fourth"), "B") == 21


@pytest.mark.parametrize("keyword, year", [
    ("{rampage: 1}", "1994 (Legends"), ("flanking", "1996 (Mirage"), ("shadow", "1997")])
def test_keywords_after_1993_are_refused_naming_their_year(keyword, year):
    text = FIRST_STRIKE.replace("keywords: [first-strike]", f"keywords: [{keyword}]") % ""
    with pytest.raises(NotInEra, match=re.escape(year)):
        run(text, "alpha")


def test_regeneration_is_used_at_the_moment_of_destruction():
    # p.27: "at the moment the creature would normally be removed from play": written for
    # after damage (a window these rules lack), it waits as a shield for that moment.
    o = run(shipped("regenerate-blocker-after-damage-known"), "alpha")
    assert perm(o, "giant") == {**perm(o, "giant"), "zone": "battlefield", "damage": 0,
                                "tapped": True}
    assert perm(o, "wurm")["damage"] == 3
    # Anything else written for after damage has nowhere to go (p.24).
    o = run(TRAMPLER % """actions:
  - {at: combat-damage, by: B, effect: pump, target: bear, power: 9, toughness: 9,
     if-missing: later}""", "alpha")
    [missing] = notes(o, "missing-window")
    assert "nor a later one" in missing["text"] and missing["rule"] == "p.24"


def test_an_attacker_regenerated_from_first_strike_damage_is_refused():
    # p.27 keeps it in play, tapped; whether it still deals its damage, no text says.
    text = FIRST_STRIKE.replace("keywords: [first-strike]}", "}").replace(
        "{id: bear, controller: B, power: 2, toughness: 2%s}",
        "{id: bear, controller: B, power: 2, toughness: 2, keywords: [first-strike]}")
    text = text.replace("{id: knight, controller: A, power: 2, toughness: 2",
                        "{id: knight, controller: A, power: 2, toughness: 2")
    text += """actions:
  - {at: declare-blockers, by: A, effect: regenerate, target: knight}
"""
    with pytest.raises(NotInEra, match="regenerates from first-strike damage while attacking"):
        run(text, "alpha")
    assert perm(run(text, "fourth"), "knight")["zone"] == "graveyard"  # G.12.1: not allowed


def test_poison_counters_are_refused_naming_legends():
    with pytest.raises(NotInEra, match=r"poison counters.*1994 \(Legends"):
        run(shipped("poison-counters-before-damage"), "alpha")
