"""What the site shows, gathered in one pass: every scenario run in its game's eras (and
stored, as `diff` stores it), its explorations read from the store or, where none is
stored, explored now (and stored); the rules' words where their texts are imported; and
what the store says of a built dataset. Pages are then written from this alone
(``comparator.site.pages``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Engine

from comparator.compare.running import Result, run_file, scenario_json
from comparator.rules.document import without_examples
from comparator.store.packing import scenario_key
from comparator.store.reading import stored_json
from comparator.text.encoding import hash_of, ordered_json
from comparator.text.language import N_, Later, _
from versions import ENGINE_VERSION, GAMES, TITLES, find_era

EXPLORE = {"objective": "material", "fields": "end-of-turn", "blocks": "fixed"}


@dataclass
class Scenario:
    id: str
    game: str
    file: Path
    data: dict[str, Any]  # the canonical scenario
    result: Result
    explored: dict[str, dict[str, Any]] = field(default_factory=dict)  # era -> result
    not_explored: str | None = None  # why, where it could not be


class DamagedStore(ValueError):
    """A stored row the site can't show: the message names its table and row."""


class Say(Protocol):
    """Whoever watches the build (the command's progress bar): told each step as it
    begins, and, in a step of many items, each item once it is done: `done` of `total`,
    the last of them `item` (a file, a page)."""

    def __call__(self, what: str, done: int = 0, total: int | None = None,
                 item: str = "") -> None: ...


def unwatched(what: str, done: int = 0, total: int | None = None, item: str = "") -> None:
    """The build's steps, told to no one."""


@dataclass
class Gathered:
    scenarios: list[Scenario]
    quotes: dict[tuple[str, str], dict[str, str]]  # (era, number) -> its words, document
    imported: dict[str, dict[str, str]]  # era -> its own document, where imported
    change_rules: dict[str, list[dict[str, Any]]]  # new era -> the rules it changed
    dataset: dict[str, Any]  # what the store holds, and the shown scenarios' share
    # (era, number) -> its words in the Japanese text of the era's document, where one of
    # its date is imported (the Japanese pages quote these, else the English).
    quotes_ja: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)

    def quote(self, era: str, number: str, lang: str = "en") -> dict[str, str] | None:
        """A rule's words as a page in `lang` quotes them."""
        return (lang == "ja" and self.quotes_ja.get((era, number))) or \
            self.quotes.get((era, number))


def gather(engine: Engine, paths: Sequence[Path], eras: list[str], explore: bool = True,
           jobs: int = 1, progress: Say | None = None, stored_only: bool = False
           ) -> Gathered:
    """Everything the pages show; with `stored_only`, the explorations the store holds
    and no new one (the workbench's live site, which must come at once)."""
    from comparator.dataset.runs import save

    say = progress or unwatched
    step = _("running {count} scenario(s)").format(count=len(paths))
    say(step, 0, len(paths))
    results = []
    for p in paths:
        results.append(run_file(p, eras))
        say(step, len(results), len(paths), p.name)
    save(engine, results)
    scenarios = [Scenario(r.scenario.id, r.scenario.game, Path(r.file),
                          scenario_json(r.scenario), r) for r in results]
    if explore:
        _explorations(engine, scenarios, eras, jobs, say, stored_only)
    say(_("reading the rules texts"))
    quotes, imported = _quotes(engine, scenarios)
    changes = _change_rules(engine, imported)
    say(_("counting what the store holds"))
    return Gathered(scenarios, quotes, imported, changes,
                    _dataset(engine, {s.id for s in scenarios}),
                    japanese_quotes(engine, imported, quotes))


# -- explorations -------------------------------------------------------------------------


