"""The scenarios the workbench opens — the shipped library, the store's, the YAML files of
the folder `serve` was started on, the `new` template — and the one place it writes: a
file of that folder, named from the scenario, never outside it, never over another file
unless asked."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from comparator.files.guarded import read_text_file
from comparator.files.locations import shipped_scenarios, template_file
from comparator.scenarios.loader import MAX_BYTES
from comparator.scenarios.scaffold import ScaffoldError, scenario_id
from comparator.serve.errors import Refused
from comparator.text.language import _, current
from comparator.text.messages import message
from comparator.text.phrases import own_japanese

KINDS = ("shipped", "folder", "stored", "new")
MOST_FILES = 2000  # files of the folder listed: a folder of scenarios, not a disk


@cache
def _shipped() -> list[dict[str, Any]]:
    """The shipped library's list (read once: it does not change while the server runs)."""
    out = []
    for path in shipped_scenarios():
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        japanese = own_japanese(raw, "title")
        out.append({"name": path.stem, "title": str(raw.get("title", path.stem)),
                    "game": str(raw.get("game", "mtg")),
                    "titles": {"ja": japanese} if japanese else {}})
    return out


@dataclass
class Sources:
    folder: Path | None  # where files are opened from and saved to; None: nowhere
    db: str | None  # the store's URL (None: the default)

    # -- listing ---------------------------------------------------------------------------

    def listing(self) -> dict[str, Any]:
        return {"shipped": self.shipped(), "folder": self._folder_files(),
                "stored": self._stored(), "can_save": self.folder is not None,
                "folder_name": str(self.folder) if self.folder else None}

    def shipped(self) -> list[dict[str, Any]]:
        """The shipped library: each scenario's name, game and title (its own title in
        the language spoken, where it gives one: `ja:`)."""
        lang = current()
        return [{"name": s["name"], "title": s["titles"].get(lang, s["title"]),
                 "game": s["game"]} for s in _shipped()]

    def _folder_files(self) -> list[dict[str, Any]]:
        if self.folder is None:
            return []
        try:
            names = sorted(n for n in os.listdir(self.folder)
                           if n.endswith((".yaml", ".yml")) and not n.startswith("."))
        except OSError:
            return []
        return [{"name": n, "title": n} for n in names[:MOST_FILES]
                if (self.folder / n).is_file() and not (self.folder / n).is_symlink()]

    def _stored(self) -> list[dict[str, Any]]:
        from comparator.store.database import open_engine
        from comparator.store.reading import stored_list

        try:
            engine = open_engine(self.db, create=False)
        except Exception:  # no store yet, or one this rulesdiff can't read: nothing listed
            return []
        try:
            return [{"name": r["id"], "title": r["title"]} for r in stored_list(engine)]
        except Exception:
            return []
        finally:
            engine.dispose()

    # -- opening ---------------------------------------------------------------------------

    def open(self, kind: Any, name: Any) -> dict[str, Any]:
        """{"yaml", "name"}: the text to edit, and the file name messages give it."""
        if kind not in KINDS:
            raise Refused(400, _("source: one of {kinds}, not {kind}").format(
                kinds=", ".join(KINDS), kind=repr(kind)))
        if kind == "new":
            text = template_file().read_text(encoding="utf-8")
            return {"yaml": text.replace("\nid: NAME ", "\nid: my-scenario ", 1),
                    "name": "my-scenario.yaml"}
        if not isinstance(name, str) or not name:
            raise Refused(400, _("name: required (which scenario to open)"))
        if kind == "shipped":
            found = {p.stem: p for p in shipped_scenarios()}
            if name not in found:
                raise Refused(404, _("name: no shipped scenario {name}").format(
                    name=repr(name)))
            return {"yaml": found[name].read_text(encoding="utf-8"), "name": f"{name}.yaml"}
        if kind == "folder":
            path = self._inside(name)
            if not path.exists():
                raise Refused(404, _("name: no file {name} in the folder").format(
                    name=repr(name)))
            try:
                text = read_text_file(path, MAX_BYTES, "scenario")
            except ValueError as err:
                raise Refused(422, message(str(err))) from None
            return {"yaml": text, "name": path.name}
        return self._from_store(name)

    def _from_store(self, name: str) -> dict[str, Any]:
        from comparator.store.database import open_engine
        from comparator.store.reading import latest_scenario
        from comparator.store.schema import StoreError

        try:
            engine = open_engine(self.db, create=False)
        except (StoreError, OSError, ValueError) as err:
            raise Refused(404, _("the store: {why}").format(why=message(str(err)))) from None
        try:
            doc = latest_scenario(engine, name)
        except ValueError as err:
            raise Refused(422, message(str(err))) from None
        finally:
            engine.dispose()
        if doc is None:
            raise Refused(404, _("name: no stored scenario {name}").format(name=repr(name)))
        from comparator.serve.texts import written

        # As stored: with its cards' values merged in, which it runs the same with.
        return {"yaml": written(doc), "name": f"{scenario_id(name)}.yaml"}

    def _inside(self, name: str) -> Path:
        """The folder's file of that name: a plain name, never a path out of it."""
        if self.folder is None:
            raise Refused(403, _("the server was started without a folder: "
                                 "`rulesdiff serve FOLDER` opens and saves files there"))
        if "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
            raise Refused(403, _("name: {name} is not a file name of the folder").format(
                name=repr(name)))
        path = self.folder / name
        try:
            inside = path.resolve().parent == self.folder.resolve()
        except OSError:
            inside = False
        if not inside or path.is_symlink():
            raise Refused(403, _("name: {name} is not a file of the folder").format(
                name=repr(name)))
        return path

    # -- saving ----------------------------------------------------------------------------

    def save(self, name: Any, text: str, replace: bool) -> dict[str, Any]:
        """Write the text as NAME.yaml in the folder (NAME made a scenario id, as `new`
        makes it); an existing file only with `replace`."""
        if self.folder is None:
            raise Refused(403, _("the server was started without a folder: "
                                 "`rulesdiff serve FOLDER` saves files there"))
        if not isinstance(name, str):
            raise Refused(400, _("name: the file's name, a string"))
        try:
            stem = scenario_id(name[:200])
        except ScaffoldError as err:
            raise Refused(400, _("name: {why}").format(why=message(str(err)))) from None
        path = self._inside(f"{stem}.yaml")
        exists = _("name: {file} exists in the folder; save with replace to write over it")
        if path.exists() and not replace:
            raise Refused(409, exists.format(file=path.name))
        # A new file of its own (O_EXCL: never a file or a link planted under its name),
        # then put in place: by a hard link where nothing may be written over (it fails if
        # a file came meanwhile), by a rename where the file is to be replaced.
        try:
            fd, temp_name = tempfile.mkstemp(dir=self.folder, prefix=".saving-",
                                             suffix=".yaml")
        except OSError as err:
            raise Refused(500, _("{file}: can't write it: {why}").format(
                file=path.name, why=err.strerror or err)) from None
        temp = Path(temp_name)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            if replace:
                os.replace(temp, path)
            else:
                os.link(temp, path)
        except FileExistsError:
            raise Refused(409, exists.format(file=path.name)) from None
        except OSError as err:
            raise Refused(500, _("{file}: can't write it: {why}").format(
                file=path.name, why=err.strerror or err)) from None
        finally:
            temp.unlink(missing_ok=True)
        return {"saved": path.name, "folder": str(self.folder)}
