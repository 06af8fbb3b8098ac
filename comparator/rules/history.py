"""One rule through time: every version of it in the imported documents, oldest first,
each with a word-level diff from the one before, the evidence that links it to that one,
when it changed, and the shipped scenarios whose outcome the change changes.

A rule is named by its number ("510.1c"), by an era's rule key ("trample"), or by a name
an era's keys are made of ("first strike": `first-strike-step`). Its trail is followed by
evidence, strongest first:

1. the eras' own `RULES` tables, each in the document the era cites (there the table says
   which number the rule has);
2. the concordance shipped in `data/rules-concordance.yaml`: renumberings, splits and
   deletions that a source names (an update bulletin, a rules-change article);
3. likeness of words: the same number while its words stay alike, else the likest rule
   under the same heading, else two neighbouring rules whose words together are the old
   rule's (a split; read backwards, a merge); where nothing under its heading is alike,
   the same words elsewhere in the document, or a rule there clearly likest (1999's
   first-strike step is 502.2b, under First Strike; 2009's is 310.5).

Where no era's own document is imported, the number an era gives a key is read in the
others, only where the words there name the key.

Each version says which evidence linked it. Two versions of one document are never a
change: a rulings summary's look back at the rules it replaced (A.27.Note) is shown as
that document's note, dated by the document. A change is dated to the release that first
has it where the releases were imported from one archive (consecutive releases); where
an era began between two imported texts and names the rule in what it changed, to that
era's first day, with the two texts it falls between; otherwise it is dated "between"
them. A rule that stops is "deleted" where a source or an era's table says so.

Words are compared as difflib compares them (its matcher without autojunk), within a bound
of its steps (``WORK``, 20 times what any published rule takes): thousands of words, the
same ones over and over, made its search cubic (88 s for two rules of 2,000 words). Past the
bound, the words the two texts start and end with alike are matched, those between are
searched once more within the bound, else said removed and added whole, with why
(``Version.words_unmarked``).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field
from datetime import date
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any

from sqlalchemy import Engine

from comparator.rules.citations import scenarios_changed
from comparator.rules.document import CR, SUMMARY, is_example
from comparator.rules.store import (
    citation,
    document_on,
    documents,
    own_dates,
    rules_numbered,
    rules_starting,
    rules_under,
)
from comparator.store.schema import RuleDocumentRow

GAP_DAYS = 400  # CRs came every few months: a year with none imported is a gap
FOLLOW = 0.5  # below this likeness a candidate is another rule, not this one moved
# Outside its heading, a rule is one only alike this much (a two-headed giant's rule was
# 0.56 like 2009's 310.1; 1999's first-strike step 0.62 like 2009's 310.5) and this far
# ahead of the next likest (0.17 there, 0.43 here).
ELSEWHERE = 0.6
APART = 0.2
REPLACED = 0.4  # of the shorter's words in the other: below it, two rules a table joins
SPLIT = 0.9  # two rules whose words together are this like the old one's: a split
_NUMBER = re.compile(r"^(\d{3}\.\d+[a-z]?|[A-Z]\.\d+(\.(Rulings?\.)?\d+|\.Note)?(#\d+)?)$")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                         "\u2014": "-", "\u2013": "-"})
_FILLER = {"the", "a", "an", "of", "on"}
# An era's note that a rule held ("Trample still needs lethal damage on every blocker
# first (702.19b)") names no change of it.
_KEPT = re.compile(r"\b(still|unchanged|as before)\b", re.IGNORECASE)

class UnknownRule(Exception):
    """Neither a rule number nor a rule key of any era: the message says which are."""


@dataclass
class Version:
    in_force: str  # when its rules were in force from (a summary's: its era's start)
    effective: str  # the date the document gives
    document: str
    kind: str
    number: str  # "702.13a", or "702.13a + 702.13b" once split
    title: str
    text: str  # the rule's words, without its examples
    era: str | None  # the era in force when this text was
    status: str  # "first", "unchanged", "changed", "renumbered", "renumbered and changed",
    #              "split", "split and changed", "merged", "merged and changed", "look back"
    previous_number: str | None = None
    words: list[dict[str, str]] = field(default_factory=list)  # {"op", "text"}; a change
    # Where the words could not all be matched in bounded time (thousands of words, the
    # same ones over and over), why: those between their alike start and end are shown
    # removed and added whole.
    words_unmarked: str | None = None
    dated: dict[str, Any] | None = None  # {"on", "era"|"release"}, {"between": [a, b]}
    gap: str | None = None  # how long no text was imported before this one
    scenarios: list[str] = field(default_factory=list)  # shipped, whose outcome it changes
    evidence: str | None = None  # what links it to the version before
    release: str | None = None  # the release's name, where imported from an archive
    numbers: list[str] = field(default_factory=list)  # each number (two or more: split)
    examples: list[str] = field(default_factory=list)  # the examples printed under it
    references: list[str] = field(default_factory=list)  # "118.3 -> 119.3": moved refs
    document_id: int = 0  # the store's, not shown


@dataclass
class History:
    asked: str
    game: str
    keys: list[str]  # the era rule keys followed
    versions: list[Version]
    absent: list[dict[str, str]]  # documents imported in which the rule is not found
    ended: dict[str, Any] | None = None  # {"status": "deleted", ...} after the last version
    related: list[str] = field(default_factory=list)  # other keys of the same name

    def record(self) -> dict[str, Any]:
        out = asdict(self)
        for v in out["versions"]:
            del v["document_id"]
        return out


@dataclass
class Translated:
    """A version's words in the Japanese text (総合ルール) of its document's date."""

    document: str
    kind: str
    words: list[tuple[str, str]]  # (number, its words without examples), each number's
    examples: list[str]


def in_japanese(engine: Engine, found: History) -> dict[int, Translated]:
    """The versions of a trail (by their place in it) whose document, a Comprehensive
    Rules text, has a Japanese text of its date imported that has each of their numbers:
    their words there. The trail itself (and its JSON) is the English texts'."""
    translated = {d.effective: d for d in documents(engine, found.game, japanese=True)}
    wanted = {i: translated[v.effective] for i, v in enumerate(found.versions)
              if v.kind == CR and v.effective in translated}
    if not wanted:
        return {}
    rows = rules_numbered(engine, sorted({d.document_id or 0 for d in wanted.values()}),
                          {n for i in wanted for n in found.versions[i].numbers})
    out = {}
    for i, doc in wanted.items():
        numbers = found.versions[i].numbers
        texts = [rows.get((doc.document_id or 0, n)) for n in numbers]
        if any(t is None for t in texts):
            continue  # an excerpt without one of them: the English words
        apart = [_apart([t]) for t in texts if t is not None]
        out[i] = Translated(doc.name, doc.kind,
                            [(n, w) for n, (w, _) in zip(numbers, apart, strict=True)],
                            [e for _, examples in apart for e in examples])
    return out


