"""Card names in Japanese (issue 52): `cards import` keeps a card's Japanese name from
MTGJSON's foreign data; under `--lang ja` the narration and the divergence table name a
card of the library by its Japanese name where it has one, by its English name where not;
the English output, the JSON and the scenario's names do not change."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.text.language import speaking

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1",
                                                    "LANG": "C.UTF-8", **(env or {})})


@pytest.fixture(autouse=True)
def no_user_cards(monkeypatch):
    from comparator.games.mtg import cards

    monkeypatch.delenv("RULESDIFF_CARDS", raising=False)
    cards._merged.cache_clear()
    yield
    cards._merged.cache_clear()


# MTGJSON's AtomicCards shape, a card's names in other languages in `foreignData`. Serra
# Angel's Japanese name is the one data/cards.yaml gives with its source; "Test Knight" is
# a card made up for the test, and so is its Japanese name.
ANGEL = {"name": "Serra Angel", "type": "Creature — Angel", "types": ["Creature"],
         "colors": ["W"], "power": "4", "toughness": "4", "text": "Flying, vigilance",
         "foreignData": [{"language": "French", "name": "Ange de Serra"},
                         {"language": "Japanese", "name": "セラの天使",
                          "text": "飛行、警戒", "type": "クリーチャー — 天使"}]}
KNIGHT = {"name": "Test Knight", "type": "Creature — Knight", "types": ["Creature"],
          "colors": ["W"], "power": "2", "toughness": "2", "text": "First strike",
          "foreignData": [{"language": "Japanese", "name": "試験の騎士"}]}
NO_JAPANESE = {"name": "Test Wall", "type": "Creature — Wall", "types": ["Creature"],
               "colors": [], "power": "0", "toughness": "4", "text": "Defender",
               "foreignData": [{"language": "German", "name": "Testmauer"}]}
FACE = {"name": "Test Bear // Test Den", "faceName": "Test Bear", "type": "Creature — Bear",
        "types": ["Creature"], "colors": ["G"], "power": "2", "toughness": "2", "text": "",
        "foreignData": [{"language": "Japanese", "name": "試験の熊 // 試験の巣",
                         "faceName": "試験の熊"}]}
WHOLE_ONLY = {"name": "Test Cub // Test Cave", "faceName": "Test Cub",
              "type": "Creature — Bear", "types": ["Creature"], "colors": ["G"],
              "power": "1", "toughness": "1", "text": "",
              "foreignData": [{"language": "Japanese", "name": "試験の子熊 // 試験の洞窟"}]}
BROKEN = {"name": "Test Broken", "type": "Creature", "types": ["Creature"], "colors": [],
          "power": "1", "toughness": "1", "text": "",
          "foreignData": [{"language": "Japanese", "name": ["not", "a", "string"]}]}


def atomic(*cards: dict) -> dict:
    return {"meta": {"version": "5.2.2"}, "data": {c["name"]: [c] for c in cards}}


@pytest.fixture
def imported(tmp_path):
    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps(atomic(ANGEL, KNIGHT, NO_JAPANESE, FACE, WHOLE_ONLY, BROKEN),
                              ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "lib.yaml"
    done = run("cards", "import", str(src), "--out", str(out), "--json")
    assert done.exit_code == 0, done.output
    return out, json.loads(done.stdout)


def test_import_keeps_the_japanese_name(imported):
    from comparator.games.mtg.cards import read_library

    out, summary = imported
    assert summary["cards"] == 5 and summary["japanese_names"] == 3
    assert summary["skipped"] == 1  # foreignData of the wrong shape: never trusted
    written = {c["name"]: c for c in yaml.safe_load(out.read_text(encoding="utf-8"))["cards"]}
    assert written["Serra Angel"]["ja-name"] == "セラの天使"  # Japanese, not French
    assert list(written["Serra Angel"])[:2] == ["name", "ja-name"]
    assert "ja-name" not in written["Test Wall"]  # no Japanese printing: none
    assert written["Test Bear"]["ja-name"] == "試験の熊"  # a face: the face's name
    assert "ja-name" not in written["Test Cub"]  # only the whole card's: not the face's
    cards = read_library(out)
    assert cards["Test Knight"].ja_name == "試験の騎士"
    assert cards["Test Wall"].ja_name is None


def test_the_human_summary_counts_the_japanese_names(tmp_path):
    src = tmp_path / "AtomicCards.json"
    src.write_text(json.dumps(atomic(ANGEL, NO_JAPANESE), ensure_ascii=False),
                   encoding="utf-8")
    done = run("cards", "import", str(src), "--out", str(tmp_path / "lib.yaml"))
    assert done.exit_code == 0, done.output
    assert "1 with a Japanese name" in done.output


def test_the_shipped_sample_carries_japanese_names(tmp_path):
    out = tmp_path / "sample.yaml"
    done = run("cards", "import", str(ROOT / "data" / "mtgjson-sample.json"), "--out",
               str(out), "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["japanese_names"] == 4  # the instant is left out
    from comparator.games.mtg.cards import read_library, shipped_library

    shipped = shipped_library()
    for name, card in read_library(out).items():
        assert card.ja_name == shipped[name].ja_name, name  # the same sources


def test_every_japanese_name_of_the_shipped_library_says_its_source():
    from comparator.games.mtg.cards import shipped_library

    named = [c for c in shipped_library().values() if c.ja_name]
    assert len(named) >= 60
    for card in named:
        assert card.ja_name_source, card.name
    cards = shipped_library()
    assert cards["Grizzly Bears"].ja_name == "灰色熊"
    assert cards["Wild Cantor"].ja_name == "野生の朗詠者"  # seed 000: 野生の朗詠者/Wild Cantor
    assert cards["Kindled Fury"].ja_name is None  # no source names it: English


def test_the_lookup_the_site_calls():
    from comparator.games.mtg.cards import card_name, japanese_name

    assert japanese_name("Giant Growth") == "巨大化"
    assert japanese_name("Kindled Fury") is None
    assert japanese_name("bears") is None  # an id, not a card
    with speaking("en"):
        assert card_name("Giant Growth") == "Giant Growth"  # English: as written
    with speaking("ja"):
        assert card_name("Giant Growth") == "巨大化"
        assert card_name("Kindled Fury") == "Kindled Fury"
        assert card_name("bears") == "bears"


def test_a_users_library_gives_its_japanese_names(imported, monkeypatch):
    from comparator.games.mtg import cards

    out, _summary = imported
    monkeypatch.setenv("RULESDIFF_CARDS", str(out))
    cards._merged.cache_clear()
    with speaking("ja"):
        assert cards.card_name("Test Knight") == "試験の騎士"
        assert cards.card_name("Grizzly Bears") == "灰色熊"  # the shipped, beneath


SCENARIO = textwrap.dedent("""\
    id: ja-card-names
    title: Cards named in Japanese where known
    description: A Grizzly Bears blocked by a Hill Giant; a Giant Growth and a Kindled Fury
      only while combat damage is on the stack.
    players:
      - {name: A}
      - {name: B}
    active: A
    permanents:
      - {id: bears, controller: A, card: Grizzly Bears}
      - {id: giant, controller: B, card: Hill Giant}
    combat:
      attacks: {bears: B}
      blocks: {giant: bears}
    actions:
      - {at: damage-on-stack, by: A, effect: pump, target: bears, power: 3, toughness: 3,
         card: Giant Growth, if-missing: skip}
      - {at: damage-on-stack, by: B, effect: pump, target: giant, power: 1, toughness: 0,
         card: Kindled Fury, if-missing: skip}
    """)


@pytest.fixture
def scenario(tmp_path):
    path = tmp_path / "ja-card-names.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return str(path)


def test_diff_names_cards_in_japanese_where_known(scenario):
    done = run("diff", scenario, "--lang", "ja", "--no-store")
    assert done.exit_code == 1, done.output  # sixth diverges
    flat = "".join(done.output.split())
    assert "+3/+3の修整を受ける（巨大化）" in flat  # the action's card, in Japanese
    assert "+1/+0の修整を受ける（KindledFury）" in flat  # no Japanese name: English
    assert "Aの墓地:" in flat and "では灰色熊／" in flat  # the graveyard's card
    assert "Giant Growth" not in done.output and "Grizzly Bears" not in done.output
    assert "bears" in done.output and "giant" in done.output  # ids stay as written


def test_run_names_cards_in_japanese_where_known(scenario):
    done = run("run", scenario, "--era", "sixth", "--lang", "ja")
    assert done.exit_code == 0, done.output
    assert "bears はターン終了時まで +3/+3 の修整を受ける（巨大化）" in done.output
    assert "giant はターン終了時まで +1/+0 の修整を受ける（Kindled Fury）" in done.output


def test_english_and_json_keep_the_english_names(scenario):
    english = run("diff", scenario, "--no-store")
    assert "bears gets +3/+3 until end of turn (Giant Growth)" in english.output
    assert "Grizzly Bears in alpha" in english.output
    assert "巨大化" not in english.output and "灰色熊" not in english.output
    as_json = run("diff", scenario, "--no-store", "--json")
    in_japanese = run("diff", scenario, "--no-store", "--json", "--lang", "ja")
    assert json.loads(as_json.output) == json.loads(in_japanese.output)
    assert "Giant Growth" in as_json.output and "灰色熊" not in in_japanese.output
    one = run("run", scenario, "--era", "sixth", "--json", "--lang", "ja")
    events = json.loads(one.output)["events"]
    assert {e.get("card") for e in events} >= {"Giant Growth", "Kindled Fury"}
