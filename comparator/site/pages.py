"""The site's pages, written from what ``comparator.site.gather`` gathered with Jinja2
templates (``templates/``): the timeline, a page per change, per scenario and per era, the
indexes by tag and by rule, the statistics, the search page. Every link is relative, so
the folder works from disk and from any static host; nothing on a page asks for anything
outside it; pages carry no date, and everything is written in a stable order, so the same
input gives the same bytes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import comparator.site.board_svg as board_svg
import comparator.site.charts as charts
import comparator.site.topics as topics
from comparator.compare.diffing import verdict
from comparator.games.registry import game_named
from comparator.site.gather import Gathered, Say, Scenario
from comparator.site.words import field, japanese, outcomes, value_words
from comparator.text import language
from comparator.text.language import N_, _
from comparator.text.messages import message
from comparator.text.phrases import own_japanese, phrase
from versions import ENGINE_VERSION, GAMES, TITLES, find_era

HERE = Path(__file__).resolve().parent


def anchor(era: str, number: str) -> str:
    """The id of a rule's entry on the rules page: "m10-510-1c"."""
    return f"{era}-" + re.sub(r"[^A-Za-z0-9]+", "-", number).strip("-").lower()


def environment(*more: Path) -> Any:
    """The pages' templates (and those of the folders `more`, found first: the
    workbench's), every value escaped; their words in the language spoken when a page is
    rendered (Jinja2's i18n extension on rulesdiff's catalogs)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader([*more, HERE / "templates"]),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      extensions=["jinja2.ext.i18n"])
    env.policies["ext.i18n.trimmed"] = True  # a message's line breaks are the template's
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=language._, ngettext=language.ngettext, newstyle=True)
    env.globals.update(lang="en", languages=[], switch=None)
    env.globals["anchor"] = anchor
    env.globals["tag_page"] = topics.page
    env.filters["ja"] = japanese
    # A rule's number as its era cites it, said in the language spoken where it has words
    # ("507 (before 2021-09-07; wording not in the sources)").
    env.filters["rule"] = lambda number: japanese(phrase(str(number)))
    env.filters["sentence"] = lambda text: str(text)[:1].upper() + str(text)[1:]
    return env


# The languages a site is written in: English at its root, each other in a folder of its
# own beside the English pages, with the same pages at the same paths under it.
FOLDERS = {"en": "", "ja": "ja/"}


def write_pages(out: Path, got: Gathered, say: Say, lang: str = "en") -> int:
    """Every page into `out` (a language's pages into its folder of `out`); the number
    written."""
    with language.speaking(lang):
        return _write_pages(out, got, say, lang)


def _write_pages(out: Path, got: Gathered, say: Say, lang: str) -> int:
    env = environment()
    common = {"engine_version": ENGINE_VERSION, "scenario_count": len(got.scenarios),
              "lang": lang}
    written = 0

    def page(path: str, template: str, **context: Any) -> None:
        nonlocal written
        where = FOLDERS[lang] + path
        top = "../" * where.count("/")
        alternates = [{"lang": code, "href": top + FOLDERS[code] + path} for code in FOLDERS]
        other = next(a for a in alternates if a["lang"] != lang)
        html = env.get_template(template).render(
            root="../" * path.count("/"), top=top, languages=alternates,
            switch={**other, "name": language.NAMES[other["lang"]]}, **common, **context)
        target = out / where
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        written += 1

    if lang == "en":
        (out / "assets").mkdir(parents=True, exist_ok=True)
        for name in ("site.css", "search.js", "favicon.svg"):
            shutil.copyfile(HERE / "static" / name, out / "assets" / name)
    by_game = {g: [s for s in got.scenarios if s.game == g] for g in GAMES}
    changes = {era.id: f"{older.id}-to-{era.id}" for eras in GAMES.values()
               for older, era in zip(eras, eras[1:], strict=False)}
    said = "" if lang == "en" else f" ({language.NAMES[lang]})"
    say(_("writing the timeline and the changes") + said)
    page("index.html", "home.html", title=_("Combat rules through time"), section="home",
         games=[_game(g, changes) for g in GAMES if by_game[g]],
         era_count=sum(len(GAMES[g]) for g in GAMES if by_game[g]),
         diverging=sum(1 for s in got.scenarios if s.result.divergences))
    for eras in GAMES.values():
        for older, era in zip(eras, eras[1:], strict=False):
            apart = {s.id: _between(s, older.id, era.id) for s in got.scenarios}
            shown = [{**_item(s), "fields": [field(d["path"]) for d in apart[s.id]]}
                     for s in got.scenarios if apart[s.id]]
            page(f"changes/{changes[era.id]}.html", "change.html",
                 title=_("{era}: what changed on {date}").format(era=_(era.name),
                                                                 date=era.began),
                 section="home", era=era_words(era), older=era_words(older),
                 rules=got.change_rules.get(era.id, []), shown=shown,
                 before_doc=got.imported.get(older.id), after_doc=got.imported.get(era.id))
    step = _("writing {count} scenario pages").format(count=len(got.scenarios)) + said
    say(step, 0, len(got.scenarios))
    for i, s in enumerate(got.scenarios, 1):
        page(f"scenarios/{s.id}.html", "scenario.html", title=title(s.data),
             section="scenarios", **_scenario(s, got))
        say(step, i, len(got.scenarios), f"{FOLDERS[lang]}scenarios/{s.id}.html")
    say(_("writing the eras, the indexes and the statistics") + said)
    for eras in GAMES.values():
        for era in eras:
            page(f"eras/{era.id}.html", "era.html", title=_(era.name), section="home",
                 **_era(era, got, changes.get(era.id)))
    page("scenarios.html", "scenarios.html", title=_("Scenarios"), section="scenarios",
         games=[{"title": _(TITLES[g]), "scenarios": [
             {"id": s.id, "title": title(s.data), "tags": s.data.get("tags", []),
              "verdict": verdict(s.result.outcomes, s.result.divergences)
              if s.result.outcomes else _("no era runs it")}
             for s in by_game[g]]} for g in GAMES if by_game[g]])
    mechanics, others = _tags(got.scenarios)
    page("tags.html", "tags.html", title=_("Scenarios by mechanic"), section="tags",
         tags=mechanics)
    page("topics.html", "topics.html", title=_("Scenarios by era, game, source and kind"),
         section="topics", groups=others)
    rules, any_words = _rules(got)
    page("rules.html", "rules.html", title=_("Scenarios by rule"), section="rules",
         eras=rules, any_words=any_words)
    page("statistics.html", "statistics.html", title=_("Statistics"), section="statistics",
         **_statistics(got))
    page("search.html", "search.html", title=_("Search"), section="search")
    return written


def title(data: dict[str, Any]) -> str:
    """A scenario's title: its own Japanese one on a Japanese page, where it has one."""
    own = own_japanese(data, "title") if language.current() == "ja" else None
    return str(own or data["title"])


def description(data: dict[str, Any]) -> str | None:
    """A scenario's description: its own Japanese one on a Japanese page, where it has
    one."""
    own = own_japanese(data, "description") if language.current() == "ja" else None
    return own or data.get("description")


def era_words(era: Any) -> dict[str, Any]:
    """An era's record as its page shows it: its name, summary and changes in the language
    spoken (its sources as written)."""
    meta = era.metadata()
    return {**meta, "name": _(meta["name"]), "summary": _(meta["summary"]),
            "changes": [_(c) for c in meta["changes"]]}


# -- the contexts -----------------------------------------------------------------------------


def _game(game: str, changes: dict[str, str]) -> dict[str, Any]:
    eras = list(GAMES[game])
    return {"id": game, "title": _(TITLES[game]),
            "timeline": charts.timeline(eras, _(TITLES[game])),
            "eras": [{**era_words(e), "change": changes.get(e.id),
                      "first_change": _(e.changes[0]) if e.changes else ""} for e in eras]}


def _item(s: Scenario) -> dict[str, Any]:
    return {"id": s.id, "title": title(s.data), "fields": []}


def _between(s: Scenario, a: str, b: str) -> list[dict[str, Any]]:
    """The divergences of a scenario between eras `a` and `b`."""
    return [d for d in s.result.divergences
            if a in d["values"] and b in d["values"] and d["values"][a] != d["values"][b]]


def _scenario(s: Scenario, got: Gathered) -> dict[str, Any]:
    game = game_named(s.game)
    before = game.board(s.data, None)
    ran = list(s.result.outcomes)
    divergences = []
    for d in s.result.divergences:
        values = {e: value_words(d["values"].get(e), game.zone_words) for e in ran}
        # Marked: the values that differ from one most eras share; with no such value
        # (two eras, a tie), none is marked, the row itself says they differ.
        counts = {v: list(values.values()).count(v) for v in values.values()}
        common = next((v for v, n in counts.items() if n * 2 > len(ran)), None)
        divergences.append({"field": field(d["path"]), "cells": values,
                            "odd": {e: common is not None and values[e] != common
                                    for e in ran}})
    eras = []
    for era_id, outcome in s.result.outcomes.items():
        after = game.board(s.data, outcome)
        era = find_era(era_id)
        eras.append({"id": era_id, "name": _(era.name),
                     "board": board_svg.pictures(after, _("{title}: after combat under {era}")
                                                 .format(title=title(s.data), era=_(era.name)),
                                                 f"after-{era_id}"),
                     "board_words": after.describe(),
                     "steps": _steps(outcome, game, era_id, got)})
    return {"s": s.data, "description": description(s.data),
            "game_title": _(TITLES[s.game]), "ran": ran,
            "board": board_svg.pictures(before, _("{title}: the board before combat").format(
                title=title(s.data)), "before"),
            "board_words": before.describe(), "divergences": divergences,
            "verdict": verdict(s.result.outcomes, s.result.divergences) if ran else "",
            "refused": [{"id": e, "why": message(why)} for e, why in s.result.refused.items()],
            "eras": eras, "explored": _explored(s, game),
            "not_explored": message(s.not_explored) if s.not_explored else None}


def _steps(outcome: dict[str, Any], game: Any, era_id: str, got: Gathered
           ) -> list[dict[str, Any]]:
    """The events in the order they happened, by step (a step met again is a new run, as
    the narration prints it), each with its rule, quoted the first time; the notes of a
    step after its events, or, for a step without events, where its window falls."""
    windows = list(game.step_titles)
    quoted: set[str] = set()
    runs: list[dict[str, Any]] = []

    def entry(text: str, rule: str) -> dict[str, Any]:
        quote = None
        if rule not in quoted:
            quoted.add(rule)
            quote = got.quote(era_id, rule, language.current())
        return {"text": text, "rule": rule, "quote": quote}

    for e in outcome["events"]:
        if not runs or runs[-1]["key"] != e["step"]:
            runs.append({"key": e["step"], "title": _(game.step_titles.get(e["step"], e["step"])),
                         "events": []})
        runs[-1]["events"].append(entry(game.sentence(e), str(e["rule"])))
    for n in outcome.get("notes", []):
        step = n.get("step", "")
        text = _note_words(n)
        mine = [r for r in runs if r["key"] == step]
        if mine:
            mine[-1]["events"].append(entry(text, str(n["rule"])))
            continue
        at = windows.index(step) if step in windows else len(windows)
        place = next((i for i, r in enumerate(runs)
                      if r["key"] in windows and windows.index(r["key"]) > at), len(runs))
        runs.insert(place, {"key": step, "title": _(game.step_titles.get(step, step)),
                            "events": [entry(text, str(n["rule"]))]})
    return runs


def _note_words(n: dict[str, Any]) -> str:
    """A note as a reader takes it: a hint is the era's own remark; the others say what
    the era did with what the scenario asked."""
    label = {"hint": N_("Hint"), "missing-window": N_("This era has no such moment"),
             "illegal-assignment": N_("Not allowed in this era"),
             "action-not-allowed": N_("Not allowed in this era"),
             "action-not-taken": N_("Not done"), "trigger-not-taken": N_("Not done"),
             "tapped-blocker": N_("Tapped blocker"), "game-over": N_("The game is over"),
             "loop": N_("A loop")}.get(n["type"], N_("Note"))
    return _("{label}: {text}").format(label=_(label), text=phrase(n["text"]))


def _explored(s: Scenario, game: Any) -> dict[str, Any] | None:
    """Each era's best play; and every outcome the players can reach, in the words the
    terminal's report gives them, grouped by the eras that reach it (every era first,
    then the widest groups), so each era's outcomes are its groups'."""
    if not s.explored:
        return None
    reached = outcomes(s.explored, lambda state: game.losses(state, s.result.scenario))
    order = reached["eras"]
    by_eras: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for o in reached["rows"]:
        by_eras.setdefault(tuple(e for e in order if e in o["eras"]), []).append(
            {"words": o["words"], "lines": o["eras"]})
    keys = sorted(by_eras, key=lambda k: (-len(k), [order.index(e) for e in k]))
    groups = [{"eras": list(k), "anchor": f"reached-{i + 1}", "outcomes": by_eras[k],
               "label": (_("every era explored here") if len(k) == len(order) > 1
                         else _("only {era}").format(era=k[0]) if len(k) == 1
                         else ", ".join(k))}
              for i, k in enumerate(keys)]
    rows = []
    for era_id, res in s.explored.items():
        value = res.get("value")
        rows.append({
            "id": era_id, "lines": res["lines"], "outcomes": len(res["outcomes"]),
            "value": game.losses(value["state"], s.result.scenario) if value
            else _("no legal line of play"),
            "line": [{"text": game.describe_decision(d, s.result.scenario),
                      "rule": str(d["rule"])} for d in (value or {}).get("line", [])],
            "groups": [g for g in groups if era_id in g["eras"]]})
    return {"eras": rows, "groups": groups, "count": len(reached["rows"]),
            "chart": charts.explored([{"era": r["id"], "outcomes": r["outcomes"]}
                                      for r in rows])}


def _era(era: Any, got: Gathered, change: str | None) -> dict[str, Any]:
    from comparator.rules.store import citation

    mine = [s for s in got.scenarios if s.game == era.game]
    refused = [{"id": s.id, "title": title(s.data), "why": message(s.result.refused[era.id])}
               for s in mine if era.id in s.result.refused]
    ran = [_item(s) for s in mine if era.id in s.result.outcomes]
    doc = got.imported.get(era.id)
    rules = []
    for key, number in sorted(era.RULES.items()):
        quote = got.quote(era.id, number, language.current())
        kind = citation(number).kind
        if quote:
            words, why = quote["text"], None
        elif number in era.pages:
            words, why = None, _("in our words: {words}").format(words=era.pages[number])
        elif kind == "unnumbered":
            words, why = None, _("no number: the era's sources give no words to quote")
        elif doc is None and not citation(number).day:
            words, why = None, _("not imported")
        else:
            where = citation(number).day or (doc or {}).get("effective", "")
            words, why = None, _("not in the imported text of {date}").format(date=where)
        rules.append({"key": key, "number": number, "words": words, "why": why})
    return {"era": era_words(era), "game_title": _(TITLES[era.game]), "change": change,
            "refused": refused, "ran": ran, "rules": rules, "imported": doc}


def _tags(scenarios: list[Scenario]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The mechanics, each with its scenarios; and the other tags, by group (era, game,
    source, kind), each with what it means and its scenarios."""
    tags: dict[str, list[dict[str, str]]] = {}
    for s in scenarios:
        for t in s.data.get("tags", []):
            tags.setdefault(t, []).append(_item(s))
    mechanics = [{"tag": t, "entries": items} for t, items in sorted(tags.items())
                 if topics.group(t) == topics.MECHANIC]
    groups = []
    for kind, heading in topics.GROUPS.items():
        mine = [{"tag": t, "about": topics.about(t), "entries": items}
                for t, items in sorted(tags.items()) if topics.group(t) == kind]
        if mine:
            groups.append({"id": kind, "heading": _(heading), "tags": mine})
    return mechanics, groups


def _statistics(got: Gathered) -> dict[str, Any]:
    """The store's figures beside those of the scenarios this site shows; the charts of
    the store's, the mechanics apart from the other tags."""
    data = got.dataset
    store, shown = data["store"], data["shown"]
    shown_pairs = {p["pair"]: p for p in shown["pairs"]}
    shown_tags = {t["tag"]: t for t in shown["tags"]}
    on_site = {t for s in got.scenarios for t in s.data.get("tags", [])}
    pairs = [{**p, "shown": shown_pairs.get(p["pair"])} for p in store["pairs"]]
    mechanics = [{**t, "shown": shown_tags.get(t["tag"]), "page": topics.page(t["tag"])
                  if t["tag"] in on_site else None}
                 for t in store["tags"] if topics.group(t["tag"]) == topics.MECHANIC]
    others = [{**t, "shown": shown_tags.get(t["tag"]), "group": _(topics.group(t["tag"])),
               "about": topics.about(t["tag"]),
               "page": topics.page(t["tag"]) if t["tag"] in on_site else None}
              for t in store["tags"] if topics.group(t["tag"]) != topics.MECHANIC]
    return {"held": data["held"], "store": store, "shown": shown, "pairs": pairs,
            "mechanics": mechanics, "others": others,
            "pair_chart": charts.rates([{"pair": p["pair"], "rate": p["rate"]}
                                        for p in store["pairs"]], "pair",
                                       _("Divergence by pair of eras, in the store")),
            "tag_chart": charts.rates([{"tag": t["tag"], "rate": t["rate"]}
                                       for t in mechanics], "tag",
                                      _("Divergence by mechanic, in the store"))
            if mechanics else None}


def _rules(got: Gathered) -> tuple[list[dict[str, Any]], bool]:
    from comparator.explore.report import cited_in
    from comparator.rules.quoting import cited

    out = []
    for eras in GAMES.values():
        for era in eras:
            by_number: dict[str, list[dict[str, str]]] = {}
            for s in got.scenarios:
                numbers = cited(s.result.outcomes[era.id]) \
                    if era.id in s.result.outcomes else []
                if era.id in s.explored:  # the best line of play cites its rules too
                    numbers += cited_in(s.explored[era.id])
                for number in dict.fromkeys(numbers):
                    by_number.setdefault(number, []).append(_item(s))
            if by_number:
                out.append({"id": era.id, "name": _(era.name), "rules": [
                    {"number": n, "anchor": anchor(era.id, n), "entries": items,
                     "quote": got.quote(era.id, n, language.current())}
                    for n, items in sorted(by_number.items(), key=lambda kv: _order(kv[0]))]})
    return out, bool(got.quotes)


def _order(number: str) -> tuple[Any, ...]:
    """Rule numbers in reading order: 509.1g before 509.10 before 510.1."""
    return tuple((0, int(p)) if p.isdigit() else (1, p)
                 for p in re.findall(r"\d+|[A-Za-z]+|\(.*\)", number))