# -- what is asked ------------------------------------------------------------------------

def _name(text: str) -> str:
    words = [w for w in re.split(r"[\s_-]+", text.strip().lower()) if w]
    return "-".join(w for w in words if w not in _FILLER) or "-".join(words)


def keys_for(asked: str, eras: tuple[Any, ...]) -> tuple[list[str], bool]:
    """The rule keys a name stands for, and whether it is a number: a key itself, a name
    a key is made of ("first strike": first-strike-step), or the keys any era gives that
    number."""
    known = sorted({k for e in eras for k in e.RULES})
    if asked in known:
        return [asked], False
    if not _NUMBER.match(asked):
        name = _name(asked)
        if name in {_name(k) for k in known}:
            return [k for k in known if _name(k) == name], False
        made_of = [k for k in known if name in _name(k).split("-") or
                   _name(k).startswith(name + "-")]
        if len(made_of) == 1:
            return made_of, False
        from versions.common import did_you_mean

        hint = did_you_mean(asked, known) or (f" (it names {', '.join(made_of)}: name one)"
                                              if made_of else "")
        raise UnknownRule(f"{asked!r} is neither a rule number (like 510.1c or C.8.1) nor "
                          f"a rule key of an era{hint}; `rulesdiff eras ERA --json` lists "
                          f"an era's keys")
    return sorted({k for e in eras for k, n in e.RULES.items() if n == asked}), True


def _related(keys: list[str], eras: tuple[Any, ...]) -> list[str]:
    names = {part for k in keys for part in _name(k).split("-") if len(part) > 3}
    return sorted({k for e in eras for k in e.RULES if k not in keys
                   and names & set(_name(k).split("-"))})


# -- the concordance ----------------------------------------------------------------------

@dataclass(frozen=True)
class Moved:
    old: tuple[str, ...]
    new: tuple[str, ...]
    at: str  # the day; with `after`, the last day it can have been
    source: str
    after: str | None = None  # where a source gives only a span: the old numbering's day
    merged_with: tuple[str, ...] = ()  # the rules of the release before it was joined to


@cache
def concordance(game: str) -> tuple[Moved, ...]:
    """The shipped concordance's entries for `game` (data/rules-concordance.yaml)."""
    import yaml

    from comparator.files.locations import data_dir

    path = data_dir() / "rules-concordance.yaml"
    if not path.is_file():
        return ()
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return tuple(Moved(tuple(str(n) for n in e["from"]), tuple(str(n) for n in e["to"]),
                       str(e["at"] if "at" in e else e["by"]), " ".join(str(e["source"]).split()),
                       str(e["after"]) if "after" in e else None,
                       tuple(str(n) for n in e.get("merged_with", ())))
                 for e in raw.get(game, []))


def _within(m: Moved, after: str, by: str) -> bool:
    """Whether the entry's change came after `after` and by `by`: its day, or, where a
    source gives only a span, the whole span (else another release may have made it)."""
    if m.after is None:
        return after < m.at <= by
    return after <= m.after and m.at <= by


def _moved(game: str, old: tuple[str, ...], after: str, by: str) -> Moved | None:
    """The concordance's entry for `old` in force after `after` and by `by`."""
    return next((m for m in concordance(game)
                 if m.old == old and _within(m, after, by)), None)


def _moved_to(game: str, new: tuple[str, ...], after: str, by: str) -> Moved | None:
    return next((m for m in concordance(game)
                 if m.new and set(m.new) <= set(new) and _within(m, after, by)), None)


# -- the trail ----------------------------------------------------------------------------

@dataclass
class _Link:
    numbers: tuple[str, ...]
    evidence: str


