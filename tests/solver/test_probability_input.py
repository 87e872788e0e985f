"""solver.probabilities and friends: argument checks and contradictory positions."""

from __future__ import annotations

import numpy as np
import pytest

import fastmine
from fastmine import solver
from fastmine.solver import InconsistentViewError

H = fastmine.HIDDEN
PAIR = np.array([[H, H], [1, 1]])


@pytest.mark.parametrize("fn", [solver.probabilities, solver.safe_cells, solver.mine_cells,
                                solver.analyze])
def test_every_entry_point_validates(fn):
    with pytest.raises(TypeError):
        fn(PAIR.astype(float), 1)
    with pytest.raises(ValueError):
        fn(PAIR[0], 1)


def test_accepts_any_integer_dtype_and_lists():
    expected = solver.probabilities(PAIR.astype(np.int8), 1)
    for view in (PAIR.astype(np.int64), PAIR.astype(np.int16), PAIR.tolist(),
                 np.asfortranarray(PAIR), PAIR[::1, ::1]):
        np.testing.assert_array_equal(solver.probabilities(view, 1), expected)
    np.testing.assert_array_equal(solver.probabilities(np.int8(PAIR)[:, ::-1], 1), expected)


@pytest.mark.parametrize("view, err", [
    (np.zeros((2, 2), bool), TypeError),
    (np.array([["a"]]), TypeError),
    (np.array([[None]], object), TypeError),
    (np.zeros((2, 2, 2), int), ValueError),
    (np.zeros((0, 3), int), ValueError),
    (np.array([[9, H]]), ValueError),
    (np.array([[-7, H]]), ValueError),
    (np.array([[300, H]]), ValueError),
])
def test_bad_views(view, err):
    with pytest.raises(err):
        solver.probabilities(view, 1)


@pytest.mark.parametrize("code", [fastmine.MINE, fastmine.EXPLODED, fastmine.WRONG_FLAG])
def test_finished_game_views_are_refused(code):
    view = np.array([[code, H], [1, 1]])
    with pytest.raises(ValueError, match="finished game"):
        solver.probabilities(view, 1)


def test_a_lost_game_object_is_refused():
    game = fastmine.Game.from_board(fastmine.Board.from_mines([[1, 0], [0, 0]]))
    game.reveal(0, 0)
    with pytest.raises(ValueError, match="finished game"):
        solver.analyze(game)


@pytest.mark.parametrize("mines, err", [
    (-1, ValueError), (5, ValueError), (1.0, TypeError), (True, TypeError), ("1", TypeError),
    (None, TypeError),
])
def test_bad_mine_counts(mines, err):
    with pytest.raises(err):
        solver.probabilities(PAIR, mines)


def test_max_entries_is_checked():
    with pytest.raises(ValueError):
        solver.analyze(PAIR, 1, max_entries=0)
    with pytest.raises(TypeError):
        solver.analyze(PAIR, 1, max_entries=1.5)


@pytest.mark.parametrize("view, mines, match", [
    ([[H, H], [1, 1]], 0, "mine count"),                  # numbers need a mine
    ([[H, H], [1, 1]], 2, "mine count"),                  # no room for the second
    ([[H, H, H], [3, 1, 0]], 2, "shows 3"),                # more than it can see
    ([[1, 0], [0, 0]], 0, "shows 1"),                     # a number with nothing hidden
    ([[H, H], [1, 2]], 2, "no mine layout|contradict"),   # same cells, different numbers
    ([[H, 2, 2, H], [H, H, 1, H]], 3, "contradict"),   # (0,2) and (1,2) see the same cells
    ([[H, H, H], [2, 0, H]], 2, "no mine layout|contradict|mine count"),
    ([[H, H, H], [H, 1, H], [H, H, H]], 2, "mine count"),  # the 1 sees every cell
    ([[H, 1]], 2, "do not fit"),
    ([[0, 0]], 1, "do not fit"),
])
def test_inconsistent_views(view, mines, match):
    with pytest.raises(InconsistentViewError, match=match):
        solver.analyze(np.array(view), mines)
    assert issubclass(InconsistentViewError, ValueError)


def test_edge_cases():
    assert solver.probabilities(np.array([[H]]), 1).tolist() == [[1.0]]
    assert solver.probabilities(np.array([[H]]), 0).tolist() == [[0.0]]
    assert np.isnan(solver.probabilities(np.array([[0, 0]]), 0)).all()
    assert solver.safe_cells(np.array([[0, 0]]), 0).shape == (0, 2)
    a = solver.analyze(np.full((4, 5), H), 20)
    assert a.mine.all() and a.interior.all() and a.interior_probability == 1.0
    assert np.isnan(solver.analyze(np.array([[H, 1]]), 1).interior_probability)


def test_input_is_not_modified():
    view = np.array([[fastmine.FLAG, fastmine.QUESTION], [1, 1]], np.int8)
    before = view.copy()
    solver.analyze(view, 1)
    np.testing.assert_array_equal(view, before)


def test_docstring_examples_run():
    import doctest

    from fastmine.solver import probability

    for module in (probability, solver):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0 and result.attempted > 0, module.__name__