def _explorations(engine: Engine, scenarios: list[Scenario], eras: list[str], jobs: int,
                  say: Say, stored_only: bool = False) -> None:
    """Each scenario's stored exploration (default options), else one made now."""
    from sqlmodel import Session, col, select

    from comparator.store.schema import ExplorationRow

    keys = {s.id: scenario_key(hash_of(ordered_json(s.data))) for s in scenarios}
    with Session(engine) as session:
        rows = session.exec(select(ExplorationRow).where(
            col(ExplorationRow.scenario_key).in_(sorted(set(keys.values()))),
            ExplorationRow.engine_version == ENGINE_VERSION,
            ExplorationRow.objective == EXPLORE["objective"],
            ExplorationRow.fields == EXPLORE["fields"],
            ExplorationRow.blocks == EXPLORE["blocks"])).all()
    stored: dict[int, dict[str, Any]] = {}
    row_ids: dict[int, dict[str, int]] = {}
    for row in rows:
        stored.setdefault(row.scenario_key, {})[row.era] = _stored_exploration(row)
        row_ids.setdefault(row.scenario_key, {})[row.era] = row.exploration_id
    missing = []
    for s in scenarios:
        mine = [e for e in eras if find_era(e).game == s.game and e in s.result.outcomes]
        have = stored.get(keys[s.id], {})
        if mine and all(e in have for e in mine):
            s.explored = {e: have[e] for e in mine}
            _showable(s, {e: row_ids[keys[s.id]][e] for e in mine})
        elif mine:
            missing.append((s, mine))
    if not missing or stored_only:
        return
    step = _("exploring {count} scenario(s) not explored in the store").format(
        count=len(missing))
    say(step, 0, len(missing))
    jobs_list = [(str(s.file), mine) for s, mine in missing]
    done: list[tuple[dict[str, Any] | None, str]] = []

    def each(found: Any) -> None:
        for (s, _mine), explored in zip(missing, found, strict=True):  # as each is done
            done.append(explored)
            say(step, len(done), len(missing), s.file.name)

    if jobs > 1 and len(missing) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            each(pool.map(_explore_one, jobs_list))
    else:
        each(map(_explore_one, jobs_list))
    from comparator.dataset.runs import save_explorations

    keep = []
    for (s, _file), (doc, why) in zip(missing, done, strict=True):
        if doc is None:  # said without the file's path, which is the builder's own
            s.not_explored = why.replace(str(s.file), s.file.name)
            continue
        s.explored = doc["eras"]
        keep.append((s.result.scenario, doc))
    save_explorations(engine, keep)


def _stored_exploration(row: Any) -> dict[str, Any]:
    """A stored exploration's result, read; DamagedStore where it is not JSON or not of
    the shape the explorer writes."""
    where = f"table exploration, row {row.exploration_id}"
    res = _stored(row.result_json, "exploration", row.exploration_id)
    wrong = _not_an_exploration(res)
    if wrong:
        raise DamagedStore(f"{where}: not an exploration this rulesdiff wrote ({wrong})")
    return res


def _count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _score(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(n, int | float) and not isinstance(n, bool)
                                       for n in v)


def _state(v: Any) -> bool:
    return isinstance(v, dict) and all(
        isinstance(v.get(k), dict) and all(isinstance(x, dict) for x in v[k].values())
        for k in ("players", "permanents"))


def _not_an_exploration(res: Any) -> str | None:
    """What in an era's stored exploration is not as the explorer writes it (what the
    pages read of it), in a few words; None where all is."""
    if not isinstance(res, dict):
        return "not an object"
    if not _count(res.get("lines")):
        return "no count of lines"
    found = res.get("outcomes")
    if not isinstance(found, list):
        return "no outcomes"
    for o in found:
        if not (isinstance(o, dict) and _state(o.get("state")) and _score(o.get("score"))
                and _count(o.get("lines"))):
            return "an outcome without its state, score or lines"
    value = res.get("value")
    if value is not None and not (isinstance(value, dict) and _state(value.get("state"))
                                  and _score(value.get("score"))
                                  and isinstance(value.get("line"), list)
                                  and all(isinstance(d, dict) for d in value["line"])):
        return "a best line without its state, score or decisions"
    notes = res.get("notes", [])
    if not (isinstance(notes, list) and all(isinstance(n, dict) for n in notes)):
        return "notes that are not a list of notes"
    return None


