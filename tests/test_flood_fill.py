"""The scanline flood fill and the run-based 3BV against the reference engine.

The engine opens a zero region a row-run at a time, reading eight cells per
step where it can, and counts 3BV from rows of 64-bit words.  These tests aim
at the places such code goes wrong: boards one cell wide or tall, widths just
around a multiple of 8 and of 64, regions that touch every border, runs cut by
flags and question marks, and chords that open several regions at once.  Every
result is compared with ``tests/reference.py``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from engine_strategies import changed_set, moves, play_both
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import FLAG, QUESTION, RefBoard, RefGame

from fastmine import Board, Game, _kernels

# Widths and heights where a word (8 cells) or a bit row (64 cells) ends.
EDGES = (1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 66, 129)


@st.composite
def sparse_masks(draw) -> np.ndarray:
    """A mostly empty board: big zero regions, some near the word edges."""
    rows = draw(st.one_of(st.sampled_from(EDGES[:9]), st.integers(1, 12)))
    cols = draw(st.one_of(st.sampled_from(EDGES), st.integers(1, 80)))
    if rows * cols < 2:
        cols = 2
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from((0.0, 0.01, 0.03, 0.08, 0.15)))
    mask = np.array([[rnd.random() < density for _ in range(cols)] for _ in range(rows)])
    if not mask.any():
        mask[rnd.randrange(rows), rnd.randrange(cols)] = True
    if mask.all():
        mask[0, 0] = False
    return mask


def _marked_pair(mask: np.ndarray, marks: list[tuple[int, int, int]], question_marks: bool):
    """A fastmine game and a reference game with the same marks placed."""
    game = Game.from_board(Board.from_mines(mask), question_marks=question_marks)
    ref = RefGame(RefBoard(mask.tolist()), question_marks=question_marks)
    rows, cols = mask.shape
    for r, c, times in marks:
        for _ in range(times):
            game.toggle_mark(r % rows, c % cols)
            ref.toggle_mark(r % rows, c % cols)
    return game, ref


@settings(max_examples=150, deadline=None)
@given(sparse_masks(), st.lists(st.tuples(st.integers(0, 999), st.integers(0, 999),
                                          st.integers(1, 2)), max_size=12),
       st.integers(0, 10**6))
def test_first_reveal_through_flags_and_question_marks(mask, marks, pick):
    """Flags cut a run (the flood goes round them); question marks open like hidden cells."""
    game, ref = _marked_pair(mask, marks, question_marks=True)
    safe = np.argwhere(~mask)
    r, c = (int(x) for x in safe[pick % len(safe)])
    got = changed_set(game.reveal(r, c))
    assert got == ref.reveal(r, c)
    assert game.view.tolist() == ref.view
    assert game.state.value == ref.state
    assert game.revealed_count == sum(v >= 0 for row in ref.view for v in row)


@settings(max_examples=100, deadline=None)
@given(sparse_masks(), moves, st.booleans())
def test_sparse_games_match_reference(mask, script, question_marks):
    """Whole games (reveals, marks, chords) on big-region boards, move by move."""
    game = Game.from_board(Board.from_mines(mask), question_marks=question_marks)
    ref = RefGame(RefBoard(mask.tolist()), question_marks=question_marks)
    play_both(game, ref, script)


@settings(max_examples=150, deadline=None)
@given(sparse_masks())
def test_bbbv_and_openings_of_sparse_boards(mask):
    board = Board.from_mines(mask)
    ref = RefBoard(mask.tolist())
    assert board.bbbv() == ref.bbbv()
    assert board.openings() == len(ref.openings())


@pytest.mark.parametrize("rows", [1, 2, 3, 9])
@pytest.mark.parametrize("cols", EDGES)
@pytest.mark.parametrize("density", [0.0, 0.05, 0.2, 0.5])
def test_bbbv_at_word_edges(rows, cols, density):
    """Every width around 8 and 64 cells, including all-zero rows that fill a word."""
    if rows * cols < 2:
        return
    rng = np.random.default_rng(rows * 1000 + cols)
    mask = rng.random((rows, cols)) < density
    if not mask.any():
        mask[rows - 1, cols - 1] = True
    if mask.all():
        mask[0, 0] = False
    board = Board.from_mines(mask)
    ref = RefBoard(mask.tolist())
    assert (board.bbbv(), board.openings()) == (ref.bbbv(), len(ref.openings()))


@pytest.mark.parametrize("shape", [(1, 70), (70, 1), (2, 65), (65, 2), (5, 64)])
def test_one_region_touching_every_border(shape):
    """One mine in a corner: the region runs along all four borders (on the
    two-row boards the cell beside the mine is cut off: no zero touches it)."""
    mask = np.zeros(shape, bool)
    mask[-1, -1] = True
    for click in [(0, 0), (shape[0] // 2, shape[1] // 2), (shape[0] - 1, 0)]:
        game = Game.from_board(Board.from_mines(mask))
        ref = RefGame(RefBoard(mask.tolist()))
        if mask[click]:
            continue
        assert changed_set(game.reveal(*click)) == ref.reveal(*click)
        assert game.view.tolist() == ref.view
        assert game.state.value == ref.state


def _chords_opening_several_regions():
    """(mask, number cell, its mines) where a chord opens two or more openings.

    Found on seeded random sparse boards: a revealed number whose zero
    neighbours lie in different openings of the board.
    """
    rng = random.Random(5)
    found = []
    while len(found) < 6:
        rows, cols = rng.randint(4, 12), rng.randint(4, 70)
        mask = [[rng.random() < 0.12 for _ in range(cols)] for _ in range(rows)]
        if not any(map(any, mask)):
            continue
        ref = RefBoard(mask)
        region = {}
        for k, cells in enumerate(ref.openings()):
            for cell in cells:
                region[cell] = k
        for r, c in ref.cells():
            if mask[r][c] or ref.counts[r][c] == 0:
                continue
            near = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                    if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]
            if len({region[n] for n in near if n in region}) >= 2:
                found.append((np.array(mask), (r, c), [n for n in near if mask[n[0]][n[1]]]))
                break
    return found


@pytest.mark.parametrize("case", _chords_opening_several_regions())
def test_chord_opens_several_regions(case):
    mask, (r, c), mines = case
    game = Game.from_board(Board.from_mines(mask))
    ref = RefGame(RefBoard(mask.tolist()))
    # Open the number itself first (a safe reveal of a number opens only it).
    assert changed_set(game.reveal(r, c)) == ref.reveal(r, c)
    for mr, mc in mines:
        assert changed_set(game.toggle_mark(mr, mc)) == ref.toggle_mark(mr, mc)
    got = changed_set(game.chord(r, c))
    assert got == ref.chord(r, c)
    assert game.view.tolist() == ref.view
    assert len(got) > 2


def test_a_marked_cell_inside_a_region_is_left_as_marked():
    mask = np.zeros((3, 20), bool)
    mask[2, 19] = True
    game, ref = _marked_pair(mask, [(1, 9, 1), (0, 3, 2)], question_marks=True)
    assert game.view[1, 9] == FLAG and game.view[0, 3] == QUESTION
    assert changed_set(game.reveal(0, 0)) == ref.reveal(0, 0)
    assert game.view[1, 9] == FLAG          # the flag stays; the flood went round it
    assert game.view[0, 3] == 0             # the question mark was opened
    assert game.view.tolist() == ref.view


def test_core_makes_its_own_ring():
    """A core given all-hidden arrays (ring included) still floods only the board.

    The fill stops at the ring because the ring is "revealed"; the core sets
    that itself instead of trusting its caller (before, a zero ring let the
    flood walk off the board's buffer).
    """
    rows, cols = 3, 9
    n = (rows + 2) * (cols + 2)
    st_arr = np.zeros(n, np.uint8)           # the ring hidden, as a careless caller leaves it
    pv = np.full(n, -1, np.int8)
    core = _kernels.GameCore(st_arr, pv, rows, cols)
    ring = st_arr.reshape(rows + 2, cols + 2).copy()
    ring[1:-1, 1:-1] = _kernels.STATE_REVEALED
    assert (ring == _kernels.STATE_REVEALED).all()
    mask = np.zeros((rows, cols), bool)
    mask[2, 8] = True
    board = Board.from_mines(mask)
    core.attach(board._pm, board._pc)
    core.reveal(1 * (cols + 2) + 1)
    assert core.changed_count() == rows * cols - 1
    changed = core.take_changes()
    assert changed.min() >= 0 and changed[:, 0].max() < rows and changed[:, 1].max() < cols
    assert len({tuple(x) for x in changed.tolist()}) == rows * cols - 1
    assert core.take_changes().shape == (0, 2)


@pytest.mark.parametrize("step", [3, 4, 5])
def test_rows_with_many_short_openings(step):
    """Mines every few cells along a row: that row and its neighbours hold the
    most runs a row can, and every run is its own short stretch of zeros."""
    mask = np.zeros((5, 200), bool)
    mask[2, step - 1::step] = True
    board = Board.from_mines(mask)
    ref = RefBoard(mask.tolist())
    assert (board.bbbv(), board.openings()) == (ref.bbbv(), len(ref.openings()))
    game = Game.from_board(board)
    rgame = RefGame(ref)
    for c in range(0, 200, 7):
        if not mask[2, c] and not game.state.is_over:
            assert changed_set(game.reveal(2, c)) == rgame.reveal(2, c)
    assert game.view.tolist() == rgame.view


@settings(max_examples=150, deadline=None)
@given(sparse_masks(), st.integers(0, 10**6))
def test_the_clicked_cell_is_listed_first(mask, seed):
    # Callers (the solver's strategies, the app's cascade) take a move's cell
    # from the first changed cell; the span fill must not list its run's left
    # end first when the click lands in the middle of a run of zeros.
    rnd = random.Random(seed)
    safe = np.argwhere(~mask)
    r, c = (int(x) for x in safe[rnd.randrange(len(safe))])
    game = Game.from_board(Board.from_mines(mask))
    changed = game.reveal(r, c)
    assert (int(changed[0][0]), int(changed[0][1])) == (r, c)
    assert len({tuple(x) for x in changed.tolist()}) == len(changed)
