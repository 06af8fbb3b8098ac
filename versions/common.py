"""What every game shares.

- What every era says about itself (``EraInfo``): its id, dates, the rules text it models,
  what changed, and its table of rule numbers; the games' hook interfaces
  (``versions.mtg.rules.Era``, ``versions.duel_masters.rules.DuelMastersEra``) add their
  hooks to it. ``NotInEra`` and ``IllegalChoice`` are how any era refuses; ``Playing`` is
  how any game's engine puts each choice to whoever drives it.
- What every game's scenario format shares: the header (``Described``), the strict model,
  bounded numbers, the keyword as written, the expected end state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator


def N_(words: str) -> str:
    """Marks words a person reads (an era's name) for the translators' catalog
    (docs/translating.md); they stay as written here, and are translated where shown."""
    return words

class NotInEra(Exception):
    """The scenario uses something this era's rules did not have (a keyword that did not
    exist yet, another game): the era refuses to run it rather than answer with an
    anachronism."""

    def __init__(self, era: str, why: str):
        self.era = era
        self.why = why
        super().__init__(f"{era}: {why}")


class IllegalChoice(Exception):
    """A choice the scenario writes (blocks, redirections) that the era's rules forbid: a
    problem of the scenario file, not of the engine. `problems` each have a `path` (the
    field), a `message` and the `rule`."""

    what: ClassVar[str] = "illegal"  # how a report names it: "illegal block in m10: ..."
    era: str
    problems: list[Any]


class Playing(Protocol):
    """The one choice protocol of every game's engine: a run of a scenario under an era,
    stopped at each decision a player makes. ``run`` answers each decision with the
    scenario's written choice; ``explore`` copies the run at a decision and resumes each
    copy with another option."""

    def advance(self) -> Any | None:
        """Play on to the next decision (returned, its choice still to make), or to the
        end (None)."""

    def resume(self, choice: Any) -> None:
        """Take the choice for the pending decision."""

    def copy(self) -> Playing:
        """An independent copy, to be resumed with another choice."""

    def outcome(self) -> dict[str, Any]:
        """The outcome JSON, once the run is over."""


class EraInfo:
    game: ClassVar[str] = ""
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    began: ClassVar[str] = ""
    ended: ClassVar[str | None] = None
    cr_modelled: ClassVar[str] = ""  # the document the rule numbers are taken from
    cr_date: ClassVar[str] = ""  # that document's date, YYYY-MM-DD
    # The date the document itself says it is effective as of, where not its date (the M10
    # text of 2009-07-08 is "effective as of July 11, 2009").
    cr_effective: ClassVar[str] = ""
    sources: ClassVar[tuple[str, ...]] = ()
    # Whether a creature blocking an attacker only because it blocks another member of its
    # band counts for the attacker's abilities (rampage, flanking); Magic's eras say.
    counts_band_blockers: ClassVar[bool] = True
    changes: ClassVar[tuple[str, ...]] = ()  # what this era changed from the one before
    unverified: ClassVar[tuple[str, ...]] = ()  # RULES keys whose number no text confirms
    # Where the document has no rule numbers and is cited by page ("p.26"): what each page
    # cited holds, in the project's words (there is no text to import and quote).
    pages: ClassVar[dict[str, str]] = {}
    # Rule key -> its number in `cr_modelled`. An era states only what it renumbered or
    # added: the table is merged over its parent's when the class is defined.
    RULES: ClassVar[dict[str, str]] = {}
    STATED: ClassVar[dict[str, str]] = {}  # the era's own table, before the merge

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        parent = cls.__mro__[1]
        cls.STATED = cls.__dict__.get("RULES", {})
        cls.RULES = {**getattr(parent, "RULES", {}), **cls.STATED}
        if "cr_effective" not in cls.__dict__:  # a date of the parent's document, not this one's
            cls.cr_effective = ""
        if "unverified" not in cls.__dict__:  # a key restated is verified anew
            cls.unverified = tuple(k for k in getattr(parent, "unverified", ())
                                   if k not in cls.STATED)

    @classmethod
    def check_rules(cls, cited: frozenset[str], absent: frozenset[str] = frozenset()) -> None:
        """Refuse (TypeError) a table that lacks a number for a key the era cites, states a
        key it never cites, calls unverified a key it lacks, or numbers an absent one."""
        missing = sorted(cited - cls.RULES.keys() - absent)
        unused = sorted(cls.STATED.keys() - cited)
        stray = sorted(set(cls.unverified) - cls.RULES.keys())
        both = sorted(absent & cls.RULES.keys())
        if missing or unused or stray or both:
            raise TypeError(
                f"era {cls.id}: RULES " + "; ".join(
                    f"{what}: {', '.join(keys)}" for what, keys in (
                        ("cited but missing", missing), ("never cited", unused),
                        ("unverified but not in RULES", stray),
                        ("absent but given", both)) if keys))

    def check_game(self, scenario: Any) -> None:
        """Refuse a scenario of another game."""
        if scenario.game != self.game:
            raise NotInEra(self.id, f"it is a {scenario.game} scenario, and {self.id} is an "
                                    f"era of {self.game}")

    @classmethod
    def rule(cls, key: str) -> str:
        return cls.RULES[key]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        return {
            "id": cls.id, "game": cls.game, "name": cls.name, "aliases": list(cls.aliases),
            "began": cls.began, "ended": cls.ended, "cr": cls.cr_modelled,
            "cr_date": cls.cr_date, "sources": list(cls.sources),
            "changes": list(cls.changes), "pages": dict(cls.pages),
            # The docstring's first paragraph, whole.
            "summary": getattr(cls, "summary", None) or " ".join(
                (cls.__doc__ or "").strip().split("\n\n")[0].split()),
        }


# -- what every game's scenario shares ---------------------------------------------------

ID_PATTERN = r"^[a-z0-9-]+$"
ID_LENGTH = 80  # ids and names are labels in tables and logs, not texts
TEXT_LENGTH = 20_000

# Numbers in a scenario are whole numbers a game could hold: bounded, so that no arithmetic
# or printing can blow up (a 5,000-digit integer is a typo or an attack, not a card).
BOUND = 1_000_000
Number = Annotated[int, Field(strict=True, ge=-BOUND, le=BOUND)]
Count = Annotated[int, Field(strict=True, ge=0, le=BOUND)]


def empty(kind: Callable[[], Any], **field: Any) -> Any:
    """A field whose default is an empty list, mapping or model: made new for each model,
    not copied. Pydantic deep-copies a mutable default at each validation (about 6 % of
    reading a scenario, measured). The JSON Schema still gives the default."""
    return Field(default_factory=kind, json_schema_extra={"default": _dumped(kind())},
                 **field)


def _dumped(value: Any) -> Any:
    return value.model_dump(mode="json", by_alias=True) if isinstance(value, BaseModel) \
        else value


class Strict(BaseModel):
    # strict: "5" is not 5 and true is not 1; a scenario says what it means.
    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True,
                              strict=True)


class Keyword(BaseModel):
    """One keyword instance as a scenario writes it: a name (`flying`), or a one-key map for
    a valued one (`{rampage: 2}`). Each game subclasses it with its vocabulary's schema."""

    model_config = ConfigDict(frozen=True)
    name: str
    value: int | str | None = None

    def written(self) -> str | dict[str, int | str]:
        """The keyword as the scenario format writes it."""
        return self.name if self.value is None else {self.name: self.value}

    @model_serializer
    def _as_written(self) -> str | dict[str, int | str]:
        """Serialise as the scenario format writes it, so dumped scenarios load again."""
        return self.written()

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name} {self.value}"


