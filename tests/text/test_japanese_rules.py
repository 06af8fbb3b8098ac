"""The rules' own texts under `--lang ja` (issue 52): Duel Masters' 総合ゲームルール read from
its official change page (dated by its title, "変更点(2021.09.07)") and shown; `history`
and `--quote` give the Japanese words where a Japanese text (総合ルール) of the date is
imported, the English otherwise, and say which; `rules import/show/check` and `history`
speak Japanese; the JSON of each is the same in every language. The fixtures are in
tests/fixtures/rules-ja/ (their README says where their words are from); the English
Comprehensive Rules are read from ../shared/reference/, and the tests that need them skip
without it."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.rules.reading import read_rules
from comparator.text.terminal import columns

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "rules-ja"
DM_TEXT = FIXTURES / "dm-2021-09-07-excerpt.txt"
JA_TEXT = FIXTURES / "cr-ja-2025-02-07-excerpt.txt"
REFERENCE = ROOT.parent / "shared" / "reference"
ENGLISH = ("cr-2022-04-29.txt", "cr-2025-02-07.txt")
# 507.1a as the official page prints it (reference/duel-masters-2021-09-07-official.txt).
WORDS_507_1A = (
    "ブロッカーやガードマンなど、攻撃先を変更する能力を使用したい場合、非ターン・プレイヤーは"
    "その能力を使用できる1体以上のクリーチャーを選びます。")
# 509.1h and 509.1g as MTG Wiki quotes the 総合ルール (seeds/000_*.txt).
WORDS_509_1H = "ブロック・クリーチャーとして指定されたクリーチャーが1体以上存在する攻撃"
WORDS_509_1G = "選ばれたクリーチャーがなお防御プレイヤーによってコントロールされている場合"
SCENARIO = "a-pump-for-each-blocker-against-a-triple-block"  # foundations cites 509.1g-h


def run(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1",
                                                    "LANG": "C.UTF-8"})


def flat(text: str) -> str:
    """The output without its wrapping (a line may break inside a Japanese word)."""
    return "".join(text.split())


def both(*args: str) -> tuple[str, str]:
    """A command's JSON in English and under --lang ja."""
    english, japanese = run(*args, "--json"), run(*args, "--json", "--lang", "ja")
    assert english.exit_code == japanese.exit_code, (english.output, japanese.output)
    return english.stdout, japanese.stdout


@pytest.fixture(autouse=True)
def _english_after():
    """A command run here speaks its --lang from then on, in this process: English again
    after each test."""
    from comparator.text.language import use

    yield
    use("en")


@pytest.fixture(scope="module")
def english_only(tmp_path_factory) -> str:
    if not all((REFERENCE / name).exists() for name in ENGLISH):
        pytest.skip("shared/reference is not beside the repo")
    db = str(tmp_path_factory.mktemp("en") / "rules.db")
    done = run("rules", "import", *[str(REFERENCE / name) for name in ENGLISH], "--db", db)
    assert done.exit_code == 0, done.output
    return db


@pytest.fixture(scope="module")
def with_japanese(tmp_path_factory) -> str:
    if not all((REFERENCE / name).exists() for name in ENGLISH):
        pytest.skip("shared/reference is not beside the repo")
    db = str(tmp_path_factory.mktemp("ja") / "rules.db")
    done = run("rules", "import", *[str(REFERENCE / name) for name in ENGLISH], str(JA_TEXT),
               "--db", db)
    assert done.exit_code == 0, done.output
    return db


# -- Duel Masters' 総合ゲームルール ----------------------------------------------------------


def test_the_change_page_is_read_and_dated_by_its_title():
    doc = read_rules(DM_TEXT.read_text(encoding="utf-8"))
    assert (doc.kind, doc.game, doc.effective) == ("総合ゲームルール", "duel-masters",
                                                   date(2021, 9, 7))
    assert list(doc.rules) == ["803.1c", "803.1d", "801.1b", "507.1", "507.1a"]
    assert doc.rules["507.1a"].text.startswith(WORDS_507_1A)
    assert doc.rules["507.1a"].title == "507. ブロッククリーチャー指定ステップ"
    # The page's announcements between its rules are no rule's words.
    assert not any("しました。" in r.text for r in doc.rules.values())


def test_a_date_written_first_is_the_texts_own():
    head = "デュエル・マスターズ 総合ゲームルール\n"
    rule = "\n507.1. 非ターン・プレイヤーは、攻撃先を変更する能力を使用する" \
        "クリーチャーを選びます。\n"
    assert read_rules(head + "変更点（2021.09.07）" + rule).effective == date(2021, 9, 7)
    assert read_rules(head + "2021年9月7日更新\n変更点(2018.03.02)" + rule).effective == \
        date(2021, 9, 7)
    doc = read_rules(head + "変更点(2021.09.07)\n変更点(2018.03.02)" + rule)
    assert doc.effective == date(2021, 9, 7)
    assert doc.warnings == ["line 2: dated 2021-09-07 by its 変更点(2021.09.07); the other "
                            "changes it names (変更点(2018.03.02)) are not its date"]


