"""`rulesdiff cards import` of MTGJSON-shaped files made here (nothing is downloaded), and
a user's card library used by name with --cards / RULESDIFF_CARDS."""

import json

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
    else CliRunner()

WURM = {"name": "Test Wurm", "manaValue": 5.0, "colors": ["G"], "types": ["Creature"],
        "type": "Creature — Wurm", "power": "5", "toughness": "5",
        "keywords": ["Trample", "Rampage"],
        "text": "Trample\nRampage 2 (Whenever this creature becomes blocked, it gets +2/+2 "
                "until end of turn for each creature blocking it beyond the first.)"}
KNIGHT = {"name": "Test Knight", "manaValue": 3.0, "colors": ["W"],
          "types": ["Artifact", "Creature"], "type": "Artifact Creature — Knight",
          "power": "2", "toughness": "2",
          "text": "First strike, protection from black\nWhen Test Knight enters the "
                  "battlefield, draw a card."}
STAR = {"name": "Star Beast", "colors": ["G"], "types": ["Creature"], "type": "Creature",
        "power": "*", "toughness": "*",
        "text": "Star Beast's power and toughness are each equal to the number of lands "
                "you control."}
WALKER = {"name": "Test Walker", "colors": ["U"], "types": ["Planeswalker"],
          "type": "Legendary Planeswalker — Test", "loyalty": "3", "text": "+1: Draw a card."}
BATTLE = {"name": "Test Siege", "colors": ["R"], "types": ["Battle"], "type": "Battle — Siege",
          "defense": "4", "text": ""}
BOLT = {"name": "Test Bolt", "colors": ["R"], "types": ["Instant"], "type": "Instant",
        "text": "Test Bolt deals 3 damage to any target."}
ODD = {"name": "Test Odd", "colors": ["R"], "types": ["Creature"], "type": "Creature",
       "power": "4", "toughness": "4",
       "text": "Test Odd can't block unless a creature with greater power also blocks.\n"
               "Test Odd can't be blocked except by three or more creatures.\n"
               "You may have Test Odd assign its combat damage as though it weren't "
               "blocked.\nWither, infect"}
WALL = {"name": "Test Wall", "colors": [], "types": ["Creature"], "type": "Creature — Wall",
        "power": "0", "toughness": "4",
        "text": "Defender\nTest Wall can block any number of creatures."}


@pytest.fixture(autouse=True)
def no_user_cards(monkeypatch):
    # `--cards` sets RULESDIFF_CARDS for the process (worker processes inherit it):
    # monkeypatch puts the environment back as it was after each test.
    from comparator.games.mtg import cards

    monkeypatch.delenv("RULESDIFF_CARDS", raising=False)
    yield
    cards._merged.cache_clear()


def atomic(*cards):
    return {"meta": {"version": "5.2.2"}, "data": {c["name"]: [c] for c in cards}}


