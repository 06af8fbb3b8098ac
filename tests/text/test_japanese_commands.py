"""`--lang ja` on `validate`, `verify`, `show`, `new`, `explore`, `blocks`, `dataset`,
`catalog` and `scenarios` (issue 52): what each prints for people is Japanese (a file's
problems too, pydantic's by their error type), its error lines keep their shape
(`rulesdiff: FILE: FIELD: message`) and exit codes, its lines fit 80 columns, and its JSON
is the same in every language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.text.terminal import columns

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "broken"
SCENARIOS = ROOT / "data" / "scenarios"


@pytest.fixture(autouse=True)
def _english_again():
    """A command run here sets the language of this process: English again after each
    test, as a new process starts."""
    yield
    from comparator.text.language import use

    use("en")


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1",
                                                    "LANG": "C.UTF-8", **(env or {})})


def same_json(*args: str) -> dict:
    """The command's JSON, which is the same under `--lang ja`, under a Japanese
    environment and in English."""
    english = run(*args)
    japanese = run(*args, "--lang", "ja")
    environment = run(*args, env={"LANG": "ja_JP.UTF-8"})
    assert english.exit_code == japanese.exit_code == environment.exit_code
    doc = json.loads(english.stdout)
    assert json.loads(japanese.stdout) == doc
    assert json.loads(environment.stdout) == doc
    return doc


def fits(text: str) -> None:
    assert all(columns(line) <= 80 for line in text.splitlines()), text


# -- validate -------------------------------------------------------------------------------

def test_validate_says_every_problem_in_japanese_with_its_place_as_written():
    done = run("validate", str(BROKEN), "--lang", "ja")
    assert done.exit_code == 2
    lines = done.stderr.splitlines()
    said = {line.split(": ", 2)[1]: line.split(": ", 2)[2] for line in lines[:-1]
            if line.count(": ") >= 2}
    assert said["permanents[1].id"] == "ID 'bear' が2回使われている"
    assert said["permanents[3].controller"] == "'c' はプレイヤーの1人ではない"
    assert said["permanents[1].colour"] == "不明なキー 'colour'"
    assert said["permanents[2].keywords"] == "不明なキーワード 'flyng'（'flying' の誤りか）"
    assert said["actions[0].target"] == "対象 'dragon' はこのシナリオのパーマネントではない"
    assert said["expect.m10.permanents.bear.size"] == \
        "パーマネントの結果に 'size' という項目はない"
    assert said["combat.blocks.bear"].startswith(
        "alpha, fourth, fifth, sixth, m10, m11, foundations では不正なブロック：bear は "
        "angel をブロックできない：それは飛行を持ち、ブロック・クリーチャーは飛行も到達も"
        "持たない（alpha では p.27／")
    assert "m10, m11, foundations では 509.1b）" in said["combat.blocks.bear"]
    assert said["combat.blocks"].startswith("alpha, fourth, fifth, sixth, m10, m11, "
                                            "foundations では不正なブロック：このブロックは"
                                            "1個の強制のうち0個に従っている（eager は可能なら"
                                            "ブロックしなければならない）")
    assert any("YAML として読めない（1桁目）：" in line and "（括弧を確かめること：" in line
               for line in lines)
    assert lines[-1] == "6ファイルに17件の問題"
    # The shape of each line, its file, line, field as the English one has them.
    english = run("validate", str(BROKEN)).stderr.splitlines()
    for en, ja in zip(english[:-1], lines[:-1], strict=True):
        assert en.split(": ")[0] == ja.split(": ")[0]
        field = ja.split(": ")[1]
        if re.fullmatch(r"[\w.\[\]-]+", field):
            assert en.split(": ")[1] == field


PYDANTIC_BROKEN = """\
id: pydantic-broken
title: pydantic's own messages
players:
  - {name: A, life: "20"}
active: A
permanents:
  - {id: bear, controller: A, power: -5000000, toughness: 2, tapped: maybe}
  - {id: Wolf, controller: A, power: 2, toughness: 2}
actions:
  - {at: combat-damage, by: A, effect: pump, target: bear, power: 1, toughness: 1,
     if-missing: sometimes}
