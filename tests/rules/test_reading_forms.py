"""One rules text in two forms: as published, and as the public archive
LaurieCheers/CompRulesHistory keeps it (tests/archive_form.py makes that form from the
published one). Both read to the same rules, headings, date, glossary and words; and in
both, each example under a rule is a line of the rule's text of its own, so that
`without_examples` gives the rule's words exactly. The verbatim texts are read from
../shared/reference/ where it is beside the repo, else those tests skip."""

import re
from datetime import date
from pathlib import Path

import pytest
from archive_form import folded, normalized

from comparator.rules.document import NotRulesText, is_example, without_examples
from comparator.rules.reading import read_rules

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason="shared/reference is not beside the repo")
# Each text and the date it says it is current or effective as of.
TEXTS = {"1999-04-23": date(1999, 4, 23), "2009-05-01": date(2009, 5, 1),
         "2009-07-08": date(2009, 7, 11), "2010-07-16": date(2010, 7, 16),
         "2022-04-29": date(2022, 4, 29), "2025-02-07": date(2025, 2, 7)}
# A rule's line in a published body: "510.1c ...", "309.1. ...", the 1999 "305.3.After".
PUBLISHED_RULE = re.compile(r"^\s*\d{3}\.\d+[a-z]?(?:\.\s*|\s+)\S")
ARCHIVED_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]?\.?$")


def _published(day: str) -> str:
    return (REFERENCE / f"cr-{day}.txt").read_text(encoding="utf-8")


def _words(text: str) -> str:
    """Words compared across forms: punctuation folded as the archive folds it, and any
    run of spaces and line ends one space."""
    return " ".join(folded(text).split())


