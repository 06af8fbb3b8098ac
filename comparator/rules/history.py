"""One rule through time: every version of it in the imported documents, oldest first,
each with a word-level diff from the one before, when it changed, and the shipped
scenarios whose outcome the change changes.

A rule is named by its number ("510.1c") or by an era's rule key ("trample"). The trail
follows it across renumberings through the eras' own `RULES` tables: every number a key
has in any era is a candidate in every document, and in each the candidate whose words
are nearest the neighbouring version's is taken. It starts in the document of the oldest
era citing the number (for a key, stating it), and walks to older and to newer texts
from there. A number no era cites is followed as that number.

A change is dated by the era whose rules began between the two documents, where that era
names the rule in what it changed (its docstring or `changes`) or gives a key of the trail
a new number: "2024-11-08, the foundations rules". Otherwise it is dated only as "between"
the two documents; where they are more than a year apart the trail says it has a gap.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Engine

from comparator.rules.citations import scenarios_changed
from comparator.rules.document import SUMMARY
from comparator.rules.store import document_on, own_dates, texts
from comparator.store.schema import RuleDocumentRow

GAP_DAYS = 400  # CRs came every few months: a year with none imported is a gap
FOLLOW = 0.3  # below this likeness a candidate is another rule, not this one moved
_NUMBER = re.compile(r"^(\d{3}\.\d+[a-z]?|[A-Z]\.\d+(\.(Rulings?\.)?\d+|\.Note)?(#\d+)?)$")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                         "\u2014": "-", "\u2013": "-"})


class UnknownRule(Exception):
    """Neither a rule number nor a rule key of any era: the message says which are."""


@dataclass
class Version:
    in_force: str  # when its rules were in force from (a summary's: its era's start)
    effective: str  # the date the document gives
    document: str
    kind: str
    number: str
    title: str
    text: str
    era: str | None  # the era in force when this text was
    status: str  # "first", "unchanged", "changed", "renumbered", "renumbered and changed"
    previous_number: str | None = None
    words: list[dict[str, str]] = field(default_factory=list)  # {"op", "text"}; a change
    dated: dict[str, Any] | None = None  # {"on", "era"} or {"between": [a, b]}
    gap: str | None = None  # how long no text was imported before this one
    scenarios: list[str] = field(default_factory=list)  # shipped, whose outcome it changes
    document_id: int = 0  # the store's, not shown


@dataclass
class History:
    asked: str
    game: str
    keys: list[str]  # the era rule keys followed
    versions: list[Version]
    absent: list[dict[str, str]]  # documents imported in which the rule is not found

    def record(self) -> dict[str, Any]:
        out = asdict(self)
        for v in out["versions"]:
            del v["document_id"]
        return out


def keys_for(asked: str, eras: tuple[Any, ...]) -> tuple[list[str], bool]:
    """The rule keys a name stands for, and whether it is a number: a key itself, or the
    keys any era gives that number."""
    if any(asked in e.RULES for e in eras):
        return [asked], False
    if not _NUMBER.match(asked):
        known = sorted({k for e in eras for k in e.RULES})
        from versions.common import did_you_mean

        hint = did_you_mean(asked, known)
        raise UnknownRule(f"{asked!r} is neither a rule number (like 510.1c or C.8.1) nor "
                          f"a rule key of an era{hint}; `rulesdiff eras ERA --json` lists "
                          f"an era's keys")
    return sorted({k for e in eras for k, n in e.RULES.items() if n == asked}), True


def history(engine: Engine, asked: str, game: str = "mtg") -> History:
    from versions import GAMES

    eras = tuple(GAMES[game])
    keys, is_number = keys_for(asked, eras)
    numbers = {n for e in eras for k, n in e.RULES.items() if k in keys}
    if is_number:
        numbers.add(asked)
    docs, words = texts(engine, game, {heading(n) for n in numbers})
    if not docs:
        return History(asked, game, keys, [], [])
    # Each era's own document: there its RULES table says which number the rule has.
    own = {id(doc): era for era in eras if (doc := document_on(docs, own=own_dates(era)))}
    chosen = _anchors(docs, words, own, asked if is_number else None, keys)

    def follow(i: int, j: int) -> bool:
        found = _follow(docs[i], words, chosen[j], docs[j], numbers, keys,
                        own.get(id(docs[i])), eras)
        if found is not None:
            chosen[i] = found
        return found is not None

    # Each other text from the version before it, else from the one after.
    for i in range(len(docs)):
        older = [j for j in chosen if j < i]
        if i not in chosen and older:
            follow(i, max(older))
    for i in reversed(range(len(docs))):
        newer = [j for j in chosen if j > i]
        if i not in chosen and newer:
            follow(i, min(newer))
    versions: list[Version] = []
    absent = []
    last_doc: RuleDocumentRow | None = None
    for i, doc in enumerate(docs):
        if i not in chosen:
            absent.append({"effective": doc.effective, "document": doc.name})
            continue
        versions.append(_version(doc, chosen[i], words, versions[-1] if versions else None,
                                 docs[i - 1] if i else None, last_doc, eras, keys))
        last_doc = doc
    if versions and keys:
        first = next(d for d in docs if d.document_id == versions[0].document_id)
        versions[:0] = _earlier_reading(first, versions[0], words, eras, keys)
    return History(asked, game, keys, versions, absent)


def _earlier_reading(doc: RuleDocumentRow, version: Version,
                     words: dict[tuple[int, str], tuple[str, str]], eras: tuple[Any, ...],
                     keys: list[str]) -> list[Version]:
    """The rule as an earlier era that cites the same document gives it, under another
    number: the rulings summary states fifth's trample (A.27.2) and, in its note, the
    trample of the rules before Urza's Saga (A.27.Note), which fourth cites. That reading
    comes first, in force from that era's start, and `version` becomes its change."""
    owners = [e for e in eras if doc.effective in own_dates(e)]
    if len(owners) < 2:
        return []
    earlier, later = owners[-2], owners[-1]
    # A key the later era gives this number, and the earlier another, in the same text.
    number = next((earlier.RULES[k] for k in keys
                   if later.RULES.get(k) == version.number
                   and earlier.RULES.get(k, version.number) != version.number
                   and (doc.document_id, earlier.RULES[k]) in words), None)
    if number is None:
        return []
    text, title = words[(doc.document_id, number)]
    old = Version(earlier.began, doc.effective, doc.name, doc.kind, number, title, text,
                  earlier.id, "first", document_id=doc.document_id or 0)
    changed = _plain(text) != _plain(version.text)
    version.status = "renumbered and changed" if changed else "renumbered"
    version.previous_number = number
    version.words = word_diff(text, version.text) if changed else []
    version.dated = {"on": later.began, "era": later.id}
    version.scenarios = scenarios_changed(earlier.id, later.id, set(keys))
    return [old]