@pytest.fixture
def imported(tmp_path):
    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps(atomic(WURM, KNIGHT, STAR, WALKER, BATTLE, BOLT, WALL, ODD)))
    out = tmp_path / "lib.yaml"
    r = runner.invoke(app, ["cards", "import", str(src), "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    return out, json.loads(r.stdout)


def test_import_maps_each_permanent_card_and_counts_what_is_fully_modelled(imported):
    from comparator.games.mtg.cards import read_library

    out, summary = imported
    assert summary == {**summary, "cards": 7, "creatures": 5, "planeswalkers": 1,
                       "battles": 1, "creatures_fully_modelled": 3,
                       "creatures_fully_modelled_share": 0.6}
    cards = read_library(out)
    assert "Test Bolt" not in cards
    wurm = cards["Test Wurm"]
    assert (wurm.power, wurm.toughness, wurm.colors, wurm.mana_value) == (5, 5, ["green"], 5.0)
    assert [str(k) for k in wurm.keywords] == ["trample", "rampage 2"] and not wurm.not_modelled
    knight = cards["Test Knight"]
    assert knight.artifact and [str(k) for k in knight.keywords] == [
        "first-strike", "protection black"]
    assert knight.not_modelled == "When Test Knight enters the battlefield, draw a card."
    star = cards["Star Beast"]
    assert star.power is None and "power * (not a fixed number)" in star.not_modelled
    assert cards["Test Walker"].loyalty == 3 and cards["Test Siege"].defense == 4
    assert [str(k) for k in cards["Test Wall"].keywords] == ["defender",
                                                             "can-block-any-number"]
    assert [str(k) for k in cards["Test Odd"].keywords] == [
        "cant-block-unless-greater-power-blocks", "cant-be-blocked-except-by 3",
        "assign-as-unblocked", "wither", "infect"] and not cards["Test Odd"].not_modelled


SCENARIO = """
id: t-user-cards
title: Imported cards by name
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: wurm, controller: A, card: Test Wurm}
  - {id: knight, controller: B, card: Test Knight}
  - {id: wall, controller: B, card: Test Wall}
combat:
  attacks: {wurm: B}
  blocks: {knight: wurm, wall: wurm}
"""


def test_imported_cards_are_usable_by_name_and_run_names_what_it_ignores(imported, tmp_path,
                                                                         monkeypatch):
    out, _ = imported
    f = tmp_path / "s.yaml"
    f.write_text(SCENARIO)
    r = runner.invoke(app, ["--cards", str(out), "run", str(f), "--era", "m11", "--json"])
    assert r.exit_code == 0, r.output
    outcome = json.loads(r.stdout)
    # Rampage 2, two blockers: a 7/7 trampler. The JSON keeps the contract's keys only.
    assert outcome["permanents"]["wurm"]["power"] == 7 and "not modelled" not in r.output
    r = runner.invoke(app, ["--cards", str(out), "run", str(f), "--era", "m11"])
    assert "note: Test Knight: not modelled: When Test Knight enters" in r.stdout
    monkeypatch.setenv("RULESDIFF_CARDS", str(out))
    r = runner.invoke(app, ["diff", str(f), "--no-store"])
    assert r.exit_code in (0, 1) and "note: Test Knight: not modelled" in r.stdout
    monkeypatch.delenv("RULESDIFF_CARDS")
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "unknown cards 'Test Wurm'" in r.output
    assert "--cards FILE" in r.output  # the library was forgotten: said once


def test_all_printings_shape_is_read_once_per_name(tmp_path):
    src = tmp_path / "AllPrintings.json"
    src.write_text(json.dumps({"meta": {}, "data": {
        "AAA": {"name": "Set A", "cards": [WURM, BOLT]},
        "BBB": {"name": "Set B", "cards": [WURM, WALL]}}}))
    r = runner.invoke(app, ["cards", "import", str(src), "--out", str(tmp_path / "l.yaml"),
                            "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["cards"] == 2


@pytest.mark.parametrize("content,field", [
    ("not json", "not JSON"),
    ('{"meta": {}}', "data"),
    ('{"data": {"X": 3}}', "data.X"),
])
def test_a_file_that_is_not_mtgjson_is_one_clear_error(tmp_path, content, field):
    src = tmp_path / "bad.json"
    src.write_text(content)
    out = tmp_path / "never.yaml"
    r = runner.invoke(app, ["cards", "import", str(src), "--out", str(out)])
    assert r.exit_code == 2 and field in r.output and str(src) in r.output
    assert not out.exists()


def test_a_bad_user_library_names_the_file_and_the_field(tmp_path):
    lib = tmp_path / "lib.yaml"
    lib.write_text("cards:\n  - {name: X, types: [creature], type-line: C, power: big, "
                   "source: me}\n")
    r = runner.invoke(app, ["--cards", str(lib), "run", "giant-badger-blocks", "--era", "m11"])
    assert r.exit_code == 2 and str(lib) in r.output and "cards.0.power" in r.output


def test_the_share_documented_for_the_reference_cards():
    # docs/cards.md gives the share of the reference creature cards the text reading models
    # fully; recompute it from shared/reference/cards.yaml, read as MTGJSON would give it.
    from pathlib import Path

    import yaml

    from comparator.games.mtg.mtgjson import library_entry

    root = Path(__file__).resolve().parents[2]
    ref = root.parent / "shared" / "reference" / "cards.yaml"
    if not ref.exists():
        pytest.skip("shared/reference is not beside the repo")
    letter = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
    creatures = full = 0
    for c in yaml.safe_load(ref.read_text())["cards"]:
        card = {"name": c["name"], "types": c["types"].split("—")[0].split(),
                "type": c["types"], "colors": [letter[x] for x in c.get("colors", [])],
                "text": c.get("oracle", ""),
                **{k: str(c[k]) for k in ("power", "toughness") if c.get(k) is not None}}
        entry = library_entry(card, "reference")
        if entry and "creature" in entry["types"]:
            creatures += 1
            full += "not-modelled" not in entry
    doc = (root / "docs" / "cards.md").read_text()
    assert f"On the {creatures} creature cards" in doc
    assert f"models {full}\nfully: {full / creatures:.1%}" in doc


def test_a_card_of_the_wrong_shape_is_skipped_with_its_reason(tmp_path):
    src, out = tmp_path / "a.json", tmp_path / "l.yaml"
    src.write_text(json.dumps({"data": {
        "X": [{"types": ["Creature"]}],
        "Y": [{"name": "Y", "types": "Creature", "text": 5}],
        "Z": [{"name": "Z", "types": ["Creature"], "power": 1e300, "toughness": "1"}],
        "W": [WURM]}}))
    r = runner.invoke(app, ["cards", "import", str(src), "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["cards"] == 1 and json.loads(r.stdout)["skipped"] == 3
    said = runner.invoke(app, ["cards", "import", str(src), "--out", str(out)]).output
    assert "skipped data.X.0: name: a card has a name (a string)" in said
    assert "skipped data.Y.0: text: a string, not int" in said
    assert "skipped data.Z.0: power:" in said
