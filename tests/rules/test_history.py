"""The rules' own history (issue 22): every full text of ../shared/reference/ imports and
gives back each rule's paragraph exactly; `history` follows 510.1c, 702.2b and trample
through the texts with the known changes and their dates; `--quote`, `rules check`, the
glossary, the rulings summary, Duel Masters' 総合ゲームルール; hostile files refused naming
the file and the line, the store unchanged; docs/history.md's transcript is what rulesdiff
prints. The verbatim texts are read from ../shared/reference/ (those tests skip without
it); the small fixtures are written here."""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import HEAD, write_cr
from typer.testing import CliRunner

from comparator.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT.parent / "shared" / "reference"
FULL = ("1999-04-23", "2009-05-01", "2009-07-08", "2010-07-16", "2022-04-29", "2025-02-07")
SUMMARY = "rulings-summary-fifth-edition-1999.txt"
needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason="shared/reference is not beside the repo")


def cli(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})


def history(db: str, rule: str) -> dict:
    done = cli("history", rule, "--db", db, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


# -- every full text, and 50 paragraphs of each given back exactly ---------------------------


def paragraphs(path: Path) -> dict[str, str]:
    """Each numbered paragraph of the body as the file has it, read here without the
    importer: from a line starting with a number to a blank line or the next number;
    the 1999 text's wrapped lines joined by a space, an "Example" line kept as a line."""
    lines = path.read_text(encoding="utf-8").lstrip("\ufeff").split("\n")
    numbered = re.compile(r"^\s*(\d{3}\.\d+[a-z]?)\.?\s+(\S.*)$")
    body = next(i for i, line in enumerate(lines) if numbered.match(line))
    out: dict[str, str] = {}
    current = None
    for line in lines[body:]:
        if line.strip() == "Glossary":
            break
        if m := numbered.match(line):
            current = m.group(1)
            out[current] = m.group(2).strip()
        elif not line.strip() or set(line.strip()) <= set("-=") or re.match(
                r"^\s*\d{3}\.\s", line) or re.match(r"^\d\.\s", line):
            current = None
        elif current is not None:
            joint = "\n" if line.strip().startswith(("Example:", "EXAMPLE:")) else " "
            out[current] += joint + line.strip()
    return out


@needs_reference
@pytest.mark.parametrize("date", FULL)
def test_fifty_rules_of_each_text_are_their_paragraphs_exactly(all_texts, date):
    path = REFERENCE / f"cr-{date}.txt"
    expected = paragraphs(path)
    sample = random.Random(date).sample(sorted(expected), 50)
    # The 2009-07-08 text is effective 2009-07-11: it says so.
    day = {"2009-07-08": "2009-07-11"}.get(date, date)
    for number in sample:
        shown = cli("rules", "show", number, "--date", day, "--db", all_texts, "--json")
        assert shown.exit_code == 0, (number, shown.output)
        got = json.loads(shown.output)
        assert got["document"] == path.name and got["number"] == number
        assert got["text"] == expected[number], number


@needs_reference
def test_the_summary_is_read_in_its_own_numbering(all_texts):
    shown = json.loads(cli("rules", "show", "C.8.1", "--era", "fifth", "--db", all_texts,
                           "--json").output)
    assert shown["kind"] == "Fifth Edition rulings summary"
    assert shown["title"] == "C.8 - Step 6: Damage Dealing"
    assert shown["text"].startswith("This step can be charted out as follows:")
    t10 = json.loads(cli("rules", "show", "T.10.1", "--date", "1999-01-01", "--db",
                         all_texts, "--json").output)
    assert t10["title"] == "T.10 - Damage Prevention Step"
    # Before the first CR, the rules in force are the summary's.
    assert t10["effective"] == "1999-05-16"
    twice = json.loads(cli("rules", "show", "D.18.5#2", "--era", "fifth", "--db",
                           all_texts, "--json").output)
    assert "Urza's Saga/Urza's Legacy" in twice["text"]


@needs_reference
def test_the_glossary_is_stored(all_texts):
    m10 = cli("rules", "show", "trample", "--era", "m10", "--db", all_texts)
    assert m10.exit_code == 0 and "702.17" in m10.output and "Glossary" in m10.output
    old = json.loads(cli("rules", "show", "Ability", "--era", "sixth", "--db", all_texts,
                         "--json").output)
    assert old["text"].startswith('"Ability" and "effect" are often confused')


@needs_reference
def test_a_rule_shown_on_a_date_before_its_number_existed(all_texts):
    shown = cli("rules", "show", "510.1c", "--date", "2005-06-01", "--db", all_texts)
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("310.1c — the Comprehensive Rules effective 1999-04-23")
    assert "numbered 510.1c later" in shown.output


# -- history --------------------------------------------------------------------------------


def by_date(found: dict) -> dict[str, dict]:
    return {v["in_force"]: v for v in found["versions"]}


@needs_reference
def test_history_of_510_1c(all_texts):
    found = history(all_texts, "510.1c")
    v = by_date(found)
    assert [x["number"] for x in found["versions"]] == [
        "C.8.5", "310.1c", "310.2c", "510.1c", "510.1c", "510.1c", "510.1c"]
    # Damage off the stack, the damage assignment order in: M10, 2009-07-11.
    m10 = v["2009-07-11"]
    assert m10["status"] == "renumbered and changed" and m10["previous_number"] == "310.2c"
    assert m10["dated"] == {"on": "2009-07-11", "era": "m10"}
    assert "double-block-giant-growth-every-era" in m10["scenarios"]
    added = " ".join(w["text"] for w in m10["words"] if w["op"] == "+")
    assert "damage assignment order" in added
    # Foundations took the order away: dated by the era, not the text of 2025-02-07, and
    # said to fall between the two imported texts.
    fdn = v["2025-02-07"]
    assert fdn["dated"] == {"on": "2024-11-08", "era": "foundations",
                            "between": ["2022-04-29", "2025-02-07"]}
    assert "divided as its controller chooses among them" in fdn["text"]
    assert "damage assignment order" in " ".join(w["text"] for w in fdn["words"]
                                                 if w["op"] == "-")
    assert fdn["gap"] and "2022-04-29" in fdn["gap"]
    assert set(fdn["scenarios"]) <= set(json.loads(
        (ROOT / "data" / "shipped-citations.json").read_text())["m11>foundations"])


@needs_reference
def test_history_of_702_2b(all_texts):
    found = history(all_texts, "702.2b")
    v = by_date(found)
    assert list(v) == ["2009-07-11", "2010-07-16", "2022-04-29", "2025-02-07"]
    assert v["2009-07-11"]["status"] == "first"
    assert "can divide that damage as he or she chooses" in v["2009-07-11"]["text"]
    m11 = v["2010-07-16"]
    assert m11["dated"] == {"on": "2010-07-16", "era": "m11"}
    assert m11["text"].startswith("Any nonzero amount of combat damage")
    assert "m11-deathtouch-follows-the-order" in m11["scenarios"]
    # The rule moved to 702.2c by 2022: followed by its words.
    assert v["2022-04-29"]["number"] == "702.2c"
    assert v["2025-02-07"]["status"] == "unchanged"
    assert {a["effective"] for a in found["absent"]} == {"1999-05-16", "1999-04-23",
                                                          "2009-05-01"}


@needs_reference
def test_history_of_trample_by_its_key(all_texts):
    found = history(all_texts, "trample")
    assert found["keys"] == ["trample"]
    assert [(x["in_force"], x["number"]) for x in found["versions"]] == [
        ("1999-05-16", "A.27.Note"), ("1998-10-18", "A.27.2"), ("1999-04-23", "502.9b"),
        ("2009-05-01", "502.9b"),
        ("2009-07-11", "702.17b"), ("2010-07-16", "702.17b"), ("2022-04-29", "702.19b"),
        ("2025-02-07", "702.19b")]
    # The summary states both: in its note the trample of the rules before Urza's Saga,
    # which fourth cites, and the rule that replaced it, which fifth cites. One document
    # is never a change: the note is a look back, dated by its document (1999), not shown
    # as the rule of 1995; the rule in force is the first version, no "renumbering".
    first, urza = found["versions"][:2]
    assert first["era"] == "fourth" and "Trample used to work in two steps" in first["text"]
    assert first["status"] == "look back" and first["effective"] == "1999-05-16"
    assert urza["status"] == "first" and urza["previous_number"] is None
    assert urza["document"] == first["document"] and not urza["words"]
    v = by_date(found)
    assert v["1999-04-23"]["status"] == "renumbered and changed"
    assert v["1999-04-23"]["previous_number"] == "A.27.2"
    assert ("trample is A.27.2 in the fifth table and 502.9b in the sixth table"
            in v["1999-04-23"]["evidence"])
    assert v["1999-04-23"]["dated"] == {"on": "1999-04-23", "era": "sixth"}
    assert v["2009-07-11"]["dated"] == {"on": "2009-07-11", "era": "m10"}
    assert v["2010-07-16"]["status"] == "unchanged"
    # No era began between 2010 and 2022: only the span is known.
    assert v["2022-04-29"]["dated"] == {"between": ["2010-07-16", "2022-04-29"]}
    # 2022's "the player or planeswalker the creature is attacking" is 2025's "the player,
    # planeswalker, or battle": no Foundations change (its record says trample "still
    # needs lethal damage on every blocker first"), so only the span is known.
    assert v["2025-02-07"]["status"] == "changed"
    assert v["2025-02-07"]["dated"] == {"between": ["2022-04-29", "2025-02-07"]}
    assert v["2025-02-07"]["scenarios"] == []
    assert v["2009-05-01"]["gap"].startswith("no text imported between 1999-04-23 and "
                                             "2009-05-01")


@needs_reference
def test_history_in_a_terminal_marks_the_words(all_texts):
    piped = cli("history", "702.2b", "--db", all_texts)
    assert "[-A player assigning-] {+Any nonzero amount of+}" in " ".join(
        piped.output.split())
    from comparator.cli.rules import _marked

    coloured = _marked([{"op": "-", "text": "old"}, {"op": "+", "text": "new"}], True)
    assert "\x1b[31m" in coloured and "\x1b[9m" in coloured and "\x1b[32m" in coloured


def test_history_refuses_what_is_no_rule(tmp_path):
    from comparator.store.database import open_engine

    db = str(tmp_path / "r.db")
    for command in (("history", "510.1c"), ("rules", "show", "510.1c"), ("rules", "check")):
        missing = cli(*command, "--db", db)  # looking makes no store
        assert missing.exit_code == 2 and "no database at" in missing.output, command
        assert "rules import" in missing.output and not (tmp_path / "r.db").exists()
    open_engine(db)  # an empty store
    unknown = cli("history", "tramplee", "--db", db)
    assert unknown.exit_code == 2 and "did you mean 'trample'" in unknown.output
    empty = cli("history", "510.1c", "--db", db)
    assert empty.exit_code == 2 and "rules import" in empty.output


# -- a renumbering and a change, in fixtures written here ------------------------------------





def test_a_renumbered_and_changed_rule_in_fixtures(tmp_path):
    db = str(tmp_path / "r.db")
    old = write_cr(tmp_path / "a.txt", "May 1, 2009", [
        ("310.2c", "A blocked creature will assign combat damage, divided as its controller "
                   "chooses, to the creatures blocking it.")], "310. Combat Damage Step")
    m10 = write_cr(tmp_path / "b.txt", "July 11, 2009", [
        ("510.1c", "A blocked creature assigns its combat damage to the creatures blocking "
                   "it, according to the damage assignment order announced for it.")],
        "510. Combat Damage Step")
    now = write_cr(tmp_path / "c.txt", "February 7, 2025", [
        ("510.1c", "A blocked creature assigns its combat damage to the creatures blocking "
                   "it, divided as its controller chooses among them.")],
        "510. Combat Damage Step")
    assert cli("rules", "import", str(now), str(old), str(m10), "--db", db).exit_code == 0
    found = history(db, "510.1c")
    assert [(v["in_force"], v["number"], v["status"]) for v in found["versions"]] == [
        ("2009-05-01", "310.2c", "first"),
        ("2009-07-11", "510.1c", "renumbered and changed"),
        ("2025-02-07", "510.1c", "changed")]
    assert found["versions"][1]["dated"] == {"on": "2009-07-11", "era": "m10"}
    assert found["versions"][2]["dated"] == {"on": "2024-11-08", "era": "foundations",
                                             "between": ["2009-07-11", "2025-02-07"]}
    assert found["versions"][2]["words"] == [
        {"op": "=", "text": "A blocked creature assigns its combat damage to the creatures "
                            "blocking it,"},
        {"op": "-", "text": "according to the damage assignment order announced for it."},
        {"op": "+", "text": "divided as its controller chooses among them."}]
    assert "gap" in found["versions"][2] and found["versions"][2]["gap"]


# -- --quote ----------------------------------------------------------------------------------


def test_quote_shows_the_words_of_an_imported_document(tmp_path):
    db = str(tmp_path / "r.db")
    m10 = write_cr(tmp_path / "m10.txt", "July 11, 2009", [
        ("510.1c", "A blocked creature assigns its combat damage to the creatures blocking "
                   "it.\nExample: an example that is not quoted."),
        ("510.2", "Second, all combat damage that's been assigned is dealt simultaneously.")],
        "510. Combat Damage Step")
    assert cli("rules", "import", str(m10), "--db", db).exit_code == 0
    run = cli("run", "giant-growth-vs-assignment-order", "--era", "m10", "--quote", "--db", db)
    assert run.exit_code == 0, run.output
    said = " ".join(run.output.split())
    assert ("\u201cSecond, all combat damage that's been assigned is dealt simultaneously."
            "\u201d (510.2, Comprehensive Rules 2009-07-11)") in said
    assert said.count("dealt simultaneously") == 1  # quoted the first time only
    assert "an example that is not quoted" not in said
    as_json = cli("run", "giant-growth-vs-assignment-order", "--era", "m10", "--quote",
                  "--db", db, "--json")
    quotes = json.loads(as_json.stdout)["quotes"]
    assert quotes["510.2"]["effective"] == "2009-07-11"
    assert quotes["509.1g"] is None  # not in the fixture: the number alone
    diff = cli("diff", "giant-growth-vs-assignment-order", "--quote", "--db", db, "--no-store")
    assert "dealt simultaneously" in diff.output
    assert "no imported document of fifth" in " ".join(diff.output.split())
    explored = cli("explore", "giant-growth-vs-assignment-order", "--era", "m10", "--quote",
                   "--db", db, "--no-store", "--json")
    assert explored.exit_code in (0, 1), explored.output
    assert "m10" in json.loads(explored.stdout)["quotes"]


def test_without_quote_no_quotes_key(tmp_path):
    plain = cli("run", "giant-growth-vs-assignment-order", "--era", "m10", "--json")
    assert "quotes" not in json.loads(plain.stdout)


# -- rules check ------------------------------------------------------------------------------


@needs_reference
def test_rules_check_finds_every_citation(all_texts):
    done = cli("rules", "check", "--db", all_texts, "--json")
    assert done.exit_code == 0, done.output
    report = {e["era"]: e for e in json.loads(done.output)["eras"]}
    for era in ("fifth", "sixth", "m10", "m11", "foundations"):
        assert report[era]["imported"] and report[era]["checked"] > 50, era
        assert not report[era]["missing"], report[era]["missing"]
    assert not report["dm-2021-09"]["imported"]


def test_rules_check_lists_what_is_missing(tmp_path):
    db = str(tmp_path / "r.db")
    m10 = write_cr(tmp_path / "m10.txt", "July 11, 2009", [("510.2", "Damage is dealt.")],
                   "510. Combat Damage Step")
    assert cli("rules", "import", str(m10), "--db", db).exit_code == 0
    done = cli("rules", "check", "--db", db)
    assert done.exit_code == 1
    # Every rule m10 cites is looked up, and only the one written above is found.
    looked = re.search(r"m10: (\d+) cited rules looked up in m10.txt: (\d+) not found",
                       " ".join(done.output.split()))
    assert looked and int(looked.group(1)) > 50
    assert int(looked.group(2)) == int(looked.group(1)) - 1
    assert "sixth: not checked" in done.output
    empty = cli("rules", "check", "--db", str(tmp_path / "none.db"))
    assert empty.exit_code == 2


# -- Duel Masters -----------------------------------------------------------------------------

# Written from the official rule-change page of 2021-09-07 (shared/reference/
# duel-masters-2021-09-07-official.txt), its 507.1 and 507.1a.
DM = ("デュエル・マスターズ 総合ゲームルール\n2021年9月7日更新\n\n"
      "507. ブロッククリーチャー指定ステップ\n"
      "507.1. 非ターン・プレイヤーは、攻撃先を変更する能力を使用するクリーチャーを選びます。\n"
      "507.1a ブロッカーやガードマンなど、攻撃先を変更する能力を使用したい場合、"
      "非ターン・プレイヤーはその能力を使用できる1体以上のクリーチャーを選びます。"
      "複数体を選ぶ場合は同時に選びます。\n")


def test_duel_masters_rules(tmp_path):
    db = str(tmp_path / "r.db")
    (tmp_path / "dm.txt").write_text(DM, encoding="utf-8")
    done = cli("rules", "import", str(tmp_path / "dm.txt"), "--db", db, "--json")
    assert json.loads(done.output)[0] | {"file": ""} == {
        "file": "", "kind": "総合ゲームルール", "game": "duel-masters", "effective": "2021-09-07",
        "rules": 2, "glossary": 0, "stored": 2, "release": None, "warnings": []}
    shown = json.loads(cli("rules", "show", "507.1a", "--era", "dm-2021-09", "--db", db,
                           "--json").output)
    assert shown["title"] == "507. ブロッククリーチャー指定ステップ"
    assert shown["text"].startswith("ブロッカーやガードマンなど")
    # Magic's rules are another game's: not read for a Duel Masters number.
    assert cli("rules", "show", "507.1a", "--db", db).exit_code == 2
    trail = history_of(db, "choose", "duel-masters")
    assert [v["number"] for v in trail["versions"]] == ["507.1a"]
    check = {e["era"]: e for e in json.loads(cli("rules", "check", "--db", db,
                                                  "--json").output)["eras"]}
    assert {m["cited"] for m in check["dm-2021-09"]["missing"]} >= {"507.2", "507.3a"}


def history_of(db: str, rule: str, game: str) -> dict:
    done = cli("history", rule, "--game", game, "--db", db, "--json")
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


# -- hostile files ------------------------------------------------------------------------------


def dump(db: Path) -> list:
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("rule_document", "rule_text", "rule_glossary")]


