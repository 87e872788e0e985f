"""Peer (c): ms-toollib, a Rust Minesweeper library on PyPI (``pip install ms-toollib``).

Its Python API works on lists of lists: a board is ``-1`` at a mine and the
neighbour count elsewhere; a game board is ``10`` where hidden.  Every call
converts its list arguments to Rust vectors and its result back to lists; that
conversion is part of what a user of the library pays, so it is timed.  Some
calls abort the whole process on large inputs (a recursive flood fill
overflows the stack): the harness runs each measurement in a worker process
and records that as a crash row.
"""

from __future__ import annotations

import numpy as np

NAME = "ms_toollib"
LABEL = "ms-toollib"

DOES = {
    "gen_cell": "laymine(rows, cols, mines, r, c): safe first cell, returns the board "
                "list of lists with counts (-1 = mine)",
    "gen_opening": "laymine_op(rows, cols, mines, r, c): first click opens, board with counts",
    "count": "cal_board_numbers(board) on a list of lists with -1 at the mines",
    "bbbv": "cal_bbbv(board) on the board list of lists",
    "reveal_opening": "refresh_board(board, all-hidden game board, [(r, c)]): the game state "
                      "is the list passed in; returns a new game board (inputs converted "
                      "from lists, output built as lists: the library's only reveal call)",
    "bbbv_empty": "as bbbv, on a board with one mine",
    "reveal_empty": "as reveal_opening, on a board with one mine",
}

HIDDEN = 10


def unavailable() -> str | None:
    """Why this peer cannot run here (ms-toollib not installed), or None."""
    try:
        import ms_toollib  # noqa: F401
    except ImportError as exc:
        return f"ms-toollib is not installed (pip install ms-toollib): {exc}"
    return None


def version() -> str | None:
    """The installed ms-toollib version, or None."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    try:
        return _version("ms_toollib")
    except PackageNotFoundError:
        return None


def to_board(mask: np.ndarray, counts: np.ndarray | None) -> list[list[int]]:
    """ms-toollib's board format: -1 at a mine, the count elsewhere (0 if counts is None)."""
    vals = np.zeros(mask.shape, np.int64) if counts is None else counts.astype(np.int64)
    return np.where(mask, -1, vals).tolist()


def _unboard(board: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    arr = np.asarray(board)
    return arr == -1, np.where(arr == -1, 0, arr)


def prepare(kernel: str, case):
    """The timed call (and its input) for ``kernel`` on ``case``; see bench.peers."""
    import ms_toollib as ms

    from . import Prepared
    from .numpy_peer import count

    rows, cols, m = case.rows, case.cols, case.mines
    fr, fc = case.click
    if kernel == "gen_cell":
        return Prepared(lambda: ms.laymine(rows, cols, m, fr, fc), check=_unboard)
    if kernel == "gen_opening":
        return Prepared(lambda: ms.laymine_op(rows, cols, m, fr, fc), check=_unboard)
    if kernel == "count":
        bare = to_board(case.mask, None)
        return Prepared(lambda: ms.cal_board_numbers(bare), check=lambda out: _unboard(out)[1])
    board = to_board(case.mask, count(case.mask))
    if kernel in ("bbbv", "bbbv_empty"):
        return Prepared(lambda: ms.cal_bbbv(board), check=int)
    if kernel in ("reveal_opening", "reveal_empty"):
        # refresh_board returns a new game board and leaves its argument alone,
        # so one all-hidden input serves every call.
        hidden = [[HIDDEN] * cols for _ in range(rows)]
        click = [(fr, fc)]
        return Prepared(lambda: ms.refresh_board(board, hidden, click),
                        check=lambda out: int(np.count_nonzero(np.asarray(out) < HIDDEN)))
    raise KeyError(kernel)
