"""Defects found by playing the app at the phone profiles (turning the phone
with the whole board shown, a hint on a turned board), each tested with real
rendering and real touches."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import PROFILES, box, start_app  # noqa: E402

from fastmine import Difficulty  # noqa: E402
from fastmine.app.play import assist  # noqa: E402

EXPERT = Difficulty(16, 30, 99)


@pytest.fixture
def touch_first(monkeypatch):
    """Phones open games the touch-screen way (the platform says so on a device)."""
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)


def turn(drv, size) -> None:
    drv.window.size = size
    drv.frames(6)


def check_whole_board_clipped_to_its_box(drv) -> None:
    b = drv.board
    # the clip is the board's box in the window: drawing is neither cut
    # inside the board nor spilled over the bars
    sc = b._scissor
    x0, y0, x1, y1 = box(b)
    assert (sc.x, sc.y, sc.x + sc.width, sc.y + sc.height) == (
        round(x0), round(y0), round(x1), round(y1))
    # the whole board shows, inside the box
    ox, oy = b.offset
    s = b.scale
    assert b.is_fitted()
    assert ox >= -0.5 and ox + b.dcols * s <= b.width + 0.5
    assert oy >= -0.5 and oy + b.drows * s <= b.height + 0.5
    assert max(b.dcols * s - b.width, b.drows * s - b.height) > -1.0  # fills one side


def test_turning_the_phone_keeps_the_whole_board_whole_and_clipped_right(
        make_app, data_dir, touch_first):
    drv = start_app(make_app, data_dir, "phone_360", animations=0)
    drv.ctrl.seed = 3
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap_cell(8, 15)
    b = drv.board
    assert not b.is_fitted()  # opened at the finger cell size
    drv.press(b.fit_button)  # "fit whole board"
    drv.frames(3)
    check_whole_board_clipped_to_its_box(drv)
    w, h = PROFILES["phone_360"].size
    turn(drv, (h, w))  # landscape
    assert not b.transposed
    check_whole_board_clipped_to_its_box(drv)
    turn(drv, (w, h))  # and back
    assert b.transposed
    check_whole_board_clipped_to_its_box(drv)
    # the top row of the board really shows (it was cut off under the clip)
    px = drv.pixels()
    x0, y0, x1, y1 = box(b)
    ox, oy = b.offset
    top = int(y0 + oy + b.drows * b.scale - b.scale / 2)
    bg = (np.array(drv.app.theme.bg[:3]) * 255).round()
    row = px[top, int(x0 + ox + b.scale):int(x0 + ox + b.dcols * b.scale - b.scale)]
    assert (np.abs(row.astype(int) - bg).max(axis=1) > 10).mean() > 0.5


def _hint_on_a_turned_board(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_393", animations=0)
    drv.ctrl.seed = 3
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap_cell(8, 15)
    assert drv.board.transposed
    drv.press(drv.board.fit_button)
    drv.press(drv.ids("hint"))
    return drv


@pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())
def test_a_hint_on_a_turned_board_names_the_cell_where_the_player_sees_it(
        make_app, data_dir, touch_first):
    drv = _hint_on_a_turned_board(make_app, data_dir)
    # counted from the top left, as drawn
    assert _named_cell(drv) == drv.ctrl._hint_cell


def _named_cell(drv):
    """The cell the message names, found on the screen as the player counts."""
    b = drv.board
    m = re.search(r"row (\d+), column (\d+)", drv.ctrl.message)
    assert m, drv.ctrl.message
    row, col = int(m[1]), int(m[2])
    ox, oy = b.offset
    return b.cell_at(b.x + ox + (col - 0.5) * b.scale, b.y + oy + (b.drows - row + 0.5) * b.scale)


@pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())
def test_a_hint_shown_while_the_phone_turns_names_its_cell_where_it_now_is(
        make_app, data_dir, touch_first):
    drv = _hint_on_a_turned_board(make_app, data_dir)
    b = drv.board
    w, h = PROFILES["phone_393"].size
    turn(drv, (h, w))
    assert not b.transposed and b.is_fitted()
    assert _named_cell(drv) == drv.ctrl._hint_cell
    turn(drv, (w, h))
    assert b.transposed
    assert _named_cell(drv) == drv.ctrl._hint_cell


LANDSCAPE_360_FONT13 = ("phone_360_font13", (1280, 720))  # the narrow phone turned, large text


def _win_a_record(drv) -> None:
    from fastmine.app.dialogs.endgame import EndDialog

    mask = np.zeros((9, 9), bool)
    for rc in ((0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (6, 6)):
        mask[rc] = True
    drv.attach_board(mask)
    drv.board.fit()  # every cell on screen, so the taps below land
    drv.tap_cell(8, 0)
    drv.clock.advance(12.3)  # a plausible time on the clock
    drv.frames(1)
    drv.tap_cell(0, 0)  # the last opening
    drv.wait(1.0)
    assert drv.game.state.name == "WON"
    return next(w for w in drv.window.children if isinstance(w, EndDialog))


def _assert_all_inside(dialog, window) -> None:
    from kivy.uix.label import Label
    from profiles import inside

    assert inside(dialog, window), f"dialog {box(dialog)} outside the window {window.size}"
    stack = [dialog]
    while stack:
        w = stack.pop()
        stack.extend(w.children)
        if isinstance(w, Label) and w.text and w.opacity > 0 and w.height > 0:
            assert inside(w, window), f"{w.text!r} at {box(w)} outside the window"


@pytest.mark.parametrize("profile,size", [LANDSCAPE_360_FONT13, ("landscape", None)])
def test_the_end_dialog_fits_a_landscape_phone(make_app, data_dir, touch_first, profile, size):
    drv = start_app(make_app, data_dir, profile, animations=0)
    if size:
        turn(drv, size)
    d = _win_a_record(drv)
    assert d.ask_name  # the tallest end dialog: numbers, the name prompt, the buttons
    drv.frames(3)
    _assert_all_inside(d, drv.window)
    drv.press(d.ids.new_game)  # reachable by a tap
    drv.wait(0.5)
    assert d.parent is None


@pytest.mark.parametrize("profile", ["phone_360", "landscape"])
def test_a_message_never_covers_the_corner_button(make_app, data_dir, touch_first, profile):
    drv = start_app(make_app, data_dir, profile, animations=0)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap_cell(8, 15)
    b = drv.board
    assert b.fit_button.shown
    drv.ctrl.message = "Move taken back: the game goes on, marked as assisted."
    drv.frames(3)
    toast = drv.ids("toast")
    tx0, ty0, tx1, ty1 = box(toast)
    fx0, fy0, fx1, fy1 = box(b.fit_button)
    assert tx1 <= fx0 or fx1 <= tx0 or ty1 <= fy0 or fy1 <= ty0, "the message lies over the button"
    assert toast.texture_size[1] <= toast.height
    assert box(toast)[3] <= box(b)[3]  # and inside the board's area


@pytest.mark.parametrize("profile", ["phone_360_font13", "desktop"])
def test_the_records_board_list_opens_and_picks_by_touch(make_app, data_dir, profile):
    from kivy.uix.dropdown import DropDown

    drv = start_app(make_app, data_dir, profile)
    drv.app.show_screen("records")
    drv.frames(3)
    rs = drv.app.root.get_screen("records")
    drv.press(rs.ids.spinner)
    drv.wait(0.4)
    dd = next(w for w in drv.window.children if isinstance(w, DropDown))
    options = {o.text: o for o in dd.container.children}
    assert set(options) >= {"Beginner", "Intermediate", "Expert"}
    expert = options["Expert"]
    assert expert.height >= 48 * drv.profile.density - 0.5  # a finger's worth each
    assert expert.texture_size[1] <= expert.height
    assert box(expert)[1] >= 0 and box(expert)[3] <= drv.window.height
    drv.press(expert)
    drv.wait(0.4)
    assert rs.difficulty == "Expert" and rs.ids.spinner.text == "Expert"


@pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())
def test_hint_and_solver_are_greyed_while_paused(make_app, data_dir, touch_first):
    drv = start_app(make_app, data_dir, "phone_360", animations=0)
    drv.tap_cell(4, 4)
    hint, solver = drv.ids("hint"), drv.ids("solver")
    assert not hint.disabled and not solver.disabled
    drv.press(drv.ids("pause"))
    assert drv.ctrl.paused
    assert hint.disabled and solver.disabled  # they took no move and said nothing
    drv.press(hint)
    drv.press(solver)
    assert not [w for w in drv.window.children if type(w).__name__ == "SolverMenu"]
    drv.press(drv.ids("pause"))
    assert not drv.ctrl.paused and not hint.disabled and not solver.disabled


def test_a_second_tap_on_the_fit_button_does_not_open_the_cell_under_it(
        make_app, data_dir, touch_first):
    drv = start_app(make_app, data_dir, "phone_393", animations=0)
    drv.ctrl.seed = 3
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap_cell(8, 15)
    b, fb = drv.board, drv.board.fit_button
    assert fb.shown
    x, y = drv.widget_pos(fb)
    drv.tap(x, y, hold=0.05)  # fits the whole board: it now lies under the button
    assert b.is_fitted() and not fb.shown
    cell = b.cell_at(*b.to_parent(*b.to_widget(x, y)))
    assert cell is not None and drv.game.view[cell] == -1
    view = drv.game.view.copy()
    drv.tap(x, y, hold=0.05)  # the same finger again, as in a double tap
    assert (drv.game.view == view).all() and drv.ctrl.state == "playing"
    drv.wait(1.0)  # later, the place is an ordinary cell again
    drv.tap(x, y)
    assert drv.game.view[cell] != -1


@pytest.mark.parametrize("profile", ["phone_360", "desktop"])
def test_a_tap_that_closes_the_menu_plays_no_move(make_app, data_dir, touch_first, profile):
    from kivy.uix.dropdown import DropDown

    drv = start_app(make_app, data_dir, profile, animations=0)
    drv.tap_cell(4, 4)
    drv.press(drv.ids("menu_button"))
    drv.wait(0.3)
    menu = next(w for w in drv.window.children if isinstance(w, DropDown))
    view = drv.game.view.copy()
    # a hidden cell outside the menu, where a player taps to close it
    cell = next((int(r), int(c)) for r, c in np.argwhere(view == -1)
                if not menu.collide_point(*drv.cell_pos(int(r), int(c))))
    drv.tap_cell(*cell)
    drv.wait(0.3)
    assert menu.parent is None  # closed
    assert (drv.game.view == view).all(), "the closing tap opened a cell"


@pytest.mark.parametrize("profile,size", [LANDSCAPE_360_FONT13, ("landscape", None)])
def test_every_preset_shows_without_scrolling_on_a_landscape_phone(
        make_app, data_dir, profile, size):
    from profiles import inside

    from fastmine import DIFFICULTIES

    drv = start_app(make_app, data_dir, profile)
    if size:
        turn(drv, size)
    drv.app.show_screen("new_game")
    drv.frames(3)
    ng = drv.app.root.get_screen("new_game")
    view = ng.ids.custom.parent.parent  # the scrolling part, at its top
    assert ng.ids.presets.cols == 4
    for name in DIFFICULTIES:
        btn = ng.ids[f"preset_{name}"]
        assert inside(btn, view), f"{name} needs scrolling"
        assert btn.texture_size[1] <= btn.height and btn.texture_size[0] <= btn.width
    heights = {ng.ids[f"preset_{name}"].height for name in DIFFICULTIES}
    assert len(heights) == 1, f"ragged rows of presets: {heights}"
    assert inside(ng.ids.start, drv.window)
    drv.press(ng.ids["preset_expert"])
    assert ng.choice == "expert"