def hostile_files(tmp: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, what the one-line error must say, with its line)."""
    out = {}
    binary = tmp / "binary.txt"
    binary.write_bytes(HEAD.format("May 1, 2009").encode() + b"510.1 a\x00\x01\x02\xff\xfe\n")
    out["binary"] = (binary, ":5: a control character")
    long_line = tmp / "one-line.txt"
    with long_line.open("wb") as f:
        f.write(b"x" * (50 * 1024 * 1024))
    out["50 MB of one line"] = (long_line, ":1: a line of 52,428,800 characters")
    twice = write_cr(tmp / "twice.txt", "May 1, 2009", [("510.1", "One."), ("510.2", "Two."),
                                                         ("510.1", "One again.")],
                     "510. Combat Damage Step")
    out["duplicate numbers"] = (twice, ":11: rule 510.1 again (first at line 7)")
    cut = tmp / "truncated.txt"
    cut.write_text(HEAD.format("May 1, 2009") + "Contents\n\n510. Combat Damage Step\n"
                   "511. End of Combat Step\nGlossary\n\n510. Combat Damage Step\n\n510.1 "
                   "Damage is assigned.\n\n511. End of Combat", encoding="utf-8")
    out["truncated"] = (cut, "the file is truncated")
    empty = tmp / "empty.txt"
    empty.write_text("")
    out["empty"] = (empty, "not a rules text")
    return out


def test_hostile_files_are_refused_naming_file_and_line_and_store_nothing(tmp_path):
    db = tmp_path / "r.db"
    good = write_cr(tmp_path / "good.txt", "July 11, 2009", [("510.2", "Damage is dealt.")],
                    "510. Combat Damage Step")
    assert cli("rules", "import", str(good), "--db", str(db)).exit_code == 0
    before = dump(db)
    exe = [sys.executable, "-m", "comparator"]
    for name, (path, says) in hostile_files(tmp_path).items():
        done = subprocess.run([*exe, "rules", "import", str(good), str(path), "--db", str(db)],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "COLUMNS": "80"})
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, name
        assert done.stderr.startswith(f"rulesdiff: {path}"), (name, done.stderr)
        assert says in done.stderr, (name, done.stderr)
        assert dump(db) == before, name


@needs_reference
def test_a_real_text_cut_in_half_is_refused(tmp_path):
    text = (REFERENCE / "cr-2025-02-07.txt").read_text(encoding="utf-8")
    half = tmp_path / "half.txt"
    half.write_text(text[:len(text) // 2], encoding="utf-8")
    done = cli("rules", "import", str(half), "--db", str(tmp_path / "r.db"))
    assert done.exit_code == 2 and "truncated" in done.output
    assert not (tmp_path / "r.db").exists()


def test_a_summary_without_its_date_needs_one(tmp_path):
    text = ("This is the FINAL release under the FIFTH EDITION rules.\nAn open circle is used "
            "to mark changes since the last released version on 04/21/99.\nC - Combat Rules\n"
            "C.8 - Step 6: Damage Dealing\nC - Combat Rules\nC.8 - Step 6: Damage Dealing:\n"
            "C.8.1 - This step can be charted out as follows.\n")
    path = tmp_path / "summary.txt"
    path.write_text(text, encoding="utf-8")
    db = str(tmp_path / "r.db")
    refused = cli("rules", "import", str(path), "--db", db)
    assert refused.exit_code == 2 and "--date" in refused.output
    assert "04/21/99" in refused.output
    done = cli("rules", "import", str(path), "--date", "1999-05-16", "--db", db, "--json")
    assert json.loads(done.output)[0]["effective"] == "1999-05-16"
    with_header = tmp_path / "dated.txt"
    with_header.write_text("General Rulings Summary  Updated 05/16/99\n" + text.replace(
        "charted out", "charted"), encoding="utf-8")
    dated = cli("rules", "import", str(with_header), "--db", db, "--json")
    assert json.loads(dated.output)[0]["effective"] == "1999-05-16"


# -- the schema ---------------------------------------------------------------------------------


def test_a_version_5_store_is_upgraded(tmp_path):
    db = tmp_path / "r.db"
    good = write_cr(tmp_path / "good.txt", "July 11, 2009", [("510.2", "Damage is dealt.")],
                    "510. Combat Damage Step")
    assert cli("rules", "import", str(good), "--db", str(db)).exit_code == 0
    with sqlite3.connect(db) as conn:  # back to the schema of version 5
        conn.execute("DROP TABLE rule_glossary")
        conn.execute("ALTER TABLE rule_document DROP COLUMN game")
        conn.execute("ALTER TABLE rule_document DROP COLUMN kind")
        conn.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
        conn.execute("DELETE FROM meta WHERE key = 'migration:6-rule-kinds-and-glossary'")
    shown = cli("rules", "show", "510.2", "--db", str(db), "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["kind"] == "Comprehensive Rules"
    with sqlite3.connect(db) as conn:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["schema_version"] == "9" and "migration:6-rule-kinds-and-glossary" in meta


# -- the shipped index and the transcript ---------------------------------------------------------


def test_the_shipped_citations_index_is_current():
    from comparator.rules.citations import build, shipped

    assert shipped() == build(), ("data/shipped-citations.json is stale: "
                                  "python -m comparator.rules.citations")


@needs_reference
def test_docs_history_transcript_is_what_rulesdiff_prints(tmp_path):
    for path in [*(REFERENCE / f"cr-{d}.txt" for d in FULL), REFERENCE / SUMMARY]:
        (tmp_path / path.name).symlink_to(path)
    doc = (ROOT / "docs" / "history.md").read_text(encoding="utf-8")
    blocks = re.findall(r"<!-- transcript -->\n```\n\$ rulesdiff (.*?)\n(.*?)\n```", doc,
                        re.S)
    assert len(blocks) >= 5
    for command, shown in blocks:
        done = subprocess.run([sys.executable, "-m", "comparator", *command.split()],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "COLUMNS": "80"})
        assert (done.stdout + done.stderr).rstrip("\n") == shown, command


# -- what a review found ------------------------------------------------------------------------


@needs_reference
def test_only_the_era_s_own_text_numbers_its_rules(tmp_path):
    """With only the 2022 and 2025 texts, m11's numbers (of 2010) are read nowhere: the
    trail of trample is found by its words, never in 702.17b of 2022 (reach)."""
    db = str(tmp_path / "r.db")
    assert cli("rules", "import", str(REFERENCE / "cr-2022-04-29.txt"),
               str(REFERENCE / "cr-2025-02-07.txt"), "--db", db).exit_code == 0
    trail = history(db, "trample")
    assert [v["number"] for v in trail["versions"]] == ["702.19b", "702.19b"]
    shown = cli("rules", "show", "702.17b", "--era", "m11", "--db", db)
    assert shown.exit_code == 2 and "not imported" in shown.output
    # A citation naming its own text (m11's "702.19c (CR 2022-04-29)") is read there only.
    quoted = cli("run", "trample-over-planeswalkers-past-the-walker", "--era", "m11",
                 "--quote", "--db", db, "--json")
    quotes = json.loads(quoted.stdout)["quotes"]
    assert "planeswalker" in quotes["702.19c (CR 2022-04-29)"]["text"]


@needs_reference
@pytest.mark.parametrize("rule, number", [("trample", "702.19b"), ("first strike", "510.4"),
                                          ("lifelink", "702.15b")])
def test_with_no_era_s_own_text_another_table_s_number_where_its_words_name_it(
        tmp_path, rule, number):
    """With only the text of 2022, which no era cites, a key is read at the number the era
    whose text is nearest gives it (foundations'), where the words there name the key;
    m11's 702.17b is reach there, never linked."""
    db = str(tmp_path / "r.db")
    assert cli("rules", "import", str(REFERENCE / "cr-2022-04-29.txt"), "--db",
               db).exit_code == 0
    trail = history(db, rule)
    assert [(v["effective"], v["number"], v["status"]) for v in trail["versions"]] == [
        ("2022-04-29", number, "first")]
    assert trail["versions"][0]["evidence"].startswith(f"the foundations rules table's "
                                                       f"{number}")
    # A key no table numbers so in this text, and whose words are nowhere: no trail.
    assert cli("history", "deathtouch", "--db", db).exit_code == 2


@needs_reference
def test_a_dated_citation_is_not_read_in_another_text(tmp_path):
    db = str(tmp_path / "r.db")
    assert cli("rules", "import", str(REFERENCE / "cr-2010-07-16.txt"), "--db",
               db).exit_code == 0
    quoted = cli("run", "trample-over-planeswalkers-past-the-walker", "--era", "m11",
                 "--quote", "--db", db, "--json")
    assert json.loads(quoted.stdout)["quotes"]["702.19c (CR 2022-04-29)"] is None


def test_an_unknown_rule_is_not_a_damaged_store(tmp_path):
    db = str(tmp_path / "r.db")
    done = cli("history", "first-stroke", "--db", db)
    assert done.exit_code == 2 and "damaged" not in done.output
    assert "neither a rule number" in done.output


@needs_reference
def test_rules_show_follows_a_number_into_the_summary(all_texts):
    shown = cli("rules", "show", "510.1c", "--era", "fifth", "--db", all_texts)
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("C.8.5 — the Fifth Edition rulings summary")


def test_a_copy_dated_again_takes_the_new_date(tmp_path):
    path = tmp_path / "summary.txt"
    path.write_text("This is the FINAL release under the FIFTH EDITION rules.\nC - Combat "
                    "Rules\nC.8 - Step 6: Damage Dealing\nC.8.1 - This step.\n",
                    encoding="utf-8")
    db = str(tmp_path / "r.db")
    assert cli("rules", "import", str(path), "--date", "1999-04-21", "--db", db).exit_code == 0
    again = cli("rules", "import", str(path), "--date", "1999-05-16", "--db", db)
    assert "imported before as effective 1999-04-21: its date is now 1999-05-16" in " ".join(
        again.output.split())
    shown = json.loads(cli("rules", "show", "C.8.1", "--db", db, "--json").output)
    assert shown["effective"] == "1999-05-16"
