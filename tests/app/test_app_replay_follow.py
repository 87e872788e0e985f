"""The replay player on a touch screen opens like a game would and follows the
moves: an Expert replay at the cell size around the move shown (the fatal cell
for "Why did I lose?"), a small board whole, the desktop whole; each move's
cell brought into view, unless the player panned by hand (until play or a
step); its zoom its own.  Real app, real rendering, real touches, fake clock."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import settle  # noqa: E402
from profiles import PHONES, start_app  # noqa: E402

import fastmine  # noqa: E402
from fastmine import HIDDEN  # noqa: E402
from fastmine.replay import Replay  # noqa: E402

CORNERS = ((0, 0), (15, 29), (0, 29), (15, 0), (8, 15))


def lost_expert(seed: int = 7) -> Replay:
    """An Expert game, a move a second: open the middle, a safe cell near each
    corner, then the mine nearest the bottom-left corner (far from the last)."""
    now = [0.0]
    g = fastmine.Game(16, 30, 99, seed=seed, clock=lambda: now[0])
    g.reveal(8, 15)
    safe = ~g.board.mines
    for target in CORNERS[:4]:
        now[0] += 1.0
        hidden = np.argwhere((g.view == HIDDEN) & safe)
        near = hidden[np.argmin(np.abs(hidden - target).sum(axis=1))]
        g.reveal(*(int(v) for v in near))
    now[0] += 1.0
    mines = np.argwhere((g.view == HIDDEN) & g.board.mines)
    g.reveal(*(int(v) for v in mines[np.argmin(np.abs(mines - (15, 0)).sum(axis=1))]))
    assert g.state.value == "lost"
    return Replay.from_game(g)


def small_game() -> Replay:
    g = fastmine.Game(9, 9, 10, seed=5, clock=lambda: 0.0)
    g.reveal(4, 4)
    return Replay.from_game(g)


def dp_scale(drv, board) -> float:
    return board.scale / drv.profile.density


def on_screen(board, cell, margin_cells: float = 0.0) -> bool:
    """The whole cell, and the cells up to ``margin_cells`` around it that the
    board has (a corner cell has no neighbours past the edge), lie inside the
    board widget."""
    s = board.scale
    bx, by = board._drawn_center(*cell)  # drawn cell units
    x0, x1 = max(0.0, bx - 0.5 - margin_cells), min(board.dcols, bx + 0.5 + margin_cells)
    y0, y1 = max(0.0, by - 0.5 - margin_cells), min(board.drows, by + 0.5 + margin_cells)
    ox, oy = board.offset
    return (ox + x0 * s >= -0.5 and ox + x1 * s <= board.width + 0.5
            and oy + y0 * s >= -0.5 and oy + y1 * s <= board.height + 0.5)


def why(drv, rep):
    """What "Why did I lose?" does: the player at the fatal move."""
    from fastmine.app.replays.player import analyse

    coaching = analyse(rep)
    fatal = coaching.fatal
    assert fatal is not None and fatal.index == len(rep) - 1
    scr = drv.app.watch_replay(rep, coaching, at=fatal.index)
    settle(drv, 0.6)
    return scr, fatal


@pytest.fixture
def phone(make_app, data_dir, monkeypatch):
    from fastmine.app.board import viewport

    def start(profile="phone_360_font13", **config):
        monkeypatch.setattr(viewport, "TOUCH_FIRST", profile != "desktop")
        return start_app(make_app, data_dir, profile, **config)

    return start


def test_why_did_i_lose_opens_an_expert_replay_zoomed_on_the_fatal_cell(phone, screenshot_dir):
    drv = phone("phone_360_font13", animations=0)
    rep = lost_expert()
    scr, fatal = why(drv, rep)
    b = scr.board
    assert b.fit_scale() / drv.profile.density < 13  # whole, it would be the unreadable 12 dp
    assert dp_scale(drv, b) == pytest.approx(56) and not b.is_fitted()
    assert b.cursor == fatal.cell and on_screen(b, fatal.cell, 1.0)
    assert b.fit_button.shown and b.fit_button.zoomed  # the way to the whole board
    drv.screenshot(screenshot_dir, "replay_follow_phone_360_font13_why")


@pytest.mark.parametrize("animations", [0, 1])
def test_a_step_to_a_far_move_brings_its_cell_into_view(phone, animations):
    drv = phone("phone_360_font13", animations=animations)
    rep = lost_expert()
    scr, fatal = why(drv, rep)
    b = scr.board
    scale = b.scale
    first = tuple(int(v) for v in rep.moves[0, 1:3])
    assert not on_screen(b, first)  # the middle is far from the fatal corner
    drv.press(scr.ids.start)
    settle(drv, 0.5)  # a glide, when animations are on
    assert scr.k == 0 and on_screen(b, first, 1.0)
    for k in range(1, len(rep)):
        drv.press(scr.ids.forward_step)
        settle(drv, 0.5)
        cell = tuple(int(v) for v in rep.moves[k, 1:3])
        assert scr.k == k and b.cursor == cell and on_screen(b, cell, 1.0), k
    assert b.scale == scale  # it pans, never zooms by itself


def test_a_pan_by_hand_is_kept_until_play_is_pressed(phone):
    drv = phone("phone_393", animations=0)
    rep = lost_expert()
    scr, _fatal = why(drv, rep)
    b = scr.board
    drv.press(scr.ids.start)
    drv.press(scr.ids.play)
    assert scr.playing
    # while it plays, a finger drags the board away from the moves
    cx, cy = b.to_window(*b.center)
    drv.drag(cx, cy, cx + b.width * 0.4, cy - b.height * 0.3)
    assert b.hands_off
    where = b.offset
    k = scr.k
    settle(drv, 2.5)  # moves play on...
    assert scr.k >= k + 2
    assert b.offset == where  # ...the view stays where the finger left it
    drv.press(scr.ids.play)  # pause: still left alone
    assert not scr.playing and b.offset == where
    drv.press(scr.ids.play)  # play again: the view goes back to the moves
    settle(drv, 0.3)
    assert scr.playing and not b.hands_off
    assert on_screen(b, b.cursor, 1.0)
    # paused, a pan by hand takes the move's cell off screen; a step brings it back
    drv.press(scr.ids.play)
    assert not scr.playing
    cell = b.cursor
    for _ in range(3):
        x, y = b.to_window(*b.cell_center(*cell))
        # the finger goes the way the cell is: the board moves on past it
        drv.drag(cx, cy, cx + np.sign(x - cx) * b.width * 0.45, cy + np.sign(y - cy) * b.height * 0.45)
    # three quick drags from the same spot: pans, not a double tap (no zoom)
    assert b.hands_off and not on_screen(b, cell) and dp_scale(drv, b) == pytest.approx(56)
    drv.press(scr.ids.back_step)
    assert not b.hands_off and on_screen(b, b.cursor, 1.0)


def test_the_fit_button_and_a_double_tap_toggle_whole_and_zoomed(phone, data_dir, screenshot_dir):
    from fastmine.app.board.boardview import VIEWS_FILE

    drv = phone("phone_393", animations=0)
    # the game's board keeps a view for its size (the file the replay must not touch)
    game_board = drv.board
    game_board.toggle_fit()
    game_board.save_views()
    path = data_dir / VIEWS_FILE
    before = path.read_bytes()
    scr, fatal = why(drv, lost_expert())
    b = scr.board
    drv.screenshot(screenshot_dir, "replay_follow_phone_393_why")
    assert not b.is_fitted()
    drv.press(b.fit_button)
    assert b.is_fitted() and b.transposed  # Expert turned to follow the upright phone
    drv.screenshot(screenshot_dir, "replay_follow_phone_393_whole")
    drv.press(scr.ids.forward_step)  # whole stays whole: it never zooms by itself
    assert b.is_fitted()
    x, y = b.to_window(*b.cell_center(*fatal.cell))
    drv.tap(x, y, hold=0.05)
    drv.tap(x, y, hold=0.05)  # a double tap, on a cell: there is nothing to play here
    assert not b.is_fitted() and dp_scale(drv, b) == pytest.approx(56)
    x, y = b.to_window(*b.center)
    for _ in range(2):  # two taps apart: nothing
        drv.wait(0.5)
        drv.tap(x, y, hold=0.05)
    assert not b.is_fitted()
    drv.wait(0.5)
    drv.tap(x, y, hold=0.05)
    drv.tap(x, y, hold=0.05)
    assert b.is_fitted()
    # the player's zooms are its own: the game's kept views are as they were
    drv.app.dispatch("on_pause")
    drv.frames(2)
    b.save_views()
    assert path.read_bytes() == before
    assert game_board.memory.recall((16, 30, True, 56.0)) is None
    assert game_board.memory.recall((16, 30, False, 56.0)) is None


@pytest.mark.parametrize("profile", PHONES)
def test_a_beginner_replay_opens_whole_on_a_phone(phone, profile):
    drv = phone(profile, animations=0)
    scr = drv.app.watch_replay(small_game())
    settle(drv, 0.4)
    b = scr.board
    assert b.is_fitted() and b.scale == pytest.approx(b.fit_scale())
    assert dp_scale(drv, b) >= 32 - 1e-6  # read at a glance; nothing is tapped


def test_the_desktop_opens_a_replay_whole(phone):
    drv = phone("desktop")
    scr, fatal = why(drv, lost_expert())
    b = scr.board
    assert b.is_fitted() and not b.transposed and b.scale == pytest.approx(b.fit_scale())
    drv.press(scr.ids.start)
    assert b.is_fitted() and on_screen(b, b.cursor)


@pytest.mark.parametrize("profile", ["landscape", "phone_360_font13"])
def test_playing_on_a_phone_follows_each_move(phone, profile, screenshot_dir):
    drv = phone(profile, animations=1)
    rep = lost_expert()
    scr, _fatal = why(drv, rep)
    b = scr.board
    drv.press(scr.ids.start)
    drv.press(scr.ids.play)
    seen = set()
    while scr.playing:
        drv.frames(1, 0.1)
        if scr.k < len(rep) and b._glide is None:  # landed: the next move's cell shows
            assert on_screen(b, b.cursor, 1.0), scr.k
            seen.add(scr.k)
    assert seen >= set(range(1, len(rep)))  # the first move plays at once
    drv.press(scr.ids.back_step)
    drv.screenshot(screenshot_dir, f"replay_follow_{profile}_last_move")


@pytest.mark.parametrize("profile", ["phone_360_font13", "phone_393", "landscape"])
def test_a_replay_is_drawn_the_way_the_game_drew_it(phone, profile):
    # Upright, the game draws Expert as 30 rows of 16; the player's board,
    # above its controls, is wider than tall on a phone with large text and
    # drew the same game on its side, a board the player did not know again.
    drv = phone(profile, animations=0)
    drv.app.start_game(fastmine.Difficulty(16, 30, 99), name="expert")
    settle(drv, 0.3)
    game_turned = drv.board.transposed
    assert game_turned == (profile != "landscape")
    scr, _fatal = why(drv, lost_expert())
    assert scr.board.transposed == game_turned