def _anchors(docs: list[RuleDocumentRow], words: dict[tuple[int, str], tuple[str, str]],
             own: dict[int, Any], number: str | None, keys: list[str]) -> dict[int, str]:
    """Where the tables say which rule it is: in each era's own document, the number the
    era gives a key of it (of several, the one asked for, else the likest to a text
    already placed). A number no era cites: the newest document having it."""
    anchors: dict[int, str] = {}
    options: dict[int, list[str]] = {}
    for i, doc in enumerate(docs):
        era = own.get(id(doc))
        if era is None:
            continue
        present = sorted({era.RULES[k] for k in keys if k in era.RULES
                          and (doc.document_id, era.RULES[k]) in words})
        if number in present:
            anchors[i] = number
        elif len(present) == 1:
            anchors[i] = present[0]
        elif present:
            options[i] = present
    while options:  # placed from the nearest placed text, one at a time
        if not anchors:
            i = min(options)
            anchors[i] = options.pop(i)[0]
            continue
        i = min(options, key=lambda k: min(abs(k - j) for j in anchors))
        j = min(anchors, key=lambda k: abs(k - i))
        then = _plain(words[(docs[j].document_id, anchors[j])][0])
        anchors[i] = max(options.pop(i), key=lambda n: _likeness(
            then, _plain(words[(docs[i].document_id, n)][0])))
    if not anchors and number is not None:
        held = [i for i, d in enumerate(docs) if (d.document_id, number) in words]
        if held:
            anchors[held[-1]] = number
    return anchors


def _follow(doc: RuleDocumentRow, words: dict[tuple[int, str], tuple[str, str]],
            previous: str, before: RuleDocumentRow, numbers: set[str], keys: list[str],
            owner: Any, eras: tuple[Any, ...]) -> str | None:
    """The number in `doc` of the rule that is `previous` in `before`. In an era's own
    document, the number its table gives (of several, the likest). Elsewhere the same
    number if its words are still like, else the candidate most like it; None if none
    is."""
    then = _plain(words[(before.document_id, previous)][0])
    stated = {owner.RULES[k] for k in keys if k in owner.RULES} if owner else set()
    pool = {n for n in stated if (doc.document_id, n) in words} or numbers | {previous}
    likes = {n: _likeness(then, _plain(words[(doc.document_id, n)][0]))
             for n in pool if (doc.document_id, n) in words}
    if (not likes or max(likes.values()) < FOLLOW) and not owner:
        # Renumbered where no era's table says: look under the heading it was under.
        likes = {n: _likeness(then, _plain(t)) for (d, n), (t, _) in words.items()
                 if d == doc.document_id and heading(n) == heading(previous)}
    if not likes:
        return None
    best = max(likes.values())
    if best < FOLLOW and not pool <= stated:
        return None
    era = owner or _era_of(doc, eras)
    # Near a tie, the same number, then the era's own, rather than a jump elsewhere.
    preferred = [previous] + ([era.RULES[k] for k in keys if k in era.RULES] if era else [])
    for number in preferred:
        if likes.get(number, -1.0) >= best - 0.05:
            return number
    return max(sorted(likes), key=lambda n: likes[n])


