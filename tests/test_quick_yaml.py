"""`quick_yaml` writes exactly PyYAML's text: on generated scenarios, on documents made to
reach each of PyYAML's rules (flow and block style, folding past the width, quoting), and on
random documents."""

import random

import pytest
import yaml

from comparator import quick_yaml
from comparator.games.mtg.generate import DUMPER, scenario_document


def pyyaml(doc):
    return yaml.dump(doc, Dumper=DUMPER, sort_keys=False, default_flow_style=None, width=100)


def written_directly(doc):
    """The text, and whether quick_yaml wrote it itself (not through PyYAML)."""
    try:
        return quick_yaml._document(doc), True
    except quick_yaml._NotPlain:
        return quick_yaml.dump(doc, DUMPER), False


def test_generated_scenarios_are_written_as_pyyaml_writes_them():
    direct = 0
    for seed in (1, 2):
        for index in range(300):
            doc = scenario_document(seed, index)
            text, ok = written_directly(doc)
            assert text == pyyaml(doc), (seed, index)
            direct += ok
    assert direct == 600  # none of them needed PyYAML


LONG = "first-strike-damage-on-stack"
CASES = {
    # flow items past the width: PyYAML goes on on a new line, two columns in
    "flow line broken": {"actions": [{"at": LONG, "by": "B", "effect": "damage", "target": "a2",
                                      "amount": 3, "card": "Lightning Bolt",
                                      "if-missing": "earlier"}]},
    # a scalar reaching past the width is folded at a space, two columns further in
    "scalar folded in flow": {"actions": [{"at": LONG[:-1], "by": "B", "effect": "damage",
                                           "target": "a2", "amount": 3,
                                           "cardxxxxxx": "Lightning Bolt Lightning Bolt",
                                           "if-missing": "earlier"}]},
    "scalar folded in block": {"title": " ".join(["word"] * 40),
                               "nested": {"deeper": [" ".join(["w"] * 80)]}},
    "nested block mapping, lists in it": {"combat": {"attacks": {"a1": "B", "a2": "B"},
                                                     "blocks": {"b1": "a1", "b2": ["a1", "a2"]},
                                                     "assign": {"a1": {"b1": 2, "b2": 1}}}},
    "block list of mappings with a block list": {"permanents": [
        {"id": "a1", "keywords": ["flying", {"rampage": 1}], "colors": ["red"]},
        {"id": "b1", "card": "Serra Angel"}]},
    # a comma is a flow indicator: unquoted in block style, quoted in a flow collection
    "comma in a name": {"card": "Akroma, Angel of Wrath", "cards": ["Akroma, Angel of Wrath",
                                                                    "Jace's Erasure"]},
    "empty collections": {"tags": [], "combat": {}, "x": [{}]},
    "booleans and numbers": {"tapped": True, "token": False, "power": -1, "n": 0},
    # PyYAML's to write: quoted strings, floats, null, anchors, lists in lists, long keys
    "strings PyYAML quotes": {"a": "yes", "b": "1", "c": "x: y", "d": "", "e": "#", "f": "~",
                              "g": "2020-01-01", "h": "Lim-Dûl", "i": " lead", "j": "0x1f"},
    "float and null": {"a": 1.5, "b": None},
    "object met twice": {"a": (shared := ["x", {"y": 1}]), "b": shared},
    "list in a list": {"a": [["x", {"y": 1}], "z"]},
    "long key": {"k" * 130: 1},
    # PyYAML writes a flow key of 128 characters or more as a complex key (`? key`)
    "long key in flow style": {"a": {"k" * 128: 1}, "b": {"k" * 129: 1}},
}


@pytest.mark.parametrize("name", CASES)
def test_each_rule_as_pyyaml(name):
    assert quick_yaml.dump(CASES[name], DUMPER) == pyyaml(CASES[name])
    # libyaml's writer and PyYAML's own agree, but for the length of a complex key
    plain = yaml.dump(CASES[name], Dumper=yaml.SafeDumper, sort_keys=False,
                      default_flow_style=None, width=100)
    assert quick_yaml.dump(CASES[name], yaml.SafeDumper) == plain


