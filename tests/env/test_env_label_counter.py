"""The batch labels' compiled counter (fastmine.solver._kept.Counter) on its own:
games played move by move on fixed boards, its labels against brute force (every
layout enumerated) and the solver after every move, its components followed
through merges and splits, views that do not follow the last one, games it hands
back, and bad input."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fastmine  # noqa: E402
from fastmine import solver  # noqa: E402
from fastmine.env._batch import PLAYING, READY  # noqa: E402
from fastmine.solver import _kept as _labels  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[1] / "solver"))
import brute_force  # noqa: E402  (the solver tests' slow reference)
from env_reference import LABELS_ATOL, assert_labels_close  # noqa: E402

_ROWS: dict[int, tuple[_labels.Counter, np.ndarray]] = {}


def count(counter: _labels.Counter, views: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """One update of the counter with these games' views (all in play); its
    labels are kept between updates, as the environment keeps them."""
    kept = _ROWS.get(id(counter))
    if kept is None or kept[0] is not counter:
        kept = _ROWS[id(counter)] = (counter, np.zeros((counter.B, counter.N)))
    out = kept[1]
    handed = np.zeros(counter.B, np.uint8)
    counter.update(np.array(views, np.int8), np.full(counter.B, PLAYING, np.uint8), PLAYING,
                   READY, np.full(counter.N, np.nan), out, handed)
    return out.reshape(counter.B, counter.rows, counter.cols).copy(), handed


def solver_labels(view: np.ndarray, mines: int) -> np.ndarray:
    p = solver.probabilities(view, mines)
    p[view >= 0] = 0.0
    return p


def brute_labels(view: np.ndarray, mines: int) -> np.ndarray:
    p = brute_force.probabilities(view, mines)
    return np.where(view >= 0, 0.0, p)


def test_components_merge_and_split_as_cells_open():
    # . 1 0 0 1 * . . *      two numbers' cells apart, joined by a third,
    # . 2 1 1 2 . 1 . .      then split when the cells between them open
    # . * . 1 * . . . .
    mask = np.zeros((3, 9), bool)
    mask[0, 0] = mask[2, 4] = mask[0, 8] = mask[2, 1] = mask[0, 5] = True
    mines = int(mask.sum())
    game = fastmine.Game.from_board(fastmine.Board.from_mines(mask))
    counter = _labels.Counter(1, 3, 9, mines)
    seen = []
    for cell in [(1, 1), (1, 6), (1, 3), (1, 2), (1, 4), (0, 3), (2, 3)]:
        game.reveal(*cell)
        got, handed = count(counter, [game.view])
        assert not handed.any()
        assert_labels_close(got[0], solver_labels(game.view, mines), cell)
        assert_labels_close(got[0], brute_labels(game.view, mines), cell)
        seen.append(sorted(len(c) for c in counter.components(0)))
    # one, two apart, the left one grown, then all one (a merge), then two (a split)
    assert seen == [[8], [8, 8], [8, 13], [8, 12], [12], [8], [2, 2]]
    assert counter.kept > 0 and counter.proven > 0 and counter.repaired == 0


@settings(max_examples=60, deadline=None)
@given(data=st.data(), rows=st.integers(1, 5), cols=st.integers(2, 6))
def test_random_games_against_brute_force(data, rows, cols):
    n = rows * cols
    mines = data.draw(st.integers(1, min(n - 1, 9)), "mines")
    cells = data.draw(st.permutations(range(n)), "layout")
    mask = np.zeros(n, bool)
    mask[list(cells[:mines])] = True
    game = fastmine.Game.from_board(fastmine.Board.from_mines(mask.reshape(rows, cols)))
    counter = _labels.Counter(2, rows, cols, mines)
    # the second game is the first's untouched board: it shows how a game starts
    untouched = np.full((rows, cols), fastmine.HIDDEN, np.int8)
    order = data.draw(st.permutations(range(n)), "moves")
    for k in order:
        r, c = divmod(k, cols)
        if data.draw(st.integers(0, 3), "flag?") == 0 and game.view[r, c] < 0:
            game.toggle_mark(r, c)                  # a flag (or ?) is no evidence
            continue
        if mask[k] or game.view[r, c] >= 0:
            continue
        if game.view[r, c] == fastmine.FLAG:
            game.toggle_mark(r, c)
        game.reveal(r, c)
        if game.state is not fastmine.GameState.PLAYING:
            break
        got, handed = count(counter, [game.view, untouched])
        assert not handed.any()
        view = np.where(game.view < 0, fastmine.HIDDEN, game.view).astype(np.int8)
        if math.comb(int((view < 0).sum()), mines) <= 20_000:     # brute force's reach
            assert_labels_close(got[0], brute_labels(view, mines), (r, c))
        assert_labels_close(got[0], solver_labels(game.view, mines), (r, c))
        assert_labels_close(got[1], np.full((rows, cols), mines / n), "untouched")
    assert counter.repaired == 0 and counter.handed_back == 0


def test_the_stamps_start_over_before_they_wrap():
    game = fastmine.Game(16, 16, 40, seed=8)
    counter = _labels.Counter(1, 16, 16, 40)
    r, c = 8, 8
    for step in range(12):
        if step == 4:
            counter._age((1 << 30) - 1)         # the next update starts the marks over
        game.reveal(r, c)
        if game.state is not fastmine.GameState.PLAYING:
            break
        got, handed = count(counter, [game.view])
        assert not handed.any()
        assert_labels_close(got[0], solver_labels(game.view, 40), step)
        hidden = np.argwhere((game.view < 0) & ~game.board.mines)
        r, c = hidden[len(hidden) // 2]
    assert step >= 6 and counter.repaired == 0


def test_a_view_that_does_not_follow_is_counted_afresh():
    a = fastmine.Game(9, 9, 10, seed=1)
    b = fastmine.Game(9, 9, 10, seed=2)
    a.reveal(4, 4)
    b.reveal(0, 0)
    counter = _labels.Counter(1, 9, 9, 10)
    count(counter, [a.view])
    first = counter.rebuilt                 # (a counter's first view is read whole)
    got, _ = count(counter, [b.view])       # another game: cells open before are hidden
    assert_labels_close(got[0], solver_labels(b.view, 10))
    assert counter.rebuilt == first + 1 and counter.repaired == 0


def test_a_component_over_the_budget_is_handed_back():
    game = fastmine.Game(16, 16, 40, seed=3)
    game.reveal(8, 8)
    counter = _labels.Counter(1, 16, 16, 40, budget=1)
    before = np.full((1, 256), 7.0)
    handed = np.zeros(1, np.uint8)
    counter.update(game.view[None].copy(), np.full(1, PLAYING, np.uint8), PLAYING, READY,
                   np.zeros(256), before, handed)
    assert handed[0] == 1 and counter.handed_back == 1
    # counted afresh next time (here with room to count)
    roomy = _labels.Counter(1, 16, 16, 40)
    got, handed = count(roomy, [game.view])
    assert not handed.any() and np.abs(got[0] - solver_labels(game.view, 40)).max() <= LABELS_ATOL


def test_an_inconsistent_view_is_handed_back():
    view = np.full((3, 3), fastmine.HIDDEN, np.int8)
    view[1, 1] = 8
    view[0, 0] = 0              # a 0 next to the 8: no layout fits
    counter = _labels.Counter(1, 3, 3, 7)
    _, handed = count(counter, [view])
    assert handed[0] == 1
    with pytest.raises(solver.InconsistentViewError):
        solver.probabilities(view, 7)


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        _labels.Counter(0, 3, 3, 1)
    with pytest.raises(ValueError):
        _labels.Counter(1, 3, 3, 10)
    with pytest.raises(ValueError):
        _labels.Counter(1, 3, 3, 1, budget=0)
    with pytest.raises(ValueError):
        _labels.Counter(1, 2**20, 2**20, 1)     # outside fastmine.limits
    counter = _labels.Counter(2, 3, 3, 1)
    ok = dict(views=np.full((2, 3, 3), -1, np.int8), phase=np.ones(2, np.uint8), playing=1,
              ready=0, untouched=np.zeros(9), out=np.zeros((2, 9)),
              handed_back=np.zeros(2, np.uint8))
    for key, bad in [("views", np.full((2, 3, 4), -1, np.int8)), ("phase", np.ones(3, np.uint8)),
                     ("untouched", np.zeros(8)), ("out", np.zeros((2, 8))),
                     ("handed_back", np.zeros(1, np.uint8))]:
        with pytest.raises(ValueError):
            counter.update(**(ok | {key: bad}))
    with pytest.raises(IndexError):
        counter.components(2)
