"""dm-pre-2021-09 — Duel Masters' block step before the change of 2021-09-07: every blocker
that redirects an attack blocks.

Sources: the official announcement of the change (2021-09-07, `shared/reference/
duel-masters-2021-09-07-official.txt`) and the dmwiki pages quoted in seed 004. The wording
of 総合ルール 507 before the change was not found; what this era does is what those pages
say the old rules did:

- "When it blocks" meant "when this creature taps and changes the attack's target to
  itself": each blocker that redirects an attack blocks as it does, and its "when it
  blocks" (`blocks`) abilities trigger — three Cosmo Politan-style blockers draw three
  cards.
- An attack that a blocker redirected was blocked, even if a guardman took it last: its
  "attacks and isn't blocked" (`attacks-unblocked`) and sabotage's "attacks the opponent
  and isn't blocked" (`attacks-player-unblocked`) abilities can't trigger.

Everything else (choosing, the order of resolution, the battle, breaking shields, winning
with no shields, 104.2a of 2018) is as in the later era; so is the legality of each choice
(507.1a), which rulesdiff reads the same before the change for want of the old text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from versions.common import N_
from versions.duel_masters.rules import DuelMastersEra

if TYPE_CHECKING:  # only annotations: an era's module loads without the engine
    from versions.duel_masters.engine.state import Fight

NOT_IN_SOURCES = "(number not in the sources)"
OLD_507 = "507 (before 2021-09-07; wording not in the sources)"


class DmPre2021(DuelMastersEra):
    """Each blocker that redirects the attack blocks, and its "when it blocks" triggers."""

    id = "dm-pre-2021-09"
    name = N_("Duel Masters, block step before 2021-09-07")
    summary = N_('Each blocker that redirects the attack blocks, and its "when it blocks" '
                 "triggers.")
    aliases = ("dm-old",)
    began = "2018-03-02"
    ended = "2021-09-06"
    cr_modelled = "総合ゲームルール before 2021-09-07 (described by dmwiki; not retrieved)"
    cr_date = "2021-09-06"
    sources = (
        "Takara Tomy, 攻撃先を変更する能力の処理に関する裁定変更のお知らせ, 2021-09-07",
        "dmwiki, 攻撃先変更能力 / ブロッククリーチャー指定ステップ (seed 004)",
        "Takara Tomy, 変更点 2018-03-02 (104.2a)",
    )
    changes = (
        N_("Every blocker that taps and redirects an attack blocks; its \"when it blocks\" "
        "abilities trigger."),
        N_("An attack a blocker redirected is blocked, even if a guardman took it last."),
    )
    unverified = ("attack", "choose", "resolve", "blocked", "unblocked", "trigger",
                  "trigger-blocks", "battle", "break")
    RULES = {
        "attack": NOT_IN_SOURCES,
        "choose": OLD_507,
        "resolve": OLD_507,
        "blocked": OLD_507,
        "unblocked": OLD_507,
        "trigger": NOT_IN_SOURCES,
        "trigger-blocks": OLD_507,
        "battle": NOT_IN_SOURCES,
        "win": "104.2a",
        "ninja": "112.3c",
        "break": NOT_IN_SOURCES,
    }

    def redirected(self, fight: Fight, pid: str, ability: str) -> None:
        if ability == "blocker":  # it blocks as it taps and redirects the attack
            fight.attack.blocked = True
            fight.attack.blockers.append(pid)
            fight.event("block", self.rule("blocked"), source=pid,
                        target=fight.attack.attacker)

    def designate(self, fight: Fight, chosen: list[str], uses: list[str]) -> None:
        return None  # each block happened as its redirection resolved
