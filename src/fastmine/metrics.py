"""The competitive community's metrics of a game, as its clients define them.

Minesweeper Arbiter, Viennasweeper and Metasweeper (whose numbers come from
ms-toollib) report the same statistics of a game, and fastmine computes them
the same way, for its own games (:meth:`fastmine.Game.stats`) and for recorded
ones (``fastmine analyze``).  ``t`` is the game's time in seconds (first reveal
to the end), ``3BV`` the board's, ``solved`` the 3BV solved:

=================  ==================================================================
3BV                the fewest left clicks that clear the board: one per opening, one
                   per number no opening uncovers (:meth:`fastmine.Board.bbbv`)
3BV solved         the part of the 3BV done: the openings whose zeros are all open,
                   and the numbers no opening uncovers that are open
                   (:func:`bbbv_solved`; all of it in a won game)
3BV/s              solved / t
clicks (cl)        left + right + double (chord) clicks, every click counted
cl/s               clicks / t (also per kind: left/s, right/s, double/s)
effective (ce)     clicks that changed the board: a reveal that opened a cell, the
                   first flag laid on each mine, a chord that opened cells
IOE                solved / clicks (index of efficiency)
correctness        ce / clicks
throughput         solved / ce
RQP                t / (3BV/s) = t^2 / solved
STNB               C * solved / t^1.7 * sqrt(solved / 3BV) on the three standard
                   levels, C = 36 (Beginner 8x8/10), 162 (Intermediate 16x16/40),
                   435 (Expert 16x30/99) (:data:`STNB_CONSTANTS`); C * 3BV / t^1.7
                   for a won game
openings           the board's openings (8-connected regions of zeros)
islands            8-connected groups of the numbers no opening uncovers
ZiNi               an estimate of the fewest clicks (left, right and chord) that clear
                   the board: Greedy ZiNi (:func:`zini`); Human ZiNi (:func:`hzini`)
path               how far the mouse moved, in 16-pixel cells (videos only)
=================  ==================================================================

A rate needs a time: a game shorter than :data:`TIME_FLOOR` (1 ms, the
clients' resolution) has no 3BV/s, cl/s, RQP or STNB (None), as Metasweeper
shows none for it, rather than the thousands a division by a few microseconds
gives.  A value that would divide by zero (IOE before any click, RQP with
nothing solved) is None too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _metrics
from ._validate import is_integer
from .board import Board
from .movelog import KIND_BITS, MOVE_CHORD, MOVE_REVEAL
from .viewcodes import FLAG, GameState

if TYPE_CHECKING:
    from .game import Game

__all__ = ["STANDARD_LEVELS", "STNB_CONSTANTS", "TIME_FLOOR", "GameStats", "bbbv_solved",
           "effective_clicks", "game_stats", "hzini", "islands", "level_of", "openings",
           "path_length", "zini"]

TIME_FLOOR = 0.001
"""Shortest game time, in seconds, that has rates (3BV/s, cl/s, RQP, STNB):
below it they are None.  Metasweeper (ms-toollib) shows none below 1 ms.
(Compared to the microsecond: a clock's 1 ms may read 0.000999999.)"""

_FLOOR = TIME_FLOOR - 5e-7


def _timed(t: float) -> bool:
    """Whether a game of ``t`` seconds has rates (see :data:`TIME_FLOOR`)."""
    return t >= _FLOOR

STANDARD_LEVELS: dict[tuple[int, int, int], str] = {
    (8, 8, 10): "beginner", (16, 16, 40): "intermediate", (16, 30, 99): "expert"}
"""The community's three levels by ``(rows, cols, mines)``.  Beginner is 8x8 in
every competitive client (fastmine's own Beginner preset, 9x9, is not one)."""

STNB_CONSTANTS: dict[str, float] = {"beginner": 36.0, "intermediate": 162.0, "expert": 435.0}
"""STNB's constant per standard level, as Metasweeper's ms-toollib (1.5) has them
(its releases before used 47.299, 153.73 and 435.001, and the whole 3BV where
the solved 3BV now stands first: the same for a won game)."""


def level_of(rows: int, cols: int, mines: int) -> str:
    """The community's level of a board size.

    Parameters
    ----------
    rows, cols, mines : int
        The board.

    Returns
    -------
    str
        ``"beginner"`` (8x8/10), ``"intermediate"`` (16x16/40), ``"expert"``
        (16 rows by 30 columns, 99 mines) or ``"custom"``.
    """
    return STANDARD_LEVELS.get((rows, cols, mines), "custom")


def _board(board: object) -> Board:
    if not isinstance(board, Board):
        raise TypeError(f"needs a fastmine.Board, got {type(board).__name__}")
    return board


def _mask(a: NDArray[np.bool_]) -> NDArray[np.uint8]:
    return np.ascontiguousarray(a, dtype=np.uint8)


def _isolated(board: Board) -> NDArray[np.bool_]:
    """The numbers no opening uncovers (each a 3BV of its own)."""
    mines = board.mines
    zero = (board.counts == 0) & ~mines
    padded = np.zeros((board.rows + 2, board.cols + 2), bool)
    padded[1:-1, 1:-1] = zero
    near = np.zeros_like(zero)
    for dr in range(3):
        for dc in range(3):
            near |= padded[dr:dr + board.rows, dc:dc + board.cols]
    out: NDArray[np.bool_] = ~mines & ~near
    return out


def _labels(mask: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    out = np.empty(mask.shape, np.int32)
    n = _metrics.label8(_mask(mask), out)
    return out, int(n)


def openings(board: Board) -> int:
    """The board's openings: 8-connected regions of zeros (ms-toollib's ``op``).

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
    """
    return _board(board).openings()


def islands(board: Board) -> int:
    """The board's islands: 8-connected groups of the numbers no opening
    uncovers (ms-toollib's ``isl``).

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
    """
    return _labels(_isolated(_board(board)))[1]


def zini(board: Board) -> int:
    """Greedy ZiNi: an estimate of the fewest clicks that clear ``board``.

    The greedy algorithm of Elmar Zimmermann and Christoph Nikolaus, as
    Metasweeper (ms-toollib) and the ranking sites compute it.  Every safe cell
    has a premium, what a chord there saves over left clicks: the 3BV around it
    (numbers no opening uncovers, and up to two openings it borders) less the
    flags to lay, the chord, and a click to open it if it is closed.  Until the
    board is clear: take the cell of the highest premium (the first, column by
    column, on a tie); if that premium is 0 or more, open it if needed, flag
    its mines and chord it; otherwise click the first closed zero or number no
    opening uncovers.  ZiNi counts every click, flags included.

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
        The clicks the algorithm used (not always the true minimum).
    """
    b = _board(board)
    return int(_metrics._Zini(_mask(b.mines), False).run(b.mine_count))


def hzini(board: Board) -> int:
    """Human ZiNi: :func:`zini` as a player goes about it: every opening
    clicked first, then chords only on cells already open.

    Parameters
    ----------
    board : Board

    Returns
    -------
    int
    """
    b = _board(board)
    return int(_metrics._Zini(_mask(b.mines), True).run(b.mine_count))


def bbbv_solved(board: Board, view: ArrayLike) -> int:
    """3BV solved: the openings whose zeros are all open, plus the open numbers
    that no opening uncovers.

    This is the count the clients keep for an unfinished or lost game (all of
    the 3BV once won).  ms-toollib keeps it click by click, and agrees, except
    that it may count an opening twice when flags split it and it is finished
    in two parts.

    Parameters
    ----------
    board : Board
        The mines.
    view : array_like, shape (rows, cols)
        What the player sees (:attr:`fastmine.Game.view`): a cell is open where
        it is 0 to 8.

    Returns
    -------
    int
    """
    b = _board(board)
    v = np.asarray(view)
    if v.shape != b.shape:
        raise ValueError(f"view must have the board's shape {b.shape}, got {v.shape}")
    if v.dtype.kind not in "iu":
        raise TypeError(f"view must hold integer view codes, got {v.dtype}")
    mines = b.mines
    open_ = (v >= 0) & (v <= 8) & ~mines
    zero = (b.counts == 0) & ~mines
    labels, n = _labels(zero)
    # distinct labels by a count per label: np.unique would import numpy.ma
    # (~6 ms of every `fastmine analyze` start) for this one line
    unfinished = np.count_nonzero(np.bincount(labels[zero & ~open_]))
    return int(n - unfinished + np.count_nonzero(_isolated(b) & open_))


def path_length(x: ArrayLike, y: ArrayLike, cell_size: int, *,
                keep: ArrayLike | None = None) -> float:
    """How far the mouse moved through the points ``(x, y)`` (pixels), in units
    of 16-pixel cells (Metasweeper's unit, whatever size the cells were drawn).

    Parameters
    ----------
    x, y : array_like of numbers
        The pointer's positions in order; leave out the points off the board,
        as Metasweeper does (the path joins the points either side).
    cell_size : int
        Pixels per cell.
    keep : array_like of bool, optional
        The points to go through, one a point (the others are left out, as
        if not given): a video's points on the board, without copying them.

    Returns
    -------
    float
    """
    if not is_integer(cell_size):
        raise TypeError(f"cell_size must be a whole number of pixels, got {cell_size!r:.40}")
    if cell_size < 1:
        raise ValueError(f"cell_size must be at least 1 pixel, got {cell_size}")
    # A video's pixel positions (int32) as they are; anything else as float64.
    both = (np.asarray(x), np.asarray(y))
    dtype = np.int32 if all(a.dtype == np.int32 for a in both) else np.float64
    xs, ys = (np.ascontiguousarray(a, dtype=dtype) for a in both)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"x and y must be 1-D and of one length, got {xs.shape} and {ys.shape}")
    if keep is None:
        mask = _NO_MASK
    else:
        given = np.asarray(keep)
        if given.dtype != np.bool_:
            raise TypeError(f"keep must be booleans, one a point, got {given.dtype} values")
        mask = np.ascontiguousarray(given).view(np.uint8)
        if mask.shape != xs.shape:
            raise ValueError(f"keep must have one entry a point, got {mask.shape} for "
                             f"{xs.shape[0]} points")
    return _metrics.path(xs, ys, mask, keep is not None) * 16.0 / cell_size


_NO_MASK = np.zeros(0, np.uint8)


def _events_path(x: NDArray[np.int32], y: NDArray[np.int32], row: NDArray[np.int32],
                start: int, stop: int, cell_size: int) -> float:
    """:func:`path_length` of a video's events ``start`` to ``stop`` (excluded),
    through those on the board (``row`` not negative), without a mask array.

    Parameters
    ----------
    x, y, row : ndarray of int32
        :class:`fastmine.videos.Events` columns: the pointer in pixels and its row.
    start, stop : int
        The events to go through.
    cell_size : int
        Pixels per cell.

    Returns
    -------
    float
        In 16-pixel cells.
    """
    if not is_integer(cell_size):
        raise TypeError(f"cell_size must be a whole number of pixels, got {cell_size!r:.40}")
    if cell_size < 1:
        raise ValueError(f"cell_size must be at least 1 pixel, got {cell_size}")
    return _metrics.path_on_board(x, y, row, start, stop) * 16.0 / cell_size


def effective_clicks(game: Game) -> tuple[int, int, int] | None:
    """The effective left, right and chord clicks of ``game`` (None when its
    move log is incomplete, or it has no board yet).

    A reveal is effective when it opens a safe cell, a right click when it
    lays the first flag on a mine, a chord when it opens cells (a chord that
    hits a mine too), as ms-toollib counts them.  Found by playing the game's
    moves again on its board.

    Parameters
    ----------
    game : Game

    Returns
    -------
    tuple of int, or None
    """
    board = game.board
    if board is None or not game.moves_complete:
        return None
    from .timedmoves import ManualClock  # only here: not on a video's path

    again = type(game).from_board(board, question_marks=game.question_marks,
                                  clock=ManualClock())
    mines = board.mines
    flagged: set[tuple[int, int]] = set()
    left = right = chord = 0
    for kind, r, c, _ms in game.moves.tolist():
        move = kind & KIND_BITS
        before = again.revealed_count
        was_over = again.state.is_over
        if was_over:                # a log that goes on after the end: not this game's
            return None
        again._play_logged(kind, r, c)
        if move == MOVE_REVEAL:
            left += again.revealed_count > before
        elif move == MOVE_CHORD:
            chord += again.revealed_count > before or again.state is GameState.LOST
        elif again.view[r, c] == FLAG and mines[r, c] and (r, c) not in flagged:
            flagged.add((r, c))
            right += 1
    return left, right, chord


@dataclass(frozen=True)
class GameStats:
    """A game's numbers (:meth:`fastmine.Game.stats`, ``fastmine analyze``), with
    the community's metrics as properties (see :mod:`fastmine.metrics`).

    Parameters
    ----------
    time : float
        Seconds played (first reveal to the end), pauses not counted.
    bbbv : int or None
        The board's 3BV; None before the first reveal (no board yet).
    bbbv_per_second : float or None
        3BV solved per second (None without a board, or under :data:`TIME_FLOOR`).
    left_clicks, right_clicks, chord_clicks : int
        Clicks: reveals, marks (right clicks) and chords (double clicks), effective
        or not.
    bbbv_solved : int or None
        3BV solved (None without a board).
    effective_left, effective_right, effective_chord : int or None
        Clicks that changed the board (None when not known: a game resumed from
        a save without its moves).
    level : str
        The community's level (:func:`level_of`): ``"custom"`` has no STNB.
    path : float or None
        How far the mouse moved, in 16-pixel cells (videos only).
    """

    time: float
    bbbv: int | None
    bbbv_per_second: float | None
    left_clicks: int
    right_clicks: int
    chord_clicks: int
    bbbv_solved: int | None = None
    effective_left: int | None = None
    effective_right: int | None = None
    effective_chord: int | None = None
    level: str = "custom"
    path: float | None = None

    @classmethod
    def of(cls, time: float, bbbv: int | None, bbbv_solved: int | None, clicks: tuple[int, int, int],
           effective: tuple[int, int, int] | None = None, level: str = "custom",
           path: float | None = None) -> GameStats:
        """The numbers of a game, 3BV/s worked out from ``bbbv_solved`` and ``time``.

        Parameters
        ----------
        time : float
            Seconds.
        bbbv, bbbv_solved : int or None
            The board's 3BV and the part solved.
        clicks : tuple of int
            Left, right and chord clicks.
        effective : tuple of int, optional
            Effective left, right and chord clicks, when known.
        level : str
            The community's level of the board.
        path : float, optional
            The mouse path, in 16-pixel cells.

        Returns
        -------
        GameStats
        """
        rate = bbbv_solved / time if bbbv_solved is not None and _timed(time) else None
        el, er, ec = effective if effective is not None else (None, None, None)
        return cls(float(time), bbbv, rate, *clicks, bbbv_solved, el, er, ec, level, path)

    # --------------------------------------------------------------- clicks

    @property
    def clicks(self) -> int:
        """All clicks: left + right + chord (the community's ``cl``)."""
        return self.left_clicks + self.right_clicks + self.chord_clicks

    @property
    def effective_clicks(self) -> int | None:
        """Clicks that changed the board (``ce``), or None when not known."""
        if self.effective_left is None or self.effective_right is None \
                or self.effective_chord is None:
            return None
        return self.effective_left + self.effective_right + self.effective_chord

    def _per_second(self, n: float | None) -> float | None:
        return None if n is None or not _timed(self.time) else n / self.time

    @property
    def clicks_per_second(self) -> float | None:
        """Clicks per second (``cl/s``)."""
        return self._per_second(self.clicks)

    @property
    def left_per_second(self) -> float | None:
        """Left clicks per second."""
        return self._per_second(self.left_clicks)

    @property
    def right_per_second(self) -> float | None:
        """Right clicks per second."""
        return self._per_second(self.right_clicks)

    @property
    def chord_per_second(self) -> float | None:
        """Double (chord) clicks per second."""
        return self._per_second(self.chord_clicks)

    @property
    def effective_per_second(self) -> float | None:
        """Effective clicks per second (``ce/s``)."""
        return self._per_second(self.effective_clicks)

    # ----------------------------------------------------------- efficiency

    @property
    def ioe(self) -> float | None:
        """Index of efficiency: 3BV solved / clicks (None before any click)."""
        if self.bbbv_solved is None or self.clicks == 0:
            return None
        return self.bbbv_solved / self.clicks

    @property
    def efficiency(self) -> float | None:
        """The IOE (:attr:`ioe`): 3BV solved / clicks.  Above 1.0 means chording
        and flagging paid off; a lost game counts only the 3BV it solved."""
        return self.ioe

    @property
    def correctness(self) -> float | None:
        """Effective clicks / clicks."""
        ce = self.effective_clicks
        return None if ce is None or self.clicks == 0 else ce / self.clicks

    @property
    def throughput(self) -> float | None:
        """3BV solved / effective clicks."""
        ce = self.effective_clicks
        if ce is None or ce == 0 or self.bbbv_solved is None:
            return None
        return self.bbbv_solved / ce

    @property
    def rqp(self) -> float | None:
        """RQP: time / (3BV/s), time squared over 3BV solved (lower is better)."""
        rate = self.bbbv_per_second
        return None if not rate else self.time / rate

    @property
    def stnb(self) -> float | None:
        """STNB on a standard level (None on others): ``C * solved / t**1.7 *
        sqrt(solved / 3BV)``, ``C`` from :data:`STNB_CONSTANTS` (higher is better)."""
        c = STNB_CONSTANTS.get(self.level)
        if c is None or not self.bbbv or self.bbbv_solved is None or not _timed(self.time):
            return None
        solved = self.bbbv_solved
        return float(c * solved / self.time ** 1.7 * math.sqrt(solved / self.bbbv))


def game_stats(game: Game) -> GameStats:
    """The numbers of a :class:`fastmine.Game` (:meth:`fastmine.Game.stats`).

    Parameters
    ----------
    game : Game

    Returns
    -------
    GameStats
    """
    board = game.board
    bbbv = solved = None
    if board is not None:
        bbbv = board.bbbv()
        solved = bbbv if game.state is GameState.WON else bbbv_solved(board, game.view)
    return GameStats.of(game.elapsed, bbbv, solved,
                        (game.left_clicks, game.right_clicks, game.chord_clicks),
                        effective_clicks(game), level_of(game.rows, game.cols, game.mine_count))
