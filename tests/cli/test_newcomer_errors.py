"""Errors that say how to fix (the newcomer's issue, point 3): the closest known name for a
misspelt keyword, card, era or window; one line for cards unknown because `--cards` was
forgotten; an illegal block said once, with its line, for every era that refuses it;
malformed YAML with its line, column and a hint; `--cards` after the command; `--era` as a
date; a warning for an intended division no era can use; exit codes in every --help."""

import json

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

BOARD = """\
id: newcomer
title: a newcomer's scenario
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3, keywords: [KEYWORD]}
  - {id: bear, controller: B, card: CARD}
  - {id: elf, controller: B, power: 1, toughness: 1}
combat:
  attacks: {ogre: B}
  blocks: {bear: ogre}
actions:
  - {at: WINDOW, by: B, effect: pump, target: bear, power: 1, toughness: 1}
"""


def _board(keyword="trample", card="Grizzly Bears", window="declare-blockers"):
    return (BOARD.replace("KEYWORD", keyword).replace("CARD", card)
            .replace("WINDOW", window))


def _validate(tmp_path, text, *more):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path, runner.invoke(app, ["validate", str(path), *more])


@pytest.mark.parametrize(("change", "line", "field", "hint"), [
    ({"keyword": "deathtuch"}, 6, "permanents[0].keywords", "did you mean 'deathtouch'?"),
    ({"card": "Grizly Bears"}, 7, "permanents[1].card", "did you mean 'Grizzly Bears'?"),
    ({"window": "declare-blocker"}, 13, "actions[0].at",
     "did you mean 'declare-blockers'?"),
])
def test_a_misspelt_name_gets_the_closest_one(tmp_path, change, line, field, hint):
    path, result = _validate(tmp_path, _board(**change))
    assert result.exit_code == 2
    assert f"{path}:{line}: {field}:" in result.output and hint in result.output


def test_a_misspelt_era_gets_the_closest_one():
    result = runner.invoke(app, ["run", "giant-growth-vs-assignment-order", "--era", "sixt"])
    assert result.exit_code == 2 and "did you mean 'sixth'?" in result.output


def test_cards_unknown_for_want_of_a_library_are_one_line(tmp_path, monkeypatch):
    monkeypatch.delenv("RULESDIFF_CARDS", raising=False)
    text = _board(card="Zzyzx Beast").replace(
        "  - {id: elf, controller: B, power: 1, toughness: 1}",
        "  - {id: elf, controller: B, card: Qwerty Wall}")
    path, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    problems = [line for line in result.output.splitlines() if line.startswith(str(path))]
    assert len(problems) == 1, result.output  # not card + power + toughness for each
    assert "'Zzyzx Beast', 'Qwerty Wall'" in problems[0] and "--cards FILE" in problems[0]
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n" + "".join(
        f"  - {{name: {n}, power: 2, toughness: 2, types: [creature], type-line: Creature, "
        f"oracle: '', source: mine}}\n" for n in ("Zzyzx Beast", "Qwerty Wall")))
    # `--cards` after the command means the same as before it.
    after = runner.invoke(app, ["validate", str(path), "--cards", str(cards)])
    before = runner.invoke(app, ["--cards", str(cards), "validate", str(path)])
    assert after.exit_code == before.exit_code == 0, after.output


def test_an_illegal_block_is_said_once_for_every_era_with_its_line(tmp_path):
    text = _board().replace("keywords: [trample]", "keywords: [flying]")
    path, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if "illegal block" in line]
    assert lines == [
        f"{path}:11: combat.blocks.bear: illegal block in alpha, fourth, fifth, sixth, m10, "
        f"m11, foundations: bear can't block ogre: it has flying, and the blocker has neither "
        f"flying nor reach (rule p.27 in alpha, C.6.Ruling.1 in fourth, fifth, 500.3 in "
        f"sixth, 509.1b in m10, m11, foundations)"]
    ran = runner.invoke(app, ["diff", str(path), "--no-store"])
    assert ran.exit_code == 2
    assert "illegal block in alpha, fourth, fifth, sixth, m10, m11," in ran.output


def test_malformed_yaml_says_line_column_and_indentation(tmp_path):
    text = _board().replace("  - {id: elf", "   - {id: elf")
    path, result = _validate(tmp_path, text)
    assert result.exit_code == 2
    assert f"{path}:8: malformed YAML at column 4: did not find expected '-' indicator " \
           f"(check the indentation" in result.output


