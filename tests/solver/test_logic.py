"""The local-logic kernel: sound against brute force, textbook patterns, board mode."""

from __future__ import annotations

import brute_force
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import HAS_EXACT, small_games

import fastmine
from fastmine.solver.logic import local_deductions, solves


def positions():
    """A small board and a view of it after a few safe reveals: (view, mines)."""
    return small_games(max_side=5, max_mines=6).map(lambda g: g[:2])


@settings(max_examples=300, deadline=None)
@given(positions())
def test_local_rules_are_sound(pos):
    view, mines = pos
    safe, mine = local_deductions(view, mines)
    ref_safe, ref_mine = brute_force.certain(view, mines)
    assert not (safe & ~ref_safe).any()
    assert not (mine & ~ref_mine).any()


def test_one_two_one():
    view = np.array([[-1, -1, -1],
                     [1, 2, 1],
                     [0, 0, 0]], np.int8)
    safe, mine = local_deductions(view, 2)
    assert mine[0].tolist() == [True, False, True]
    assert safe[0].tolist() == [False, True, False]


def test_one_two_two_one():
    view = np.array([[-1, -1, -1, -1],
                     [1, 2, 2, 1],
                     [0, 0, 0, 0]], np.int8)
    safe, mine = local_deductions(view, 2)
    assert mine[0].tolist() == [False, True, True, False]
    assert safe[0].tolist() == [True, False, False, True]


def test_mine_count_rule():
    view = np.array([[1, -1], [-1, -1]], np.int8)
    safe, mine = local_deductions(view, 3)      # every unknown cell is a mine
    assert mine.sum() == 3 and not safe.any()


def test_flags_are_not_evidence():
    view = np.array([[1, fastmine.FLAG], [fastmine.QUESTION, -1]], np.int8)
    safe, mine = local_deductions(view, 1)
    assert not safe.any() and not mine.any()


@pytest.mark.parametrize("bad, exc", [
    ("abc", TypeError),
    (np.zeros((2, 2), float), TypeError),
    (np.zeros(4, np.int8), ValueError),
    (np.full((2, 2), 9, np.int8), ValueError),
    (np.full((2, 2), -1, "m8[s]"), TypeError),    # an "integer" to np.issubdtype
    (np.full((2, 2), True), TypeError),
])
def test_bad_views(bad, exc):
    with pytest.raises(exc):
        local_deductions(bad, 1)


def test_bad_mine_count():
    with pytest.raises(ValueError):
        local_deductions(np.full((2, 2), -1, np.int8), 4)


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 5), st.integers(3, 5), st.integers(1, 5), st.integers(0, 2**32))
def test_solves_agrees_with_brute_force(rows, cols, mines, seed):
    mines = min(mines, rows * cols - 1)
    board = fastmine.Board.generate(rows, cols, mines, first_click=(0, 0), rule="cell", seed=seed)
    ref = brute_force.solvable(board.mines, (0, 0))
    if solves(board, (0, 0), complete=False):
        assert ref
    if HAS_EXACT:
        assert solves(board, (0, 0)) == ref


def test_solves_checks_arguments():
    with pytest.raises(TypeError):
        solves("board", (0, 0))
    board = fastmine.Board.from_mines([[0, 1], [0, 0]])
    with pytest.raises(ValueError):
        solves(board, (5, 5))
    assert solves(board, (0, 1)) is False     # a mine
