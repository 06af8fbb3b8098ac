"""sixth — damage on the stack: Sixth Edition through Shards of Alara (1999-04-23 to 2009-07-10).

Modelled on the Comprehensive Rules of 2007-2009 (the "5.5.2" text of seed 003), in their
own numbering: 3xx turn structure (309 declare blockers, 310 combat damage, 311 end of
combat), 4xx spells and effects (410 triggered abilities, 419 replacement and prevention,
420 state-based effects), 502 keyword abilities.

What the Sixth Edition rules changed from what came before (1999): combat damage goes on
the stack as one object (310.1), and players may respond before it is dealt; the old
"damage prevention step" is gone; tapped blockers deal damage.

How this era differs from the later ones:

- 310.1: the active player, then the defending player, announce how each creature assigns
  its combat damage; it all goes on the stack as one object, and players get priority.
  The windows `first-strike-damage-on-stack` and `damage-on-stack` exist only here.
- 310.2c-d: a blocked creature divides its damage among its blockers as its controller
  chooses: no order, no lethal requirement (trample aside).
- 310.4a-c: the damage is dealt exactly as assigned, even if the source has left the
  battlefield (its last known information is used) or the recipient was removed from
  combat; damage assigned to a creature that has left is not dealt.
- 310.5: the second combat damage step is for creatures that did not assign combat damage
  in the first, plus double strikers.
- 502.9: trample needs lethal damage (actual toughness, damage already marked and damage
  assigned at the same time) on each blocker; 1 deathtouch damage is not lethal here.
- Deathtouch and lifelink (keyworded in Future Sight, 2007) are triggered: "whenever this
  deals damage to a creature, destroy that creature"; "whenever this deals damage, you
  gain that much life". State-based effects are checked before they resolve, each instance
  triggers, and a regeneration shield made in response saves the creature.

Rule numbers this module cites that no primary text available to us confirms are listed
in ``unverified`` (and in docs): the deathtouch keyword's own number, the letters of
420.5, the end of combat step's subrules, and those of effects the glossary defined.
"""

from __future__ import annotations

from versions.game.era import Era


class Sixth(Era):
    """Combat damage on the stack; free division; triggered deathtouch and lifelink."""

    id = "sixth"
    name = "Sixth Edition (damage on the stack)"
    aliases = ("5.5.2", "damage-on-stack", "pre-m10")
    began = "1999-04-23"
    ended = "2009-07-10"
    cr_modelled = "Comprehensive Rules 2007-2009 (5.5.2 numbering)"
    sources = (
        "Comprehensive Rules 5.5.2, rule 310 (seed 003, via MTG Wiki)",
        "Bleiweiss, \"Damage on the Stack\", 2002-12-11",
        "Crystal Keep rule summaries (309, 310, glossary)",
    )
    changes = (
        "Combat damage uses the stack (310.1); players may respond before it is dealt.",
        "The damage prevention step is gone.",
        "Tapped blockers deal combat damage.",
    )
    damage_uses_stack = True
    triggered_deathtouch = True
    triggered_lifelink = True
    deathtouch_lethal_one = False
    second_step_by_assignment = True
    unverified = (
        "deathtouch", "sba-life", "sba-toughness", "sba-lethal", "sba-loyalty",
        "end-of-combat", "delayed", "protection", "rampage", "bushido", "flanking",
        "regenerate", "prevent", "pump", "fizzle", "remove-from-combat", "enter-blocking",
        "block-cost", "block-mana", "block-pay", "block-becomes",
    )

    RULES = {
        "block": "309.1",
        "blocked": "309.1",
        "block-untapped": "309.2a",
        "block-restriction": "309.2b",
        "block-requirement": "309.2c",
        "block-cost": "309.2d",
        "block-mana": "309.2d",
        "block-pay": "309.2d",
        "block-becomes": "309.2e",
        "block-triggers-stack": "309.1",
        "trigger-blocks": "309.1",
        "trigger-blocks-creature": "309.1",
        "trigger-becomes-blocked": "309.1",
        "trigger-becomes-blocked-by-creature": "309.1",
        "trigger-attacks-unblocked": "309.2f",
        "enter-blocking": "309",
        "assign": "310.1",
        "assign-unblocked": "310.2b",
        "assign-blocked": "310.2c",
        "assign-blocker": "310.2d",
        "assign-check": "310.2",
        "damage-on-stack": "310.1",
        "damage-resolves": "310.4",
        "damage-removed": "310.4a",
        "damage-lki": "310.4b",
        "damage-left": "310.4c",
        "first-strike-step": "310.5",
        "first-strike": "502.2",
        "double-strike": "502.28",
        "trample": "502.9b",
        "trample-no-blockers": "502.9c",
        "deathtouch": "502",
        "lifelink": "502.68",
        "protection": "502",
        "indestructible": "Glossary: Indestructible",
        "rampage": "502",
        "bushido": "502",
        "flanking": "502",
        "end-of-combat": "311",
        "delayed": "311",
        "trigger-damage": "410",
        "activate": "409.1",
        "fizzle": "413",
        "sba-life": "420.5",
        "sba-toughness": "420.5",
        "sba-lethal": "420.5",
        "sba-deathtouch": "420.5",
        "sba-loyalty": "420.5",
        "pump": "418",
        "noncombat-damage": "Glossary: Damage",
        "destroy": "Glossary: Destroy",
        "sacrifice": "Glossary: Sacrifice",
        "regenerate": "419",
        "prevent": "419",
        "bounce": "Glossary: Return",
        "remove-from-combat": "306",
        "gain-life": "Glossary: Life",
        "counters": "Glossary: Counter",
        "add-mana": "Glossary: Mana Pool",
        "discard": "Glossary: Discard",
    }
