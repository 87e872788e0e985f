"""The app's translations: extract, update, compile, and the CJK font's subset.

    python scripts/i18n.py extract   # the template (locale/fastmine.pot) from the sources
    python scripts/i18n.py update    # every catalog (.po) from the template, and the
                                     # plural rules of the Babel in use
    python scripts/i18n.py compile   # every .po to the .mo the package ships
    python scripts/i18n.py font      # the CJK font's subset, to the characters the catalogs use
    python scripts/i18n.py all       # the four, in that order (after any change of words)

Babel extracts with ``babel.cfg`` (the app's Python and kv files, the coach's
words): every ``_()``, ``N_()``, ``gettext`` and ``ngettext`` call.  The
settings screen's words live in a table (``fastmine.app.settings.PANEL``),
which this script adds to the template.  ``compile`` refuses a catalog with an
untranslated or fuzzy message.  The fonts are made from Noto Sans CJK (Debian's
``fonts-noto-cjk``, SIL Open Font License) with fontTools: its Simplified Chinese
face for Chinese, its Japanese face for Japanese, its Korean face for Korean.
They are the fallback for a device without a CJK font of its own, so each keeps
the language's common characters besides its catalog's: all of GB2312 (its
symbols, its 3,755 level-1 and 3,008 level-2 hanzi) for Chinese; JIS X 0208's
symbols, kana and 2,965 level-1 kanji, the 2,136 Jōyō kanji and the 758 Jinmeiyō
(name) kanji for Japanese, the last two from KANJIDIC's grades (Debian's
``kanjidic``, the EDRDG's licence); KS X 1001's 2,350 Hangul syllables and its
jamo for Korean; and for each what Babel writes in the language (months,
weekdays), every language's own name, Latin-1 and Latin Extended-A, the app's
symbols.  Vertical metrics and OpenType layout tables are dropped (Kivy uses
neither: half the file): 1.5 MB for Chinese, 0.75 MB for Japanese, 0.28 MB for
Korean.  Noto Sans CJK has no ї, so "Українська" is drawn whole only in Roboto
(the Language picker draws each name in its own script's font).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "src" / "fastmine" / "app"
LOCALE = APP / "text" / "locale"
POT = LOCALE / "fastmine.pot"
FONT_DIR = APP / "text" / "fonts"
FONT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
"""Where Debian's fonts-noto-cjk puts the font collection."""
FACES = {"zh_CN": ("NotoSansSC-subset.otf", 2), "ja": ("NotoSansJP-subset.otf", 0),
         "ko": ("NotoSansKR-subset.otf", 1)}
"""Language -> (the subset's file, the collection's face: 0 JP, 1 KR, 2 SC, 3 TC): each
language gets its own glyph forms (a Japanese 直 is not a Chinese one)."""
SYMBOLS = "•—–…·×→←↑↓✓%°‘’“”«»„‚\u00a0\u202f"
"""Characters the app draws besides its catalogs' (the chart legend, quotes, spaces)."""
KANJIDIC = Path("/usr/share/edict/kanjidic")
"""Debian's kanjidic (EUC-JP): each kanji's line has its grade, ``G1``-``G6`` and ``G8``
for the Jōyō kanji, ``G9``/``G10`` for the Jinmeiyō (name) kanji."""
JOYO_OUTSIDE_JIS = "\U00020b9f\u5861\u525d\u9830"
"""The four Jōyō kanji of 2010 that JIS X 0208 (and so KANJIDIC) lacks: 𠮟 塡 剝 頰."""

try:  # the installed fastmine (its compiled kernels are not in a plain checkout's src/)
    import fastmine  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "src"))


