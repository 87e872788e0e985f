"""High contrast, Sepia and Ocean (issue 34 §5): the colours' contrast
computed as WCAG 2 defines it, and each theme drawn by the real app at the
360-dp phone (720x1280, density 2) with a board showing every number 1-8.

High contrast meets WCAG AAA (7:1) between every number and an open cell and
between hidden and open cells, in the colours defined and in the pixels drawn;
the other new themes meet AA for the numbers (4.5:1) and keep hidden and open
cells as far apart as the light, dark and black themes do (1.7:1 or more; their
bevels tell them apart too); the new themes keep the colour-blind palette's
promise of 3:1.  Pictures (``$FASTMINE_SCREENSHOTS``): ``theme-<name>-phone_360.png``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import start_app  # noqa: E402
from test_app_themes import all_numbers_board, number_colours  # noqa: E402

from fastmine import Board, Game  # noqa: E402

NEW = ("high_contrast", "sepia", "ocean")


def luminance(c) -> float:
    """WCAG 2's relative luminance of an sRGB colour (floats 0..1)."""
    lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c[:3]]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b) -> float:
    """WCAG 2's contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_the_contrast_formula():
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)) == pytest.approx(1.0)
    # #767676 on white: the classic 4.54:1 grey
    assert contrast((0x76 / 255,) * 3, (1, 1, 1)) == pytest.approx(4.54, abs=0.01)


def test_high_contrast_meets_wcag_aaa():
    from fastmine.app.board.theme import get_theme

    t = get_theme("high_contrast")
    ratios = [contrast(n, t.revealed) for n in t.numbers]
    assert min(ratios) >= 7.0, ratios
    assert contrast(t.hidden, t.revealed) >= 7.0
    assert contrast(t.text, t.bg) >= 7.0 and contrast(t.accent_text, t.accent) >= 7.0
    assert contrast(t.flag, t.hidden) >= 3.0 and contrast(t.mine, t.exploded_bg) >= 3.0
    # the old themes fail it: the check can fail
    for name in ("light", "dark", "black"):
        old = get_theme(name)
        assert (min(contrast(n, old.revealed) for n in old.numbers) < 7.0
                or contrast(old.hidden, old.revealed) < 7.0), name


@pytest.mark.parametrize("name", ["sepia", "ocean"])
def test_the_other_new_themes_meet_aa(name):
    from fastmine.app.board.theme import get_theme

    t = get_theme(name)
    assert min(contrast(n, t.revealed) for n in t.numbers) >= 4.5
    assert contrast(t.hidden, t.revealed) >= 1.7
    assert contrast(t.text, t.bg) >= 7.0 and contrast(t.text_dim, t.bg) >= 4.5


@pytest.mark.parametrize("name", NEW)
def test_the_colour_blind_numbers_keep_3_to_1_in_the_new_themes(name):
    from fastmine.app.board.theme import get_theme

    t = get_theme(name, "colour_blind")
    assert min(contrast(n, t.revealed) for n in t.numbers) >= 2.95  # the light theme's 2.98


@pytest.mark.parametrize("name", NEW)
def test_each_new_theme_as_drawn_at_the_360_dp_phone(make_app, data_dir, screenshot_dir, name):
    from fastmine.app.board import viewport
    from fastmine.app.board.theme import get_theme

    viewport.TOUCH_FIRST = True
    try:
        drv = start_app(make_app, data_dir, "phone_360", theme=name, animations=0)
        mask, where = all_numbers_board()
        game = Game.from_board(Board.from_mines(mask), clock=drv.clock)
        for cell in where.values():
            game.reveal(*cell)
        drv.ctrl.attach(game)
        drv.frames(3)
        _path, px = drv.screenshot(screenshot_dir, f"theme-{name}-phone_360")
    finally:
        viewport.TOUCH_FIRST = None
    theme = get_theme(name)
    assert drv.app.theme == theme
    seen = number_colours(drv, where)
    assert np.abs(seen - np.array([c[:3] for c in theme.numbers])).max() < 0.1
    b = drv.board
    r, c = where[1]
    x, y = map(int, b.to_window(*b.cell_center(r, c)))
    open_bg = px[int(y - b.scale * 0.3), int(x - b.scale * 0.3)] / 255
    hr, hc = map(int, np.argwhere(drv.game.view == -1)[0])
    x, y = map(int, b.to_window(*b.cell_center(hr, hc)))
    hidden = px[y, x] / 255
    need_numbers, need_cells = (7.0, 7.0) if name == "high_contrast" else (4.5, 1.7)
    assert min(contrast(n, open_bg) for n in seen) >= need_numbers * 0.95  # anti-aliasing
    assert contrast(hidden, open_bg) >= need_cells * 0.95


def test_the_theme_chosen_on_the_settings_screen_applies_at_once(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_360")
    drv.app.open_settings()
    drv.frames(3)
    row = drv.app.settings_screen().rows["theme"]
    assert set(NEW) <= set(row.labels)
    row.parent.parent.scroll_to(row, animate=False)
    drv.frames(2)
    drv.press(row.ids["choice_high_contrast"])
    assert drv.app.config.get("game", "theme") == "high_contrast"
    assert drv.app.theme.name == "high_contrast"
    assert drv.app.atlas is not None and drv.board.atlas is drv.app.atlas