def test_dm_import_and_show(tmp_path):
    db = str(tmp_path / "dm.db")
    imported = run("rules", "import", str(DM_TEXT), "--db", db, "--lang", "ja")
    assert imported.exit_code == 0, imported.output
    said = flat(imported.output)
    assert "2021-09-07発効の総合ゲームルール：規則5件と用語集の項目0件を保存した" in said
    # Its warning, in Japanese too: the page's announcements were left out.
    assert "8,10行目：規則の下にあるページ自身の記述" in said
    for game in ("duel_masters", "duel-masters"):
        shown = run("rules", "show", "507.1a", "--game", game, "--db", db, "--lang", "ja")
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        assert lines[0] == "507.1a — 2021-09-07発効の総合ゲームルール（dm-2021-09-07-excerpt.txt）"
        assert lines[1] == "  507. ブロッククリーチャー指定ステップ"
        assert WORDS_507_1A in flat(shown.output)
        assert "インポートされていない" not in shown.output  # the text is Japanese
        assert all(columns(line) <= 80 for line in lines)
    english = run("rules", "show", "507.1a", "--game", "duel_masters", "--db", db)
    assert english.output.startswith("507.1a — the 総合ゲームルール effective 2021-09-07")
    assert WORDS_507_1A in flat(english.output)  # the words are the text's own
    assert json.loads(run("rules", "show", "507.1a", "--game", "duel-masters", "--db", db,
                          "--json").stdout)["kind"] == "総合ゲームルール"


def test_dm_json_is_the_same_in_every_language(tmp_path):
    a, b = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    english = run("rules", "import", str(DM_TEXT), "--db", a, "--json")
    japanese = run("rules", "import", str(DM_TEXT), "--db", b, "--json", "--lang", "ja")
    assert json.loads(english.stdout) == json.loads(japanese.stdout)
    assert json.loads(english.stdout)[0]["effective"] == "2021-09-07"
    for args in (("rules", "show", "507.1", "--game", "duel-masters", "--db", a),
                 ("history", "507.1a", "--game", "duel-masters", "--db", a),
                 ("rules", "check", "--db", a)):
        en, ja = both(*args)
        assert json.loads(en) == json.loads(ja), args


# -- history -------------------------------------------------------------------------------


def test_history_with_only_the_english_says_so(english_only):
    done = run("history", "509.1h", "--db", english_only, "--lang", "ja")
    assert done.exit_code == 0, done.output
    said = flat(done.output)
    assert said.startswith("509.1h（blockedとしてたどる）：版2件（インポートされた文書2件中）")
    assert "（これらの版の日付の日本語テキスト（総合ルール）はインポートされていないため、" \
           "英語の文言を示す）" in said
    assert "文言が変わった" not in said and "変更なし" in said
    assert "Anattackingcreaturewithoneormorecreatures" in said  # the English words
    assert "根拠：同じ項番で、文言も似ている" in said
    assert all(columns(line) <= 80 for line in done.output.splitlines())


def test_history_shows_the_japanese_words_of_the_date_imported(with_japanese):
    done = run("history", "509.1h", "--db", with_japanese, "--lang", "ja")
    assert done.exit_code == 0, done.output
    said = flat(done.output)
    assert "（日本語の文言は、日本語テキスト（総合ルール）がインポートされている2025-02-07の版" \
           "だけに示す。ほかの版は、その日付の日本語テキストがインポートされていないため、" \
           "英語の文言を示す）" in said
    older, newer = done.output.split("\n2025-02-07  509.1h")
    assert "An attacking creature" in older and "日本語テキスト：" not in older
    assert "日本語テキスト：総合ルール（cr-ja-2025-02-07-excerpt.txt）" in flat(newer)
    assert WORDS_509_1H in flat(newer) and "An attacking creature" not in newer
    # The gap between the two texts, in Japanese.
    assert "2022-04-29と2025-02-07の間にインポートされたテキストはない（2年9か月）" in said
    # Without --lang ja, the English words, whatever is imported.
    english = run("history", "509.1h", "--db", with_japanese)
    assert "総合ルール" not in english.output and "unchanged" in english.output


def test_history_json_is_the_same_in_every_language(with_japanese):
    en, ja = both("history", "509.1h", "--db", with_japanese)
    assert json.loads(en) == json.loads(ja)
    assert "総合ルール" not in en  # the trail is the English texts'