class _Trail:
    """One rule's numbers in each document, with what linked each to its neighbour. The
    rules' words are read as needed: the numbers the tables and the concordance name, in
    every document at once; a heading of one document only where a rule moved in it (so
    a trail through 120 releases reads a few thousand rules, not 120 headings)."""

    def __init__(self, engine: Engine, docs: list[RuleDocumentRow], own: dict[int, Any],
                 keys: list[str], game: str, numbers: set[str]) -> None:
        self.engine, self.docs, self.own, self.keys, self.game = engine, docs, own, keys, game
        self.ids = [d.document_id or 0 for d in docs]
        self.rows: dict[tuple[int, str], tuple[str, str]] = {}
        self.plains: dict[tuple[int, str], str] = {}
        self.loaded: set[str] = set()
        self.headings: dict[tuple[int, str], dict[str, str]] = {}
        self.split: dict[int, dict[str, list[str]]] = {}  # a whole document's, as words
        self.families: set[str] = set()  # stems whose rules are read in every document
        self.nowhere: set[tuple[int, str, bool]] = set()  # (from, number, forward): not found
        self.load(numbers)

    def load(self, numbers: set[str]) -> None:
        new = set(numbers) - self.loaded
        if new:
            self.rows.update(rules_numbered(self.engine, self.ids, new))
            self.loaded |= new

    def words(self, doc: RuleDocumentRow, number: str) -> tuple[str, str] | None:
        key = (doc.document_id or 0, number)
        if key not in self.rows and number not in self.loaded:
            self.load({number})  # a number the trail moved to: in every document at once
        return self.rows.get(key)

    def plain(self, doc: RuleDocumentRow, number: str) -> str | None:
        key = (doc.document_id or 0, number)
        if key not in self.plains:
            found = self.words(doc, number)
            if found is None:
                return None
            self.plains[key] = _plain(found[0])
        return self.plains[key]

    def under(self, doc: RuleDocumentRow, prefix: str) -> dict[str, str]:
        """Every rule of `doc` under a heading, by number, its words plain."""
        key = (doc.document_id or 0, prefix)
        if key not in self.headings:
            found = rules_under(self.engine, key[0], prefix)
            self.rows.update(found)
            self.headings[key] = {n: _plain(text) for (_, n), (text, _) in found.items()}
        return self.headings[key]

    def family(self, doc: RuleDocumentRow, stem: str) -> dict[str, str]:
        """The rules of `doc` numbered from `stem` (702.13: 702.13a-z), their words plain:
        read in every document at once, as a trail asks it of each release in turn."""
        if stem not in self.families:
            found = rules_starting(self.engine, self.ids, stem)
            self.rows.update(found)
            self.loaded.add(stem)
            for doc_id in self.ids:
                self.headings.setdefault((doc_id, stem), {})
            for (doc_id, n), (text, _) in found.items():
                self.headings[(doc_id, stem)][n] = _plain(text)
            self.families.add(stem)
        return self.headings[(doc.document_id or 0, stem)]

    def text(self, doc: RuleDocumentRow, numbers: tuple[str, ...]) -> str:
        return " ".join(p for n in numbers if (p := self.plain(doc, n)) is not None)

    def stated(self, i: int) -> tuple[str, ...]:
        """What the era owning document `i` numbers the rule, where it is in the text."""
        era = self.own.get(i)
        if era is None:
            return ()
        doc = self.docs[i]
        return tuple(sorted({era.RULES[k] for k in self.keys if k in era.RULES
                             and self.plain(doc, era.RULES[k]) is not None}))

    def step(self, frm: int, numbers: tuple[str, ...], to: int) -> _Link | None:
        """The rule's numbers in document `to`, from `numbers` in document `frm` (either
        way in time); None where it is not found there."""
        a, b = self.docs[frm], self.docs[to]
        forward = to > frm
        then = self.text(a, numbers)
        stated = self.stated(to)
        if stated:
            era = self.own[to]
            grouped = self._grouped(b, stated, then)
            return _Link(grouped, f"the {era.id} rules table, in the document it cites")
        older, newer = (a, b) if forward else (b, a)
        moved = (_moved(self.game, numbers, older.effective, newer.effective) if forward
                 else _moved_to(self.game, numbers, older.effective, newer.effective))
        if moved is not None:
            target = moved.new if forward else moved.old
            present = tuple(n for n in target if self.plain(b, n) is not None)
            if present or not target:
                return _Link(present, f"concordance: {moved.source}")
        found: list[str] = []
        said: list[str] = []
        for number in numbers:
            link = self._alike(b, number, self.plain(a, number) or then, a,
                               (frm, number, forward))
            if link is not None:
                found += [n for n in link.numbers if n not in found]
                said.append(link.evidence if len(numbers) == 1 else
                            f"{number}: {link.evidence}")
        if not found:
            return None
        reasons = {s.split(": ", 1)[-1] for s in said} if len(numbers) > 1 else set(said)
        evidence = next(iter(reasons)) if len(reasons) == 1 else "; ".join(said)
        return _Link(self._grouped(b, tuple(found), then), evidence)

    def _alike(self, doc: RuleDocumentRow, number: str, then: str,
               before: RuleDocumentRow, walk: tuple[int, str, bool]) -> _Link | None:
        now = self.plain(doc, number)
        if now is not None and _likeness(then, now) >= FOLLOW and \
                self._same_section(before, number, doc, number):
            return _Link((number,), "the same number, its words alike")
        # A walk that found it nowhere in a text searches no text further on but by its
        # number: a rule that came later, or went, is in none of them (and an archive
        # has a hundred of them).
        if walk in self.nowhere:
            return None
        mine = self.under(doc, heading(number))
        under = [n for n in mine if self._same_section(before, number, doc, n)]
        same = [n for n in under if mine[n] == then]
        if same:
            return _Link((same[0],), f"the same words under another number ({heading(number)})")
        scored = _best(then, {n: mine[n] for n in under})
        if scored is not None and scored[1] >= FOLLOW:
            return _Link((scored[0],), f"the likest words under {heading(number)} "
                                       f"({scored[1]:.2f} alike)")
        link = self._elsewhere(doc, number, then, before)
        if link is None:
            self.nowhere.add(walk)
        return link

    def _elsewhere(self, doc: RuleDocumentRow, number: str, then: str,
                   before: RuleDocumentRow) -> _Link | None:
        """The rule under another heading of the document, where none under its own is
        alike: 2009's 310.5 (the first-strike damage step) is 1999's 502.2b, 2009's
        flying (502.4b) M10's 702.9b. The same words (but the rules they refer to), else
        only a clear likeness: alike enough, well ahead of the next likest, of the same
        keyword's section."""
        if doc.kind != before.kind:
            return None  # two numberings: only the tables join them
        words = {n: w for n, w in self.whole(doc).items() if heading(n) != heading(number)}
        here = heading(number)
        want = then.split()
        same = [n for n, w in words.items() if len(w) == len(want)
                and _unreferenced(" ".join(w)) == _unreferenced(then)
                and self._same_section(before, number, doc, n)]
        if len(same) == 1:
            return _Link((same[0],), f"the same words elsewhere in the document of "
                                     f"{doc.effective} ({same[0]}, under "
                                     f"{heading(same[0])}; none under {here})")
        if same:
            return None  # the same words twice: neither is surely this rule
        ranked = _ranked(want, words, lambda n: self._same_section(before, number, doc, n))
        if not ranked or ranked[0][1] < ELSEWHERE or \
                (len(ranked) > 1 and ranked[1][1] > ranked[0][1] - APART):
            return None
        found, score = ranked[0]
        return _Link((found,), f"the likest words elsewhere in the document of "
                               f"{doc.effective} ({found}, under {heading(found)}; none "
                               f"alike under {here}; {score:.2f} alike)")

    def whole(self, doc: RuleDocumentRow) -> dict[str, list[str]]:
        """Every rule of `doc`, by number, its plain words: read once a document, and only
        where a rule left its heading."""
        key = doc.document_id or 0
        if key not in self.split:
            self.split[key] = {n: text.split() for n, text in self.under(doc, "").items()}
        return self.split[key]

    def _same_section(self, a: RuleDocumentRow, old: str, b: RuleDocumentRow, new: str
                      ) -> bool:
        """Whether two subrules are of one section, where both have a titled one (702.90
        "Infect", 702.77 "Wither"): keyword rules are written alike ("X is a static
        ability"), so alike words under two keywords are two rules."""
        if old == _stem(old) or new == _stem(new):
            return True
        first, second = self.plain(a, _stem(old)), self.plain(b, _stem(new))
        if first is None or second is None or len(first.split()) > 6 or \
                len(second.split()) > 6:
            return True  # no titled sections to tell them apart
        return first.lower() == second.lower()

    def _grouped(self, doc: RuleDocumentRow, numbers: tuple[str, ...], then: str
                 ) -> tuple[str, ...]:
        """`numbers`, or with the rule beside it where the two together are the old
        words (a split, or read backwards a merge): 702.13a "Lifelink is a static ability."
        and 702.13b "Damage dealt ..." of 2010 are 2009's 702.13a."""
        if len(numbers) != 1 or not then:
            return numbers
        number = numbers[0]
        alone = _likeness(then, self.plain(doc, number) or "")
        if alone > 0.98:  # its words, or nearly: nothing to join (most releases)
            return numbers
        # Its siblings only (702.13a-z), not the whole heading: read at every release
        # of an archive whose words change a little each time.
        mine = self.headings.get((doc.document_id or 0, heading(number))) or \
            self.family(doc, _stem(number))
        siblings = sorted((n for n in mine if heading(n) == heading(number)
                           and _stem(n) == _stem(number)), key=_order)
        at = siblings.index(number) if number in siblings else -1
        best, group = alone, numbers
        for pair in ((siblings[at - 1], number) if at > 0 else None,
                     (number, siblings[at + 1]) if 0 <= at < len(siblings) - 1 else None):
            if pair is None:
                continue
            together = _likeness(then, " ".join(mine[n] for n in pair),
                                 max(SPLIT, best + 0.05))
            if together >= SPLIT and together > best + 0.05:
                best, group = together, pair
        return group


