"""The app's translations: complete catalogs, placeholders and plurals, up to date with
the sources, compiled .mo files that match their .po, and fonts that draw every
character a catalog uses (no string drawn as boxes).  No window needed."""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "src" / "fastmine" / "app"
LOCALE = APP / "text" / "locale"
SHIPPED = ("de", "es", "fr", "id", "it", "ja", "ko", "nl", "pl", "pt_BR", "ru", "tr", "uk", "vi",
           "zh_CN")
"""Every language the app ships, each with a complete catalog (issue 34 took it from 8
to 16 with Korean, Italian, Polish, Ukrainian, Turkish, Vietnamese, Indonesian, Dutch)."""
SAME_NOUN_AFTER_A_NUMBER = ("tr", "vi")
"""Languages where CLDR tells one from other but the words do not change: a Turkish
noun after a number stays singular (1 mayın, 2 mayın), a Vietnamese one has no
plural (1 mìn, 2 mìn; the CLDR of Babel 2.19 gives Vietnamese 'one' for 0 and 1,
its gettext table one form: the catalog has two forms, alike)."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def catalog(code: str):
    with (LOCALE / code / "LC_MESSAGES" / "fastmine.po").open("rb") as f:
        return read_po(f, locale=code)


def template():
    with (LOCALE / "fastmine.pot").open("rb") as f:
        return read_po(f)


def forms(message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def ids(message) -> list[str]:
    return list(message.id) if isinstance(message.id, tuple) else [message.id]


def test_every_language_of_the_setting_has_a_catalog():
    from fastmine.app.text.i18n import LANGUAGES, available

    assert set(LANGUAGES) == {"en", *SHIPPED}
    assert all(available(code) for code in LANGUAGES)


@pytest.mark.parametrize("code", SHIPPED)
def test_the_catalog_is_complete_with_matching_placeholders_and_plurals(code):
    cat, pot = catalog(code), template()
    want = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in pot if m.id}
    have = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in cat if m.id}
    assert want - have == set(), f"{code}: messages missing from the catalog"
    assert have - want == set(), f"{code}: messages the app no longer has"
    nplurals = cat.num_plurals  # the catalog's own rule (test_the_plural_rule_...)
    for m in cat:
        if not m.id:
            continue
        assert not m.fuzzy, f"{code}: fuzzy {m.id!r}"
        strings = forms(m)
        assert all(strings), f"{code}: untranslated {m.id!r}"
        if isinstance(m.id, tuple):
            assert len(strings) == nplurals, f"{code}: {len(strings)} plural forms for {m.id!r}"
        english = set(PLACEHOLDER.findall(" ".join(ids(m))))
        for s in strings:
            got = set(PLACEHOLDER.findall(s))
            # a plural form may leave the count out ("une" for 1); nothing else may go
            assert got <= english, f"{code}: {s!r} has {got - english} that {m.id!r} has not"
            if not isinstance(m.id, tuple):
                assert got == english, f"{code}: {s!r} lacks {english - got}"
            s.format(**{p.strip("{}"): 1 for p in got})  # formats as the app formats it
            assert s.count("[b]") == " ".join(ids(m)).count("[b]")  # markup kept


@pytest.mark.parametrize("code", SHIPPED)
def test_the_compiled_catalog_is_the_catalog(code):
    # The .mo files ship (committed); they must say exactly what the .po says.
    buf = io.BytesIO()
    write_mo(buf, catalog(code), use_fuzzy=False)
    buf.seek(0)
    fresh = gettext.GNUTranslations(buf)
    with (LOCALE / code / "LC_MESSAGES" / "fastmine.mo").open("rb") as f:
        shipped = gettext.GNUTranslations(f)
    # The messages and the plural rule, not the header's other lines: those name the
    # Babel that compiled the file ("Generated-By"), which a newer release changes.
    assert messages(shipped) == messages(fresh), f"run: python scripts/i18n.py compile ({code})"
    for n in PLURAL_COUNTS:
        assert shipped.plural(n) == fresh.plural(n), f"{code}: plural rule for {n}"


def messages(t: gettext.GNUTranslations) -> dict:
    return {k: v for k, v in t._catalog.items() if k != ""}  # "" is the header


PLURAL_COUNTS = (*range(0, 1001), 10_000, 100_000, 1_000_000, 1_000_001, 2_000_000,
                 10_000_000, 1_000_000_000)
"""Counts that tell apart every plural form CLDR gives the shipped languages (the
ends of 10s and 100s of Russian, the exact millions of Spanish, French and
Portuguese)."""

@pytest.mark.parametrize("code", SHIPPED)
def test_the_plural_rule_tells_apart_every_form_of_the_babel_in_use(code):
    """The catalog's plural rule (its Plural-Forms header, which gettext uses at run
    time) must tell apart every two counts that the CLDR rules of the installed Babel
    put in different categories: Babel 2.19 gave Spanish, French and Portuguese a
    third form for exact millions, and a two-form catalog then wrote "1 000 000
    minas" for "1 000 000 de minas".  A catalog finer than an older Babel's rules is
    fine (it follows the newer CLDR).  On failure: python scripts/i18n.py update,
    translate the messages it marks, compile."""
    from babel import Locale

    cat = catalog(code)
    rule = gettext.c2py(cat.plural_expr)
    cldr = Locale.parse(code).plural_form
    forms: dict[str, set[int]] = {}
    for n in PLURAL_COUNTS:
        forms.setdefault(cldr(n), set()).add(rule(n))
    together = [(a, b) for a in forms for b in forms if a < b and forms[a] & forms[b]]
    assert together == [], f"{code}: the catalog gives one form to CLDR's {together}"
    # and every form of the catalog is reached by some count
    assert {rule(n) for n in PLURAL_COUNTS} == set(range(cat.num_plurals))


@pytest.mark.parametrize("code", SHIPPED)
def test_each_plural_form_is_chosen_by_real_counts(code):
    """Through the compiled catalog, as the app reads it: the forms gettext picks for
    1, 2 and 1,000,000 mines (and Russian's 5) are the catalog's forms for those
    counts, and counts of different CLDR categories get different words."""
    from babel import Locale

    from fastmine.app.text.i18n import KeptTogether, keep_cjk_together

    with (LOCALE / code / "LC_MESSAGES" / "fastmine.mo").open("rb") as f:
        t = KeptTogether(f)
    cat = catalog(code)
    rule = gettext.c2py(cat.plural_expr)
    cldr = Locale.parse(code).plural_form
    m = cat.get("{n} mine")
    assert m is not None and isinstance(m.string, tuple)
    counts = sorted({1, 2, 5, 21, 1_000_000, 2_000_000})
    words = {n: t.ngettext("{n} mine", "{n} mines", n).format(n=n) for n in counts}
    for n in counts:
        assert words[n] == keep_cjk_together(m.string[rule(n)]).format(n=n)
    if code in SAME_NOUN_AFTER_A_NUMBER:
        return
    for a in counts:
        for b in counts:
            if cldr(a) != cldr(b):
                assert words[a].replace(str(a), "#") != words[b].replace(str(b), "#"), (
                    f"{code}: {a} and {b} are different plural categories but read the same")



def test_the_template_holds_the_messages_of_the_sources_and_no_other(tmp_path):
    # A word added to the app without its translations fails here: extract again
    # (python scripts/i18n.py extract, update), translate, compile.
    out = tmp_path / "fresh.pot"
    run = subprocess.run(
        [sys.executable, "-c",
         "import runpy; from pathlib import Path; "
         "g = runpy.run_path('scripts/i18n.py', run_name='i18n_check'); "
         f"g['extract'].__globals__['POT'] = Path({str(out)!r}); g['extract']()"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    with out.open("rb") as f:
        fresh = read_po(f)
    key = lambda m: (m.id if isinstance(m.id, str) else tuple(m.id), m.context)  # noqa: E731
    missing = {key(m) for m in fresh if m.id} - {key(m) for m in template() if m.id}
    assert not missing, f"not in the catalogs yet: {sorted(missing, key=str)[:5]}"
    # and nothing the app no longer says (a template extracted from another tree
    # once kept the Theme setting's old words)
    stale = {key(m) for m in template() if m.id} - {key(m) for m in fresh if m.id}
    assert not stale, f"the app no longer says: {sorted(stale, key=str)[:5]}"


# ------------------------------------------------------------------ fonts


def kivy_font() -> Path:
    import kivy

    return Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Regular.ttf"


def cmap(path: Path) -> set[str]:
    from fontTools.ttLib import TTFont

    # a collection (.ttc: the device's Noto Sans CJK) is drawn from its first face
    return {chr(c) for c in TTFont(str(path), lazy=True, fontNumber=0).getBestCmap()}


def used(code: str) -> set[str]:
    chars = set()
    for m in catalog(code):
        if m.id:
            chars.update("".join(forms(m)))
    return chars - {"\n"}


@pytest.mark.parametrize("code", SHIPPED)
def test_every_character_of_a_catalog_has_a_glyph_in_its_font(code):
    # A character missing from the font is drawn as a box: Chinese and Japanese
    # need the app's own fonts (Kivy's Roboto has no CJK), the others Roboto's.
    pytest.importorskip("fontTools")
    from fastmine.app.text.i18n import font_for

    font = font_for(code)
    path = Path(font) if font else kivy_font()
    if not font:
        pytest.importorskip("kivy")
    assert path.is_file(), path
    missing = used(code) - cmap(path)
    assert not missing, f"{code}: {path.name} has no glyph for {sorted(missing)}"


@pytest.mark.parametrize("code", ["ja", "ko", "zh_CN"])
def test_the_cjk_fonts_are_subsets_that_keep_the_app_small(code):
    pytest.importorskip("fontTools", reason="fontTools reads the fonts' character maps")
    from fastmine.app.text.i18n import shipped_font

    path = Path(shipped_font(code))
    # 1.6 MB, not 400 KB: the app's fonts now hold every common character (all of
    # GB2312, 1.5 MB; JIS level 1 + Jōyō + Jinmeiyō, 0.75 MB), not the catalog's few
    # hundred (tests/app/test_app_glyphs.py); the whole Noto Sans CJK face is 16 MB
    assert path.stat().st_size < 1_600_000
    assert (path.parent / "OFL.txt").is_file()  # its licence ships with it
    assert {*"0123456789", *"3BV/s%"} <= cmap(path)  # the numbers the screens show


def test_the_words_of_the_settings_tables_are_in_the_template():
    """The settings module's tables of words (labels of the choices, the line under
    each first-click rule on the New game screen) are shown through ``translate``:
    each must be a message of the template, or it stays English in every language
    (the rules' lines did, until they were marked)."""
    from fastmine.app import settings as S

    known = {i for message in template() if message.id for i in ids(message)}
    tables = {name: table for name, table in vars(S).items()
              if name.endswith(("_LABELS", "_HELP")) and isinstance(table, dict)}
    assert "RULE_HELP" in tables and "THEME_LABELS" in tables
    missing = [(name, word) for name, table in tables.items() for word in table.values()
               if word not in known]
    assert missing == []


def test_update_gives_a_catalog_the_new_forms_of_babels_plural_rule():
    """``scripts/i18n.py update`` on a catalog whose rule is coarser than Babel's (a
    Spanish catalog of two forms under CLDR 46's three) moves each message's forms
    to the new rule's places and marks the new form fuzzy, so that ``compile``
    refuses it until translated; a catalog as fine as Babel's is left alone."""
    import runpy

    from babel.messages.catalog import Catalog
    from babel.messages.plurals import get_plural

    i18n = runpy.run_path(str(ROOT / "scripts" / "i18n.py"), run_name="i18n_check")
    follow = i18n["follow_babels_plurals"]
    cat = Catalog(locale="es")
    cat._num_plurals, cat._plural_expr = 2, "(n != 1)"   # the pre-CLDR-46 rule
    cat.add(("{n} mine", "{n} mines"), ("{n} mina", "{n} minas"))
    cat.add("Mines", "Minas")
    babel_rule = get_plural("es")
    marked = follow(cat, "es")
    if babel_rule.num_plurals == 2:                       # an older Babel: nothing to do
        assert marked == 0 and cat.num_plurals == 2
        return
    assert marked == 1 and cat.num_plurals == babel_rule.num_plurals
    m = cat.get("{n} mine")
    rule = gettext.c2py(cat.plural_expr)
    assert m.string[rule(1)] == "{n} mina" and m.string[rule(2)] == "{n} minas"
    assert m.fuzzy and cat.get("Mines").string == "Minas"
    m.string = tuple(s or "{n} de minas" for s in m.string)
    assert follow(cat, "es") == 0                          # now as fine as Babel's
