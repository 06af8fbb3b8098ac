"""How the store packs outcomes and scenarios (comparator/store/packing.py): every outcome of
every shipped scenario comes back byte for byte, a damaged value is an error, and a
codec's dictionaries never change (a database packed with them must stay readable): a
value codec 1 packed is still read."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json

import pytest

from comparator.compare.running import run_all, scenario_json
from comparator.files.locations import shipped_scenarios
from comparator.scenarios.loader import load
from comparator.store.packing import (
    CODEC,
    DICTIONARIES,
    SCENARIO,
    SUFFIX,
    PackingError,
    outcome_columns,
    pack,
    scenario_key,
    unpack,
)
from comparator.text.encoding import ordered_json
from versions import ERA_IDS

# Codec 1, frozen: a new dictionary is codec 2, beside these.
CODEC_1 = {
    "any-era": "1a5aa22dc98677b37b12e58539ac0e8481dbd8532ea619adb7ce51369b11716e",
    "dm-2021-09": "cff655edaa2cc30b6165d7c213db637ddece291e0fa1b9503b92ef9b84868e91",
    "dm-pre-2021-09": "79e85101e7dccd537881939ab5d0deab403666c4f43769dde11174e52d7f2fb6",
    "fifth": "251c5ce015d527ea47783856fc9e2ff84f62957737569497c6a405524d7ffaac",
    "foundations": "57fc13f799c4e7fbf97a292f53633a3ca46fde6cec6828c325e3a9e3235cf029",
    "fourth": "be71bd380dbb292d2dbc7d0aab34d802519ff868e251c41b010bf56f2c4daaee",
    "m10": "d9dc5d16b66a425e75214ca2a08ad63a048e206c995287d329f09592fb4708f5",
    "m11": "7bd22994c584cf495b787c58f1c5132ef4a8d4f5ccaf25bb20e7c5cb5450e946",
    "scenario": "a4c7fcf1c7adc4ab8061a92bc2aff72d519a9abb4e956c593013b8666dad5931",
    "sixth": "85daf20a8469ffef818c5dbea9a9d9a85abc925905dcb4823d0a35923c80cca2",
}


# Codec 2 (Zstandard), what is written now, frozen the same way.
CODEC_2 = {
    "any-era": "88c5493d027e845d8be762ae0841ad6ee52ae6703a67bc91b8f34a1eb4f17754",
    "dm-2021-09": "b048a0d04266d08cf4b1a10624156699da81b322b74df29609a5ea45ebef619a",
    "dm-pre-2021-09": "9577fecd2139beaa3042020429670d9f832f35cfcdfb4fd25ccfd000049c87f4",
    "fifth": "58369f8ad14ba980160c436674884e6d62a94460d01efe1f6234ebc442dba5a4",
    "foundations": "633c27513d17ad12689e3dc85f234dbfd2486fe58d8165ff66ebcc42803915ea",
    "fourth": "aff3bfb42532818b2c66ca6b73afc424fb6358c7c36c2163dfefd06b83cca601",
    "m10": "cb40fccd82621145a09f7df29fb8a6937f73109ce31cb717b48d013788f51216",
    "m11": "c126bb3012168235f24308e6f35941289e28fd00cee5f8beaa57386731019df0",
    "scenario": "a6cef81bb99f8921803cf9b7a89e2fbba30b8cee4b42fb3c625a5d43c89d0d69",
    "sixth": "9aeafc0274b88d6b900d67f167cf426a306cca9d9cbb89a2204a59de301061c2",
}

# An m10 outcome as the release of 2026-12-03 packed it (codec 1, zlib), and the digest
# of its text (the outcome of a-pump-for-each-blocker-against-a-triple-block then).
PACKED_BY_CODEC_1 = base64.b64decode("""
AXj5+h0D3c1d0QrDIAz8ImFrYLDPkdJtD4WV/f/DCFUb7RRXL5uPffFOjTFnQ5K7Pqzha9Pcni/D6VL+kBt7
t6x6jeUGfMvsTn9nwW9ac678XbyIpnlaHlwS+2tPfwme/hrHoqemF3emfO6kthpzGTriQj1wadYJ6w4LVxFs
EJQht26bMgCBAeJgQgwYKR+/dmGOjota1TRBZEuuq2NxvJiaAC30Wk2an46HBZkmXCrOBFbuxdAJtL1NNaTh
i8E25ea3MZOuN2KR4J1Zs0gE7wFbclnYZMqS78IjER5pH3TW2h441q01xF/BKjeNrTRRDdjhP7CkDfvhh7Bf
ZUQdNb90qLFIN+f2DfU4UlU=""")
TEXT_OF_CODEC_1 = "9be8fe827028a05863aec17d20b095afa64f8759f363eccc5ebd47a90b16c7a9"


@pytest.mark.parametrize(("codec", "frozen"), [(1, CODEC_1), (2, CODEC_2)])
def test_a_codec_s_dictionaries_are_frozen(codec, frozen):
    found = {p.name.removesuffix(SUFFIX[codec]): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in (DICTIONARIES / f"codec-{codec}").glob(f"*{SUFFIX[codec]}")}
    assert found == frozen


def test_a_value_codec_1_packed_is_still_read_and_new_values_are_codec_2():
    text = unpack(PACKED_BY_CODEC_1, "m10")
    assert hashlib.sha256(text.encode()).hexdigest() == TEXT_OF_CODEC_1
    assert json.loads(text)["era"] == "m10"
    assert CODEC == 2 and pack(text, "m10")[0] == 2
    assert len(pack(text, "m10")) < len(PACKED_BY_CODEC_1)  # why codec 2 came
    with pytest.raises(PackingError):
        unpack(PACKED_BY_CODEC_1, "m11")  # codec 1 names its dictionary too


def test_every_shipped_outcome_and_scenario_comes_back_byte_for_byte():
    packed = plain = 0
    for path in shipped_scenarios():
        scenario = load(path)
        text = ordered_json(scenario_json(scenario))
        assert unpack(pack(text, SCENARIO), SCENARIO) == text
        for era, outcome in run_all(scenario, list(ERA_IDS), refused={}).items():
            text = ordered_json(outcome)
            data = pack(text, era)
            assert unpack(data, era) == text
            packed, plain = packed + len(data), plain + len(text)
    assert packed < plain / 8  # what the dictionaries are for


def test_an_era_without_a_dictionary_of_its_own_packs_with_the_common_one():
    text = '{"schema":1,"scenario":"x","era":"a-future-era","events":[]}'
    assert unpack(pack(text, "a-future-era"), "a-future-era") == text


@pytest.mark.parametrize("data", [b"", b"\x01", b"\x01\xff\xff", b"\x07abc", None, "text",
                                  17, pack("{}", "m10")[:-1], pack("{}", "m10") + b"x"])
def test_a_damaged_value_is_an_error(data):
    with pytest.raises(PackingError):
        unpack(data, "m10")


def test_a_flipped_bit_or_the_wrong_dictionary_is_an_error_never_other_text():
    text = ordered_json(run_all(load(shipped_scenarios()[0]), ["m10"])["m10"])
    data = pack(text, "m10")
    for i in range(1, len(data)):
        for bit in range(8):
            damaged = data[:i] + bytes([data[i] ^ (1 << bit)]) + data[i + 1:]
            with contextlib.suppress(PackingError):
                assert unpack(damaged, "m10") == text  # only where the bit changed nothing
    with pytest.raises(PackingError):
        unpack(data, "m11")  # another era's dictionary


def test_the_scenario_key_is_the_hash_s_first_64_bits_signed():
    assert scenario_key("00" * 32) == 0
    assert scenario_key("ff" * 32) == -1
    assert scenario_key("7f" + "ff" * 31) == 2**63 - 1
    assert scenario_key(bytes.fromhex("80" + "00" * 31)) == -2**63


def test_the_plain_columns_of_each_game():
    mtg = {"players": {"A": {"life": 20, "lost": False}, "B": {"life": 0, "lost": True}},
           "permanents": {"a": {"zone": "graveyard"}, "b": {"zone": "battlefield"},
                          "c": {"zone": "battlefield"}}}
    assert outcome_columns(mtg) == {"life": '{"A":20,"B":0}', "losers": '["B"]',
                                    "zones": '{"battlefield":["b","c"],"graveyard":["a"]}'}
    dm = {"players": {"A": {"shields": 5, "lost": False}, "B": {"shields": 0, "lost": False}},
          "permanents": {"x": {"zone": "battlefield"}}}
    assert outcome_columns(dm) == {"life": None, "losers": "[]",
                                   "zones": '{"battlefield":["x"]}'}


def test_the_dictionaries_are_made_as_the_training_module_says(tmp_path):
    # How codec 2's were made, run again on fewer samples: a dictionary for every era and
    # for scenarios, that packs what it learnt from.
    from comparator.store.dictionary_training import samples, zstd_dictionary

    found = samples(generated=30)
    assert set(ERA_IDS) | {SCENARIO, "any-era"} <= set(found)
    made = zstd_dictionary(found["m11"])
    assert 0 < len(made) <= 32 * 1024
    import zstandard

    packer = zstandard.ZstdCompressor(level=12, dict_data=zstandard.ZstdCompressionDict(made))
    text = found["m11"][-1].encode()
    assert len(packer.compress(text)) < len(text) / 8


def test_threads_pack_and_unpack_at_once():
    # A Dask worker runs tasks in threads: each thread packs with its own compressor.
    from concurrent.futures import ThreadPoolExecutor

    texts = [(ordered_json(o), era) for path in shipped_scenarios()[:12]
             for era, o in run_all(load(path), list(ERA_IDS), refused={}).items()]

    def round_trips(_: int) -> bool:
        return all(unpack(pack(text, era), era) == text for text, era in texts * 5)

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(round_trips, range(16)))


def test_a_forged_value_is_refused_before_it_grows_too_large():
    import zstandard

    from comparator.store.packing import _FRAME, MOST_TEXT, _zstd_dictionary

    forge = zstandard.ZstdCompressor(dict_data=_zstd_dictionary("m10"),
                                     compression_params=_FRAME)
    bomb = b"\x02" + forge.compress(b"a" * (MOST_TEXT + 1))
    assert len(bomb) < 10_000
    with pytest.raises(PackingError, match="more than"):
        unpack(bomb, "m10")
    with pytest.raises(PackingError, match="more than"):
        pack("a" * (MOST_TEXT + 1), "m10")
    # A skippable frame (which carries no text), and a value followed by more bytes at
    # each length around the reader's steps, are errors too.
    skippable = b"\x02" + bytes.fromhex("502a4d18") + (4).to_bytes(4, "little") + b"abcd"
    with pytest.raises(PackingError):
        unpack(skippable, "m10")
    value = pack("x" * 3000, "m10")
    for extra in (1, 1024 - len(value) % 1024, 1025 - len(value) % 1024, 2048):
        with pytest.raises(PackingError):
            unpack(value + b"\x00" * extra, "m10")


def test_values_packed_together_land_in_their_own_rows():
    """A build packs a chunk's values dictionary by dictionary, after all have run: each
    row still holds its own value, as packing it alone gives it."""
    from comparator.compare.diffing import divergences
    from comparator.store.database import each_result_rows

    results = []
    for path in shipped_scenarios()[:12]:
        scenario = load(path)
        outcomes = run_all(scenario, list(ERA_IDS), refused={})
        results.append({"scenario": scenario_json(scenario), "outcomes": outcomes,
                        "divergences": divergences(outcomes)})
    rows = each_result_rows("test", results)
    assert len(rows) == len(results)
    for result, mine in zip(results, rows, strict=True):
        (scenario_row,) = mine["scenario"]
        text = ordered_json(result["scenario"])
        assert scenario_row["packed_json"] == pack(text, SCENARIO)
        assert [r["era"] for r in mine["run"]] == list(result["outcomes"])
        for row in mine["run"]:
            outcome = ordered_json(result["outcomes"][row["era"]])
            assert row["packed_outcome"] == pack(outcome, row["era"])
            assert row["scenario_key"] == scenario_row["scenario_key"]
