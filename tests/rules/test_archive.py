"""Every release at once (issue 48): `rules import --git REPO` reads a git archive of one
file, one commit per release, dated to the release and named after its set, with a
`versions.json` manifest, as LaurieCheers/CompRulesHistory keeps the Comprehensive Rules;
`rules import FOLDER` reads a folder of dated texts. The archives are built here from the
verbatim texts of ../shared/reference/, in the archive's normalized form
(tests/archive_form.py) and as published."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference"
FULL = ("1999-04-23", "2009-05-01", "2009-07-08", "2010-07-16", "2022-04-29", "2025-02-07")
needs_reference = pytest.mark.skipif(not REFERENCE.exists(),
                                     reason="shared/reference is not beside the repo")
# The releases of the reference texts: the manifest's names for those it lists (facts of
# the public archive's versions.json); the 2025 text's set is not named there.
RELEASES = {"1999-04-23": ("6ED", "Classic Sixth Edition"),
            "2009-05-01": ("ARB", "Alara Reborn"),
            "2009-07-08": ("M10", "Magic 2010"),
            "2010-07-16": ("M11", "Magic 2011"),
            "2022-04-29": ("SNC", "Streets of New Capenna")}


def cli(*args: str):
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def _normalized(text: str) -> str:
    from archive_form import normalized

    return normalized(text)


def git_archive(where: Path, form=_normalized, manifest: bool = True) -> Path:
    """The reference texts as one file's history, one commit a release."""
    repo = where / "CompRulesHistory"
    repo.mkdir()
    run = lambda *a, **env: subprocess.run(["git", "-C", str(repo), *a], check=True,  # noqa: E731
                                           capture_output=True, env={**os.environ, **env})
    run("init", "-q")
    listed = []
    for day in FULL:
        text = (REFERENCE / f"cr-{day}.txt").read_text(encoding="utf-8", errors="replace")
        (repo / "comprehensive-rules.txt").write_text(form(text), encoding="utf-8")
        code, name = RELEASES.get(day, ("", f"Comprehensive Rules {day}"))
        if code:
            listed.append({"setCode": code, "setName": name, "creationDay": day})
        if manifest:
            (repo / "versions.json").write_text(json.dumps(listed, indent=2))
        run("add", "-A")
        month = {"01": "January", "02": "February", "04": "April", "05": "May",
                 "07": "July"}[day[5:7]]
        stamp = f"{day}T12:00:00"
        run("-c", "user.name=archive", "-c", "user.email=archive@example.invalid", "commit",
            "-q", "-m", f"[{month} {day[:4]}] {name} {code}".rstrip(),
            GIT_AUTHOR_DATE=stamp, GIT_COMMITTER_DATE=stamp)
    return repo


@needs_reference
def test_a_git_archive_imports_every_release_with_its_name(tmp_path):
    repo = git_archive(tmp_path)
    db = str(tmp_path / "a.db")
    done = cli("rules", "import", "--git", str(repo), "--db", db, "--json")
    assert done.exit_code == 0, done.output
    imported = json.loads(done.output)
    assert [d["effective"] for d in imported] == [
        "1999-04-23", "2009-05-01", "2009-07-11", "2010-07-16", "2022-04-29", "2025-02-07"]
    assert [d["release"] for d in imported] == [
        "Classic Sixth Edition (6ED)", "Alara Reborn (ARB)", "Magic 2010 (M10)",
        "Magic 2011 (M11)", "Streets of New Capenna (SNC)", "Comprehensive Rules 2025-02-07"]
    # The normalized texts hold the rules the published ones do.
    assert all(d["rules"] > 300 for d in imported)
    again = cli("rules", "import", "--git", str(repo), "--db", db, "--json")
    assert [d["stored"] for d in json.loads(again.output)] == [0] * 6


@needs_reference
def test_a_change_between_consecutive_releases_is_dated_to_the_release(tmp_path):
    repo = git_archive(tmp_path)
    db = str(tmp_path / "a.db")
    assert cli("rules", "import", "--git", str(repo), "--db", db).exit_code == 0
    found = json.loads(cli("history", "510.1c", "--db", db, "--json").output)
    v = {x["effective"]: x for x in found["versions"]}
    # In the archive, 2009-07-08 follows 2009-05-01 directly: M10's release made the change.
    assert v["2009-07-11"]["dated"] == {"on": "2009-07-11", "release": "Magic 2010 (M10)",
                                        "era": "m10"}
    assert v["2009-07-11"]["release"] == "Magic 2010 (M10)"
    assert v["2009-07-11"]["gap"] is None
    # The 1999 text and 2009-05-01 are two consecutive commits of this archive too: no gap
    # is claimed between releases the archive says are consecutive.
    assert v["2009-05-01"]["gap"] is None
    assert v["2009-05-01"]["dated"]["on"] == "2009-05-01"