colour: red
"""


def test_validate_says_pydantics_messages_by_their_type(tmp_path):
    path = tmp_path / "pydantic-broken.yaml"
    path.write_text(PYDANTIC_BROKEN, encoding="utf-8")
    done = run("validate", str(path), "--lang", "ja")
    assert done.exit_code == 2
    said = {line.split(": ", 2)[1]: line.split(": ", 2)[2]
            for line in done.stderr.splitlines()[:-1]}
    assert said == {
        "players[0].life": "整数でなければならない",
        "permanents[0].power": "-1000000以上でなければならない",
        "permanents[0].tapped": "真偽値（true か false）でなければならない",
        "permanents[1].id": "パターン '^[a-z0-9-]+$' に合わなければならない",
        "actions[0].if-missing": "'sometimes' は skip, earlier, later のいずれでもない",
        "colour": "不明なキー 'colour'",
    }
    english = run("validate", str(path))
    assert "Input should be a valid integer" in english.stderr
    assert "required field" not in done.stderr
    missing = tmp_path / "missing.yaml"
    missing.write_text("id: m\ntitle: t\nplayers: [{name: A}]\npermanents: []\n",
                       encoding="utf-8")
    said = run("validate", str(missing), "--lang", "ja").stderr.splitlines()
    assert f"{missing}:3: players: リストには2個以上の項目が必要である（1個ある）" in said
    assert f"{missing}:1: active: 必須の項目がない" in said


def test_validate_says_a_duel_masters_redirection_refused(tmp_path):
    path = tmp_path / "dm.yaml"
    path.write_text((SCENARIOS / "dm-three-blockers-draw.yaml").read_text(encoding="utf-8")
                    .replace("id: dm-three-blockers-draw", "id: dm-tapped", 1)
                    .replace("{id: cosmo3, controller: B, power: 2000, keywords: [blocker],",
                             "{id: cosmo3, controller: B, power: 2000, keywords: [blocker], "
                             "tapped: true,", 1), encoding="utf-8")
    done = run("validate", str(path), "--lang", "ja")
    assert done.exit_code == 2
    assert done.stderr.splitlines()[0].endswith(
        ": combat.redirect[2]: dm-pre-2021-09, dm-2021-09 では不正な選択：cosmo3 は攻撃先を"
        "変更できない：それはタップ状態である（dm-pre-2021-09 では 507（2021-09-07 より前。"
        "文言は資料になし）／dm-2021-09 では 507.1a）")


def test_an_error_line_keeps_its_shape_and_exit_code(tmp_path):
    path = tmp_path / "pydantic-broken.yaml"
    path.write_text(PYDANTIC_BROKEN, encoding="utf-8")
    done = run("explore", str(path), "--no-store", "--lang", "ja")
    assert done.exit_code == 2
    assert done.stderr == (f"rulesdiff: {path}:4: players[0].life: 整数でなければならない"
                           f"（ほかに5件。`rulesdiff validate {path}` を参照）\n")
    unknown = run("blocks", "no-such-scenario", "--lang", "ja")
    assert unknown.exit_code == 2
    assert unknown.stderr == ("rulesdiff: no-such-scenario: そのようなファイルはなく、その ID "
                              "の同梱シナリオもない\n")


def test_validate_json_and_the_environments_language():
    doc = same_json("validate", str(BROKEN), "--json")
    assert doc["problems"][0]["message"] == "id 'bear' is used twice"
    ok = run("validate", str(SCENARIOS / "dm-three-blockers-draw.yaml"),
             env={"LANG": "ja_JP.UTF-8"})
    assert ok.exit_code == 0 and ok.stdout == "OK：1ファイル\n"
    assert run("validate", str(SCENARIOS / "dm-three-blockers-draw.yaml"), "--lang", "en",
               env={"LANG": "ja_JP.UTF-8"}).stdout == "ok: 1 file(s)\n"


# -- verify ---------------------------------------------------------------------------------

def test_verify_says_its_mismatches_in_japanese(tmp_path):
    text = (SCENARIOS / "lifelink-blocker-at-one-life.yaml").read_text(encoding="utf-8")
    ok = run("verify", str(SCENARIOS / "lifelink-blocker-at-one-life.yaml"), "--lang", "ja")
    assert ok.exit_code == 0
    assert ok.stdout.startswith("OK：1ファイル、時期ごとの結果")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("id: lifelink-blocker-at-one-life", "id: wrong", 1)
                     .replace("expect:\n", "expect:\n  alpha: {players: {B: {life: 5}}}\n",
                              1).replace("B: {life: 2, lost: false}", "B: {life: 3}", 1),
                     encoding="utf-8")
    done = run("verify", str(wrong), "--lang", "ja")
    assert done.exit_code == 1, done.output
    assert done.stdout.splitlines() == [
        f'{wrong}: alpha: refused: 期待値は "結果"、結果は "拒否：linker は絆魂を持つが、絆魂は'
        'このルールの時点では存在しなかった（2007年（『未来予知』）に登場）"',
        f"{wrong}: m10: players.B.life: 期待値は 3、結果は 2"]
    assert done.stderr == "1ファイルに2件の不一致\n"
    same_json("verify", str(wrong), "--json")


# -- new, show ------------------------------------------------------------------------------

def test_new_and_show(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = run("new", "My First", "--lang", "ja")
    assert made.exit_code == 0
    assert made.stdout.startswith("my-first.yaml を書き出した：編集してから `rulesdiff "
                                  "validate my-first.yaml` と")
    again = run("new", "My First", "--lang", "ja")
    assert again.exit_code == 2
    assert again.stderr == ("rulesdiff: my-first.yaml: そのファイルはすでにある。別の名前を"
                            "選ぶこと\n")
    db = str(tmp_path / "store.db")
    assert run("diff", "lifelink-blocker-at-one-life", "--db", db).exit_code == 1
    shown = run("show", "lifelink-blocker-at-one-life", "--db", db, "--lang", "ja")
    assert shown.exit_code == 0
    fits(shown.stdout)
    assert shown.stdout.startswith("lifelink-blocker-at-one-life：保存された版は1件\n版 ")
    assert "  実行 sixth：エンジン " in shown.stdout
    assert "  B のライフ：sixth では -1／m10, m11, foundations では 2" in shown.stdout
    assert "  B の敗北：sixth では はい／m10, m11, foundations では いいえ" in shown.stdout
    same_json("show", "lifelink-blocker-at-one-life", "--db", db, "--json")
    missing = run("show", "nothing-here", "--db", db, "--lang", "ja")
    assert missing.exit_code == 2
    assert missing.stderr == "rulesdiff: nothing-here: データベースにそのシナリオはない\n"


# -- explore, blocks ------------------------------------------------------------------------

def test_explore_reads_as_japanese():
    done = run("explore", "lifelink-blocker-at-one-life", "--no-store", "--jobs", "1",
               "--lang", "ja")
    assert done.exit_code == 1
    out = done.stdout
    fits(out)
    assert "目的：material · ブロック：fixed · 項目：end-of-turn" in out
    assert "sixth：プレイの手順1通り、結果1件" in out
    assert ("  最善のプレイでは：A は left を失う／B はゲームに敗北し、2点のライフを失う\n"
            "      （スコア") in out
    assert "    （選択なし：どの決定にも選択肢は1つだけだった）" in out
    assert "│ B：ライフ-1、B：ゲームに敗北  │" in out
    assert "sixth だけ：B：ライフ-1、B：ゲームに敗北" in out
    assert "分岐：一部の時期だけが至る結果：sixth (1)／値が異なる：sixth ≠ m10, m11," in out
    # The line wraps where the scenario's path puts it.
    assert "rulesdiff:alphaは" in "".join(done.stderr.split())
    assert "を実行できない：linkerは絆魂を持つが" in "".join(done.stderr.split())
    same_json("explore", "lifelink-blocker-at-one-life", "--no-store", "--jobs", "1",
              "--json")


def test_explore_of_duel_masters_says_its_redirections():
    done = run("explore", "dm-three-blockers-draw", "--no-store", "--jobs", "1",
               "--blocks", "all", "--lang", "ja")
    assert done.exit_code == 1
    fits(done.stdout)
    assert "最善のプレイでは：A は何も失わない／B はシールド1枚を失う（スコア [0, 0, 1]）" \
        in done.stdout
    assert "ブロッククリーチャー指定ステップ：B は攻撃先を変更しない  [507.1a]" in done.stdout
    assert "B は cosmo2、次に cosmo3 で攻撃先を変更す" in done.stdout
    assert "cosmo1：アンタップ状態、cosmo1：" in done.stdout


def test_explore_refuses_in_japanese_with_the_same_exit_code():
    bad = run("explore", "lifelink-blocker-at-one-life", "--blocks", "some", "--lang", "ja")
    assert bad.exit_code == 2
    assert bad.stderr == ("rulesdiff: --blocks は fixed, all のいずれかでなければならない"
                          "（'some' ではなく）\n")
    big = run("explore", "dm-three-blockers-draw", "--no-store", "--jobs", "1",
              "--blocks", "all", "--limit", "5", "--lang", "ja")
    assert big.exit_code == 2
    assert big.stderr == (f"rulesdiff: {SCENARIOS / 'dm-three-blockers-draw.yaml'}: "
                          "dm-pre-2021-09: 選択肢が16個ある決定があり、それぞれが少なくとも1通り"
                          "のプレイの手順になる（上限は5）。探索するには --limit を上げること\n")


def test_blocks_reads_as_japanese():
    survey = run("blocks", "who-can-block-menace-and-flying", "--lang", "ja")
    assert survey.exit_code == 0
    fits(survey.stdout)
    flat = "".join(survey.stdout.split())
    assert "who-can-block-menace-and-flying：制限を破らないブロック・クリーチャーの指定は3通り。" \
        in flat
    assert "*ブロックなし従っている強制0" in flat
    can = run("blocks", "who-can-block-menace-and-flying", "--can", "bears", "bird",
              "--lang", "ja")
    assert can.exit_code == 0
    assert "m10：いいえ：bird：それは飛行を持ち、ブロック・クリーチャーは飛行も到達も持たな" \
        in "".join(can.stdout.split())
    best = run("blocks", "who-can-block-menace-and-flying", "--best", "--jobs", "1",
               "--lang", "ja")
    assert best.exit_code == 0
    assert best.stdout.startswith("alpha：bears が raider をブロック／hawk が raider を"
                                  "ブロック（スコア [0, 0, 1]、")
    for args in ((), ("--can", "bears", "bird"), ("--best", "--jobs", "1")):
        same_json("blocks", "who-can-block-menace-and-flying", *args, "--json")


# -- dataset --------------------------------------------------------------------------------

def test_the_dataset_commands_read_as_japanese(tmp_path):
    folder = str(tmp_path / "gen")
    made = run("dataset", "generate", folder, "--count", "3", "--jobs", "1", "--lang", "ja")
    assert made.exit_code == 0
    assert "".join(made.stdout.split()).startswith(f"シード0のシナリオ3件を{folder}に生成した")
    db = str(tmp_path / "d.db")
    built = run("dataset", "build", folder, "--db", db, "--jobs", "1", "--lang", "ja")
    assert built.exit_code == 0, built.output
    assert re.match(r"シナリオ3件、実行\d+件を保存した。分岐するのは\d+件\n", built.stdout)
    checked = run("dataset", "check", "--db", db, "--lang", "ja")
    assert checked.exit_code == 0
    assert re.fullmatch(r"OK：保存された実行\d+件に変化なし\n", checked.stdout)
    again = run("dataset", "generate", folder, "--count", "3", "--seed", "4", "--lang", "ja")
    assert again.exit_code == 2
    assert again.stderr == (f"rulesdiff: {folder}: シード 0（生成器 2）のシナリオがある。新しい"
                            "フォルダーに生成すること\n")
    wrong = run("dataset", "export", "--db", db, "--format", "xml", "--lang", "ja")
    assert wrong.exit_code == 2
    assert wrong.stderr == "rulesdiff: --format: 'xml' は jsonl、csv、parquet のいずれでもない\n"
    out = tmp_path / "x.jsonl"
    written = run("dataset", "export", "--db", db, "--out", str(out), "--lang", "ja")
    assert written.stderr == f"{out} を書き出した\n"
    # What the commands print as data is the same in every language.
    assert run("dataset", "export", "--db", db, "--lang", "ja").stdout == \
        run("dataset", "export", "--db", db).stdout
    same_json("dataset", "check", "--db", db, "--json")
    same_json("dataset", "generate", folder, "--count", "3", "--jobs", "1", "--json")
    for lang in ("en", "ja"):
        one = str(tmp_path / f"{lang}.db")
        doc = json.loads(run("dataset", "build", folder, "--db", one, "--jobs", "1",
                             "--json", "--lang", lang).stdout)
        assert doc == json.loads(run("dataset", "build", folder, "--db", str(
            tmp_path / f"{lang}-again.db"), "--jobs", "1", "--json").stdout)


# -- catalog, scenarios ---------------------------------------------------------------------

def test_catalog_and_scenarios(monkeypatch):
    import comparator.files.locations as locations
    import comparator.scenarios.shipped as shipped

    few = [SCENARIOS / "lifelink-blocker-at-one-life.yaml",
           SCENARIOS / "dm-three-blockers-draw.yaml"]
    # Where it is looked up, and where a module has taken its own name for it (imported
    # first here, that name would keep the few after the test).
    monkeypatch.setattr(locations, "shipped_scenarios", lambda: few)
    monkeypatch.setattr(shipped, "shipped_scenarios", lambda: few)
    listed = run("catalog", "--lang", "ja")
    assert listed.exit_code == 0
    fits(listed.stdout)
    assert listed.stdout.splitlines()[0] == ("lifelink-blocker-at-one-life：2項目で分岐："
                                             "sixth ≠ m10, m11, foundations")
    doc = same_json("catalog", "--json")
    assert doc[0]["verdict"] == "diverges on 2 fields: sixth ≠ m10, m11, foundations"
    assert run("catalog", "--markdown", "--lang", "ja").stdout == \
        run("catalog", "--markdown").stdout
    titles = run("scenarios", "--lang", "ja")
    assert "dm-three-blockers-draw：デュエル・マスターズ：ブロックした時にカードを1枚引く" \
        in "".join(titles.stdout.split())
    same_json("scenarios", "--json")


# -- the sentences themselves ---------------------------------------------------------------

def test_every_pattern_says_its_own_sentence():
    """Each sentence of `MESSAGES` (and each hint of `SUFFIXES`) is said by its own
    pattern, none taken for another's, and keeps its names as written."""
    from comparator.text.language import _, speaking
    from comparator.text.messages import MESSAGES, SUFFIXES, message

    with speaking("ja"):
        for template in MESSAGES:
            names = [n for _l, n, _s, _c in string.Formatter().parse(template) if n]
            values = {n: f"v{i}" for i, n in enumerate(dict.fromkeys(names))}
            english = template.format(**values)
            said = message(english)
            assert said == _(template).format(**values), template
            assert said != english or _(template) == template, template
        for suffix in SUFFIXES:
            names = [n for _l, n, _s, _c in string.Formatter().parse(suffix) if n]
            english = "a band has at least two attacking creatures" + suffix.format(
                **{n: "'x'" for n in names})
            assert message(english).startswith("バンドは2体以上の攻撃クリーチャーからなる")
        assert message("nothing any pattern knows") == "nothing any pattern knows"
    with speaking("en"):
        assert message("id 'a' is used twice") == "id 'a' is used twice"


@pytest.mark.parametrize("kind", ["int_type", "int_parsing", "bool_type", "string_type",
                                  "greater_than_equal", "less_than_equal", "too_short",
                                  "too_long", "literal_error", "list_type", "dict_type",
                                  "string_pattern_mismatch", "string_too_long"])
def test_pydantics_types_are_said_in_japanese(kind):
    from comparator.text.language import speaking
    from comparator.text.messages import pydantic_said

    context = {"ge": 0, "le": 9, "min_length": 2, "max_length": 5, "actual_length": 1,
               "field_type": "List", "expected": "'a' or 'b'", "pattern": "^x$",
               "expected_plural": "s"}
    with speaking("ja"):
        said = pydantic_said(kind, context, "English words")
    assert not re.search(r"[A-Za-z]{3,}", said.replace("true", "").replace("false", "")), said
    with speaking("en"):
        assert pydantic_said(kind, context, "English words") == "English words"