def test_history_reads_as_japanese(with_japanese):
    """No English left in `history --lang ja` but the names (rule keys, files, kinds of
    document, eras) and the English words where no Japanese text is imported."""
    done = run("history", "509.1h", "--db", with_japanese, "--lang", "ja")
    older, newer = done.output.split("\n2025-02-07  509.1h")
    older = re.sub(r"\n {2}(?![ …]|根拠|文言)[^\n]*(\n {4}[^\n]*)*", "", older)  # its words
    names = {"blocked", "cr", "txt", "ja", "excerpt", "Comprehensive", "Rules", "m10",
             "m11", "foundations",
             "unblocked", "creature"}  # the 総合ルール's own glosses: 「…／blocked creature」
    for part in (older, newer):
        words = set(re.findall(r"[A-Za-z]{2,}", part))
        assert words <= names, words - names


# -- --quote -------------------------------------------------------------------------------


def test_quote_under_japanese(with_japanese, english_only):
    done = run("run", SCENARIO, "--era", "foundations", "--quote", "--db", with_japanese,
               "--lang", "ja")
    assert done.exit_code == 0, done.output
    said = flat(done.output)
    assert f"「{WORDS_509_1G}" in said and "」（509.1g、総合ルール2025-02-07）" in said
    assert WORDS_509_1H in said
    # A rule the Japanese excerpt does not have: the English words, and a line says so.
    assert "「Ablockedcreatureassignsitscombatdamage" in said
    assert "（510.1c、ComprehensiveRules2025-02-07）" in said
    assert "英語の文言で引用した文書（引用した規則を含む日本語テキストがインポート" \
           "されていない）：ComprehensiveRules2025-02-07（foundations）" in said
    english = run("run", SCENARIO, "--era", "foundations", "--quote", "--db", english_only,
                  "--lang", "ja")
    assert "「Eachchosencreaturestillcontrolled" in flat(english.output)
    assert "英語の文言で引用した文書" in flat(english.output)
    plain = run("run", SCENARIO, "--era", "foundations", "--quote", "--db", with_japanese)
    assert "総合ルール" not in plain.output and "quoted in English" not in plain.output
    assert "\u201cEach chosen creature still controlled" in plain.output


def test_quote_json_is_the_same_in_every_language(with_japanese):
    en, ja = both("run", SCENARIO, "--era", "foundations", "--quote", "--db", with_japanese)
    assert json.loads(en) == json.loads(ja)
    assert json.loads(en)["quotes"]["509.1g"]["kind"] == "Comprehensive Rules"
    en, ja = both("diff", SCENARIO, "--quote", "--no-store", "--db", with_japanese)
    assert json.loads(en) == json.loads(ja)


# -- rules check, and a rule the Japanese excerpt lacks --------------------------------------


def test_rules_check_and_show_in_japanese(with_japanese):
    checked = run("rules", "check", "--db", with_japanese, "--lang", "ja")
    said = flat(checked.output)
    assert "sixth：確認せず：" in said and "はインポートされていない" in said
    assert re.search(r"foundations：引用する規則\d+件をcr-2025-02-07.txtで確認：", said)
    en, ja = both("rules", "check", "--db", with_japanese)
    assert json.loads(en) == json.loads(ja)
    shown = run("rules", "show", "509.1c", "--db", with_japanese, "--lang", "ja")
    assert shown.exit_code == 0, shown.output
    assert "（インポートされたこの総合ルールの日本語テキスト（cr-ja-2025-02-07-excerpt.txt）" \
           "には509.1cがないため、インポートされた英語の文言を示す）" in flat(shown.output)
    assert "The defending player checks each creature" in shown.output


def test_the_sentences_of_history_read_back():
    from comparator.rules.spoken import said
    from comparator.text.language import speaking

    sentence = ("no text imported between 2009-07-11 and 2022-04-29 (12 years 9 months): a "
                "change shown here may have come at any release in between")
    with speaking("ja"):
        assert said(sentence).startswith("2009-07-11 と 2022-04-29 の間にインポートされた"
                                         "テキストはない（12年9か月）")
        assert said("702.13a: the same number, its words alike; 702.13b: the likest words "
                    "under 702. (0.91 alike)") == \
            "702.13a：同じ項番で、文言も似ている／702.13b：702. の下で最も似た文言（類似度 0.91）"
        assert said("the m10 rules table, in the document it cites: the rule it cites for "
                    "trample is another than the one before (of the shorter one's words, 12% "
                    "are in the other)").startswith("m10 の項番表（その時期が引用する文書で）：")
        assert said("nothing any pattern knows") == "nothing any pattern knows"
    with speaking("en"):
        assert said(sentence) == sentence