def history(engine: Engine, asked: str, game: str = "mtg") -> History:
    from versions import GAMES

    eras = tuple(GAMES[game])
    keys, is_number = keys_for(asked, eras)
    numbers = {n for e in eras for k, n in e.RULES.items() if k in keys}
    if is_number:
        numbers.add(asked)
    wanted = set(numbers)
    for m in concordance(game):  # the headings a moved rule went to, or came from
        if wanted & (set(m.old) | set(m.new)):
            wanted |= set(m.old) | set(m.new)
    docs = documents(engine, game)
    related = [] if is_number else _related(keys, eras)
    if not docs:
        return History(asked, game, keys, [], [], related=related)
    where = {id(doc): i for i, doc in enumerate(docs)}
    own = {where[id(doc)]: era for era in eras
           if (doc := document_on(docs, own=own_dates(era))) is not None}
    trail = _Trail(engine, docs, own, keys, game, wanted)
    links: dict[int, str] = {}
    chosen = _anchors(trail, asked if is_number else None)
    if not chosen and keys:
        chosen, links = _read_elsewhere(trail, eras)
    for i in sorted(chosen):  # an anchored text: one rule of the tables, or it with its
        earlier = [j for j in chosen if j < i]  # neighbour where the two split the old one
        if earlier:
            j = max(earlier)
            chosen[i] = trail._grouped(docs[i], chosen[i],
                                       trail.text(docs[j], chosen[j]))

    def follow(i: int, j: int) -> None:
        found = trail.step(j, chosen[j], i)
        if found is not None and found.numbers:
            chosen[i] = found.numbers
            links[max(i, j)] = found.evidence

    for i in range(len(docs)):  # each text from the version before it ...
        older = [j for j in chosen if j < i]
        if i not in chosen and older:
            follow(i, max(older))
    for i in reversed(range(len(docs))):  # ... else from the one after
        newer = [j for j in chosen if j > i]
        if i not in chosen and newer:
            follow(i, min(newer))
    for i in sorted(chosen):  # what links the rest to the version before
        earlier = [j for j in chosen if j < i]
        if i in links or not earlier:
            continue
        j = max(earlier)
        if docs[j].kind != docs[i].kind:  # two numberings: only the tables join them
            links[i] = _across(trail, j, i, chosen[i], eras)
        elif i in own:
            links[i] = f"the {own[i].id} rules table, in the document it cites"
        else:  # where the walks from two anchors met: what the words say
            then, now = trail.text(docs[j], chosen[j]), trail.text(docs[i], chosen[i])
            links[i] = ("the same number, its words alike" if chosen[i] == chosen[j]
                        else "the same words under another number" if then == now
                        else f"its words ({_likeness(then, now):.2f} alike), where the "
                             f"trails from two eras' tables meet")
    versions: list[Version] = []
    absent = []
    last_i: int | None = None
    for i, doc in enumerate(docs):
        if i not in chosen:
            absent.append({"effective": doc.effective, "document": doc.name})
            continue
        versions.append(_version(trail, i, chosen[i], versions[-1] if versions else None,
                                 last_i, links.get(i), eras))
        last_i = i
    if versions and keys:
        first = next(i for i, d in enumerate(docs) if d.document_id ==
                     versions[0].document_id)
        versions[:0] = _look_back(trail, first, versions[0], eras)
    ended = _ended(trail, last_i, chosen, eras) if last_i is not None else None
    return History(asked, game, keys, versions, absent, ended, related)


