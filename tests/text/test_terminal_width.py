"""Text wrapped and cut by the columns a terminal shows it in (comparator.text.terminal): a
wide or fullwidth character (Japanese) takes two, a combining mark none; text without
spaces wraps between its characters; Latin words are still never cut, and Latin text wraps
as textwrap wrapped it."""

import re
import textwrap
import unicodedata

import pytest

from comparator.text.terminal import columns, cut, wrapped

# Duel Masters 507.1a as the official page of 2021-09-07 prints it
# (shared/reference/duel-masters-2021-09-07-official.txt).
RULE_507_1A = (
    "ブロッカーやガードマンなど、攻撃先を変更する能力を使用したい場合、非ターン・プレイヤーは"
    "その能力を使用できる1体以上のクリーチャーを選びます。複数体を選ぶ場合は同時に選びます。"
    "選ぶクリーチャーは、適正にその能力を使用できる状態でなければいけません。攻撃先を変更する"
    "能力を使用するために何らかの条件を必要とするクリーチャーは、その条件を満たせない状態では"
    "選ぶことができません。")
# Magic's 702.19b as the Comprehensive Rules of 2025-02-07 print it.
RULE_702_19B = (
    "The controller of an attacking creature with trample first assigns damage to the "
    "creature(s) blocking it. Once all those blocking creatures are assigned lethal damage, "
    "any excess damage is assigned as its controller chooses among those blocking creatures "
    "and the player, planeswalker, or battle the creature is attacking. When checking for "
    "assigned lethal damage, take into account damage already marked on the creature and "
    "damage from other creatures that\u2019s being assigned during the same combat damage "
    "step, but not any abilities or effects that might change the amount of damage that\u2019s "
    "actually dealt.")


def shown(text: str) -> int:
    """The columns a terminal shows `text` in, counted here: East Asian Wide and Fullwidth
    two, combining marks none, the rest one."""
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@pytest.mark.parametrize("width", [80, 40, 21])
def test_a_japanese_rule_wraps_within_the_width_and_loses_nothing(width):
    lines = wrapped(RULE_507_1A, width, "  ", "    ")
    assert all(shown(line) <= width for line in lines), lines
    assert "".join(line.strip() for line in lines) == RULE_507_1A
    # Broken between characters, not left to overflow: every line but the last is full
    # but for the next line's first word (a katakana word is kept whole when it fits on a
    # line), or a character and the one after it that must not begin a line.
    for line, after in zip(lines, lines[1:], strict=False):
        word = re.match(r"[\u30a0-\u30ff]+|.", after.strip()).group()
        assert shown(line) + min(shown(word), width - 6) >= width - 4, lines
    # A katakana word is split only when longer than a whole line.
    for line, after in zip(lines, lines[1:], strict=False):
        end = re.search(r"[\u30a0-\u30ff]*$", line).group()
        start = re.match(r"[\u30a0-\u30ff]*", after.strip()).group()
        assert not (end and start) or shown(end + start) > width - 6, lines
    # Closing punctuation never begins a line.
    assert not any(line.strip()[0] in "、。」ー" for line in lines)


def test_the_wrapped_japanese_rule_at_80_columns():
    lines = wrapped(RULE_507_1A, 80, "  ", "    ")
    # 373 columns of words: 78 on the first line, 74 on the others, less where a katakana
    # word would have been split (ターン・プレイヤー goes whole to the second line).
    assert len(lines) == 6
    assert lines[1].startswith("      ターン・プレイヤー")
    assert lines[0].startswith("  ブロッカーやガードマン") and lines[1].startswith("      ")


@pytest.mark.parametrize("width", [80, 57, 30, 20])
@pytest.mark.parametrize("indent", ["", "  "])
def test_latin_text_wraps_as_before(width, indent):
    before = textwrap.wrap(RULE_702_19B, width=width, initial_indent=indent,
                           subsequent_indent=indent + "    ", break_long_words=False,
                           break_on_hyphens=False)
    assert wrapped(RULE_702_19B, width, indent) == before


def test_latin_words_are_never_cut():
    word = "creature(s)-that-are-blocking-it-and-are-longer-than-a-line"
    lines = wrapped(f"A {word} is kept whole; {RULE_702_19B}", 30)
    assert word in lines[1] and lines[1].strip() == word  # alone on its line, whole
    # A katakana "word" longer than a line breaks between its characters.
    mixed = wrapped("ブロッカー" * 8 + " creature(s) " + "ガードマン" * 8, 24)
    assert any("creature(s)" in line for line in lines + mixed)
    assert all(shown(line) <= 24 for line in mixed)
    assert "".join(mixed).replace(" ", "") == ("ブロッカー" * 8 + "creature(s)"
                                               + "ガードマン" * 8)


def test_columns_count_wide_and_combining_characters():
    assert columns("507.1a") == 6 and columns("ブロッカー") == 10
    assert columns("ＡＢＣ") == 6  # fullwidth Latin
    accented = "e\u0301" * 30  # an e and a combining acute accent: one column each
    assert columns(accented) == 30
    assert wrapped(accented, 30) == [accented]


@pytest.mark.parametrize("width", [10, 11, 40])
def test_cut_counts_columns(width):
    short = cut(RULE_507_1A, width)
    assert shown(short) <= width and short.endswith("…")
    assert RULE_507_1A.startswith(short[:-1])
    assert cut("ブロッカー", 10) == "ブロッカー"  # exactly ten columns: whole
    assert cut("Trample", 20) == "Trample"
