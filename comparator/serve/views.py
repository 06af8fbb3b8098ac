"""What the workbench page shows of a result, as HTML written by the site's templates: the
board before combat, the divergence table, each era's board after combat and its events
with their rules (and their words, where the store has the rules' texts), the refusals;
and what each player could make happen, once explored. Every name is escaped (the
templates' autoescape; the pictures escape their own words)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from comparator.compare.running import Result, scenario_json
from comparator.site import pages
from comparator.site.gather import Gathered, Scenario
from versions import find_era

HERE = Path(__file__).resolve().parent
SITE_ROOT = "/site/"  # where the site's pages are served: the rules' links go there
MOST_SHOWN = 400  # explored outcomes shown on the page; the JSON has them all


class Words:
    """The rules' words from the store's imported texts, each era's asked once and kept
    (the store is read, never written)."""

    def __init__(self, db: str | None) -> None:
        self.db = db
        self._engine: Any = None
        self._known: dict[tuple[str, str], dict[str, str] | None] = {}
        self._lock = threading.Lock()
        self._none = False  # no store, or one without texts: nothing to ask

    def quotes(self, wanted: dict[str, set[str]]) -> dict[tuple[str, str], dict[str, str]]:
        with self._lock:
            if not self._none:
                self._fetch(wanted)
            return {k: v for k, v in self._known.items() if v is not None}

    def _fetch(self, wanted: dict[str, set[str]]) -> None:
        from comparator.rules.document import without_examples
        from comparator.rules.store import era_words

        if self._engine is None:
            from comparator.store.database import open_engine

            try:
                self._engine = open_engine(self.db, create=False)
            except Exception:  # no store yet: the numbers only, until there is one
                return
        for era_id, numbers in wanted.items():
            era = find_era(era_id)
            asked = sorted(n for n in numbers | set(era.RULES.values())
                           if (era_id, n) not in self._known)
            if not asked:
                continue
            try:
                _, found = era_words(self._engine, era, asked)
            except Exception:  # a store without the rules' tables: numbers only
                self._none = True
                return
            for n in asked:
                f = found.get(n)
                self._known[(era_id, n)] = None if f is None else {
                    "text": without_examples(f.text), "document": f.document,
                    "effective": f.effective, "kind": f.kind}


_ENV: list[Any] = []


def environment() -> Any:
    if not _ENV:
        _ENV.append(pages.environment(HERE / "templates"))
    return _ENV[0]


def _gathered(scenario: Scenario, words: Words) -> Gathered:
    from comparator.explore.report import cited_in
    from comparator.rules.quoting import cited

    wanted: dict[str, set[str]] = {}
    for era, outcome in scenario.result.outcomes.items():
        wanted.setdefault(era, set()).update(cited(outcome))
    for era, res in scenario.explored.items():
        wanted.setdefault(era, set()).update(cited_in(res))
    return Gathered([scenario], words.quotes(wanted), {}, {}, {})


def result_html(found: Result, words: Words, explored: dict[str, Any] | None = None) -> str:
    """The result of a diff (and, with `explored`, of an explore: its JSON) as the page's
    HTML."""
    data = scenario_json(found.scenario)
    s = Scenario(found.scenario.id, found.scenario.game, Path(found.file), data, found)
    if explored is not None:
        s.explored = explored.get("eras", {})
    context = pages._scenario(s, _gathered(s, words))
    eras = context["eras"]
    return environment().get_template("result.html").render(
        root=SITE_ROOT, tabs=[{"id": e["id"], "name": e["name"]} for e in eras], **context)


def explored_html(found: Result, doc: dict[str, Any], words: Words) -> str:
    """An explore's JSON as the page shows it: each era's best play, and the outcomes the
    players can reach (the first MOST_SHOWN, the count of all)."""
    data = scenario_json(found.scenario)
    s = Scenario(found.scenario.id, found.scenario.game, Path(found.file), data, found)
    s.explored = doc.get("eras", {})
    game = pages.game_named(s.game)
    shown = pages._explored(s, game) if s.explored else None
    if shown is not None:
        shown.update(objective=doc.get("objective"), fields=doc.get("fields"),
                     blocks=doc.get("blocks"))
    cut = 0
    if shown is not None:
        for g in shown["groups"]:
            room = max(0, MOST_SHOWN - cut)
            if len(g["outcomes"]) > room:
                g["hidden"] = len(g["outcomes"]) - room
                g["outcomes"] = g["outcomes"][:room]
            cut += len(g["outcomes"])
    return environment().get_template("explored_result.html").render(
        root=SITE_ROOT, explored=shown, not_explored=None, doc=doc,
        refused=doc.get("refused", {}))