def _showable(s: Scenario, rows: dict[str, int]) -> None:
    """Say now what the scenario's page will say of its stored explorations (`rows`: era
    -> its row), so that one the pages can't read is a DamagedStore naming its rows, not
    a failure halfway through writing them."""
    from comparator.explore.report import cited_in
    from comparator.games.registry import game_named
    from comparator.site.words import outcomes

    game = game_named(s.game)
    scenario = s.result.scenario

    def words(explored: dict[str, dict[str, Any]]) -> None:
        for res in explored.values():
            cited_in(res)
            value = res.get("value")
            if value:
                game.losses(value["state"], scenario)
                for d in value["line"]:  # each decision in words, with its rule
                    game.describe_decision(d, scenario)
                    if "rule" not in d:
                        raise KeyError("rule")
        outcomes(explored, lambda state: game.losses(state, scenario))

    # Each era's alone (its row named), then all together (the outcomes they share).
    for part in [*({e: res} for e, res in s.explored.items()), s.explored]:
        try:
            words(part)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError,
                RecursionError) as exc:
            ids = ", ".join(str(rows[e]) for e in sorted(part, key=lambda e: rows[e]))
            raise DamagedStore(f"table exploration, row{'s' if len(part) > 1 else ''} "
                               f"{ids}: not an exploration of {s.id} this rulesdiff can "
                               f"show ({type(exc).__name__}: {exc})") from None


def _explore_one(job: tuple[str, list[str]]) -> tuple[dict[str, Any] | None, str]:
    from comparator.explore.files import ExploreError, explore_file
    from comparator.scenarios.loader import load

    path, eras = job
    try:
        doc = explore_file(path, load(Path(path)), eras, **EXPLORE)
    except ExploreError as err:
        return None, str(err)
    doc.pop("refused", None)
    return doc, ""


# -- the rules' words ---------------------------------------------------------------------


def _quotes(engine: Engine, scenarios: list[Scenario]
            ) -> tuple[dict[tuple[str, str], dict[str, str]], dict[str, dict[str, str]]]:
    """The words of every rule an era cites (its table) or the scenarios cite under it,
    in the era's own imported document (one query an era), and which document that is:
    era -> {"name", "effective", "kind"}."""
    from comparator.rules.store import document_on, documents, era_words, own_dates

    wanted = cited_numbers(scenarios)
    out: dict[tuple[str, str], dict[str, str]] = {}
    imported: dict[str, dict[str, str]] = {}
    for game, eras in GAMES.items():
        docs = documents(engine, game)
        for era in eras:
            doc = document_on(docs, own=own_dates(era))
            if doc is None:
                continue
            imported[era.id] = {"name": doc.name, "effective": doc.effective,
                                "kind": doc.kind}
            _doc, found = era_words(engine, era, sorted(wanted.get(era.id, set())
                                                     | set(era.RULES.values())))
            for number, f in found.items():
                out[(era.id, number)] = quote_record(f)
    return out, imported


def japanese_quotes(engine: Engine, imported: dict[str, dict[str, str]],
                    quotes: dict[tuple[str, str], dict[str, str]]
                    ) -> dict[tuple[str, str], dict[str, str]]:
    """The words of the rules quoted in English, in the Japanese text (総合ルール) of the
    same document, where one of its date is imported: (era, number) -> its words, marked
    `lang` "ja". One query for them all."""
    from comparator.rules.store import japanese_document, rules_numbered

    texts = {era_id: japanese for era_id, doc in imported.items()
             if (japanese := japanese_document(engine, find_era(era_id).game,
                                               doc["effective"])) is not None}
    if not texts:
        return {}
    found = rules_numbered(engine, sorted({d.document_id or 0 for d in texts.values()}),
                           {n for e, n in quotes if e in texts})
    out: dict[tuple[str, str], dict[str, str]] = {}
    for (era_id, number) in quotes:
        japanese = texts.get(era_id)
        said = found.get((japanese.document_id or 0, number)) if japanese else None
        if said is not None:
            out[(era_id, number)] = {"text": without_examples(said[0]),
                                     "document": japanese.name,
                                     "effective": japanese.effective,
                                     "kind": japanese.kind, "lang": "ja"}
    return out


def cited_numbers(scenarios: list[Scenario]) -> dict[str, set[str]]:
    """The rule numbers each era's outcomes (and explorations) of the scenarios cite."""
    from comparator.explore.report import cited_in
    from comparator.rules.quoting import cited

    wanted: dict[str, set[str]] = {}
    for s in scenarios:
        for era, outcome in s.result.outcomes.items():
            wanted.setdefault(era, set()).update(cited(outcome))
        for era, res in s.explored.items():
            wanted.setdefault(era, set()).update(cited_in(res))
    return wanted


