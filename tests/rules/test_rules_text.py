"""Reading a Comprehensive Rules text (comparator.rules.reading, the first piece of the rules'
history): its date from the document itself, every rule each era cites found with its
words and headings, and a file that is no rules text refused in one line. The verbatim
texts are the publisher's: read from ../shared/reference/ where it is beside the repo,
else those tests skip; the small fixtures are written here."""

from datetime import date
from pathlib import Path

import pytest

from comparator.rules.reading import NotRulesText, read_rules
from versions import ERAS

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
# fourth and fifth cite the 1999 rulings summary
CR_ERAS = [e for e in ERAS if e.id not in ("alpha", "fourth", "fifth")]


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


def _cli(*args):
    from typer.testing import CliRunner

    from comparator.cli.main import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})


SMALL = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of July "
         "11, 2009.\n\n5. Turn Structure\n\n510. Combat Damage Step\n\n510.1. Combat "
         "damage is assigned.\n\n510.1a First words.\n\n510.1b Second words.\n\n510.10 Not "
         "a subrule of 510.1.\n")


def test_rules_import_and_show(tmp_path):
    db = str(tmp_path / "r.db")
    src = tmp_path / "cr.txt"
    src.write_text(SMALL)
    first = _cli("rules", "import", str(src), "--db", db, "--json")
    assert first.exit_code == 0, first.output
    import json

    assert json.loads(first.output)[0]["stored"] == 4
    again = _cli("rules", "import", str(src), "--db", db, "--json")  # nothing new
    assert json.loads(again.output)[0]["stored"] == 0
    shown = json.loads(_cli("rules", "show", "510.1", "--db", db, "--json").output)
    assert shown["effective"] == "2009-07-11" and shown["title"] == "510. Combat Damage Step"
    assert [s["number"] for s in shown["subrules"]] == ["510.1a", "510.1b"]
    by_era = _cli("rules", "show", "510.1a", "--era", "m10", "--db", db)
    assert by_era.exit_code == 0 and "First words." in by_era.output
    before = _cli("rules", "show", "510.1a", "--date", "2005-01-01", "--db", db)
    assert before.exit_code == 2 and "no imported rules document" in before.output
    missing = _cli("rules", "show", "999.9z", "--db", db)
    assert missing.exit_code == 2 and "not a rule of the Comprehensive Rules effective 2009-07-11" \
        in missing.output


def test_rules_import_refuses_what_is_no_rules_text_and_writes_nothing(tmp_path):
    db = tmp_path / "r.db"
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(SMALL)
    bad.write_text("a shopping list\n")
    result = _cli("rules", "import", str(good), str(bad), "--db", str(db))
    assert result.exit_code == 2 and "bad.txt" in result.output
    assert not db.exists()  # every file is read before anything is written
    cp1252 = tmp_path / "old.txt"
    cp1252.write_bytes(SMALL.replace("First words.", "First \u201cwords\u201d.").encode("cp1252"))
    assert _cli("rules", "import", str(cp1252), "--db", str(db)).exit_code == 0


@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference is not beside the repo")
def test_a_rule_in_each_eras_document(tmp_path):
    db = str(tmp_path / "r.db")
    texts = [str(REFERENCE / f"cr-{d}.txt") for d in
             ("1999-04-23", "2009-05-01", "2009-07-08", "2010-07-16", "2025-02-07")]
    assert _cli("rules", "import", *texts, "--db", db).exit_code == 0
    sixth = _cli("rules", "show", "310.2c", "--era", "sixth", "--db", db)
    assert "2009-05-01" in sixth.output and "divided as its controller chooses" in \
        " ".join(sixth.output.split())
    m10 = " ".join(_cli("rules", "show", "510.1c", "--era", "m10", "--db", db).output.split())
    assert "2009-07-11" in m10 and "damage assignment order" in m10
    now = " ".join(_cli("rules", "show", "510.1c", "--db", db).output.split())
    assert "2025-02-07" in now and "divided as its controller chooses" in now
