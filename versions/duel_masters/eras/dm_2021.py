"""dm-2021-09 — Duel Masters' block step from 2021-09-07 (総合ルール 507): only the
creature whose blocker ability resolved last is the blocking creature.

Sources: the official rule-change pages of 2021-09-07 (507.1, 507.1a verbatim; the
announcement of the ruling change) and the official Q&A quoted in seed 004 (507.1a,
507.2, 507.3a, 507.3c).

What changed (the announcement's steps 1-3):

- 507.1a: the non-turn player chooses, at once, one or more creatures to use their
  attack-redirecting abilities (blocker, guardman); each must be able to use it legally
  then (untapped; a blocker that can't block, or whose own attack it would be, can't; a
  guardman only when a creature is attacked).
- 507.2: they resolve one by one in the order the player chooses; the last decides the
  target.
- 507.3a: only if the last resolved is a blocker is that creature designated the blocking
  creature, and "when it blocks" triggers for it alone: two Jeanne d'Arc blockers give one
  trigger.
- 507.3c: "attacks and isn't blocked" (sabotage) is judged only by whether a blocker was
  finally used: a blocker-then-guardman relay leaves the attack unblocked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.duel_masters.eras.dm_pre_2021 import DmPre2021

if TYPE_CHECKING:  # only annotations: an era's module loads without the engine
    from versions.duel_masters.engine.state import Fight


class Dm2021(DmPre2021):
    """Only the creature whose blocker ability resolved last blocks (507.3a)."""

    id = "dm-2021-09"
    name = N_("Duel Masters, block step from 2021-09-07")
    summary = N_("Only the creature whose blocker ability resolved last blocks (507.3a).")
    aliases = ("dm-new",)
    began = "2021-09-07"
    ended = None
    cr_modelled = ("総合ゲームルール as changed on 2021-09-07 (507.1, 507.1a; Q&A: 507.2, "
                   "507.3a, 507.3c)")
    cr_date = "2021-09-07"
    sources = (
        "Takara Tomy, 変更点 (2021.09.07): 507, 507.1, 507.1a",
        "Takara Tomy, 攻撃先を変更する能力の処理に関する裁定変更のお知らせ, 2021-09-07",
        "Official Q&A quoted by dmwiki (seed 004): 507.1a, 507.2, 507.3a",
        "dmwiki, ブロッククリーチャー指定ステップ (seed 004): 507.3c",
        "Takara Tomy, 変更点 2018-03-02 (104.2a)",
    )
    changes = (
        N_("Only the creature whose blocker ability resolved last is the blocking creature "
        "(507.3a); \"when it blocks\" triggers for it alone."),
        N_("An attack a guardman took last is not blocked: \"attacks and isn't blocked\" "
        "abilities can trigger (507.3c)."),
    )
    # What the 2021-09-07 text numbers; the rest is as before (and as unverified).
    RULES = {
        "choose": "507.1a",
        "resolve": "507.2",
        "blocked": "507.3a",
        "unblocked": "507.3c",
        "trigger-blocks": "507.3a",
    }

    def redirected(self, fight: Fight, pid: str, ability: str) -> None:
        return None  # redirecting alone blocks nothing (507.3a)

    def designate(self, fight: Fight, chosen: list[str], uses: list[str]) -> None:
        if uses and uses[-1] == "blocker":
            fight.attack.blocked = True
            fight.attack.blockers = [chosen[-1]]
            fight.event("block", self.rule("blocked"), source=chosen[-1],
                        target=fight.attack.attacker)