def test_an_era_by_date():
    on = runner.invoke(app, ["run", "giant-growth-vs-assignment-order", "--era",
                             "2008-06-01", "--json"])
    assert json.loads(on.output)["era"] == "sixth"
    both = runner.invoke(app, ["diff", "giant-growth-vs-assignment-order", "--era",
                               "2009-07-11", "--era", "2025-01-01", "--json", "--no-store"])
    assert json.loads(both.output)["eras"] == ["m10", "foundations"]
    dm = runner.invoke(app, ["run", "dm-blocker-then-guardman-relay", "--era", "2022-01-01",
                             "--json"])
    assert json.loads(dm.output)["era"] == "dm-2021-09"
    early = runner.invoke(app, ["run", "giant-growth-vs-assignment-order", "--era",
                                "1990-01-01"])
    assert early.exit_code == 2 and "alpha, began 1993-08-05" in early.output


def test_an_intended_division_no_era_can_use_is_a_warning(tmp_path):
    text = _board().replace(
        "  blocks: {bear: ogre}",
        "  blocks: {bear: ogre, elf: ogre}\n  assign: {ogre: {bear: 2, elf: 2}}")
    path, result = _validate(tmp_path, text.replace("\nactions:\n", "\nno: \n").split(
        "\nno: \n")[0] + "\n")
    assert result.exit_code == 0, result.output
    assert f"{path}:12: combat.assign.ogre: warning: the intended division adds up to 4, " \
           f"but ogre's power is 3" in result.output
    as_json = json.loads(runner.invoke(app, ["validate", str(path), "--json"]).output)
    assert as_json["ok"] and as_json["warnings"][0]["line"] == 12


COMMANDS = ["run", "validate", "verify", "eras", "diff", "explore", "cards import",
            "dataset build", "dataset generate", "dataset check", "dataset export", "show",
            "schema", "blocks", "catalog", "scenarios", "new", "rules import", "rules show"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_says_the_exit_codes(command):
    out = runner.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "80"}).output
    words = " ".join(out.split())
    assert "Exit: 0" in words and "70 is an internal error" in words, out


def test_new_writes_a_template_that_validates_runs_and_verifies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["new", "My First"])
    assert made.exit_code == 0, made.output
    path = tmp_path / "my-first.yaml"
    assert "\nid: my-first " in path.read_text()
    assert runner.invoke(app, ["validate", str(path)]).exit_code == 0
    verified = runner.invoke(app, ["verify", str(path)])
    assert verified.exit_code == 0 and "7 era outcome(s) as expected" in verified.output
    assert runner.invoke(app, ["diff", str(path), "--no-store"]).exit_code == 0
    again = runner.invoke(app, ["new", "my-first"])
    assert again.exit_code == 2 and "the file exists" in again.output


def test_the_docs_show_the_template_and_it_uses_every_top_level_field():
    import re
    from pathlib import Path

    import yaml

    from comparator.files.locations import template_file
    from versions.mtg.scenario import Scenario

    root = Path(__file__).resolve().parents[2]
    docs = (root / "docs" / "scenario-format.md").read_text()
    shown = re.search(r"<!-- new-scenario -->\n```yaml\n(.*?)\n```", docs, re.S).group(1)
    template = template_file().read_text()
    assert shown == template.rstrip("\n")
    fields = {f.alias or name for name, f in Scenario.model_fields.items()}
    assert fields <= set(yaml.safe_load(template))


def test_the_shipped_mtgjson_sample_imports(tmp_path):
    from comparator.files.locations import data_dir

    out = tmp_path / "sample.yaml"
    result = runner.invoke(app, ["cards", "import", str(data_dir() / "mtgjson-sample.json"),
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["cards"] == 4 and summary["creatures"] == 4  # the instant is left out
    docs = (data_dir().parent / "docs" / "cards.md")
    if docs.exists():
        assert "https://mtgjson.com/downloads/all-files/" in docs.read_text()


def test_verify_refuses_an_illegal_block_even_without_expectations(tmp_path):
    text = _board().replace("keywords: [trample]", "keywords: [flying]")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "illegal block in alpha, fourth, fifth, sixth, m10, m11" in result.output


def test_a_tab_gets_its_own_hint(tmp_path):
    path, result = _validate(tmp_path, _board().replace("active: A", "active:\tA\n\tx: 1"))
    assert result.exit_code == 2 and "a tab on this line" in result.output


def test_help_lists_never_cut_a_summary():
    for args in (["--help"], ["dataset", "--help"], ["cards", "--help"]):
        out = runner.invoke(app, args, env={"COLUMNS": "80"}).output
        listed = out.split("Commands:")[1]  # the usage line's "[ARGS]..." is click's own
        assert "..." not in listed and "Exit:" in out, out


def test_fifth_names_a_trick_its_prevention_step_refuses():
    out = runner.invoke(app, ["explore", "fifth-giant-growth-in-the-prevention-step", "--era",
                              "fifth", "--json", "--no-store"]).output
    (note,) = json.loads(out)["eras"]["fifth"]["notes"]
    assert note["type"] == "action-unavailable" and note["rule"] == "T.10.3"
