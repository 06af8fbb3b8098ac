"""Restrictions that count blockers (509.1b): an illegal declaration is exit 2 naming the
rule and what it breaks; a legal one runs. The exact search is proven against brute force
with these keywords in tests/engine/test_block_search.py."""

import pytest
from eras import ERAS
from typer.testing import CliRunner

from comparator.cli.main import app

runner = CliRunner()

BOARD = """
id: t-restrictions
title: Restrictions that count blockers
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: att, controller: A, power: 3, toughness: 3, keywords: [{attacker}]}}
  - {{id: other, controller: A, power: 1, toughness: 1}}
  - {{id: b1, controller: B, power: 2, toughness: 2, keywords: [{blocker}]}}
  - {{id: b2, controller: B, power: 1, toughness: 1}}
combat:
  attacks: {{att: B, other: B}}
  blocks: {blocks}
"""

ILLEGAL = [
    ("cant-be-blocked-by-more-than-one", "", "{b1: att, b2: att}", "at most 1"),
    ("{cant-be-blocked-except-by: 3}", "", "{b1: att, b2: att}", "at least 3"),
    ("must-be-blocked-by-all", "", "{b1: att}", "at least 2"),
    ("", "cant-attack-or-block-alone", "{b1: att}", "b1 can't block alone"),
    ("", "cant-block-unless-greater-power-blocks", "{b1: att, b2: other}",
     "greater power (2)"),
]
LEGAL = [
    ("cant-be-blocked-by-more-than-one", "", "{b1: att}"),
    ("must-be-blocked-by-all", "", "{b1: att, b2: att}"),
    ("", "cant-attack-or-block-alone", "{b1: att, b2: other}"),
]


@pytest.mark.parametrize("attacker,blocker,blocks,why", ILLEGAL)
@pytest.mark.parametrize("era", ERAS)
def test_an_illegal_declaration_is_refused_with_its_reason(tmp_path, era, attacker, blocker,
                                                           blocks, why):
    f = tmp_path / "s.yaml"
    f.write_text(BOARD.format(attacker=attacker, blocker=blocker, blocks=blocks))
    r = runner.invoke(app, ["run", str(f), "--era", era])
    assert r.exit_code == 2 and why in r.output, r.output


@pytest.mark.parametrize("attacker,blocker,blocks", LEGAL)
def test_a_legal_declaration_runs(tmp_path, attacker, blocker, blocks):
    f = tmp_path / "s.yaml"
    f.write_text(BOARD.format(attacker=attacker, blocker=blocker, blocks=blocks))
    r = runner.invoke(app, ["run", str(f), "--era", "m11", "--json"])
    assert r.exit_code == 0, r.output


def test_okk_alone_is_illegal_and_the_blocks_command_lists_only_legal_declarations(tmp_path):
    import json

    f = tmp_path / "s.yaml"
    f.write_text(BOARD.format(attacker="", blocker="cant-block-unless-greater-power-blocks",
                              blocks="{b1: att}"))
    assert runner.invoke(app, ["run", str(f), "--era", "m11"]).exit_code == 2
    r = runner.invoke(app, ["blocks", str(f), "--era", "m11", "--json"])
    survey = json.loads(r.output)
    # b1 (power 2) blocks only beside a creature of greater power: b2 has 1, so b1 never
    # blocks; b2 may block att, other, or nothing: 3 declarations.
    assert survey["count"] == 3
    assert all("b1" not in d["blocks"] for d in survey["declarations"])


def test_attacking_alone(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(BOARD.format(attacker="cant-attack-or-block-alone", blocker="",
                              blocks="{}").replace("att: B, other: B", "att: B"))
    r = runner.invoke(app, ["validate", str(f)])
    assert r.exit_code == 2 and "att can't attack alone" in r.output