def quote_record(found: Any) -> dict[str, str]:
    """A rule's words as a page quotes them (a ``comparator.rules.store.Found``): its
    words without the examples, and the document they are from."""
    return {"text": without_examples(found.text), "document": found.document,
            "effective": found.effective, "kind": found.kind}


# The rule numbers an era's record of what changed names: "510.1c", "C.8.4",
# "A.27.Ruling.5", "A.27.Note".
_NAMED = re.compile(r"(?<![\w.])(\d{3}\.\d+[a-z]?|[A-Z]\.\d+\.(?:Rulings?\.)?\d+|"
                    r"[A-Z]\.\d+\.Note)(?![\w])")


def named_numbers(era: Any) -> list[str]:
    """The rule numbers an era's `changes` name, in their order, each once."""
    return list(dict.fromkeys(_NAMED.findall(" ".join(era.changes))))


def changed_keys(older: Any, era: Any) -> list[str]:
    """The keys of an era's RULES table that differ from its parent's: a rule renumbered,
    one it cites anew, one it no longer cites."""
    return sorted(k for k in set(older.RULES) | set(era.RULES)
                  if older.RULES.get(k) != era.RULES.get(k))


def _change_rules(engine: Engine, imported: dict[str, dict[str, str]]
                  ) -> dict[str, list[dict[str, Any]]]:
    """For each era after its game's first, every rule it names in its record: the keys
    of its RULES table that differ from its parent's, and the rules its `changes` name.
    Each with its words in the older era's own document and in this era's, as the rule's
    history (``comparator.rules.history``) follows it from one to the other, and why
    where either is missing (not imported, not in the text, not cited)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for game, eras in GAMES.items():
        for older, era in zip(eras, eras[1:], strict=False):
            keys = changed_keys(older, era)
            rules: list[dict[str, Any]] = []
            named_keys: set[str] = set()
            for number in named_numbers(era):
                # A key of the tables whose number it is, in either era ("509.2-509.3
                # deleted" names the older's); and, where this era cites the number for
                # a rule whose key kept it, that rule too ("510.1c-d" of foundations).
                mine = [k for k in keys if number in (older.RULES.get(k), era.RULES.get(k))]
                named_keys.update(mine)
                if not mine or (number in era.RULES.values()
                                and number not in {era.RULES.get(k) for k in mine}):
                    rules.append(_rule_change(engine, game, older, era, imported, None,
                                              number))
            keyed = [_rule_change(engine, game, older, era, imported, k, None, k in named_keys)
                     for k in keys]
            out[era.id] = ([r for r in keyed if r["named"]] + rules
                           + [r for r in keyed if not r["named"]])
    return out


def _rule_change(engine: Engine, game: str, older: Any, era: Any,
                 imported: dict[str, dict[str, str]], key: str | None, number: str | None,
                 named: bool = True) -> dict[str, Any]:
    """One rule before and after: `key`, a key of the eras' tables, or `number`, a rule
    the era's record names in its own numbering. A side the era's table cites is that
    citation's words (the history's version under that number, else the citation read
    directly); a side it does not cite is where the history follows the rule to, said
    as such."""
    from comparator.rules.history import UnknownRule, history

    try:
        trail = history(engine, key or number or "", game)
    except UnknownRule:
        trail = None
    versions = list(trail.versions) if trail else []
    # A number the record names is this era's; the era before cites it too, or not.
    was = older.RULES.get(key) if key else (
        number if number in older.RULES.values() else None)
    now = era.RULES.get(key) if key else number
    after, after_v = _side_of(engine, era, now, imported.get(era.id), versions, True)
    before, before_v = _side_of(engine, older, was, imported.get(older.id), versions, False)
    same = before_v is not None and before_v is after_v
    if same:  # one document gives both eras' rules (fourth's are fifth's summary's notes)
        before = None
    entry: dict[str, Any] = {"key": key, "number": now or was, "named": named,
                             "was": was, "now": now, "before": before, "after": after}
    one_document = imported.get(older.id) is not None and \
        imported.get(older.id) == imported.get(era.id)
    entry["before_why"] = None if before else _missing(
        older, was, imported, not was, same=same, one_document=one_document)
    entry["after_why"] = None if after else _missing(
        era, now, imported, not now, one_document=one_document,
        ended=getattr(trail, "ended", None) if trail else None)
    entry["change"], entry["words"] = _compared(before, after)
    return entry


def _side_of(engine: Engine, era: Any, value: str | None, doc: dict[str, str] | None,
             versions: list[Any], last: bool) -> tuple[dict[str, Any] | None, Any]:
    """An era's side of a rule, and the history's version it is (None where it is read
    otherwise)."""
    from comparator.rules.store import citation

    if value and (citation(value).kind == "glossary" or citation(value).day):
        return _cited(engine, era, value), None  # another document's, or the glossary's
    v = _in_document(versions, doc, value, last)
    if value and citation(value).kind == "rule" and (
            v is None or value not in str(v.number).split(" + ")):
        direct = _cited(engine, era, value)  # the era's own citation, where the trail
        if direct:  # took another number in its text
            return direct, None
    if v is None:
        return None, None
    side = {"era": era.id, "number": str(v.number), "cited": value,
            "text": without_examples(v.text), "effective": v.effective,
            "document": v.document, "kind": getattr(v, "kind", "") or "",
            "followed": None if value else (Phrased(v.evidence, history=True)
                                            if getattr(v, "evidence", None)
                                            else Later(N_("its history")))}
    return side, v


def _in_document(versions: list[Any], doc: dict[str, str] | None, number: str | None,
                 last: bool) -> Any:
    """The version of a rule's history in an era's own document: of several (a summary
    gives the rules before Urza's Saga in its notes), the one under the number the era's
    table gives it, else the later (for the newer era) or the earlier."""
    if doc is None:
        return None
    here = [v for v in versions
            if v.document == doc["name"] and v.effective == doc["effective"]]
    if number:
        cited = [v for v in here if number in str(v.number).split(" + ")]
        if cited:
            return cited[0]
    if not here:
        return None
    return here[-1] if last else here[0]


def _cited(engine: Engine, era: Any, value: str) -> dict[str, Any] | None:
    """The words of an era's own citation: a rule of its document or of the one the
    citation names, a glossary entry; None where none are imported or found."""
    from comparator.rules.store import citation, cited_words

    if citation(value).kind == "unnumbered":
        return None
    found = cited_words(engine, era, value)
    if found is None or not found.text:
        return None
    return {"era": era.id, "number": value, "cited": value,
            "text": without_examples(found.text), "effective": found.effective,
            "document": found.document, "kind": found.kind, "followed": None}


class Phrased:
    """A sentence rulesdiff recorded in English, said in the language spoken when it is
    shown: an engine's (a citation's words, "507 (before 2021-09-07; wording not in the
    sources)"), or, with `history`, the rules history's (its evidence, why a rule ended)."""

    def __init__(self, text: str, history: bool = False) -> None:
        self.text, self.history = text, history

    def __str__(self) -> str:
        if self.history:
            from comparator.rules.spoken import said

            return str(said(self.text))
        from comparator.text.phrases import phrase

        return phrase(self.text)


