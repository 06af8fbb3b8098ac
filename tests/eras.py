"""What each era's rules say, as the tests branch on it: written by hand from the texts,
never read from the engine. A new era must be classified here (test_era_traits_cover_the
registry), so no test silently treats it as another era."""

from versions import ERA_IDS

ERAS = ERA_IDS

TRAITS: dict[str, frozenset[str]] = {
    # C.8.1, T.10 (Rulings Summary, 1999): damage dealt directly, then a damage prevention
    # step; C.8.2: tapped blockers deal none; G.22.3: players lose at the end of the attack;
    # T.9: triggers are not responded to. Keywords that came later are refused.
    "fifth": frozenset({"prevention-step", "tapped-blockers-deal-none", "loses-at-end",
                        "no-trigger-responses", "refuses-later-keywords"}),
    # 310.1 (CR 2009-05-01): combat damage uses the stack; 502.63a, 502.68a: deathtouch
    # and lifelink are triggered abilities.
    "sixth": frozenset({"damage-on-stack", "triggered-deathtouch", "triggered-lifelink"}),
    # 509.2-509.3, 510.1c (CR 2009-07-08): a damage assignment order binds; 702.2b: a
    # deathtouch creature may ignore it; lethal damage stays toughness-based.
    "m10": frozenset({"damage-order", "deathtouch-ignores-order"}),
    # 702.2b (CR 2010-07-16): any nonzero deathtouch damage is lethal for assignment.
    "m11": frozenset({"damage-order", "deathtouch-lethal"}),
    # 510.1c-d (CR 2025-02-07): free division; 702.2c: deathtouch lethal.
    "foundations": frozenset({"deathtouch-lethal"}),
}


def has(era: str, trait: str) -> bool:
    return trait in TRAITS[era]


# The eras of the Comprehensive Rules (1999 on): tests of what those rules share (the stack
# or its absence for damage, deathtouch, double strike, planeswalkers) run in these; the
# rules before them have tests of their own (test_fifth.py).
CR_ERAS = tuple(e for e in ERAS if not has(e, "prevention-step"))


# Shipped scenarios written before `fifth` existed that it can run but whose fifth outcome
# is not yet worked by hand (verify reports them as not checked). The list may only
# shrink: test_shipped_scenarios checks each is still pending.
FIFTH_PENDING = (
    "attacker-pumps-first-in-blockers-order",
    "blocker-divides-against-its-order",
    "double-block-giant-growth-every-era",
    "first-strike-gained-after-first-step",
    "first-strike-granted-with-damage-on-stack",
    "foundations-five-five-giant-growth",
    "giant-growth-against-the-split-every-era",
    "giant-growth-saves-blocked-attacker",
    "giant-growth-trampler-too-late",
    "giant-growth-vs-assignment-order",
    "kabuto-moth-after-assignment",
    "mogg-fanatic-during-declare-blockers",
    "mogg-fanatic-finishes-its-attacker",
    "mogg-fanatic-when-to-sacrifice",
    "nantuko-husk-sacrifice-when",
    "nantuko-husk-sacrifice",
    "pump-first-in-order",
    "regenerate-attacker-after-damage-known",
    "removed-from-combat-with-damage-on-stack",
    "sakura-tribe-elder-kills-piker",
    "skyshroud-behemoth-five-blockers",
    "trample-blocker-bounced-after-assignment",
    "unsummon-own-attacker",
    "unsummon-own-blocker",
    "vastwood-gorger-giant-growth",
    "vastwood-gorger-mending-hands",
    "vastwood-gorger-splits",
    "wild-cantor-pays-to-block",
    "wild-cantor-with-damage-on-stack",
)
