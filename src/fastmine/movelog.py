"""The move log's layout: move kinds, packing, unpacking and checking, in one place.

A game's moves are logged by the move kernels themselves (``GameCore`` in
``_kernels.pyx``) as pairs of int64 ``(code, ms)``: ``code = cell * 8 + kind``,
``kind`` one of :data:`MOVE_REVEAL`, :data:`MOVE_MARK`, :data:`MOVE_CHORD`,
:data:`MOVE_MARK_PLAIN`, plus :data:`MOVE_ASSIST` for a solver's move, and
``ms`` the game time.  A mark says which cycle it used, because the
question-mark setting may change during a game.  In
the game's own log (and its save) ``cell`` is the index in the game's padded
arrays, ``(row + 1) * (cols + 2) + col + 1``; in a replay file it is
``row * cols + col`` (docs/replays.md).  :attr:`fastmine.Game.moves`,
:mod:`fastmine.gameformat` and :mod:`fastmine.replay` all go through here.
A log written before marks said their cycle (:data:`LOG_VERSION` 1) is read
through :func:`upgrade`.

>>> pairs = encode(np.array([[0, 1, 2, 0], [MOVE_MARK | MOVE_ASSIST, 0, 0, 5]]), 3, padded=False)
>>> pairs.tolist()
[[40, 0], [5, 5]]
>>> decode(pairs, 3, padded=False).tolist()
[[0, 1, 2, 0], [5, 0, 0, 5]]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kernels

# The kernels write these codes; they are defined there once.
MOVE_REVEAL: int = _kernels.MOVE_REVEAL
MOVE_MARK: int = _kernels.MOVE_MARK
"""A mark made with question marks on: hidden -> flag -> ? -> hidden."""
MOVE_CHORD: int = _kernels.MOVE_CHORD
MOVE_MARK_PLAIN: int = _kernels.MOVE_MARK_PLAIN
"""A mark made with question marks off: hidden <-> flag."""
MOVE_ASSIST: int = _kernels.MOVE_ASSIST
"""Added to the kind of a move a solver made (see :meth:`fastmine.Game.assisting`)."""

KIND_BITS = 3
"""``kind & KIND_BITS`` is the move without its assist bit: an index of :data:`KIND_NAMES`."""

KIND_NAMES = ("reveal", "mark", "chord", "mark")
"""Move kinds by number (:attr:`fastmine.Game.moves` column 0, without the assist
bit); both mark kinds are a mark (one right click), with and without "?"."""

LOG_VERSION = 2
"""The layout of the logs written now.  Version 1 logs (replay files of
version 1, saves without ``moves_version``) have no kind 3: each mark (kind 1)
cycled as the game's question-mark setting said."""


def _width(cols: int, padded: bool) -> tuple[int, int]:
    return (cols + 2, 1) if padded else (cols, 0)


def decode(pairs: NDArray[np.int64], cols: int, *, padded: bool) -> NDArray[np.int64]:
    """``(n, 2)`` pairs ``(code, ms)`` as an ``(n, 4)`` int64 array of
    ``(kind, row, col, ms)`` (unchecked: see :func:`check`)."""
    width, off = _width(cols, padded)
    out = np.empty((pairs.shape[0], 4), np.int64)
    cell = pairs[:, 0] >> 3
    out[:, 0] = pairs[:, 0] & 7
    out[:, 1] = cell // width - off
    out[:, 2] = cell % width - off
    out[:, 3] = pairs[:, 1]
    return out


def encode(moves: NDArray[np.int64], cols: int, *, padded: bool) -> NDArray[np.int64]:
    """The inverse of :func:`decode`: ``(kind, row, col, ms)`` rows as ``(n, 2)``
    little-endian int64 pairs ``(code, ms)``, ready to write."""
    width, off = _width(cols, padded)
    pairs = np.empty((moves.shape[0], 2), "<i8")
    pairs[:, 0] = ((moves[:, 1] + off) * width + moves[:, 2] + off) * 8 + moves[:, 0]
    pairs[:, 1] = moves[:, 3]
    return pairs


def upgrade(rows: NDArray[np.int64], version: int, question_marks: bool) -> NDArray[np.int64]:
    """The rows of a log in layout ``version`` (see :data:`LOG_VERSION`), column 0
    a code or a kind (both end in the kind's bits), in today's layout (a new array).

    In a version 1 log every mark is kind 1 and cycled as the game's setting
    ``question_marks`` said: with it off, each becomes :data:`MOVE_MARK_PLAIN`.

    >>> upgrade(np.array([[1, 0], [5, 0], [8, 0]]), 1, False)[:, 0].tolist()
    [3, 7, 8]
    """
    out = np.array(rows, np.int64)
    if version < 2 and not question_marks:
        marks = (out[:, 0] & KIND_BITS) == MOVE_MARK
        out[marks, 0] += MOVE_MARK_PLAIN - MOVE_MARK
    return out


def check(pairs: ArrayLike, rows: int, cols: int, *, padded: bool, max_ms: float,
          times_ordered: bool, version: int = LOG_VERSION) -> NDArray[np.int64]:
    """Check logged ``(code, ms)`` pairs read from a file and decode them
    (as :func:`decode`; a ``version`` 1 log still needs :func:`upgrade`).

    Raises ValueError naming the first bad move (counted from 1): a cell off
    the ``rows`` x ``cols`` board, an unknown kind (kind 3 in a version 1 log),
    a time below 0 or above ``max_ms``, or, with ``times_ordered``, a time
    before the move before it.
    """
    pairs = np.asarray(pairs, np.int64).reshape(-1, 2)
    moves = decode(pairs, cols, padded=padded)
    kind, r, c, ms = moves[:, 0], moves[:, 1], moves[:, 2], moves[:, 3]
    bad = np.flatnonzero((pairs[:, 0] < 0) | (r < 0) | (r >= rows) | (c < 0) | (c >= cols))
    if bad.size:
        raise ValueError(f"move {bad[0] + 1} names a cell off the board ({rows}x{cols})")
    known = len(KIND_NAMES) if version >= 2 else MOVE_MARK_PLAIN
    bad = np.flatnonzero((kind & KIND_BITS) >= known)
    if bad.size:
        names = ", ".join(f"{i} {KIND_NAMES[i]}" for i in range(known))
        raise ValueError(f"unknown kinds: move {bad[0] + 1} is of kind {kind[bad[0]]} "
                         f"(known: {names}, each plus {MOVE_ASSIST} for a solver's move)")
    bad = np.flatnonzero((ms < 0) | (ms > max_ms))
    if bad.size:
        raise ValueError(f"move {bad[0] + 1} has a bad time of {ms[bad[0]]} ms "
                         f"(0 to {max_ms:.0f})")
    if times_ordered:
        bad = np.flatnonzero(np.diff(ms) < 0)
        if bad.size:
            i = int(bad[0]) + 1
            raise ValueError(f"times go backwards: move {i + 1} is at {ms[i]} ms, "
                             f"after {ms[i - 1]} ms")
    return moves
