"""Which of the engine's sentences (notes, hints, refusals) the shipped scenarios meet in
every era have no Japanese pattern yet (issue 52 is not done): the list is kept in
`untranslated-sentences.txt`, each sentence with its numbers and names blurred. A sentence
met that is not in the list fails the test: a new sentence of the engine needs its pattern
in comparator/text/phrases.py (docs/translating.md). One the list has and no longer meets
is said, so that the list only shrinks."""

from __future__ import annotations

import re
from pathlib import Path

KEPT = Path(__file__).with_name("untranslated-sentences.txt")
ROOT = Path(__file__).resolve().parents[2]


def blurred(text: str) -> str:
    return re.sub(r"\d+", "N", text)


def unmatched() -> set[str]:
    from comparator.compare.running import era_ids, run_all
    from comparator.scenarios.loader import load
    from comparator.text.language import speaking
    from comparator.text.phrases import phrase

    found: set[str] = set()
    for path in sorted((ROOT / "data" / "scenarios").glob("*.yaml")):
        scenario = load(path)
        refused: dict[str, str] = {}
        outcomes = run_all(scenario, era_ids(None), str(path), refused)
        with speaking("ja"):
            texts = [n["text"] for o in outcomes.values() for n in o["notes"]]
            texts += list(refused.values())
            found |= {blurred(t) for t in texts if phrase(t) == t}
    return found


def test_no_sentence_of_the_engine_is_left_untranslated_unknowingly():
    kept = {line for line in KEPT.read_text(encoding="utf-8").splitlines() if line}
    now = unmatched()
    assert not now - kept, sorted(now - kept)[:5]
    assert not kept - now, ("translated now, to take off the list", sorted(kept - now)[:5])
