"""Duel Masters' 総合ゲームルール as the reader meets it: often a rule-change page, or a
compiler's copy of one, where the rules stand among the page's own sentences. A rule keeps
its own words only (the line after its number, and the lines that continue it); the
page's announcements, markers, URLs and the compiler's notes are no rule's words; an
example ("例:") is kept apart from the words. A copy that says no date is refused with one
line naming --date. The official page is read from ../shared/reference/ where it is beside
the repo, else those tests skip; the small texts are written here."""

import json
import re
import unicodedata
from datetime import date
from pathlib import Path

import pytest

from comparator.rules.document import NotRulesText, is_example, without_examples
from comparator.rules.reading import read_rules

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
PAGE = REFERENCE / "duel-masters-2021-09-07-official.txt"
needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason="shared/reference is not beside the repo")
# 507.1a as the page prints it (its line 16), and the start of its example (line 17).
WORDS_507_1A = (
    "ブロッカーやガードマンなど、攻撃先を変更する能力を使用したい場合、非ターン・プレイヤーは"
    "その能力を使用できる1体以上のクリーチャーを選びます。複数体を選ぶ場合は同時に選びます。"
    "選ぶクリーチャーは、適正にその能力を使用できる状態でなければいけません。攻撃先を変更する"
    "能力を使用するために何らかの条件を必要とするクリーチャーは、その条件を満たせない状態では"
    "選ぶことができません。")
EXAMPLE_507_1A = "例:ブロッカーを持つタップ状態のクリーチャーを、能力"


def _cli(*args):
    from typer.testing import CliRunner

    from comparator.cli.main import app

    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def _numbered_lines(text: str) -> dict[str, str]:
    """Each line of the page that starts with a rule's number, the number and the rest:
    read here without the reader."""
    found = (re.match(r"^(\d{3}\.\d+[a-z]?)\.?\s+(.*)$", line) for line in text.split("\n"))
    return {m.group(1): m.group(2) for m in found if m}


# -- the official page of 2021-09-07 ----------------------------------------------------------


@needs_reference
def test_the_page_is_dated_by_its_title():
    """The page says no 年月日: its title, "変更点(2021.09.07)", is its date; the other
    changes it names (its section [C]) are not, and the warnings say so."""
    doc = read_rules(_page())
    assert doc.effective == date(2021, 9, 7)
    title = next(n for n, line in enumerate(_page().split("\n"), 1) if "変更点(2021.09.07)" in line)
    said = next(w for w in doc.warnings if "変更点(2021.09.07)" in w)
    assert said.startswith(f"line {title}: dated 2021-09-07 by its 変更点(2021.09.07); ")
    assert "変更点(2018.03.02)" in said and "are not its date" in said
    # Without its title, the page says no date: --date is named.
    with pytest.raises(NotRulesText) as refused:
        read_rules(_page().replace("変更点(", "変更("))
    message = str(refused.value)
    assert "--date" in message and "年月日" in message and "\n" not in message


@needs_reference
def test_each_rule_keeps_its_own_words_only():
    doc = read_rules(_page(), date(2021, 9, 7))
    assert doc.effective == date(2021, 9, 7) and doc.game == "duel-masters"
    on_page = _numbered_lines(_page())
    assert list(doc.rules) == ["803.1c", "803.1d", "801.1b", "507.1", "507.1a"]
    # Each rule but 507.1a is its one line on the page: the announcement under 803.1d
    # ("...記載を追加しました。") and under 801.1b are not glued on.
    for number in ("803.1c", "803.1d", "801.1b", "507.1"):
        assert doc.rules[number].text == on_page[number], number
    rule = doc.rules["507.1a"]
    assert rule.text == f"{WORDS_507_1A}\n{EXAMPLE_507_1A}"
    assert without_examples(rule.text) == WORDS_507_1A == on_page["507.1a"]
    assert rule.title == "507. ブロッククリーチャー指定ステップ"
    every = "\n".join(r.text for r in doc.rules.values())
    for note in ("しました。", "excerpt", "NOT", "retrieved", "dmwiki", "http", "■", "[A]"):
        assert note not in every, note