def _across(trail: _Trail, j: int, i: int, numbers: tuple[str, ...],
            eras: tuple[Any, ...]) -> str:
    """What joins a rule of a rulings summary to one of the Comprehensive Rules: a key the
    eras' tables give both numbers."""
    a, b = _era_of(trail.docs[j], eras), _era_of(trail.docs[i], eras)
    keys = [k for k in trail.keys if a is not None and b is not None
            and k in a.RULES and k in b.RULES]
    if not keys:
        return "the likest words (two numberings: no table joins them)"
    k = keys[0]
    said = f"the eras' rules tables: {k} is {a.RULES[k]} in the {a.id} table"
    number = " + ".join(numbers)
    if number == b.RULES[k]:
        return f"{said} and {b.RULES[k]} in the {b.id} table"
    return f"{said}; the {b.id} table's {b.RULES[k]} is {number} in this text"


def _anchors(trail: _Trail, number: str | None) -> dict[int, tuple[str, ...]]:
    """Where the tables say which rule it is: in each era's own document, the number the
    era gives a key of it (of several, the one asked for, else the likest to a text
    already placed). A number no era cites: the newest document having it."""
    anchors: dict[int, tuple[str, ...]] = {}
    options: dict[int, list[str]] = {}
    for i in trail.own:
        present = list(trail.stated(i))
        if number in present:
            anchors[i] = (number,)
        elif len(present) == 1:
            anchors[i] = (present[0],)
        elif present:
            options[i] = present
    while options:  # placed from the nearest placed text, one at a time
        if not anchors:
            i = min(options)
            anchors[i] = (options.pop(i)[0],)
            continue
        i = min(options, key=lambda k: min(abs(k - j) for j in anchors))
        j = min(anchors, key=lambda k: abs(k - i))
        then = trail.text(trail.docs[j], anchors[j])
        doc = trail.docs[i]
        anchors[i] = (max(options.pop(i),
                          key=lambda n: _likeness(then, trail.plain(doc, n) or "")),)
    if not anchors and number is not None:
        held = [i for i, d in enumerate(trail.docs) if trail.plain(d, number) is not None]
        if held:
            anchors[held[-1]] = (number,)
    return anchors


def _read_elsewhere(trail: _Trail, eras: tuple[Any, ...]
                    ) -> tuple[dict[int, tuple[str, ...]], dict[int, str]]:
    """Where no era's own text is imported: the number an era's table gives a key, read in
    another text, newest first, the era whose own text is nearest it in time first; taken
    only where the words there name the key, as a number is often another rule's later
    (702.17b, m11's trample, is reach in the text of 2022)."""
    for i in reversed(range(len(trail.docs))):
        doc = trail.docs[i]
        near = sorted((e for e in eras if own_dates(e)),
                      key=lambda e: abs(_days(own_dates(e)[0], doc.effective)))
        for era in near:
            for key in trail.keys:
                cited = citation(era.RULES.get(key, ""))
                if cited.kind != "rule" or (cited.day and cited.day != doc.effective):
                    continue
                words = trail.plain(doc, cited.name)
                if words is not None and _names(key, words):
                    return {i: (cited.name,)}, {i: (
                        f"the {era.id} rules table's {cited.name} (its own text is not "
                        f"imported), in this text a rule whose words name {key}")}
    return {}, {}


def _names(key: str, words: str) -> bool:
    """Whether a rule's words name each word of a key ("first-strike-step": first, strike,
    step), any ending alike ("attacker": attacking)."""
    said = re.findall(r"[a-z]+", words.lower())
    parts = [p for p in _name(key).split("-") if len(p) > 3]
    return bool(parts) and all(any(w.startswith(p[:max(4, len(p) - 2)]) for w in said)
                               for p in parts)


