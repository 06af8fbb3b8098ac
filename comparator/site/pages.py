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
from versions import ENGINE_VERSION, GAMES, TITLES, find_era

HERE = Path(__file__).resolve().parent


def anchor(era: str, number: str) -> str:
    """The id of a rule's entry on the rules page: "m10-510-1c"."""
    return f"{era}-" + re.sub(r"[^A-Za-z0-9]+", "-", number).strip("-").lower()


def environment(*more: Path) -> Any:
    """The pages' templates (and those of the folders `more`, found first: the
    workbench's), every value escaped."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    env = Environment(loader=FileSystemLoader([*more, HERE / "templates"]),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.globals["anchor"] = anchor
    env.globals["tag_page"] = topics.page
    env.filters["ja"] = japanese
    return env


def write_pages(out: Path, got: Gathered, say: Say) -> int:
    """Every page into `out`; the number written."""
    env = environment()
    common = {"engine_version": ENGINE_VERSION, "scenario_count": len(got.scenarios)}
    written = 0

    def page(path: str, template: str, **context: Any) -> None:
        nonlocal written
        root = "../" * path.count("/")
        html = env.get_template(template).render(root=root, **common, **context)
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")
        written += 1

    (out / "assets").mkdir(parents=True, exist_ok=True)
    for name in ("site.css", "search.js", "favicon.svg"):
        shutil.copyfile(HERE / "static" / name, out / "assets" / name)
    by_game = {g: [s for s in got.scenarios if s.game == g] for g in GAMES}
    changes = {era.id: f"{older.id}-to-{era.id}" for eras in GAMES.values()
               for older, era in zip(eras, eras[1:], strict=False)}
    say("writing the timeline and the changes")
    page("index.html", "home.html", title="Combat rules through time", section="home",
         games=[_game(g, changes) for g in GAMES if by_game[g]],
         era_count=sum(len(GAMES[g]) for g in GAMES if by_game[g]),
         diverging=sum(1 for s in got.scenarios if s.result.divergences))
    for eras in GAMES.values():
        for older, era in zip(eras, eras[1:], strict=False):
            apart = {s.id: _between(s, older.id, era.id) for s in got.scenarios}
            shown = [{**_item(s), "fields": [field(d["path"]) for d in apart[s.id]]}
                     for s in got.scenarios if apart[s.id]]
            page(f"changes/{changes[era.id]}.html", "change.html",
                 title=f"{era.name}: what changed on {era.began}", section="home",
                 era=era.metadata(), older=older.metadata(),
                 rules=got.change_rules.get(era.id, []), shown=shown,
                 before_doc=got.imported.get(older.id), after_doc=got.imported.get(era.id))
    step = f"writing {len(got.scenarios)} scenario pages"
    say(step, 0, len(got.scenarios))
    for i, s in enumerate(got.scenarios, 1):
        page(f"scenarios/{s.id}.html", "scenario.html", title=s.data["title"],
             section="scenarios", **_scenario(s, got))
        say(step, i, len(got.scenarios), f"scenarios/{s.id}.html")
    say("writing the eras, the indexes and the statistics")
    for eras in GAMES.values():
        for era in eras:
            page(f"eras/{era.id}.html", "era.html", title=era.name, section="home",
                 **_era(era, got, changes.get(era.id)))
    page("scenarios.html", "scenarios.html", title="Scenarios", section="scenarios",
         games=[{"title": TITLES[g], "scenarios": [
             {"id": s.id, "title": s.data["title"], "tags": s.data.get("tags", []),
              "verdict": verdict(s.result.outcomes, s.result.divergences)
              if s.result.outcomes else "no era runs it"}
             for s in by_game[g]]} for g in GAMES if by_game[g]])
    mechanics, others = _tags(got.scenarios)
    page("tags.html", "tags.html", title="Scenarios by mechanic", section="tags",
         tags=mechanics)
    page("topics.html", "topics.html", title="Scenarios by era, game, source and kind",
         section="topics", groups=others)
    rules, any_words = _rules(got)
    page("rules.html", "rules.html", title="Scenarios by rule", section="rules",
         eras=rules, any_words=any_words)
    page("statistics.html", "statistics.html", title="Statistics", section="statistics",
         **_statistics(got))
    page("search.html", "search.html", title="Search", section="search")
    return written


# -- the contexts -----------------------------------------------------------------------------


def _game(game: str, changes: dict[str, str]) -> dict[str, Any]:
    eras = list(GAMES[game])
    return {"id": game, "title": TITLES[game],
            "timeline": charts.timeline(eras, TITLES[game]),
            "eras": [{**e.metadata(), "change": changes.get(e.id),
                      "first_change": e.changes[0] if e.changes else ""} for e in eras]}


def _item(s: Scenario) -> dict[str, Any]:
    return {"id": s.id, "title": s.data["title"], "fields": []}


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
        values = {e: value_words(d["values"].get(e)) for e in ran}
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
        eras.append({"id": era_id, "name": era.name,
                     "board": board_svg.pictures(after, f"{s.data['title']}: after combat "
                                                        f"under {era.name}", f"after-{era_id}"),
                     "board_words": after.describe(),
                     "steps": _steps(outcome, game, era_id, got)})
    return {"s": s.data, "game_title": TITLES[s.game], "ran": ran,
            "board": board_svg.pictures(before, f"{s.data['title']}: the board before "
                                                f"combat", "before"),
            "board_words": before.describe(), "divergences": divergences,
            "verdict": verdict(s.result.outcomes, s.result.divergences) if ran else "",
            "refused": [{"id": e, "why": why} for e, why in s.result.refused.items()],
            "eras": eras, "explored": _explored(s, game), "not_explored": s.not_explored}


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
            quote = got.quotes.get((era_id, rule))
        return {"text": text, "rule": rule, "quote": quote}

    for e in outcome["events"]:
        if not runs or runs[-1]["key"] != e["step"]:
            runs.append({"key": e["step"], "title": game.step_titles.get(e["step"], e["step"]),
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
        runs.insert(place, {"key": step, "title": game.step_titles.get(step, step),
                            "events": [entry(text, str(n["rule"]))]})
    return runs


def _note_words(n: dict[str, Any]) -> str:
    """A note as a reader takes it: a hint is the era's own remark; the others say what
    the era did with what the scenario asked."""
    label = {"hint": "Hint", "missing-window": "This era has no such moment",
             "illegal-assignment": "Not allowed in this era",
             "action-not-allowed": "Not allowed in this era",
             "action-not-taken": "Not done", "trigger-not-taken": "Not done",
             "tapped-blocker": "Tapped blocker", "game-over": "The game is over",
             "loop": "A loop"}.get(n["type"], "Note")
    return f"{label}: {n['text']}"


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
               "label": ("every era explored here" if len(k) == len(order) > 1
                         else f"only {k[0]}" if len(k) == 1 else ", ".join(k))}
              for i, k in enumerate(keys)]
    rows = []
    for era_id, res in s.explored.items():
        value = res.get("value")
        rows.append({
            "id": era_id, "lines": res["lines"], "outcomes": len(res["outcomes"]),
            "value": game.losses(value["state"], s.result.scenario) if value
            else "no legal line of play",
            "line": [{"text": game.describe_decision(d, s.result.scenario),
                      "rule": str(d["rule"])} for d in (value or {}).get("line", [])],
            "groups": [g for g in groups if era_id in g["eras"]]})
    return {"eras": rows, "groups": groups, "count": len(reached["rows"]),
            "chart": charts.explored([{"era": r["id"], "outcomes": r["outcomes"]}
                                      for r in rows])}


def _era(era: Any, got: Gathered, change: str | None) -> dict[str, Any]:
    from comparator.rules.store import citation

    mine = [s for s in got.scenarios if s.game == era.game]
    refused = [{"id": s.id, "title": s.data["title"], "why": s.result.refused[era.id]}
               for s in mine if era.id in s.result.refused]
    ran = [_item(s) for s in mine if era.id in s.result.outcomes]
    doc = got.imported.get(era.id)
    rules = []
    for key, number in sorted(era.RULES.items()):
        quote = got.quotes.get((era.id, number))
        kind = citation(number).kind
        if quote:
            words, why = quote["text"], None
        elif number in era.pages:
            words, why = None, f"in our words: {era.pages[number]}"
        elif kind == "unnumbered":
            words, why = None, "no number: the era's sources give no words to quote"
        elif doc is None and not citation(number).day:
            words, why = None, "not imported"
        else:
            where = citation(number).day or (doc or {}).get("effective", "")
            words, why = None, f"not in the imported text of {where}"
        rules.append({"key": key, "number": number, "words": words, "why": why})
    return {"era": era.metadata(), "game_title": TITLES[era.game], "change": change,
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
            groups.append({"id": kind, "heading": heading, "tags": mine})
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
    others = [{**t, "shown": shown_tags.get(t["tag"]), "group": topics.group(t["tag"]),
               "about": topics.about(t["tag"]),
               "page": topics.page(t["tag"]) if t["tag"] in on_site else None}
              for t in store["tags"] if topics.group(t["tag"]) != topics.MECHANIC]
    return {"held": data["held"], "store": store, "shown": shown, "pairs": pairs,
            "mechanics": mechanics, "others": others,
            "pair_chart": charts.rates([{"pair": p["pair"], "rate": p["rate"]}
                                        for p in store["pairs"]], "pair",
                                       "Divergence by pair of eras, in the store"),
            "tag_chart": charts.rates([{"tag": t["tag"], "rate": t["rate"]}
                                       for t in mechanics], "tag",
                                      "Divergence by mechanic, in the store")
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
                out.append({"id": era.id, "name": era.name, "rules": [
                    {"number": n, "anchor": anchor(era.id, n), "entries": items,
                     "quote": got.quotes.get((era.id, n))}
                    for n, items in sorted(by_number.items(), key=lambda kv: _order(kv[0]))]})
    return out, bool(got.quotes)


def _order(number: str) -> tuple[Any, ...]:
    """Rule numbers in reading order: 509.1g before 509.10 before 510.1."""
    return tuple((0, int(p)) if p.isdigit() else (1, p)
                 for p in re.findall(r"\d+|[A-Za-z]+|\(.*\)", number))
