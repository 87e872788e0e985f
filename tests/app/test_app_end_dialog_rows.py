"""The end dialog shows all its rows of numbers, readably, on a small phone.

The Japanese loss dialog at the 360-dp phone with large text showed the title
and the Time row only: the coach's line sat outside the scrolled part and left
the numbers a strip one row high, the rest in a small inner scroll area.  The
coach's line now scrolls with the numbers, after them, and a Chinese or
Japanese label wraps between its characters (it was one unbreakable "word" half
the row wide, and the value beside it wrapped four times).  Real app, real
rendering, at each phone profile in four languages.
"""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from profiles import box, inside, start_app  # noqa: E402
from test_app_fresh_eyes_replays import lose  # noqa: E402


@pytest.mark.parametrize("lang", ["en", "ru", "zh_CN", "ja"])
@pytest.mark.parametrize("profile", ["phone_360", "phone_360_font13", "landscape", "phone_393"])
def test_every_row_of_the_loss_dialog_shows_whole(make_app, data_dir, screenshot_dir, lang, profile):
    from fastmine.app.text import i18n

    drv = start_app(make_app, data_dir, profile, language=lang)
    try:
        d = lose(drv)
        drv.frames(3)
        drv.screenshot(screenshot_dir, f"end_dialog_rows_{profile}_{lang}")
        scroll = d.ids.scroll
        scroll.scroll_y = 1.0
        drv.frames(2)
        cells = list(reversed(d.ids.lines.children))  # label, value, label, value...
        assert len(cells) == 6, [c.text for c in cells]  # time, cleared, clicks
        for cell in cells:
            assert inside(cell, scroll) and inside(cell, drv.window), \
                f"{cell.text!r} at {box(cell)}, the numbers' view {box(scroll)}"
            tw, th = cell.texture_size
            assert tw <= cell.width + 1 and th <= cell.height + 1, cell.text  # never cut
            # readable: a value a few lines at most, never a word a line
            assert th <= 3 * 1.55 * cell.font_size, (cell.text, th)
        for name in ("why", "watch_replay", "undo", "view_board", "new_game"):
            assert inside(d.ids[name], drv.window), name
    finally:
        i18n.set_language("en")
