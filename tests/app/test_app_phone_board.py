"""The board on a phone: cell size, transposed wide boards, panning, the fit
button, zoom kept between games, the long-press ring and vibration, the chord
cue and the animations -- at the phone profiles of ``profiles.py``, with
real rendering and real touches."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import ALL, PHONES, start_app  # noqa: E402

from fastmine import FLAG, HIDDEN, Difficulty  # noqa: E402

EXPERT = Difficulty(16, 30, 99)


@pytest.fixture
def touch_first(monkeypatch):
    """Phones open games the touch-screen way (the platform says so on a device)."""
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)


@pytest.fixture
def buzz(monkeypatch):
    """Record vibrations instead of asking a vibrator."""
    from fastmine.app.services import haptics

    pulses: list[float] = []
    haptics.set_backend(pulses.append)
    yield pulses
    haptics.set_backend(None)


def phone(make_app, data_dir, profile="phone_393", **config):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = profile != "desktop"  # monkeypatched back by touch_first
    drv = start_app(make_app, data_dir, profile, **config)
    drv.frames(2)
    return drv


def settle(drv) -> None:
    """Let the animations run out in a few long frames (big windows draw slowly)."""
    drv.frames(3, 0.4)


def drawn_center(drv, r: int, c: int) -> tuple[float, float]:
    """Window position of game cell (r, c) computed here, independently of the
    board's own mapping: transposed, game row r is drawn as column r."""
    b = drv.board
    dr, dc = (c, r) if b.transposed else (r, c)
    ox, oy = b.offset
    x = b.x + ox + (dc + 0.5) * b.scale
    y = b.y + oy + (b.drows - dr - 0.5) * b.scale
    return b.to_window(x, y)


def in_view(drv, r: int, c: int) -> tuple[float, float]:
    """Bring game cell (r, c) into view; its window position."""
    drv.board.show_cell(r, c)
    drv.frames(1)
    return drv.cell_pos(r, c)


def dp_scale(drv) -> float:
    return drv.board.scale / drv.profile.density


def test_viewport_rules():
    from fastmine.app.board import viewport

    assert doctest.testmod(viewport).failed == 0


@pytest.mark.parametrize("profile", ALL)
def test_expert_opens_at_a_finger_size_and_turns_in_portrait(make_app, data_dir, touch_first, profile):
    drv = phone(make_app, data_dir, profile)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    b, p = drv.board, drv.profile
    if profile == "desktop":
        assert not b.transposed and b.is_fitted()  # the desktop keeps "fit"
        return
    assert dp_scale(drv) >= 48  # 56 dp, the setting's default
    # portrait: 16x30 drawn as 30 rows of 16; landscape: as it is
    assert b.transposed == (not p.landscape)
    assert (b.drows, b.dcols) == ((30, 16) if not p.landscape else (16, 30))
    # the game, its records and saves keep the game's board
    assert (drv.game.rows, drv.game.cols) == (16, 30) and b.tiles.shape == (16, 30)
    # a tap where game cell (r, c) is drawn plays that cell
    r, c = 6, 9
    b.show_cell(r, c)
    drv.frames(1)
    drv.tap(*drawn_center(drv, r, c))
    assert drv.game.view[r, c] >= 0  # the first click opens there
    assert np.count_nonzero(drv.game.view >= 0) > 1


