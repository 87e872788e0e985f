"""The tool bar's buttons never cut a word.

Kivy cuts a word too long for a line anywhere: on a 360-dp phone with large
text (font scale 1.3) the Russian "Подсказка" and "Решатель" were drawn as
"Подска" / "зка" and "Решате" / "ль".  A button's font now shrinks until its
longest word fits (fastmine.app.widgets.fitted_font_size); where the words fit
it keeps its size.
"""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from profiles import start_app  # noqa: E402

BUTTONS = ("hint", "odds", "solver")


def drawn_words(button) -> list[str]:
    """The words of the button's lines as Kivy laid them out."""
    button.texture_update()
    return [w for line in button._label._cached_lines
            for w in "".join(word.text for word in line.words).split()]


@pytest.mark.parametrize("language", ["ru", "de", "fr", "es", "pt_BR", "ja", "zh_CN"])
def test_no_tool_bar_button_cuts_a_word_with_large_text(make_app, data_dir, language):
    drv = start_app(make_app, data_dir, "phone_360_font13", language=language)
    drv.frames(3)
    for name in BUTTONS:
        button = drv.ids(name)
        words = button.text.split()
        assert drawn_words(button) == words, (name, button.text, drawn_words(button))
    # one size for the bar: the largest at which every word fits
    sizes = {drv.ids(name).font_size for name in BUTTONS}
    assert len(sizes) == 1, sizes


def test_english_keeps_its_size(make_app, data_dir):
    from kivy.metrics import sp

    drv = start_app(make_app, data_dir, "phone_360_font13", language="en")
    drv.frames(3)
    assert [drv.ids(name).font_size for name in BUTTONS] == [sp(15)] * 3


def test_the_font_shrinks_only_as_far_as_the_longest_word_needs(kivy_window):
    from kivy.core.text import Label as CoreLabel

    from fastmine.app.widgets import fitted_font_size

    font = "Roboto"
    wide = CoreLabel(font_size=20, font_name=font).get_extents("Подсказка")[0]
    assert fitted_font_size("Подсказка", wide + 5, 20, font) == 20
    smaller = fitted_font_size("Подсказка", wide * 0.8, 20, font)
    assert smaller == pytest.approx(16)
    assert fitted_font_size("Подсказка", 1, 20, font) == 10  # never under half
    assert fitted_font_size("", 50, 20, font) == 20
