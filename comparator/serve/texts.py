"""The work a request does on a scenario's text, as the command line does it on a file:
check it (`validate`), run one era (`run --json`), run every era (`diff --json`); and the
text written from the form's document (YAML, keys in the order given)."""

from __future__ import annotations

import base64
import contextlib
import datetime
import json
import math
import re
from collections.abc import Iterator
from typing import Any

import yaml

from comparator.checking.validation import check_text
from comparator.compare.diffing import diff_document
from comparator.compare.running import (
    RefusedError,
    Result,
    era_ids,
    run_era,
    run_scenario,
)
from comparator.files.documents import load_yaml
from comparator.files.problems import Problem, ScenarioError, line_for, line_map, location
from comparator.scenarios.loader import MAX_BYTES, parse
from comparator.serve.errors import Refused
from comparator.text.language import _
from comparator.text.messages import message, problem_line, problem_message
from versions import find_era

DEFAULT_NAME = "scenario.yaml"


def file_name(name: Any) -> str:
    """How messages name the text: the name the page gives (a file's base name), else
    scenario.yaml; never a path, never markup's worth of anything."""
    if not isinstance(name, str) or not name.strip():
        return DEFAULT_NAME
    base = re.sub(r"[^\w.\-]+", "-", name.replace("\\", "/").rsplit("/", 1)[-1])[:80]
    return base.strip(".-") or DEFAULT_NAME


def problem_records(problems: list[Problem], text: str, said: bool = False
                    ) -> list[dict[str, Any]]:
    """Problems as `validate --json` prints them, each with its line where its field has
    one (an era's refusal of a written choice names the field, not yet the line); with
    `said`, each also has its message in the language spoken (`"said"`: `message` stays
    `validate`'s English, as its JSON keeps it in every language)."""
    lines: dict[tuple[Any, ...], int] | None = None
    out = []
    for p in problems:
        line = p.line
        if line is None and p.path:
            lines = line_map(text) if lines is None else lines
            line = line_for(lines, location(p.path))
        record = {"file": p.file, "line": line, "field": p.path, "message": p.message}
        if said:
            record["said"] = problem_message(p)
        out.append(record)
    return out


def document(text: str) -> Any:
    """The text's YAML document (for the form) as JSON can carry it, or None where it is
    not one yet."""
    try:
        return json_safe(load_yaml(text))
    except (yaml.YAMLError, ValueError, RecursionError):
        return None