@needs_reference
def test_what_was_left_out_is_said():
    doc = read_rules(_page(), date(2021, 9, 7))
    lines = _page().split("\n")
    cut = next(n for n, line in enumerate(lines, 1) if line.endswith("[...excerpt ends]")
               and line.startswith("例:"))
    # Announcements right under a rule's line (the first, under "■...", is under none),
    # and the compiler's note under 507.1a's example.
    notes = [n for n, line in enumerate(lines, 1) if line.endswith("しました。")
             and re.match(r"\d{3}\.\d", lines[n - 2])] + [cut + 1]
    assert lines[cut].startswith("(507.2 / 507.3")
    assert any(w.startswith(f"line {cut}: an example of 507.1a is cut short") for w in
               doc.warnings), doc.warnings
    assert any(w.startswith(f"lines {', '.join(map(str, notes))}: ") for w in doc.warnings)


@needs_reference
def test_import_and_show_print_the_words_and_no_note(tmp_path):
    db = str(tmp_path / "dm.db")
    done = _cli("rules", "import", str(PAGE), "--db", db, "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)[0]["rules"] == 5
    shown = _cli("rules", "show", "507.1a", "--game", "duel-masters", "--db", db)
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    body = "".join(line.strip() for line in lines[3:])  # after the heading lines
    assert body == WORDS_507_1A + EXAMPLE_507_1A
    for line in lines:  # wrapped by display columns: a Japanese character takes two
        assert sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line) <= 80
    as_json = json.loads(_cli("rules", "show", "507.1a", "--game", "duel-masters", "--db", db,
                              "--json").stdout)
    assert as_json["text"] == f"{WORDS_507_1A}\n{EXAMPLE_507_1A}"


# -- small texts --------------------------------------------------------------------------------

HEAD = ("デュエル・マスターズ 総合ゲームルール\n2021年9月7日更新\n\n"
        "507. ブロッククリーチャー指定ステップ\n")


def test_a_rule_and_the_page_around_it():
    doc = read_rules(HEAD + (
        "507.1. 非ターン・プレイヤーは、クリーチャーを選びます。\n"
        "選ばない場合は、次のステップに進みます。\n"  # its own words, continued
        "例:ブロッカーを持つクリーチャーを選びます。\n"
        "507.1a ブロッカーを使用できます。\n"
        "ガードマンに関して、記載を修正しました。\n"  # an announcement
        "この行は告知の続きです。\n"  # below the announcement: not 507.1a's
        "507.1b 同時に選びます。\n"
        "(507.2 full wording NOT retrieved.)\n"  # the compiler's note
        "507.1c 選ぶことができません。\n"
        "■総合ゲームルール更新箇所\n"
        "507.1d 状態でなければいけません。\n"
        "URL: https://dm.takaratomy.co.jp/rule/\n"
        "507.1e 能力を使用します。\n"
        "\n"
        "この段落は規則の外にあります。\n"  # below a blank line: not 507.1e's
        "507.1f 能力 [...excerpt ends]\n"))
    words = {n: without_examples(r.text) for n, r in doc.rules.items()}
    assert words == {
        "507.1": "非ターン・プレイヤーは、クリーチャーを選びます。"
                 "選ばない場合は、次のステップに進みます。",
        "507.1a": "ブロッカーを使用できます。", "507.1b": "同時に選びます。",
        "507.1c": "選ぶことができません。", "507.1d": "状態でなければいけません。",
        "507.1e": "能力を使用します。", "507.1f": "能力"}
    assert [line for line in doc.rules["507.1"].text.split("\n") if is_example(line)] == [
        "例:ブロッカーを持つクリーチャーを選びます。"]
    assert doc.warnings == [
        "line 20: 507.1f is cut short in this copy (at '[...excerpt ends]'): the words that "
        "followed are missing",
        "lines 9, 12, 14, 16: the page's own notes under a rule (announcements, markers, the "
        "compiler's notes): no rule's words, left out"]


def test_a_text_without_its_date_names_the_option():
    text = "デュエル・マスターズ 総合ゲームルール\n\n507.1. 非ターン・プレイヤーは選びます。\n"
    with pytest.raises(NotRulesText) as refused:
        read_rules(text)
    assert "--date" in str(refused.value) and refused.value.line is None
    assert read_rules(text, date(2021, 9, 7)).effective == date(2021, 9, 7)
    # A date the text states is its own, whatever is given.
    assert read_rules(HEAD + "507.1. 選びます。\n", date(2020, 1, 1)).effective == \
        date(2021, 9, 7)


def test_an_impossible_date_is_refused_on_its_line():
    with pytest.raises(NotRulesText) as refused:
        read_rules(HEAD.replace("9月7日", "13月7日") + "507.1. 選びます。\n")
    assert refused.value.line == 2 and "2021年13月7日" in str(refused.value)
