"""Touch, mouse and keyboard input on the real board, with real touch events."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fastmine import FLAG, HIDDEN, QUESTION  # noqa: E402

# 9x9 board: mines in the top-left corner block and one at the far corner.
#   M M . . . . . . .
#   M . . . . . . . .
#   . . . . . . . . .      (3,3) is a zero whose opening covers most of the board
MASK = np.zeros((9, 9), bool)
MASK[0, 0] = MASK[0, 1] = MASK[1, 0] = MASK[8, 8] = True


def test_tap_reveals(drv):
    drv.tap_cell(4, 4)
    assert drv.game.state.value == "playing"
    assert drv.game.view[4, 4] >= 0
    assert drv.ctrl.state == "playing"


def test_quick_tap_does_not_flag(drv):
    drv.attach_board(MASK)
    drv.tap_cell(0, 2, hold=0.2)  # well under the 0.4 s long press
    assert drv.game.view[0, 2] == 1  # revealed (one mine beside it), not flagged
    assert drv.game.mines_left == 4


def test_long_press_flags_while_still_down(drv):
    drv.attach_board(MASK)
    t = drv.down(*drv.cell_pos(0, 0))
    drv.wait(0.3)
    assert drv.game.view[0, 0] == HIDDEN  # not yet
    drv.wait(0.2)
    assert drv.game.view[0, 0] == FLAG  # flagged with the finger still down
    drv.up(t)
    drv.frames(3)
    assert drv.game.view[0, 0] == FLAG  # and the release does nothing more
    assert drv.game.mines_left == 3


def test_long_press_delay_setting_is_used(make_app, data_dir):
    drv = make_app(data_dir, long_press_delay="1.0")
    drv.attach_board(MASK)
    t = drv.down(*drv.cell_pos(0, 0))
    drv.wait(0.7)
    assert drv.game.view[0, 0] == HIDDEN
    drv.wait(0.4)
    assert drv.game.view[0, 0] == FLAG
    drv.up(t)


def test_movement_cancels_long_press_and_pan_reveals_nothing(drv):
    drv.attach_board(MASK)
    x, y = drv.cell_pos(4, 4)
    t = drv.down(x, y)
    drv.frames(2)
    for i in range(1, 6):
        drv.move(t, x + 12 * i, y)  # more than dp(10): a pan
        drv.frames(1)
    drv.wait(0.8)  # long past the long-press delay
    drv.up(t)
    drv.frames(3)
    assert (drv.game.view == HIDDEN).all()
    assert drv.game.state.value == "ready"


def test_pan_and_pinch_move_and_zoom_but_never_reveal(drv):
    drv.attach_board(MASK)
    board = drv.board
    s0 = board.scale
    # pinch out around the board centre
    cx, cy = drv.cell_pos(4, 4)
    a = drv.down(cx - 30, cy)
    b = drv.down(cx + 30, cy)
    for i in range(1, 8):
        drv.frames(1)
        drv.move(a, cx - 30 - 15 * i, cy)
        drv.move(b, cx + 30 + 15 * i, cy)
    drv.wait(0.6)
    drv.up(a)
    drv.frames(2)
    drv.up(b)
    drv.frames(3)
    assert board.scale > s0 * 1.5
    assert (drv.game.view == HIDDEN).all()
    # now zoomed in, a drag pans the board
    off = board.offset
    drv.drag(cx, cy, cx - 100, cy + 60)
    assert board.offset != off
    assert (drv.game.view == HIDDEN).all()
    assert drv.game.state.value == "ready"


def test_tap_on_number_chords(drv):
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 1)
    assert game.view[1, 1] == 3
    for r, c in ((0, 0), (0, 1), (1, 0)):
        drv.tap_cell(r, c, button="right", device="mouse")
    assert game.mines_left == 1
    drv.tap_cell(1, 1)  # a tap on the satisfied 3 opens its other neighbours
    assert game.view[2, 2] >= 0 and game.view[1, 2] >= 0


def test_chord_needs_matching_flags(drv):
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 1)
    drv.tap_cell(0, 0, button="right", device="mouse")
    drv.tap_cell(1, 1)
    assert game.view[2, 2] == HIDDEN  # one flag for a 3: nothing happens


def test_flag_mode(drv):
    game = drv.attach_board(MASK)
    drv.press(drv.ids("flag_mode"))
    assert drv.ctrl.flag_mode
    drv.tap_cell(0, 0)  # a tap flags
    assert game.view[0, 0] == FLAG
    drv.long_press_cell(0, 2)  # a long press reveals
    assert game.view[0, 2] == 1
    drv.press(drv.ids("flag_mode"))
    assert not drv.ctrl.flag_mode


def test_mouse_buttons(drv):
    game = drv.attach_board(MASK)
    drv.tap_cell(0, 0, button="right", device="mouse")
    assert game.view[0, 0] == FLAG
    drv.tap_cell(0, 0, button="right", device="mouse")
    assert game.view[0, 0] == QUESTION
    drv.tap_cell(0, 0, button="right", device="mouse")
    assert game.view[0, 0] == HIDDEN
    # a mouse held down long does not flag (right click does that)
    drv.tap_cell(0, 2, hold=0.8, device="mouse", button="left")
    assert game.view[0, 2] == 1
    drv.tap_cell(0, 0, button="right", device="mouse")
    drv.tap_cell(0, 1, button="right", device="mouse")
    drv.tap_cell(1, 0, button="right", device="mouse")
    drv.tap_cell(1, 1, button="left", device="mouse")
    assert game.view[1, 1] == 3
    drv.tap_cell(1, 1, button="middle", device="mouse")  # middle click chords
    assert game.view[1, 2] >= 0


def test_double_click_on_number_chords(drv):
    game = drv.attach_board(MASK)
    for r, c in ((0, 0), (0, 1), (1, 0)):
        drv.tap_cell(r, c, button="right", device="mouse")
    drv.tap_cell(1, 1, button="left", device="mouse")
    assert game.view[1, 1] == 3
    drv.ctrl.chord = _counting(drv.ctrl.chord, calls := [])
    x, y = drv.cell_pos(1, 1)
    t = drv.down(x, y, button="left", device="mouse")
    drv.frames(1)
    drv.up(t)
    drv.frames(2)
    t = drv.down(x, y, button="left", device="mouse")
    assert t.is_double_tap
    drv.frames(1)
    drv.up(t)
    drv.frames(2)
    assert calls  # the double click went to chord
    assert game.view[2, 2] >= 0


def _counting(fn, calls):
    def wrapper(*a):
        calls.append(a)
        return fn(*a)
    return wrapper


def test_wheel_pans_and_ctrl_wheel_zooms(drv):
    drv.attach_board(MASK)
    board = drv.board
    board.gestures.modifiers = lambda: ["ctrl"]
    s0 = board.scale
    x, y = drv.cell_pos(4, 4)
    for _ in range(4):
        drv.tap(x, y, hold=0.0, button="scrolldown", device="mouse")
    assert board.scale > s0
    board.gestures.modifiers = lambda: []
    off = board.offset
    drv.tap(x, y, hold=0.0, button="scrollup", device="mouse")
    assert board.offset != off
    assert (drv.game.view == HIDDEN).all()


def test_keyboard(drv):
    game = drv.attach_board(MASK)
    drv.key(275)  # right arrow: the cursor appears in the middle
    assert drv.board.cursor == (4, 4)
    for _ in range(4):
        drv.key(273)  # up
        drv.key(276)  # left
    assert drv.board.cursor == (0, 0)
    drv.key(102, "f")  # f marks
    assert game.view[0, 0] == FLAG
    drv.key(275)
    drv.key(275)
    drv.key(32, " ")  # space reveals
    assert game.view[0, 2] == 1
    drv.key(112, "p")  # p pauses
    assert drv.ctrl.paused and drv.board.hidden
    drv.key(112, "p")
    assert not drv.ctrl.paused
    drv.key(110, "n")  # n: a new game, once the player confirms abandoning this one
    from fastmine.app.dialogs.messages import ConfirmDialog

    ask = next(w for w in drv.window.children if isinstance(w, ConfirmDialog))
    drv.press(ask.ids.yes)
    assert drv.game is not game and drv.game.state.value == "ready"
