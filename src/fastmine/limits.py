"""The largest board fastmine plays or analyses: one limit for the engine and the solver.

Every public entry point (``Board``, ``Game``, the solver's functions, the
command line) checks a size against these numbers before anything is
allocated, so a board that cannot fit is refused at once with a
``ValueError`` that names the limit, instead of filling the memory or, worse,
overflowing an index in a kernel.

Why these numbers: the kernels index the padded board ((rows + 2) x
(cols + 2) cells) with C integers, and the solver keeps cell indices and
products like ``row * width`` in 32-bit ``int``s.  With at most
:data:`MAX_CELLS` cells and :data:`MAX_ROWS` / :data:`MAX_COLS` per side the
padded board stays under 2**26 cells, far from 2**31 even after the small
multiples the kernels take.  Memory: a game needs about 4 bytes a cell (plus
16 bytes for each cell one move changes: the (row, col) pairs it returns), the solver a few tens of bytes
for each unknown cell, so the largest board stays around a gigabyte; 5000 x 5000
fits, 50000 x 40000 does not.

>>> check_board_size(5000, 5000)
(5000, 5000)
>>> check_board_size(50000, 40000)
Traceback (most recent call last):
...
ValueError: a 50000x40000 board is too large: 2000000000 cells, and fastmine handles at most 33554432 (fastmine.limits.MAX_CELLS)
"""

from __future__ import annotations

__all__ = ["MAX_CELLS", "MAX_COLS", "MAX_LOG_MOVES", "MAX_REPLAY_BYTES", "MAX_ROWS",
           "MOVES_ANY_BOARD",
           "MOVES_PER_CELL", "check_board_size", "fits", "max_moves"]

MAX_CELLS = 2**25
"""Most cells (rows x cols) of a board: 33,554,432, e.g. 5792 x 5792."""

MAX_ROWS = 2**20
"""Most rows of a board (1,048,576): a very thin board is fine, up to :data:`MAX_CELLS`."""

MAX_COLS = 2**20
"""Most columns of a board (1,048,576)."""


def fits(rows: int, cols: int) -> bool:
    """True when a ``rows`` x ``cols`` board (both positive ints) is within the limits."""
    return 0 < rows <= MAX_ROWS and 0 < cols <= MAX_COLS and rows * cols <= MAX_CELLS


def check_board_size(rows: int, cols: int) -> tuple[int, int]:
    """Return ``(rows, cols)`` if the board fits, else raise a ``ValueError`` naming the limit.

    ``rows`` and ``cols`` must already be ints; a size below 1 is refused too.
    The command line calls this before it starts a game or a run.
    """
    if rows < 1 or cols < 1:
        raise ValueError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
    if rows > MAX_ROWS:
        raise ValueError(f"a board with {rows} rows is too large: at most {MAX_ROWS} rows "
            "(fastmine.limits.MAX_ROWS)")
    if cols > MAX_COLS:
        raise ValueError(
            f"a board with {cols} columns is too large: at most {MAX_COLS} columns "
            "(fastmine.limits.MAX_COLS)")
    if rows * cols > MAX_CELLS:
        raise ValueError(
            f"a {rows}x{cols} board is too large: {rows * cols} cells, and fastmine "
            f"handles at most {MAX_CELLS} (fastmine.limits.MAX_CELLS)")
    return rows, cols


MOVES_PER_CELL = 16
"""Moves a replay or a saved move log may hold for each cell of its board (see :func:`max_moves`)."""

MOVES_ANY_BOARD = 10_000
"""Moves a replay or a saved move log may hold on any board, above :data:`MOVES_PER_CELL`."""

MAX_LOG_MOVES = 2**22
"""Most moves a replay or a saved move log holds on any board (4,194,304; 64 MB packed)."""

MAX_REPLAY_BYTES = 64 * 2**20
"""The largest replay file read; a bigger one is refused unread (also
``fastmine.replay.MAX_REPLAY_BYTES``)."""


def max_moves(rows: int, cols: int) -> int:
    """The most moves a game's file (a replay, a saved game's move log) may hold.

    A game's moves have no bound in the rules: a cell is revealed once, but a
    mark can be cycled again and again and a click that changes nothing (on an
    open cell, a chord that opens nothing) is logged too.  So the cap is what
    people play, generously: real games make under two moves a cell (Expert
    about 300 on 480 cells, a solver at most three: reveal, flag, chord); a file
    may hold :data:`MOVES_PER_CELL` a cell plus :data:`MOVES_ANY_BOARD`, and
    never more than :data:`MAX_LOG_MOVES`.  Readers check it before unpacking
    or playing anything, so a file's cost follows its board's size, not what
    it claims.  A game played past it keeps going but has no replay.

    Parameters
    ----------
    rows, cols
        The board's size (positive ints).

    Returns
    -------
    int
        The cap: 11,296 moves for 9x9, 17,680 for Expert, and
        :data:`MAX_LOG_MOVES` from about 512 x 512 up.

    >>> max_moves(9, 9), max_moves(16, 30)
    (11296, 17680)
    """
    return min(MAX_LOG_MOVES, MOVES_PER_CELL * rows * cols + MOVES_ANY_BOARD)
