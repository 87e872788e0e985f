"""The board's drawing (partial redraw of one Mesh), the assist buttons, hint and
odds overlay, and the new-game screen."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fastmine import FLAG, HIDDEN, Difficulty  # noqa: E402
from fastmine.app.board import tiles as T  # noqa: E402
from fastmine.app.play import assist  # noqa: E402

needs_solver = pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())


def test_one_reveal_on_50x50_rewrites_only_the_changed_cells(drv):
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    board = drv.board
    drv.ctrl.reveal(25, 25)
    drv.frames(1)
    mesh = board.mesh
    instructions = list(board.canvas.children)
    before = np.array(board._verts).reshape(50, 50, 4, 4).copy()
    game = drv.game
    target = tuple(np.argwhere((game.view == HIDDEN) & ~game.board.mines & (game.board.counts > 0))[0])
    uploads = []
    orig = type(board).set_tiles

    def spy(self, cells, tile_ids):
        uploads.append(np.array(cells))
        return orig(self, cells, tile_ids)

    type(board).set_tiles = spy
    try:
        drv.tap_cell(*target)
    finally:
        type(board).set_tiles = orig
    assert game.view[target] >= 1
    after = np.array(board._verts).reshape(50, 50, 4, 4)
    assert board.mesh is mesh  # the same Mesh instruction ...
    assert list(board.canvas.children) == instructions  # ... and the same canvas
    assert np.array_equal(after[..., :2], before[..., :2])  # no vertex moved
    changed = np.argwhere((after != before).any(axis=(2, 3)))
    assert changed.tolist() == [list(target)]  # only that cell's texture coords changed
    assert np.allclose(after[target][:, 2:], board.atlas.uv[game.view[target]])
    assert len(uploads) == 1 and uploads[0].tolist() == [list(target)]  # one batch


def test_tiles_follow_the_view(drv):
    drv.app.start_game(Difficulty(16, 30, 99))
    drv.tap_cell(8, 15)
    drv.tap_cell(0, 0, button="right", device="mouse")
    view = drv.game.view
    expect = T.VIEW_TILE[np.ascontiguousarray(view).view(np.uint8)]
    assert np.array_equal(drv.board.tiles, expect)
    uv = np.array(drv.board._verts).reshape(16, 30, 4, 4)[..., 2:]
    assert np.allclose(uv, drv.board.atlas.uv[expect])


@needs_solver
def test_solver_menu_entries_each_make_a_solver_move(drv, data_dir):
    def entries():
        drv.press(drv.ids("solver"))
        drv.wait(0.3)
        menu = next(w for w in drv.window.children if type(w).__name__ == "SolverMenu")
        return menu, list(menu.container.children)[::-1]

    menu, buttons = entries()
    assert [b.title for b in buttons] == [m.title for m in assist.SOLVER_MOVES]
    assert all(b.line for b in buttons)  # a line each on what it does
    menu.dismiss()
    drv.wait(0.3)
    assert not drv.ids("solver").disabled
    played = []
    assist_move = drv.ctrl.assist
    drv.ctrl.assist = lambda strategy: (played.append(strategy), assist_move(strategy))
    for i in [3] + list(range(len(assist.SOLVER_MOVES))):  # "Play one move" first: it opens the board
        if drv.game.state.is_over:
            break
        before = drv.game.view.copy()
        _menu, buttons = entries()
        drv.press(buttons[i])
        drv.wait(0.3)  # the sheet fades out
        assert played[-1] == assist.SOLVER_MOVES[i].strategy  # the entry plays its strategy
        if played[-1] in ("auto", "random", "probability"):  # these always find a move
            assert not np.array_equal(before, drv.game.view) or drv.game.state.is_over
        assert drv.ctrl.state != "ready" and drv.ctrl.assisted and drv.game.assisted
        assert np.array_equal(drv.board.tiles[drv.game.view == FLAG], T.FLAG_T * np.ones(
            int((drv.game.view == FLAG).sum()), np.int16))
    # an assisted game is recorded as assisted
    while not drv.game.state.is_over:
        drv.ctrl.assist("auto")
    drv.wait(0.8)
    from fastmine import records
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        games = db.games()
    assert len(games) == 1 and games[0].assisted


@needs_solver
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hint_and_odds_overlay(drv, seed):
    # A fixed seed: with a random one, a position whose only certainly-safe cell
    # was the hinted one made no move, so the hint (rightly) stayed on screen.
    drv.ctrl.seed = seed
    drv.app.start_game(Difficulty(16, 16, 40))
    drv.tap_cell(8, 8)
    drv.press(drv.ids("hint"))
    assert drv.game.assisted
    assert "row" in drv.ctrl.message
    hinted = np.argwhere(drv.board.tiles == T.HINT_T)
    assert len(hinted) == 1
    r, c = hinted[0]
    p = assist.probabilities(drv.game)
    assert p[r, c] == np.nanmin(np.where(drv.game.view == HIDDEN, p, np.nan))
    # the odds overlay shades every unknown cell by its probability
    drv.press(drv.ids("odds"))
    assert drv.ctrl.overlay
    assert drv.board.tiles[r, c] == T.HINT_T  # the hint stays until the next move
    hidden = drv.game.view == HIDDEN
    hidden[r, c] = False
    levels = drv.board.tiles[hidden] - T.PROB_T
    assert ((levels >= 0) & (levels < T.PROB_LEVELS)).all()
    assert np.array_equal(levels, T.prob_level(p[hidden]))
    assert (drv.board.tiles[~hidden] < T.PROB_T).all()
    # turning the overlay off keeps the hint: no move was made yet
    drv.press(drv.ids("odds"))
    assert drv.board.tiles[r, c] == T.HINT_T
    assert (drv.board.tiles[hidden] == T.HIDDEN_T).all()
    # the overlay follows the moves, and a move clears the hint
    drv.press(drv.ids("odds"))
    safe = np.argwhere((drv.game.view == HIDDEN) & (p == 0))  # the hinted cell too
    assert len(safe), "pick seeds whose position has a certainly-safe cell"
    drv.tap_cell(*safe[-1])
    hidden = drv.game.view == HIDDEN
    assert np.array_equal(drv.board.tiles[hidden] - T.PROB_T,
                          T.prob_level(assist.probabilities(drv.game)[hidden]))
    drv.press(drv.ids("odds"))
    assert not drv.ctrl.overlay
    assert (drv.board.tiles[drv.game.view == HIDDEN] == T.HIDDEN_T).all()


def test_new_game_screen_presets_custom_and_validation(drv):
    app = drv.app
    app.show_screen("new_game")
    drv.frames(3)
    screen = app.root.get_screen("new_game")
    drv.press(screen.ids.preset_expert)
    drv.press(screen.ids.rule_cell)
    drv.press(screen.ids.start)
    assert app.root.current == "game"
    assert (drv.game.rows, drv.game.cols, drv.game.mine_count, drv.game.rule) == (16, 30, 99, "cell")
    # custom: a clear message for a bad size, then a good one starts
    app.show_screen("new_game")
    drv.frames(3)
    screen = app.root.get_screen("new_game")   # built anew: a screen left is released
    drv.press(screen.ids.custom)
    screen.ids.rows.text = "4"
    drv.press(screen.ids.start)
    assert app.root.current == "new_game"
    assert screen.error == "Rows must be a whole number from 5 to 50."
    screen.ids.rows.text = "12"
    screen.ids.cols.text = "20"
    screen.ids.mines.text = "240"
    drv.press(screen.ids.start)
    assert screen.error == "Mines must be from 1 to 239 on a 12 x 20 board."
    screen.ids.mines.text = "40"
    drv.press(screen.ids.rule_no_guess)
    drv.press(screen.ids.start)
    assert app.root.current == "game"
    assert (drv.game.rows, drv.game.cols, drv.game.mine_count) == (12, 20, 40)
    assert drv.game.rule == "no_guess"
    # the face button repeats the last choice
    drv.press(drv.ids("face"))
    assert (drv.game.rows, drv.game.cols, drv.game.mine_count) == (12, 20, 40)


def test_no_guess_failure_is_a_message_not_a_crash(drv, monkeypatch):
    from fastmine import NoGuessTimeoutError
    from fastmine.solver import no_guess

    def fail(*_a, **_k):
        raise NoGuessTimeoutError("no board solvable without guessing within 1 s")

    monkeypatch.setattr(no_guess, "generate", fail)
    drv.app.start_game(Difficulty(9, 9, 10), rule="no_guess")
    drv.tap_cell(4, 4)
    assert "Could not start the game" in drv.ctrl.message
    assert drv.ctrl.state == "ready" and (drv.game.view == HIDDEN).all()


def test_board_fills_its_area_between_the_bars(drv):
    area = drv.app.game_screen.ids.board_area
    drv.frames(2)
    assert list(drv.board.pos) == list(area.pos) and list(drv.board.size) == list(area.size)
    assert drv.board.y >= drv.ids("tool_bar").top and drv.board.top <= drv.ids("top_bar").y
    # the zoomed board never leaves a gap at an edge
    drv.app.start_game(Difficulty(50, 50, 400))
    drv.board.zoom_at(3.0, *drv.board.cell_center(0, 0))
    drv.board.pan_by(1000, -1000)  # try to drag the corner into view and beyond
    ox, oy = drv.board.offset
    side = 50 * drv.board.scale
    assert ox == 0 and oy + side == pytest.approx(drv.board.height)  # stopped at the corner
