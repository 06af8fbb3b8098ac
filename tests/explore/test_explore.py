"""Explore: the contract's JSON and exit codes, exactness of the fast search against brute
force, and worked explorations."""

import json
import re

import pytest
from eras import ERAS
from helpers import TRADE, explored_both_ways, scenario
from helpers import run as run_outcome
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.compare.running import expected_refusals
from comparator.explore.eras import TooLarge, explore
from comparator.explore.report import varying_fields
from comparator.files.locations import shipped_scenarios
from comparator.scenarios.loader import load
from versions import find_era

runner = CliRunner()
SPLIT = "giant-growth-vs-assignment-order"


def test_json_follows_the_contract(tmp_path):
    result = runner.invoke(app, ["explore", SPLIT, "--json", "--no-store"])
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert set(doc) == {"schema", "scenario", "objective", "fields", "blocks", "eras",
                        "only_in", "diverges"}
    assert (doc["objective"], doc["fields"], doc["blocks"]) == ("material", "end-of-turn",
                                                               "fixed")
    assert list(doc["eras"]) == list(ERAS)
    for res in doc["eras"].values():
        assert set(res) - {"notes"} == {"lines", "outcomes", "value"}
        for note in res.get("notes", []):  # an action unavailable or moved in this era
            assert {"type", "action", "window", "rule", "text"} <= set(note)
        assert sum(o["lines"] for o in res["outcomes"]) == res["lines"]
        scores = [o["score"] for o in res["outcomes"]]
        assert scores == sorted(scores, reverse=True)
        for o in res["outcomes"]:
            assert set(o) == {"state", "score", "lines", "example"}
            assert set(o["state"]) == {"players", "permanents"}
            for d in o["example"]:
                assert {"step", "player", "kind"} <= set(d)
        assert set(res["value"]) == {"score", "state", "line"}


def test_the_split_and_the_pump_worked_by_hand():
    # wurm 5/5 blocked by Grizzly Bears (2/2) and a 1/1 flier; B's Giant Growth (+3/+3) is
    # written for damage on the stack, `if-missing: earlier`. Sixth: A divides 5 among the
    # two (6 ways), then B may pump the Bears after seeing the split: 12 lines. The damage
    # on the stack is fixed, so the pump saves the Bears but doesn't add to their damage;
    # whatever A splits, B keeps one creature alive and the wurm lives: value 1 creature.
    # Every other era has no such window: the pump is available at declare blockers
    # instead (as `run` moves it), once combat damage begins (no first strike). m10/m11:
    # no pump: 2 orders; bear first: 4 legal divisions (5/0, 4/1, 3/2, 2/3); hawk first: 5
    # (0/5 ... 4/1): 9 lines. Pumped (5/5): bear first: only 5/0; hawk first: 5 (1/4 ...
    # 5/0 to the hawk): 6 lines; 15 in all. foundations and fifth (C.8.5): 6 free
    # divisions each way: 12. With the pump the Bears deal 5 and the wurm dies, and A
    # kills one at most: value 0 (B pumps); without it A would kill both. alpha: as fifth
    # (the pump is a fast effect after blocks, p.25; the division free, p.26).
    doc = explore(load(shipped(SPLIT)), list(ERAS))
    lines = {e: r["lines"] for e, r in doc["eras"].items()}
    assert lines == {"alpha": 12, "fourth": 12, "fifth": 12, "sixth": 12, "m10": 15, "m11": 15,
                     "foundations": 12}
    values = {e: r["value"]["score"] for e, r in doc["eras"].items()}
    assert values == {"alpha": [0, 0, 0], "fourth": [0, 0, 0], "fifth": [0, 0, 0],
                      "sixth": [0, 1, 0], "m10": [0, 0, 0], "m11": [0, 0, 0],
                      "foundations": [0, 0, 0]}
    sixth = doc["eras"]["sixth"]["value"]["line"]
    assert [d["kind"] for d in sixth] == ["divide", "pass"]  # 5 on the Bears; no need to pump
    m10 = doc["eras"]["m10"]["value"]["line"]
    assert ("act", "declare-blockers") in [(d["kind"], d["step"]) for d in m10]
    # Each era without the window says where the trick went; sixth has nothing to say.
    assert "notes" not in doc["eras"]["sixth"]
    for era in ("alpha", "fourth", "fifth", "m10", "m11", "foundations"):
        (note,) = doc["eras"][era]["notes"]
        assert (note["type"], note["action"], note["window"], note["moved-to"]) == (
            "action-moved", 0, "damage-on-stack", "declare-blockers"), era
        key = {"alpha": "no-instants", "fourth": "first-strike-step",
               "fifth": "first-strike-step"}.get(era, "damage-resolves")
        assert note["rule"] == find_era(era).rule(key)
    assert doc["diverges"]


