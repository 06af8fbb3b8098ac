"""Magic's written blocks checked before anything runs (a scenario whose blocks some era's
rules refuse is a problem of the file: the dataset and the generator drop or refuse it),
and the report of `rulesdiff blocks`, every legal declaration."""

from __future__ import annotations

from typing import Any

from versions import NotInEra, find_era
from versions.mtg.engine.blocks import check_blocks, describe, written
from versions.mtg.engine.combat import IllegalBlocks
from versions.mtg.engine.setup import new_board
from versions.mtg.engine.state import Board
from versions.mtg.play import refuse
from versions.mtg.scenario import Scenario


def blocks_refused(scenario: Scenario, eras: list[str], board: Board | None = None
                   ) -> list[IllegalBlocks] | None:
    """Each era of `eras` (Magic's) whose rules refuse the written blocks, with what it
    refuses (said once for all of them: ``running.illegal_choice``), or None. `board`: the
    scenario's as combat begins, under any era, where the caller has built it already."""
    refused = []
    declared = written(scenario.combat)
    # As combat begins: built once (``new_board`` builds it alike for every era), then read
    # under each era.
    for era in eras:
        rules = find_era(era)()
        try:
            refuse(rules, scenario)
        except NotInEra:
            continue  # that era won't run it: not a problem of the blocks
        board = new_board(rules, scenario) if board is None else board.under(rules)
        problems = check_blocks(board, declared)
        if not problems and not refused:
            # Blocks one era allows, every era allows: ``check_blocks`` reads the era only
            # to cite its rules (a test holds it to that).
            return None
        if problems:
            refused.append(IllegalBlocks(era, problems))
    return refused or None


# Block choices a survey examines at most unless `--limit` says otherwise.
SURVEY_LIMIT = 1_000_000


def too_many(file: str, era_id: str, what: str, big: Any) -> Any:
    """The one line said when a `blocks` question would examine more than its limit."""
    from comparator.files.problems import Problem, ScenarioError

    return ScenarioError([Problem(file, "", (
        f"{era_id}: {what}: more than {big.limit:,} block choices to examine (the limit); "
        f"raise --limit to answer it"))])


def block_survey(scenario: Any, era_id: str, file: str, limit: int = SURVEY_LIMIT
                 ) -> tuple[dict[str, Any], list[str]]:
    """`rulesdiff blocks`: every legal block declaration of a Magic scenario under an era,
    as JSON and as the report's lines; another game's scenario is a ScenarioError, and so
    is a survey that would examine more than `limit` block choices."""
    from comparator.files.problems import Problem, ScenarioError
    from versions.mtg import play
    from versions.mtg.engine.blocks import TooManyDeclarations

    rules = find_era(era_id)
    if scenario.game != rules.game:
        raise ScenarioError([Problem(file, "game", (
            f"`blocks` lists Magic's block declarations, and this is a {scenario.game} "
            f"scenario" + ("; `explore --blocks all` lists every redirection a Duel Masters "
                           "defender can choose" if scenario.game == "duel-masters" else "")))])
    try:
        found = play.block_survey(rules(), scenario, limit)
    except NotInEra as refusal:
        raise ScenarioError([Problem(file, "", f"{era_id} can't run this scenario: "
                                               f"{refusal.why}")]) from None
    except TooManyDeclarations as big:
        raise too_many(file, era_id, "the survey", big) from None
    doc = {"scenario": scenario.id, "era": era_id, **found}
    return doc, survey_lines(scenario.id, found, rules.rule("block-requirement"))


def survey_lines(scenario_id: str, found: dict[str, Any], rule: str) -> list[str]:
    """`rulesdiff blocks`' report: how many declarations break no restriction, the
    requirements, and each declaration with what it obeys (the maximal ones starred);
    where several defending players declare, each one's in APNAP order."""
    from comparator.text.language import _

    if "by_player" in found:
        return [line for part in found["by_player"] for line in survey_lines(
            _("{scenario}: {player} declares").format(scenario=scenario_id,
                                                       player=part["player"]), part, rule)]
    reqs = found["requirements"]
    out = [_("{scenario}: {count} block declaration(s) break no restriction; {maximal} obey "
             "the most requirements that can be obeyed ({rule})").format(
        scenario=scenario_id, count=found["count"],
        maximal=f"{found['maximal']}{'' if found['complete'] else '+'}", rule=rule)]
    for r in reqs:
        out.append(_("  requirement: {creature} must block {attackers}").format(
            creature=r["creature"], attackers=r["must_block"]) if r["must_block"] else
            _("  requirement: {creature} blocks if able").format(creature=r["creature"]))
    if found["sample"]:
        out.append(_("  (showing {n}, the maximal ones first)").format(
            n=len(found["declarations"])))
    for d in found["declarations"]:
        mark = "*" if d["maximal"] else " "
        cost = _(", costs {cost}").format(cost=d["cost"]) + (
            "" if d["affordable"] else _(" (can't pay)")) if d["cost"] else ""
        declared = describe({b: tuple(a) for b, a in d["blocks"].items()})
        out.append(_("{mark} {declaration}  obeys {n}{cost}").format(
            mark=mark, declaration=_("no blocks") if declared == "no blocks" else declared,
            n=d["requirements_obeyed"], cost=cost))
    return out


def can_block_answers(scenario: Any, eras: list[str], blocker: str, attacker: str,
                      file: str, limit: int = SURVEY_LIMIT) -> dict[str, Any]:
    """`rulesdiff blocks --can`: for each era, whether `blocker` may block `attacker`, with
    the rule that forbids it (or why the era can't run the scenario at all)."""
    from comparator.files.problems import Problem, ScenarioError
    from versions.mtg import play
    from versions.mtg.engine.blocks import TooManyDeclarations

    ids = {p.id for p in scenario.permanents}
    for role, name in (("blocker", blocker), ("attacker", attacker)):
        if name not in ids:
            raise ScenarioError([Problem(file, "", f"--can: no permanent {name!r} (the "
                                                   f"{role}) in the scenario")])
    if attacker not in scenario.combat.attacks:
        raise ScenarioError([Problem(file, "", f"--can: {attacker} does not attack in "
                                               f"this scenario")])
    out: dict[str, Any] = {}
    for era_id in eras:
        try:
            found = play.can_block(find_era(era_id)(), scenario, blocker, attacker, limit)
        except NotInEra as refusal:
            out[era_id] = {"refused": refusal.why}
            continue
        except TooManyDeclarations as big:
            raise too_many(file, era_id, f"--can {blocker} {attacker}", big) from None
        out[era_id] = {"can": found is None, "rule": found[0] if found else None,
                       "why": found[1] if found else None}
    return {"scenario": scenario.id, "blocker": blocker, "attacker": attacker, "eras": out}




