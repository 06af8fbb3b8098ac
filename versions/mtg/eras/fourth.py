"""fourth — trample as redirection: the rules from the Rules Team's ruling of January 1994
(Revised, Fourth and Fifth Edition) to Urza's Saga (1994-01-01 to 1998-10-17).

The rulebooks of the time are not numbered, and none survives whole here. The era is cited
by the sections of Stephen D'Angelo's General Rulings Summary (its final release, updated
1999-05-16; shared/reference/rulings-summary-fifth-edition-1999.txt) wherever the summary
gives a rule from the Fifth Edition rulebook ("[Fifth Edition, Page N]") or older, and by
its own notes on what Urza's Saga changed ("A.27.Note": the trample rule before October
1998). The Fourth Edition FAQ and General Rulings Summary (1995, reposted 2009-08-17) works
the same combats: its Mammoth and Goblins, trample against protection, a trampler blocked
by a banding creature.

The era begins with the damage prevention step: the "General Rulings" of 1994-04-14 play
combat as this era does ("Allow damage prevention to be used after damage is assigned",
first for the first-strike damage, "updated by a January ruling on First Strike"; a tapped
blocker deals no damage; trample damage "in excess of a creature's toughness moves on to
the defender" after prevention; players lose at the end of the attack), where the 1993
rulebook played prevention before damage (``alpha``).

This era defines every hook; ``alpha`` and ``fifth`` inherit it and carry only what differs.
What these rules say that later ones don't:

- C.8.1: combat damage is dealt directly, never on a stack: first-strike damage (if any
  creature had first strike as damage dealing began), a damage prevention step, then the
  other creatures' damage and a second damage prevention step. No instants can be played
  from the start of damage dealing to the end of combat (C.7.Ruling.1): the windows
  `first-strike-damage`, `combat-damage` and `end-of-combat` do not exist for players.
- T.10: in each damage prevention step only damage prevention, redirection and
  regeneration may be played (T.10.3); prevention only where there is damage to prevent
  (G.12.2), regeneration only on a creature with lethal damage (G.32.Ruling.4); then the
  damage is dealt, and creatures with lethal damage are destroyed (T.10.1 step 5). The
  windows `first-strike-damage-prevention` and `damage-prevention` exist only here, and
  before damage (`declare-blockers`) nothing can prevent or regenerate yet (G.12.1). A
  prevention shield prevents damage of its own step only (G.12.5).
- C.8.2: a blocking creature deals combat damage only if it is untapped when its damage
  dealing step arrives.
- C.8.1a, C.8.Ruling.1-2: which creatures deal first-strike damage is decided as damage
  dealing begins; a creature killed by first-strike damage deals none, and one that gains
  or loses first strike later does not change when it deals damage.
- G.22.3, C.9.2: a player with less than 1 life loses at the end of the attack, not at once:
  the combat goes on.
- Triggered abilities are played as they happen, in a Series, and cannot be responded to
  (T.9): players act in a window only after its triggered abilities have resolved.
- Trample before Urza's Saga (A.27.Note; Fourth Edition FAQ): a blocked trampler assigns
  all its damage to its blockers, as freely as any attacker (C.8.5, C.8.Ruling.4: all to
  one, none to another). Then, as "automatic damage redirection", what of its damage to a
  blocker is still unprevented as the damage prevention step ends and exceeds what that
  blocker needs for lethal damage goes to the defending player instead. Prevention comes
  first, so protection from the trampler's color stops it all ("very uneffective against
  Protection from Color"), and a prevention spell on a blocker cuts what carries over.
  Redirection happens as prevention ends (T.10.1 step 3; the Fifth Edition rulebook,
  Section II, "Damage Prevention": redirecting effects "apply only to unprevented
  damage"); the redirected damage is not dealt in that step but in a new damage
  prevention step (T.10.6, T.10.11), where it can be prevented, and it is no longer combat
  damage (C.1.8).

Where the texts don't settle a point, the era refuses rather than guesses (``NotInEra``):
a trampler whose blockers have all left combat (C.8.4 gives a blocked creature's damage to
its blockers only; the rule that sends it to the player, A.27.Ruling.6, is of 10/08/98, for
Urza's Saga's trample), and a blocker dealt combat damage by a trampler and another source in
the same step (the texts don't say which damage carries over).

Keywords and kinds of permanent that did not exist under these rules are refused, naming
the year they arrived, rather than answered with an anachronism (`refusal`). Not modelled:
interrupts and batches outside combat (the Fourth Edition FAQ delays damage to the end of a
batch; the Fifth Edition rulebook has a damage prevention step after each effect: a combat
action here resolves alone, so the two agree on every shipped scenario), mana burn and
redirection by cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_, NotInEra
from versions.mtg.engine.assigned import Division, toughness_lethal
from versions.mtg.engine.damage import unprevented
from versions.mtg.rules import MULTIPLAYER_RULES, Batch, Era, cites
from versions.mtg.scenario import Window, damage_window
from versions.mtg.table import Table

if TYPE_CHECKING:
    from versions.mtg.engine.assigned import Assignment, Dealt
    from versions.mtg.engine.state import Board, Permanent
    from versions.mtg.scenario import Scenario

# The windows of the damage prevention steps (T.10), which exist only under these rules.
PREVENTION = (Window.FIRST_STRIKE_DAMAGE_PREVENTION, Window.DAMAGE_PREVENTION)
FIRST_STRIKE_PREVENTION, PREVENTION_STEP = PREVENTION
WINDOWS = (Window.DECLARE_ATTACKERS, Window.DECLARE_BLOCKERS, FIRST_STRIKE_PREVENTION,
           PREVENTION_STEP)
BEFORE_DAMAGE_STACK = (Window.FIRST_STRIKE_DAMAGE_ON_STACK, Window.DAMAGE_ON_STACK,
                       FIRST_STRIKE_PREVENTION)
PREVENTING = frozenset({"prevent", "regenerate"})

# Infect came after the sixth era's text and M10's (it is not in the CR of 2009-05-01,
# 2009-07-08 or 2010-07-16; the CR of 2022-04-29 has it as 702.90).
INFECT = "the era of the M11 rules (after the CR of 2010-07-16; 702.90 of the CR of 2022-04-29)"
# Trample over planeswalkers: 702.19c of the CR of 2022-04-29, in none of the earlier texts.
OVER_WALKERS = ("the era of the M11 rules (after the CR of 2010-07-16; 702.19c of the CR of "
                "2022-04-29)")

# Keywords and permanents of the scenario vocabulary these rules did not have, with when
# and where they arrived (sources: shared/reference/combat-rules-by-era.md for double
# strike, deathtouch, lifelink and planeswalkers; the MTG Wiki's Indestructible page for
# the first rules of indestructible; Champions of Kamigawa for bushido, 2004-10-01).
NOT_YET = {
    "double-strike": "2003 (Legions)",
    "deathtouch": "2007 (Future Sight)",
    "lifelink": "2007 (Future Sight)",
    "bushido": "2004 (Champions of Kamigawa)",
    "indestructible": "2004 (Darksteel, the first rules for it)",
}
TYPES_NOT_YET = {
    "planeswalker": "2007 (Lorwyn)",
    "battle": "2023 (March of the Machine)",
}
# Damage that becomes counters: not in the rules of 1999 (the first text here that has
# wither is the CR of 2009-05-01, 502.80).
COUNTERS_NOT_YET = {
    "wither": "the sixth-era rules (after 1999; 502.80 of the CR of 2009-05-01)",
    "infect": INFECT,
    "trample-over-planeswalkers": OVER_WALKERS,
    # A.24.2: "creatures (or other permanents) with this ability"; players first have it in
    # the Comprehensive Rules (502.7e of 2009: "a permanent or player with protection").
    "player-protection": "the sixth-era rules (502.7e of the CR of 2009-05-01; not in the "
                         "CR of 1999-04-23)",
}


# M.1.1 of the Fifth Edition rulings summary (D'Angelo, 02/03/98), quoted by every refusal of
# a multiplayer game these rules can't play.
NO_MULTIPLAYER_RULES = ("\"There are no official multi-player (meaning, more than 2 player) "
                        "rules for Magic\" (M.1.1 of the Fifth Edition rulings summary)")
# What the rulings of the time do say of more than two players (M.1-M.3): how cards read,
# who an opponent is, and that a "killed" player's cards are removed from the game
# (M.1.Ruling.1). Combat with one defending player needs nothing more; the rest is refused.
RULINGS_MULTIPLAYER = frozenset({"mp-opponent", "mp-leaves"})


def rulings_refusal(scenario: Scenario) -> str | None:
    """Why the rulings of 1995-1999 can't play this multiplayer game, or None: they say
    how cards read with more than two players, not how a combat of several defending
    players, a variant or an option goes (M.1.1)."""
    table = Table.of(scenario)
    if not table.multiplayer:
        return None
    mp = scenario.multiplayer
    if mp is not None and mp.variant != "free-for-all":
        return f"the {mp.variant} variant has no rules here: {NO_MULTIPLAYER_RULES}"
    if mp is not None and (mp.attack is not None or mp.range_of_influence is not None):
        option = "limited range of influence" if mp.range_of_influence is not None else \
            {"multiple": "attack multiple players"}.get(str(mp.attack), f"attack {mp.attack}")
        return f"the {option} option has no rules here: {NO_MULTIPLAYER_RULES}"
    if any(p.team for p in scenario.players):
        return ("teams have no rules here but who an opponent is (M.3.1): "
                + NO_MULTIPLAYER_RULES)
    attacked = {target if target in table.seats else _holder(scenario, target)
                for target in scenario.combat.attacks.values()}
    if len(attacked) > 1:
        return (f"creatures attack {' and '.join(sorted(attacked))} at once, and nothing "
                f"here says how several defending players block: {NO_MULTIPLAYER_RULES}")
    return None


def _holder(scenario: Scenario, pid: str) -> str:
    p = scenario.permanent(pid)
    return (p.protector or p.controller) if p is not None else pid


class Fourth(Era):
    """The damage prevention step; tapped blockers deal no damage; trample redirects."""

    id = "fourth"
    name = N_("Fourth Edition (trample as redirection)")
    summary = N_("The damage prevention step; tapped blockers deal no damage; trample "
                 "redirects.")
    aliases = ("pre-urza", "fourth-edition", "trample-redirection")
    # The Rules Team's first-strike ruling of "January" 1994 (General Rulings, 1994-04-14)
    # brought prevention after damage: no day is known, so the month's first. The end is
    # a choice: the A.27.Note puts the trample change "at the beginning of
    # October 1998" and A.27.Ruling.2-6 are of 10/08/98; rulesdiff takes the date of
    # Moursund's "Rules Changes as of Urza's Saga" (1998-10-18) as the first day of fifth.
    began = "1994-01-01"
    ended = "1998-10-17"
    cr_modelled = ("General Rulings Summary, final release under the Fifth Edition rules "
                   "(D'Angelo, updated 1999-05-16): its rules from the Fifth Edition "
                   "rulebook, and its notes on the rules before Urza's Saga")
    cr_date = "1999-05-16"
    # A creature blocking a band member only through the band was not "assigned to block"
    # it (C.6.Ruling.5): rampage does not count it (A.25.Ruling.1), nor does flanking, which
    # names creatures assigned to block (A.19.2).
    counts_band_blockers = False
    texts = "the Fourth and Fifth Edition rules"  # what the refusals say is silent
    sources = (
        "General Rulings, last update 1994-04-14 (nemtiax/Beta-Magic-Rules-Engine "
        "RULES_FAQ.md): Attack Sequence, Dealing with Damage, Trample Questions",
        "Fourth Edition FAQ and General Rulings Summary, 1995 (reposted 2009-08-17): "
        "Mammoths and Goblins, trample and protection, trample and banding",
        "D'Angelo, General Rulings Summary, final Fifth Edition release, 1999 (A.27.Note, "
        "C.1-C.9, T.10, A.11, G.12, G.22, G.32)",
        "Fifth Edition rulebook (1997), Section II: Damage Prevention, Step by Step "
        "(transcription by Ronald Bieber)",
        "Moursund, Magic Rulings & Errata, 1998-10-18: Rules Changes as of Urza's Saga",
        "Bleiweiss, \"Thanksgiving in Dominia\", 2002-11-27",
    )
    # What changed from ``alpha`` (the 1993 rulebook); what the two share is in its docstring.
    changes = (
        N_("Damage prevention is played after the damage is dealt, in a damage prevention "
        "step after each damage dealing, first-strike damage included (C.8.1, T.10; the "
        "January 1994 ruling)."),
        N_("Nothing prevents or regenerates before damage (G.12.1): a blocker can no longer "
        "tap to prevent and so deal no damage."),
        N_("Only prevention, redirection and regeneration may be played from damage dealing "
        "to the end of combat (C.7.Ruling.1, T.10.3)."),
        N_("Damage trample redirects is dealt after its damage prevention step, in one of its "
        "own, and is no longer combat damage (A.27.Note, T.10.11, C.1.8)."),
    )
    # Numbers the summary has, for keys this era never shows (what they stand for is
    # refused here) or whose section says less than the key means.
    unverified = ("bushido", "indestructible", "sba-loyalty",
                  "block-cost", "block-mana", "block-pay", "bounce", "counters", "add-mana",
                  "pump", "trigger-attacks-unblocked")

    not_yet = {**NOT_YET, **TYPES_NOT_YET, **COUNTERS_NOT_YET}
    # A "killed" player's cards "are immediately removed from the game" (M.1.Ruling.1).
    departed_zone = "exile"
    absent = frozenset({"wither", "infect", "infect-player", "trample-over-planeswalkers",
                        "battle-damage", "sba-battle",
                        # a trampler whose blockers are gone: refused (``trample_assigns_over``)
                        "trample-no-blockers"}) | (MULTIPLAYER_RULES - RULINGS_MULTIPLAYER)

    RULES = {
        "block": "C.6.1",
        "blocked": "C.6.10",
        "block-untapped": "C.6.2",
        "block-restriction": "C.6.Ruling.1",
        "block-requirement": "C.6.6",
        "block-cost": "C.6.2",
        "block-mana": "C.6.8",
        "block-pay": "C.6.2",
        "block-becomes": "C.6.Ruling.5",
        "enter-blocking": "C.6.Ruling.5",
        "trigger-blocks": "C.6.1",
        "trigger-blocks-creature": "C.6.1",
        "trigger-becomes-blocked": "C.6.1",
        "trigger-becomes-blocked-by-creature": "C.6.1",
        "trigger-attacks-unblocked": "G.44.1",
        "trigger-damage": "T.10.1",
        "trigger-left": "A.8.4",
        "rampage": "A.25.2",
        "bushido": "A.8.1",
        "flanking": "A.19.2",
        "assign-unblocked": "C.8.4",
        "assign-blocked": "C.8.5",
        "assign-blocker": "C.8.4",
        "assign-check": "C.8.Ruling.4",
        "trample": "A.27.Note",
        "trample-unsettled": "C.8.4",
        "damage-resolves": "T.10.1",
        "first-strike-step": "C.8.1",
        "protection": "A.24.2",
        "indestructible": "G.14.1",
        "priority": "T.8.1",
        "trigger-order": "T.9.1",
        "sba-life": "G.22.3",
        "sba-toughness": "K.12.4",
        "sba-lethal": "T.10.1",
        "sba-loyalty": "K.12.4",
        "end-of-combat": "C.9.1",
        "delayed": "C.9.1",
        "activate": "A.2.2",
        "fizzle": "G.19.1",
        "pump": "A.2.5",
        "noncombat-damage": "G.11.1",
        "destroy": "G.14.1",
        "sacrifice": "G.35.1",
        "regenerate": "G.32.3",
        "prevent": "G.12.1",
        "bounce": "G.29.1",
        "remove-from-combat": "C.1.4",
        "gain-life": "G.22.2",
        "counters": "G.9.1",
        "add-mana": "G.26.1",
        "banding": "A.11.13",
        "band-blocked": "A.11.8",
        "band-effect": "A.11.3",
        "stops-being-creature": "C.1.7",
        "trigger-dies": "A.8.4",
        "return-cards": "Z.4.1",
        "exile-card": "Z.7.1",
        "tap": "G.40.1",
        "discard": "G.15.1",
        "no-instants": "C.7.Ruling.1",
        "prevention-only": "T.10.3",
        "prevent-when": "G.12.1",
        "prevent-nothing": "G.12.2",
        "prevention-ends": "G.12.5",
        "regenerate-dying": "G.32.Ruling.4",
        "tapped-blocker": "C.8.2",
        "lose-life": "G.24.1",
        "sba-poison": "E.11.2",
        # More than two players: who an opponent is, and what becomes of a killed player's
        # cards (the rulings of 1995-1996; no procedure: ``rulings_refusal``).
        "mp-opponent": "M.2.1",
        "mp-leaves": "M.1.Ruling.1",
        "prevent-all": "E.6.1",
        "trigger-gains-life": "A.8.1",
    }

    # -- what these rules did not have -------------------------------------------------------

    def refusal(self, scenario: Scenario) -> str | None:
        return self.anachronism(scenario) or rulings_refusal(scenario)

    def departed_assignment(self, board: Board, creature: str, player: str) -> bool:
        """A player killed in combat (by poison, which loses at once: E.11.2) is one whose
        cards are removed from the game (M.1.Ruling.1); what becomes of damage still to
        be assigned to them, no ruling says."""
        raise NotInEra(self.id, (
            f"{creature} would assign combat damage to {player}, who was killed: the "
            f"rulings say only that a killed player's cards are removed from the game "
            f"(M.1.Ruling.1), not what becomes of damage to them; {NO_MULTIPLAYER_RULES}"))

    def departed_damage(self, board: Board, source: str | None, player: str) -> bool:
        self.departed_assignment(board, source or "damage", player)
        return False

    def counter_pairs_removed(self) -> str | None:
        return None  # counters remain on a permanent (G.9.5); none cancel out

    def damage_dealt(self, board: Board, dealt: list[Dealt]) -> None:
        return None  # no deathtouch, no lifelink (``not_yet`` refuses them)

    def damage_triggers(self, board: Board, dealt: list[Dealt]) -> None:
        return None

    def deathtouch_sba(self, board: Board, creature: Permanent) -> str | None:
        return None

    # -- windows: no instants once damage dealing begins ------------------------------------

    def has_window(self, window: str) -> bool:
        return window in WINDOWS

    @cites("first-strike-step", "no-instants")
    def window_missing(self, board: Board, window: str) -> str:
        if window in BEFORE_DAMAGE_STACK:
            return self.rule("first-strike-step")  # damage is dealt directly (C.8.1)
        return self.rule("no-instants")

    def responds_to_triggers(self) -> bool:
        return False  # triggered abilities are played as a Series, not responded to (T.9)

    @cites("prevention-only", "prevent-when", "prevent-nothing", "regenerate-dying")
    def action_refused(self, board: Board, waiting: list[Assignment], window: str,
                       effect: str, target: str | None, origin: str | None = None,
                       ) -> tuple[str, str] | None:
        if window in PREVENTION:
            if effect not in PREVENTING:
                return ("prevention-only", f"during a damage prevention step only damage "
                        f"prevention, redirection and regeneration may be played, and "
                        f"{effect} is none of them")
            pending = (_pending_from(waiting, origin) if origin is not None
                       else _pending(waiting, target))
            if effect == "prevent" and not pending:
                what = f"by {origin}" if origin is not None else f"to {target}"
                return ("prevent-nothing", f"no damage is being dealt {what} in this "
                        f"damage prevention step, so there is nothing to prevent")
            if effect == "regenerate" and not _dying(board, target, pending):
                return ("regenerate-dying", f"{target} is not dying (it will not have lethal "
                        f"damage), and regeneration may be played only on a creature that is")
            return None
        if effect == "prevent":
            return ("prevent-when", "damage prevention may be played only during a damage "
                    "prevention step, once there is damage to prevent")
        if effect == "regenerate":
            return ("regenerate-dying", "regeneration may be played only on a creature that "
                    "is dying (lethal damage or a destroy effect), and none is now")
        # A fog effect (E.6.1) is not damage prevention: G.12.1 doesn't hold it back.
        return None

    # -- declaring blockers: no damage assignment order -------------------------------------

    def orders_to_announce(self, board: Board) -> list[tuple[str, list[str], str]]:
        return self.no_damage_order(board)

    def place_in_order(self, board: Board, attacker: str, blocker: str) -> None:
        return None

    def entered_blocker_triggers(self, board: Board, attacker: str, was_blocked: bool,
                                 blocker: str) -> bool:
        # C.6.Ruling.5: a creature may become a blocker "by other means" than being
        # assigned, and then "see individual card entries": no general rule. rulesdiff
        # reads "becomes blocked by a creature" as met (docs/eras/fifth.md).
        return True

    # -- assigning combat damage: as the controller chooses, trample by toughness (A.27) ---

    @cites("tapped-blocker")
    def deals_combat_damage(self, board: Board, creature: str) -> bool:
        p = board.perm(creature)
        if creature in board.blocks and p.tapped:
            board.log.note("tapped-blocker", self.rule("tapped-blocker"), (
                f"{creature} is blocking but tapped as its damage dealing step arrives, so "
                f"it deals no combat damage ({self.rule('tapped-blocker')})"), creature=creature)
            return False
        return True

    def assignment_step(self, first_strike: bool) -> str:
        return damage_window(first_strike)

    def lethal_damage(self, board: Board, source: str | None, target: str,
                      others: list[Assignment]) -> int:
        return toughness_lethal(board, target, others)

    def division_rules(self, board: Board, source: str) -> tuple[Division, ...]:
        return (Division.TOTAL,)  # C.8.5, C.8.Ruling.4: any way, a trampler's too

    @cites("trample-unsettled")
    def trample_assigns_over(self, board: Board, creature: str) -> bool:
        """A.27.Note: trample did not assign damage past the blockers; it redirected
        damage dealt to them (``waiting_damage_dealt``). With no blocker left, there is
        nothing to redirect from (C.8.4), yet the FAQ sends damage a blocker can't take
        to the player: the texts don't settle it."""
        if creature in board.blocked and not board.blockers_of(creature):
            raise NotInEra(self.id, (
                f"{creature} has trample and every creature blocking it has left combat: "
                f"before Urza's Saga a blocked creature dealt its damage to its blockers "
                f"({self.rule('trample-unsettled')}) and trample only redirected what they "
                f"were dealt; the General Rulings of 1994 sent it all to the defending "
                f"player, but no text of {self.texts} says so "
                f"(A.27.Ruling.6 does for Urza's Saga's trample)"))
        return False

    def assignment_refused(self, board: Board, creature: str, why: str) -> None:
        return None  # the refusal itself is the explanation

    def explain_assignment(self, board: Board, assignments: list[Assignment]) -> None:
        return None

    # -- damage dealing and the damage prevention step (C.8, T.10) -------------------------

    @cites("damage-resolves")
    def damage_waits(self, board: Board, assignments: list[Assignment],
                     first_strike: bool) -> str | None:
        """The damage is dealt at once; a damage prevention step follows (T.10.1), in
        which it can still be prevented, and creatures it would kill regenerated."""
        board.log.event("damage-prevention-step", self.rule("damage-resolves"),
                        assignments=len(assignments))
        return FIRST_STRIKE_PREVENTION if first_strike else PREVENTION_STEP

    @cites("trample", "trample-unsettled")
    def waiting_damage_dealt(self, board: Board, waiting: list[Assignment],
                             first_strike: bool) -> tuple[Batch, Batch]:
        """T.10.1 step 4-5: what was not prevented is successfully dealt; creatures with
        lethal damage are then destroyed, or regenerate (removed from combat, C.1.6).
        A.27.Note: of a trampler's damage to a blocker, what is unprevented beyond lethal
        damage is redirected to the defending player, once prevention is over."""
        batch = still_there(board, waiting)
        if not any(s in board.attacks and board.perm(s).has("trample") for s, _, _ in batch):
            return batch, []  # nothing to redirect: no need to weigh prevention
        dealt_by = [(s, t, n) for (s, t, _), n in zip(batch, unprevented(board, batch),
                                                      strict=True)]
        now: Batch = []
        after: Batch = []
        for (source, target, amount), (_, _, dealt) in zip(batch, dealt_by, strict=True):
            over = self._redirected(board, dealt_by, source, target, dealt)
            now.append((source, target, amount - over))
            if over:
                player = board.attacks[source or ""]
                board.log.event("trample-redirect", self.rule("trample"), source=source,
                                target=target, to=player, amount=over)
                after.append((source, player, over))
        return now, after

    def _redirected(self, board: Board, batch: Batch, source: str | None, target: str,
                    dealt: int) -> int:
        """What of `dealt` (unprevented damage from `source` to `target`) trample
        redirects: what exceeds lethal damage, where `source` is an attacking trampler
        and `target` a creature blocking it. `batch`: every packet's unprevented damage."""
        if (source is None or target in board.players or source not in board.attacks
                or not board.perm(source).has("trample") or not dealt
                or source not in board.blocks.get(target, [])
                or not board.is_player(board.attacks[source])):
            return 0
        if any(s != source and t == target and n for s, t, n in batch):
            raise NotInEra(self.id, (
                f"{target} is dealt combat damage by the trampler {source} and by another "
                f"creature at once; the General Rulings of 1994 applied the other damage "
                f"first, but no text of {self.texts} says which "
                f"damage trample redirects ({self.rule('trample')}; "
                f"{self.rule('trample-unsettled')})"))
        blocker = board.perm(target)
        return max(0, dealt - max(0, blocker.toughness - blocker.damage))

    @cites("prevention-ends")
    def waiting_damage_over(self, board: Board) -> None:
        """G.12.3, G.12.5: a prevention spell prevents damage of its damage prevention step
        only; once that damage is dealt, what it had left is gone (Bleiweiss 2002: "damage
        prevention used to prevent just once and then go away")."""
        left = [(p.id, p.prevention) for p in board.permanents.values() if p.prevention]
        left += [(name, p.prevention) for name, p in board.players.items() if p.prevention]
        left += [(source, n) for source, n in board.source_shields.items() if n]
        for who, amount in sorted(left):
            board.log.event("prevention-ends", self.rule("prevention-ends"), target=who,
                            amount=amount)
        for p in board.permanents.values():
            p.prevention = 0
        for player in board.players.values():
            player.prevention = 0
        board.source_shields.clear()

    def second_step_creatures(self, board: Board, now: list[str],
                              first_strikers: frozenset[str],
                              assigned_first: frozenset[str]) -> list[str]:
        # C.8.1a, C.8.Ruling.2: those that did not have first strike as damage dealing
        # began, whatever they have now.
        return [p for p in now if p not in first_strikers]

    # -- losing the game (G.22.3, C.9.2) ----------------------------------------------------

    def loses_now(self, board: Board) -> bool:
        return board.log.step == Window.END_OF_COMBAT


def still_there(board: Board, waiting: list[Assignment]) -> Batch:
    """The waiting damage, less what was assigned to a creature that has left (G.32.3:
    regenerated creatures are removed from combat, destroyed ones are gone)."""
    return [(a.source, target, amount) for a in waiting for target, amount in a.amounts.items()
            if target in board.players or board.perm(target).on_battlefield]


def _pending_from(waiting: list[Assignment], source: str) -> int:
    return sum(sum(a.amounts.values()) for a in waiting if a.source == source)


def _pending(waiting: list[Assignment], target: str | None) -> int:
    return sum(a.amounts.get(target or "", 0) for a in waiting)


def _dying(board: Board, target: str | None, pending: int) -> bool:
    p = board.permanents.get(target or "")
    if p is None or not p.on_battlefield or not p.is_creature:
        return False
    return p.damage + max(pending - p.prevention, 0) >= p.toughness
