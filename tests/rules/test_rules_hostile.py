"""Hostile input, third round (issue 49), the rules' texts: each case runs as a real process
under a timeout and a 2 GiB address-space cap, and answers as the rest of rulesdiff does:
one line on stderr naming the file (or path) and the cause, exit 2, the store as it was,
no traceback, no raw control character; and what took minutes is bounded.

- `history` of two texts whose rule is 2,000 repeated words (88 s in the word diff):
  difflib's search is bounded; past the bound the words are said removed and added whole,
  with why;
- a rule or a glossary entry wrapped over 200,000 lines (joined quadratically): joined
  linearly, and refused past a stated length;
- a rulings summary numbering one ruling 30,000 times (70 s), a glossary of a million terms
  (114 s, 2.9 GB), more rules than any text has: refused by a stated bound;
- C1 controls and characters that reorder text (U+202E): refused at import, naming the file
  and the line; a store holding them (imported before) prints them escaped, in JSON as
  \\u escapes, while Japanese stays Japanese;
- a path with a component longer than the system allows: one line, nothing created.

The big inputs are written at run time; the two small ones are tests/hostile/rules-*.txt."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest

# What must never reach a terminal raw, and a clean exit: tests/test_hostile_round2.py's.
from test_hostile_round2 import RAW
from test_hostile_round2 import clean_exit as round2_clean_exit

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"

FAST = 10  # seconds: each case takes one or two (was a minute or more); slack for busy CI
HEAD = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of {}."
        "\n\n5. Turn Structure\n\n510. Combat Damage Step\n\n")


def _capped() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


def rulesdiff(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The command as its own process, under a 2 GiB address-space cap and a clock; its
    wall time is kept on the result (`elapsed`)."""
    exe = shutil.which("rulesdiff")
    cmd = [exe, *args] if exe else [sys.executable, "-m", "comparator", *args]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=cwd,
                          stdin=subprocess.DEVNULL, errors="replace", preexec_fn=_capped,
                          env={**os.environ, "COLUMNS": "80"})
    done.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
    return done


def clean_exit(result: subprocess.CompletedProcess[str], *, code: int | None = None) -> str:
    """The second round's clean exit (no traceback, no raw control character), in time."""
    out = round2_clean_exit(result, code=code)
    assert result.elapsed < FAST, result.elapsed  # type: ignore[attr-defined]
    return out


def refused(result: subprocess.CompletedProcess[str], path: Path | str, says: str) -> str:
    """One line on stderr, naming the file and the cause; exit 2; nothing on stdout."""
    clean_exit(result, code=2)
    assert result.stderr.count("\n") == 1, result.stderr[-2000:]
    assert result.stderr.startswith(f"rulesdiff: {path}"), result.stderr[:300]
    assert says in result.stderr, result.stderr[:500]
    assert not result.stdout
    return result.stderr


def dump(db: Path) -> list:
    with sqlite3.connect(db) as conn:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
                for t in ("rule_document", "rule_text", "rule_glossary")]


@pytest.fixture
def store(tmp_path):
    """A store holding one good text: a refused import must leave it as it was."""
    good = tmp_path / "good.txt"
    good.write_text(HEAD.format("May 1, 2009") + "510.2 Damage is dealt.\n", encoding="utf-8")
    db = tmp_path / "rules.db"
    clean_exit(rulesdiff("rules", "import", str(good), "--db", str(db)), code=0)
    return db


def refused_import(db: Path, path: Path, says: str) -> str:
    before = dump(db)
    said = refused(rulesdiff("rules", "import", str(path), "--db", str(db)), path, says)
    assert dump(db) == before
    return said


# -- 1. the word diff of repeated words ------------------------------------------------------


def test_history_of_two_rules_of_repeated_words_is_fast_and_says_why(tmp_path):
    old, new = tmp_path / "old.txt", tmp_path / "new.txt"
    old.write_text(HEAD.format("July 11, 2009") + "510.1c " + " ".join(["damage"] * 2000)
                   + "\n", encoding="utf-8")
    new.write_text(HEAD.format("July 16, 2010") + "510.1c "
                   + " ".join(["damage", "combat"] * 1000) + "\n", encoding="utf-8")
    db = tmp_path / "r.db"
    clean_exit(rulesdiff("rules", "import", str(old), str(new), "--db", str(db)), code=0)
    said = clean_exit(rulesdiff("history", "510.1c", "--db", str(db)), code=0)
    assert "not marked word by word: 2,000 and 2,000 words" in " ".join(said.split())
    found = json.loads(clean_exit(rulesdiff("history", "510.1c", "--db", str(db), "--json"),
                                  code=0))
    changed = found["versions"][1]
    assert changed["status"] == "changed"
    assert changed["words_unmarked"].startswith("not marked word by word")
    assert found["versions"][0]["words_unmarked"] is None
    # The words are all there: the old ones kept or removed, the new ones kept or added.
    words = changed["words"]
    assert " ".join(w["text"] for w in words if w["op"] != "+").split() == ["damage"] * 2000
    assert " ".join(w["text"] for w in words if w["op"] != "-").split() == \
        ["damage", "combat"] * 1000