def table_messages() -> list[tuple[str, str | None]]:
    """The settings screen's words (``PANEL``): titles, descriptions, choices, each
    with its context (None, or the setting's key for :data:`i18n.CONTEXT_KEYS`)."""
    from fastmine.app import settings as S
    from fastmine.app.text.i18n import CONTEXT_KEYS, LANGUAGES

    out: list[tuple[str, str | None]] = []
    for item in S.PANEL:
        out += [(item["title"], None), (item.get("desc", ""), None)]
        if item["type"] in ("bool", "options"):
            context = item["key"] if item["key"] in CONTEXT_KEYS else None
            for label in S.option_labels(item).values():
                number = label.removesuffix(" s").replace(".", "", 1)
                if label not in LANGUAGES.values() and not number.isdigit():
                    out.append((label, context))
    return [(m, c) for m, c in out if m]


def extract() -> None:
    """Write the template from the sources and the settings table."""
    from babel.messages.pofile import read_po, write_po

    LOCALE.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F",
                    str(ROOT / "babel.cfg"), "-k", "N_", "--no-location", "--sort-output",
                    "--project", "fastmine", "--copyright-holder", "fastmine developers",
                    "-o", str(POT), "."], cwd=ROOT, check=True, capture_output=True)
    with POT.open("rb") as f:
        pot = read_po(f)
    for message, context in table_messages():
        if pot.get(message, context=context) is None:
            flags = ["python-brace-format"] if "{" in message else []
            pot.add(message, flags=flags, context=context)
    buf = io.BytesIO()
    write_po(buf, pot, omit_header=False, sort_output=True, no_location=True, width=100)
    # no creation date: the template changes only when the words do
    text = "\n".join(line for line in buf.getvalue().decode("utf-8").splitlines()
                     if not line.startswith('"POT-Creation-Date:'))
    POT.write_text(text + "\n", encoding="utf-8")
    print(f"{POT}: {len(pot)} messages")


def catalogs() -> list[Path]:
    """Every catalog's .po file."""
    return sorted(LOCALE.glob("*/LC_MESSAGES/fastmine.po"))


PLURAL_SAMPLES = (*range(0, 1001), 1_000_000, 1_000_001, 2_000_000, 10_000_000,
                  1_000_000_000, 1_000_000_001)
"""Counts on which two plural rules are compared: every count a rule of CLDR's
tells apart from another shows within them (the ends of 10s, 100s, 1000s and the
exact millions of the "many" forms of Spanish, French and Portuguese)."""


def plural_partition(expr: str) -> dict[int, int]:
    """Count -> form index under a gettext plural expression, over :data:`PLURAL_SAMPLES`."""
    import gettext

    rule = gettext.c2py(expr)
    return {n: rule(n) for n in PLURAL_SAMPLES}


def follow_babels_plurals(cat: Any, code: str) -> int:
    """Give ``cat`` the plural rule of the Babel in use when that rule tells apart
    counts the catalog's rule does not (CLDR 46 gave Spanish, French and Portuguese a
    third form for exact millions: "1 000 000 de minas").  Each message's forms move
    to the new rule's places; a new form gets the old form it replaces and is marked
    fuzzy, so ``compile`` refuses the catalog until a translator has looked at it.
    A Babel older than the catalog (a coarser rule) changes nothing.  Returns the
    number of messages marked."""
    from babel.messages.plurals import get_plural

    babel_rule = get_plural(code)
    new, old = plural_partition(babel_rule.plural_expr), plural_partition(cat.plural_expr)
    # Babel's rule is finer when two counts of one old form get two new forms.
    if len({(old[n], new[n]) for n in PLURAL_SAMPLES}) == len(set(old.values())):
        return 0
    # The first count of each new form, and the old form it took.
    first = {}
    for n in PLURAL_SAMPLES:
        first.setdefault(new[n], n)
    source = [old[first[k]] for k in range(babel_rule.num_plurals)]
    shared = {i for i in source if source.count(i) > 1}
    marked = 0
    for m in cat:
        if not m.id or not isinstance(m.id, tuple):
            continue
        forms = list(m.string) if isinstance(m.string, tuple) else [m.string]
        forms += [""] * (len(set(old.values())) - len(forms))
        m.string = tuple(forms[i] if i < len(forms) else "" for i in source)
        if any(i in shared for i in source):
            m.flags.add("fuzzy")
            marked += 1
    cat._num_plurals, cat._plural_expr = babel_rule.num_plurals, babel_rule.plural_expr
    return marked


