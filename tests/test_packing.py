"""How the store packs outcomes and scenarios (comparator/packing.py): every outcome of
every shipped scenario comes back byte for byte, a damaged value is an error, and codec
1's dictionaries never change (a database packed with them must stay readable)."""

from __future__ import annotations

import contextlib
import hashlib

import pytest

from comparator.data_files import shipped_scenarios
from comparator.encoding import ordered_json
from comparator.loader import load
from comparator.packing import (
    DICTIONARIES,
    SCENARIO,
    PackingError,
    outcome_columns,
    pack,
    scenario_key,
    unpack,
)
from comparator.running import run_all, scenario_json
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


def test_codec_1_dictionaries_are_frozen():
    found = {p.stem: hashlib.sha256(p.read_bytes()).hexdigest()
             for p in (DICTIONARIES / "codec-1").glob("*.zdict")}
    assert found == CODEC_1


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
