"""The whole build of the site: gather, write the pages, index them; and where it is written.

A site is built in a folder of its own (beside OUT, or inside an OUT that is already a
site or empty) and put in OUT's place only once it is whole: a build that fails leaves
OUT as it was, and removes what it made. OUT may be new, an empty folder, or a site
rulesdiff wrote before (whose pages are replaced; anything else in it, such as a CNAME or
a .git, stays); any other folder is refused, never emptied."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from comparator.files.guarded import names_too_long
from comparator.text.language import _

if TYPE_CHECKING:
    from comparator.site.gather import Say


@dataclass
class Built:
    pages: int
    scenarios: int
    explored: int


class SiteError(RuntimeError):
    """The site can't be written where it was asked: one line naming the folder."""


def build_site(out: Path, engine: Engine, paths: Sequence[Path], eras: list[str],
               explore: bool = True, jobs: int = 1,
               progress: Say | None = None,
               shown: Path | None = None, stored_only: bool = False) -> Built:
    """The site written into the folder `out` (`shown`: that folder as messages name it);
    `progress` is told each step, and each file or page of the long ones."""
    from comparator.site.gather import gather, unwatched
    from comparator.site.pages import FOLDERS, write_pages
    from comparator.site.search import index

    say = progress or unwatched
    got = gather(engine, paths, eras, explore, jobs, say, stored_only)
    # Every language's pages from the one gathering: English at OUT's root, the others
    # beside it (OUT/ja/), each page linking to its other languages.
    pages = sum(write_pages(out, got, say, lang) for lang in FOLDERS)
    say(_("indexing the pages for search"))
    index(out, pages, shown or out)
    return Built(pages, len(got.scenarios), sum(1 for s in got.scenarios if s.explored))


# -- where the site is written ----------------------------------------------------------------

# The folders a build works in, named so that a later build knows them as its own (one
# killed outright leaves its folder behind: an OUT holding only such is empty).
STAGE = ".rulesdiff-site-"
OLD = ".rulesdiff-old-"
_ASSETS = {"site.css", "search.js", "favicon.svg"}


def _cannot(out: Path, err: OSError) -> SiteError:
    return SiteError(f"{out}: can't write the site: {err.strerror or err}")


def _ours(name: str) -> bool:
    return name.startswith((STAGE, OLD))


def is_site(folder: Path) -> bool:
    """A site rulesdiff wrote: its home page, and its assets folder holding nothing but
    rulesdiff's own."""
    assets = folder / "assets"
    if not (folder / "index.html").is_file() or not assets.is_dir():
        return False
    names = set(os.listdir(assets))
    return "site.css" in names and names <= _ASSETS


def destination(out: Path) -> str:
    """What OUT is: "new" (nothing there yet), "empty" (an empty folder) or "site" (a site
    rulesdiff wrote); SiteError for anything else, or where it can't be looked at."""
    try:
        if names_too_long(out):
            raise OSError(errno.ENAMETOOLONG, os.strerror(errno.ENAMETOOLONG), str(out))
        if out.is_symlink() and not out.exists():
            raise SiteError(f"{out}: a link to nothing")
        if not out.exists():
            return "new"
        if not out.is_dir():
            raise SiteError(f"{out}: not a folder")
        names = [n for n in os.listdir(out) if not _ours(n)]
        if not names:
            return "empty"
        if is_site(out):
            return "site"
    except OSError as err:
        raise _cannot(out, err) from None
    raise SiteError(f"{out}: a folder that is not a site rulesdiff wrote (it would be "
                    f"mixed with the site's pages); name a new or empty folder")


def _made_folders(folder: Path) -> list[Path]:
    """Make `folder` and its missing parents; those made, the deepest last."""
    missing = []
    at = folder
    while not at.exists():
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    made = []
    try:
        for f in reversed(missing):
            f.mkdir()
            made.append(f)
    except OSError:
        _remove_made(made)
        raise
    return made


def _remove_made(made: list[Path]) -> None:
    for f in reversed(made):
        with contextlib.suppress(OSError):
            f.rmdir()  # only if still empty


def _new_folder(parent: Path, prefix: str) -> Path:
    """A new folder in `parent`, made with the user's usual permissions (umask)."""
    while True:
        folder = parent / f"{prefix}{secrets.token_hex(4)}"
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue


@contextlib.contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A new folder to build the site in; when the block ends, it takes OUT's place, and
    if the block fails, it is removed (with any parent folder made for OUT) and OUT stays
    as it was. SiteError where OUT is not a place for a site, or the site can't be put
    there."""
    kind = destination(out)
    made: list[Path] = []
    try:
        if kind == "new":
            made = _made_folders(out.parent)
            stage = _new_folder(out.parent, STAGE)
        else:  # inside OUT, so that its pages move into it on one file system
            stage = _new_folder(out, STAGE)
    except OSError as err:
        _remove_made(made)
        raise _cannot(out, err) from None
    try:
        yield stage
        if kind == "new":
            os.rename(stage, out)
        else:
            _replace_pages(stage, out)
    except BaseException as exc:
        shutil.rmtree(stage, ignore_errors=True)
        _remove_made(made)
        if isinstance(exc, OSError):
            raise _cannot(out, exc) from None
        raise


def _replace_pages(stage: Path, out: Path) -> None:
    """Move the built site's entries into OUT, each in place of OUT's entry of that name;
    the replaced ones are removed once all are in place; if one can't be moved, those
    moved go back (OUT as it was), and the error is raised."""
    old = _new_folder(out, OLD)
    moved: list[tuple[Path, Path]] = []
    try:
        for name in sorted(os.listdir(stage)):
            target = out / name
            if target.exists() or target.is_symlink():
                os.rename(target, old / name)
                moved.append((target, old / name))
            os.rename(stage / name, target)
            moved.append((stage / name, target))
    except BaseException:
        for was, now in reversed(moved):
            with contextlib.suppress(OSError):
                os.rename(now, was)
        with contextlib.suppress(OSError):
            old.rmdir()  # empty once all went back; else what is in it is kept
        raise
    # The site is in place: what is left is tidying up (another build into OUT at the
    # same time has its own folders, left alone).
    with contextlib.suppress(OSError):
        stage.rmdir()
    shutil.rmtree(old, ignore_errors=True)