def test_explore_best_play_matches_the_moved_trick_of_run():
    # The newcomer's case: a Giant Growth written for first-strike damage on the stack,
    # `if-missing: earlier`, with no first striker. `diff` moves it to declare blockers in
    # every era; explore offers it there too, so best play uses it (the pumped Bears kill
    # the attacker and survive) instead of silently dropping it.
    text = """
id: newcomer-giant-growth
title: a pump written for a window most eras lack
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: bear, controller: B, power: 2, toughness: 2}
combat:
  attacks: {ogre: B}
  blocks: {bear: ogre}
actions:
  - {at: first-strike-damage-on-stack, by: B, effect: pump, target: bear, power: 3,
     toughness: 3, if-missing: earlier, card: Giant Growth}
"""
    doc = explore(scenario(text), list(ERAS))
    for era, res in doc["eras"].items():
        ran = run_outcome(text, era)
        assert res["value"]["state"]["permanents"] == {
            k: {f: v[f] for f in ("zone", "controller") if f in v}
            | ({"counters": v["counters"]} if v.get("counters") else {})
            for k, v in ran["permanents"].items()}, era
        assert res["value"]["state"]["permanents"]["ogre"]["zone"] == "graveyard", era
        assert [n["moved-to"] for n in res["notes"]] == ["declare-blockers"], era


def shipped(name):
    return next(p for p in shipped_scenarios() if p.stem == name)


# Magic's search merges states and classes of divisions, so it is checked against brute
# force; Duel Masters' explorer replays every line (tests/explore/test_duel_masters_explore.py).
MAGIC_SHIPPED = [p for p in shipped_scenarios() if "game: duel-masters" not in p.read_text()]


@pytest.mark.parametrize("path", MAGIC_SHIPPED, ids=lambda p: p.stem)
def test_fast_search_agrees_with_brute_force(path):
    s = load(path)
    for era in ERAS:
        if find_era(era)().refusal(s) or era in expected_refusals(s):
            continue  # the era's rules lacked what the scenario uses, or it refuses it
        for options, most in (({}, 2000), ({"blocks": "all", "fields": "all"}, 600),
                              ({"objective": "life"}, 600)):
            try:  # past `most` lines brute force would take too long: smaller cases cover it
                found, brute = explored_both_ways(s, era, limit=most, **options)
            except TooLarge:
                continue
            assert brute == found, (era, options)


