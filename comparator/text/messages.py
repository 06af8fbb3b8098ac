"""What rulesdiff says in one line of a file's problems and of its own work, said in the
language spoken: a scenario's problems (the format's, pydantic's and the checks'), the hints
that follow them, and the errors of `validate`, `verify`, `explore`, `blocks`, `new` and
`dataset`.

They are English sentences where they are made (the JSON of `validate` and `verify` keeps
them so, in every language), as the engine's are (``phrases``). Each has a pattern here
(`MESSAGES`, marked `N_` like any message); under another language a sentence that matches
one is said in that language, the names in it kept as written (a file, a field, an id, an
era, a rule number); one that matches none is said as the engine's sentences are
(``phrases.phrase``), else as written. Pydantic's own messages are said by their error type
and its context (`PYDANTIC`), not by their English words."""

from __future__ import annotations

import re
import string
from functools import cache
from typing import Any

from comparator.text.language import N_, _, bounded, current
from comparator.text.phrases import phrase, term

# The sentences, as they are written ({name}: what varies; {{ }}: a brace of the text).
MESSAGES = (
    # -- reading a scenario file (comparator.scenarios.loader, comparator.files) ------------
    N_("nested too deeply"),
    N_("malformed YAML: {problem}"),
    N_("malformed YAML at column {column}: {problem}"),
    N_("a scenario file is a YAML mapping"),
    N_("not a regular file"),
    N_("the file is {size} bytes; a {what} is at most {most}"),
    N_("more than {most} bytes"),
    N_("not UTF-8 text ({reason} at byte {at}; save it as UTF-8)"),
    N_("can't read the file: {why}"),
    N_("{file}: no scenario files (*.yaml) in this folder"),
    N_("{file}: no such file, and no shipped scenario with that id"),
    N_("{file}: not a generator manifest (it needs generator, seed, count and parameters)"),
    N_("{file}: not a generator manifest ({why})"),
    N_("{file}: {field}: a whole number from {low} to {high}, not {value}"),
    N_("{file}: parameters: a map of the generator's parameters"),
    # PyYAML's words for what it could not read, the commonest.
    N_("mapping values are not allowed here"),
    N_("did not find expected {what}"),
    N_("could not find expected {what}"),
    N_("found character {what} that cannot start any token"),
    N_("found duplicate anchor {what}"),
    N_("found undefined alias {what}"),
    N_("expected <block end>, but found {what}"),
    N_("while scanning a simple key"),
    N_("while parsing a block mapping"),
    # -- the format (versions.common, versions.*.scenario) ----------------------------------
    N_("required field is missing"),
    N_("unknown key {key}"),
    N_("keyword {keyword} needs a value, as {{{name}: ...}}"),
    N_("{keyword} needs a whole number from 1 to {most}, got {value}"),
    N_("{keyword} needs one of {allowed}, got {value}"),
    N_("a keyword is a name or a one-key map, got {value}"),
    N_("keywords is a list"),
    N_("refused needs a `rule` (the rule the era refuses it by) or `reason: not-in-era`"),
    N_("an era expected to refuse the scenario has no outcome to expect: `refused` goes "
       "alone"),
    N_("an era expected to refuse the scenario has no blocks to expect: `refused` goes "
       "alone"),
    N_("unknown color {color} (one of {colors})"),
    N_("unknown color {color}"),
    N_("an ability has exactly one of `trigger` or `activated`"),
    N_("unknown effect {effect} (one of {effects})"),
    N_("unknown effect {effect}"),
    N_("effect {effect} is for actions, not abilities"),
    N_("effect {effect} needs {fields}"),
    N_("a triggered {effect} needs a `target`"),
    N_("`kind` is for counters, not {effect}"),
    N_("`for-each` is for pump, not {effect}"),
    N_("an ability with cost `mana` needs `mana: N`"),
    N_("`exile-self` is for a dies trigger's return-creature-cards"),
    N_("`at` lists at least one window"),
    N_("`target` lists at least one candidate"),
    N_("`source` is for activate and damage, not {effect}"),
    N_("`from` is for prevent and prevent-all-combat-damage, not {effect}"),
    N_("prevent needs a `target` (the next N damage to it) or `from` (the next N damage "
       "that source would deal), not both"),
    N_("a number of seats (0 or more), or a map player -> seats"),
    # -- Magic's cards (comparator.games.mtg.loading) ---------------------------------------
    N_("unknown card {card} (not in the card library)"),
    N_("unknown card {cards}: not in the shipped card library; give your own with --cards "
       "FILE or {variable} (docs/cards.md)"),
    N_("unknown cards {cards}: not in the shipped card library; give your own with --cards "
       "FILE or {variable} (docs/cards.md)"),
    N_("unknown card {card}: not in the card library; write it out as {{name: {name}, "
       "creature: true}} (or false)"),
    N_("{card} is a {type_line}, not a creature or planeswalker; name it in an action's "
       "`card:`"),
    # -- Magic's whole-scenario checks (comparator.games.mtg.checks) ------------------------
    N_("player {name} is listed twice"),
    N_("{name} is not one of the players"),
    N_("id {id} is used twice"),
    N_("id {id} is also a player's name"),
    N_("id {id} is already used"),
    N_("a creature needs {stat} (give it, or a `card`)"),
    N_("a planeswalker needs loyalty"),
    N_("only planeswalkers have loyalty"),
    N_("a battle needs defense"),
    N_("only battles have a {stat}"),
    N_("{id} is not another permanent of the scenario"),
    N_("a permanent `animated-by` another is not a creature by itself: give its own types "
       "(e.g. [land])"),
    N_("an animated permanent needs the {stat} it is given"),
    N_("attacker {id} is not a permanent of the scenario"),
    N_("{attacker} is controlled by {controller}, not the active player"),
    N_("{attacker} can't attack its own controller {target}"),
    N_("{target} is not a planeswalker or battle, so it can't be attacked"),
    N_("{target} is protected by {player}, and a battle's protector can never attack it"),
    N_("{target} is the active player's own planeswalker"),
    N_("{target} is neither a player nor a permanent"),
    N_("{attacker} can't attack alone"),
    N_("a band has at least two attacking creatures"),
    N_("{id} is not attacking, so it can't be in a band"),
    N_("{id} is already in band {band}: a creature may be in one band only"),
    N_("a band's creatures all attack the same player, planeswalker or battle; these "
       "attack {targets}"),
    N_("a band has at most one creature without banding; {ids} have none"),
    N_("blocker {id} is not a permanent of the scenario"),
    N_("{id} is attacking, so it can't block"),
    N_("a block names at least one attacker"),
    N_("the same attacker is named twice"),
    N_("{id} is not attacking"),
    N_("{id} is neither attacking nor blocking"),
    N_("an order lists exactly the creatures {creature} fights ({fights}), once each"),
    N_("{creature} assigns in two steps only with double strike (`first` and `second` are "
       "for a double striker)"),
    N_("{key} is not a creature {creature} is blocked by, nor the {attacked} it attacks"),
    N_("{key} is not a creature {creature} is blocked by"),
    N_("{key} is not a creature {creature} blocks"),
    N_("poison counters go on a player, not {target}"),
    N_("target {target} is not a permanent of the scenario"),
    N_("target {target} is not a player"),
    N_("target {target} is neither a permanent nor a player"),
    N_("source {source} is not a permanent of the scenario"),
    N_("{id} is not a permanent of the scenario"),
    N_("{player} is the attacking player: a creature put onto the battlefield blocking "
       "enters under a defending player's control"),
    N_("{source} has {n} abilities; no ability {index}"),
    N_("ability {index} of {source} is triggered, not activated"),
    N_("only {source}'s controller {controller} can activate it"),
    N_("{source}'s {effect} needs a `target`"),
    N_("name the creature sacrificed to pay the cost (`sacrifice:`)"),
    N_("unknown era {era} (one of {eras})"),
    N_("best play is explored for two players only"),
    N_("a blocker here blocks at least one attacker"),
    N_("{id} does not attack in this scenario"),
    N_("a player's outcome has no field {field}"),
    N_("a permanent's outcome has no field {field}"),
    N_("zone {zone} is not one of {zones}"),
    N_("counters is a map of +1/+1 or -1/-1 to a number, e.g. {{-1/-1: 2}}"),
    N_("warning: the intended division adds up to {total}, but {creature}'s power is "
       "{power} and nothing in the scenario changes it: `run` uses the default division "
       "instead in every era (scenario-format §1.5)"),
    # -- Magic's multiplayer table (comparator.games.mtg.table_checks) ----------------------
    N_("teams are for multiplayer games: two players play alone (write `multiplayer:` for "
       "more players)"),
    N_("players have teams: name the variant they play (`multiplayer: {{variant: "
       "two-headed-giant}}`, emperor, teams)"),
    N_("a multiplayer game begins with more than two players (600.1)"),
    N_("in {variant}, players compete as individuals (605.1, 608.1): no teams"),
    N_("no other multiplayer options are used in Two-Headed Giant games (606.2)"),
    N_("the attack multiple players option isn't used in Grand Melee (608.2c): it attacks "
       "left (608.2b)"),
    N_("in Free-for-All each player has the same range of influence (605.2a): one number"),
    N_("in Grand Melee each player has a range of influence of 1 (608.2a)"),
    N_("{variant} is played by teams: {name} has none"),
    N_("Two-Headed Giant games are played with two teams of two players each (606.1; teams "
       "of more, 606.10, are not modelled)"),
    N_("each Two-Headed Giant team sits together (606.3): list the players in turn order, "
       "each team's two side by side"),
    N_("a Two-Headed Giant team's life total is shared (606.4a): {one} and {other} must "
       "have the same"),
    N_("the Emperor variant involves two or more teams of three players each (607.1)"),
    N_("team {team} does not sit together with its emperor in the middle (607.2): list "
       "each team's three players side by side, in turn order"),
    N_("the Teams variant involves two or more teams of equal size (609.1)"),
    N_("in the Teams variant no one sits next to a teammate (609.3): {name} and {other} do"),
    N_("in the Teams variant each team is equally spaced out around the table (609.3): "
       "team {team} is not"),
    # -- Duel Masters' whole-scenario checks (versions.duel_masters.scenario) ---------------
    N_("a player is listed twice"),
    N_("{id} is not a creature of the scenario"),
    N_("a Duel Masters scenario has at least one attack"),
    N_("attacker {id} is not a creature of the scenario"),
    N_("{attacker} is in the hand, not the battle zone"),
    N_("{attacker} is tapped: a creature taps to attack"),
    N_("{attacker} is controlled by {controller}, not the turn player {player}"),
    N_("{attacker} can't attack its own player"),
    N_("{target} is neither a player nor a creature"),
    N_("{target} is the turn player's own creature"),
    N_("{target} is untapped: only a tapped creature can be attacked (or an untapped one "
       "by a creature with mach-fighter)"),
    N_("with several attacks, `redirect` maps each attacker to the creatures that redirect "
       "its attack"),
    N_("{id} is not an attacker of `combat.attacks`"),
    N_("{id} is the turn player's: only the non-turn player redirects an attack"),
    N_("a creature is named twice"),
    N_("{id} is not a creature in a hand with ninja-strike"),
    N_("unknown era {era} for duel-masters (one of {eras})"),
    N_("{name} is not a player of the scenario"),
    N_("a creature's outcome has no field {field}"),
    # -- what the eras refuse (comparator.compare.running) ----------------------------------
    N_("illegal block in {eras}: {why} (rule {rules})"),
    N_("illegal attack in {eras}: {why} (rule {rules})"),
    N_("illegal in {eras}: {why} (rule {rules})"),
    N_("none of the eras named ({eras}) is an era of {game}"),
    N_("{id} is also the id of {file}: an id is unique among the files of a dataset"),
    # -- Duel Masters' redirections, as the eras check them (versions.duel_masters.engine) --
    # (before Magic's blocks: "it is tapped" here, "{id} is tapped" there)
    N_("{id} can't redirect the attack: {why}"),
    N_("it is not in the battle zone"),
    N_("the target of {id}'s attack can't be changed"),
    N_("it is tapped"),
    N_("it can't block"),
    N_("an attack on a creature can't be redirected to that creature itself"),
    N_("a guardman redirects only an attack on a creature, not on a player"),
    N_("it has no ability that redirects an attack (blocker, guardman)"),
    # -- Magic's blocks, as the eras check them (versions.mtg.engine.blocks, blockers) -------
    N_("{blocker} can't block {attacker}: {why}"),
    N_("it can't be blocked"),
    N_("it has flying, and the blocker has neither flying nor reach"),
    N_("it has shadow and the blocker doesn't"),
    N_("the blocker has shadow and it doesn't"),
    N_("it has fear, and the blocker is neither an artifact creature nor black"),
    N_("it has protection from {color}"),
    N_("{id} can't be blocked"),
    N_("{id} is tapped"),
    N_("{id} can't block"),
    N_("{id} blocks {n} attackers but may block {most}"),
    N_("{id} is no longer attacking"),
    N_("{blocker} is controlled by {controller}, but {attacker} attacks {target} (defending "
       "player {player})"),
    N_("{blocker} is controlled by {controller}, but {attacker} attacks {target} (defending "
       "player {player}): a defending player's creatures block only creatures attacking "
       "them"),
    N_("{attacker} has {why} and is blocked by {n} creature(s), but may be blocked by none "
       "or by at least {least}"),
    N_("{attacker} has {why} and is blocked by {n} creature(s), but may be blocked by none "
       "or by at most {most}"),
    N_("{attacker} has {why} and is blocked by {n} creature(s), but may be blocked by none "
       "or by no number of creatures at all"),
    N_("{id} can't block alone"),
    N_("{id} can't block unless a creature with greater power ({power}) also blocks"),
    N_("the blocks obey {have} of {n} requirements ({unmet}), but {best} can be obeyed "
       "without breaking a restriction, e.g. blocks: {example}"),
    N_("{id} must block if able"),
    N_("{id} must block {attacker}"),
    N_("{player} must pay {cost} mana to block but can make only {n}"),
    N_("{id} is not a creature on the battlefield"),
    N_("{id} is attacking"),
    N_("{attacker} is not attacking {player} or what they control"),
    N_("no declaration that breaks no restriction has {blocker} block {attacker} (a "
       "restriction counts its blockers)"),
    N_("more than {limit} block choices to examine"),
    # `blocks --best`'s refusals, before explore's own ("{file}: ...")
    N_("best blocks: {era}: {how}; raise --limit to explore it"),
    N_("best blocks: {era}: {how}; raise --limit to explore it (no limit lists that many)"),
    N_("best blocks: {why}"),
    # -- explore (comparator.explore, comparator.games.exploration) -------------------------
    N_("{file}: every era named refuses the written blocks, as its expect says: nothing "
       "to explore with them (try --blocks all)"),
    N_("{file}: {era}: {how}; raise --limit to explore it"),
    N_("{file}: {era}: {how}; raise --limit to explore it (no limit lists that many)"),
    N_("{file}: players: {why}"),
    N_("{file}: {era} can't run this scenario: {why} (and 1 more era refuses it); nothing "
       "was explored"),
    N_("{file}: {era} can't run this scenario: {why} (and {n} more eras refuse it); "
       "nothing was explored"),
    N_("{file}: {era} can't run this scenario: {why}; nothing was explored"),
    N_("more than {limit} lines of play (reached {n})"),
    N_("more than {limit} lines of play (at least {n}, counted before they were all "
       "searched)"),
    N_("about {n} lines of play, estimated before searching (the limit is {limit})"),
    N_("a decision with {n} options, each at least one line of play (the limit is "
       "{listed})"),
    N_("more than {n} legal block declarations, each at least one line of play (the limit "
       "is {limit})"),
    N_("a decision of up to {n} block declarations, too many to count the legal ones (the "
       "limit is {listed})"),
    N_("more than {work} positions searched and lines played out, with the lines of play "
       "not all counted yet (the most work a limit of {limit} lines of play allows)"),
    N_("explore supports two-player scenarios; this one has {n} and names no multiplayer "
       "variant (write `multiplayer: {{variant: free-for-all}}` to explore it as one: "
       "docs/multiplayer.md)"),
    N_("a redirection written for a later attack can't be made after what an earlier "
       "attack did in that line ({rule})"),
    N_("window {window} does not exist in {era} (no creature has first strike); {what} is "
       "available at {at} instead (if-missing: {how})"),
    N_("window {window} does not exist in {era} (no creature has first strike); {what} is "
       "not available (if-missing: {how})"),
    N_("window {window} does not exist in {era}; {what} would be moved to {at}, where it "
       "can't be taken: {why} (if-missing: {how})"),
    N_("window {window} does not exist in {era}; {what} is available at {at} instead "
       "(if-missing: {how})"),
    N_("window {window} does not exist in {era}; {what} is not available (if-missing: "
       "{how})"),
    N_("{what} can't be taken at {windows} in {era}: {why}"),
    # -- blocks (comparator.games.mtg.blocks, comparator.explore.best_blocks) ---------------
    N_("{era}: {question}: more than {limit} block choices to examine (the limit); raise "
       "--limit to answer it"),
    N_("`blocks` lists Magic's block declarations, and this is a {game} scenario; `explore "
       "--blocks all` lists every redirection a Duel Masters defender can choose"),
    N_("`blocks` lists Magic's block declarations, and this is a {game} scenario"),
    N_("--can: no permanent {id} (the blocker) in the scenario"),
    N_("--can: no permanent {id} (the attacker) in the scenario"),
    N_("--can: {id} does not attack in this scenario"),
    N_("it is a {game} scenario, and {era} is an era of {other}"),
    # -- new (comparator.scenarios.scaffold) ------------------------------------------------
    N_("{name}: a scenario name needs a letter or a digit"),
    N_("{file}: the file exists; choose another name"),
    N_("{file}: can't write it: {why}"),
    # -- the eras as named on the command line (versions.find_era) ---------------------------
    N_("unknown era {era}; did you mean {name}?; known: {known}"),
    N_("unknown era {era}; known: {known}"),
    N_("no era of {game} modelled on {date}: the first, {era}, began {began}"),
    N_("no era of {game} modelled on {date}"),
    # -- what a card does that rulesdiff does not model (a note under a report) -------------
    N_("{card}: not modelled: {text}"),
    # -- verify: the words it writes in place of a value ------------------------------------
    N_("it runs"),
    N_("an outcome"),
    N_("the state after it"),
    N_("no such point in this combat"),
    N_("refused: {why}"),
    N_("refused ({rule})"),
    # -- the dataset (comparator.dataset) ---------------------------------------------------
    N_("{file}: not a folder"),
    N_("{file}: holds scenario files already; generate into a new folder"),
    N_("{file}: holds scenarios of seed {seed} (generator {generator}); generate into a "
       "new folder"),
    N_("{file}: holds scenarios drawn with --multiplayer {share}; generate into a new "
       "folder"),
    N_("can't write the database: {why}"),
    N_("{file}: can't read the stored data ({why}); the database is damaged or was not "
       "written by this rulesdiff"),
    N_("no database at {file} (build one with `rulesdiff dataset build`, or name it with "
       "--db)"),
    N_("can't use database {file}: no folder {folder}"),
    N_("can't use database {file}: not a database URL"),
    N_("can't use database {file}: {why}"),
    N_("can't open database {file}: {why}"),
    N_("{file} is not a database file"),
    N_("{file} is an in-memory database: nothing stored there would be kept; name a file"),
    N_("can't read the stored data ({why}); the database is damaged or was not written by "
       "this rulesdiff"),
    N_("--format parquet needs pyarrow: pip install 'rulesdiff[parquet]'"),
    N_("--scheduler needs Dask distributed: pip install 'rulesdiff[cluster]'"),
    N_("no Dask scheduler answers at {address} ({why})"),
    N_("the Dask scheduler at {address} has no workers"),
    N_("a worker failed: {why}"),
    # -- the most general last: a more particular one above may say the same words --------
    N_("{value} is not one of {allowed}"),
    N_("{era} can't run this scenario: {why}"),
    N_("{id} is not a creature"),
    N_("unknown keyword {keyword}"),
    N_("the {thing} by {player}"),
)