def test_a_word_changed_among_thousands_alike_is_still_marked():
    from comparator.rules.history import compared_words

    old = " ".join(["damage"] * 5000 + ["blocked"] + ["damage"] * 5000)
    new = " ".join(["damage"] * 5000 + ["blocking"] + ["damage"] * 5000)
    start = time.perf_counter()
    words, why = compared_words(old, new)
    assert time.perf_counter() - start < 2
    assert why is None  # the words between their alike start and end were matched
    assert [(w["op"], w["text"]) for w in words if w["op"] != "="] == \
        [("-", "blocked"), ("+", "blocking")]


def test_words_are_matched_as_difflib_matches_them_within_the_bound():
    # The published texts' rules take at most 23,669 steps of the 500,000: what they show
    # is difflib's own diff, unchanged.
    import difflib
    import random

    from comparator.rules.history import WORK, _Bounded

    assert WORK >= 20 * 23_669
    rng = random.Random(49)
    vocabulary = ["the", "a", "creature", "damage", "blocking", "blocked", "attacking",
                  "player", "assigns", "deals", "combat", "of", "to", "its", "order", "lethal",
                  "trample", "any", "each"]
    for _ in range(200):
        a = [rng.choice(vocabulary) for _ in range(rng.randint(0, 400))]
        b = [w if rng.random() < 0.8 else rng.choice(vocabulary) for w in a]
        b = b[:rng.randint(0, len(b))] + [rng.choice(vocabulary) for _ in range(9)]
        bounded = _Bounded(a, b)
        assert bounded.get_opcodes() == \
            difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        assert not bounded.unmatched


def test_likeness_of_repeated_words_is_bounded():
    from comparator.rules.history import _likeness, _overlap

    a = " ".join(["damage"] * 3000)
    b = " ".join(["damage", "combat"] * 1500)
    start = time.perf_counter()
    assert 0 <= _likeness(a, b) <= 1 and 0 <= _overlap(a, b) <= 1
    assert time.perf_counter() - start < 2


# -- 2. wrapped over 200,000 lines -----------------------------------------------------------


@pytest.mark.parametrize(("layout", "says"), [
    ("rule", "rule 510.1c (from line 9) runs on past 100,000 characters"),
    ("glossary", "the glossary entry 'Trample' (from line 13) runs on past 100,000"),
    ("glossary of 1999", "the glossary entry 'Trample' (from line 13) runs on past 100,000"),
])
def test_a_text_wrapped_over_200000_lines_is_refused_by_a_stated_bound(tmp_path, store,
                                                                        layout, says):
    text = tmp_path / f"{layout.replace(' ', '-')}.txt"
    wrapped = "\n".join([("  word" if "1999" in layout else "word")] * 200_000)
    if layout == "rule":
        body = f"510.1c start\n{wrapped}\n"
    else:
        body = f"510.1c words.\n\nGlossary\n\nTrample\n{wrapped}\n"
    text.write_text(HEAD.format("July 11, 2009") + body, encoding="utf-8")
    refused_import(store, text, says)


@pytest.mark.parametrize("layout", ["rule", "glossary", "glossary of 1999"])
def test_lines_are_joined_in_linear_time(monkeypatch, layout):
    # With the bound lifted, 200,000 wrapped lines are read in a second (joined line by
    # line, they took seconds, and 4 times longer for twice the lines).
    import comparator.rules.reading as reading

    monkeypatch.setattr(reading, "MAX_WORDS", 10**9)
    wrapped = "\n".join([("  word" if "1999" in layout else "word")] * 200_000)
    body = (f"510.1c start\n{wrapped}\n" if layout == "rule" else
            f"510.1c words.\n\nGlossary\n\nTrample\n{wrapped}\n")
    start = time.perf_counter()
    doc = reading.read_rules(HEAD.format("July 11, 2009") + body)
    assert time.perf_counter() - start < 3
    if layout == "rule":
        assert doc.rules["510.1c"].text == "start " + " ".join(["word"] * 200_000)
    else:
        joint = " " if "1999" in layout else "\n"
        assert doc.glossary["Trample"] == joint.join(["word"] * 200_000)