def _version(trail: _Trail, i: int, numbers: tuple[str, ...], last: Version | None,
             last_i: int | None, evidence: str | None, eras: tuple[Any, ...]) -> Version:
    doc = trail.docs[i]
    texts_ = [found for n in numbers if (found := trail.words(doc, n)) is not None]
    full = "\n".join(t for t, _ in texts_)
    own_words, examples = _apart(texts_)
    era = _era_of(doc, eras)
    v = Version(_in_force(doc, eras), doc.effective, doc.name, doc.kind, " + ".join(numbers),
                texts_[0][1], own_words, era.id if era else None, "first",
                document_id=doc.document_id or 0, release=getattr(doc, "release", None),
                numbers=list(numbers), examples=examples)
    if last is None or last_i is None:
        earlier = [d for d in trail.docs[:i] if d.kind == doc.kind]
        if earlier and full:  # imported texts before it lack it: when it came
            v.dated = _dated(trail, earlier[-1], doc, eras, v.number, v.number)
            v.evidence = "not in the imported texts before it"
        else:
            v.evidence = evidence  # where no era's own text is imported: which number
        return v
    before = trail.docs[last_i]
    since = _in_force(before, eras)
    gap = _days(since, v.in_force)
    skipped = last_i != i - 1
    span = f"{gap // 365} years {gap % 365 // 30} months"
    if skipped:  # texts between were imported, but the trail did not find it in them
        v.gap = (f"not found in the texts imported between {last.effective} and "
                 f"{doc.effective} ({span}): a change shown here may have come at any "
                 f"release in between")
    elif gap > GAP_DAYS and not _consecutive(before, doc):
        v.gap = (f"no text imported between {last.effective} and {doc.effective} ({span}): "
                 f"a change shown here may have come at any release in between")
    v.evidence = evidence
    # A cross-reference that follows a renumbering elsewhere ("See rule 118.3." becoming
    # 119.3) is no change of the rule's own words.
    changed = _unreferenced(own_words) != _unreferenced(last.text)
    if not changed and _plain(own_words) != _plain(last.text):
        v.references = _references_moved(last.text, own_words)
    moved = v.numbers != last.numbers
    sourced = _moved(trail.game, tuple(last.numbers), before.effective, doc.effective)
    if len(v.numbers) > len(last.numbers):
        kind = "split"
    elif len(v.numbers) < len(last.numbers) or (sourced is not None and sourced.merged_with):
        kind = "merged"  # a source may say it was joined to rules the trail does not follow
    else:
        kind = "renumbered" if moved else ""
    v.status = (f"{kind} and changed" if kind and changed else kind or
                ("changed" if changed else "unchanged"))
    if moved and changed and evidence and "table" in evidence and sourced is None and \
            before.kind == doc.kind and _overlap(last.text, own_words) < REPLACED:
        # An era's table points its key at another rule: not this rule renumbered.
        v.status = "replaced"
        v.evidence = (f"{evidence}: the rule it cites for {', '.join(trail.keys)} is "
                      f"another than the one before (of the shorter one's words, "
                      f"{_overlap(last.text, own_words):.0%} are in the other)")
    v.previous_number = last.number if moved else None
    if not changed and not moved:
        return v
    if changed:
        v.words, v.words_unmarked = compared_words(last.text, own_words)
    v.dated = None if skipped else _dated(trail, before, doc, eras, v.number, last.number)
    if v.dated and v.dated.get("era") and changed:
        cause = next(e for e in eras if e.id == v.dated["era"])
        older = eras[eras.index(cause) - 1] if eras.index(cause) else None
        if older is not None:
            v.scenarios = scenarios_changed(older.id, cause.id, set(trail.keys))
    return v


def _look_back(trail: _Trail, i: int, version: Version, eras: tuple[Any, ...]
               ) -> list[Version]:
    """The rule as an earlier era that cites the same document gives it, under another
    number: the rulings summary states fifth's trample (A.27.2) and, in its note, the
    trample of the rules before Urza's Saga (A.27.Note), which fourth cites. One document
    is never a change: the note comes first, dated by its document, as a look back."""
    doc = trail.docs[i]
    owners = [e for e in eras if doc.effective in own_dates(e)]
    if len(owners) < 2:
        return []
    earlier, later = owners[-2], owners[-1]
    number = next((earlier.RULES[k] for k in trail.keys
                   if later.RULES.get(k) == version.number
                   and earlier.RULES.get(k, version.number) != version.number
                   and trail.words(doc, earlier.RULES[k]) is not None), None)
    if number is None:
        return []
    text, title = trail.words(doc, number) or ("", "")
    own_words, examples = _apart([(text, title)])
    note = Version(doc.effective, doc.effective, doc.name, doc.kind, number, title,
                   own_words, earlier.id, "look back", document_id=doc.document_id or 0,
                   numbers=[number], examples=examples,
                   evidence=(f"the {earlier.id} rules table: the document's own note on the "
                             f"rules before {later.began}, which {earlier.id} models "
                             f"({earlier.began} to {earlier.ended})"))
    version.evidence = (f"the {later.id} rules table: the rule in force in the same document "
                        f"(a look back and the rule in force: not a change)")
    return [note]


def _ended(trail: _Trail, last_i: int, chosen: dict[int, tuple[str, ...]],
           eras: tuple[Any, ...]) -> dict[str, Any] | None:
    """After the last version: deleted (a source or an era's table says so), or not found
    in the texts after it; None where it is in the newest text."""
    docs = trail.docs
    # Any later text: a rulings summary's rule ends where the Comprehensive Rules that
    # replaced it have no such rule (tapped blockers dealing no damage, at Sixth).
    later = list(range(last_i + 1, len(docs)))
    if not later:
        return None
    last_doc, numbers = docs[last_i], chosen[last_i]
    out: dict[str, Any] = {"status": "not found", "after": last_doc.effective}
    moved = _moved(trail.game, numbers, last_doc.effective, docs[later[-1]].effective)
    since, until = _in_force(last_doc, eras), _in_force(docs[later[-1]], eras)
    era = next((e for e in eras if since < e.began <= until
                and any(k in eras[eras.index(e) - 1].RULES for k in trail.keys)
                and not any(k in e.RULES for k in trail.keys)), None)
    if moved is not None and not moved.new and moved.after is None:
        out = {"status": "deleted", "on": moved.at, "evidence": f"concordance: "
                                                             f"{moved.source}"}
    elif era is not None:
        out = {"status": "deleted", "on": era.began,
               "evidence": f"the {era.id} rules table no longer has "
                           f"{', '.join(k for k in trail.keys)}"}
    on = out.get("on")
    if on:
        era_then = next((e for e in eras if e.began == on), None)
        if era_then is not None:
            out["era"] = era_then.id
        first = next(docs[i] for i in later)
        out["between"] = [since, _in_force(first, eras)]
        if _consecutive(last_doc, first):
            out["release"] = first.release
    reused = [(docs[i], n) for i in later for n in numbers
              if trail.plain(docs[i], n) is not None]
    if reused:
        doc, n = reused[0]
        out["reused"] = {"number": n, "effective": doc.effective, "document": doc.name,
                         "text": (trail.words(doc, n) or ("", ""))[0]}
    return out


