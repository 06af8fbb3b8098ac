"""Every number a scenario holds is bounded where it is read (±1,000,000): one past the
bound is a `file:line: field:` error (exit 2) from `validate` and `diff`, never a traceback;
every number at its bound runs in every era without one. Keyword values included: a
`rampage: 1000000000` once passed validation and made the engine raise."""

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from versions.common import BOUND

runner = CliRunner()

MAGIC = f"""\
id: big-numbers
title: every number at its bound
players:
  - {{name: A, life: {BOUND}, mana: {BOUND}, poison: 0}}
  - {{name: B, life: -{BOUND}, mana: 0}}
active: A
permanents:
  - {{id: wurm, controller: A, power: {BOUND}, toughness: {BOUND}, damage: 0,
     keywords: [trample, {{rampage: {BOUND}}}, {{bushido: {BOUND}}}]}}
  - {{id: wall, controller: B, power: -{BOUND}, toughness: {BOUND}, damage: 999999,
     block-cost: 0, keywords: [{{cant-be-blocked-except-by: 1}}]}}
  - {{id: walker, controller: B, types: [planeswalker], loyalty: {BOUND}}}
  - {{id: gate, controller: B, types: [battle], defense: {BOUND}}}
  - {{id: elf, controller: B, power: 1, toughness: 1,
     abilities: [{{activated: mana, mana: {BOUND}, effect: pump, target: self,
                  power: {BOUND}, toughness: -{BOUND}}}]}}
combat:
  attacks: {{wurm: B}}
  blocks: {{wall: wurm}}
  assign: {{wurm: {{wall: {BOUND}}}}}
actions:
  - {{at: declare-blockers, by: B, effect: pump, target: wall, power: {BOUND},
     toughness: -{BOUND}}}
  - {{at: declare-blockers, by: A, effect: counters, target: wurm, amount: {BOUND}}}
  - {{at: declare-blockers, by: B, effect: activate, source: elf, ability: 0}}
"""

SPLIT = f"""\
id: big-numbers-2
title: more numbers at their bound
players: [{{name: A}}, {{name: B}}]
active: A
permanents:
  - {{id: twin, controller: A, power: 2, toughness: 2, keywords: [double-strike]}}
  - {{id: wall, controller: B, power: 0, toughness: 4,
     abilities: [{{trigger: blocks, effect: gain-life, target: controller, amount: {BOUND}}},
                 {{trigger: blocks, effect: grant, target: self, keyword: {{bushido: {BOUND}}}}}]}}
combat:
  attacks: {{twin: B}}
  blocks: {{wall: twin}}
  assign: {{twin: {{first: {{wall: {BOUND}}}, second: {{wall: {BOUND}}}}}}}
actions:
  - {{at: declare-blockers, by: A, effect: grant, target: twin, keyword: {{rampage: {BOUND}}}}}
"""

DUEL_MASTERS = f"""\
id: big-shields
title: every number at its bound
game: duel-masters
players: [{{name: A, shields: {BOUND}, mana: {BOUND}, hand: {BOUND}}}, {{name: B}}]
active: A
permanents:
  - {{id: balga, controller: A, power: {BOUND}, keywords: [{{breaker: {BOUND}}}],
     abilities: [{{trigger: attacks, effect: draw, target: controller, amount: {BOUND}}}]}}
  - {{id: shinobi, controller: B, power: 1000, zone: hand, keywords: [{{ninja-strike: {BOUND}}}]}}
combat:
  attacks: {{balga: B}}
"""

