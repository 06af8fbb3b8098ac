"""Explore searches one block declaration for each class of declarations that differ only
in which interchangeable creatures do what (``comparator.games.mtg.interchangeable``), the
others renamed from it. The outcomes, line counts and values must be those of a search of
every declaration (and of brute force where it is small); each outcome's example, renamed
or not, must be a line of play that reaches it."""

from pathlib import Path

import pytest

from comparator.games.exploration import era_result
from comparator.games.mtg import interchangeable
from comparator.games.mtg.explore import Explorer, Options, project
from comparator.games.mtg.interchangeable import Symmetry
from comparator.scenarios.loader import load
from versions import ERA_IDS, NotInEra, find_era
from versions.mtg.engine.outcome import outcome
from versions.mtg.play import exploration

BOARDS = sorted((Path(__file__).parent / "boards").glob("interchangeable-*.yaml"))


def without_examples(found: dict) -> dict:
    return {**found, "outcomes": [{k: v for k, v in o.items() if k != "example"}
                                  for o in found["outcomes"]]}


def explored(s, era: str, symmetric: bool, **options) -> dict | None:
    explorer = Explorer(s, era, blocks="all", **options)
    explorer.symmetric = symmetric
    try:
        return era_result(explorer, explorer.run())
    except NotInEra:
        return None


def replayed(s, era: str, line: list[dict], fields: str) -> dict:
    """The projected state a line of play reaches, each decision taken as recorded (one
    with a single option is not recorded unless its class stood for several)."""
    combat = exploration(find_era(era)(), s)
    options = Options(combat, "all")
    line = list(line)
    while (d := combat.advance()) is not None:
        choices = options.of(d)
        records = {id(c): options.record(combat, d, c) for c in choices}
        matching = [c for c in choices if line and records[id(c)] == line[0]]
        if matching:
            choice = matching[0]
            line.pop(0)
        else:
            assert len(choices) == 1, (d.kind, line[:1])
            choice = choices[0]
        combat.resume(choice)
    assert not line
    return project(outcome(combat.board), fields, combat.board)


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
@pytest.mark.parametrize("fields", ["end-of-turn", "all"])
def test_one_declaration_a_class_equals_every_declaration(path, fields):
    s = load(path)
    compared = 0
    for era in ERA_IDS:
        found = explored(s, era, True, fields=fields)
        every = explored(s, era, False, fields=fields)
        if found is None:
            assert every is None
            continue
        assert without_examples(found) == without_examples(every), era
        assert found["value"] == every["value"]
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("path", BOARDS, ids=[p.stem for p in BOARDS])
def test_every_example_reaches_its_outcome(path):
    # Renamed examples included: replayed decision by decision, each reaches its state.
    s = load(path)
    for era in ("sixth", "m10", "foundations"):
        found = explored(s, era, True, fields="all")
        assert found is not None
        for o in found["outcomes"]:
            assert replayed(s, era, o["example"], "all") == o["state"], (era, o["state"])


@pytest.mark.parametrize("era", ["fourth", "sixth", "m10", "foundations"])
def test_three_on_three_equals_brute_force(era):
    s = load(BOARDS[[p.stem for p in BOARDS].index("interchangeable-three-on-three")])
    found = explored(s, era, True)
    brute = Explorer(s, era, blocks="all", merge=False)
    assert without_examples(found) == without_examples(era_result(brute, brute.run()))


def test_the_classes_of_interchangeable_creatures():
    s = load(BOARDS[[p.stem for p in BOARDS].index("interchangeable-tramplers-and-tricks")])
    combat = exploration(find_era("m10")(), s)
    combat.advance()  # the blocks decision
    symmetry = Symmetry.of(combat)
    assert symmetry is not None
    # fs and wall are named by actions; t1, t2 alike; d1, d2 alike.
    assert sorted(map(sorted, symmetry.members)) == [["d1", "d2"], ["t1", "t2"]]
    first = symmetry.form({"d1": ("t1",), "wall": ("fs",)})
    other = symmetry.form({"d2": ("t2",), "wall": ("fs",)})
    assert first is not None and other is not None and first[0] == other[0]
    assert symmetry.mapping(first[1], other[1]) == {"t1": "t2", "t2": "t1", "d1": "d2",
                                                    "d2": "d1"}
    # Blocking the unique first striker is not blocking a trampler.
    assert symmetry.form({"d1": ("fs",)})[0] != symmetry.form({"d1": ("t1",)})[0]


def test_fewer_searches_on_a_board_of_alike_creatures(monkeypatch):
    renamed = []
    real = interchangeable.Renaming.reach

    def spy(self, reach, sigma):
        renamed.append(sigma)
        return real(self, reach, sigma)
    monkeypatch.setattr(interchangeable.Renaming, "reach", spy)
    s = load(BOARDS[[p.stem for p in BOARDS].index("interchangeable-three-on-three")])
    explorer = Explorer(s, "m10", blocks="all")
    explorer.run()
    # 64 declarations (each of three blockers: nothing, or one of three attackers) in 7
    # classes (how many block, and how they share attackers out): 57 renamed.
    assert len(renamed) == 57


def test_not_where_the_scenario_names_them():
    # Written orders and amounts, and actions, name creatures: those are not renamed.
    s = load("data/scenarios/double-striker-divides-each-step.yaml")
    combat = exploration(find_era("m10")(), s)
    combat.advance()
    assert Symmetry.of(combat) is None
