"""Text that fits and follows the language (issue 34 §2), at a 360-dp phone with
large text (720x1280, density 2, font scale 1.3) and in landscape: every
setting's choice inside its row with its whole text, the Replays screen's
Import button in the new language, the end dialog's last stats row above its
fold, no English left in Chinese and Russian."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from profiles import box, start_app  # noqa: E402

from fastmine.app import i18n  # noqa: E402


@pytest.fixture(autouse=True)
def english_after():
    yield
    from fastmine.app.languages import use_font

    i18n.set_language("en")
    use_font("en")


def texture_inside(w, slack: float = 1.5) -> bool:
    w.texture_update()
    return w.texture_size[0] <= w.width + slack and w.texture_size[1] <= w.height + slack


@pytest.mark.parametrize("code", ["ru", "de", "zh_CN"])
def test_every_settings_choice_stays_inside_its_row_with_its_whole_text(make_app, data_dir, code):
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language=code)
    drv.app.show_screen("settings")
    drv.frames(4)
    rows = drv.app.root.get_screen("settings").rows
    bad = []
    for key, row in rows.items():
        choices = row.ids.choices
        for b in choices.children:
            if not hasattr(b, "texture_update"):
                continue  # the player's name: a text field
            x0, _y0, x1, _y1 = box(b)
            cx0, _cy0, cx1, _cy1 = box(choices)
            if x0 < cx0 - 0.5 or x1 > cx1 + 0.5 or x1 > drv.window.width:
                bad.append(f"{key}: {b.text!r} spans {x0:.0f}-{x1:.0f} in {cx0:.0f}-{cx1:.0f}")
            elif not texture_inside(b):
                bad.append(f"{key}: {b.text!r} text {b.texture_size} in {b.size}")
    assert not bad, "\n".join(bad)