def heading(number: str) -> str:
    """The heading a rule is under, as a prefix: "510." for 510.1c, "A.27." for
    A.27.Ruling.1."""
    if number[:1].isdigit():
        return number.split(".")[0] + "."
    return ".".join(number.split(".")[:2]) + "."


def _version(doc: RuleDocumentRow, number: str,
             words: dict[tuple[int, str], tuple[str, str]], last: Version | None,
             before: RuleDocumentRow | None, last_doc: RuleDocumentRow | None,
             eras: tuple[Any, ...], keys: list[str]) -> Version:
    """`before`: the document imported before this one; `last_doc`: the one of `last`,
    the version before (they differ where a text between lacks the rule)."""
    text, title = words[(doc.document_id, number)]
    era = _era_of(doc, eras)
    v = Version(_in_force(doc, eras), doc.effective, doc.name, doc.kind, number, title, text,
                era.id if era else None, "first", document_id=doc.document_id or 0)
    if last is None:
        return v
    since = _in_force(last_doc, eras) if last_doc else last.in_force
    gap = _days(since, _in_force(doc, eras))
    skipped = last_doc is not None and before is not None and before is not last_doc
    span = f"{gap // 365} years {gap % 365 // 30} months"
    if skipped:  # texts between were imported, but the trail did not find it in them
        v.gap = (f"not found in the texts imported between {last.effective} and "
                 f"{doc.effective} ({span}): a change shown here may have come at any "
                 f"release in between")
    elif gap > GAP_DAYS:
        v.gap = (f"no text imported between {last.effective} and {doc.effective} ({span}): "
                 f"a change shown here may have come at any release in between")
    changed = _plain(text) != _plain(last.text)
    moved = number != last.number
    v.status = ("renumbered and changed" if changed and moved else "renumbered" if moved
                else "changed" if changed else "unchanged")
    v.previous_number = last.number if moved else None
    if not changed:
        return v
    v.words = word_diff(last.text, text)
    cause = None if skipped else _cause(since, _in_force(doc, eras), number, last.number,
                                         eras, keys)
    if cause is None:
        v.dated = {"between": [since, v.in_force]}
        return v
    v.dated = {"on": cause.began, "era": cause.id}
    older = eras[eras.index(cause) - 1] if eras.index(cause) else None
    if older is not None:
        v.scenarios = scenarios_changed(older.id, cause.id, set(keys))
    return v


def _cause(since: str, until: str, number: str, old: str, eras: tuple[Any, ...],
           keys: list[str]) -> Any:
    """The era whose rules began after `since` and by `until` and that changed this
    rule: it names the number in what it says it changed, or renumbers a key of it."""
    for i, era in enumerate(eras):
        if not since < era.began <= until:
            continue
        said = " ".join(era.changes) + (era.__doc__ or "")
        named = re.search(rf"(?<![\w.])({re.escape(number)}|{re.escape(old)})(?![\w])", said)
        parent = eras[i - 1] if i else None
        renumbered = parent is not None and any(
            k in era.RULES and era.RULES[k] != parent.RULES.get(k) for k in keys)
        if named or renumbered:
            return era
    return None


def _era_of(doc: RuleDocumentRow, eras: tuple[Any, ...]) -> Any:
    """The era whose document this is (its cited date; of two citing it, the later,
    whose rules it states: fourth cites fifth's summary for what did not change), else
    the one in force when the document took effect."""
    for era in reversed(eras):
        if doc.effective in own_dates(era):
            return era
    for era in eras:
        if era.began <= doc.effective <= (era.ended or "9999"):
            return era
    return None


def _in_force(doc: RuleDocumentRow, eras: tuple[Any, ...]) -> str:
    """When the document's rules were in force from: a rulings summary, from the start of
    the era citing it (its own date is after the rules it sums up were replaced)."""
    era = _era_of(doc, eras)
    return era.began if doc.kind == SUMMARY and era is not None else doc.effective


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(b) - date.fromisoformat(a)).days


def _plain(text: str) -> str:
    """Words as compared: quotes and dashes of either style alike, spaces collapsed."""
    return " ".join(text.translate(_QUOTES).split())


def _likeness(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """The words of `new` against `old`: runs of kept ("="), removed ("-") and added
    ("+") words."""
    a, b = _plain(old).split(), _plain(new).split()
    out: list[dict[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False) \
            .get_opcodes():
        if tag == "equal":
            out.append({"op": "=", "text": " ".join(a[i1:i2])})
            continue
        if tag in ("delete", "replace"):
            out.append({"op": "-", "text": " ".join(a[i1:i2])})
        if tag in ("insert", "replace"):
            out.append({"op": "+", "text": " ".join(b[j1:j2])})
    return out