# What follows a sentence, said after it: a hint, the closest name to a misspelt one.
SUFFIXES = (
    N_("; did you mean {name}?"),
    N_(" (a tab on this line: YAML indents with spaces, never tabs)"),
    N_(" (YAML indents with spaces, never tabs)"),
    N_(" (check the indentation: the items of one list, and the keys of one mapping, start "
       "in the same column; a key is followed by ': ')"),
    N_(" (check the brackets: each `{{` and `[` needs its `}}` or `]`, items apart by ',')"),
    N_("; a line that grants first strike may place it otherwise"),
)

# Pydantic's own messages, by error type: said from the error's context (its English words
# are pydantic's, and stay as pydantic writes them).
PYDANTIC = {
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an "
                      "integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional "
                         "part"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum "
                           "size"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a "
                        "number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "string_too_short": N_("String should have at least {min_length} "
                           "character{expected_plural}"),
    "string_too_long": N_("String should have at most {max_length} "
                          "character{expected_plural}"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "list_type": N_("Input should be a valid list"),
    "dict_type": N_("Input should be a valid dictionary"),
    "too_short": N_("{field_type} should have at least {min_length} item{expected_plural} "
                    "after validation, not {actual_length}"),
    "too_long": N_("{field_type} should have at most {max_length} item{expected_plural} "
                   "after validation, not {actual_length}"),
    "model_type": N_("Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract "
                                "fields from"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "none_required": N_("Input should be None"),
}
# The kinds of collection pydantic names (`too_short`'s {field_type}).
FIELD_TYPES = {"List": N_("List"), "Dictionary": N_("Dictionary"), "Tuple": N_("Tuple"),
               "Set": N_("Set")}

# The words a sentence names that are the format's own or the rules' (a stat, a variant):
# said in the language spoken; ids, names and values quoted from the file stay as written.
WORDS = (
    N_("power"), N_("toughness"), N_("defense"), N_("protector"), N_("none"),
    N_("Two-Headed Giant"), N_("Emperor"), N_("Teams"), N_("free-for-all"),
    N_("grand-melee"), N_("the survey"), N_("white"), N_("blue"), N_("black"), N_("red"),
    N_("green"), N_("no blocks"),
)
_WORDS = frozenset(WORDS)
_WORD_SLOTS = frozenset({"stat", "variant", "fights", "question", "color", "example"})
# The parts of a sentence that are sentences themselves: said in turn.
_SENTENCES = frozenset({"why", "problem", "how", "what"})


def _word(slot: str, value: str) -> str:
    if slot in _WORD_SLOTS:
        return _(value) if value in _WORDS else value
    return term(value)


# The parts that are one word: an id, an era, a number (a player's name may have spaces,
# and is the rare one said as written where it has).
_ONE_WORD = frozenset({
    "id", "blocker", "attacker", "creature", "player", "target", "source", "key",
    "controller", "era", "band", "team", "one", "other", "index", "n", "most", "least",
    "have", "best", "power", "cost", "limit", "total", "column", "size", "stat", "game",
    "window", "at"})


@cache
def _pattern(template: str, tail: bool = False) -> re.Pattern[str]:
    out, seen = [], set()
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is None:
            continue
        if name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>\\S+?)" if name in _ONE_WORD else f"(?P<{name}>.+?)")
    return re.compile("".join(out) + ("$" if tail else ""), re.S)


