"""The Touch tolerance setting (issue 34 §5): how far a finger may slide before
a tap or a hold becomes a pan, 5, 10 or 20 dp, applied at once to the board's
gestures.  Real touches at the 360-dp phone (density 2): a slide of 15 dp
opens the cell under Relaxed and pans the board under Normal; a hold that
drifts 8 dp flags under Normal and pans under Precise."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK  # noqa: E402
from profiles import start_app  # noqa: E402

from fastmine import FLAG, HIDDEN  # noqa: E402

SAFE, MINE = (0, 5), (0, 4)  # see test_app_controls.py


@pytest.fixture(autouse=True)
def _touch_first():
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    yield
    viewport.TOUCH_FIRST = None


def phone(make_app, data_dir, **config):
    drv = start_app(make_app, data_dir, "phone_360", **config)
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)  # the opening
    drv.frames(2)
    return drv


def slide(drv, cell, dp_x: float, hold: float = 0.05) -> None:
    """Press the middle of ``cell``, slide ``dp_x`` dp to the right in small
    steps, stay ``hold`` seconds, lift."""
    from kivy.metrics import dp

    x, y = drv.cell_pos(*cell)
    t = drv.down(x, y)
    steps = 6
    for i in range(1, steps + 1):
        drv.frames(1)
        drv.move(t, x + dp(dp_x) * i / steps, y)
    drv.wait(hold)
    drv.up(t)
    drv.frames(3)


def choose(drv, value: str) -> None:
    """Tap the choice on the Settings screen, then back to the (paused) game."""
    drv.app.open_settings()
    drv.frames(3)
    row = drv.app.settings_screen().rows["touch_slop"]
    row.parent.parent.scroll_to(row, animate=False)
    drv.frames(2)
    drv.press(row.ids[f"choice_{value}"])
    assert drv.app.config.get("game", "touch_slop") == value
    drv.app.show_screen("game")
    drv.frames(2)
    if drv.ctrl.paused:
        drv.press(drv.ids("paused_cover"))


def test_a_15_dp_slide_pans_under_normal_and_taps_under_relaxed(make_app, data_dir):
    drv = phone(make_app, data_dir)
    assert drv.app.config.get("game", "touch_slop") == "10"  # the default
    slide(drv, SAFE, 15)
    assert drv.game.view[SAFE] == HIDDEN  # a pan: nothing opened
    choose(drv, "20")  # Relaxed, on the Settings screen: applies at once
    slide(drv, SAFE, 15)
    assert drv.game.view[SAFE] >= 0  # the same slide is a tap now


def test_a_drifting_hold_flags_under_normal_and_pans_under_precise(make_app, data_dir):
    drv = phone(make_app, data_dir, touch_slop="10")
    slide(drv, MINE, 8, hold=0.6)
    assert drv.game.view[MINE] == FLAG
    drv.long_press_cell(*MINE)  # unflag (question marks are off on a touch screen)
    assert drv.game.view[MINE] == HIDDEN
    choose(drv, "5")  # Precise
    slide(drv, MINE, 8, hold=0.6)
    assert drv.game.view[MINE] == HIDDEN  # a pan: no flag


def test_a_value_not_offered_falls_back_to_normal(make_app, data_dir):
    from kivy.metrics import dp

    drv = phone(make_app, data_dir, touch_slop="999")
    assert drv.board.gestures.slop == pytest.approx(dp(10))