K = TypeVar("K", bound=Keyword)


def parse_keyword(raw: Any, model: type[K], plain: tuple[str, ...], valued: dict[str, type],
                  choices: dict[str, tuple[str, ...]] | None = None) -> K:
    """Read a keyword of a game's vocabulary: `plain` names, `valued` names with the type of
    their value (a whole number from 1 to BOUND, or a string from `choices`)."""
    if isinstance(raw, model):
        return raw
    if isinstance(raw, str):
        if raw in plain:
            return model(name=raw)
        if raw in valued:
            raise ValueError(f"keyword {raw!r} needs a value, as {{{raw}: ...}}")
        raise ValueError(f"unknown keyword {_short(raw)}{did_you_mean(raw, [*plain, *valued])}")
    if isinstance(raw, dict) and len(raw) == 1:
        ((name, value),) = raw.items()
        kind = valued.get(name)
        if kind is None:
            raise ValueError(f"unknown keyword {_short(name)}"
                             f"{did_you_mean(str(name), [*valued, *plain])}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)
                            or not 1 <= value <= BOUND):
            raise ValueError(f"{name} needs a whole number from 1 to {BOUND}, got "
                             f"{_short(value)}")
        allowed = (choices or {}).get(name)
        if allowed is not None and value not in allowed:
            raise ValueError(f"{name} needs one of {', '.join(allowed)}, got {_short(value)}")
        return model(name=name, value=value)
    raise ValueError(f"a keyword is a name or a one-key map, got {_short(raw)}")


