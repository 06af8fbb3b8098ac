"""A scenario document written as JSON (as `dataset generate` writes them) is read by the C
JSON decoder, and must give exactly what YAML gives for it: on generated scenarios, and on
the corners where JSON and YAML 1.1 read one text otherwise, which go to YAML."""

import json

import pytest
import yaml

from comparator.files.documents import UniqueKeyLoader, _as_json, load_yaml
from comparator.games.mtg.generate import scenario_document, to_text


def yaml_reads(text: str):
    return yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a safe loader


def test_generated_scenarios_read_as_yaml_reads_them():
    for i in range(300):
        text = to_text(scenario_document(29, i))
        assert text.startswith("{\n") and text.endswith("\n}\n")
        fast = _as_json(text)
        assert fast is not None, text  # the fast path took it
        assert fast == yaml_reads(text) == load_yaml(text) == scenario_document(29, i)


def test_a_generated_file_is_one_field_a_line():
    doc = scenario_document(29, 0)
    lines = to_text(doc).splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    assert [json.loads("{" + line.rstrip(",") + "}") for line in lines[1:-1]] == \
        [{k: v} for k, v in doc.items()]


@pytest.mark.parametrize("text, read", [
    ('{"id": "a", "life": 1e5}', {"id": "a", "life": "1e5"}),  # YAML 1.1: a string
    ('{"id": "a", "life": 1.5e5}', {"id": "a", "life": "1.5e5"}),
    ('{"id": "a", "life": NaN}', {"id": "a", "life": "NaN"}),
    ('{"id": "a", "life": Infinity}', {"id": "a", "life": "Infinity"}),
    ('{"id": "a\\/b"}', {"id": "a/b"}),
    ('{"id": "a",\t"n": 1}', None),  # a tab: YAML's to read (or refuse)
    ('{"id": "a", "n": 2.5}', {"id": "a", "n": 2.5}),
    ('{"id": "é", "n": -0, "ok": true, "none": null}',
     {"id": "é", "n": 0, "ok": True, "none": None}),
])
def test_where_json_and_yaml_differ_yaml_reads_it(text, read):
    try:
        expected = yaml_reads(text)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):
            load_yaml(text)
        return
    if read is not None:
        assert expected == read
    assert load_yaml(text) == expected
    assert type(load_yaml(text)["id"]) is str


def test_a_key_written_twice_is_refused_with_its_line_as_in_yaml():
    text = '{\n  "id": "a",\n  "id": "b"\n}\n'
    assert _as_json(text) is None
    with pytest.raises(yaml.YAMLError, match="written twice"):
        load_yaml(text)


def test_malformed_or_too_deep_json_is_yamls_to_judge():
    with pytest.raises(yaml.YAMLError):
        load_yaml('{"id": "a", "n": [1, 2}')
    deep = "{" + '"a": [' * 5000 + "]" * 5000 + "}"
    assert _as_json(deep) is None  # the decoder's recursion limit: YAML's loader says it