def _missing(era: Any, value: str | None, imported: dict[str, dict[str, str]],
             uncited: bool, same: bool = False, one_document: bool = False,
             ended: dict[str, Any] | None = None) -> Later:
    """Why an era's side of a rule has no words, in a sentence (said when shown)."""
    from comparator.rules.store import citation

    if same:
        return Later(N_("{era}'s rules are read from the same document, which gives this "
                        "rule once, as the later era's"), era=era.id)
    if ended and ended.get("status") == "deleted" and ended.get("era") == era.id:
        reused = ended.get("reused") or {}
        evidence = (Phrased(ended["evidence"], history=True) if ended.get("evidence")
                    else Later(N_("its history ends here")))
        if reused.get("number"):
            return Later(N_("Deleted: {evidence}; its number, {number}, is another rule in "
                            "the text of {date}"), evidence=evidence,
                         number=reused["number"], date=reused.get("effective", ""))
        return Later(N_("Deleted: {evidence}"), evidence=evidence)
    if uncited and one_document:
        return Later(N_("{era}'s rules table does not cite it; both eras' rules are read "
                        "from one document"), era=era.id)
    if value and not uncited and value in era.pages:
        return Later(N_("{era} cites {rule} of {source}, which has no rule numbers to "
                        "import and quote; what the page says, in our words: {words}"),
                     era=era.id, rule=value, source=era.cr_modelled, words=era.pages[value])
    if value and not uncited and citation(value).kind == "unnumbered":
        return Later(N_("{era} cites it as “{rule}”: its sources give no words to quote"),
                     era=era.id, rule=Phrased(value))
    doc = imported.get(era.id)
    if doc is None:
        text = era.cr_date or era.cr_modelled
        if uncited:
            return Later(N_("{era}'s rules table does not cite it; {era}'s rules text "
                            "({source}) is not imported: `rulesdiff rules import` it to see "
                            "its words"), era=era.id, source=text)
        return Later(N_("{era}'s rules text ({source}) is not imported: `rulesdiff rules "
                        "import` it to see its words"), era=era.id, source=text)
    where = {"kind": doc["kind"], "date": doc["effective"], "name": doc["name"]}
    if uncited:
        return Later(N_("{era}'s rules table does not cite it, and the imported {kind} of "
                        "{date} ({name}) has no rule the history follows to"),
                     era=era.id, **where)
    if value:
        return Later(N_("Not in the imported {kind} of {date} ({name}): it has no {rule}"),
                     rule=value, **where)
    return Later(N_("Not in the imported {kind} of {date} ({name})"), **where)


