"""The app's parts own their behaviour and the App wires them (issue 34 §6): the
game screen applies the settings of its board and controller, and the end of a
game (records, the end dialog, Undo) is one object of its own."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog  # noqa: E402

from fastmine import GameState  # noqa: E402


def test_the_game_screen_applies_the_settings_of_its_board_and_controller(drv):
    from kivy.metrics import dp

    screen, cfg = drv.app.game_screen, drv.app.config
    cfg.set("game", "touch_slop", "20")
    cfg.set("game", "long_press_delay", "0.8")
    cfg.set("game", "coach", "1")
    assert screen.apply_settings(cfg, "touch_slop") is True
    assert screen.board.gestures.slop == pytest.approx(dp(20))
    assert screen.board.long_press_delay == pytest.approx(0.4)  # one setting at a time
    assert screen.apply_settings(cfg) is True  # all of them, as when the app is built
    assert screen.board.long_press_delay == pytest.approx(0.8) and screen.ctrl.coach is True
    # the App's own settings are not the screen's: a theme is the whole app's
    theme = drv.app.theme
    cfg.set("game", "theme", "dark")
    assert screen.apply_settings(cfg, "theme") is False
    assert drv.app.theme is theme


def test_the_end_of_a_game_is_its_own_part_and_the_app_asks_it(drv):
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)  # the opening
    drv.ctrl.reveal(0, 4)  # a mine
    d = end_dialog(drv)
    assert drv.app.ending.dialog is d and drv.app.end_dialog is d
    assert drv.app.undo_loss() is True  # the App's Undo is the ending's
    assert drv.app.ending.dialog is None and drv.ctrl.game.state is GameState.PLAYING
