"""The work behind the commands, called without the command line: `verify`'s tallies,
`validate`'s problems, exploring files, `dataset build` and `dataset generate`'s folder
rules; and the options the commands share, declared once."""

import json
from pathlib import Path

import click
import pytest
import typer.main
import yaml
from stored_rows import EXAMPLE, variants
from typer.testing import CliRunner

from comparator.checking.validation import validate_files
from comparator.checking.verify import verify_files
from comparator.cli.main import app
from comparator.dataset.build import run_build
from comparator.dataset.runs import DatasetError, generation_count
from comparator.explore.files import ExploreError, explore_file, explore_files
from comparator.files.file_sets import MANIFEST
from comparator.files.locations import find_scenario
from comparator.files.problems import ScenarioError
from comparator.scenarios.loader import load
from comparator.store.database import open_engine
from versions import ERA_IDS, eras_of

runner = CliRunner()


def test_verify_tallies_what_it_checked_and_what_it_did_not():
    path = find_scenario(EXAMPLE)
    expected = yaml.safe_load(path.read_text())["expect"]
    found = verify_files([path])
    assert found.ok and found.files == 1 and found.checked == len(expected)
    assert found.unchecked == {e: 1 for e in eras_of("mtg") if e not in expected}
    assert found.refused == {} and found.mismatches == []
    doc = found.document()
    assert list(doc) == ["files", "checked", "ok", "unchecked", "refused", "mismatches"]
    assert json.loads(runner.invoke(app, ["verify", str(path), "--json"]).output) == doc


def test_verify_names_the_file_of_each_mismatch(tmp_path):
    path = tmp_path / "wrong.yaml"
    text = find_scenario(EXAMPLE).read_text()
    raw = yaml.safe_load(text)
    era = next(iter(raw["expect"]))
    raw["expect"] = {era: {"players": {"B": {"life": 1234}}}}
    path.write_text(yaml.safe_dump(raw, sort_keys=False))
    found = verify_files([path])
    assert not found.ok and found.checked == 1
    assert found.mismatches == [{"file": str(path), "era": era, "field": "players.B.life",
                                 "expected": 1234, "got": found.mismatches[0]["got"]}]


def test_verify_refuses_a_file_it_cannot_load(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\n")
    with pytest.raises(ScenarioError):
        verify_files([bad])


def test_validate_finds_every_problem_once(tmp_path):
    good = find_scenario(EXAMPLE)
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("id: bear", "id: giant", 1))
    assert validate_files([good]) == []
    problems = validate_files([good, bad])
    assert problems and all(p.file == str(bad) for p in problems)
    assert len({str(p) for p in problems}) == len(problems)


def test_validate_refuses_an_id_two_files_share(tmp_path):
    # An id names one scenario in a dataset (spec §1): a second file with it is a problem
    # of that file's `id`, with the first named; the same file twice is not.
    good = find_scenario(EXAMPLE)
    again = tmp_path / "again.yaml"
    again.write_text(good.read_text().replace("title: ", "title: again, ", 1))
    assert validate_files([good, good]) == []
    assert validate_files([good, good.parent / ".." / good.parent.name / good.name]) == []
    [problem] = validate_files([good, again])
    assert (problem.file, problem.path, problem.line) == (str(again), "id", 1)
    assert f"is also the id of {good}" in problem.message


def test_explore_failures_are_one_line_errors():
    path = find_scenario(EXAMPLE)
    scenario = load(path)
    with pytest.raises(ExploreError, match=r"(more than 5 lines|the limit is 5).*raise --limit"):
        explore_file(path, scenario, list(ERA_IDS), limit=5)
    with pytest.raises(ExploreError, match="is an era of"):
        next(explore_files([(path, scenario)], ["dm-2021-09"], "material", "end-of-turn",
                           "fixed", 1000))


def test_explore_files_keeps_refusals_apart_and_reports_each_search():
    path = find_scenario(EXAMPLE)
    seen: list[str] = []

    class Watch:
        def __init__(self, scenario_id: str) -> None:
            seen.append(scenario_id)

        def __enter__(self):
            return lambda era, lines: None

        def __exit__(self, *exc: object) -> None:
            seen.append("closed")

    [done] = explore_files([(path, load(path))], list(ERA_IDS), "material", "end-of-turn",
                           "fixed", 1_000_000, Watch)
    assert "refused" not in done.doc and done.doc["scenario"] == EXAMPLE
    assert set(done.doc["eras"]) == set(eras_of("mtg")) - set(done.refused)
    assert seen == [EXAMPLE, "closed"]


