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
from comparator.games.registry import game_named
from comparator.serve import speech
from comparator.site import pages
from comparator.site.gather import Gathered, Scenario, cited_numbers, quote_record
from comparator.text.language import current
from comparator.text.messages import message
from versions import find_era

HERE = Path(__file__).resolve().parent
MOST_SHOWN = 400  # explored outcomes shown on the page; the JSON has them all


class Words:
    """The rules' words from the store's imported texts, each era's asked once and kept
    (the store is read, never written); and, for a Japanese page, their words in the
    Japanese text (総合ルール) of the same document, where one is imported."""

    def __init__(self, db: str | None) -> None:
        self.db = db
        self._engine: Any = None
        self._known: dict[tuple[str, str], dict[str, str] | None] = {}
        self._known_ja: dict[tuple[str, str], dict[str, str] | None] = {}
        self._lock = threading.Lock()
        self._none = False  # no store, or one without texts: nothing to ask

    def quotes(self, wanted: dict[str, set[str]]) -> dict[tuple[str, str], dict[str, str]]:
        with self._lock:
            if not self._none:
                self._fetch(wanted)
            return {k: v for k, v in self._known.items() if v is not None}

    def japanese(self, quoted: dict[tuple[str, str], dict[str, str]]
                 ) -> dict[tuple[str, str], dict[str, str]]:
        """The rules of `quoted` (as ``quotes`` gives them) in the Japanese text of their
        era's document, where the store has one: (era, number) -> its words, marked `lang`
        "ja" (as the site's Japanese pages quote them)."""
        from comparator.rules.store import document_on, documents, own_dates
        from comparator.site.gather import japanese_quotes

        with self._lock:
            if self._none or self._engine is None:
                return {}
            asked: dict[str, list[str]] = {}
            for era_id, number in quoted:
                if (era_id, number) not in self._known_ja:
                    asked.setdefault(era_id, []).append(number)
            for era_id, numbers in asked.items():
                era = find_era(era_id)
                try:
                    doc = document_on(documents(self._engine, era.game), own=own_dates(era))
                    found = {} if doc is None else japanese_quotes(
                        self._engine, {era_id: {"effective": doc.effective}},
                        {(era_id, n): {} for n in numbers})
                except Exception:  # a store without the rules' tables: the English only
                    found = {}
                for n in numbers:
                    self._known_ja[(era_id, n)] = found.get((era_id, n))
            return {k: v for k, v in self._known_ja.items() if v is not None}

    def _fetch(self, wanted: dict[str, set[str]]) -> None:
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
                self._known[(era_id, n)] = None if f is None else quote_record(f)


_ENV: list[Any] = []


def environment() -> Any:
    if not _ENV:
        env = pages.environment(HERE / "templates")
        # The page's words as JSON, their Japanese as written (`tojson` escapes <, > and &).
        env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
        _ENV.append(env)
    return _ENV[0]


def _gathered(scenario: Scenario, words: Words) -> Gathered:
    """What the site's pages take of the store for one scenario: its rules' words (in
    Japanese too, for a Japanese page, where that text is imported)."""
    quotes = words.quotes(cited_numbers([scenario]))
    japanese = words.japanese(quotes) if current() == "ja" and quotes else {}
    return Gathered([scenario], quotes, {}, {}, {}, quotes_ja=japanese)


def _site_scenario(found: Result) -> Scenario:
    """A result as the site's pages take a scenario."""
    return Scenario(found.scenario.id, found.scenario.game, Path(found.file),
                    scenario_json(found.scenario), found)


def site_root() -> str:
    """Where the site's pages of the language spoken are served (its rules' links)."""
    return speech.SITE.get(current(), speech.SITE["en"])


def result_html(found: Result, words: Words) -> str:
    """The result of a diff as the page's HTML, in the language spoken."""
    s = _site_scenario(found)
    context = pages._scenario(s, _gathered(s, words))
    return environment().get_template("result.html").render(
        root=site_root(), tabs=[{"id": e["id"], "name": e["name"]} for e in context["eras"]],
        **context)


def explored_html(found: Result, doc: dict[str, Any]) -> str:
    """An explore's JSON as the page shows it: each era's best play, and the outcomes the
    players can reach (the first MOST_SHOWN, the count of all)."""
    s = _site_scenario(found)
    s.explored = doc.get("eras", {})
    shown = pages._explored(s, game_named(s.game)) if s.explored else None
    if shown is not None:
        shown.update(objective=doc.get("objective"), fields=doc.get("fields"),
                     blocks=doc.get("blocks"))
        cut = 0
        for g in shown["groups"]:
            room = max(0, MOST_SHOWN - cut)
            if len(g["outcomes"]) > room:
                g["hidden"] = len(g["outcomes"]) - room
                g["outcomes"] = g["outcomes"][:room]
            cut += len(g["outcomes"])
    refused = {era: message(why) for era, why in doc.get("refused", {}).items()}
    return environment().get_template("explored_result.html").render(
        root=site_root(), explored=shown, not_explored=None, refused=refused)
