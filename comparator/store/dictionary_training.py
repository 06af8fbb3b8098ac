"""How the packing dictionaries were made (`comparator/dictionaries/codec-N/`), from samples
of what the store packs, each era's outcomes apart: codec 1's by concatenating them with
the most typical text last (deflate reaches near text more cheaply); codec 2's by
Zstandard's trainer, from the same samples. Run only to make a new codec's dictionaries,
never to replace a codec's: a database's packed rows need the very bytes they were packed
with.

    python -m comparator.store.dictionary_training DIR/codec-N

N is a codec of `MAKERS`, the folder new or empty. Made again, codec 2's come out byte for
byte as shipped (the samples are drawn with a fixed seed; the trainer is deterministic),
as long as the engine's outcomes for them are unchanged.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from comparator.store.packing import CODEC, SUFFIX, ZSTD_LEVEL
from comparator.text.encoding import ordered_json

# deflate's window: a longer dictionary is cut to its last 32 KiB. Zstandard's trainer was
# tried at 16, 32 and 64 KiB: 32 packed outcomes smallest.
SIZE = 32 * 1024
SEED = 20261203  # generated samples: not a seed a dataset is likely to use
GENERATED = 400


def samples(generated: int = GENERATED) -> dict[str, list[str]]:
    """Text to learn from, by dictionary name: each era's outcomes, and scenarios."""
    from comparator.compare.running import run_all, scenario_json
    from comparator.games.mtg.generate import scenario_document, to_text
    from comparator.scenarios.loader import load, parse
    from comparator.scenarios.shipped import scenario_rows
    from versions import ALL_ERAS

    eras = [e.id for e in ALL_ERAS]
    out: dict[str, list[str]] = {"scenario": [], "any-era": []}
    # Shipped scenarios first, generated last: a dictionary keeps its last 32 KiB, so it
    # learns from the boards most of a large dataset has; Duel Masters' eras only have
    # shipped ones.
    scenarios = [load(Path(row["file"])) for row in scenario_rows()]
    scenarios += [parse(to_text(scenario_document(SEED, i)), f"<generated {i}>")
                  for i in range(generated)]
    for scenario in scenarios:
        out["scenario"].append(ordered_json(scenario_json(scenario)))
        for era, outcome in run_all(scenario, eras, refused={}).items():
            text = ordered_json(outcome)
            out.setdefault(era, []).append(text)
            out["any-era"].append(text)
    return out


def zlib_dictionary(texts: list[str]) -> bytes:
    """Codec 1's: the samples' last 32 KiB."""
    joined = "".join(texts).encode()
    return joined[-SIZE:]


def zstd_dictionary(texts: list[str]) -> bytes:
    """Codec 2's: trained for the level values are packed at; where the samples are too
    few to train on (Duel Masters' eras have only their shipped scenarios), their text
    itself, as codec 1's (Zstandard reads either kind)."""
    import zstandard

    encoded = [t.encode() for t in texts]
    try:
        return zstandard.train_dictionary(SIZE, encoded, level=ZSTD_LEVEL).as_bytes()
    except zstandard.ZstdError:
        return zlib_dictionary(texts)


# How each codec's dictionaries are made. A new codec adds its own here, in
# ``comparator.store.packing`` (CODEC, CODECS, SUFFIX and its reading) and in the pinned digests
# of tests/store/test_packing.py.
MAKERS = {1: zlib_dictionary, 2: zstd_dictionary}


def main(folder: str) -> None:
    """Make the dictionaries of the codec the folder is named for (``codec-N``)."""
    target = Path(folder)
    codec = int(target.name.removeprefix("codec-")) if re.fullmatch(
        r"codec-\d+", target.name) else None
    if codec not in MAKERS:
        sys.exit(f"{target}: name the folder codec-N, N a codec this rulesdiff makes "
                 f"({', '.join(map(str, MAKERS))}; it writes codec {CODEC})")
    if target.exists() and any(target.iterdir()):
        sys.exit(f"{target} is not empty: a codec's dictionaries are never replaced")
    target.mkdir(parents=True, exist_ok=True)
    for name, texts in sorted(samples().items()):
        (target / f"{name}{SUFFIX[codec]}").write_bytes(MAKERS[codec](texts))
        print(f"{name}: {len(texts)} samples")


if __name__ == "__main__":
    main(sys.argv[1])