def _dated(trail: _Trail, before: RuleDocumentRow, doc: RuleDocumentRow,
           eras: tuple[Any, ...], number: str, old: str) -> dict[str, Any]:
    """When a change between two imported texts came: the later one's release where the
    two are consecutive releases of one archive; else the day an era began between them
    that names the rule (or renumbers a key of it), with the two texts it falls between;
    else between the two."""
    out: dict[str, Any]
    since, until = _in_force(before, eras), _in_force(doc, eras)
    moved = _moved(trail.game, tuple(old.split(" + ")), before.effective, doc.effective)
    if moved is not None and moved.after is None and not _consecutive(before, doc):
        # a source says when
        out = {"on": moved.at}
        era = next((e for e in eras if e.began == moved.at), None)
        if era is not None:
            out["era"] = era.id
        if moved.at != until:
            out["between"] = [since, until]
        return out
    cause = _cause(since, until, number, old, eras, trail.keys)
    if _consecutive(before, doc) and (cause is None or cause.began == until):
        out = {"on": doc.effective, "release": doc.release}
        if cause is not None:
            out["era"] = cause.id
        return out
    if cause is not None:
        out = {"on": cause.began, "era": cause.id}
        if cause.began != until:  # an era boundary between two releases: said as such
            out["between"] = [since, until]
        return out
    return {"between": [since, until]}


def _consecutive(a: RuleDocumentRow, b: RuleDocumentRow) -> bool:
    return (getattr(a, "archive", None) is not None and a.archive == b.archive
            and a.position is not None and b.position == a.position + 1)


def _cause(since: str, until: str, number: str, old: str, eras: tuple[Any, ...],
           keys: list[str]) -> Any:
    """The era whose rules began after `since` and by `until` and that changed this
    rule: it names the number in what it says it changed, or renumbers a key of it."""
    for i, era in enumerate(eras):
        if not since < era.began <= until:
            continue
        said = " ".join(note for note in (*era.changes, era.__doc__ or "")
                        if not _KEPT.search(note))
        names = [n for part in (number, old) for n in part.split(" + ")]
        named = any(re.search(rf"(?<![\w.]){re.escape(n)}(?![\w])", said) for n in names)
        parent = eras[i - 1] if i else None
        # A key the era's table renumbers dates only a step that renumbers: trample's
        # 702.17b (m11's table) was 702.19b by 2022, so foundations' 702.19b moved nothing
        # between the texts of 2022 and 2025.
        renumbered = parent is not None and number != old and any(
            k in era.RULES and era.RULES[k] != parent.RULES.get(k) for k in keys)
        if named or renumbered:
            return era
    return None


def heading(number: str) -> str:
    """The heading a rule is under, as a prefix: "510." for 510.1c, "A.27." for
    A.27.Ruling.1."""
    if number[:1].isdigit():
        return number.split(".")[0] + "."
    return ".".join(number.split(".")[:2]) + "."


