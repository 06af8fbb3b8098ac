"""`rulesdiff blocks --best` and the `best-blocks` expectation (issue 24: a peer engine's
AI-picked blocks as a query): the declaration the defending player makes with best play,
worked by hand from the contract's `material` score (explore §6.3)."""

import json
from pathlib import Path

from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

# A 3/3 and a 1/1 attack; the defender has a 2/2. Blocking the 1/1 kills it for free
# ([0, -1, 3]); blocking the 3/3 loses the 2/2 and 1 life ([0, 1, 1]); no block: 4 life.
BOARD = """id: best
title: which attacker to block
players: [{name: A}, {name: B}]
active: A
permanents:
  - {id: ogre, controller: A, power: 3, toughness: 3}
  - {id: elf, controller: A, power: 1, toughness: 1}
  - {id: bears, controller: B, power: 2, toughness: 2}
combat:
  attacks: {ogre: B, elf: B}
"""


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "best.yaml"
    path.write_text(text)
    return str(path)


def test_best_play_blocks_the_creature_it_kills_for_free(tmp_path):
    done = runner.invoke(app, ["blocks", _file(tmp_path, BOARD), "--best", "--json"])
    assert done.exit_code == 0, done.output
    doc = json.loads(done.output)
    assert doc["objective"] == "material"
    for era, found in doc["eras"].items():
        assert found["blocks"] == {"bears": "elf"}, era
        assert found["score"] == [0, -1, 3], era
        assert found["line"][0]["kind"] == "blocks"
    text = runner.invoke(app, ["blocks", _file(tmp_path, BOARD), "--best", "--era", "m11"])
    assert text.output.strip() == "m11: bears blocks elf (score [0, -1, 3], material)"


def test_by_life_alone_the_bigger_attacker_is_blocked(tmp_path):
    # objective life: (game, life): blocking the ogre saves 3, the elf 1.
    done = runner.invoke(app, ["blocks", _file(tmp_path, BOARD), "--best", "--objective",
                               "life", "--era", "foundations", "--json"])
    assert json.loads(done.output)["eras"]["foundations"]["blocks"] == {"bears": "ogre"}


def test_an_expected_best_block_is_verified(tmp_path):
    good = BOARD + "expect:\n  m11: {best-blocks: {bears: elf}}\n"
    assert runner.invoke(app, ["verify", _file(tmp_path, good)]).exit_code == 0
    wrong = BOARD + "expect:\n  m11: {best-blocks: {bears: ogre}}\n"
    done = runner.invoke(app, ["verify", _file(tmp_path, wrong), "--json"])
    assert done.exit_code == 1
    (m,) = json.loads(done.stdout)["mismatches"]
    assert (m["era"], m["field"], m["expected"], m["got"]) == (
        "m11", "best-blocks", {"bears": ["ogre"]}, {"bears": ["elf"]})
    none = BOARD + "expect:\n  m11: {best-blocks: {}}\n"
    assert runner.invoke(app, ["verify", _file(tmp_path, none)]).exit_code == 1


def test_bad_best_blocks_and_options_are_one_line_errors(tmp_path):
    bad = BOARD + "expect:\n  m11: {best-blocks: {wolf: elf, bears: giant}}\n"
    done = runner.invoke(app, ["validate", _file(tmp_path, bad)])
    assert done.exit_code == 2
    assert "expect.m11.best-blocks.wolf: 'wolf' is not a permanent" in done.output
    assert "expect.m11.best-blocks.bears: 'giant' does not attack" in done.output
    alone = BOARD + "expect:\n  m11: {refused: {reason: not-in-era}, best-blocks: {}}\n"
    assert "goes alone" in runner.invoke(app, ["validate", _file(tmp_path, alone)]).output
    done = runner.invoke(app, ["blocks", _file(tmp_path, BOARD), "--best", "--objective",
                               "glory"])
    assert done.exit_code == 2 and done.output.count("\n") == 1 and "glory" in done.output
    dm = runner.invoke(app, ["blocks", "dm-three-blockers-draw", "--best"])
    assert dm.exit_code == 2 and "Magic scenarios" in dm.output