def update() -> None:
    """Bring every catalog up to date with the template (new messages empty, old ones
    kept) and with the plural rules of the Babel in use (:func:`follow_babels_plurals`)."""
    from babel.messages.pofile import read_po, write_po

    with POT.open("rb") as f:
        pot = read_po(f)
    for po in catalogs():
        with po.open("rb") as f:
            cat = read_po(f, locale=po.parts[-3])
        marked = follow_babels_plurals(cat, po.parts[-3])
        if marked:
            print(f"{po.relative_to(ROOT)}: Babel's plural rule has a new form; "
                  f"{marked} messages to look at (marked fuzzy)")
        cat.update(pot, no_fuzzy_matching=True)
        buf = io.BytesIO()
        write_po(buf, cat, sort_output=True, no_location=True, width=100, ignore_obsolete=True)
        po.write_bytes(buf.getvalue())
        missing = sum(1 for m in cat if m.id and not (all(m.string) if isinstance(m.string, tuple)
                                                          else m.string))
        print(f"{po.relative_to(ROOT)}: {len(cat)} messages, {missing} to translate")


def compile_all() -> None:
    """Compile every catalog to its .mo; refuses one with a message left to translate."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    bad = []
    for po in catalogs():
        with po.open("rb") as f:
            cat = read_po(f, locale=po.parts[-3])
        todo = [m.id for m in cat if m.id and (m.fuzzy or not (
            all(m.string) if isinstance(m.string, tuple) else m.string))]
        if todo:
            bad.append(f"{po.relative_to(ROOT)}: {len(todo)} untranslated or fuzzy, e.g. {todo[0]!r}")
            continue
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, cat, use_fuzzy=False)
        print(f"{po.with_suffix('.mo').relative_to(ROOT)}")
    if bad:
        raise SystemExit("\n".join(bad))


def _double_byte(codec: str, rows: range) -> set[str]:
    """The characters of the rows ``rows`` (lead bytes) of a 94x94 double-byte
    ``codec`` (GB2312 or EUC-JP)."""
    out = set()
    for lead in rows:
        for cell in range(0xA1, 0xFF):
            with contextlib.suppress(UnicodeDecodeError):  # an empty cell
                out.add(bytes([lead, cell]).decode(codec))
    return out


def gb2312_hanzi() -> set[str]:
    """GB2312's 6,763 hanzi: level 1 (3,755, rows 16-55, bytes 0xB0A1-0xD7F9) and
    level 2 (3,008, rows 56-87)."""
    return {c for c in _double_byte("gb2312", range(0xB0, 0xF8)) if "\u4e00" <= c <= "\u9fff"}


def hangul_syllables() -> set[str]:
    """KS X 1001's 2,350 Hangul syllables (rows 16-40, bytes 0xB0A1-0xC8FE): the
    syllables Korean text and names use (all 11,172 would be 3.5 times the font),
    and its compatibility jamo (row 4: ㄱ, ㅏ, typed alone)."""
    syllables = {c for c in _double_byte("euc_kr", range(0xB0, 0xC9)) if "\uac00" <= c <= "\ud7a3"}
    return syllables | _double_byte("euc_kr", range(0xA4, 0xA5))


def kanjidic_grades(path: Path = KANJIDIC) -> dict[str, int]:
    """Kanji -> its KANJIDIC grade (1-6 and 8: Jōyō; 9 and 10: Jinmeiyō)."""
    import re

    if not path.is_file():
        raise SystemExit(f"{path} is missing: apt-get install kanjidic")
    grades = {}
    for line in path.read_bytes().decode("euc_jp").splitlines():
        found = re.search(r" G(\d+) ", line)
        if found and not line.startswith("#"):
            grades[line[0]] = int(found.group(1))
    return grades


def common_characters(code: str) -> set[str]:
    """The common characters of a CJK language, drawn by the fallback font even
    where no message uses them (dates, a player's name)."""
    if code == "zh_CN":
        return _double_byte("gb2312", range(0xA1, 0xAA)) | gb2312_hanzi()
    if code == "ja":
        grades = kanjidic_grades()
        joyo = {k for k, g in grades.items() if g <= 8}
        if len(joyo) + len(JOYO_OUTSIDE_JIS) != 2136:
            raise SystemExit(f"KANJIDIC has {len(joyo)} Jōyō kanji, not 2,132")
        names = {k for k, g in grades.items() if g >= 9}
        level1 = _double_byte("euc_jp", range(0xB0, 0xD0))  # JIS X 0208 level 1: 2,965 kanji
        return (_double_byte("euc_jp", range(0xA1, 0xA9)) | joyo | set(JOYO_OUTSIDE_JIS)
                | names | level1)
    if code == "ko":
        return _double_byte("euc_kr", range(0xA1, 0xA2)) | hangul_syllables()
    return set()


def babel_characters(code: str) -> set[str]:
    """Every character Babel writes in a date, a time or a number of language ``code``."""
    from collections.abc import Mapping

    from babel import Locale

    loc = Locale.parse(code)
    chars: set[str] = set()
    tables: list[object] = [loc.months, loc.days, loc.quarters, loc.day_periods, loc.eras,
                            loc.date_formats, loc.time_formats, loc.datetime_formats,
                            loc.number_symbols["latn"], loc.percent_formats,
                            loc.decimal_formats]
    while tables:  # a tree of mappings with str leaves (a pattern is str()-able)
        item = tables.pop()
        if isinstance(item, Mapping):
            tables.extend(item.values())
        elif item is not None:
            chars.update(item if isinstance(item, str) else str(item))
    return chars


def font_characters(code: str) -> str:
    """Every character the font of language ``code`` must draw: its catalog's
    translations, its common characters, what Babel writes for it, every
    language's name, ASCII, Latin-1, Latin Extended-A and :data:`SYMBOLS`."""
    from babel.messages.pofile import read_po

    from fastmine.app.text.i18n import LANGUAGES

    chars = {chr(c) for c in range(0x20, 0x7F)} | {chr(c) for c in range(0xA0, 0x180)}
    chars |= set(SYMBOLS) | set("".join(LANGUAGES.values()))
    chars |= common_characters(code) | babel_characters(code)
    with (LOCALE / code / "LC_MESSAGES" / "fastmine.po").open("rb") as f:
        for m in read_po(f):
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            chars.update("".join(strings))
    chars -= {"\n", "\t", "\r"}
    return "".join(sorted(chars))


def font() -> None:
    """Cut Noto Sans CJK to each CJK language's characters (OpenType CFF fonts)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    if not FONT_SOURCE.is_file():
        raise SystemExit("Noto Sans CJK is not installed: apt-get install fonts-noto-cjk")
    FONT_DIR.mkdir(exist_ok=True)
    for code, (name, number) in FACES.items():
        options = subset.Options()
        options.name_IDs = ["*"]  # keep the licence and the names
        options.notdef_outline = True
        options.hinting = False
        # Kivy draws a line left to right with the cmap's glyphs and the horizontal
        # metrics: the layout features and the vertical metrics would be half the file
        options.layout_features = []
        options.drop_tables += ["vhea", "vmtx", "VORG", "BASE", "GSUB", "GPOS"]
        face = TTFont(str(FONT_SOURCE), fontNumber=number, lazy=False)
        face.recalcTimestamp = False  # the source's dates: the same characters, the same bytes
        sub = subset.Subsetter(options)
        text = font_characters(code)
        sub.populate(text=text)
        sub.subset(face)
        out = FONT_DIR / name
        face.save(str(out))
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size / 1024:.0f} KiB, "
              f"{len(text)} characters")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=["extract", "update", "compile", "font", "all"])
    args = parser.parse_args(argv)
    steps = {"extract": [extract], "update": [update], "compile": [compile_all], "font": [font],
             "all": [extract, update, compile_all, font]}[args.step]
    for step in steps:
        step()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
