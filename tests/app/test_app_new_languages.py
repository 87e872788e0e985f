"""The eight languages of issue 34 (Korean, Italian, Polish, Ukrainian, Turkish,
Vietnamese, Indonesian, Dutch) in the real app at a 360-dp phone: every screen and
dialog keeps its words inside its widget and whole at font scale 1.3 (long Polish,
Ukrainian and Indonesian words in buttons) beside touch targets of 48 dp, the game screen speaks the language with a hint
on screen (docs/app.md shows these shots), and Korean draws with its own font."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK  # noqa: E402
from profiles import PROFILES, box, start_app  # noqa: E402
from test_app_languages import overflowing, screens, visible  # noqa: E402
from test_app_touch_targets import small  # noqa: E402

from fastmine.app.text import i18n  # noqa: E402

NEW = ("ko", "it", "pl", "uk", "tr", "vi", "id", "nl")
"""Issue 34's languages, by how many Minesweeper players speak them."""
HINT = {"ko": "힌트", "it": "Indizio", "pl": "Podpowiedź", "uk": "Підказка", "tr": "İpucu",
        "vi": "Gợi ý", "id": "Petunjuk", "nl": "Tip"}
"""The Hint button's word in each (as a native app says it)."""


MARKUP = re.compile(r"\[/?[a-z]+(=[^\]]*)?\]")


def broken_words(root, window) -> list[str]:
    """Labels with a word wider than the line they wrap in: Kivy then cuts the word
    between two letters ("Średniozaawans" / "owany"), and the words stay inside
    their widget, so :func:`overflowing` does not see it."""
    from kivy.uix.label import Label

    bad = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text or not visible(w) or w.text_size[0] is None:
            continue
        x0, y0, x1, y1 = box(w)
        if x1 <= 0 or y1 <= 0 or x0 >= window.width or y0 >= window.height:
            continue  # scrolled out of view
        pad = w.padding[0] + w.padding[2] if len(w.padding) == 4 else 2 * w.padding[0]
        room = w.text_size[0] - pad
        text = MARKUP.sub("", w.text) if w.markup else w.text
        for word in text.split():
            width = w._label.get_extents(word)[0]  # noqa: SLF001 - the label's own font
            if width > room:  # Kivy breaks a word a pixel too wide
                bad.append(f"{type(w).__name__} {word!r}: {width:.0f} px in a {room:.0f}-px line")
    return bad


@pytest.fixture(autouse=True)
def english_after():
    yield
    from fastmine.app.text.languages import use_font

    i18n.set_language("en")
    use_font("en")


@pytest.mark.parametrize("code", NEW)
def test_the_game_screen_speaks_the_language(make_app, data_dir, screenshot_dir, code):
    from kivy.core.text import DEFAULT_FONT, LabelBase

    drv = start_app(make_app, data_dir, "phone_360", language=code, animations=0)
    assert i18n.language() == code
    font = LabelBase._fonts[DEFAULT_FONT][0]
    if code == "ko":
        assert font == i18n.font_for("ko") and font.endswith("NotoSansKR-subset.otf")
    else:  # Roboto has every letter of these alphabets (test_app_glyphs)
        assert font.endswith("Roboto-Regular.ttf")
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.app.ctrl.hint()
    drv.frames(3)
    drv.screenshot(screenshot_dir, f"lang_{code}_game_hint")
    assert drv.ids("hint").text == HINT[code]
    assert drv.ctrl.message and drv.ctrl.message == i18n._("Safe: row {row}, column {col}.").format(
        row=1, col=6) != "Safe: row 1, column 6."
    assert not overflowing(drv.app.root, drv.window)
    assert game.view[1, 2] >= 0


@pytest.mark.parametrize("code", NEW)
def test_every_screen_at_large_text_keeps_its_words_inside_and_whole(make_app, data_dir, screenshot_dir,
                                                           code):
    drv = start_app(make_app, data_dir, PROFILES["phone_360_font13"], language=code,
                    animations=0)
    problems: list[str] = []

    def check(name, root):
        problems.extend(f"{name}: {p}" for p in overflowing(root, drv.window))
        problems.extend(f"{name}: {p}" for p in broken_words(root, drv.window))
        problems.extend(small(root, drv.profile.density, name))  # long words squeeze no target

    screens(drv, code, screenshot_dir, check)
    assert not problems, "\n".join(problems)