# -- 3. and 4. numbers repeated, a million terms, more rules than any text ---------------------


def test_a_summary_repeating_one_number_30000_times_is_refused(tmp_path, store):
    summary = tmp_path / "summary.txt"
    summary.write_text("Fifth Edition General Rulings Summary\nUpdated 05/16/99\n\n"
                       "C - Combat Rules\n\nC.8 - Step 6: Damage Dealing\n\n"
                       + "".join(f"C.8.1 - A ruling {i}.\n" for i in range(30_000)),
                       encoding="utf-8")
    refused_import(store, summary, ":109: C.8.1 again (first at line 8): more than 100 "
                                   "rulings numbered again")


def test_a_summary_numbering_rulings_again_keeps_each_in_linear_time():
    from comparator.rules.rulings_summary import MAX_AGAIN, read_rulings_summary

    lines = ["Fifth Edition General Rulings Summary", "Updated 05/16/99", "",
             "C.8 - Step 6: Damage Dealing", *[f"C.8.1 - A ruling {i}." for i in range(3)],
             *[f"Note - note {i}" for i in range(5000)],
             *[f"C.8.2 - A ruling {i}." for i in range(MAX_AGAIN - 1)]]
    start = time.perf_counter()
    doc = read_rulings_summary(lines)
    assert time.perf_counter() - start < 2
    assert [n for n in doc.rules if n.startswith("C.8.1")] == ["C.8.1", "C.8.1#2", "C.8.1#3"]
    assert "C.8.Note#5000" in doc.rules and f"C.8.2#{MAX_AGAIN - 1}" in doc.rules
    assert doc.warnings[0] == "line 6: C.8.1 again (first at line 5), a different ruling: " \
                              "kept as C.8.1#2"


def _glossary_of(terms: int) -> str:
    return "510.1c words.\n\nGlossary\n\n" + "\n\n".join(f"Term{i}\nWords {i}."
                                                        for i in range(terms)) + "\n"


@pytest.mark.parametrize(("what", "body", "says"), [
    ("a million glossary terms", lambda: _glossary_of(1_000_000),
     ": 3,000,012 lines: no rules text has more than 500,000"),
    ("20,000 glossary terms", lambda: _glossary_of(20_000),
     ":30013: more than 10,000 glossary entries"),
    ("a million rules", lambda: "\n".join(f"{100 + i % 800}.{i} Words {i}."
                                          for i in range(1_000_000)) + "\n",
     ": 1,000,009 lines: no rules text has more than 500,000"),
    ("40,000 rules", lambda: "\n".join(f"{100 + i % 800}.{i} Words {i}."
                                       for i in range(40_000)) + "\n",
     ":20009: more than 20,000 numbered rules"),
])
def test_more_than_any_text_has_is_refused_by_a_stated_bound(tmp_path, store, what, body,
                                                             says):
    text = tmp_path / f"{what.replace(' ', '-').replace(',', '')}.txt"
    text.write_text(HEAD.format("July 11, 2009") + body(), encoding="utf-8")
    refused_import(store, text, says)


# -- 5. C1 controls and bidi overrides -------------------------------------------------------


@pytest.mark.parametrize(("name", "says"), [
    ("rules-bidi-override.txt", ":11: a character that reorders the text around it (U+202E)"),
    ("rules-c1-control.txt", ":11: a C1 control character (U+009B)"),
])
def test_c1_and_bidi_are_refused_at_import_naming_file_and_line(store, name, says):
    refused_import(store, HOSTILE / name, says)


@pytest.fixture
def tampered(tmp_path):
    """A store holding C1 controls, a bidi override and Japanese in a rule's words, as an
    import before this round kept them (written here past the reader, which refuses
    them now)."""
    from comparator.rules.document import DUEL_MASTERS, SOGO, Rule, RulesText
    from comparator.rules.store import import_document
    from comparator.store.database import open_engine

    db = tmp_path / "tampered.db"
    engine = open_engine(str(db))
    for day, word in ((date(2009, 7, 11), "evil"), (date(2010, 7, 16), "good")):
        doc = RulesText(day)
        doc.rules["510.1c"] = Rule(
            "510.1c", f"{word} \u202eright-to-left\u202c and \x9b31mred\x9b0m, \x85, "
                      f"\u200b\u2066ok\u2069 日本語の文", "5. Turn Structure",
            "510. Combat Damage Step", 9)
        doc.glossary["Trample"] = "Tr\x9bample \u202eelpmart"
        import_document(engine, doc, f"cr-{day}.txt", f"text of {day}")
    japanese = RulesText(date(2021, 9, 7), kind=SOGO, game=DUEL_MASTERS)
    japanese.rules["507.1a"] = Rule("507.1a", "攻撃クリーチャーがブロックされた場合、"
                                    "バトルを行います。", "5. ターンの進行",
                                    "507. ブロック・ステップ", 5)
    import_document(engine, japanese, "dm.txt", "japanese")
    engine.dispose()
    return db


