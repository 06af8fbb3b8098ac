"""alpha — prevention before damage: the rules of the first rulebook (Limited Edition, Alpha
and Beta; Unlimited), from 1993-08-05 to the end of 1993.

Cited by the pages of that rulebook ("p.26"): © 1993 Garfield Games, the Alpha text with
Beta's updates, as transcribed in "The Original Magic Rulebook" (magicthegathering.com,
2004-12-25) and in the public repository nemtiax/Beta-Magic-Rules-Engine (RULES.md), whose
page numbers agree with the ones the "General Rulings" of 1994-04-14 cite ("[Page 24]",
"[Page 27]", "[Page 28]"). ``PAGES`` says what each cited page holds. The rulebook is not
numbered rule by rule and is not a text ``rules import`` reads: its citations name a page.

Everything of ``fourth`` holds (tapped blockers deal no damage, trample as redirection, a
blocked creature stays blocked, banding's division by the banding side; losing at the end
of the attack and triggered abilities resolved before anyone acts are readings: the
rulebook has no word on either) except what the rules of early 1994 play otherwise (the
General Rulings of 1994-04-14: prevention after damage, "Dealing with Damage", undated; a
stop between first-strike and other damage, "updated by a January ruling on First
Strike"), which ``fourth`` models from 1994-01-01 on:

- p.25, p.38: damage prevention is a fast effect played with the others once blockers are
  declared, so before damage (the Samite Healer "prevent[s] the Merfolk from damaging the
  Goblin": an inference from the example, which shows nothing played after damage); there
  is no damage prevention step (p.24: the attack is declare attack, declare defense, fast
  effects, damage dealing). The windows `declare-attackers` and `declare-blockers` exist;
  no other. Regeneration alone is used later, "at the moment the creature would normally
  be removed from play" (p.27): a regeneration written for after damage is played as a
  shield that waits for that moment (``prepared``).
- p.29: first strikers deal their damage first; "afterwards, surviving creatures without
  first strike deal their damage", with nothing played between (the January ruling's "BIG
  CHANGE" added a chance to prevent, and the graveyard, in between).
- p.38: a blocker tapped to prevent damage deals none (p.26), so "neither creature would
  take damage": the block that ``fourth`` resolves otherwise (prevention after damage
  cannot untap a blocker's damage away).
- p.28: trample damage in excess of what destroys a blocker "is applied to the defender
  instead", as the damage is dealt: with it, not in a damage prevention step of its own.
- p.28: damage a creature with protection deals "cannot be prevented using" cards of that
  color.

Where the texts don't settle a point, the era refuses rather than guesses (``NotInEra``):
prevention beside a protected creature whose damage it may meet (rulesdiff's shields don't
tell sources apart, and p.28 lets no card of the protection's color prevent that damage);
a triggered ability that would resolve between first-strike and other damage (the rulebook
has no rule for triggered abilities; the January ruling calls "new" that creatures killed
by first strike go to the graveyard, and their deaths have effect, before the other
damage); an attacker regenerated from first-strike damage (p.27 says nothing of combat,
p.29 lets "surviving" creatures deal damage); poison counters (Legends, 1994). A prevention
shield lasts until damage uses it or the turn ends (nothing in the rulebook ends it sooner).
Creatures that block several attackers (a card's text: "can block an additional
creature") run, though p.24 says "one creature may not block more than one attacking
creature": the card takes precedence ("If a card contradicts the rules, the card takes
precedence", p.33)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_, NotInEra
from versions.mtg.eras.fourth import (
    COUNTERS_NOT_YET,
    FIRST_STRIKE_PREVENTION,
    NO_MULTIPLAYER_RULES,
    NOT_YET,
    PREVENTION,
    PREVENTION_STEP,
    RULINGS_MULTIPLAYER,
    TYPES_NOT_YET,
    Fourth,
)
from versions.mtg.rules import Batch, cites
from versions.mtg.scenario import Window
from versions.mtg.table import Table

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment
    from versions.mtg.engine.state import Board
    from versions.mtg.scenario import Ability, Action, Scenario

WINDOWS = (Window.DECLARE_ATTACKERS, Window.DECLARE_BLOCKERS)
PREVENTING = frozenset({"prevent", "prevent-all-combat-damage"})

# What each page cited holds (the rulebook's facts in our words; the page is the one its
# footer gives, as the General Rulings of 1994-04-14 cite it).
PAGES = {
    "p.9": "the object of the game: reduce the rival's life to zero; both at once is a draw",
    "p.14": "the mana pool",
    "p.16": "no spell or fast effect without an available target",
    "p.19": "instants: played at any time, in response; they take effect together once "
            "both players are done",
    "p.22": "sacrifice: put into the graveyard, and it cannot be regenerated",
    "p.23": "damage: a creature dealt damage equal to or greater than its toughness in one "
            "turn is destroyed; destroyed and removed cards; once an attack is announced "
            "only fast effects until the end of the attack",
    "p.24": "the attack: declare attack (attackers tap), declare defense (untapped creatures "
            "block, several may block one attacker, one blocks one), fast effects, damage "
            "dealing; a blocked creature stays blocked though its blockers are destroyed",
    "p.25": "fast effects by both players once blocks are declared, and during the "
            "declarations",
    "p.26": "damage dealing: unblocked attackers damage the defender, blocked ones divide "
            "their damage among their blockers as the attacker chooses; a blocker tapped "
            "after blocking deals no damage; all the damage is simultaneous",
    "p.27": "regeneration, used at the moment the creature would go to the graveyard; "
            "evasion (flying, landwalk)",
    "p.28": "bands (an attacking band is blocked as a unit; the banding side divides the "
            "damage it is dealt); trample (damage beyond what destroys a blocker goes to "
            "the defender); protection (no blocking by, damage from or prevention by that "
            "color's cards)",
    "p.29": "first strike: first strikers deal their damage first, then the surviving "
            "others; power bought with mana lasts until the end of the turn",
    "p.30": "timing: the active player announces first, responses, then all take effect",
    "p.31": "a target that disappears before the spell affects it: the effect is ignored",
    "p.32": "timing examples: Unsummon in response to a spell that would kill the creature",
    "p.33": "if a card contradicts the rules, the card takes precedence",
    "p.38": "tapping; a creature's tap ability is an instant: the Samite Healer taps to "
            "prevent the Merfolk from damaging the Goblin (played with the fast effects, "
            "so before damage), and a blocker so tapped deals no damage",
}

# Keywords of the scenario vocabulary that came after 1993, on top of what came after
# Fourth Edition (``fourth``): Limited Edition's keywords are banding, first strike,
# flying, landwalk, trample and protection (its set pages).
ALPHA_NOT_YET = {
    "rampage": "1994 (Legends: MTG Wiki, Rampage)",
    "flanking": "1996 (Mirage: A.19.2 of the 1999 summary cites \"Mirage, Page 1\")",
    "shadow": "1997 (Tempest: A.26.2 of the 1999 summary cites \"Tempest, Page 9\")",
}


class Alpha(Fourth):
    """Prevention before damage; no damage prevention step; tapped blockers deal no
    damage; trample redirects."""

    id = "alpha"
    name = N_("The 1993 rulebook (prevention before damage)")
    summary = N_("Prevention before damage; no damage prevention step; tapped blockers "
                 "deal no damage; trample redirects.")
    aliases = ("1993", "limited-edition", "beta", "unlimited", "original-rulebook")
    # Limited Edition Alpha was released on 1993-08-05 (MTG Wiki); the end is the month
    # of the Rules Team's first-strike ruling, "January" 1994, of which no day is known.
    began = "1993-08-05"
    ended = "1993-12-31"
    cr_modelled = "the Limited Edition rulebook of 1993 (Alpha, with Beta's updates), by page"
    cr_date = "1993-08-05"
    sources = (
        "Magic: The Gathering rulebook, Limited Edition, 1993 (\"The Original Magic "
        "Rulebook\", magicthegathering.com, 2004-12-25; nemtiax/Beta-Magic-Rules-Engine "
        "RULES.md): pp.23-29, 38",
        "General Rulings, last update 1994-04-14 (nemtiax/Beta-Magic-Rules-Engine "
        "RULES_FAQ.md): Attack Sequence (the January 1994 first-strike ruling), Dealing "
        "with Damage, Protection from Color",
    )
    changes = (
        N_("Damage prevention is played before damage, as any fast effect once blockers are "
        "declared; there is no damage prevention step (p.25, p.38)."),
        N_("No one acts once damage dealing begins: first strikers deal their damage, then "
        "the surviving others (p.24, p.29)."),
        N_("A blocker tapped to prevent damage deals none (p.26, p.38)."),
        N_("Damage a creature with protection deals cannot be prevented by cards of that "
        "color (p.28)."),
    )
    not_yet = {**NOT_YET, **TYPES_NOT_YET, **COUNTERS_NOT_YET, **ALPHA_NOT_YET}
    # No rule for more than two players before 1995 (``_multiplayer``): not even fourth's.
    absent = Fourth.absent | RULINGS_MULTIPLAYER
    texts = "the 1993 rulebook"
    pages = PAGES
    # Numbers this era has no page for: what they stand for is refused, or the rulebook
    # says nothing of it (triggered abilities, costs to block, counters), and the page
    # given is the one nearest it.
    unverified = ("rampage", "bushido", "flanking", "indestructible", "sba-loyalty",
                  "sba-toughness", "block-requirement", "block-cost", "block-mana",
                  "block-pay", "block-becomes", "enter-blocking", "trigger-blocks",
                  "trigger-blocks-creature", "trigger-becomes-blocked",
                  "trigger-becomes-blocked-by-creature", "trigger-attacks-unblocked",
                  "trigger-damage", "trigger-left", "trigger-dies", "trigger-gains-life",
                  "trigger-order", "end-of-combat", "delayed", "remove-from-combat", "pump",
                  "gain-life", "counters", "add-mana", "stops-being-creature",
                  "return-cards", "discard", "lose-life", "sba-poison", "prevent-all",
                  "no-instants")

    RULES = {
        "block": "p.24",
        "blocked": "p.24",
        "block-untapped": "p.24",
        "block-restriction": "p.27",
        "block-requirement": "p.24",
        "block-cost": "p.24",
        "block-mana": "p.24",
        "block-pay": "p.24",
        "block-becomes": "p.24",
        "enter-blocking": "p.24",
        "trigger-blocks": "p.24",
        "trigger-blocks-creature": "p.24",
        "trigger-becomes-blocked": "p.24",
        "trigger-becomes-blocked-by-creature": "p.24",
        "trigger-attacks-unblocked": "p.24",
        "trigger-damage": "p.26",
        "trigger-left": "p.23",
        "rampage": "p.28",
        "bushido": "p.28",
        "flanking": "p.28",
        "assign-unblocked": "p.26",
        "assign-blocked": "p.26",
        "assign-blocker": "p.26",
        "assign-check": "p.26",
        "trample": "p.28",
        "trample-unsettled": "p.24",
        "damage-resolves": "p.26",
        "first-strike-step": "p.29",
        "protection": "p.28",
        "indestructible": "p.23",
        "priority": "p.25",
        "trigger-order": "p.30",
        "sba-life": "p.9",
        "sba-toughness": "p.23",
        "sba-lethal": "p.23",
        "sba-loyalty": "p.23",
        "end-of-combat": "p.23",
        "delayed": "p.23",
        "activate": "p.38",
        "fizzle": "p.31",
        "pump": "p.19",
        "noncombat-damage": "p.23",
        "destroy": "p.23",
        "sacrifice": "p.22",
        "regenerate": "p.27",
        "prevent": "p.38",
        "bounce": "p.32",
        "remove-from-combat": "p.24",
        "gain-life": "p.9",
        "counters": "p.23",
        "add-mana": "p.14",
        "banding": "p.28",
        "band-blocked": "p.28",
        "band-effect": "p.28",
        "stops-being-creature": "p.23",
        "trigger-dies": "p.23",
        "return-cards": "p.23",
        "exile-card": "p.23",
        "tap": "p.38",
        "discard": "p.23",
        "no-instants": "p.24",
        "tapped-blocker": "p.26",
        "lose-life": "p.9",
        "sba-poison": "p.9",
        "prevent-all": "p.38",
        "trigger-gains-life": "p.9",
        "protection-prevention": "p.28",
        "between-strikes": "p.29",
    }

    # -- what these rules did not have -------------------------------------------------------

    @cites("protection-prevention")
    def refusal(self, scenario: Scenario) -> str | None:
        """p.28: damage a creature with protection deals "cannot be prevented using" cards
        of that color. A prevention that could meet such damage, by a card whose color
        rulesdiff does not know, is refused, not guessed."""
        late = self.anachronism(scenario) or _poison(scenario) or _multiplayer(scenario)
        if late:
            return late
        protected = _protected(scenario)
        if not protected:
            return None
        colors = {p.id: set(p.colors) for p in scenario.permanents}
        for i, action in enumerate(scenario.actions):
            aims = _prevention_aims(scenario, action)
            if aims is None:
                continue
            meets = [(p, c) for p, c in protected.items()
                     if aims == "any" or p in aims or aims & _dealt_by(scenario, p)]
            if not meets:
                continue
            # A permanent's colors, where the scenario gives any; else unknown.
            known = (colors.get(action.source or "") or None) if action.effect == "activate" \
                else None
            if known is not None and not any(known & c or "*" in c for _, c in meets):
                continue
            creature, shields = meets[0]
            why = ("the scenario does not give the color of the card that prevents it"
                   if known is None else
                   f"{action.source} is {' and '.join(sorted(known))}, so it may prevent "
                   f"other damage to the same creature but not {creature}'s, and "
                   f"rulesdiff's prevention does not tell the sources apart")
            return (f"action {i + 1} prevents damage that {creature} (protection from "
                    f"{' and '.join(sorted(shields))}) may deal, and the 1993 rulebook lets "
                    f"no card of that color prevent such a creature's damage "
                    f"({self.rule('protection-prevention')}): {why}")
        return None

    def prepared(self, scenario: Scenario) -> Scenario:
        """p.27: regeneration "must be used at the moment the creature would normally be
        removed from play" — after damage, where no other fast effect is. A regeneration
        written for a window after damage, which these rules lack, is played as a shield
        that waits for that moment: its ``if-missing`` is read as ``earlier``."""
        late = [i for i, a in enumerate(scenario.actions)
                if _effect(scenario, a) == "regenerate" and a.if_missing != "earlier"
                and not any(w in WINDOWS for w in a.windows)]
        if not late:
            return scenario
        actions = [a.model_copy(update={"if_missing": "earlier"}) if i in late else a
                   for i, a in enumerate(scenario.actions)]
        return scenario.model_copy(update={"actions": actions})

    @cites("regenerate")
    def regenerates(self, board: Board, creature: str) -> None:
        """p.27: a regenerated creature stays in play, tapped; the rulebook says nothing of
        combat, and p.29 lets the "surviving" creatures deal their damage after first
        strike. Whether an attacker regenerated from first-strike damage still deals its
        own, no text says (a blocker, tapped, deals none: p.26): refused."""
        if board.log.step == Window.FIRST_STRIKE_DAMAGE and creature in board.attacks:
            raise NotInEra(self.id, (
                f"{creature} regenerates from first-strike damage while attacking, and the "
                f"1993 rulebook does not say whether a regenerated attacker still deals its "
                f"damage afterwards ({self.rule('regenerate')}: regeneration keeps it in "
                f"play, tapped; p.29: the surviving creatures deal theirs)"))

    # -- windows: fast effects before damage, none once it begins ---------------------------

    def has_window(self, window: str) -> bool:
        return window in WINDOWS

    @cites("prevent", "no-instants")
    def window_missing(self, board: Board, window: str) -> str:
        if window in PREVENTION:
            return self.rule("prevent")  # prevention is played before damage (p.38)
        return self.rule("no-instants")  # the attack ends with damage dealing (p.24)

    def action_refused(self, board: Board, waiting: list[Assignment], window: str,
                       effect: str, target: str | None, origin: str | None = None,
                       ) -> tuple[str, str] | None:
        # p.25: any fast effect once blocks are declared, prevention and regeneration
        # included (p.38); no window exists after that.
        return None

    # -- damage dealing: prevention already played, nothing between ---------------------------

    def damage_waits(self, board: Board, assignments: list[Assignment],
                     first_strike: bool) -> str | None:
        # The damage passes through prevention and redirection as it is dealt (no one acts:
        # the era has no such window), so trample can redirect what is left of it.
        return FIRST_STRIKE_PREVENTION if first_strike else PREVENTION_STEP

    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        """p.28: trample damage beyond what destroys a blocker "is applied to the defender
        instead": dealt with the rest of the damage (p.26: "all damage dealt during this
        round is considered simultaneous"), not afterwards."""
        now, after = super().waiting_damage_dealt(board, waiting, first_strike)
        return now + after, []

    def waiting_damage_over(self, board: Board) -> None:
        return None  # a prevention lasts until damage uses it: nothing here ends it

    @cites("between-strikes")
    def trigger_resolves(self, board: Board, source: str, condition: str) -> None:
        """p.29: "afterwards, surviving creatures without first strike deal their damage".
        The rulebook has no word on when what first-strike damage triggers (a death, the
        damage itself) has its effect, and the January 1994 ruling put it before the other
        damage as something new: refused, not guessed."""
        if board.log.step == Window.FIRST_STRIKE_DAMAGE:
            raise NotInEra(self.id, (
                f"{source}'s {condition} trigger would resolve between first-strike and "
                f"other combat damage, and the 1993 rulebook says only that the surviving "
                f"creatures deal their damage afterwards ({self.rule('between-strikes')}): "
                f"the Rules Team's ruling of January 1994 put deaths, and what they "
                f"trigger, there"))