@needs_reference
def test_a_folder_of_dated_texts_is_an_archive(tmp_path):
    folder = tmp_path / "releases"
    folder.mkdir()
    for day in FULL[1:4]:
        code, name = RELEASES[day]
        (folder / f"{day} {name}.txt").write_bytes((REFERENCE / f"cr-{day}.txt").read_bytes())
    db = str(tmp_path / "f.db")
    done = cli("rules", "import", str(folder), "--db", db, "--json")
    assert done.exit_code == 0, done.output
    assert [d["release"] for d in json.loads(done.output)] == [
        "Alara Reborn", "Magic 2010", "Magic 2011"]
    found = json.loads(cli("history", "lifelink", "--db", db, "--json").output)
    assert found["versions"][1]["dated"]["release"] == "Magic 2010"


@needs_reference
def test_an_archive_after_single_texts_names_their_releases(tmp_path):
    db = str(tmp_path / "s.db")
    assert cli("rules", "import", str(REFERENCE / "cr-2009-07-08.txt"), "--db",
               db).exit_code == 0
    repo = git_archive(tmp_path, form=lambda text: text)  # the published texts
    done = cli("rules", "import", "--git", str(repo), "--db", db, "--json")
    assert done.exit_code == 0, done.output
    m10 = next(d for d in json.loads(done.output) if d["effective"] == "2009-07-11")
    assert m10["stored"] == 0 and m10["release"] == "Magic 2010 (M10)"
    found = json.loads(cli("history", "509.2", "--db", db, "--json").output)
    assert found["versions"][0]["release"] == "Magic 2010 (M10)"


def test_what_is_no_archive_is_one_line_and_stores_nothing(tmp_path):
    db = tmp_path / "x.db"
    empty = tmp_path / "empty"
    empty.mkdir()
    for args, said in (
            (["--git", str(tmp_path / "nowhere")], "no such folder"),
            (["--git", str(empty)], "not a git archive"),
            ([str(empty)], "no *.txt rules texts")):
        done = cli("rules", "import", *args, "--db", str(db))
        assert done.exit_code == 2, done.output
        assert len(done.output.strip().splitlines()) == 1 and said in done.output
    assert not db.exists()
    odd = tmp_path / "odd"
    odd.mkdir()
    (odd / "2009-13-45 bad.txt").write_text("x")
    (odd / "a.txt").mkdir()  # a folder named like a text: passed over
    done = cli("rules", "import", str(odd), "--db", str(db))
    assert done.exit_code == 2 and "2009-13-45 is not a date" in done.output
    (odd / "2009-13-45 bad.txt").unlink()
    os.mkfifo(odd / "2009-01-01 pipe.txt")  # never waited on
    done = cli("rules", "import", str(odd), "--db", str(db))
    assert done.exit_code == 2 and "not a regular file" in done.output
    assert not db.exists()
    repo = tmp_path / "other"
    repo.mkdir()
    subprocess.run(["git", "-C", str(repo), "init", "-q"], check=True)
    (repo / "notes.txt").write_text("nothing\n")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=a", "-c",
                    "user.email=a@example.invalid", "commit", "-q", "-m", "x"], check=True)
    done = cli("rules", "import", "--git", str(repo), "--db", str(db))
    assert done.exit_code == 2 and "--file" in done.output
    done = cli("rules", "import", "--git", str(repo), "--file", "notes.txt", "--db", str(db))
    assert done.exit_code == 2 and "other@" in done.output
    assert not db.exists()


@needs_reference
def test_one_release_in_two_forms_is_one_document(tmp_path):
    db = tmp_path / "two.db"
    published = [str(REFERENCE / f"cr-{day}.txt") for day in FULL]
    assert cli("rules", "import", *published, "--db", str(db)).exit_code == 0
    repo = git_archive(tmp_path)  # the same releases, normalized
    done = cli("rules", "import", "--git", str(repo), "--db", str(db), "--json")
    assert done.exit_code == 0, done.output
    assert [d["stored"] for d in json.loads(done.output)] == [0] * 6
    import sqlite3

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT effective, release FROM rule_document").fetchall()
    assert len(rows) == 6 and all(release for _, release in rows)
    found = json.loads(cli("history", "510.1c", "--db", str(db), "--json").output)
    assert len({v["effective"] for v in found["versions"]}) == len(found["versions"])
