"""Every release of the rules at once: an archive of dated texts, read in release order
with each release's name, for `rules import --git REPO` and `rules import FOLDER`.

Two shapes are read:

- A git history of one file, one commit per release (the public archive
  LaurieCheers/CompRulesHistory keeps every Comprehensive Rules release since April 1999
  so, as `comprehensive-rules.txt`). Each commit is dated to its release day and named after
  the set ("[July 2009] Magic 2010 M10"); a `versions.json` manifest at the newest commit
  (`setCode`, `setName`, `creationDay`, oldest first) names the releases where it has them.
- A folder of texts, one file a release. A file's release day is the date its name starts
  with (`2009-07-08 Magic 2010.txt`), else the one the text states; its name is the rest of
  the file name, or the manifest's (`versions.json` in the folder) for that day.

The texts themselves are read by ``comparator.rules.reading`` (the published form and the
archive's normalized one alike): a release's document keeps the date it states it is
effective from, and the release day only where it states none.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from datetime import date
from pathlib import Path

FILE = "comprehensive-rules.txt"
MAX_BYTES = 100_000_000  # the 2025 text is under 1 MB: a bigger file is no rules text
_SUBJECT = re.compile(r"^\[[A-Za-z]+ \d{4}\]\s+(?P<name>.+?)(?:\s+(?P<code>[0-9A-Z_]{2,6}))?$")
_DAY = re.compile(r"^(\d{4}-\d\d-\d\d)[ _-]*(.*)$")


class ArchiveError(Exception):
    """An archive that can't be read: one line naming it and the cause."""


@dataclass(frozen=True)
class Release:
    text: str
    day: str  # YYYY-MM-DD, the release's own day
    name: str | None  # "Magic 2010 (M10)"
    position: int  # its place among the archive's releases, oldest first
    source: str  # where it was read: "REPO@abc1234" or a file's path


def _named(name: str, code: str | None) -> str:
    return f"{name} ({code})" if code and code not in name else name


def _manifest(raw: str | None, where: str) -> dict[str, str]:
    """The manifest's names by release day; {} without one."""
    if raw is None:
        return {}
    try:
        entries = json.loads(raw)
        return {e["creationDay"]: _named(e["setName"], e.get("setCode")) for e in entries}
    except (ValueError, TypeError, KeyError) as exc:
        raise ArchiveError(f"{where}: versions.json is not a list of releases with "
                           f"setName and creationDay ({type(exc).__name__})") from None


def _git(repo: Path, *args: str, data: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], input=data,
                              capture_output=True, timeout=600)
    except FileNotFoundError:
        raise ArchiveError(f"{repo}: git is not installed, and `--git` reads the archive's "
                           f"history with it") from None
    except subprocess.TimeoutExpired:
        raise ArchiveError(f"{repo}: git did not answer in 10 minutes") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ArchiveError(f"{repo}: not a git archive this can read "
                           f"({why[-1] if why else 'git failed'})")
    return done.stdout


def releases_in_git(repo: Path, file: str = FILE) -> list[Release]:
    """Each commit of `file`, oldest first, as a release."""
    try:
        if not repo.exists():
            raise ArchiveError(f"{repo}: no such folder")
    except OSError as exc:  # a name too long, a loop of links
        raise ArchiveError(f"{repo}: {exc.strerror or exc}") from None
    # Every commit that adds or changes the file, merges aside (a merge's text is its
    # parents'), oldest first; a commit that deletes it is no release.
    log = _git(repo, "log", "--reverse", "--no-merges", "--full-history",
               "--diff-filter=AMR", "--format=%H%x1f%ad%x1f%s", "--date=short",
               "--", file).decode("utf-8", "replace")
    commits = [line.split("\x1f") for line in log.splitlines() if line.strip()]
    if not commits:
        raise ArchiveError(f"{repo}: no commit of {file} (name the file with --file)")
    names = _manifest(_show(repo, "HEAD:versions.json"), str(repo))
    # Every text in one call: `cat-file --batch` answers "<sha> blob <size>\n<bytes>\n".
    out = _git(repo, "cat-file", "--batch",
               data="".join(f"{sha}:{file}\n" for sha, _, _ in commits).encode())
    releases, at = [], 0
    for i, (sha, day, subject) in enumerate(commits):
        header_end = out.index(b"\n", at)
        header = out[at:header_end].split()
        if len(header) < 3 or header[1] != b"blob":
            raise ArchiveError(f"{repo}@{sha[:7]}: {file} is not in this commit")
        size = int(header[2])
        body = out[header_end + 1:header_end + 1 + size]
        at = header_end + 1 + size + 1
        subject_name = _SUBJECT.match(subject.strip())
        name = names.get(day) or (_named(subject_name["name"], subject_name["code"])
                                  if subject_name else subject.strip() or None)
        releases.append(Release(_decoded(body), day, name, i, f"{repo.name}@{sha[:7]}"))
    return releases


def _stated_day(path: Path, text: str, dated: str | None = None) -> str:
    from comparator.rules.document import NotRulesText
    from comparator.rules.reading import read_rules

    try:
        return read_rules(text, date.fromisoformat(dated) if dated else None) \
            .effective.isoformat()
    except NotRulesText as exc:
        raise ArchiveError(f"{path}: its name does not start with the release's date "
                           f"(YYYY-MM-DD), and {exc}") from None


def _show(repo: Path, what: str) -> str | None:
    """A file of the newest commit, or None where it has none."""
    try:
        return _git(repo, "show", what).decode("utf-8", "replace")
    except ArchiveError:
        return None


def _decoded(data: bytes) -> str:
    # The older published texts have cp1252 quotes; the archive's are ASCII.
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def releases_in_folder(folder: Path, dated: str | None = None) -> list[Release]:
    """Each `*.txt` of `folder` as a release, in order of its day: from its name, else the
    date its text states (read here for that: such a file is read twice), else `dated`.
    Each file is read guarded (a regular file, of a bounded size)."""
    from comparator.files.guarded import read_text_file

    manifest = folder / "versions.json"
    try:
        listed = read_text_file(manifest, MAX_BYTES, "manifest") if manifest.is_file() \
            else None
    except ValueError as exc:
        raise ArchiveError(str(exc)) from None
    except OSError as exc:  # a name too long, a loop of links
        raise ArchiveError(f"{manifest}: {exc.strerror or exc}") from None
    names = _manifest(listed, str(folder))
    found = []
    for path in sorted(folder.glob("*.txt")):
        if path.is_dir():
            continue
        try:
            text = read_text_file(path, MAX_BYTES, "rules text", fallback="cp1252")
        except ValueError as exc:
            raise ArchiveError(str(exc)) from None
        m = _DAY.match(path.stem)
        day = m.group(1) if m else _stated_day(path, text, dated)
        try:
            date.fromisoformat(day)
        except ValueError:
            raise ArchiveError(f"{path}: {day} is not a date (YYYY-MM-DD)") from None
        rest = m.group(2).strip() if m else ""
        found.append((day, path, text, names.get(day) or rest or None))
    if not found:
        raise ArchiveError(f"{folder}: no *.txt rules texts in the folder")
    found.sort(key=lambda f: (f[0], f[1].name))
    return [Release(text, day, name, i, str(path))
            for i, (day, path, text, name) in enumerate(found)]
