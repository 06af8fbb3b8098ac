"""The site's pages served live from the store: built (as `rulesdiff site` builds them, with
the explorations the store holds) into a folder of the server's own when first asked, and
built again, in the background, once the store has changed; the pages of the last whole
build are served meanwhile. The scenarios are the shipped library and the valid files of
the served folder."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from comparator.files.locations import scenarios_dir
from comparator.files.problems import ScenarioError
from comparator.text.language import N_, Later

CHECK_EVERY = 2.0  # seconds between two looks at the store


class LiveSite:
    def __init__(self, db: str | None, folder: Path | None, eras: list[str]) -> None:
        self.db = db
        self.folder = folder
        self.eras = eras
        self._root = Path(tempfile.mkdtemp(prefix="rulesdiff-serve-"))
        self._built: Path | None = None
        self._seen: Any = None  # the store's state when last built
        self._lock = threading.Lock()
        self._building: threading.Thread | None = None
        self._count = 0
        self._stale = False
        self.error: Later | None = None  # said in the language of the page that shows it
        # Each scenario id the site shows, with where the workbench opens it from.
        self.sources: dict[str, str] = {}
        self._reader: Any = None  # the store, read to see whether it changed
        self._checked = 0.0  # when it was last looked at

    def changed(self) -> None:
        """Build the site again when next asked (a file saved into the folder)."""
        self._stale = True

    def pages(self) -> Path | None:
        """The folder of the latest whole build; the first request waits for it, later
        ones are served the last build while a new one is made."""
        if self._built is None:
            self._start()
            if self._building is not None:
                self._building.join()
            return self._built
        if self._stale or self._changed():
            self._start()
        return self._built

    def close(self) -> None:
        if self._building is not None:
            self._building.join(60)
        if self._reader is not None:
            self._reader.dispose()
        shutil.rmtree(self._root, ignore_errors=True)

    def _start(self) -> None:
        with self._lock:
            if self._building is not None and self._building.is_alive():
                return
            self._building = threading.Thread(target=self._build, daemon=True)
            self._building.start()

    def _scenario_paths(self) -> tuple[list[Path], dict[str, str]]:
        """The files the site shows, and each id's source as the workbench opens it."""
        from comparator.scenarios.loader import load

        paths = sorted(scenarios_dir().glob("*.yaml"))
        ids = {p.stem for p in paths}  # a shipped file is named by its id
        sources = {p.stem: f"shipped:{p.stem}" for p in paths}
        if self.folder is not None:
            for p in sorted(self.folder.glob("*.y*ml")):
                if p.is_symlink() or not p.is_file():
                    continue
                try:
                    scenario = load(p)
                except ScenarioError:
                    continue  # a draft: the workbench says what is wrong with it
                if scenario.id not in ids:  # one page per id: the first file keeps it
                    ids.add(scenario.id)
                    paths.append(p)
                    sources[scenario.id] = f"folder:{p.name}"
        return paths, sources

    def _build(self) -> None:
        from comparator.compare.running import era_ids
        from comparator.site.build import build_site
        from comparator.store.database import open_engine

        self._count += 1
        self._stale = False  # what changes from now on asks for the next build
        out = self._root / f"build-{self._count}"
        try:
            engine = open_engine(self.db)
            try:
                paths, sources = self._scenario_paths()
                build_site(out, engine, paths, era_ids(self.eras),
                           explore=True, jobs=1, stored_only=True)
                self._seen = _state(engine)
            finally:
                engine.dispose()
        except Exception as err:  # said on the pages' place, not a dead server
            shutil.rmtree(out, ignore_errors=True)
            self.error = Later(N_("the site could not be built: {error}"),
                               error=f"{type(err).__name__}: {err}")
            return
        old, self._built, self.error = self._built, out, None
        self.sources = sources
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def _changed(self) -> bool:
        """Whether the store changed since the last build: looked at once in CHECK_EVERY
        seconds at most (a page asks for many files), through one engine kept open."""
        from comparator.store.database import open_engine

        now = time.monotonic()
        if now - self._checked < CHECK_EVERY:
            return False
        self._checked = now
        try:
            if self._reader is None:
                self._reader = open_engine(self.db, create=False)
            return _state(self._reader) != self._seen
        except Exception:  # no store yet, or one being written: looked at again later
            return False


def _state(engine: Any) -> tuple[Any, ...]:
    """What changes when the store gains a run or an exploration."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return tuple(conn.execute(text(
            "SELECT (SELECT COUNT(*) FROM run), (SELECT COUNT(*) FROM exploration), "
            "(SELECT COUNT(*) FROM scenario)")).one())
