"""Saying a sentence in Japanese matches it against patterns whose slots match lazily: a
text longer than any rulesdiff writes, or sentences nested deeper than any it writes, is
said as written (comparator.text.language.bounded), so that a crafted scenario can't make
`validate --lang ja` or the Japanese workbench slow, or crash it on Python's recursion
limit."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from comparator.cli.main import app
from comparator.rules.spoken import said
from comparator.text.language import DEEPEST_SAID, LONGEST_SAID, speaking
from comparator.text.messages import message
from comparator.text.phrases import phrase


@pytest.mark.parametrize("say", [message, phrase, said])
def test_a_text_longer_than_any_sentence_is_said_as_written(say):
    long = "f: " * (LONGEST_SAID // 3 + 1)
    with speaking("ja"):
        assert say(long) == long
        assert say("f: " * 3000) == "f: " * 3000


def test_sentences_nested_deeper_than_any_are_said_as_written_below_the_depth():
    """`{file}: players: {why}` holds a sentence; one nested 80 deep is said down to the
    depth and as written below it, without reaching Python's recursion limit."""
    nested = "a: players: " * 80 + "x"
    assert len(nested) < LONGEST_SAID
    with speaking("ja"):
        said_ = message(nested)
    assert said_.endswith("a: players: " * (80 - DEEPEST_SAID) + "x")


def test_a_crafted_scenario_is_one_line_in_japanese_too(tmp_path):
    target = "a: players: " * 400
    path = tmp_path / "evil.yaml"
    path.write_text(f"""id: evil
title: a crafted attack target
players: [{{name: A}}, {{name: B}}]
permanents:
  - {{id: bear, controller: A, card: Grizzly Bears}}
combat:
  attacks: {{bear: "{target}"}}
""", encoding="utf-8")
    for lang in ("en", "ja"):
        done = CliRunner().invoke(app, ["validate", str(path), "--lang", lang],
                                  env={"COLUMNS": "80", "NO_COLOR": "1"})
        assert done.exit_code == 2, done.output
        assert "Traceback" not in done.output
