"""Every command readable at 80 columns (the newcomer's issue, point 2): no line longer than
80, no word cut across two lines (a wrapped line ends with a whole word), no `…`; a table
too wide for the terminal is laid out another way, not squeezed."""

import re

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.files.locations import shipped_scenarios

runner = CliRunner()
BOX = re.compile(r"[│┃┏┓┗┛┡┩┳┻╇╈━─┌┐└┘├┤┬┴┼]")
SHIPPED = [p.stem for p in shipped_scenarios()]


def _tokens(text: str) -> list[str]:
    return BOX.sub(" ", text).split()


def _check(args: list[str]) -> None:
    narrow = runner.invoke(app, args, env={"COLUMNS": "80"}).output
    wide = set(_tokens(runner.invoke(app, args, env={"COLUMNS": "1000"}).output))
    lines = narrow.splitlines()
    assert lines, args
    for line in lines:
        assert len(line) <= 80, (args, line)
    for a, b in zip(lines, lines[1:], strict=False):
        ta, tb = _tokens(a), _tokens(b)
        if ta and tb:  # a word split over two lines is no word of the wide output
            assert not (ta[-1] not in wide and ta[-1] + tb[0] in wide), (args, a, b)
    assert "…" not in narrow, args


@pytest.mark.parametrize("scenario", SHIPPED[::7] + ["giant-growth-vs-assignment-order",
                                                     "fifth-giant-growth-in-the-prevention-step"])
def test_diff_at_80_columns(scenario):
    _check(["diff", scenario, "--no-store"])


@pytest.mark.parametrize("scenario", ["giant-growth-vs-assignment-order",
                                      "fifth-master-of-arms-taps-a-blocker",
                                      "dm-blocker-then-guardman-relay",
                                      "lifelink-blocker-at-one-life"])
def test_explore_and_run_at_80_columns(scenario):
    _check(["explore", scenario, "--no-store"])
    era = "dm-2021-09" if scenario.startswith("dm-") else "fifth"
    if scenario == "lifelink-blocker-at-one-life":
        era = "sixth"
    _check(["run", scenario, "--era", era])


@pytest.mark.parametrize("args", [["eras"], ["eras", "sixth"], ["eras", "2008-06-01"],
                                  ["scenarios"], ["catalog"],
                                  ["blocks", "lure-all-must-block", "--era", "m10"]])
def test_listings_at_80_columns(args):
    _check(args)


def test_eras_lists_each_era_whole():
    out = runner.invoke(app, ["eras"], env={"COLUMNS": "80"}).output
    assert "fifth (mtg, 1998-10-18 to 1999-04-22): Fifth Edition (damage prevention step)" \
        in out
    assert "foundations (mtg, 2024-11-08 to today): Foundations (free division)" in out
    one = runner.invoke(app, ["eras", "m11"], env={"COLUMNS": "80"}).output
    assert "rules cited: Comprehensive Rules of 2010-07-16" in one and "sources:" in one


def test_a_wide_divergence_table_is_stacked_at_80_columns():
    out = runner.invoke(app, ["diff", "giant-growth-vs-assignment-order", "--no-store"],
                        env={"COLUMNS": "80"}).output
    assert ("bear.zone: battlefield in alpha, fourth, fifth, sixth, foundations; graveyard in\n"
            "    m10, m11") in out  # wrapped at 80, its continuation indented
    assert all(len(line) <= 80 for line in out.splitlines())
    wide = runner.invoke(app, ["diff", "giant-growth-vs-assignment-order", "--no-store"],
                         env={"COLUMNS": "120"}).output
    assert "┃ field" in wide  # the table, where it fits
