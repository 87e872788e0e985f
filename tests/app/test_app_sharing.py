"""Game codes in the app: on the New game screen, play a typed code or copy this game's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fastmine import Board, GameState, gamecode  # noqa: E402
from fastmine.app.dialogs.messages import ConfirmDialog, MessageDialog  # noqa: E402


def _dialogs(drv, kind):
    return [w for w in drv.window.children if isinstance(w, kind)]


def _close_dialogs(drv):
    for d in _dialogs(drv, MessageDialog):
        d.dismiss()
    drv.wait(0.4)


def _press_play_code(drv, screen, name="play_code"):
    from kivy.uix.scrollview import ScrollView

    button = screen.ids[name]
    scroll = button.parent
    while not isinstance(scroll, ScrollView):
        scroll = scroll.parent
    scroll.scroll_to(button, animate=False)
    drv.frames(3)
    drv.press(button)


def test_a_typed_seed_code_plays_that_game_and_copy_gives_it_back(drv, monkeypatch):
    from kivy.core.clipboard import Clipboard

    copied = []
    monkeypatch.setattr(Clipboard, "copy", lambda text: copied.append(text))
    code = gamecode.seed_code(16, 30, 99, seed=4242, rule="cell")
    app = drv.app
    app.show_screen("new_game")
    drv.frames(3)
    screen = app.root.get_screen("new_game")
    screen.ids.game_code.text = f"  {code.lower()} "
    _press_play_code(drv, screen)
    assert app.root.current == "game" and screen.code_error == ""
    g = drv.game
    assert (g.rows, g.cols, g.mine_count, g.rule, g.seed) == (16, 30, 99, "cell", 4242)
    drv.tap_cell(3, 3)
    drv.frames(2)
    same = gamecode.new_game(code)
    same.reveal(3, 3)
    assert drv.game.board == same.board           # the same board as anyone with the code
    app.show_screen("new_game")
    drv.frames(3)
    screen = app.root.get_screen("new_game")   # built anew: a screen left is released
    _press_play_code(drv, screen, "copy_code")
    drv.wait(0.4)
    assert copied == [code]
    (shown,) = _dialogs(drv, MessageDialog)
    assert code in shown.text
    _close_dialogs(drv)


def test_a_board_code_plays_the_exact_board_and_a_typo_is_explained(drv):
    mask = np.zeros((9, 9), bool)
    mask[0, :5] = mask[8, 4:] = True
    code = gamecode.board_code(Board.from_mines(mask))
    app = drv.app
    drv.tap_cell(4, 4)                              # a game in progress: asked before it goes
    before = drv.game
    app.show_screen("new_game")
    drv.frames(3)
    screen = app.root.get_screen("new_game")
    screen.ids.game_code.text = code[:-1] + ("0" if code[-1] != "0" else "1")
    _press_play_code(drv, screen)
    assert screen.code_error == "This code has a typo: check it letter by letter."
    assert app.root.current == "new_game"
    assert drv.game is before and drv.game.state is GameState.PLAYING   # left as it was
    screen.ids.game_code.text = code
    _press_play_code(drv, screen)
    (ask,) = _dialogs(drv, ConfirmDialog)
    ask.dispatch("on_yes")
    ask.dismiss()
    drv.wait(0.4)
    assert app.root.current == "game" and screen.code_error == ""
    np.testing.assert_array_equal(drv.game.board.mines, mask)


def test_copy_before_the_first_tap_of_a_random_game_says_why_not(drv, monkeypatch):
    from kivy.core.clipboard import Clipboard

    copied = []
    monkeypatch.setattr(Clipboard, "copy", lambda text: copied.append(text))
    assert drv.game.seed is None and drv.game.board is None
    assert drv.app.copy_code() is None
    drv.wait(0.3)
    (shown,) = _dialogs(drv, MessageDialog)
    assert shown.title == "No game code yet" and copied == []
    _close_dialogs(drv)
    drv.tap_cell(4, 4)
    drv.frames(2)
    code = drv.app.copy_code()
    assert copied == [code] and gamecode.decode(code).board == drv.game.board
    _close_dialogs(drv)