def test_limit_refuses_with_a_clear_message():
    result = runner.invoke(app, ["explore", SPLIT, "--limit", "5", "--no-store"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "line" in said and ("the limit is 5" in said or "more than 5 lines" in said)
    assert "raise --limit" in said


THREE = """
id: three
title: Three players
players: [{name: A}, {name: B}, {name: C}]
active: A
permanents:
  - {id: bear, controller: A, card: Grizzly Bears}
combat:
  attacks: {bear: B}
"""


def test_more_than_two_players_is_refused_unless_the_file_names_its_variant(tmp_path):
    # Contract §6.2: "Explore supports two-player scenarios; more players is exit 2 with a
    # message". A file naming its multiplayer variant (contract §1.7) says how its
    # players' choices go, and is explored (docs/multiplayer.md).
    f = tmp_path / "three.yaml"
    f.write_text(THREE)
    result = runner.invoke(app, ["explore", str(f), "--no-store"])
    assert result.exit_code == 2 and "two-player" in result.output
    assert "multiplayer: {variant: free-for-all}" in " ".join(result.output.split())
    f.write_text(THREE.replace("active: A\n",
                               "active: A\nmultiplayer: {variant: free-for-all}\n"))
    result = runner.invoke(app, ["explore", str(f), "--no-store", "--json"])
    assert result.exit_code == 0, result.output  # every era that runs it agrees
    found = json.loads(result.stdout)["eras"]
    assert set(found) == {"fourth", "fifth", "sixth", "m10", "m11", "foundations"}
    for era in found.values():  # B's 2 life lost is the active side's gain
        assert era["value"]["score"] == [0, 0, 2] and era["lines"] == 1


def test_bad_options_exit_2():
    for args in (["--objective", "fun"], ["--blocks", "some"], ["--fields", "few"]):
        result = runner.invoke(app, ["explore", SPLIT, "--no-store", *args])
        assert result.exit_code == 2 and args[0] in result.output


def test_exit_0_when_every_era_agrees(tmp_path):
    f = tmp_path / "trade.yaml"
    f.write_text(TRADE)
    result = runner.invoke(app, ["explore", str(f), "--no-store", "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.output)
    assert not doc["diverges"]
    assert all(r["lines"] == 1 and r["value"]["line"] == [] for r in doc["eras"].values())


def test_stored_and_shown(tmp_path):
    db = str(tmp_path / "x.db")
    assert runner.invoke(app, ["explore", SPLIT, "--db", db]).exit_code == 1
    shown = json.loads(runner.invoke(app, ["show", SPLIT, "--json", "--db", db]).output)
    explored = shown["versions"][0]["explorations"]
    assert [x["era"] for x in explored] == list(ERAS)
    sixth = explored[list(ERAS).index("sixth")]
    assert sixth["lines"] == 12 and sixth["value"]["score"] == [0, 1, 0]
    # Idempotent: exploring again stores nothing new.
    runner.invoke(app, ["explore", SPLIT, "--db", db])
    again = json.loads(runner.invoke(app, ["show", SPLIT, "--json", "--db", db]).output)
    assert len(again["versions"][0]["explorations"]) == len(ERAS)


def test_the_outcome_table_names_what_varies():
    # The Angel dies in one outcome only, B's life differs in all three, A's is 20 in each,
    # and the Hawk's counters are there in one only: life, the Angel and the Hawk vary.
    flats = [{"A.life": 20, "B.life": 14, "angel.zone": "battlefield"},
             {"A.life": 20, "B.life": 17, "angel.zone": "graveyard"},
             {"A.life": 20, "B.life": 20, "angel.zone": "battlefield", "hawk.counters": 1}]
    assert varying_fields(flats) == ["B.life", "angel.zone", "hawk.counters"]
    assert varying_fields(flats[:1]) == [] and varying_fields([]) == []


def test_blocks_all_lets_the_defender_choose(tmp_path):
    s = scenario("""
id: t-choose-blocks
title: A 3/3 attacks; the defender has a 2/2
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: giant, controller: A, card: Hill Giant}
  - {id: bear, controller: B, card: Grizzly Bears}
combat:
  attacks: {giant: B}
""")
    doc = explore(s, ["m11"], blocks="all", objective="material")
    res = doc["eras"]["m11"]
    # Two declarations: no block (B loses 3 life: score (0, 0, 3)) or chump with the bear
    # (B loses the bear: (0, 1, 0)); B minimises: not blocking is better for B.
    assert res["lines"] == 2
    assert res["value"]["score"] == [0, 0, 3]
    assert res["value"]["line"][0]["kind"] == "blocks" and res["value"]["line"][0]["choice"] == {}
    kills = explore(s, ["m11"], blocks="all", objective="kills")["eras"]["m11"]
    assert kills["value"]["score"] == [0, 0]


def test_an_explored_tap_cites_the_tap_rule():
    # Master of Arms taps a blocker at declare blockers: a line of play that takes it says
    # what the action does (the era's tap rule: G.40.1 in fifth, 501.7a in sixth, 701.21a
    # after Foundations), not the priority rule it was taken under.
    # In fifth the tap changes the outcome (C.8.2), so a line that takes it is an example.
    path = shipped("fifth-master-of-arms-taps-a-blocker")
    doc = explore(load(path), ["fifth", "sixth", "foundations"], fields="all")
    acts = {era: [d for o in found["outcomes"] for d in o["example"] if d["kind"] == "act"]
            for era, found in doc["eras"].items()}
    assert acts["fifth"]
    for era, taken in acts.items():
        assert {d["rule"] for d in taken} <= {find_era(era).rule("tap")}, era
    assert {d["rule"] for d in acts["fifth"]} == {"G.40.1"}


def test_every_action_effect_has_the_rule_explore_cites_it_by():
    from comparator.games.mtg.explore import EFFECT_RULES
    from versions.mtg.scenario import EFFECT_FIELDS

    assert set(EFFECT_RULES) == set(EFFECT_FIELDS)


def test_explore_cites_each_effect_by_the_rule_its_handler_cites():
    # The engine's handler of each effect (versions/mtg/engine/effects.py) cites a rule
    # key; explore's table must name one of those, so the two cannot drift apart.
    import ast
    from pathlib import Path

    from comparator.games.mtg.explore import EFFECT_RULES
    from versions.mtg.engine import effects

    tree = ast.parse(Path(effects.__file__).read_text())
    cited = {}
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        cited[fn.name] = {c.args[0].value for c in ast.walk(fn) if isinstance(c, ast.Call)
                          and getattr(c.func, "attr", None) == "rule" and c.args
                          and isinstance(c.args[0], ast.Constant)}
    for effect, handler in effects.HANDLERS.items():
        assert EFFECT_RULES[effect] in cited[handler.__name__], effect


def test_a_board_far_beyond_the_limit_is_refused_at_once(tmp_path):
    # Ten blockers of a 30-power trampler, three tricks with ten targets each, in three
    # windows: the whole tree is about 10^11 lines. The search is sized before it begins
    # (one line played, each decision's options multiplied) and refused in a moment, with
    # the size and the flag to raise; never a search that grows until the machine stops it.
    import time

    blockers = [f"b{i}" for i in range(1, 11)]
    text = "\n".join([
        "id: far-beyond", "title: far beyond the limit",
        "players: [{name: A}, {name: B}]", "active: A", "permanents:",
        "  - {id: wurm, controller: A, power: 30, toughness: 30, keywords: [trample]}",
        *[f"  - {{id: {b}, controller: B, power: 1, toughness: 1}}" for b in blockers],
        "combat:", "  attacks: {wurm: B}",
        "  blocks: {" + ", ".join(f"{b}: wurm" for b in blockers) + "}",
        "actions:",
        *[f"  - {{at: [declare-blockers, damage-on-stack, combat-damage], by: {by}, effect: "
          f"{what}, target: [{', '.join(blockers)}]}}"
          for by, what in (("B", "pump, power: 3, toughness: 3"),
                           ("A", "damage, amount: 2"))], ""])
    path = tmp_path / "far.yaml"
    path.write_text(text)
    started = time.monotonic()
    result = runner.invoke(app, ["explore", str(path), "--no-store"])
    assert time.monotonic() - started < 20  # seconds, for five eras on a busy machine
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "raise --limit" in said and "the limit is 1000000" in said


@pytest.mark.parametrize("name", [
    "banding-goblins-against-a-trampling-mammoth",  # fourth diverges; most eras run it
    "attacks-a-player-unblocked-not-a-planeswalker",  # fourth and fifth refuse it
    "dm-second-attack-on-the-tapped-blocker",  # the other game
])
def test_eras_searched_in_parallel_give_the_same_json(name):
    docs = []
    for jobs in ("1", "2"):
        r = runner.invoke(app, ["explore", name, "--no-store", "--json", "--blocks", "all",
                                "--jobs", jobs])
        assert r.exit_code in (0, 1), r.output
        docs.append(r.stdout)
    assert docs[0] == docs[1] and json.loads(docs[0])["eras"]


def test_a_search_too_large_in_a_worker_is_the_same_one_line_error():
    # One era after another, the first in order is refused; in workers, whichever is
    # refused first ends the others' searches and is named: the same line but its era.
    said = []
    for jobs in ("1", "2"):
        result = runner.invoke(app, ["explore", SPLIT, "--limit", "5", "--no-store",
                                     "--jobs", jobs])
        assert result.exit_code == 2
        said.append(result.output)
    assert said[0].endswith(": alpha: more than 5 lines of play (reached 6); raise --limit "
                            "to explore it\n"), said[0]
    # Where an era's search stopped, and so the count it reached, depends on the era.
    assert re.fullmatch(r"rulesdiff: \S+: [a-z0-9]+: more than 5 lines of play \((reached|at "
                        r"least) \d+[^)]*\); raise --limit to explore it\n", said[1]), said[1]


TRAMPLER_THREE = """\
id: trampler-three
title: A 6-power trampler blocked by three creatures, a pump for the blockers
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, power: 6, toughness: 6, keywords: [trample]}
  - {id: b1, controller: B, power: 1, toughness: 1}
  - {id: b2, controller: B, power: 1, toughness: 2}
  - {id: b3, controller: B, power: 2, toughness: 2}
combat:
  attacks: {wurm: B}
  blocks: {b1: wurm, b2: wurm, b3: wurm}
actions:
  - {at: declare-blockers, by: B, effect: pump, target: [b2, b3], power: 3, toughness: 3}
"""


def test_the_lines_of_outcomes_one_era_alone_reaches_are_cut_unless_all(tmp_path):
    # Before Urza's Saga a trampler's excess over lethal damage to a blocker went on to the
    # player, so each split is its own outcome in `fourth`: dozens no other era reaches,
    # each printed with its line of play. The human output shows the best five and counts
    # the rest; --all shows every one. (The 1993 rules redirected the same way: `alpha`
    # reaches them too, so it is left out.)
    from comparator.explore.report import ONLY_IN_SHOWN

    eras = [a for e in ERAS if e != "alpha" for a in ("--era", e)]

    path = tmp_path / "trampler.yaml"
    path.write_text(TRAMPLER_THREE)
    doc = json.loads(runner.invoke(
        app, ["explore", str(path), *eras, "--no-store", "--json"]).output)
    only = len(doc["only_in"]["fourth"])
    assert only > ONLY_IN_SHOWN
    assert not any(doc["only_in"][e] for e in doc["only_in"] if e != "fourth")
    cut = runner.invoke(app, ["explore", str(path), *eras, "--no-store"])
    assert cut.exit_code == 1
    assert cut.output.count("only in fourth:") == ONLY_IN_SHOWN
    said = " ".join(cut.output.split())
    assert (f"({only - ONLY_IN_SHOWN} more outcome(s) only fourth reaches; --all shows them)"
            in said)
    # The shown ones are the best-scored: the first of fourth's outcomes in score order.
    first = doc["eras"]["fourth"]["outcomes"][doc["only_in"]["fourth"][0]]
    division = next(d for d in first["example"] if d["kind"] == "divide")
    amounts = ", ".join(f"{n} to {k}" for k, n in division["choice"].items())
    assert amounts in said.split("only in fourth:")[1]
    whole = runner.invoke(app, ["explore", str(path), *eras, "--no-store", "--all"])
    assert whole.output.count("only in fourth:") == only
    assert "more outcome(s) only" not in whole.output