def did_you_mean(word: str, known: Any) -> str:
    """"; did you mean 'x'?" with the closest known name to a misspelt one, or ""."""
    from difflib import get_close_matches

    found = get_close_matches(word, [str(k) for k in known], n=1, cutoff=0.75)
    return f"; did you mean {found[0]!r}?" if found else ""


def _short(value: Any) -> str:
    """A value for an error line: a 5,000-digit number or a long text, cut."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def keyword_list(v: Any, parse: Callable[[Any], Keyword]) -> list[Any]:
    """A permanent's `keywords`, each read with `parse` (a game's keyword reader)."""
    if not isinstance(v, list):
        raise ValueError("keywords is a list")
    return [parse(k) for k in v]


class ExpectState(Strict):
    players: dict[str, dict[str, Any]] = empty(dict)
    permanents: dict[str, dict[str, Any]] = empty(dict)


class ExpectRefusal(Strict):
    """An era expected to refuse the scenario (contract §2.1): citing `rule` (an illegal
    declaration), or for a mechanic its rules lacked (`reason: not-in-era`)."""

    rule: str | None = Field(default=None, min_length=1, max_length=100)
    reason: Literal["not-in-era"] | None = None

    @model_validator(mode="after")
    def _one(self) -> ExpectRefusal:
        if self.rule is None and self.reason is None:
            raise ValueError("refused needs a `rule` (the rule the era refuses it by) or "
                             "`reason: not-in-era`")
        return self


class ExpectOutcome(ExpectState):
    """An era's expected outcome, or its expected refusal (then nothing else)."""

    refused: ExpectRefusal | None = None

    @model_validator(mode="after")
    def _refused_alone(self) -> ExpectOutcome:
        if self.refused is not None and (self.players or self.permanents):
            raise ValueError("an era expected to refuse the scenario has no outcome to "
                             "expect: `refused` goes alone")
        return self


class Japanese(Strict):
    """A scenario's own Japanese title and description (shown under `--lang ja`; its prose
    is its author's, never translated by rulesdiff)."""

    title: str = Field(min_length=1, max_length=300)
    description: str | None = Field(default=None, max_length=TEXT_LENGTH)


class Described(Strict):
    """What a scenario of any game says about itself, before its game's own fields."""

    id: str = Field(pattern=ID_PATTERN, max_length=ID_LENGTH)
    title: str = Field(min_length=1, max_length=300)
    description: str | None = Field(default=None, max_length=TEXT_LENGTH)
    sources: list[str] = empty(list)
    tags: list[str] = empty(list)
    ja: Japanese | None = None
