"""The exhaustive endgame search against a brute-force recursion."""

from __future__ import annotations

from functools import cache

import brute_force
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine.solver import endgame


def brute_force_win(view: np.ndarray, mines: int) -> float:
    """Best chance to win, by plain recursion over the explicit list of layouts."""
    lay = brute_force.layouts(view, mines)
    rows, cols = view.shape
    p = np.pad(lay, ((0, 0), (1, 1), (1, 1))).astype(int)
    counts = sum(p[:, 1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    unknown = [tuple(x) for x in np.argwhere(view < 0)]

    @cache
    def win(S: frozenset) -> float:
        if all(lay[s][cell] == lay[next(iter(S))][cell] for s in S for cell in unknown):
            return 1.0
        best = 0.0
        for cell in unknown:
            groups = {}
            for s in S:
                if not lay[s][cell]:
                    groups.setdefault(int(counts[s][cell]), set()).add(s)
            if sum(len(g) for g in groups.values()) == len(S) and len(groups) == 1:
                continue    # certain-safe and tells nothing
            w = sum(len(g) * win(frozenset(g)) for g in groups.values()) / len(S)
            best = max(best, w)
        return best

    return win(frozenset(range(len(lay))))


@st.composite
def endgames(draw):
    rows = draw(st.integers(2, 4))
    cols = draw(st.integers(2, 4))
    n = rows * cols
    mines = draw(st.integers(1, min(4, n - 1)))
    cells = draw(st.permutations(range(n)))
    mask = np.zeros(n, bool)
    mask[list(cells[:mines])] = True
    game = fastmine.Game.from_board(fastmine.Board.from_mines(mask.reshape(rows, cols)))
    for c in cells[mines:mines + draw(st.integers(1, n - mines))]:
        if game.state.is_over:
            break
        game.reveal(*divmod(c, cols))
    return np.array(game.view), mines, game.state


@settings(max_examples=150, deadline=None)
@given(endgames())
def test_search_matches_brute_force(case):
    view, mines, state = case
    if state is not fastmine.GameState.PLAYING:
        return
    listed = endgame.solutions(view, mines)
    found = endgame.best_move(view, mines)
    if listed is None or (view < 0).sum() > endgame.MAX_CELLS:
        assert found is None
        return
    if len(listed[1]) > 60:
        return      # fine for the search, too slow for the brute-force reference
    assert found is not None
    (r, c), w = found
    assert view[r, c] < 0
    assert w == pytest.approx(brute_force_win(view, mines), abs=1e-12)


def test_fifty_fifty():
    view = np.array([[1, -1], [1, -1]], np.int8)
    (r, c), w = endgame.best_move(view, 1)
    assert c == 1 and w == pytest.approx(0.5)


def test_solutions_lists_every_layout():
    view = np.array([[-1, -1, -1], [1, 2, 1], [0, 0, 0]], np.int8)
    cells, boards = endgame.solutions(view, 2)
    assert len(boards) == 1
    assert boards[0].tolist() == [True, False, True]


def test_limits():
    view = np.full((6, 6), -1, np.int8)
    assert endgame.best_move(view, 5) is None           # too many cells
    view = np.full((4, 5), -1, np.int8)
    view[0, 0] = 0
    assert endgame.solutions(view, 8, limit=10) is None   # too many layouts
