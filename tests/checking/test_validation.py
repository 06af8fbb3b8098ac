"""`rulesdiff validate`: every problem with its place; no input ever crashes the engine."""

import copy
import random
from pathlib import Path

import yaml
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import shipped_scenarios
from comparator.files.problems import ScenarioError
from comparator.scenarios.loader import parse
from versions import ERAS, run

BROKEN = Path(__file__).parents[1] / "broken"
runner = CliRunner()


def validate(*paths: str):
    return runner.invoke(app, ["validate", *paths])


def test_validate_reports_every_problem_with_its_place():
    result = validate(str(BROKEN))
    assert result.exit_code == 2
    out = result.output
    expected = [
        "malformed.yaml:4: malformed YAML",
        "ids.yaml:7: permanents[1].id: id 'bear' is used twice",
        "ids.yaml:8: permanents[2].id: id 'b' is also a player's name",
        "ids.yaml:9: permanents[3].controller: 'c' is not one of the players",
        "unknown-things.yaml:7: permanents[1].colour: unknown key 'colour'",
        "unknown-things.yaml:8: permanents[2].keywords: unknown keyword 'flyng'",
        "unknown-things.yaml:9: permanents[3].card: unknown card 'Colossal Golem'",
        "unknown-things.yaml:13: actions[0]: unknown effect 'explode'",
        "references.yaml:12: combat.blocks.elf: 'giant' is not attacking",
        "references.yaml:14: combat.assign.wurm.elf: 'elf' is not a creature wurm is blocked by",
        "references.yaml:16: actions[0].target: target 'dragon' is not a permanent",
        "references.yaml:17: actions[1].by: 'C' is not one of the players",
        "references.yaml:19: expect.m12: unknown era 'm12'",
        "references.yaml:24: expect.m10.permanents.bear.zone: zone 'dead'",
        "references.yaml:24: expect.m10.permanents.bear.size: a permanent's outcome has no field",
        "illegal-block.yaml:10: combat.blocks.bear: illegal block in alpha, fourth, fifth, sixth, "
        "m10, m11, foundations: bear can't block angel",
        "(rule p.27 in alpha, C.6.Ruling.1 in fourth, fifth, 500.3 in sixth, 509.1b in m10, "
        "m11, foundations)",
        "requirement.yaml:8: combat.blocks: illegal block in alpha, fourth, fifth, sixth, m10, "
        "m11, foundations: the blocks obey 0 of 1 requirements (eager must block if able), but "
        "1 can be obeyed without breaking a restriction, e.g. blocks: {eager: giant} (rule "
        "p.24 in alpha, C.6.6 in fourth, fifth, 500.4 in sixth, 509.1c in m10, m11, foundations)",
    ]
    for line in expected:
        assert line in out, line


def test_validate_accepts_the_shipped_scenarios():
    result = validate(*[str(p) for p in shipped_scenarios()])
    assert result.exit_code == 0, result.output


def _mutations(raw: dict, rng: random.Random):
    """Small damages a person might do to a file: drop a key, change a value's type."""
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                paths.append((*path, k))
                walk(v, (*path, k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                paths.append((*path, i))
                walk(v, (*path, i))

    walk(raw, ())
    for _ in range(60):
        doc = copy.deepcopy(raw)
        path = rng.choice(paths)
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        replacement = rng.choice([None, 0, -3, "x", [], {}, ["bear"], {"a": 1}, True, 99])
        if rng.random() < 0.3 and isinstance(parent, dict):
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = replacement
        yield doc


def test_no_input_crashes_the_engine():
    rng = random.Random(7)
    for path in shipped_scenarios():
        raw = yaml.safe_load(path.read_text())
        for doc in _mutations(raw, rng):
            try:
                scenario = parse(yaml.safe_dump(doc), "<mutated>")
            except ScenarioError:
                continue
            for era in ERAS:
                try:
                    run(era.id, scenario)
                except Exception as exc:  # an illegal choice, or what the era lacked
                    assert type(exc).__name__ in ("IllegalBlocks", "IllegalAttacks",
                                                  "NotInEra"), (path, doc, exc)
