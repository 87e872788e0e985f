"""Shared helpers of the solver tests: the exact engine's marker, small games to
solve.  Imported by name (``from solver_fixtures import ...``), never from
``conftest``: every folder's conftest is a module named ``conftest``, so which
one such an import found depended on the folders a run collected."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import strategies as st

import fastmine

HAS_EXACT = importlib.util.find_spec("fastmine.solver.probability") is not None
needs_exact = pytest.mark.skipif(not HAS_EXACT, reason="exact engine not built")


def game_at(mask, reveals=(), flags=()) -> fastmine.Game:
    """A game on the board ``mask`` (rows of 0/1 or '.'/'*') after some moves."""
    if isinstance(mask, str):
        mask = mask.strip().splitlines()
    if isinstance(mask[0], str):
        mask = [[ch == "*" for ch in line.strip()] for line in mask]
    game = fastmine.Game.from_board(fastmine.Board.from_mines(np.array(mask, bool)))
    for r, c in reveals:
        game.reveal(r, c)
    for r, c in flags:
        game.toggle_mark(r, c)
    return game


@st.composite
def small_games(draw, max_side: int = 5, max_mines: int = 5, to_guess: bool = False):
    """A small random board and its game after some safe cells are revealed in a
    random order: ``(view, mines, state)`` (PLAYING, or WON when all were).

    ``to_guess``: then every certain move is made too, so a game still PLAYING
    is at a position where only a guess remains."""
    rows = draw(st.integers(2, max_side))
    cols = draw(st.integers(2, max_side))
    n = rows * cols
    mines = draw(st.integers(1, min(max_mines, n - 1)))
    cells = draw(st.permutations(range(n)))
    mask = np.zeros(n, bool)
    mask[list(cells[:mines])] = True
    game = fastmine.Game.from_board(fastmine.Board.from_mines(mask.reshape(rows, cols)))
    safe = cells[mines:]
    for c in safe[:draw(st.integers(1, len(safe)))]:
        if game.state.is_over:
            break
        game.reveal(*divmod(c, cols))
    if to_guess and game.state is fastmine.GameState.PLAYING:
        from fastmine.solver import play

        play(game, "inference")     # certain moves only: stops where a guess is needed
    return np.array(game.view), mines, game.state