def _stem(number: str) -> str:
    """510.1 for 510.1c: rules one letter apart share it."""
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def _order(number: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", number))


def _apart(texts_: list[tuple[str, str]]) -> tuple[str, list[str]]:
    """The rules' own words (each rule's, joined) and the examples printed under them: the
    reader gives each example a line of its own (``document.is_example``)."""
    words, examples = [], []
    for text, _ in texts_:
        lines = text.split("\n")
        words.append("\n".join(line for line in lines if not is_example(line)).strip())
        examples += [line.strip() for line in lines if is_example(line)]
    return "\n".join(words), examples


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


_REFERENCE = re.compile(r"(?<![\w.])\d{3}(?:\.\d+[a-z]?)?(?![\w])")


def _unreferenced(text: str) -> str:
    """The words with every rule number they mention alike."""
    return _REFERENCE.sub("#", _plain(text))


def _references_moved(old: str, new: str) -> list[str]:
    a, b = _REFERENCE.findall(_plain(old)), _REFERENCE.findall(_plain(new))
    return [f"{x} -> {y}" for x, y in zip(a, b, strict=False) if x != y]


def _days(a: str, b: str) -> int:
    return (date.fromisoformat(b) - date.fromisoformat(a)).days


def _plain(text: str) -> str:
    """Words as compared: quotes and dashes of either style alike, spaces collapsed."""
    return " ".join(text.translate(_QUOTES).split())


@lru_cache(maxsize=4096)
def _likeness(a: str, b: str, floor: float = 0.0) -> float:
    """How alike two texts' words are (difflib's ratio); where it could not exceed
    `floor` (its quick upper bounds say so), that bound instead, unexamined."""
    if a == b:
        return 1.0
    matcher = _Bounded(a.split(), b.split())
    if floor:
        bound = matcher.real_quick_ratio()
        if bound <= floor:
            return bound
        bound = matcher.quick_ratio()
        if bound <= floor:
            return bound
    return matcher.ratio()


def _overlap(a: str, b: str) -> float:
    """The share of the shorter text's words, in order, that the longer has: a rule that
    grew (510.1c at M10) keeps most of its old words; another rule keeps few."""
    x, y = _plain(a).split(), _plain(b).split()
    if not x or not y:
        return 0.0
    matched = sum(m.size for m in _Bounded(x, y).get_matching_blocks())
    return matched / min(len(x), len(y))


def _best(then: str, candidates: dict[str, str]) -> tuple[str, float] | None:
    """The candidate likest `then`, cheaply: quick upper bounds first, the exact ratio only
    for those that could beat the best so far."""
    want = then.split()
    best: tuple[str, float] | None = None
    matcher = _Bounded()
    matcher.set_seq2(want)
    for number in sorted(candidates, key=_order):
        matcher.set_seq1(candidates[number].split())
        floor = best[1] if best else FOLLOW - 0.01
        if matcher.real_quick_ratio() <= floor or matcher.quick_ratio() <= floor:
            continue
        score = matcher.ratio()
        if score > floor:
            best = (number, score)
    return best


def _ranked(want: list[str], candidates: dict[str, list[str]], fits: Any
            ) -> list[tuple[str, float]]:
    """The two candidates likest `want` among those that `fits`, best first, as far as
    they decide a link: exact ratios only for those whose quick upper bound could link or
    come within APART of the best (a few of a document's thousands)."""
    matcher = _Bounded()
    matcher.set_seq2(want)
    floor = ELSEWHERE - APART
    bounds = []
    for number in sorted(candidates, key=_order):
        matcher.set_seq1(candidates[number])
        if matcher.real_quick_ratio() > floor and (bound := matcher.quick_ratio()) > floor:
            bounds.append((-bound, _order(number), number))
    scored: list[tuple[str, float]] = []
    for negative, _, number in sorted(bounds):
        best = scored[0][1] if scored else 0.0
        # The rest can neither link (below ELSEWHERE) nor come within APART of a best
        # that does.
        if -negative < (best - APART if best >= ELSEWHERE else ELSEWHERE):
            break
        if not fits(number):
            continue
        matcher.set_seq1(candidates[number])
        scored.append((number, matcher.ratio()))
        scored.sort(key=lambda s: -s[1])
    return scored[:2]


# The steps difflib's search may take on one pair of texts (under a tenth of a second): the
# published texts' rules take at most 23,669 (510.1c, 2009 to 2010); a rule of 2,000 words,
# one word over and over, took 88 s against another such rule (the search is cubic in the
# repeated words).
WORK = 500_000


class _Spent(Exception):
    """The search took its WORK steps."""


class _Bounded(difflib.SequenceMatcher):
    """difflib's matcher of words, without autojunk (a rule's "the" is a word like any
    other), within WORK steps: the published texts are matched exactly as difflib does.
    Past the bound, the words matched are those the two texts start and end with alike,
    and the words between are searched once more, within the bound; if that too is
    spent, they are left unmatched (`unmatched`)."""

    def __init__(self, a: Any = (), b: Any = (), inner: bool = False) -> None:
        self.unmatched = False
        self._inner = inner
        self._cost: list[int] = []
        self._left = 0
        super().__init__(None, a, b, autojunk=False)

    def get_matching_blocks(self) -> list[difflib.Match]:
        if self.matching_blocks is not None:
            return self.matching_blocks
        self.unmatched = False
        # What searching a[alo:ahi] costs: each word one step, and one for each place of
        # it in b (difflib's inner loop), summed as it goes.
        get, nowhere = self.b2j.get, ()
        self._cost = list(accumulate((len(get(x, nowhere)) + 1 for x in self.a), initial=0))
        self._left = WORK
        try:
            return super().get_matching_blocks()
        except _Spent:
            self.matching_blocks = self._ends()
            return self.matching_blocks

    def find_longest_match(self, alo: int = 0, ahi: int | None = None, blo: int = 0,
                           bhi: int | None = None) -> difflib.Match:
        ahi = len(self.a) if ahi is None else ahi
        self._left -= self._cost[ahi] - self._cost[alo]
        if self._left < 0:
            raise _Spent
        return super().find_longest_match(alo, ahi, blo,
                                          len(self.b) if bhi is None else bhi)

    def _ends(self) -> list[difflib.Match]:
        """The words alike at the start and the end of the two texts, and those found
        between them by a search of its own (within WORK steps), where it finds them."""
        a, b = self.a, self.b
        la, lb = len(a), len(b)
        head = 0
        while head < min(la, lb) and a[head] == b[head]:
            head += 1
        tail = 0
        while tail < min(la, lb) - head and a[la - 1 - tail] == b[lb - 1 - tail]:
            tail += 1
        blocks = [difflib.Match(0, 0, head)] if head else []
        if not self._inner and head < la - tail and head < lb - tail:
            between = _Bounded(a[head:la - tail], b[head:lb - tail], inner=True)
            blocks += [difflib.Match(i + head, j + head, k)
                       for i, j, k in between.get_matching_blocks()[:-1]]
            self.unmatched = between.unmatched
        else:
            self.unmatched = head < la - tail and head < lb - tail
        if tail:
            blocks.append(difflib.Match(la - tail, lb - tail, tail))
        return [*blocks, difflib.Match(la, lb, 0)]


def word_diff(old: str, new: str) -> list[dict[str, str]]:
    """The words of `new` against `old`: runs of kept ("="), removed ("-") and added
    ("+") words (``compared_words`` also says where they could not all be matched)."""
    return compared_words(old, new)[0]


def compared_words(old: str, new: str) -> tuple[list[dict[str, str]], str | None]:
    """The words of `new` against `old`: runs of kept ("="), removed ("-") and added
    ("+") words; and, where they could not all be matched in bounded time, why (the words
    between their alike start and end are then removed and added whole)."""
    a, b = _plain(old).split(), _plain(new).split()
    out: list[dict[str, str]] = []
    matcher = _Bounded(a, b)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append({"op": "=", "text": " ".join(a[i1:i2])})
            continue
        if tag in ("delete", "replace"):
            out.append({"op": "-", "text": " ".join(a[i1:i2])})
        if tag in ("insert", "replace"):
            out.append({"op": "+", "text": " ".join(b[j1:j2])})
    said = None
    if matcher.unmatched:
        said = (f"not marked word by word: {len(a):,} and {len(b):,} words, too many of them "
                f"alike to match in bounded time; the words between their alike start and "
                f"end are shown removed and added whole")
    return out, said
