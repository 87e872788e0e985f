"""Game.reveal_cells: a batch of reveals is exactly the same reveals one by one."""

from __future__ import annotations

import numpy as np
import pytest
from engine_strategies import masks
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine import Board, Game, GameOverError, GamePausedError, GameState


def _one_by_one(game: Game, cells) -> np.ndarray:
    changed = []
    for r, c in cells:
        if game.state.is_over:
            break
        changed.append(game.reveal(int(r), int(c)))
    return np.concatenate(changed) if changed else np.empty((0, 2), np.intp)


@settings(max_examples=300)
@given(masks(), st.data(), st.booleans())
def test_batch_equals_one_by_one(mask, data, flag_some):
    mask = np.asarray(mask, bool)
    rows, cols = mask.shape
    cell = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    # Mostly safe cells, so that batches get long before a mine ends them.
    safe = [tuple(x) for x in np.argwhere(~mask).tolist()]
    pick = st.one_of(cell, st.sampled_from(safe)) if safe else cell
    cells = data.draw(st.lists(pick, min_size=1, max_size=3 * rows * cols))
    marks = data.draw(st.lists(cell, max_size=4)) if flag_some else []
    a = Game.from_board(Board.from_mines(mask))
    b = Game.from_board(Board.from_mines(mask))
    for r, c in marks:                  # flags stop both alike; question marks do not
        a.toggle_mark(r, c)
        b.toggle_mark(r, c)
    got = a.reveal_cells(np.array(cells))
    want = _one_by_one(b, cells)
    assert got.tolist() == want.tolist()
    assert np.array_equal(a.view, b.view)
    assert a.state is b.state
    assert a.left_clicks == b.left_clicks
    assert a.revealed_count == b.revealed_count


@settings(max_examples=100)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["cell", "opening", "none"]),
       st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=40))
def test_first_batch_lays_the_mines_like_a_first_reveal(seed, rule, cells):
    a = Game(9, 9, 10, rule=rule, seed=seed)
    b = Game(9, 9, 10, rule=rule, seed=seed)
    got = a.reveal_cells(cells)
    want = _one_by_one(b, cells)
    assert got.tolist() == want.tolist()
    assert np.array_equal(a.view, b.view) and a.state is b.state
    assert np.array_equal(a.board.mines, b.board.mines)


def test_stops_at_the_end_of_the_game():
    mask = np.zeros((3, 3), bool)
    mask[2, 2] = True
    g = Game.from_board(Board.from_mines(mask))
    # (0, 0) opens everything safe: the game is won and the mine is never tried.
    g.reveal_cells([(0, 0), (2, 2)])
    assert g.state is GameState.WON and g.left_clicks == 1
    g = Game.from_board(Board.from_mines(mask))
    g.reveal_cells([(2, 2), (0, 0)])
    assert g.state is GameState.LOST and g.left_clicks == 1


@pytest.mark.parametrize("cells, error", [
    ([(0, 0), (3, 0)], ValueError),          # off the board: nothing is revealed
    ([(0, 0), (-1, 0)], ValueError),
    ([[0, 0, 0]], ValueError),                # not pairs
    ([0, 0], ValueError),
    ([(0.0, 1.0)], TypeError),
    ("ab", TypeError),
])
def test_bad_cells_change_nothing(cells, error):
    mask = np.zeros((3, 3), bool)
    mask[2, 2] = True
    g = Game.from_board(Board.from_mines(mask))
    before = g.view.copy()
    with pytest.raises(error):
        g.reveal_cells(cells)
    assert np.array_equal(g.view, before) and g.state is GameState.READY and g.left_clicks == 0


def _representable(dtype, cell):
    info = np.iinfo(dtype)
    return all(info.min <= v <= info.max for v in cell)


@pytest.mark.parametrize("dtype, bad", [
    (dtype, bad)
    for dtype in (np.intp, np.int8, np.int32, np.uint8, np.uint64)
    for bad in ((3, 0), (0, 3), (-1, 0), (0, -1), (2**63 + 1, 0), (0, 2**64 - 1), (2**32 + 1, 1))
    if _representable(dtype, bad)
])
def test_off_board_cells_of_any_integer_type_change_nothing(dtype, bad):
    """Values that do not fit the board are refused in their own type: a huge
    unsigned value never wraps round onto the board; the message names it."""
    mask = np.zeros((3, 3), bool)
    mask[2, 2] = True
    ready = Game.from_board(Board.from_mines(mask))
    playing = Game.from_board(Board.from_mines(mask))
    playing.reveal(1, 1)                    # shows 1: the game goes on
    for game in (ready, playing):
        state, before, clicks = game.state, game.view.copy(), game.left_clicks
        with pytest.raises(ValueError, match=str(max(bad, key=abs))):
            game.reveal_cells(np.array([(0, 1), (1, 0), bad], dtype))
        assert game.state is state and game.left_clicks == clicks
        assert np.array_equal(game.view, before)


def test_over_or_paused_games_refuse_a_batch():
    mask = np.zeros((3, 3), bool)
    mask[2, 2] = True
    g = Game.from_board(Board.from_mines(mask))
    g.reveal(0, 0)
    with pytest.raises(GameOverError):
        g.reveal_cells([(2, 2)])
    with pytest.raises(GameOverError):
        g.reveal_cells([])
    g = Game(9, 9, 10, seed=1)
    g.reveal(4, 4)
    g.pause()
    with pytest.raises(GamePausedError):
        g.reveal_cells([(0, 0)])
    g.resume()
    assert g.reveal_cells([]).shape == (0, 2)
