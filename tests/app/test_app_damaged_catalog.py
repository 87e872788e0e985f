"""A damaged translation catalog does not stop the app: English, said once.

``fastmine.mo`` cut short or overwritten with garbage raised out of
``gettext`` (OSError 'Bad magic number', struct.error, UnicodeDecodeError,
IndexError...) in ``set_language``, which the app calls before it builds any
widget: the app did not start.  Now the language falls back to English, one
warning goes to the log (once, however often the language is set) and
:func:`fastmine.app.text.i18n.catalog_note` says why.
"""

from __future__ import annotations

import logging
import random
import shutil

import pytest

from fastmine.app.text import i18n


@pytest.fixture
def locale_dir(tmp_path, monkeypatch):
    """A copy of the shipped German catalog in a folder of its own."""
    folder = tmp_path / "locale" / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / "fastmine.mo", folder / "fastmine.mo")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(i18n, "_warned", set())
    yield folder / "fastmine.mo"
    i18n.set_language("en")


def _damages(good: bytes):
    rng = random.Random(7)
    yield "empty", b""
    yield "cut short", good[:len(good) // 3]
    yield "header only", good[:28]
    yield "garbage", rng.randbytes(len(good))
    for k in range(40):                      # a few bytes changed, or cut anywhere
        b = bytearray(good)
        if k % 2:
            b = b[:rng.randrange(1, len(b))]
        else:
            for _ in range(8):
                b[rng.randrange(len(b))] = rng.randrange(256)
        yield f"mutated {k}", bytes(b)


def test_a_damaged_catalog_falls_back_to_english_and_says_so_once(locale_dir, caplog):
    good = locale_dir.read_bytes()
    assert i18n.set_language("de") == "de" and i18n.catalog_note() is None
    refused = 0
    for name, bad in _damages(good):
        locale_dir.write_bytes(bad)
        i18n._warned.clear()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="kivy"):
            code = i18n.set_language("de")
            again = i18n.set_language("de")
        assert code == again
        if code == "en":
            refused += 1
            assert i18n._("Hint") == "Hint", name
            assert "German" in i18n.catalog_note() or "Deutsch" in i18n.catalog_note()
            warnings = [r for r in caplog.records if "translation" in r.getMessage()]
            assert len(warnings) == 1, (name, warnings)     # once, not at every call
        else:
            assert i18n.catalog_note() is None
    assert refused >= 4
    locale_dir.write_bytes(good)
    assert i18n.set_language("de") == "de" and i18n.catalog_note() is None


def test_a_catalog_far_too_big_is_not_read(locale_dir):
    with open(locale_dir, "r+b") as f:
        f.truncate(i18n.MAX_CATALOG_BYTES + 1)     # sparse: nothing is written
    assert i18n.set_language("de") == "en"
    assert "too big" in i18n.catalog_note()
