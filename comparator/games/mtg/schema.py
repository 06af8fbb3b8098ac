"""The JSON Schema of Magic's scenario format, for editors: generated from the models, with
a description for every field and the closed vocabularies (effects, windows, keywords) as
enums, so an editor completes and explains them."""

from __future__ import annotations

from typing import Any

from comparator.games.schema import model_schema
from versions.mtg.scenario import EFFECT_FIELDS, Scenario

DESCRIPTIONS = {
    # scenario
    "id": "Identifier: lowercase letters, digits and dashes; unique in a dataset.",
    "title": "One line saying what the scenario shows.",
    "description": "Free text: what happens in each era and why, with its rules.",
    "sources": "Where the case comes from: articles, rulings, rule numbers.",
    "ja": "The scenario's own title and description in Japanese, shown under --lang ja "
          "(rulesdiff never translates a scenario's prose).",
    "tags": "Free labels for searching the library.",
    "game": "The game whose rules apply (mtg).",
    "schema": "The version of the scenario format (1).",
    "players": "The players, in turn order; two or more.",
    "active": "The attacking (active) player.",
    "multiplayer": "A game of more than two players: the variant in force and its options "
                   "(docs/multiplayer.md). Absent: two players, or with more, Free-for-All "
                   "attacking multiple players.",
    "variant": "free-for-all, two-headed-giant, emperor, grand-melee or teams (the Teams "
               "variant of 2009, Alternating Teams later).",
    "attack": "multiple (attack multiple players), left or right (attack left, attack "
              "right); unwritten, the variant's own.",
    "range-of-influence": "The limited range of influence option: the seats each player "
                          "reaches, one number for all or a map player -> seats.",
    "team": "The player's team (Two-Headed Giant, Emperor, Teams); unwritten, alone.",
    "permanents": "Every permanent in the combat: creatures, planeswalkers, battles.",
    "combat": "Who attacks what, who blocks whom, and the intended orders and divisions.",
    "actions": "What players do, in the order they happen (explore: what they may do).",
    "expect": "The outcome each era must produce, written by hand from the rules.",
    "trigger-order": "The order triggers one player controls go on the stack (the last "
                     "resolves first): source ids, card names, or 'SOURCE CONDITION'.",
    "after": "Window -> the state as that window of combat ends (its actions and "
             "triggers done), e.g. life after first-strike damage.",
    "refused": "This era refuses the scenario (contract 2.1), alone: {rule: \"509.1b\"} "
               "or {reason: not-in-era}.",
    "rule": "The rule the era refuses it by, in its own numbering.",
    "counters": "Counters it has as combat begins: {\"+1/+1\": N, \"-1/-1\": N} (on a "
                "permanent); in an expectation, those it has at the end.",
    "animated-by": "A noncreature permanent (types: [land]) that is a creature, with this "
                   "power and toughness, only through that permanent's effect; when it "
                   "leaves the battlefield this one stops being a creature and leaves combat.",
    "bands": "Attacking bands: lists of attackers declared as one band (banding: any number "
             "with banding and at most one without, attacking the same player); a creature "
             "blocking one member blocks them all.",
    "can-block": "Blocker -> exactly the attackers it can block as blockers are declared "
                 "(rulesdiff blocks --can): each listed one it can, each other it can't.",
    "best-blocks": "Blocker -> the attacker(s) it blocks in the declaration the defending "
                   "player makes with best play (rulesdiff blocks --best, objective "
                   "material); {} for no blocks.",
    "reason": "not-in-era: a mechanic this era's rules did not have.",
    "first": "A double striker's intended division in the first-strike damage step.",
    "second": "A double striker's intended division in the second damage step.",
    "for-each": "blocker: the pump's amounts are per creature blocking the source as it "
                "resolves (Rabid Elephant).",
    # player
    "name": "The player's name (or, on a permanent, a label for the log).",
    "life": "Life total as combat begins (20; a Two-Headed Giant team's shared 30).",
    "mana": "Generic mana available (to pay costs to block or an ability's mana cost).",
    "poison": "Poison counters as combat begins (ten or more loses the game).",
    "graveyard": "Cards in the player's graveyard as combat begins, bottom first: names of "
                 "the card library, or {name, creature}; in an expectation, the names there "
                 "at the end (the scenario's creatures that went there too), in any order: "
                 "the owner orders cards put there at once, so order is not compared.",
    "hand": "Cards in the player's hand as combat begins (as `graveyard`); in an "
            "expectation, the names there at the end, in any order.",
    "creature": "Whether this card is a creature card (what graveyard counts read).",
    "grows-with-graveyards": "Gets +X/+X, X the number of creature cards in all graveyards "
                             "(Nighthowler), counted once the dead of an event are there.",
    "exile-self": "A dies trigger's return-creature-cards exiles its source first "
                  "(Underworld Cerberus).",
    # permanent
    "controller": "The player who controls it.",
    "card": "A card from the library: brings its power, toughness, colors, keywords, "
            "abilities.",
    "power": "Power (a card's printed value unless given here).",
    "toughness": "Toughness (a card's printed value unless given here).",
    "keywords": "Keywords, added to the card's: flying, trample, {rampage: 2}, ...",
    "abilities": "Triggered or activated abilities, added to the card's.",
    "damage": "Damage already marked this turn.",
    "tapped": "Whether it is tapped as blockers are declared.",
    "types": "creature (default), planeswalker, battle; artifact may be added.",
    "loyalty": "A planeswalker's loyalty.",
    "defense": "A battle's defense counters (damage removes them; 0: to the graveyard).",
    "colors": "Its colors (protection, fear, trigger filters).",
    "token": "Whether it is a token (a token that leaves the battlefield is gone).",
    "block-cost": "Generic mana to pay for it to block.",
    # combat
    "attacks": "Attacker id -> the player, planeswalker or battle it attacks.",
    "blocks": "Blocker id -> the attacker it blocks, or a list for one that blocks several.",
    "order": "A damage assignment order per creature (eras that have one).",
    "assign": "The intended division of a creature's combat damage, or most-kills.",
    # action / ability
    "at": "The window (or windows, for explore) it is taken in.",
    "by": "The player who takes it.",
    "effect": "What it does.",
    "target": "What it acts on: a permanent id or a player (a list: candidates, explore).",
    "amount": "How much damage, life, prevention, counters or mana.",
    "source": "For activate: the permanent whose ability is activated. For damage: the "
              "permanent that deals it (its deathtouch, lifelink, wither, infect apply).",
    "kind": "For counters: +1/+1 (default), -1/-1, or poison (on a player).",
    "from": "For prevent and prevent-all-combat-damage: the permanent whose damage (the "
            "next N, or all its combat damage this turn) is prevented.",
    "protector": "A battle's protector (default: its controller): the defending player "
                 "when it is attacked, who blocks for it and can never attack it.",
    "protection": "A player's protection: colors, or creatures (damage from such sources "
                  "is prevented).",
    "ability": "For activate: which of the source's abilities (0 = first).",
    "keyword": "For grant: the keyword given until end of turn; for lose-keyword, the one "
               "it loses.",
    "attacker": "For enter-blocking: the attacker the new creature blocks.",
    "sacrifice": "The creature sacrificed to pay a sacrifice-creature cost.",
    "if-missing": "What an era without the window does: skip, earlier, later.",
    "required": "Explore: it must be taken at its first window where it can be.",
    "trigger": "The event it triggers on.",
    "activated": "Its cost: sacrifice-self, tap, sacrifice-creature or mana.",
    "delay": "end-of-combat: the effect happens at end of combat.",
    "if": "A test on the other creature, e.g. {not-color: black}.",
    "color": "The color the other creature must have.",
    "not-color": "A color the other creature must not have.",
}


def scenario_schema() -> dict[str, Any]:
    doc = model_schema(Scenario, "rulesdiff scenario (spec v1)",
                       "One Magic: The Gathering combat, from declare blockers to end of "
                       "combat.")
    for definition in [doc, *doc.get("$defs", {}).values()]:
        for name, prop in definition.get("properties", {}).items():
            if name in DESCRIPTIONS:
                prop.setdefault("description", DESCRIPTIONS[name])
            if name == "effect":
                prop["enum"] = list(EFFECT_FIELDS)
    return doc
