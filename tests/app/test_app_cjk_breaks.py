"""Chinese and Japanese lines break where those languages break (issue 34 §2).

Kivy cut a sentence without spaces at the last character that fits: the
end dialog showed "（1" / "2%）" and lines starting with "。", "，" or "）",
and "Kiv" / "y".  fastmine.app.text.cjkbreak chooses the breaks first: between CJK
characters, never before closing punctuation or after opening punctuation,
never inside a number or a Latin word.  Checked against a plain reference
(hypothesis) and on every message of the Chinese and Japanese catalogs laid
out by Kivy in the app's fonts.
"""

from __future__ import annotations

import gettext
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("kivy")
babel = pytest.importorskip("babel")

from fastmine.app.text import cjkbreak  # noqa: E402
from fastmine.app.text.cjkbreak import CLOSING, OPENING, break_lines, is_cjk  # noqa: E402

NBSP = "\u00a0"


def allowed(before: str, after: str) -> bool:
    """Plainly: may a line end with ``before`` and the next start with ``after``?"""
    if before == NBSP or after == NBSP:
        return False
    if after in CLOSING or before in OPENING:
        return False
    return is_cjk(before) or is_cjk(after)


ALPHABET = st.sampled_from(list("你挺过了次猜测。，）（「」ー々っア12%.aKivy ") + [NBSP])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40), st.integers(1, 12))
def test_every_break_is_allowed_and_lines_are_filled_greedily(text, width):
    lines = break_lines(text, width, len)
    assert len(lines) >= 1
    rest = text
    for i, line in enumerate(lines):
        assert rest.startswith(line), (text, lines)
        rest = rest[len(line):]
        if i + 1 < len(lines):
            spaces = len(rest) - len(rest.lstrip(" "))
            rest = rest[spaces:]
            nxt = lines[i + 1]
            if not spaces:  # a break with no space: between two characters that allow it
                assert line and nxt and allowed(line[-1], nxt[0]), (text, lines)
            # greedy: the next line's first piece did not fit on this one
            first = cjkbreak.pieces(nxt)[0][0] if nxt else ""
            assert not line or len(line + " " * spaces + first) > width, (text, lines)
        if len(line.strip(" ")) > width:  # too long only when it cannot break at all
            assert len(cjkbreak.pieces(line.strip(" "))) == 1, (text, lines)
    assert rest == ""


def test_a_number_a_latin_word_and_closing_punctuation_stay_with_their_neighbours():
    text = "你挺过了\u00a01\u00a0次不得不猜的猜测（12%）。基于\u00a0Kivy\u00a0的应用。"
    for width in range(3, 30):
        lines = break_lines(text, width, len)
        for a, b in zip(lines, lines[1:], strict=False):
            assert b[0] not in CLOSING and a[-1] not in OPENING, lines
            assert not (a[-1].isascii() and b[0].isascii()), lines


def kivy_lines(text: str, font: str, width: int) -> list[str]:
    from kivy.uix.label import Label

    label = Label(text=text, font_name=font, font_size=30, text_size=(width, None))
    label.texture_update()
    return ["".join(w.text for w in line.words) for line in label._label._cached_lines]


@pytest.mark.parametrize("code", ["zh_CN", "ja"])
def test_every_message_laid_out_by_kivy_breaks_by_the_rules(kivy_window, code):
    from fastmine.app.text import i18n
    from fastmine.app.text.languages import use_font

    use_font("en")  # installs the line breaking, as the app's start does
    font = i18n.shipped_font(code)
    # the compiled catalog, as the app reads it (the .po files are not in the wheel)
    with open(i18n.LOCALE_DIR / code / "LC_MESSAGES" / "fastmine.mo", "rb") as f:
        catalog = gettext.GNUTranslations(f)
    bad = []
    for key, translated in catalog._catalog.items():
        if key == "":                       # the header
            continue
        for text in (translated,):
            # as shown: placeholders filled, markup out (a label with markup is Kivy's)
            text = re.sub(r"\{[^{}]*\}", "12", text.replace("[b]", "").replace("[/b]", ""))
            text = i18n.keep_cjk_together(text)
            for paragraph in text.split("\n"):
                for width in (260, 420):
                    lines = [ln.strip(" ") for ln in kivy_lines(paragraph, font, width)]
                    for a, b in zip(lines, lines[1:], strict=False):
                        if not a or not b:
                            continue
                        if b[0] in CLOSING or a[-1] in OPENING or (
                                a[-1].isascii() and a[-1].isalnum() and b[0].isascii()
                                and b[0].isalnum()):
                            bad.append(f"{width}px: {a!r} / {b!r}")
    assert not bad, f"{len(bad)} bad breaks, e.g. {bad[:6]}"


