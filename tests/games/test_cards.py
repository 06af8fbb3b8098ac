"""The card library: the cards the issue names, with facts matching the reference file."""

from pathlib import Path

import pytest
import yaml

from comparator.games.mtg.cards import library

REQUIRED = [
    "Grizzly Bears", "Hill Giant", "Craw Wurm", "Serra Angel", "Llanowar Elves",
    "Savannah Lions", "Mogg Fanatic", "Sakura-Tribe Elder", "Nantuko Husk", "Kabuto Moth",
    "Giant Badger", "Loyal Sentry", "Norwood Warrior", "Cave Tiger", "Abyssal Nightstalker",
    "Deathgazer", "Typhoid Rats", "Vampire Nighthawk", "Skyshroud Behemoth", "Angel of Mercy",
    "Wall of Swords", "Standing Troops", "Suntail Hawk", "Vastwood Gorger", "Pride Guardian",
    "Goblin Piker", "Squadron Hawk", "White Knight", "Boros Swiftblade", "Elvish Regrower",
    "Vampire Spawn", "Helpful Hunter",
]
REFERENCE = Path(__file__).parents[3] / "shared" / "reference" / "cards.yaml"


def test_library_has_the_required_cards():
    cards = library()
    assert len([c for c in cards.values() if c.is_permanent_card]) >= 40
    for name in REQUIRED:
        assert name in cards, name


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference is not beside the repo")
def test_facts_match_the_reference():
    ref = {c["name"]: c for c in yaml.safe_load(REFERENCE.read_text())["cards"]}
    for name, card in library().items():
        r = ref[name]
        assert card.colors == r["colors"], name
        if card.power is not None:
            assert (card.power, card.toughness) == (r["power"], r["toughness"]), name
        assert card.oracle == r["oracle"], name


def test_white_knight_keywords():
    knight = library()["White Knight"]
    assert {str(k) for k in knight.keywords} == {"first-strike", "protection black"}
