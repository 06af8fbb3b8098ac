"""What a scenario's tag is about. Most tags name a mechanic (trample, deathtouch, banding);
the others say which era or game a scenario is about, where it comes from, or what kind of
test it is. "By mechanic" lists the mechanics only; the others have their own lists.

Eras and games are read from the registry (an era's id, "m10-vs-m11", a game's
id); the sources and kinds are named here, and a tag named nowhere is a mechanic."""

from __future__ import annotations

import re

from comparator.text.language import N_, _
from versions import GAMES

# A group's id, also its name in a table ("era: where m10 and m11 differ").
MECHANIC = N_("mechanic")
ERA = N_("era")
GAME = N_("game")
SOURCE = N_("source")
KIND = N_("kind")

# The order and the headings of the groups other than the mechanics.
GROUPS = {ERA: N_("By era"), GAME: N_("By game"), SOURCE: N_("By source"),
          KIND: N_("By kind of scenario")}

# Where a scenario comes from.
SOURCES = {
    "cr-example": N_("an example given in the Comprehensive Rules themselves"),
    "generated": N_("made by rulesdiff dataset generate (a random, legal combat)"),
}
# What kind of test a scenario is, whatever its mechanics.
KINDS = {
    "control": N_("a control: every era is expected to end it the same way"),
    "explore": N_("written to be explored: every line of play matters"),
    "best-blocks": N_("asks which blocks best play makes"),
    "refused": N_("an era refuses it: its rules did not have what it uses"),
    "illegal-choice": N_("a choice the rules do not allow, refused as such"),
}


def _era_names() -> set[str]:
    """Era ids only: an alias may be a mechanic's name too (fifth's
    "damage-prevention-step")."""
    return {e.id for eras in GAMES.values() for e in eras}


def group(tag: str) -> str:
    """The group of a tag: MECHANIC, ERA, GAME, SOURCE or KIND."""
    if tag in SOURCES:
        return SOURCE
    if tag in KINDS:
        return KIND
    if tag in GAMES:
        return GAME
    names = _era_names()
    if tag in names or all(p in names for p in re.split(r"-vs-|-to-", tag)):
        return ERA
    return MECHANIC


def about(tag: str) -> str:
    """A line saying what a tag other than a mechanic means, in the language spoken."""
    kind = group(tag)
    if kind == SOURCE:
        return _(SOURCES[tag])
    if kind == KIND:
        return _(KINDS[tag])
    if kind == GAME:
        from versions import TITLES

        return _("a scenario of {game}").format(game=_(TITLES[tag]))
    if kind == ERA:
        eras = re.split(r"-vs-|-to-", tag)
        return (_("where {eras} differ").format(eras=_(" and ").join(eras)) if len(eras) > 1
                else _("about the rules of {era}").format(era=tag))
    return ""


def page(tag: str) -> str:
    """The page listing a tag's scenarios, with its anchor: "tags.html#tag-trample"."""
    return ("tags.html" if group(tag) == MECHANIC else "topics.html") + f"#tag-{tag}"