def _filled(template: str, found: re.Match[str]) -> str:
    values = {k: (message(v) if k in _SENTENCES else _cited(v) if k == "rules" else
                  _("; ").join(map(message, v.split("; "))) if k == "unmet" else
                  _word(k, v)) for k, v in found.groupdict().items()}
    return _(template).format(**values)


def _cited(rules: str) -> str:
    """The rules an illegal choice breaks, "509.1b" or "p.27 in alpha, 500.3 in sixth,
    m10", in the language spoken: the rule numbers and the eras as written."""
    groups: list[tuple[str, list[str]]] = []
    for piece in rules.split(", "):
        cited = re.fullmatch(r"(.+) in ([a-z0-9-]+)", piece)
        if cited:
            groups.append((cited.group(1), [cited.group(2)]))
        elif groups and re.fullmatch(r"[a-z0-9-]+", piece):
            groups[-1][1].append(piece)
        else:
            return phrase(rules)
    return _("; ").join(_("{rule} in {eras}").format(rule=phrase(rule), eras=", ".join(eras))
                        for rule, eras in groups)


@bounded
def message(text: str) -> str:
    """A one-line sentence of rulesdiff's (a problem, an error, a hint) in the language
    spoken: as written in English, or where nothing here or among the engine's sentences
    matches it."""
    if current() == "en" or not isinstance(text, str) or not text:
        return text
    for suffix in SUFFIXES:
        found = _pattern(suffix, tail=True).search(text)
        if found and found.start() > 0:
            return message(text[:found.start()]) + _filled(suffix, found)
    for template in MESSAGES:
        found = _pattern(template).fullmatch(text)
        if found:
            return _filled(template, found)
    return phrase(text, inner=message)  # an engine's sentence may hold one of these


