"""m10 — the damage assignment order: Magic 2010 through Duskmourn (2009-07-11 to 2024-11-07).

Modelled on the Comprehensive Rules of the M11 deathtouch change onward, in the numbering of
the CR of 2022-04-29 (shared/reference/cr-2022-04-29.txt).

What M10 changed from sixth (Forsythe and Gottlieb, "Magic 2010 Rules Change", 2009-06-10):

- Combat damage no longer uses the stack (510.2). Nobody can act between assignment and
  damage: a creature sacrificed "with damage on the stack" (Mogg Fanatic, Sakura-Tribe Elder)
  now deals no combat damage, and a pump after the split is known no longer exists.
- Right after blockers are declared, the active player announces a damage assignment order
  for each attacker blocked by two or more creatures (509.2), the defending player one for
  each blocker blocking two or more attackers (509.3). The order is fixed there.
- A creature may assign damage to a creature in its order only if every creature before it
  is assigned lethal damage (510.1c-d), counting damage already marked and damage other
  creatures assign at the same time; the whole assignment is checked at once (510.1e).
- Deathtouch and lifelink became static (702.2, 702.15): the creature dealt damage by a
  deathtouch source is destroyed as a state-based action (704.5h), one regeneration shield
  covers it; life is gained as the damage is dealt, not when a trigger resolves.
- From M11 (2010-07-16), 1 damage from a deathtouch source counts as lethal when checking
  an assignment (702.2c), so a deathtouch trampler puts 1 on each blocker.
"""

from __future__ import annotations

from versions.game.era import Era


class M10(Era):
    """Damage assignment order; no damage on the stack; static deathtouch and lifelink."""

    id = "m10"
    name = "Magic 2010 (damage assignment order)"
    aliases = ("m11",)
    began = "2009-07-11"
    ended = "2024-11-07"
    cr_modelled = "Comprehensive Rules 2010-2024, numbered as the CR of 2022-04-29"
    sources = (
        "Aaron Forsythe and Mark Gottlieb, \"Magic 2010 Rules Change\", 2009-06-10",
        "Mark Gottlieb, \"July 2009 Update Bulletin\", 2009-07-08",
        "\"July 2010 Update Bulletin\", 2010-07-14 (M11 deathtouch)",
        "Comprehensive Rules, 2022-04-29 (509, 510, 702.2, 702.15, 702.19, 704.5)",
    )
    changes = (
        "Combat damage no longer uses the stack (510.2).",
        "Damage assignment order announced right after blocks (509.2, 509.3).",
        "Lethal damage in order before the next creature (510.1c-e).",
        "Deathtouch and lifelink static (702.2, 702.15); deathtouch destroys as a "
        "state-based action (704.5h).",
        "M11: 1 deathtouch damage is lethal for assignment (702.2c).",
    )
    has_damage_order = True

    RULES = {
        "block": "509.1g",
        "blocked": "509.1h",
        "block-untapped": "509.1a",
        "block-restriction": "509.1b",
        "block-requirement": "509.1c",
        "block-cost": "509.1d",
        "block-mana": "509.1e",
        "block-pay": "509.1f",
        "block-becomes": "509.1g",
        "order-attacker": "509.2",
        "order-blocker": "509.3",
        "order-removed": "509.2a",
        "block-triggers-stack": "509.4a",
        "trigger-blocks": "509.5a",
        "trigger-blocks-creature": "509.5b",
        "trigger-becomes-blocked": "509.5c",
        "trigger-becomes-blocked-by-creature": "509.5d",
        "trigger-attacks-unblocked": "509.5g",
        "enter-blocking": "509.7",
        "assign": "510.1",
        "assign-unblocked": "510.1b",
        "assign-blocked": "510.1c",
        "assign-blocker": "510.1d",
        "assign-check": "510.1e",
        "damage-resolves": "510.2",
        "first-strike-step": "510.4",
        "first-strike": "702.7b",
        "double-strike": "702.4b",
        "trample": "702.19b",
        "trample-no-blockers": "702.19d",
        "deathtouch": "704.5h",
        "deathtouch-lethal": "702.2c",
        "lifelink": "702.15b",
        "protection": "702.16e",
        "indestructible": "702.12b",
        "rampage": "702.23a",
        "bushido": "702.45a",
        "flanking": "702.25a",
        "end-of-combat": "511.1",
        "delayed": "511.2",
        "trigger-damage": "603.2",
        "activate": "602.2",
        "fizzle": "608.2b",
        "sba-life": "704.5a",
        "sba-toughness": "704.5f",
        "sba-lethal": "704.5g",
        "sba-deathtouch": "704.5h",
        "sba-loyalty": "704.5i",
        "pump": "611.2a",
        "noncombat-damage": "120.2b",
        "destroy": "701.7a",
        "sacrifice": "701.17a",
        "regenerate": "701.15a",
        "prevent": "615.1a",
        "bounce": "400.7",
        "remove-from-combat": "506.4",
        "gain-life": "119.3",
        "counters": "122.1a",
        "add-mana": "106.4",
        "discard": "701.8a",
    }
