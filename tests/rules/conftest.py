"""What the tests of the rules' texts share: a store with every verbatim text of
../shared/reference/ imported (the tests that use it skip without it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
FULL = ("1999-04-23", "2009-05-01", "2009-07-08", "2010-07-16", "2022-04-29", "2025-02-07")
SUMMARY = "rulings-summary-fifth-edition-1999.txt"


def _cli(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})


@pytest.fixture(scope="session")
def all_texts(tmp_path_factory):
    """A store with every full text and the rulings summary imported."""
    if not REFERENCE.exists():
        pytest.skip("shared/reference is not beside the repo")
    db = str(tmp_path_factory.mktemp("rules") / "rules.db")
    done = _cli("rules", "import", *[str(REFERENCE / f"cr-{d}.txt") for d in FULL], "--db", db)
    assert done.exit_code == 0, done.output
    summary = _cli("rules", "import", str(REFERENCE / SUMMARY), "--date", "1999-05-16",
                   "--db", db)
    assert summary.exit_code == 0, summary.output
    return db
