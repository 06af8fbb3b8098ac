"""Every rule an era cites exists, under that number, in the Comprehensive Rules document the
era says it cites (the verbatim texts of shared/reference/, which CI has beside the repo)."""

import re
import sys
from pathlib import Path

import pytest

from versions import ERAS, find_era
from versions.mtg.rules import CORE_RULES, Era, cites

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"


# The eras before the Comprehensive Rules cite another document, numbered its own way.
SUMMARY = ("rulings-summary-fifth-edition-1999.txt", r"([A-Z]\.\d+\.(?:Ruling\.)?\d+) - ")
OTHER_TEXTS = {"fourth": SUMMARY, "fifth": SUMMARY}


# A rule that came within an era, after the text the era cites, is cited from a later text
# of the same era, which the citation names: "702.90c (CR 2022-04-29)".
LATER_TEXT = re.compile(r"^(\S+) \(CR (\d{4}-\d\d-\d\d)\)$")
CR_NUMBER = r"\s*(\d{3}\.\d+[a-z]?)\.? "


def numbers(era_id: str, cr_date: str | None = None) -> set[str]:
    era = find_era(era_id)
    name, pattern = OTHER_TEXTS.get(era_id, (f"cr-{era.cr_date}.txt", CR_NUMBER))
    if cr_date is not None:
        name, pattern = f"cr-{cr_date}.txt", CR_NUMBER
    text = (REFERENCE / name).read_text(encoding="utf-8", errors="replace")
    found = set()
    heading = ""
    for line in text.splitlines():
        m = re.match(pattern, line)
        if m:
            found.add(m.group(1))
        if pattern == SUMMARY[1]:  # its unnumbered notes, by the heading above them
            if h := re.match(r"([A-Z]\.\d+) - ", line):
                heading = h.group(1)
            elif line.startswith("Note - ") and heading:
                found.add(f"{heading}.Note")
    return found


# The 1993 rulebook is cited by page, and is not among the reference texts: test_alpha.py
# checks its citations against the era's own list of pages.
@pytest.mark.skipif(not REFERENCE.exists(), reason="shared/reference is not beside the repo")
@pytest.mark.parametrize("era", [e.id for e in ERAS if e.id != "alpha"])
def test_every_cited_number_is_in_the_cited_text(era):
    rules = find_era(era).RULES
    known = numbers(era)
    cited = {k: v for k, v in rules.items() if not v.startswith("Glossary")}
    missing = {k: v for k, v in cited.items() if v not in known and not LATER_TEXT.match(v)}
    assert not missing, f"{era} cites numbers its CR ({find_era(era).cr_date}) doesn't have"
    for key, v in cited.items():
        if m := LATER_TEXT.match(v):
            number, date = m.groups()
            assert date > find_era(era).cr_date, (era, key, "a later text of the era")
            assert find_era(era).ended is None or date <= find_era(era).ended, (era, key)
            assert number in numbers(era, date), (era, key, v)


@pytest.mark.parametrize("era", [e.id for e in ERAS])
def test_glossary_and_zone_citations_are_marked_unverified(era):
    e = find_era(era)
    for key, number in e.RULES.items():
        if number.startswith("Glossary"):
            assert key in e.unverified, (era, key)


def test_rules_table_is_checked_when_an_era_is_defined():
    sixth = find_era("sixth")
    with pytest.raises(TypeError, match="never cited: stray"):
        type("Broken", (sixth,), {"id": "broken", "RULES": {**sixth.RULES, "stray": "1.1"}})

    class Hook(Era):  # a hook citing a key the table lacks
        @cites("new-key")
        def lethal_damage(self, game, source, target, others):
            return 0

    with pytest.raises(TypeError, match="cited but missing: new-key"):
        type("Broken2", (Hook,), {"id": "broken2", "RULES": dict.fromkeys(CORE_RULES, "1.1")})


def test_every_literal_rule_key_in_an_era_module_is_declared():
    # A hook that cites a key must say so with @cites, or the definition-time check could
    # not see it: every rule("...") literal in an era module is in its class's cited keys.
    root = Path(__file__).resolve().parents[2] / "versions" / "mtg"
    for era in ERAS:
        module = Path(sys.modules[era.__module__].__file__ or "")
        literals = set(re.findall(r"rule\(\"([a-z0-9-]+)\"\)", module.read_text()))
        assert literals <= era.cited_keys(), (era.id, literals - era.cited_keys())
    core = "".join(p.read_text() for p in [*(root / "engine").glob("*.py"), root / "rules.py"])
    assert set(re.findall(r"rule\(\"([a-z0-9-]+)\"\)", core)) <= CORE_RULES
