"""Screenshots of the main screens, written as PNGs and checked not to be blank.

They go to ``$FASTMINE_SCREENSHOTS`` (or a temp folder): look at them after
a change to the drawing.  ``docs/screenshots/`` keeps a few for the README.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("kivy")

from fastmine import Difficulty  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.play import assist  # noqa: E402


def check_not_blank(path, px):
    assert os.path.getsize(path) > 2000
    assert px.std() > 5, "the frame is (nearly) one colour"
    colours = np.unique(px[::2, ::2].reshape(-1, 3), axis=0)
    assert len(colours) > 20, f"only {len(colours)} colours: nothing drawn?"


def shot(drv, folder, name):
    path, px = drv.screenshot(folder, name)
    check_not_blank(path, px)
    return px


def test_fresh_board(drv, screenshot_dir):
    px = shot(drv, screenshot_dir, "fresh_board")
    # the board area really shows tiles: the centre is not the background colour
    h, w, _ = px.shape
    bg = (np.array(drv.app.theme.bg[:3]) * 255).round()
    assert np.abs(px[h // 2, w // 2] - bg).max() > 10


def test_mid_game_50x50(make_app, data_dir, screenshot_dir):
    drv = make_app(data_dir)
    drv.ctrl.seed = 11
    drv.app.start_game(Difficulty(50, 50, 400))
    drv.ctrl.reveal(25, 25)
    g = drv.game
    rng = np.random.default_rng(2)
    for r, c in rng.permutation(np.argwhere(~g.board.mines))[:40]:
        if g.state.name == "PLAYING":
            drv.ctrl.reveal(int(r), int(c))
    for r, c in np.argwhere(g.board.mines)[:60]:
        if g.state.name == "PLAYING":
            drv.ctrl.mark(int(r), int(c))
    assert g.state.name == "PLAYING"
    shot(drv, screenshot_dir, "midgame_50x50")
    # zoomed in as a phone player would
    drv.board.zoom_at(3.0, *drv.board.cell_center(25, 25))
    drv.board.cursor = (25, 25)
    shot(drv, screenshot_dir, "midgame_50x50_zoomed")


def _play_to_end(drv, win: bool):
    drv.ctrl.seed = 5
    drv.app.start_game(Difficulty(9, 9, 10))
    drv.frames(2)  # the board lays itself out for the new size
    drv.tap_cell(4, 4)
    g = drv.game
    for r, c in np.argwhere(g.board.mines)[:3]:
        drv.ctrl.mark(int(r), int(c))
    drv.clock.advance(23.4)  # a plausible time on the clock
    drv.frames(1)
    if win:
        for r, c in np.argwhere(~g.board.mines):
            if g.state.name == "PLAYING":
                drv.ctrl.reveal(int(r), int(c))
    else:
        drv.ctrl.mark(*[int(v) for v in np.argwhere(~g.board.mines & (g.view == -1))[0]])
        r, c = np.argwhere(g.board.mines & (g.view == -1))[0]
        drv.tap_cell(int(r), int(c))
    drv.wait(0.9)
    assert any(isinstance(w, EndDialog) for w in drv.window.children)


def test_loss(drv, screenshot_dir):
    _play_to_end(drv, win=False)
    shot(drv, screenshot_dir, "loss")
    d = next(w for w in drv.window.children if isinstance(w, EndDialog))
    drv.press(d.ids.view_board)
    drv.wait(0.4)
    shot(drv, screenshot_dir, "loss_board")


def test_win(drv, screenshot_dir):
    _play_to_end(drv, win=True)
    d = next(w for w in drv.window.children if isinstance(w, EndDialog))
    d.ids.name_input.text = "Ann"
    shot(drv, screenshot_dir, "win")
    drv.press(d.ids.save_name)
    drv.press(d.ids.view_board)
    drv.wait(0.4)
    drv.app.show_screen("records")
    drv.frames(3)
    shot(drv, screenshot_dir, "records")


@pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())
def test_probability_overlay(drv, screenshot_dir):
    drv.ctrl.seed = 4
    drv.app.start_game(Difficulty(16, 16, 40))
    drv.tap_cell(8, 8)
    drv.ctrl.overlay = True
    drv.ctrl.hint()
    drv.frames(2)
    shot(drv, screenshot_dir, "odds_overlay")


def test_dark_theme(make_app, data_dir, screenshot_dir):
    drv = make_app(data_dir, theme="dark")
    drv.ctrl.seed = 8
    drv.app.start_game(Difficulty(16, 16, 40))
    drv.tap_cell(8, 8)
    g = drv.game
    for r, c in np.argwhere(g.board.mines)[:4]:
        drv.ctrl.mark(int(r), int(c))
    px = shot(drv, screenshot_dir, "dark_theme")
    assert px.mean() < 100  # dark


def test_other_screens(drv, screenshot_dir):
    for name in ("new_game", "records", "about"):
        drv.app.show_screen(name)
        drv.frames(3)
        shot(drv, screenshot_dir, f"screen_{name}")
    drv.app.show_screen("game")
    drv.app.open_settings()
    drv.frames(3)
    shot(drv, screenshot_dir, "settings")
    drv.app.close_settings()
    drv.app.game_screen.open_menu(drv.ids("menu_button"))
    drv.wait(0.4)
    shot(drv, screenshot_dir, "menu")


# ---------------------------------------------------------------- phone profiles


def _midgame(drv, rows=16, cols=30, mines=99, seed=3):
    drv.ctrl.seed = seed
    drv.app.start_game(Difficulty(rows, cols, mines))
    drv.frames(2)
    drv.ctrl.reveal(rows // 2, cols // 2)
    g = drv.game
    rng = np.random.default_rng(seed)
    for r, c in rng.permutation(np.argwhere(g.board.mines & (g.view == -1)))[:8]:
        drv.ctrl.mark(int(r), int(c))
    drv.frames(3)
    return g


@pytest.fixture
def touch_first(monkeypatch):
    """Phones open games the touch-screen way (the platform says so on a device)."""
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)


@pytest.mark.parametrize("profile", ["phone_360_font13", "landscape"])
def test_phone_screens(make_app, data_dir, screenshot_dir, touch_first, profile):
    """The main screens as a phone shows them (look at them after a change)."""
    from profiles import start_app

    drv = start_app(make_app, data_dir, profile, animations=0)  # still pictures, fewer frames
    _midgame(drv)
    shot(drv, screenshot_dir, f"{profile}_game")
    if assist.available():
        drv.press(drv.ids("solver"))
        drv.wait(0.4)
        shot(drv, screenshot_dir, f"{profile}_solver_menu")
        next(w for w in drv.window.children if type(w).__name__ == "SolverMenu").dismiss()
        drv.wait(0.4)
    if profile == "phone_360_font13":  # the narrowest, largest text: the other screens
        drv.press(drv.ids("face"))  # a game in progress: the app asks first
        drv.wait(0.4)
        shot(drv, screenshot_dir, f"{profile}_abandon")
        from fastmine.app.dialogs.messages import ConfirmDialog

        drv.press(next(w for w in drv.window.children if isinstance(w, ConfirmDialog)).ids.no)
        drv.wait(0.4)
        for name in ("new_game", "settings", "records"):
            drv.app.show_screen(name)
            drv.frames(3)
            shot(drv, screenshot_dir, f"{profile}_{name}")
    drv.app.show_screen("game")
    drv.frames(2)
    _play_to_end(drv, win=False)
    shot(drv, screenshot_dir, f"{profile}_loss")


def test_phone_dark(make_app, data_dir, screenshot_dir, touch_first):
    from profiles import start_app

    drv = start_app(make_app, data_dir, "phone_393", theme="dark", animations=0)
    _midgame(drv)
    px = shot(drv, screenshot_dir, "phone_393_dark")
    assert px.mean() < 110
    drv.app.show_screen("settings")
    drv.frames(3)
    shot(drv, screenshot_dir, "phone_393_dark_settings")