def test_50x50_pans_and_a_pan_reveals_nothing(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    b = drv.board
    assert dp_scale(drv) == pytest.approx(56)
    assert not b.is_fitted() and b.fit_button.shown and b.fit_button.zoomed
    assert b.indicators.visible == (True, True)  # where you are, on both axes
    # opened around the middle of the board
    mx, my = b.to_window(*b.center)
    assert b.cell_at(*b.to_parent(mx, my)) in {(r, c) for r in (24, 25) for c in (24, 25)}
    off = b.offset
    x, y = b.to_window(*b.center)
    drv.drag(x, y, x + 300, y - 400)
    assert b.offset != off
    assert (drv.game.view == HIDDEN).all() and drv.game.state.value == "ready"
    # the corner button shows the whole board, and zooms back in
    drv.press(b.fit_button)
    assert b.is_fitted() and not b.fit_button.zoomed and b.fit_button.shown
    assert b.indicators.visible == (False, False)
    drv.press(b.fit_button)
    assert dp_scale(drv) == pytest.approx(56) and not b.is_fitted()
    assert (drv.game.view == HIDDEN).all()


def test_double_tap_beside_the_board_fits_and_on_a_cell_plays(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    b = drv.board
    drv.press(b.fit_button)  # whole board: a square with room above and below it
    assert b.is_fitted()
    x, y = b.to_window(b.center_x, b.top - 5)
    assert b.cell_at(*b.to_parent(x, y)) is None
    drv.tap(x, y, hold=0.02)
    drv.tap(x, y, hold=0.02)  # a double tap on empty space: zoom in to the cell size
    assert dp_scale(drv) == pytest.approx(56)
    assert (drv.game.view == HIDDEN).all()
    # a quick double tap on a cell is two taps: the first reveals, nothing else happens
    cx, cy = drv.cell_pos(25, 25)
    drv.tap(cx, cy, hold=0.02)
    drv.tap(cx, cy, hold=0.02)
    assert drv.game.view[25, 25] >= 0 and dp_scale(drv) == pytest.approx(56)


def test_zoom_and_position_are_kept_between_games_of_the_same_size(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    b = drv.board
    b.zoom_at(1.3, *b.center)
    drv.drag(*b.to_window(*b.center), *b.to_window(b.center_x + 200, b.center_y + 150))
    kept = (b.scale, b.offset)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    assert b.scale == pytest.approx(kept[0]) and np.allclose(b.offset, kept[1])
    drv.app.start_game(EXPERT)  # another size opens its own way
    drv.frames(2)
    assert dp_scale(drv) == pytest.approx(56)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    assert b.scale == pytest.approx(kept[0]) and np.allclose(b.offset, kept[1])


def test_turning_the_phone_redraws_the_board_turned(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    b = drv.board
    drv.tap(*drawn_center(drv, 8, 15))
    tiles = b.tiles.copy()
    assert b.transposed
    from profiles import apply_profile

    apply_profile(drv.window, "landscape")
    drv.frames(3)
    assert not b.transposed and (b.drows, b.dcols) == (16, 30)
    assert np.array_equal(b.tiles, tiles)
    uv = np.array(b._verts).reshape(16, 30, 4, 4)[..., 2:]
    assert np.allclose(uv, b.atlas.uv[tiles])  # the same tiles on the same cells
    for r, c in [(0, 0), (15, 29), (3, 27)]:
        b.show_cell(r, c)
        assert b.cell_at(*b.to_parent(*drawn_center(drv, r, c))) == (r, c)


def test_long_press_shows_its_ring_then_flags_and_vibrates(make_app, data_dir, touch_first, buzz):
    drv = phone(make_app, data_dir)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    b = drv.board
    x, y = in_view(drv, 5, 5)
    before = drv.pixels().astype(int)
    t = drv.down(x, y)
    drv.wait(0.2)  # half the 0.4 s delay
    assert b.arming.active and 0.3 < b.arming.progress < 0.8
    assert drv.game.view[5, 5] == HIDDEN and buzz == []  # not yet flagged
    drv.window.canvas.ask_update()
    drv.frames(1)
    during = drv.pixels().astype(int)
    # the ring is drawn around the finger, outside the pressed cell
    rad = b.arming.radius()
    wx, wy = int(x), int(y)
    band = np.abs(during - before).sum(axis=2)
    ring = [band[int(wy + rad * np.cos(a)), int(wx + rad * np.sin(a))] for a in np.linspace(0, 2.5, 8)]
    assert max(ring) > 60
    drv.wait(0.3)
    assert drv.game.view[5, 5] == FLAG  # the flag lands with the finger still down
    assert not b.arming.active and len(buzz) == 1
    drv.up(t)
    drv.frames(2)
    assert drv.game.view[5, 5] == FLAG


def test_no_vibration_with_haptics_off_and_no_ring_for_a_pan(make_app, data_dir, touch_first, buzz):
    drv = phone(make_app, data_dir, haptics=0)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap(*in_view(drv, 5, 5), hold=0.6)
    assert drv.game.view[5, 5] == FLAG and buzz == []
    x, y = in_view(drv, 7, 7)
    t = drv.down(x, y)
    drv.frames(2)
    assert drv.board.arming.active
    drv.move(t, x + 60, y)
    drv.frames(1)
    assert not drv.board.arming.active  # a pan is not a long press
    drv.up(t)


def test_vibrating_without_a_vibrator_is_silent():
    from fastmine.app.services import haptics

    def none(_s):
        raise NotImplementedError("no vibrator")

    haptics.set_backend(none)
    try:
        assert haptics.vibrate() is False and haptics.vibrate() is False
    finally:
        haptics.set_backend(None)


# 9x9: mines in the top-left corner and around the bottom-right one, which the
# opening at (4, 4) cannot reach (so that opening does not win)
#   M M . . . . . . .
#   M 3 . . . . . . .
#   . . . . . . . . .
#   ...
#   . . . . . . . M M
#   . . . . . . . M 3
MASK = np.zeros((9, 9), bool)
MASK[0, 0] = MASK[0, 1] = MASK[1, 0] = MASK[7, 7] = MASK[7, 8] = MASK[8, 7] = True


def close_dialogs(drv) -> None:
    from kivy.uix.modalview import ModalView

    for w in list(drv.window.children):
        if isinstance(w, ModalView):
            w.dismiss(animation=False)
    drv.frames(2)


def test_a_pressed_number_shows_its_hidden_neighbours(drv):
    drv.attach_board(MASK)
    drv.tap_cell(4, 4)  # opens all but the two corners
    assert drv.game.view[1, 1] == 3 and drv.game.state.value == "playing"
    drv.tap_cell(0, 0, button="right", device="mouse")  # one flag beside it
    t = drv.down(*drv.cell_pos(1, 1))
    drv.frames(2)
    assert sorted(drv.board.pressed_cells()) == [(0, 1), (1, 0)]  # hidden, not the flag
    drv.up(t)  # the release chords: 1 flag for a 3, so nothing opens
    drv.frames(2)
    assert drv.board.pressed_cells() == []
    from fastmine.app.board import tiles as T

    assert drv.board.tiles[0, 1] == T.HIDDEN_T and drv.board.tiles[0, 0] == T.FLAG_T


def test_opening_explosion_and_celebration_play_and_end(drv):
    drv.attach_board(MASK)
    fx = drv.board.effects
    drv.tap_cell(4, 4)
    assert fx.kinds() == ["Cascade"]
    tiles = drv.board.tiles.copy()
    settle(drv)
    assert fx.kinds() == [] and np.array_equal(drv.board.tiles, tiles)  # gone, board untouched
    drv.tap_cell(7, 7)
    assert drv.game.state.value == "lost" and fx.kinds() == ["Explosion"]
    settle(drv)
    assert fx.kinds() == []
    close_dialogs(drv)
    drv.attach_board(MASK)
    assert drv.board.is_fitted()  # a game of the same size opens whole again
    drv.tap_cell(4, 4)
    settle(drv)
    drv.tap_cell(8, 8)  # the last safe cell
    assert drv.game.state.value == "won" and fx.kinds() == ["Celebration"]
    drv.frames(5, 0.4)
    assert fx.kinds() == []


def test_opening_covers_sit_on_the_opened_cells_of_a_turned_board(make_app, data_dir,
                                                                  touch_first):
    """The cascade's covers are drawn where the board draws the cells, turned too:
    on the first frame an opened cell still looks as it did hidden; once the wave
    has passed it looks open."""
    drv = phone(make_app, data_dir)
    mask = np.zeros((16, 30), bool)
    mask[:, 22] = True  # a wall: the tap opens the cells left of it, not the whole board
    drv.attach_board(mask)
    b = drv.board
    assert b.transposed
    target = (8, 17)  # opened by the tap below, two cells from it
    in_view(drv, 8, 15)
    x, y = (int(v) for v in drawn_center(drv, *target))
    hidden = drv.pixels()[y, x].copy()
    drv.tap_cell(8, 15)
    assert drv.board.effects.kinds() == ["Cascade"] and b.tiles[target] == 0
    covered = drv.pixels()[y, x].copy()
    settle(drv)
    opened = drv.pixels()[y, x].copy()
    def diff(a, b):
        return int(np.abs(a.astype(int) - b.astype(int)).max())

    # (the wave may already have begun to fade the cover by a shade)
    assert diff(covered, hidden) <= 8 and diff(opened, hidden) > 24, (hidden, covered, opened)


def test_reduce_motion_turns_the_animations_off(make_app, data_dir):
    drv = make_app(data_dir, animations=0)
    drv.attach_board(MASK)
    drv.tap_cell(4, 4)
    assert drv.board.effects.kinds() == []
    drv.tap_cell(8, 8)
    assert drv.game.state.value == "won" and drv.board.effects.kinds() == []
    drv.attach_board(MASK)
    drv.tap_cell(7, 7)
    assert drv.game.state.value == "lost" and drv.board.effects.kinds() == []


@pytest.mark.parametrize("profile", PHONES[:1])
def test_phone_screenshots(make_app, data_dir, touch_first, screenshot_dir, profile):
    """Phone-profile pictures for docs/app.md: 50x50 zoomed mid-game, the
    arming ring, Expert transposed."""
    drv = phone(make_app, data_dir, profile)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    drv.tap_cell(25, 25)
    drv.frames(2, 0.35)
    path, px = drv.screenshot(screenshot_dir, f"{profile}-50x50-zoomed")
    assert px.std() > 10
    drv.app.start_game(EXPERT)
    drv.frames(2)
    drv.tap(*drawn_center(drv, 8, 15))  # the middle of the view
    drv.frames(2, 0.35)
    drv.screenshot(screenshot_dir, f"{profile}-expert-transposed")
    drv.press(drv.board.fit_button)
    drv.screenshot(screenshot_dir, f"{profile}-expert-whole")
    drv.board.toggle_fit()  # back to the cell size (the whole board leaves no room for the button)
    drv.frames(1)
    assert not drv.board.is_fitted()
    b = drv.board
    mid = b.cell_at(*b.center)
    # a hidden cell next to the open area, near the middle of the view
    hidden = np.argwhere(drv.game.view == HIDDEN)
    r, c = map(int, hidden[np.argmin(np.abs(hidden - mid).sum(axis=1))])
    t = drv.down(*in_view(drv, r, c))
    drv.wait(0.25)
    drv.screenshot(screenshot_dir, f"{profile}-long-press-ring")
    drv.up(t)
    drv.frames(2)


def test_flag_mode_shows_by_its_icon_not_only_its_colour(drv):
    from fastmine.app.board import tiles as T

    button = drv.ids("flag_mode")
    atlas = drv.app.atlas

    def shows(tile):
        return tuple(button.icon.uvpos) == tuple(atlas.region(tile).uvpos)

    assert shows(T.ICON_DIG) and not drv.ctrl.flag_mode  # a tap digs
    drv.press(button)
    assert drv.ctrl.flag_mode and shows(T.ICON_FLAG)  # a tap flags
    drv.press(button)
    assert shows(T.ICON_DIG)


def test_effect_screenshots(make_app, data_dir, touch_first, screenshot_dir):
    """Mid-animation pictures at a 360-dp phone: the opening cascade, the
    explosion, the confetti.  Beginner opens whole there, at 40 dp cells."""
    drv = phone(make_app, data_dir, "phone_360")
    drv.attach_board(MASK)
    assert drv.board.is_fitted() and dp_scale(drv) == pytest.approx(40)
    t = drv.down(*drv.cell_pos(4, 4))
    drv.frames(2)
    drv.up(t)
    drv.frames(8)
    assert drv.board.effects.kinds() == ["Cascade"]
    drv.screenshot(screenshot_dir, "phone_360-opening-cascade")
    settle(drv)
    drv.tap_cell(7, 7)
    drv.frames(6)
    drv.screenshot(screenshot_dir, "phone_360-explosion")
    settle(drv)
    close_dialogs(drv)
    drv.attach_board(MASK)
    assert drv.board.is_fitted()  # a game of the same size opens whole again
    drv.tap_cell(4, 4)
    settle(drv)
    drv.tap_cell(8, 8)
    drv.frames(2, 0.25)
    assert drv.board.effects.kinds() == ["Celebration"]
    drv.screenshot(screenshot_dir, "phone_360-win-confetti")


def test_a_resumed_game_opens_around_its_open_cells(make_app, data_dir, touch_first):
    from fastmine import Board, Game

    drv = phone(make_app, data_dir)
    mask = np.zeros((50, 50), bool)
    mask[::3, ::3] = True
    game = Game.from_board(Board.from_mines(mask), clock=drv.clock)
    game.reveal(46, 4)  # one number near the bottom-left corner
    game.reveal(44, 40)  # and one near the bottom-right
    drv.ctrl.attach(game)
    drv.frames(2)
    b = drv.board
    assert not b.is_fitted()
    assert b.collide_point(*b.cell_center(44, 40)) or b.collide_point(*b.cell_center(46, 4))
    assert not b.collide_point(*b.cell_center(2, 25))  # not the middle of the board


def test_no_cell_stays_under_the_corner_button(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    b = drv.board
    fb = b.fit_button
    # zoomed: panned to the far corner, the corner cell comes out from under the button
    assert fb.shown
    for _ in range(6):
        x, y = b.to_window(*b.center)
        drv.drag(x, y, x - 400, y + 600)
    corner = b.cell_at(*fb.center)
    last = (15, 29)  # drawn bottom-right, turned or not
    assert corner != last
    cx, cy = b.cell_center(*last)
    assert b.collide_point(cx, cy) and not fb.collide_point(cx, cy)
    drv.tap(*b.to_window(cx, cy))
    assert drv.game.view[last] >= 0  # playable: the first click opens there
    # whole board: a "zoom in" button never covers a cell
    drv.press(fb)
    assert b.is_fitted()
    assert not fb.shown or b.cell_at(*fb.center) is None


def test_the_kept_zoom_survives_a_restart(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    b = drv.board
    b.zoom_at(1.25, *b.center)
    b.pan_by(-300, 500)
    kept = (b.scale, b.offset)
    drv.stop()  # the app stops: the views are written to its data folder
    assert (data_dir / "board_views.json").exists()
    drv = phone(make_app, data_dir)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    assert drv.board.scale == pytest.approx(kept[0]) and np.allclose(drv.board.offset, kept[1])
    drv.stop()
    (data_dir / "board_views.json").write_text("[[50, 50, false, \"x\"]] garbage")
    drv = phone(make_app, data_dir)  # an unreadable file is ignored
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    assert dp_scale(drv) == pytest.approx(56)


def test_kept_views_that_are_no_file_are_ignored_not_waited_on(tmp_path):
    """A FIFO where the kept views should be (read when the first game opens)
    gives no views instead of freezing the start; a huge file is not read."""
    import os

    from fastmine.app.board.viewport import MAX_VIEWS_BYTES, ZoomMemory

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo, huge = tmp_path / "fifo.json", tmp_path / "huge.json"
    os.mkfifo(fifo)
    m = ZoomMemory()
    m.remember((9, 9, False, 56.0), 56.0, (4.5, 4.5), False)
    huge.write_text(m.to_json() + " " * MAX_VIEWS_BYTES)
    for path in (fifo, huge):
        assert ZoomMemory.load(str(path)).recall((9, 9, False, 56.0)) is None
    m.save(str(huge))
    assert ZoomMemory.load(str(huge)).recall((9, 9, False, 56.0)) == (56.0, (4.5, 4.5), False)


def test_arrow_keys_move_the_cursor_on_the_screen_when_turned(make_app, data_dir, touch_first):
    drv = phone(make_app, data_dir)
    drv.app.start_game(EXPERT)
    drv.frames(2)
    b = drv.board
    assert b.transposed
    drv.key(275)  # right arrow: the cursor appears
    start = b.cursor
    x0, y0 = b.cell_center(*start)
    drv.key(275)  # right: one drawn column to the right
    x1, y1 = b.cell_center(*b.cursor)
    assert x1 > x0 and y1 == pytest.approx(y0)
    drv.key(274)  # down: one drawn row lower
    x2, y2 = b.cell_center(*b.cursor)
    assert y2 < y1 and x2 == pytest.approx(x1)