def json_safe(value: Any, depth: int = 0) -> Any:
    """A YAML value as JSON carries it: a date as its ISO text, a number JSON has no word
    for (.inf, .nan) as its YAML text, a set as a sorted list, bytes as base64; any other
    kind of value as its text."""
    if depth > 100:
        raise ValueError("nested too deeply")
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else (".nan" if value != value else
                                                    ("-.inf" if value < 0 else ".inf"))
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: json_safe(v, depth + 1)
                for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v, depth + 1) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((json_safe(v, depth + 1) for v in value), key=str)
    if isinstance(value, datetime.date | datetime.datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return str(value)


def checked(text: str, name: str, said: bool = False) -> dict[str, Any]:
    """`validate --json` of one text, with its document for the form and its game (with
    `said`, each problem's message in the language spoken too)."""
    return checked_run(text, name, said)[0]


def checked_run(text: str, name: str, said: bool = False
                ) -> tuple[dict[str, Any], Result | None]:
    """``checked``, and every era's result where the text is valid (the eras run once,
    for the check and the result alike)."""
    from comparator.games.registry import game_id

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise Refused(413, _("{name}: more than {most} bytes: a scenario is a page of YAML")
                      .format(name=name, most=MAX_BYTES))
    ran, found = check_text(text, name)
    raw = document(text)
    return {"ok": not found.problems, "problems": problem_records(found.problems, text, said),
            "warnings": problem_records(found.warnings, text, said),
            "scenario": raw if isinstance(raw, dict) else None,
            "game": game_id(raw)}, ran if not found.problems else None


@contextlib.contextmanager
def refusing(text: str) -> Iterator[None]:
    """A ScenarioError of the text as a refusal (422) with every problem of it."""
    try:
        yield
    except ScenarioError as err:
        raise Refused(422, problem_line(err.problems[0]),
                      problem_records(err.problems, text, said=True)) from None


def loaded(text: str, name: str) -> Any:
    """The scenario of the text, or Refused (422) with every problem of it."""
    with refusing(text):
        return parse(text, name)


def outcome(text: str, name: str, era: Any) -> dict[str, Any]:
    """`run --json` of the text in one era: its outcome, or the era's refusal (§2.1)."""
    scenario = loaded(text, name)
    era_id = _era(era, scenario.game)
    with refusing(text):
        try:
            return run_era(scenario, era_id, name)
        except RefusedError as err:
            return {"schema": 1, "scenario": scenario.id, "era": era_id,
                    "refused": err.refusal.record()}


def _era(era: Any, game: str) -> str:
    from versions import eras_of

    if not isinstance(era, str) or not era:
        raise Refused(400, _("era: name one era (an id or alias, as `rulesdiff eras` lists "
                             "them)"))
    try:
        found = find_era(era)
    except (KeyError, ValueError) as err:
        raise Refused(400, _("era: {why}").format(
            why=message(str(err).strip(chr(34) + chr(39))))) from None
    if found.game != game:
        raise Refused(400, _("era: {era} is not an era of {game} (its eras: {eras})").format(
            era=found.id, game=game, eras=", ".join(eras_of(game))))
    return found.id


def eras_asked(eras: Any) -> list[str]:
    """The eras a diff names (none: every era), as ids."""
    if eras is None:
        return era_ids(None)
    if not isinstance(eras, list) or not all(isinstance(e, str) for e in eras):
        raise Refused(400, _("eras: a list of era ids or aliases"))
    try:
        return era_ids(eras) if eras else era_ids(None)
    except (KeyError, ValueError) as err:
        raise Refused(400, _("eras: {why}").format(
            why=message(str(err).strip(chr(34) + chr(39))))) from None


def result(text: str, name: str, eras: list[str]) -> Result:
    """Every era's outcome of the text (`diff`'s work), nothing stored."""
    scenario = loaded(text, name)
    with refusing(text):
        return run_scenario(scenario, name, eras)


def diff(found: Result) -> dict[str, Any]:
    """`diff --json` of a result: the contract's document, and, where some era refused
    the scenario, its refusals under "refused" (what the command says on stderr)."""
    doc = diff_document(found.scenario.id, found.outcomes)
    if found.refused:
        doc["refused"] = dict(found.refused)
    return doc


class _Dumper(yaml.SafeDumper):
    """Block style for mappings and lists of mappings, flow style for the small ones, as
    the shipped files are written; several lines of words as a literal block."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    """Lines kept as lines (a literal block); one paragraph ending its line, as `>` writes
    it in the shipped files, folded again at the width; other words as PyYAML writes them
    (wrapped at the width too)."""
    if "\n" in value.rstrip("\n"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    if value.endswith("\n"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=">")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _text)


def written(doc: Any) -> str:
    """The form's document as YAML text, its keys in the order the form keeps them."""
    if not isinstance(doc, dict):
        raise Refused(400, _("scenario: a mapping (the scenario's fields)"))
    try:
        text = yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=None, width=92)
    except (yaml.YAMLError, RecursionError, ValueError) as err:
        raise Refused(400, _("scenario: can't be written as YAML ({why})").format(
            why=err)) from None
    return text


def json_of(body: bytes) -> dict[str, Any]:
    """A request's JSON object, or Refused naming what is wrong with it."""
    try:
        value = json.loads(body, parse_constant=_no_constant)
    except RecursionError:
        raise Refused(400, _("the request's JSON is nested too deeply")) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise Refused(400, _("the request is not JSON ({why})").format(
            why=str(err).splitlines()[0])) from None
    if not isinstance(value, dict):
        raise Refused(400, _("the request is a JSON object"))
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def text_of(body: dict[str, Any]) -> str:
    """The request's scenario text: its `yaml`, or its `scenario` document written out."""
    if "yaml" in body:
        if not isinstance(body["yaml"], str):
            raise Refused(400, _("yaml: the scenario's text, a string"))
        return body["yaml"]
    if "scenario" in body:
        return written(body["scenario"])
    raise Refused(400, _("yaml: required (the scenario's text), or scenario (its document)"))


def of_its_game(scenario: Any, eras: list[str], name: str) -> list[str]:
    """Those of `eras` that are eras of the scenario's game; none is a refusal, as the
    command line refuses it."""
    from comparator.compare.running import game_eras

    try:
        return game_eras(scenario, eras, name)
    except ScenarioError as err:
        raise Refused(400, problem_line(err.problems[0])) from None
