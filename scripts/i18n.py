"""The app's translations: extract, update, compile, and the CJK font's subset.

    python scripts/i18n.py extract   # the template (locale/fastmine.pot) from the sources
    python scripts/i18n.py update    # every catalog (.po) from the template
    python scripts/i18n.py compile   # every .po to the .mo the package ships
    python scripts/i18n.py font      # the CJK font's subset, to the characters the catalogs use
    python scripts/i18n.py all       # the four, in that order (after any change of words)

Babel extracts with ``babel.cfg`` (the app's Python and kv files, the coach's
words): every ``_()``, ``N_()``, ``gettext`` and ``ngettext`` call.  The
settings screen's words live in a table (``fastmine.app.settings.PANEL``),
which this script adds to the template.  ``compile`` refuses a catalog with an
untranslated or fuzzy message.  The fonts are made from Noto Sans CJK (Debian's
``fonts-noto-cjk``, SIL Open Font License) with fontTools: its Simplified Chinese
face for Chinese and its Japanese face for Japanese, each keeping the characters
of its catalog, ASCII and the app's symbols.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "src" / "fastmine" / "app"
LOCALE = APP / "locale"
POT = LOCALE / "fastmine.pot"
FONT_DIR = APP / "fonts"
FONT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
"""Where Debian's fonts-noto-cjk puts the font collection."""
FACES = {"zh_CN": ("NotoSansSC-subset.otf", 2), "ja": ("NotoSansJP-subset.otf", 0)}
"""Language -> (the subset's file, the collection's face: 0 JP, 1 KR, 2 SC, 3 TC): each
language gets its own glyph forms (a Japanese 直 is not a Chinese one)."""
SYMBOLS = "•—–…·×→←↑↓✓%°‘’“”«»„‚\u00a0\u202f"
"""Characters the app draws besides its catalogs' (the chart legend, quotes, spaces)."""

try:  # the installed fastmine (its compiled kernels are not in a plain checkout's src/)
    import fastmine  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "src"))


def table_messages() -> list[tuple[str, str | None]]:
    """The settings screen's words (``PANEL``): titles, descriptions, choices, each
    with its context (None, or the setting's key for :data:`i18n.CONTEXT_KEYS`)."""
    from fastmine.app import settings as S
    from fastmine.app.i18n import CONTEXT_KEYS, LANGUAGES

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


def update() -> None:
    """Bring every catalog up to date with the template (new messages empty, old ones kept)."""
    from babel.messages.pofile import read_po, write_po

    with POT.open("rb") as f:
        pot = read_po(f)
    for po in catalogs():
        with po.open("rb") as f:
            cat = read_po(f, locale=po.parts[-3])
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


def font_characters(code: str) -> str:
    """Every character the font of language ``code`` must draw: its catalog's
    translations, ASCII and :data:`SYMBOLS`."""
    from babel.messages.pofile import read_po

    chars = {chr(c) for c in range(0x20, 0x7F)} | set(SYMBOLS)
    with (LOCALE / code / "LC_MESSAGES" / "fastmine.po").open("rb") as f:
        for m in read_po(f):
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            chars.update("".join(strings))
    chars.discard("\n")
    return "".join(sorted(chars))


def font() -> None:
    """Subset Noto Sans CJK to each CJK catalog's characters (OpenType CFF fonts)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    if not FONT_SOURCE.is_file():
        raise SystemExit("Noto Sans CJK is not installed: apt-get install fonts-noto-cjk")
    FONT_DIR.mkdir(exist_ok=True)
    for code, (name, number) in FACES.items():
        options = subset.Options()
        options.name_IDs = ["*"]  # keep the licence and the names: layout features stay default
        options.notdef_outline = True
        options.hinting = False
        face = TTFont(str(FONT_SOURCE), fontNumber=number, lazy=False)
        sub = subset.Subsetter(options)
        sub.populate(text=font_characters(code))
        sub.subset(face)
        out = FONT_DIR / name
        face.save(str(out))
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size / 1024:.0f} KiB, "
              f"{len(font_characters(code))} characters")


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
