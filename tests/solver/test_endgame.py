"""The exhaustive endgame search against a brute-force recursion."""

from __future__ import annotations

from functools import cache

import brute_force
import numpy as np
import pytest
from hypothesis import given, settings
from solver_fixtures import small_games

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


@settings(max_examples=150, deadline=None)
@given(small_games(max_side=4, max_mines=4))
def test_search_matches_brute_force(case):
    view, mines, state = case
    if state is not fastmine.GameState.PLAYING:
        return
    listed = endgame.solutions(view, mines)
    found = endgame.best_move(view, mines)
    if listed is None:
        assert found is None
        return
    # The layouts are exactly the brute-force ones.
    lay = brute_force.layouts(view, mines)
    cells, boards = listed
    got = {tuple(b) for b in boards}
    want = {tuple(layout.ravel()[cells]) for layout in lay}
    assert got == want and len(boards) == len(lay)
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
    assert endgame.best_move(view, 5) is None           # C(36, 5) layouts: too many
    view = np.full((4, 5), -1, np.int8)
    view[0, 0] = 0
    assert endgame.solutions(view, 8, limit=10) is None   # too many layouts
    assert endgame.best_move(view, 8, limit=10) is None
    # A tiny node budget gives up rather than answer wrongly.
    view = np.array([[1, -1, -1, -1], [-1, -1, -1, -1]], np.int8)
    assert endgame.best_move(view, 3, max_nodes=1) is None
    assert endgame.best_move(view, 3) is not None


def test_inconsistent_view_has_no_layouts():
    view = np.array([[3, -1], [-1, 0]], np.int8)      # a 3 with two hidden neighbours
    cells, boards = endgame.solutions(view, 2)
    assert boards.shape == (0, len(cells))
    assert endgame.best_move(view, 2) is None


@settings(max_examples=100, deadline=None)
@given(small_games(max_side=4, max_mines=4))
def test_known_mines_change_nothing(case):
    """Fixing cells that are mines in every layout gives the same chance."""
    view, mines, state = case
    if state is not fastmine.GameState.PLAYING:
        return
    from fastmine.solver import analyze

    a = analyze(view, mines)
    plain = endgame.best_move(view, mines)
    fixed = endgame.best_move(view, mines, known=a.mine)
    if fixed is None:
        assert plain is None        # fixing mines never adds layouts
        return
    assert not a.mine[fixed[0]]
    if plain is not None:
        assert fixed[1] == pytest.approx(plain[1], abs=1e-12)


def test_known_mask_is_checked():
    view = np.array([[1, -1], [1, -1]], np.int8)
    with pytest.raises(TypeError, match="bool mask"):
        endgame.best_move(view, 1, known=np.zeros((2, 2), int))
    with pytest.raises(ValueError, match="shape"):
        endgame.best_move(view, 1, known=np.zeros((3, 2), bool))


def test_an_expert_endgame_with_many_known_mines():
    """90+ mines decided, a few cells in doubt: small once the known mines are fixed."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        g = fastmine.Game(16, 30, 99, rule="opening", seed=int(rng.integers(1 << 30)))
        g.reveal(3, 3)
        from fastmine.solver.strategies import play

        play(g, "inference")          # certain moves only: stops at the first guess
        if g.state is not fastmine.GameState.PLAYING:
            continue
        from fastmine.solver import analyze

        a = analyze(g.view, 99)
        if a.log_solutions > np.log(endgame.MAX_SOLUTIONS):
            continue
        found = endgame.best_move(g.view, 99, known=a.mine)
        assert found is not None
        (r, c), w = found
        assert not a.mine[r, c] and g.view[r, c] < 0
        assert 0.0 < w <= 1.0 - a.probabilities[r, c] + 1e-12
        return
    pytest.skip("no small endgame reached in 20 games")