def _compared(before: dict[str, Any] | None, after: dict[str, Any] | None
              ) -> tuple[str, list[dict[str, str]]]:
    """What happened to the rule, in a few words, and its words' changes."""
    from comparator.rules.history import word_diff

    if before and after:
        same = " ".join(before["text"].split()) == " ".join(after["text"].split())
        moved = before["number"] != after["number"]
        if same:
            return (N_("renumbered, the same words") if moved else N_("the same words")), []
        return (N_("renumbered and reworded") if moved else N_("reworded"),
                word_diff(before["text"], after["text"]))
    if after:
        return N_("words after only"), []
    if before:
        return N_("words before only"), []
    return N_("no words to compare"), []


# -- the store ----------------------------------------------------------------------------


def _dataset(engine: Engine, shown: set[str]) -> dict[str, Any]:
    """What the store holds, as stored: how many scenarios, runs, divergences and
    explorations; and, from the newest run of each scenario and era (this engine's
    divergences), how many scenarios each pair of consecutive eras both ran and how many
    of those diverge, by pair and by tag. Each figure twice: for the whole store, and for
    the scenarios this site shows (`shown`, their ids), so a page can say which is which.
    Read in one pass over the newest runs, in the database."""
    from sqlalchemy import text as sql

    from comparator.store.schema import NEWEST

    with engine.connect() as db:
        def one(query: str, **params: Any) -> int:
            return int(db.execute(sql(query), params).scalar() or 0)

        held = {
            "scenario_versions": one("SELECT COUNT(*) FROM scenario"),
            "scenarios": one("SELECT COUNT(DISTINCT id) FROM scenario"),
            "runs": one("SELECT COUNT(*) FROM run"),
            "newest_runs": one(f"SELECT COUNT(*) FROM run WHERE run_id IN ({NEWEST})"),
            "divergences": one("SELECT COUNT(*) FROM divergence"),
            "divergences_now": one("SELECT COUNT(*) FROM divergence WHERE engine_version = "
                                   ":v", v=ENGINE_VERSION),
            "explorations": one("SELECT COUNT(*) FROM exploration"),
            "generated": one("SELECT COALESCE(SUM(count), 0) FROM generation"),
        }
        # The pairs of eras that diverge, by the scenario's version and the engine's, and
        # on how many fields.
        diverging: dict[tuple[int, str], dict[tuple[str, str], int]] = {}
        for key, version, a, b, fields in db.execute(sql(
                "SELECT scenario_key, engine_version, era_a, era_b, COUNT(*) "
                "FROM divergence GROUP BY scenario_key, engine_version, era_a, era_b")):
            pairs_of = diverging.setdefault((key, version), {})
            pairs_of[(a, b)] = pairs_of[(b, a)] = int(fields)
        stored_shown = 0
        ids = sorted(shown)
        for at in range(0, len(ids), 500):  # the ids of the shown scenarios it holds
            stored_shown += one("SELECT COUNT(DISTINCT id) FROM scenario WHERE id IN (" +
                                ", ".join(f":i{i}" for i in range(len(ids[at:at + 500])))
                                + ")", **{f"i{i}": v for i, v in enumerate(ids[at:at + 500])})
        newest = db.execute(sql(
            f"SELECT s.id, r.era, r.scenario_key, r.engine_version, s.tags, s.content_hash "
            f"FROM run r JOIN scenario s ON s.scenario_key = r.scenario_key "
            f"WHERE r.run_id IN ({NEWEST}) ORDER BY s.id, r.era"))
        pairs = [(game, a.id, b.id) for game, eras in GAMES.items()
                 for a, b in zip(eras, eras[1:], strict=False)]
        counts = {where: {"pairs": {p: [0, 0] for p in pairs}, "tags": {},
                          "scenarios": 0, "diverging": 0, "runs": 0, "fields": 0}
                  for where in ("store", "shown")}

        def count(sid: str, runs: dict[str, tuple[int, str]], tags: list[str]) -> None:
            bins = [counts["store"]] + ([counts["shown"]] if sid in shown else [])

            def fields(a: str, b: str) -> int:  # runs of one version, by one engine
                return diverging.get(runs[a], {}).get((a, b), 0) if runs[a] == runs[b] \
                    else 0

            def differ(a: str, b: str) -> bool:
                return fields(a, b) > 0

            # Diverging in some pair of the eras that ran it, consecutive or not (an era
            # between them may refuse it).
            found = sum(fields(a, b) for a in runs for b in runs if a < b)
            split = found > 0
            for game, a, b in pairs:
                if a in runs and b in runs:
                    for c in bins:
                        c["pairs"][(game, a, b)][0] += 1
                        c["pairs"][(game, a, b)][1] += differ(a, b)
            for c in bins:
                c["scenarios"] += 1
                c["diverging"] += split
                c["runs"] += len(runs)
                c["fields"] += found
                if len(runs) > 1:
                    for tag in tags:
                        t = c["tags"].setdefault(tag, [0, 0])
                        t[0] += 1
                        t[1] += split

        current: str | None = None
        runs: dict[str, tuple[int, str]] = {}
        tags: list[str] = []
        for sid, era, key, version, tag_json, content_hash in newest:
            if sid != current:
                if current is not None:
                    count(current, runs, tags)
                current, runs, tags = sid, {}, _stored_tags(tag_json, content_hash)
            runs[era] = (key, version)
        if current is not None:
            count(current, runs, tags)

    def figures(c: dict[str, Any]) -> dict[str, Any]:
        return {"scenarios": c["scenarios"], "diverging": c["diverging"],
                "runs": c["runs"], "divergences": c["fields"],
                "pairs": [{"game": TITLES[game], "pair": f"{a} → {b}", "scenarios": n,
                           "diverging": d, "rate": round(d / n, 4) if n else 0.0}
                          for (game, a, b), (n, d) in c["pairs"].items()],
                "tags": [{"tag": t, "scenarios": n, "diverging": d,
                          "rate": round(d / n, 4)} for t, (n, d) in sorted(c["tags"].items())]}

    held["shown_stored"] = stored_shown
    return {"held": held, "store": figures(counts["store"]),
            "shown": figures(counts["shown"])}


def _stored_tags(text: str | None, content_hash: Any) -> list[str]:
    """A stored scenario's tags; DamagedStore, naming the row as `dataset export` does (by
    its hash), where they are not a list of words."""
    row = bytes(content_hash or b"").hex()[:12]
    where = f"table scenario, row {row}"
    tags = _stored(text or "[]", "scenario", row)
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise DamagedStore(f"{where}: its tags are not a list of words")
    return tags


def _stored(text: str | None, table: str, row: object) -> Any:
    """A stored JSON column, read as every reader of the store reads one
    (``store.reading.stored_json``); DamagedStore where it is damaged."""
    try:
        return stored_json(text, table, row)
    except ValueError as exc:
        raise DamagedStore(str(exc)) from None

