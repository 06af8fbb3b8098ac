"""How the packing dictionaries were made (`comparator/dictionaries/codec-N/`): samples of
what the store packs, each era's outcomes apart, concatenated with the most typical text
last (deflate reaches near text more cheaply). Run only to make a new codec's
dictionaries, never to replace a codec's: a database's packed rows need the very bytes
they were packed with.

    python -m comparator.dictionary_training comparator/dictionaries/codec-2
"""

from __future__ import annotations

import sys
from pathlib import Path

from comparator.encoding import ordered_json

SIZE = 32 * 1024  # deflate's window: a longer dictionary is cut to its last 32 KiB
SEED = 20261203  # generated samples: not a seed a dataset is likely to use
GENERATED = 400


def samples() -> dict[str, list[str]]:
    """Text to learn from, by dictionary name: each era's outcomes, and scenarios."""
    from comparator.games.mtg.generate import _parse, scenario_document
    from comparator.loader import load
    from comparator.running import run_all, scenario_json
    from comparator.shipped import scenario_rows
    from versions import ALL_ERAS

    eras = [e.id for e in ALL_ERAS]
    out: dict[str, list[str]] = {"scenario": [], "any-era": []}
    # Shipped scenarios first, generated last: a dictionary keeps its last 32 KiB, so it
    # learns from the boards most of a large dataset has; Duel Masters' eras only have
    # shipped ones.
    scenarios = [load(Path(row["file"])) for row in scenario_rows()]
    scenarios += [_parse(scenario_document(SEED, i)) for i in range(GENERATED)]
    for scenario in scenarios:
        out["scenario"].append(ordered_json(scenario_json(scenario)))
        for era, outcome in run_all(scenario, eras, refused={}).items():
            text = ordered_json(outcome)
            out.setdefault(era, []).append(text)
            out["any-era"].append(text)
    return out


def dictionary(texts: list[str]) -> bytes:
    joined = "".join(texts).encode()
    return joined[-SIZE:]


def main(folder: str) -> None:
    target = Path(folder)
    if target.exists() and any(target.iterdir()):
        sys.exit(f"{target} is not empty: a codec's dictionaries are never replaced")
    target.mkdir(parents=True, exist_ok=True)
    for name, texts in sorted(samples().items()):
        (target / f"{name}.zdict").write_bytes(dictionary(texts))
        print(f"{name}: {len(texts)} samples")


if __name__ == "__main__":
    main(sys.argv[1])