def test_run_build_reports_what_the_command_prints(tmp_path):
    folder = variants(tmp_path / "v", 3)
    paths = sorted(folder.glob("*.yaml"))
    engine = open_engine(str(tmp_path / "a.db"))
    ran: list[int] = []
    built = run_build(engine, paths, [folder], batch=2, explore=True, progress=ran.append)
    engine.dispose()
    assert sum(ran) == 3 and built.summary.scenarios == 3
    assert built.explored is not None and built.explored["scenarios"] == 3
    assert built.generated == []  # a folder written by hand: no manifest
    printed = runner.invoke(app, ["dataset", "build", str(folder), "--db",
                                  str(tmp_path / "b.db"), "--json", "--explore"])
    assert json.loads(printed.output) == built.document()


def test_run_build_stores_how_a_generated_folder_was_made(tmp_path):
    out = tmp_path / "gen"
    assert runner.invoke(app, ["dataset", "generate", str(out), "--count", "3", "--seed", "7",
                               "--jobs", "1"]).exit_code == 0
    paths = sorted(p for p in out.rglob("*.yaml"))
    engine = open_engine(str(tmp_path / "g.db"))
    built = run_build(engine, paths, [out])
    engine.dispose()
    manifest = json.loads((out / MANIFEST).read_text())
    assert built.generated == [{"seed": 7, "count": 3, "generator": manifest["generator"]}]
    assert built.document()["generated"] == built.generated


def test_generation_count_resumes_extends_or_refuses(tmp_path):
    new = tmp_path / "new"
    assert generation_count(new, 1, 10, 2) == 10
    new.mkdir()
    (new / MANIFEST).write_text(json.dumps({"generator": 2, "seed": 1, "count": 20,
                                            "parameters": {}}))
    assert generation_count(new, 1, 10, 2) == 20  # resumed: never fewer than it holds
    assert generation_count(new, 1, 30, 2) == 30  # extended
    with pytest.raises(DatasetError, match="holds scenarios of seed 1"):
        generation_count(new, 2, 10, 2)
    (new / MANIFEST).write_text("{")
    with pytest.raises(DatasetError, match="not a generator manifest"):
        generation_count(new, 1, 10, 2)
    file = tmp_path / "file"
    file.write_text("")
    with pytest.raises(DatasetError, match="not a folder"):
        generation_count(file, 1, 10, 2)
    with pytest.raises(DatasetError, match="holds scenario files already"):
        generation_count(variants(tmp_path / "v", 1), 1, 10, 2)


def options(command: click.Command, path: str = "") -> dict[str, click.Parameter]:
    out = {}
    for p in command.params:
        out[f"{path} {p.name}"] = p
    for name, sub in getattr(command, "commands", {}).items():
        out.update(options(sub, f"{path} {name}"))
    return out


@pytest.mark.parametrize("flag", ["--db", "--no-store", "--jobs"])
def test_a_shared_option_reads_the_same_in_every_command(flag: str):
    found = [p for p in options(typer.main.get_command(app)).values()
             if flag in getattr(p, "opts", [])]
    assert len(found) >= 2
    shown = {(tuple(p.opts), getattr(p, "help", None), p.metavar, p.default) for p in found}
    assert len(shown) == 1, shown


def test_every_json_flag_is_the_same_flag():
    found = [p for p in options(typer.main.get_command(app)).values()
             if "--json" in getattr(p, "opts", [])]
    assert len(found) > 10
    assert {(tuple(p.opts), p.is_flag, p.default) for p in found} == {(("--json",), True,
                                                                       False)}


def test_the_shipped_list_reads_every_shipped_file():
    from comparator.files.locations import shipped_scenarios
    from comparator.scenarios.shipped import scenario_rows

    rows = scenario_rows()
    assert [Path(r["file"]) for r in rows] == shipped_scenarios()
    assert {"id", "title", "tags", "file"} == set(rows[0])
