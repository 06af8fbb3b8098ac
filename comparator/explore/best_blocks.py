"""`rulesdiff blocks --best`: the block declaration a defending player makes with best play
in each era, found by exploring every legal declaration (Magic)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def best_blocks(scenario: Any, eras: list[str], objective: str, file: str,
                limit: int | None = None, jobs: int = 1,
                progress: Callable[[str, int], None] | None = None) -> dict[str, Any]:
    """`rulesdiff blocks --best`: for each era, the block declaration the defending player
    makes with best play (explore with every legal declaration, contract §6.3's value
    under `objective`): the first decision of the value's line, with the score and the
    rest of the line. An era that can't run the scenario says why. The eras are searched
    in `jobs` processes; one refused as too large stops the others. `progress` is told
    of each era's search as `explore` tells it."""
    from comparator.explore.eras import TooLarge, Unsupported, explore
    from comparator.files.problems import Problem, ScenarioError
    from comparator.games.exploration import DEFAULT_LIMIT

    out: dict[str, Any] = {}
    try:
        doc = explore(scenario, eras, objective=objective, blocks="all",
                      limit=limit or DEFAULT_LIMIT, progress=progress, jobs=jobs)
    except TooLarge as big:
        raise ScenarioError([Problem(file, "", f"best blocks: {big}; {big.advice()}")]) \
            from None
    except Unsupported as cannot:
        raise ScenarioError([Problem(file, "", f"best blocks: {cannot}")]) from None
    for era_id in eras:
        if era_id in doc.get("refused", {}):
            out[era_id] = {"refused": doc["refused"][era_id]}
            continue
        value = doc["eras"][era_id]["value"]
        line = value["line"] if value else []
        # Each defending player's declaration, where several declare in turn (802.4).
        declared: dict[str, Any] = {}
        for d in line:
            if d["kind"] == "blocks":
                declared.update(d["choice"])
        out[era_id] = {"blocks": declared, "score": value["score"] if value else None,
                       "line": line}
    return {"scenario": scenario.id, "objective": objective, "eras": out}


def blocks_said(declared: dict[str, Any]) -> str:
    """A declaration in words: "dreadmaw blocks goliath", or "no blocks" (in the language
    spoken; names as written)."""
    from comparator.text.language import _

    if not declared:
        return _("no blocks")
    return _("; ").join(_("{blocker} blocks {attackers}").format(
        blocker=b, attackers=a if isinstance(a, str) else ", ".join(a))
        for b, a in sorted(declared.items()))