def _protected(scenario: Scenario) -> dict[str, set[str]]:
    """The permanents that have, or may be given, protection, and from which colors ("*"
    where an ability gives it to a creature the scenario does not name)."""
    found: dict[str, set[str]] = {}
    for p in scenario.permanents:
        for k in p.keywords:
            if k.name == "protection":
                found.setdefault(p.id, set()).add(str(k.value))
        for ab in p.abilities:
            if ab.keyword is not None and ab.keyword.name == "protection":
                for who in ([p.id] if ab.target == "self" else
                            [q.id for q in scenario.permanents]):
                    found.setdefault(who, set()).add(str(ab.keyword.value))
    for a in scenario.actions:
        if a.keyword is not None and a.keyword.name == "protection":
            for who in a.targets:
                if who is not None:
                    found.setdefault(who, set()).add(str(a.keyword.value))
    return found


def _prevention_aims(scenario: Scenario, action: Action) -> set[str] | str | None:
    """What a prevention action may prevent damage to or from (ids), "any", or None for
    an action that prevents nothing."""
    ability = _ability(scenario, action)
    if action.effect == "activate" and ability is None:
        return None
    if _effect(scenario, action) not in PREVENTING:
        return None
    if action.from_ is not None:
        return {action.from_}
    targets = ({action.source or ""} if ability is not None and ability.target == "self"
               else {t for t in action.targets if t is not None})
    if _effect(scenario, action) == "prevent-all-combat-damage" or not targets:
        return "any"
    return targets