def test_a_long_path_breaks_between_its_folders():
    """A path wider than the line (the settings export's message) breaks after a
    "/" or "\\", never inside a folder's or the file's name; "3BV/s" and other
    pieces that fit stay whole."""
    text = "设置已导出到 /root/.local/share/fastmine/settings-2.json。"
    lines = break_lines(text, 14, len)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(len(line) <= 14 for line in lines[:-1])      # the file name alone is wider
    assert all(line.rstrip().endswith(("/", "到")) for line in lines[:-1])
    assert lines[-1] == "settings-2.json。"
    assert break_lines("C:\\Users\\王伟\\Documents\\fastmine-settings.json", 12, len) == [
        "C:\\Users\\王伟\\", "Documents\\", "fastmine-settings.json"]
    assert break_lines("3BV/s 很快", 20, len) == ["3BV/s 很快"]


def markup_lines(text: str, font: str, width: int, padding: float = 0) -> list[str]:
    from kivy.uix.label import Label

    label = Label(text=text, markup=True, font_name=font, font_size=30, text_size=(width, None),
                  padding=(padding, 0))
    label.texture_update()
    return ["".join(w.text for w in line.words) for line in label._label._cached_lines]


def bad_breaks(lines: list[str]) -> list[str]:
    lines = [ln.strip(" ") for ln in lines]
    return [f"{a!r} / {b!r}" for a, b in zip(lines, lines[1:], strict=False)
            if a and b and (b[0] in CLOSING or a[-1] in OPENING)]


@pytest.mark.parametrize("code", ["zh_CN", "ja"])
def test_every_run_of_a_markup_label_breaks_by_the_rules(kivy_window, code):
    """A label with markup is laid out one run of one style after another: only
    its first run had the rules, so the About screen's sections (a bold title, then
    the text) broke as Kivy breaks, a line starting with ” in Chinese.  Every
    run now does, from where the one before it ended, and the lines still fit."""
    from kivy.core.text import Label as CoreLabel

    from fastmine.app.screens.about import about_text
    from fastmine.app.text import i18n
    from fastmine.app.text.languages import use_font

    use_font("en")  # installs the line breaking, as the app's start does
    font = i18n.shipped_font(code)
    try:
        i18n.set_language(code)
        text = i18n.keep_cjk_together(about_text("1.0", "fastmine's solver"))
    finally:
        i18n.set_language("en")
    bad, wide = [], []
    for width in range(300, 720, 23):
        lines = markup_lines(text, font, width)
        bad += [f"{width}px: {b}" for b in bad_breaks(lines)]
        plain = CoreLabel(font_name=font, font_size=30)
        wide += [ln for ln in lines[1:]  # the first, the name in a larger size
                 if plain.get_extents(ln.strip())[0] > width + 2 and len(cjkbreak.pieces(ln.strip())) > 1]
    assert not bad, f"{len(bad)} bad breaks, e.g. {bad[:6]}"
    assert not wide, wide[:4]
    # a run after a bold word, in a padded label: its own breaks by the rules too
    for width in range(150, 400, 7):
        lines = markup_lines("[b]提示：[/b]这是“第一段”的文字，（包括括号）和引号。[b]再来[/b]一段“话”。",
                             font, width, padding=6)
        assert not bad_breaks(lines), (width, lines)
