"""The form's document written as YAML (what the workbench does on each edit in the form):
every shipped scenario reads back as the same document and runs the same, its paragraphs
folded as the shipped files fold them."""

from __future__ import annotations

import pytest
from workbench_server import SHIPPED

from comparator.serve.texts import document, json_safe, written

FILES = sorted(SHIPPED.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_written_document_reads_back_the_same(path):
    doc = document(path.read_text(encoding="utf-8"))
    text = written(doc)
    assert document(text) == doc
    description = doc.get("description")
    if isinstance(description, str) and description.endswith("\n") and \
            "\n" not in description.rstrip("\n"):
        assert "\ndescription: >\n" in text  # folded at the width, as it was written


def test_values_json_lacks_are_carried_as_text():
    import datetime

    assert json_safe({1: datetime.date(2009, 7, 8), "x": float("inf"), "y": {b"hi"}}) == {
        "1": "2009-07-08", "x": ".inf", "y": ["aGk="]}
