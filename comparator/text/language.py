"""The language rulesdiff speaks to people: English, or Japanese (`--lang ja`, or a
`LANG` / `LC_ALL` / `LC_MESSAGES` of `ja_JP.UTF-8`). Words shown to users are marked
`_("...")` (or `ngettext`) and looked up in the gettext catalogs of `comparator/locale/`
(kept with Babel: docs/translating.md); JSON never changes with the language.

The language is a context variable: one command sets it once (``use``); the site's build
and the workbench set it for each page they write in another language."""

from __future__ import annotations

import contextlib
import functools
import gettext
import os
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ja")
NAMES = {"en": "English", "ja": "日本語"}  # each as it names itself: a switch's words
DOMAIN = "rulesdiff"
LOCALE = Path(__file__).resolve().parents[1] / "locale"

_current: ContextVar[str] = ContextVar("rulesdiff_language", default="en")


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG: the first set), if it is one rulesdiff speaks; else English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            for part in value.split(":"):
                code = part.split(".")[0].split("_")[0].split("@")[0].lower()
                if code in LANGUAGES:
                    return code
            return "en"
    return "en"


def chosen(lang: str | None) -> str:
    """`--lang`'s value if given (ValueError for one rulesdiff does not speak), else the
    environment's."""
    if lang is None:
        return from_environment()
    code = lang.strip().lower().replace("-", "_").split("_")[0]
    if code not in LANGUAGES:
        raise ValueError(f"--lang: one of {', '.join(LANGUAGES)}, not {lang!r}")
    return code


def current() -> str:
    return _current.get()


def use(lang: str) -> None:
    """Speak `lang` from now on (a command's whole run)."""
    _current.set(lang)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak `lang` within the block (one page of the site, one request)."""
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The language's compiled catalog (English: the words as written)."""
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE), languages=[lang])


def _(message: str) -> str:
    """`message` in the current language."""
    lang = _current.get()
    return message if lang == "en" else translations(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    lang = _current.get()
    if lang == "en":
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


# A sentence is said in another language by matching it against patterns: one longer
# than any rulesdiff writes (a name a user made huge), or sentences nested deeper than any
# it writes, is said as written, so that a crafted text can't make the matching slow or
# deep (each pattern's slots match lazily: a long text costs more than its length).
LONGEST_SAID = 1000  # the longest the engine writes: under 400
DEEPEST_SAID = 12
_depth: ContextVar[int] = ContextVar("rulesdiff_said_depth", default=0)


def bounded(say: Callable[..., Any]) -> Callable[..., Any]:
    """`say` (a function that says a sentence in the language spoken), that gives a text
    too long, or nested too deep, back as written."""

    @functools.wraps(say)
    def guarded(text: Any, *args: Any, **kwargs: Any) -> Any:
        depth = _depth.get()
        if not isinstance(text, str) or len(text) > LONGEST_SAID or depth >= DEEPEST_SAID:
            return text
        token = _depth.set(depth + 1)
        try:
            return say(text, *args, **kwargs)
        finally:
            _depth.reset(token)

    return guarded


class Later:
    """Words said when shown: a message and its values, said in the language spoken when
    they are shown (str(), a template). What is gathered once and shown in several
    languages (the site's pages) keeps these."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, **values: object) -> None:
        self.message, self.values = message, values

    def __str__(self) -> str:
        return _(self.message).format(**{k: str(v) for k, v in self.values.items()})

    def __repr__(self) -> str:
        return f"Later({self.message!r}, {self.values!r})"



def N_(message: str) -> str:
    """Marks words for the catalog where they are written, translated where shown."""
    return message