# (the field's place as the error names it, the text at the bound, one past it)
MAGIC_FIELDS = [
    ("players[0].life", f"life: {BOUND},", f"life: {BOUND + 1},"),
    ("players[1].life", f"life: -{BOUND},", f"life: -{BOUND + 1},"),
    ("players[0].mana", f"mana: {BOUND}, poison", f"mana: {BOUND + 1}, poison"),
    ("players[0].poison", "poison: 0}", "poison: -1}"),
    ("permanents[0].power", f"power: {BOUND}, toughness: {BOUND}, damage: 0",
     f"power: {BOUND + 1}, toughness: {BOUND}, damage: 0"),
    ("permanents[0].toughness", f"toughness: {BOUND}, damage: 0",
     f"toughness: {BOUND + 1}, damage: 0"),
    ("permanents[1].damage", "damage: 999999", f"damage: {BOUND + 1}"),
    ("permanents[0].keywords", f"rampage: {BOUND}", f"rampage: {10**9}"),
    ("permanents[0].keywords", f"bushido: {BOUND}", f"bushido: {10**9}"),
    ("permanents[0].keywords", f"rampage: {BOUND}", "rampage: 0"),
    ("permanents[1].keywords", "cant-be-blocked-except-by: 1",
     f"cant-be-blocked-except-by: {10**9}"),
    ("permanents[1].block-cost", "block-cost: 0", "block-cost: -1"),
    ("permanents[2].loyalty", f"loyalty: {BOUND}", f"loyalty: {BOUND + 1}"),
    ("permanents[3].defense", f"defense: {BOUND}", f"defense: {BOUND + 1}"),
    ("permanents[4].abilities[0].mana", f"mana: {BOUND}, effect", f"mana: {BOUND + 1}, effect"),
    ("permanents[4].abilities[0].power", f"target: self,\n                  power: {BOUND}",
     f"target: self,\n                  power: {BOUND + 1}"),
    ("combat.assign.wurm", f"wall: {BOUND}}}}}", f"wall: {BOUND + 1}}}}}"),
    ("actions[0].power", f"target: wall, power: {BOUND}", f"target: wall, power: {BOUND + 1}"),
    ("actions[0].toughness", f"     toughness: -{BOUND}}}", f"     toughness: -{BOUND + 1}}}"),
    ("actions[1].amount", f"amount: {BOUND}}}", f"amount: {BOUND + 1}}}"),
    ("actions[2].ability", "ability: 0}", "ability: -1}"),
    ("permanents[4].abilities[0].toughness", f"toughness: -{BOUND}}}]}}",
     f"toughness: -{BOUND + 1}}}]}}"),
]
SPLIT_FIELDS = [
    ("permanents[1].abilities[0].amount", f"amount: {BOUND}}},", f"amount: {BOUND + 1}}},"),
    ("permanents[1].abilities[1].keyword", f"bushido: {BOUND}}}", f"bushido: {10**9}}}"),
    ("combat.assign.twin.first", f"first: {{wall: {BOUND}}}", f"first: {{wall: {BOUND + 1}}}"),
    ("combat.assign.twin", f"second: {{wall: {BOUND}}}", f"second: {{wall: {BOUND + 1}}}"),
    ("actions[0].keyword", f"rampage: {BOUND}}}", f"rampage: {10**9}}}"),
]
DM_FIELDS = [
    ("players[0].shields", f"shields: {BOUND},", f"shields: {BOUND + 1},"),
    ("players[0].mana", f"mana: {BOUND},", f"mana: {BOUND + 1},"),
    ("players[0].hand", f"hand: {BOUND}}}", f"hand: {BOUND + 1}}}"),
    ("permanents[0].power", f"power: {BOUND}, keywords", f"power: {BOUND + 1}, keywords"),
    ("permanents[0].keywords", f"breaker: {BOUND}", f"breaker: {10**9}"),
    ("permanents[1].keywords", f"ninja-strike: {BOUND}", f"ninja-strike: {10**9}"),
    ("permanents[0].abilities[0].amount", f"amount: {BOUND}}}", f"amount: {BOUND + 1}}}"),
]


def _write(tmp_path, text):
    path = tmp_path / "numbers.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("text", [MAGIC, SPLIT, DUEL_MASTERS],
                         ids=["mtg", "mtg-split", "duel-masters"])
def test_every_number_at_its_bound_runs_without_a_traceback(tmp_path, text):
    path = _write(tmp_path, text)
    checked = runner.invoke(app, ["validate", str(path)])
    assert checked.exit_code == 0, checked.output
    ran = runner.invoke(app, ["diff", str(path), "--no-store", "--json"])
    assert ran.exit_code in (0, 1), ran.output
    assert ran.exception is None or isinstance(ran.exception, SystemExit), ran.exception


@pytest.mark.parametrize(("text", "field", "at", "over"),
                         [(MAGIC, *f) for f in MAGIC_FIELDS]
                         + [(SPLIT, *f) for f in SPLIT_FIELDS]
                         + [(DUEL_MASTERS, *f) for f in DM_FIELDS],
                         ids=[f"mtg:{f[0]}:{f[2][-12:]}" for f in MAGIC_FIELDS]
                         + [f"mtg:{f[0]}:{f[2][-12:]}" for f in SPLIT_FIELDS]
                         + [f"dm:{f[0]}" for f in DM_FIELDS])
def test_a_number_past_its_bound_is_a_file_line_field_error(tmp_path, text, field, at, over):
    assert at in text, at
    path = _write(tmp_path, text.replace(at, over, 1))
    line = text[:text.index(at) + at.index(next(c for c in at if c.isdigit() or c == "-"))
                ].count("\n") + 1
    for command in (["validate", str(path)], ["diff", str(path), "--no-store"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, (command, result.output)
        assert isinstance(result.exception, SystemExit), result.exception
        assert f"{path}:{line}: {field}" in result.output, (command, result.output)