def test_what_it_writes_itself_and_what_it_leaves_to_pyyaml():
    for name in ("flow line broken", "scalar folded in flow", "scalar folded in block",
                 "comma in a name", "nested block mapping, lists in it"):
        assert written_directly(CASES[name])[1], name
    for name in ("strings PyYAML quotes", "float and null", "object met twice",
                 "list in a list", "long key", "long key in flow style"):
        assert not written_directly(CASES[name])[1], name
    assert "\n  if-missing: earlier}" in quick_yaml.dump(CASES["flow line broken"])


def test_random_documents():
    rng = random.Random(7)
    words = ["a1", "B", "Giant Growth", "Akroma, Angel of Wrath", LONG, "it's", "x,y", "z",
             " ".join("abcdefghijklmnopqrstuvwxyz"), "Jace, the Mind Sculptor's cousin"]
    quoted = ["yes", "1", "x: y", "(a)", "Lim-Dûl", "-", "1.5"]

    def word():
        return rng.choice(quoted if rng.random() < 0.003 else words)

    def value(depth):
        r = rng.random()
        if depth > 3 or r < 0.5:
            return rng.choice([word(), rng.randint(-3, 30), rng.random() < 0.5])
        if r < 0.75:
            return [value(depth + 1) for _ in range(rng.randint(0, 8))]
        return {word(): value(depth + 1) for _ in range(rng.randint(0, 8))}

    direct = 0
    for _ in range(1500):
        doc = {rng.choice(words[:5]) + str(i): value(0) for i in range(rng.randint(1, 6))}
        text, ok = written_directly(doc)
        assert text == pyyaml(doc), doc
        direct += ok
        back = quick_yaml.load(text)
        assert back is None or back == yaml.safe_load(text), doc
    assert 300 < direct < 1200  # the direct writing was exercised, not only PyYAML's


def test_what_it_writes_itself_it_reads_back_as_pyyaml_does():
    read = 0
    for seed in (3, 4):
        for index in range(200):
            text = quick_yaml.dump(scenario_document(seed, index))
            doc = quick_yaml.load(text)
            assert doc is not None and doc == yaml.safe_load(text)
            read += 1
    for name, doc in CASES.items():
        text, direct = written_directly(doc)
        back = quick_yaml.load(text)
        if name == "scalar folded in block":
            assert back is None  # not read here: never in a generated scenario
        elif direct:
            assert back == doc == yaml.safe_load(text), name
            assert type(back) is dict
        else:
            assert back is None, name  # PyYAML's text: PyYAML reads it


@pytest.mark.parametrize("text", [
    "a: 1\nb: 2",  # no line break at the end
    "a: 1\na: 2\n",  # a key written twice: the loader refuses it, never keeps one
    "a: 1  # a comment\n",
    "a: &x [1]\nb: *x\n",
    "a: yes\n",  # a boolean to YAML 1.1
    "a: 'x'\n",  # quoted where PyYAML would not quote
    'a: "x"\n',
    "a:\n\t- x\n",
    "a: [1, 2\n",
    "- a\n- b\n",  # not a mapping
    "a: 1.5\n",
    "a:   1\n",
    "a: [x, {b: 1}]\n",
    "---\na: 1\n",
    "a: {b: 'c, d}\n",
    "a: \n",  # an empty value (null), a space after the colon
    "a:\n- \n",
    "a: --1\n",  # strings to PyYAML, never whole numbers
    "a: [--1]\n",
    "a: ²\n",
    "a: -0\n",
    "a: {" + "k" * 1025 + ": 1}\n",  # a key too long for PyYAML, which refuses the text
])
def test_any_other_text_is_left_to_pyyaml(text):
    assert quick_yaml.load(text) is None


def test_a_document_nested_deeper_than_python_recurses_is_left_to_pyyaml():
    deep = "".join("  " * i + f"k{i}:\n" for i in range(3000)) + "  " * 3000 + "x: 1\n"
    assert quick_yaml.load(deep) is None


def test_the_strings_remembered_are_bounded():
    for i in range(quick_yaml.TEXTS_KEPT + 500):
        quick_yaml.dump({"id": f"gen-1-{i:07d}"})
    assert len(quick_yaml._texts) <= quick_yaml.TEXTS_KEPT


def test_the_loader_still_refuses_a_key_written_twice():
    from comparator.loader import load_yaml

    with pytest.raises(yaml.YAMLError, match="written twice"):
        load_yaml("a: 1\na: 2\n")
