"""Reading a Comprehensive Rules text (comparator.rules_text, the first piece of the rules'
history): its date from the document itself, every rule each era cites found with its
words and headings, and a file that is no rules text refused in one line. The verbatim
texts are the publisher's: read from ../shared/reference/ where it is beside the repo,
else those tests skip; the small fixtures are written here."""

from datetime import date
from pathlib import Path

import pytest

from comparator.rules_text import NotRulesText, read_rules
from versions import ERAS

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"
CR_ERAS = [e for e in ERAS if e.id != "fifth"]  # fifth cites the 1999 rulings summary


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference is not beside the repo")
@pytest.mark.parametrize("era", CR_ERAS, ids=lambda e: e.id)
def test_every_rule_an_era_cites_is_read_with_its_words(era):
    doc = read_rules((REFERENCE / f"cr-{era.cr_date}.txt").read_text(encoding="utf-8"))
    cited = {n for n in era.RULES.values() if not n.startswith("Glossary") and " " not in n}
    missing = sorted(n for n in cited if n not in doc.rules)
    assert not missing, (era.id, missing)
    for number in cited:
        assert len(doc.rules[number].text) > 10 and doc.rules[number].title, number


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference is not beside the repo")
def test_dates_and_headings_come_from_the_documents():
    m10 = read_rules((REFERENCE / "cr-2009-07-08.txt").read_text(encoding="utf-8"))
    assert m10.effective == date(2009, 7, 11)  # "effective as of July 11, 2009"
    rule = m10.rules["510.1c"]
    assert (rule.section, rule.title) == ("5. Turn Structure", "510. Combat Damage Step")
    assert "damage assignment order" in rule.text
    old = read_rules((REFERENCE / "cr-1999-04-23.txt").read_text(encoding="utf-8"))
    assert old.effective == date(1999, 4, 23)
    # The 1999 text wraps a rule over several lines: read whole.
    assert old.rules["309.1"].text.startswith("The defending player declares")
    assert "\n" not in old.rules["309.1"].text and len(old.rules["309.1"].text) > 100


def test_a_small_text_with_bom_crlf_and_curly_quotes():
    text = ("\ufeffMagic: The Gathering Comprehensive Rules\r\n\r\nThese rules are effective "
            "as of February 7, 2025.\r\n\r\n5. Turn Structure\r\n\r\n510. Combat Damage "
            "Step\r\n\r\n510.1. First, the active player announces\u2019 the damage.\r\n\r\n"
            "510.1a Each creature assigns.\r\n")
    doc = read_rules(text)
    assert doc.effective == date(2025, 2, 7)
    assert doc.rules["510.1"].text == "First, the active player announces\u2019 the damage."
    assert doc.rules["510.1a"].title == "510. Combat Damage Step"


@pytest.mark.parametrize("text", ["", "just a note\n", "These rules are current as of "
                                  "May 1, 2009.\nNo numbers here.\n",
                                  "These rules are current as of Smarch 40, 2009.\n"])
def test_what_is_no_rules_text_is_refused_in_one_line(text):
    with pytest.raises(NotRulesText) as refused:
        read_rules(text)
    assert "\n" not in str(refused.value)
