"""Where fastmine's time goes on small boards: the public call against its kernel.

On a beginner board the compiled work is a microsecond or two, so the Python
layer (argument checks, array allocation, object creation) is most of a call.
This section times each public call next to the private kernel underneath it,
so the report can say exactly how much of each figure is overhead.  It runs in
the worker like every other measurement, and like them rotates through a pool
of boards (bench.kernels.make_pool), so the branch predictor learns none.
"""

from __future__ import annotations

import gc
import statistics

import numpy as np

from . import timing
from .kernels import make_pool
from .timing import measure, use_clock


def _reveal_only(boards, click, repeats: int, batch: int) -> float:
    """Median µs of ``game.reveal`` alone, each on a game built (untimed) just before,
    the games' boards taken in turn from ``boards``."""
    from fastmine import Game

    r, c = click
    samples = []
    for _ in range(repeats):
        games = [Game.from_board(boards[i % len(boards)]) for i in range(batch)]
        gc.disable()
        t0 = timing._now()
        for g in games:
            g.reveal(r, c)
        samples.append((timing._now() - t0) / batch)
        gc.enable()
    return statistics.median(samples) * 1e6


def breakdown(rows: int, cols: int, mines: int, seed: int, min_time: float,
              repeats: int, clock: str = "wall") -> dict[str, float]:
    """µs per call of fastmine's public calls and the kernels under them."""
    use_clock(clock)
    from fastmine import Board, Game, _kernels

    def us(call) -> float:
        return measure(call, min_time=min_time, repeats=repeats, budget=10)["us_per_call"]

    fr, fc = rows // 2, cols // 2            # kept safe on every board of the pool
    masks = [case.mask for case in make_pool("bbbv", rows, cols, mines, seed)]
    boards = [Board.from_mines(mask) for mask in masks]
    n = (rows + 2) * (cols + 2)
    zeros = np.zeros(n, np.int8)

    def each(make):
        """One call per board of the pool (``make(board, mask)`` gives it): a rotation."""
        return [make(b, m) for b, m in zip(boards, masks, strict=True)]

    out = {
        "Board.generate(rule='opening')":
            us(lambda: Board.generate(rows, cols, mines, first_click=(fr, fc))),
        "Board._lay (validated-args path)":
            us(lambda: Board._lay(rows, cols, mines, fr, fc, 1, 7)),
        "_kernels.lay_mines (kernel: lay + count)":
            us(lambda: _kernels.lay_mines(rows, cols, mines, fr, fc, 1, 7)),
        "Board.from_mines(mask)": us(each(lambda b, m: lambda: Board.from_mines(m))),
        "_kernels.count_neighbours (kernel, zeroed copy)":
            us(each(lambda b, m: lambda: _kernels.count_neighbours(b._pm, zeros.copy(), rows,
                                                                  cols))),
        "np.zeros(padded) copy alone": us(lambda: zeros.copy()),
        "fresh Board(...).bbbv()":
            us(each(lambda b, m: lambda: Board._from_padded(b._pm, b._pc, rows, cols,
                                                            mines).bbbv())),
        "_kernels.bbbv_openings (kernel)":
            us(each(lambda b, m: lambda: _kernels.bbbv_openings(b._pm, b._pc, rows, cols))),
        "Game.from_board(board)": us(each(lambda b, m: lambda: Game.from_board(b))),
        "Game.from_board(board).reveal(r, c)":
            us(each(lambda b, m: lambda: Game.from_board(b).reveal(fr, fc))),
    }
    batch = max(50, min(2000, 2_000_000 // n))
    out["game.reveal(r, c) alone (game built untimed)"] = _reveal_only(
        boards, (fr, fc), repeats, batch)
    out.update(_mstoollib_game(masks, (fr, fc), us, repeats, batch))
    return out


def _mstoollib_game(masks, click, us, repeats: int, batch: int) -> dict[str, float]:
    """ms-toollib's game object on the same board: a new game and its first reveal.

    ``MinesweeperBoard(board)`` takes the board as a list of lists (-1 at a
    mine); a reveal is a press and a release, ``step("lc", ...)`` then
    ``step("lr", ...)``.  The boards rotate as fastmine's do.  Nothing when
    ms-toollib is not installed.
    """
    try:
        import ms_toollib as ms
    except ImportError:
        return {}
    from .peers.mstoollib_peer import to_board
    from .peers.numpy_peer import count

    boards = [to_board(mask, count(mask)) for mask in masks]
    r, c = click

    def new_game_reveal(board):
        def call():
            g = ms.MinesweeperBoard(board)
            g.step("lc", (r, c))
            g.step("lr", (r, c))
        return call

    samples = []
    for _ in range(repeats):
        games = [ms.MinesweeperBoard(boards[i % len(boards)]) for i in range(batch)]
        gc.disable()
        t0 = timing._now()
        for g in games:
            g.step("lc", (r, c))
            g.step("lr", (r, c))
        samples.append((timing._now() - t0) / batch)
        gc.enable()
    return {
        "ms-toollib MinesweeperBoard(board) + step lc, lr":
            us([new_game_reveal(b) for b in boards]),
        "ms-toollib step lc, lr alone (board built untimed)": statistics.median(samples) * 1e6,
    }
