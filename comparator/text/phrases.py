"""What the engine and the files say in English, said in the language spoken.

The engine writes its notes, hints and refusals as English sentences (they are part of
the outcome JSON, which never changes with the language). Each sentence it writes has a
pattern here (`PHRASES`): under another language, a sentence that matches one is said in
that language, the names in it kept as written and the rules' own words (a keyword, a
window) translated; one that matches none is said as written. The words of the other
parts of a report (a field of the state, a step, a note's kind, a scenario's title) are
here too."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from comparator.text.language import N_, _, bounded, current

# The engine's sentences, as it writes them ({name}: what varies).
PHRASES = (
    N_("{creature}'s {condition} trigger ({rule}) never resolved: the state-based actions "
       "({sba}) that are checked before it ended the game first."),
    N_("the game is over: {winner} wins"),
    N_("the game is over: team {team} ({players}) wins"),
    N_("the game is over: no player is left"),
    N_("{id} has {keyword}, which did not exist under these rules: it arrived in {when}"),
    N_("{id} is a {kind}, which did not exist under these rules: {kinds} arrived in {when}"),
    N_("window {window} does not exist in {era} here; the {effect} by {player} is taken at "
       "{at} instead (if-missing: {how})"),
    N_("window {window} does not exist in {era}, nor a later one; the {effect} by {player} "
       "is not taken (if-missing: {how})"),
    N_("window {window} does not exist in {era} here; the {effect} by {player} is not taken "
       "(if-missing: skip)"),
    N_("refused, as expected ({rule}): {why}"),
    N_("Combat damage doesn't use the stack in this era ({rule}): nobody can act between "
       "the assignment of combat damage and its dealing, so there is no {window} window."),
    N_("{era} has no damage assignment order; `order` is not used"),
    N_("{blocker} must be assigned lethal damage ({need}) before {target} in {source}'s "
       "damage assignment order"),
    N_("{blocker} must be assigned lethal damage ({need}) before any damage tramples over "
       "to {target}"),
    N_("the {effect} by {player} is not taken: {why}"),
    N_("{tgt} is no longer on the battlefield"),
    N_("the game was over"),
    # Dividing combat damage: what a division may not do, and why the era divides so.
    N_("{key} is not something {source} can assign damage to now"),
    N_("the amounts add up to {total}, but {source}'s power is now {power}"),
    N_("{blocker} must be assigned lethal damage ({need}) before any damage goes past the "
       "planeswalker to {target}"),
    N_("{walker} must be assigned damage equal to its loyalty ({need}) before any goes to "
       "{target}"),
    N_("In this era {creature}'s damage assignment order was fixed at declare blockers "
       "({rule}); now {why}, so the intended division is illegal ({illegal}) and the default "
       "division is used."),
    N_("{source} has deathtouch, so in this era its controller divides its combat damage "
       "ignoring its damage assignment order ({rule}): {creature} need not be assigned lethal "
       "damage first."),
    N_("{source} has deathtouch, so in this era any damage it assigns to a creature counts as "
       "lethal damage ({rule}): {creatures} needed only 1 before {source}'s damage could move "
       "on."),
    N_("{source} has deathtouch, so any damage it assigns to a creature counts as lethal "
       "damage ({rule}): {creatures} needed only 1 before the rest could trample over."),
    # Blockers: tapped, gone before they block, put onto the battlefield blocking.
    N_("{creature} is blocking but tapped as its damage dealing step arrives, so it deals no "
       "combat damage ({rule})"),
    N_("{blocker} was declared as a blocker but left the battlefield while the costs to block "
       "were paid, so it never becomes a blocking creature ({rule}); {attackers} still became "
       "blocked ({blocked})."),
    N_("{blocker} is put into play blocking {attacker}, which was already blocked: its "
       "abilities on becoming blocked trigger only the first time it becomes blocked ({rule}; "
       "the new blocker never \"blocked\", {entered})."),
    N_("{blocker} is put onto the battlefield blocking {attacker}: it never \"blocked\" "
       "({rule}), so \"whenever a creature blocks\" {attacker} abilities don't trigger "
       "({trigger})."),
    # Combat damage on the stack (the sixth-era rules).
    N_("{source} left the battlefield after its combat damage was put on the stack; that "
       "damage is still dealt as assigned ({rule}), using its last known information ({lki})."),
    N_("{source} was removed from combat after its damage was put on the stack; the damage is "
       "still dealt as assigned ({rule})."),
    N_("{target} left the battlefield while {source}'s damage was on the stack, so the {n} "
       "damage assigned to it is not dealt ({rule})."),
    N_("{source} had left the battlefield when its damage was dealt, so its triggered "
       "deathtouch was not around to trigger ({rule}); {target} is only dealt damage."),
    N_("{source} had left the battlefield when its damage was dealt, so its triggered "
       "lifelink, which works only on the battlefield, did not trigger ({rule})."),
    # Trample as redirection (the rules before Urza's Saga): what their texts leave open.
    N_("{creature} has trample and every creature blocking it has left combat: before Urza's "
       "Saga a blocked creature dealt its damage to its blockers ({rule}) and trample only "
       "redirected what they were dealt; the General Rulings of 1994 sent it all to the "
       "defending player, but no text of {texts} says so ({ruling} does for Urza's Saga's "
       "trample)"),
    N_("{target} is dealt combat damage by the trampler {source} and by another creature at "
       "once; the General Rulings of 1994 applied the other damage first, but no text of "
       "{texts} says which damage trample redirects ({rule}; {unsettled})"),
    # A player who has left a multiplayer game.
    N_("{player} has left the game, but a player leaving the game doesn't affect combat "
       "damage on the stack: {source}'s damage to {player} is dealt"),
    N_("{player} has left the game: combat damage that would be dealt to a player who has "
       "left the game simply isn't dealt ({source}'s)"),
    N_("{player} has left the game: combat damage that would be assigned to a player who has "
       "left the game isn't assigned ({creature}'s)"),
    N_("{player} has left the game: {source}'s ability isn't put on the stack"),
    N_("{creature} would assign combat damage to {player}, who has left the game: the CR of "
       "{date} says only that leaving doesn't affect combat damage already on the stack "
       "({rule}), not what becomes of damage assigned afterwards (M10's {later}: it isn't "
       "dealt)"),
    N_("{player} has left the game"),
    # What the rules of an era did not have yet: multiplayer games, poison, a player's
    # protection.
    N_("a multiplayer game ({n} players): the 1993 rules are for two; the first rulings for "
       "more are of 1995 ({rules} of the Fifth Edition rulings summary), and even they say "
       "{why}"),
    N_("\"There are no official multi-player (meaning, more than {n} player) rules for "
       "Magic\" ({rule} of the Fifth Edition rulings summary)"),
    N_("the two-headed-giant variant has no rules here: {why}"),
    N_("the emperor variant has no rules here: {why}"),
    N_("the grand-melee variant has no rules here: {why}"),
    N_("the teams variant has no rules here: {why}"),
    N_("the limited range of influence option has no rules here: {why}"),
    N_("the attack multiple players option has no rules here: {why}"),
    N_("the attack left option has no rules here: {why}"),
    N_("the attack right option has no rules here: {why}"),
    N_("teams have no rules here but who an opponent is ({rule}): {why}"),
    N_("creatures attack {one} and {other} at once, and nothing here says how several "
       "defending players block: {why}"),
    N_("the scenario uses poison counters, which did not exist under these rules: they "
       "arrived in {year} (Legends: MTG Wiki, Poison counter)"),
    N_("player {name} has protection, which these rules gave only to permanents: {when}"),
    N_("the sixth-era rules ({rule} of the CR of {date}; not in the CR of {before})"),
    N_("the sixth-era rules (after {year}; {rule} of the CR of {date})"),
    N_("the era of the M11 rules (after the CR of {after}; {rule} of the CR of {date})"),
    N_("{year} ({set}; {rule} of the CR of {date})"),
    N_("{year}, late in this era, with no text of the era here to cite ({rule} of the CR of "
       "{date}, after it)"),
    # Rule citations where the sources give no number or no words.
    N_("{number} (before {date}; wording not in the sources)"),
    N_("(number not in the sources)"),
    N_("Glossary: {term}"),
    # Multiplayer attacks (versions/mtg/engine/attackers.py).
    N_("{defender} sits {n} seats from {attacker}, outside {attacker}'s range of influence "
       "({range})"),
    N_("{attacker} can attack only an opponent seated immediately next to them, and "
       "{defender} is not"),
    N_("with the attack left option, {attacker} can attack only the opponent seated "
       "immediately to their left ({side}), not {defender}"),
    N_("with the attack right option, {attacker} can attack only the opponent seated "
       "immediately to their right ({side}), not {defender}"),
    N_("with the attack left option, {attacker}'s nearest opponent to the left is more "
       "than one seat away: {attacker} can't attack"),
    N_("with the attack right option, {attacker}'s nearest opponent to the right is more "
       "than one seat away: {attacker} can't attack"),
    # Fourth and fifth's timing of prevention and regeneration (versions/mtg/eras/fourth.py).
    N_("damage prevention may be played only during a damage prevention step, once there "
       "is damage to prevent"),
    N_("regeneration may be played only on a creature that is dying (lethal damage or a "
       "destroy effect), and none is now"),
    N_("{target} is not dying (it will not have lethal damage), and regeneration may be "
       "played only on a creature that is"),
    N_("{source} is not on the battlefield"),
    N_("{src}'s {condition} trigger did nothing: {why}"),
)

# The rules' own words that a sentence names (a keyword, a trigger's condition, a window,
# an effect, a set): said in the language spoken. A value a file writes (`if-missing:
# earlier`) is not among them: it is quoted as the file has it.
TERMS = (
    N_("lifelink"), N_("flanking"), N_("trample"), N_("deathtouch"), N_("first-strike"),
    N_("double-strike"), N_("flying"), N_("reach"), N_("menace"), N_("banding"),
    N_("infect"), N_("wither"), N_("indestructible"), N_("vigilance"), N_("bushido"),
    N_("rampage"), N_("lure"), N_("blocks"), N_("blocked"), N_("becomes-blocked"),
    N_("attacks-unblocked"), N_("attacks-player-unblocked"), N_("dealt-damage"),
    N_("dies"), N_("blocker"), N_("guardman"), N_("pump"), N_("damage"), N_("destroy"),
    N_("prevent"), N_("regenerate"), N_("declare-attackers"), N_("declare-blockers"),
    N_("damage-on-stack"), N_("first-strike-damage-on-stack"), N_("damage-prevention"),
    N_("first-strike-damage"), N_("combat-damage"), N_("end-of-combat"),
    N_("2007 (Future Sight)"), N_("blocks-creature"), N_("becomes-blocked-by-creature"),
    N_("deals-combat-damage-to-player"), N_("gains-life"),
    N_("first-strike-damage-prevention"), N_("activate"), N_("bounce"), N_("grant"),
    N_("sacrifice"), N_("add-mana"), N_("lose-keyword"), N_("remove-from-combat"),
    N_("gain-life"), N_("lose-life"), N_("counters"), N_("attacked"), N_("planeswalker"),
    N_("battle"), N_("draw"), N_("tap"),
    # When a keyword arrived, as the eras that lack it say it (versions/mtg/eras).
    N_("1994 (Legends: MTG Wiki, Rampage)"), N_("2003 (Legions)"),
    N_("2004 (Champions of Kamigawa)"), N_("2004 (Darksteel, the first rules for it)"),
    N_("1996 (Mirage: A.19.2 of the 1999 summary cites \"Mirage, Page 1\")"),
    N_("1997 (Tempest: A.26.2 of the 1999 summary cites \"Tempest, Page 9\")"),
    # The texts an era's rules are read from, as its refusals name them.
    N_("the Fourth and Fifth Edition rules"), N_("the 1993 rulebook"),
    N_("March of the Machine"), N_("2023 (March of the Machine)"), N_("2007 (Lorwyn)"),
    N_("battles"), N_("planeswalkers"),
)
_TERMS = frozenset(TERMS)


# The words Duel Masters says otherwise than Magic, where the catalog's are Magic's: a
# trigger on blocking is ブロックするたび in Magic's texts, ブロックした時 in Duel Masters'.
DUEL_MASTERS_TERMS = {"blocks": N_("blocks (a Duel Masters trigger)")}


def term(word: Any, game: str | None = None) -> Any:
    """One of the rules' own words in the language spoken (as `game` says it, where that
    differs); a name, as written."""
    if game == "duel-masters" and word in DUEL_MASTERS_TERMS:
        return _(DUEL_MASTERS_TERMS[word])
    return _(word) if isinstance(word, str) and word in _TERMS else word


@cache
def pattern(template: str) -> re.Pattern[str]:
    """The regular expression a sentence `template` matches: its words as written, each
    `{slot}` any text (the same slot twice, the same text)."""
    parts = re.split(r"\{(\w+)\}", template)
    out, seen = [], set()
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(re.escape(part))
        elif part in seen:
            out.append(f"(?P={part})")
        else:
            seen.add(part)
            out.append(f"(?P<{part}>.+?)")
    return re.compile("".join(out), re.S)


@bounded
def phrase(text: str, inner: Callable[[str], str] | None = None) -> str:
    """A sentence of the engine's in the language spoken (as written in English, or where
    no pattern matches it); the sentences within it said by `inner` (by default, this)."""
    if current() == "en" or not isinstance(text, str):
        return text
    for template in PHRASES:
        found = pattern(template).fullmatch(text)
        if found:
            values = {k: (inner or phrase)(term(v)) for k, v in found.groupdict().items()}
            return _(template).format(**values)
    return text


# A field of a player or a permanent, as a noun.
NOUNS = {"life": N_("life"), "lost": N_("lost"), "poison": N_("poison counters"),
         "damage": N_("damage"), "power": N_("power"), "toughness": N_("toughness"),
         "loyalty": N_("loyalty"), "defense": N_("defense"), "zone": N_("zone"),
         "keywords": N_("keywords"), "graveyard": N_("graveyard"), "hand": N_("hand"),
         "drawn": N_("cards drawn"), "shields": N_("shields"),
         "controller": N_("controller"), "tapped": N_("tapped"),
         "counters": N_("counters"), "mana": N_("mana pool")}


def field_label(path: str) -> str:
    """A row of the divergence table: its state path ("B.life") as written in English,
    as a noun phrase in another language ("B のライフ")."""
    if current() == "en":
        return path
    name, _sep, rest = path.partition(".")
    field, _sep, more = rest.partition(".")
    noun = _(NOUNS[field]) if field in NOUNS else field
    return _("{name}'s {field}").format(name=name, field=noun) + (f" {more}" if more else "")


NOTE_LABELS = {"hint": N_("hint"), "missing-window": N_("missing-window"),
               "illegal-assignment": N_("illegal-assignment"),
               "action-not-allowed": N_("action-not-allowed"),
               "action-not-taken": N_("action-not-taken"),
               "trigger-not-taken": N_("trigger-not-taken"),
               "tapped-blocker": N_("tapped-blocker"), "game-over": N_("game-over"),
               "loop": N_("loop"), "order-ignored": N_("order-ignored"),
               "departed-damage": N_("departed-damage")}


def note_label(kind: str) -> str:
    """A note's kind, as the report labels it."""
    return _(NOTE_LABELS[kind]) if kind in NOTE_LABELS else kind


def step_name(step: str, game: Any) -> str:
    """A step as the report names it: its id in English (as the outcome JSON has it), its
    title in another language."""
    if current() == "en":
        return step
    title = game.step_titles.get(step)
    return _(title) if title else step


def own_japanese(data: dict[str, Any], field: str) -> str | None:
    """A scenario's own Japanese `field` ("title", "description"), from its `ja:` block as
    its file gives it; None where it has none."""
    own = data.get("ja")
    said = own.get(field) if isinstance(own, dict) else None
    return str(said) if said else None


def title_of(scenario: Any) -> str:
    """The scenario's title: its own Japanese one under Japanese, where it has one."""
    japanese = getattr(scenario, "ja", None)
    if current() == "ja" and japanese is not None:
        return str(japanese.title)
    return str(scenario.title)


ZONES = {"battlefield": N_("battlefield"), "graveyard": N_("graveyard"),
         "exile": N_("exile"), "hand": N_("hand"), "gone": N_("gone")}


def zone_name(zone: str, own: dict[str, str] | None = None) -> str:
    """A zone's name in the language spoken (`own`: a game's own names for zones)."""
    names = {**ZONES, **(own or {})}
    return _(names[zone]) if zone in names else zone
