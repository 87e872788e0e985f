"""Large and very thin boards: the kernels scale and stay exact."""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest
from reference import RefBoard

from fastmine import FLAG, Board, Game, GameState


def numpy_counts(mines: np.ndarray) -> np.ndarray:
    """Neighbour counts by summing eight shifted copies: a second, vectorized reference."""
    rows, cols = mines.shape
    p = np.zeros((rows + 2, cols + 2), np.int16)
    p[1:-1, 1:-1] = mines
    total = np.zeros((rows, cols), np.int16)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if (dr, dc) != (1, 1):
                total += p[dr:dr + rows, dc:dc + cols]
    return total


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.slow
def test_5000x5000_with_one_mine_opens_in_one_reveal():
    n = 5000
    mask = np.zeros((n, n), bool)
    mask[1234, 4321] = True
    board = Board.from_mines(mask)
    del mask
    assert board.mine_count == 1
    assert board.openings() == 1 and board.bbbv() == 1
    game = Game.from_board(board)
    before = rss_mib() if os.path.exists("/proc/self/statm") else None
    changed = game.reveal(n - 1, 0)
    assert game.state is GameState.WON
    assert changed.shape == (n * n, 2)  # every safe cell, and the mine flagged at the win
    del changed
    assert game.revealed_count == n * n - 1
    view = game.view
    assert view[1234, 4321] == FLAG
    assert int((view >= 0).sum()) == n * n - 1
    assert view[1233:1236, 4320:4323].sum() == 8 + FLAG
    if before is not None:
        gc.collect()
        # The move's working buffers (hundreds of MiB here) are given back.
        assert rss_mib() - before < 64


def test_1000x1000_generate_and_play():
    board = Board.generate(1000, 1000, 150_000, first_click=(500, 500), rule="opening", seed=4)
    mines = board.mines
    assert board.mine_count == int(mines.sum()) == 150_000
    assert not mines[499:502, 499:502].any()
    safe = ~mines
    assert np.array_equal(board.counts[safe], numpy_counts(mines)[safe])
    game = Game(1000, 1000, 150_000, rule="opening", seed=4)
    changed = game.reveal(500, 500)
    assert game.board == board
    assert len(changed) >= 9 and game.state is GameState.PLAYING
    assert board.bbbv() >= board.openings() >= 1


def test_bbbv_of_a_large_board_matches_reference():
    board = Board.generate(150, 150, 2800, first_click=(0, 0), seed=8)
    ref = RefBoard(board.mines.tolist())
    assert board.counts.tolist() == ref.counts
    assert board.openings() == len(ref.openings())
    assert board.bbbv() == ref.bbbv()


@pytest.mark.parametrize("shape", [(1, 20_000), (20_000, 1), (2, 10_000)])
def test_very_thin_boards(shape):
    rng = np.random.default_rng(sum(shape))
    mask = rng.random(shape) < 0.05
    board = Board.from_mines(mask)
    ref = RefBoard(mask.tolist())
    assert board.counts.tolist() == ref.counts
    assert board.bbbv() == ref.bbbv()
    assert board.openings() == len(ref.openings())
    # Reveal every safe cell in a fixed order; each move reports exactly the
    # cells whose view changed, and the won board shows every number.
    game = Game.from_board(board)
    for r, c in np.argwhere(~mask).tolist():
        if game.view[r, c] < 0:
            before = game.view.copy()
            got = {tuple(x) for x in game.reveal(r, c).tolist()}
            assert got == {tuple(x) for x in np.argwhere(game.view != before).tolist()}
    assert game.state is GameState.WON
    assert np.array_equal(game.view, np.where(mask, FLAG, board.counts))


def test_long_winding_zero_region():
    """A serpentine corridor one cell wide: deep for any recursive flood fill."""
    n = 301
    mask = np.zeros((n, n), bool)
    # Walls of mines on rows 4, 8, 12, ..., each with a 3-cell gap at alternating
    # ends: the zero cells form one corridor that winds through the whole board.
    for k, r in enumerate(range(4, n - 2, 4)):
        mask[r, :] = True
        mask[r, (slice(n - 3, n) if k % 2 == 0 else slice(0, 3))] = False
    board = Board.from_mines(mask)
    game = Game.from_board(board)
    changed = game.reveal(0, 0)
    assert game.state is GameState.WON
    assert len(changed) == n * n  # every safe cell, plus each mine flagged at the win
    assert board.openings() == 1
