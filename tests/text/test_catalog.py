"""The translators' catalogs (docs/translating.md): every message the code marks is in the
template and in the Japanese catalog, translated, none fuzzy; the shipped `.mo` is the
compiled `.po`; a translation adds no placeholder its message lacks."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "comparator" / "locale"


def _marked() -> set[str]:
    from babel.messages.extract import extract_from_dir

    found = set()
    for folder in ("comparator", "versions"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python"),
                                           ("**/templates/**.html", "jinja2")],
                options_map={"**/templates/**.html": {
                    "trimmed": "true", "extensions": "jinja2.ext.i18n"}},
                keywords={"_": None, "N_": None, "ngettext": (1, 2), "gettext": None}):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def _catalog(path: Path):
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f)


def test_every_marked_message_is_in_the_template_and_translated():
    marked = _marked()
    template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in
                _catalog(LOCALE / "rulesdiff.pot") if m.id}
    assert marked <= template, sorted(marked - template)[:10]
    japanese = _catalog(LOCALE / "ja" / "LC_MESSAGES" / "rulesdiff.po")
    assert not japanese.fuzzy
    untranslated, fuzzy = [], []
    for m in japanese:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if not all(strings):
            untranslated.append(key)
        if m.fuzzy:
            fuzzy.append(key)
    ids = {m.id[0] if isinstance(m.id, tuple) else m.id for m in japanese if m.id}
    assert template <= ids, sorted(template - ids)[:10]
    assert not untranslated, untranslated[:10]
    assert not fuzzy, fuzzy[:10]


def test_a_translation_keeps_its_placeholders():
    fields = string.Formatter()
    for m in _catalog(LOCALE / "ja" / "LC_MESSAGES" / "rulesdiff.po"):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = {f for _t, f, _s, _c in fields.parse(ids[0]) if f is not None}
        for s in strings:
            got = {f for _t, f, _s, _c in fields.parse(s) if f is not None}
            # None new (it could not be filled); one left out only where the language
            # says it once ("{kind} ... {kinds}": Japanese has no plural).
            assert got <= wanted and len(wanted - got) <= 1, (ids[0], s)


def test_the_shipped_mo_is_the_compiled_po():
    from babel.messages.mofile import write_mo

    compiled = io.BytesIO()
    write_mo(compiled, _catalog(LOCALE / "ja" / "LC_MESSAGES" / "rulesdiff.po"))
    shipped = gettext.GNUTranslations(
        (LOCALE / "ja" / "LC_MESSAGES" / "rulesdiff.mo").open("rb"))
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)
    assert shipped._catalog == fresh._catalog  # noqa: SLF001 - the messages themselves


def test_the_patterns_read_back_what_the_engine_writes():
    """A pattern of `PHRASES` matches the English sentence it was written from, and its
    Japanese keeps no English word but the names."""
    from comparator.text.language import speaking
    from comparator.text.phrases import phrase

    with speaking("ja"):
        said = phrase("linker's lifelink trigger (502.68a) never resolved: the "
                      "state-based actions (420.5a) that are checked before it ended the "
                      "game first.")
        assert said.startswith("linker の絆魂の誘発型能力（502.68a）")
        assert phrase("the game is over: A wins") == "A の勝利"
        assert phrase("something no pattern knows") == "something no pattern knows"
    assert phrase("the game is over: A wins") == "the game is over: A wins"
    assert not re.search(r"[a-z]{4,}", said.replace("linker", ""))


def test_a_page_message_keeps_its_placeholders():
    """The templates' messages are filled with %(name)s: a translation has the same
    ones, and a literal percent sign doubled (%%), or the page fails to render."""
    named = re.compile(r"%\((\w+)\)s")
    for m in _catalog(LOCALE / "ja" / "LC_MESSAGES" / "rulesdiff.po"):
        if not m.id or isinstance(m.id, tuple) or not named.search(m.id):
            continue
        assert set(named.findall(m.string)) == set(named.findall(m.id)), (m.id, m.string)
        bare = named.sub("", m.string).replace("%%", "")
        assert "%" not in bare, (m.id, m.string)