def pydantic_said(kind: str, context: dict[str, Any], english: str) -> str:
    """A message pydantic wrote, by its error type and context, in the language spoken
    (`english`, pydantic's own words, where the type is not one of `PYDANTIC`)."""
    template = PYDANTIC.get(kind)
    if current() == "en" or template is None:
        return message(english)
    values = {k: str(v) for k, v in context.items()}
    if "field_type" in values:
        name = values["field_type"]
        values["field_type"] = _(FIELD_TYPES[name]) if name in FIELD_TYPES else name
    if "expected" in values:  # "'skip', 'earlier' or 'later'": the names, listed
        names = re.findall(r"'([^']*)'", values["expected"])
        values["expected"] = ", ".join(names) if names else values["expected"]
    values.setdefault("expected_plural", "")
    try:
        return _(template).format(**values)
    except (KeyError, IndexError, ValueError):  # a context this pydantic gives otherwise
        return message(english)


def problem_message(problem: Any) -> str:
    """A file's problem (``comparator.files.problems.Problem``), its message only, in the
    language spoken."""
    error = getattr(problem, "error", None)
    if error is not None:
        return pydantic_said(error[0], error[1], problem.message)
    return message(problem.message)


def problem_line(problem: Any) -> str:
    """A file's problem as `validate` prints it, "FILE:LINE: FIELD: message", its message
    in the language spoken (the file, the line and the field as written)."""
    if current() == "en":
        return str(problem)
    return str(problem.said(problem_message(problem)))


_LATIN_THEN_JAPANESE = re.compile(r"([A-Za-z][A-Za-z0-9_'-]*)(?=[\u3040-\u30ff\u4e00-\u9fff])")
_JAPANESE_THEN_LATIN = re.compile(r"(?<=[\u3040-\u30ff\u4e00-\u9fff])(?=[A-Za-z])")


def spaced(text: str) -> str:
    """Japanese with a space between a name written in Latin letters and the kana or kanji
    beside it ("A は left を失う"), as the catalog writes names; a number stays with the word
    it counts (2点)."""
    return _JAPANESE_THEN_LATIN.sub(" ", _LATIN_THEN_JAPANESE.sub(r"\1 ", text))