@pytest.mark.parametrize("args", [
    ["rules", "show", "510.1c"], ["rules", "show", "510.1c", "--json"],
    ["rules", "show", "trample"], ["rules", "show", "trample", "--json"],
    ["history", "510.1c"], ["history", "510.1c", "--json"],
])
def test_a_store_holding_them_prints_them_escaped(tampered, args):
    out = clean_exit(rulesdiff(*args, "--db", str(tampered)), code=0)
    assert "日本語の文" in out or "trample" in args  # Japanese as Japanese
    if "--json" in args:
        found = json.loads(out)  # still JSON, the same words to a reader
        text = found["text"] if "show" in args else found["versions"][1]["text"]
        assert "\u202e" in text and ("\x9b" in text)
        assert "\\u202e" in out and "\\u009b" in out
    else:
        assert "\\u202e" in out and "\\x9b" in out


def test_japanese_prints_as_japanese(tampered):
    for args in (["rules", "show", "507.1a", "--game", "duel-masters"],
                 ["rules", "show", "507.1a", "--game", "duel-masters", "--json"],
                 ["history", "507.1a", "--game", "duel-masters", "--json"]):
        out = clean_exit(rulesdiff(*args, "--db", str(tampered)), code=0)
        assert "攻撃クリーチャーがブロックされた場合" in out and "\\u" not in out


def test_shown_json_escapes_only_what_a_terminal_obeys():
    from comparator.text.encoding import shown_json

    data = {"t": "a\x7f\x85\x9b\u061c\u200b\u200e\u2028\u202e\u2066\ufeff 日本語 é \t\n\x1b"}
    said = shown_json(data)
    assert json.loads(said) == data
    assert not RAW.search(said) and "\ufeff" not in said
    assert "日本語 é" in said


def test_colours_are_the_only_escapes_printed(capsys, monkeypatch):
    # In a terminal, history's marked words are coloured: the words made safe, then
    # coloured (the colours were shown as "\x1b[31m" text, escaped with the words).
    from comparator.cli.rules import _say_marked

    monkeypatch.setenv("COLUMNS", "40")
    _say_marked([{"op": "=", "text": "kept words"}, {"op": "-", "text": "old \x9bwords"},
                 {"op": "+", "text": "new \u202ewords " + "and more " * 8}], colour=True)
    out = capsys.readouterr().out
    assert "\x1b[31m" in out and "\x1b[32m" in out and "\\x1b" not in out
    assert "\\x9b" in out and "\\u202e" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert not RAW.search(plain)
    assert all(len(line) <= 40 for line in plain.splitlines())
    assert " ".join(plain.split()) == ("kept words old \\x9bwords new \\u202ewords "
                                       + "and more " * 8).strip()


# -- 6. a path component too long ------------------------------------------------------------


@pytest.mark.parametrize("where", ["file", "file in a folder", "--git", "--db folder",
                                   "--db file"])
def test_a_path_component_too_long_is_one_line_and_creates_nothing(tmp_path, where):
    good = tmp_path / "good.txt"
    good.write_text(HEAD.format("May 1, 2009") + "510.2 Damage is dealt.\n", encoding="utf-8")
    long = "x" * 300
    db = tmp_path / "r.db"
    path = {"file": tmp_path / f"{long}.txt", "file in a folder": tmp_path / long / "f.txt",
            "--git": tmp_path / long, "--db folder": tmp_path / long / "r.db",
            "--db file": tmp_path / f"{long}.db"}[where]
    if where == "--git":
        args = ["--git", str(path), "--db", str(db)]
    elif where.startswith("--db"):
        args = [str(good), "--db", str(path)]
    else:
        args = [str(path), "--db", str(db)]
    said = clean_exit(rulesdiff("rules", "import", *args), code=2)
    assert said.count("\n") == 1 and str(path) in said and "File name too long" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.txt"]
    if where.startswith("--db"):
        for command in (["rules", "show", "510.2"], ["history", "510.2"],
                        ["rules", "check"]):
            said = clean_exit(rulesdiff(*command, "--db", str(path)), code=2)
            assert said.count("\n") == 1 and "File name too long" in said
        assert sorted(p.name for p in tmp_path.iterdir()) == ["good.txt"]
