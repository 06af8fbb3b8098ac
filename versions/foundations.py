"""foundations — free division: Foundations onward (2024-11-08 to today).

Modelled on the Comprehensive Rules of 2024-11-08 and later. The declare blockers rules
lost 509.2-509.3 and were renumbered (seed 000): 509.2 is now "the active player gets
priority" (509.2a: block triggers go on the stack first), 509.3a-g are the trigger
conditions, 509.4 is "put onto the battlefield blocking".

What Foundations changed from m10 ("Magic: The Gathering Foundations Mechanics",
2024-10-25; "Foundations Update Bulletin", 2024-11):

- No damage assignment order. A creature blocked by two or more creatures divides its
  damage among them as its controller chooses (510.1c); so does a blocker blocking two or
  more attackers (510.1d). The CR example: a 4/3 blocked by a 2/3 and a 1/1 may split 4/0,
  3/1, 2/2, 1/3 or 0/4. No decision about combat damage is made in the declare blockers
  step, so the defender must commit a pump before knowing the split.
- Unchanged from m10: no stack for combat damage (510.2), trample still needs lethal on
  every blocker (702.19b) with 1 deathtouch damage lethal for that check (702.2c), static
  deathtouch and lifelink, first and double strike (510.4).

Numbers outside rule 509 are cited as in the 2022 CR, which these parts did not renumber as
far as the sources show; see docs for the ones not checked against a 2024 text.
"""

from __future__ import annotations

from versions.m10 import M10


class Foundations(M10):
    """Free division of combat damage among blockers; no damage assignment order."""

    id = "foundations"
    name = "Foundations (free division)"
    aliases = ("fdn", "post-foundations")
    began = "2024-11-08"
    ended = None
    cr_modelled = "Comprehensive Rules of 2024-11-08 and later"
    sources = (
        "\"Magic: The Gathering Foundations Mechanics\", 2024-10-25 (Removal of Damage "
        "Assignment Order)",
        "\"Foundations Update Bulletin\", 2024-11",
        "Comprehensive Rules 509 after Foundations (seed 000)",
    )
    changes = (
        "Damage assignment order removed; 509.2-509.3 deleted and 509 renumbered.",
        "A blocked creature divides its damage freely among its blockers (510.1c-d).",
        "Trample still needs lethal damage on every blocker first (702.19b).",
    )
    has_damage_order = False
    unverified = ("regenerate", "bounce", "gain-life")

    RULES = {
        **{k: v for k, v in M10.RULES.items()
           if k not in ("order-attacker", "order-blocker", "order-removed")},
        "block-triggers-stack": "509.2a",
        "trigger-blocks": "509.3a",
        "trigger-blocks-creature": "509.3b",
        "trigger-becomes-blocked": "509.3c",
        "trigger-becomes-blocked-by-creature": "509.3d",
        "trigger-attacks-unblocked": "509.3g",
        "enter-blocking": "509.4",
    }