def _dealt_by(scenario: Scenario, creature: str) -> set[str]:
    """Who `creature` may deal combat damage to, by the declared combat: the attackers it
    blocks, its blockers and the player it attacks ("*" with bands: any)."""
    combat = scenario.combat
    if combat.bands:
        return {p.id for p in scenario.permanents} | {pl.name for pl in scenario.players}
    dealt = set(combat.blocked_attackers(creature))
    dealt |= {b for b in combat.blocks if creature in combat.blocked_attackers(b)}
    if creature in combat.attacks:
        dealt.add(combat.attacks[creature])
    return dealt


def _ability(scenario: Scenario, action: Action) -> Ability | None:
    """The ability an `activate` action uses, where its source has it."""
    if action.effect != "activate":
        return None
    source = next((p for p in scenario.permanents if p.id == action.source), None)
    if source is None or action.ability >= len(source.abilities):
        return None
    return source.abilities[action.ability]


def _effect(scenario: Scenario, action: Action) -> str:
    """What an action does: its effect, or for an activation its ability's."""
    ability = _ability(scenario, action)
    return ability.effect if ability is not None else action.effect


def _poison(scenario: Scenario) -> str | None:
    """Poison counters came with Legends (1994: Pit Scorpion, Serpent Generator; MTG Wiki,
    Poison counter): the rulebook has none."""
    uses = (any(p.poison for p in scenario.players)
            or any(a.kind == "poison" for a in scenario.actions)
            or any(ab.kind == "poison" for p in scenario.permanents for ab in p.abilities))
    if uses:
        return ("the scenario uses poison counters, which did not exist under these rules: "
                "they arrived in 1994 (Legends: MTG Wiki, Poison counter)")
    return None



def _multiplayer(scenario: Scenario) -> str | None:
    """The 1993 rulebook is written for two players; the first rulings for more (how cards
    read, who an opponent is) are of 1995-01-10 (M.1.3-M.1.5, M.2.1 of the Fifth Edition
    rulings summary), which rulesdiff plays from ``fourth`` on."""
    if not Table.of(scenario).multiplayer:
        return None
    return (f"a multiplayer game ({len(scenario.players)} players): the 1993 rules are for "
            f"two; the first rulings for more are of 1995 (M.1.3-M.1.5, M.2.1 of the Fifth "
            f"Edition rulings summary), and even they say {NO_MULTIPLAYER_RULES}")