def _body_rules(text: str) -> int:
    """The rules a published text numbers, counted here without the reader: the numbered
    lines from rule 100.1 to the glossary."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if re.match(r"^\s*100\.1\.", line))
    end = next(i for i in range(start, len(lines)) if lines[i].strip() == "Glossary")
    return sum(bool(PUBLISHED_RULE.match(line)) for line in lines[start:end])


# -- the archive's form, as tests/archive_form.py makes it ------------------------------------


@needs_reference
@pytest.mark.parametrize("day", TEXTS)
def test_the_archive_form_is_what_its_readme_says(day):
    published = _published(day)
    archived = normalized(published)
    assert "\r" not in archived and archived.isascii() and "_" not in archived
    lines = archived.split("\n")
    assert not any(line and not line.strip() for line in lines)  # blank lines emptied
    assert not any(re.fullmatch(r"\s*(-{3,}|={3,})\s*", line) for line in lines)
    assert not any(PUBLISHED_RULE.match(line) for line in lines)  # no number with words
    numbers = [i for i, line in enumerate(lines) if ARCHIVED_NUMBER.match(line)]
    assert len(numbers) == _body_rules(published.lstrip("\ufeff").replace("\r\n", "\n"))
    assert all(lines[i + 1].strip() for i in numbers)  # the words on the next line
    assert normalized(archived) == archived  # a text in the archive's form stays as it is


@needs_reference
def test_the_1999_text_is_rejoined_one_rule_a_line():
    lines = normalized(_published("1999-04-23")).split("\n")
    numbers = [i for i, line in enumerate(lines) if ARCHIVED_NUMBER.match(line)]
    # A rule, its words on one line, then a blank line: no rule wraps any more.
    assert all(lines[i + 2] == "" for i in numbers)
    at = lines.index("502.9f")
    assert lines[at + 1] == (
        "When there are several attacking creatures, it's legal to assign damage from those "
        "without trample so as to maximize the damage of those with trample. EXAMPLE: A 2/2 "
        "creature with an ability that enables it to block multiple attackers blocks two "
        "attackers, one 1/1 with no special abilities and the other 3/3 with trample. The "
        "active player could assign 1 damage from the first attacker and 1 damage from the "
        "second to the blocking creature and 2 damage to the defending player from the "
        "creature with trample.")
    glossary = lines.index("Glossary", at)  # the contents name it before the body
    trample = lines.index("Trample", glossary)  # one definition, one line
    assert lines[trample + 1].startswith("Trample is a static ability modifying the combat")
    assert lines[trample + 1].endswith('"Trample."') and lines[trample + 2] == ""


# -- both forms read alike ---------------------------------------------------------------------


@needs_reference
@pytest.mark.parametrize("day", TEXTS)
def test_both_forms_read_to_the_same_rules(day):
    published = _published(day)
    as_published, as_archived = read_rules(published), read_rules(normalized(published))
    assert as_published.effective == as_archived.effective == TEXTS[day]
    assert list(as_published.rules) == list(as_archived.rules)
    assert len(as_published.rules) == _body_rules(published.lstrip("\ufeff").replace("\r\n",
                                                                                     "\n"))
    for number, rule in as_published.rules.items():
        other = as_archived.rules[number]
        assert (folded(rule.section), folded(rule.title)) == (other.section, other.title)
        assert _words(without_examples(rule.text)) == _words(without_examples(other.text)), \
            number
        examples = [_words(line) for line in rule.text.split("\n") if is_example(line)]
        assert examples == [_words(line) for line in other.text.split("\n")
                            if is_example(line)], number
    assert [folded(t) for t in as_published.glossary] == list(as_archived.glossary)
    assert [_words(w) for w in as_published.glossary.values()] == \
        [_words(w) for w in as_archived.glossary.values()]


# -- examples apart from the words, in every form ----------------------------------------------

# Trample rules with examples, as each text prints them: (text, rule, its words, how its
# examples begin).
TRAMPLE_2009 = (
    "The controller of an attacking creature with trample first assigns damage to the "
    "creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, "
    "any remaining damage is assigned as its controller chooses among those blocking "
    "creatures and the player or planeswalker the creature is attacking. When checking for "
    "assigned lethal damage, take into account damage already marked on the creature and "
    "damage from other creatures that's being assigned during the same combat damage step, "
    "but not any abilities or effects that might change the amount of damage that's "
    "actually dealt. The attacking creature's controller need not assign lethal damage to "
    "all those blocking creatures but in that case can't assign any damage to the player or "
    "planeswalker it's attacking.")
TRAMPLE_2022 = TRAMPLE_2009.replace("any remaining damage", "any excess damage")
EXAMPLES = [
    ("1999-04-23", "502.9f",
     "When there are several attacking creatures, it's legal to assign damage from those "
     "without trample so as to maximize the damage of those with trample.",
     ["EXAMPLE: A 2/2 creature with an ability that enables it to block multiple attackers "
      "blocks two attackers, one 1/1"]),
    ("1999-04-23", "214.7a",
     "If a card instruction requires choosing a creature subtype, this may be any noun "
     "(even if the creature doesn't exist in Magic), but only one. A word that has some "
     "other Magic meaning isn't a valid choice, because that would cause confusion.",
     ["EXAMPLE: Merfolk or Wizard is acceptable, but not Merfolk Wizard."]),
    ("2009-05-01", "502.9e",
     "When there are several attacking creatures, it's legal to assign damage from those "
     "without trample so as to maximize the damage of those with trample.",
     ["Example: A 2/2 creature with an ability that enables it to block multiple attackers "
      "blocks two attackers: a 1/1"]),
    ("2009-07-08", "702.17b", TRAMPLE_2009,
     ["Example: A 2/2 creature with an ability", "Example: A 6/6 green creature"]),
    ("2010-07-16", "702.17b", TRAMPLE_2009,
     ["Example: A 2/2 creature with an ability", "Example: A 6/6 green creature"]),
    ("2009-07-08", "510.1c",
     "A blocked creature assigns its combat damage to the creatures blocking it. If no "
     "creatures are currently blocking it (if, for example, they were destroyed or removed "
     "from combat), it assigns no combat damage. If exactly one creature is blocking it, it "
     "assigns all its combat damage to that creature. If two or more creatures are blocking "
     "it, it assigns its combat damage to those creatures according to the damage "
     "assignment order announced for it. This may allow the blocked creature to divide its "
     "combat damage. However, it can't assign combat damage to a creature that's blocking it "
     "unless each creature that precedes that blocking creature in its order is assigned "
     "lethal damage. When checking for assigned lethal damage, take into account damage "
     "already marked on the creature and damage from other creatures that's being assigned "
     "during the same combat damage step, but not any abilities or effects that might "
     "change the amount of damage that's actually dealt. An amount of damage that's greater "
     "than a creature's lethal damage may be assigned to it.",
     ["Example: The damage assignment order of an attacking Craw Wurm"] * 3
     + ["Example: The damage assignment order of an attacking Enormous Baloth"]),
    ("2022-04-29", "702.19b", TRAMPLE_2022,
     ["Example: A 2/2 creature that can block an additional creature",
      "Example: A 6/6 green creature"]),
    ("2025-02-07", "702.19b",
     TRAMPLE_2022.replace("the player or planeswalker the creature",
                          "the player, planeswalker, or battle the creature"),
     ["Example: A 2/2 creature that can block an additional creature",
      "Example: A 6/6 green creature"]),
]


@needs_reference
@pytest.mark.parametrize(("day", "number", "words", "examples"), EXAMPLES,
                         ids=[f"{d}-{n}" for d, n, _, _ in EXAMPLES])
@pytest.mark.parametrize("form", ["published", "archived"])
def test_examples_are_apart_from_the_words(day, number, words, examples, form):
    text = _published(day)
    rule = read_rules(text if form == "published" else normalized(text)).rules[number]
    assert folded(without_examples(rule.text)) == folded(words)
    found = [line for line in rule.text.split("\n") if is_example(line)]
    assert len(found) == len(examples)
    for line, start in zip(found, examples, strict=True):
        assert folded(line).startswith(folded(start)), (line, start)
    # The words are the lines before the first example, the examples all the lines after.
    assert rule.text.split("\n")[len(rule.text.split("\n")) - len(examples):] == found


@needs_reference
@pytest.mark.parametrize("form", ["published", "archived"])
def test_a_1999_rule_with_words_after_its_example(form):
    text = _published("1999-04-23")
    rule = read_rules(text if form == "published" else normalized(text)).rules["410.10d"]
    words = without_examples(rule.text).split("\n")
    assert words[0].startswith("Leaves-play triggers have to be treated specially")
    assert words[0].endswith("any leaves-play triggers that match what just left play.")
    assert words[1].startswith('"Leaves play" triggers are zone-change triggers')
    assert words[1].endswith("first zone that it went to after leaving play.")
    assert [line[:40] for line in rule.text.split("\n") if is_example(line)] == [
        "EXAMPLE: Two creatures are in play along"]


@needs_reference
def test_the_1999_text_read_whole():
    doc = read_rules(_published("1999-04-23"))
    # "305.3.After ..." (no space after the number) is a rule too.
    assert doc.rules["305.3"].text.startswith("After triggered abilities (if any) are added")
    # A banner under a rule's heading is no words of it; "Examples include" is no example.
    assert doc.rules["214.9"].text == "Lands"
    assert doc.rules["417.1"].text == ("A one-shot effect does something just once and "
                                       "doesn't have a duration. Examples include damage "
                                       "dealing, destruction, and moving cards between "
                                       "zones.")


# -- small texts in the archive's form ---------------------------------------------------------

ARCHIVED = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of "
            "July 11, 2009.\n\n5. Turn Structure\n\n510. Combat Damage Step\n\n510.1.\n"
            "First, the active player announces.\n\n510.1c\nA blocked creature assigns its "
            "combat damage. Example: Craw Wurm is blocked.\n\n305.3.\nAfter triggered "
            "abilities.\n")


def test_a_number_alone_has_its_words_on_the_next_line():
    doc = read_rules(ARCHIVED)
    assert doc.rules["510.1"].text == "First, the active player announces."
    assert doc.rules["510.1c"].text == ("A blocked creature assigns its combat damage.\n"
                                        "Example: Craw Wurm is blocked.")
    assert without_examples(doc.rules["510.1c"].text) == ("A blocked creature assigns its "
                                                           "combat damage.")
    assert doc.rules["510.1c"].title == "510. Combat Damage Step"
    assert doc.rules["305.3"].line == 15


def test_a_number_without_words_is_refused_on_its_line():
    with pytest.raises(NotRulesText) as refused:
        read_rules(ARCHIVED + "\n510.2\n")
    assert refused.value.line == 18 and "510.2" in str(refused.value)
    assert "\n" not in str(refused.value)
