"""Safe play: what opening every provably safe cell first does to a guess.

A guess taken while a proven-safe cell existed is judged by what safe play
would have done to it (:mod:`.judging`): :func:`play_safe` opens every cell the
exact solver proves safe, on the game's own board with the game's flood fill
(a zero opens its region and its border), asks again, and repeats until no
proven-safe cell is left.  The hidden mines only decide the numbers those
cells show, as they would have in the game; proven mines are simply known
(nothing is flagged).  Then the guessed cells are either settled (opened, or
proven a mine: the guess was needless) or still uncertain, with a risk that
may have changed and a best risk on offer.

What safe play reaches does not depend on the order it opens cells in:
opening a proven-safe cell only adds to what is known, so a cell proven safe
stays proven safe.  That is why a :class:`SafePlayer` can carry its work from
one guess of a game to the next (the player's view only grows), and why the
cheap local rules of :mod:`fastmine.solver.logic` may find most of the cells
before the exact count is asked for the rest.

>>> import fastmine
>>> from fastmine.solver import probability
>>> g = fastmine.Game(5, 5, 5, rule="cell", seed=1)
>>> _ = g.reveal(2, 2), g.reveal(0, 0)
>>> a = probability.analyze(g.view, g.mine_count)
>>> int(a.safe.sum()), round(float(a.probabilities[4, 0]), 3)
(1, 0.143)
>>> after = play_safe(g, a, [(4, 0)])      # a guess at (4, 0) now: 14%
>>> after.settled, after.opened, round(after.risk, 3), round(after.best_risk, 3)
(False, 1, 0.154, 0.077)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..board import Board
from ..errors import PositionTooLargeError
from ..game import Game
from ..solver import probability as _probability
from ..solver._logic import KNOWN_MINE, Logic
from ..solver.incremental import IncrementalAnalyzer

__all__ = ["AfterSafePlay", "SafePlayer", "play_safe"]


@dataclass(frozen=True)
class AfterSafePlay:
    """What safe play did to a move's cells.

    Parameters
    ----------
    settled : bool
        Safe play opened every cell of the move or proved one of them a mine.
    risk : float
        The move's risk afterwards: 0.0 when opened, 1.0 when proven a mine,
        else the highest P(mine) of its cells still unknown.
    best_risk : float or None
        The lowest risk of any unknown cell once no proven-safe cell is left;
        None when the move was settled (safe play stopped there).
    opened : int or None
        The cells safe play opens (cascades included) until no proven-safe
        cell is left; None when the move was settled.
    """

    settled: bool
    risk: float
    best_risk: float | None = None
    opened: int | None = None


_MINE = AfterSafePlay(True, 1.0)
_OPENED = AfterSafePlay(True, 0.0)


class SafePlayer:
    """Safe play on one board, for the positions of one game in the order played.

    It keeps what safe play found (the logic kernel's board mode,
    :class:`fastmine.solver._logic.Logic`, which opens a cell as the game
    does) from one call to the next while each view holds at least the open
    cells of the one before (a game's views, in order); a view that does not
    (a take-back) starts it afresh.

    Parameters
    ----------
    board : Board
        The game's board.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self._logic: Logic | None = None
        self._shown: NDArray[np.bool_] | None = None      # the last view's open cells
        rows, cols = board.rows, board.cols
        # Each cell's index in the logic kernel's padded, raveled layout.
        self._at: NDArray[np.intp] = (np.arange(rows, dtype=np.intp)[:, None] * (cols + 2)
                                      + np.arange(cols, dtype=np.intp) + cols + 3).ravel()
        # Safe play's own positions only grow too: each exact count starts
        # from the cells the last one proved.
        self._exact = IncrementalAnalyzer(board.mine_count)

    def play(self, view: NDArray[np.int8], analysis: _probability.Analysis,
             cells: list[tuple[int, int]], deadline: float | None = None) -> AfterSafePlay | None:
        """Open every provably safe cell of ``view`` until none is left; what of ``cells``?

        First the cells the player opened and those ``analysis`` proves safe,
        then whatever the local rules prove, and when they are stuck the cells
        the exact count proves, until it proves none.  Flags play no part (they
        are the player's opinion).

        Parameters
        ----------
        view : numpy.ndarray
            The player's view before the move (:attr:`fastmine.Game.view`).
        analysis : Analysis
            The solver's analysis of ``view`` (reused for the first round).
        cells : list of (int, int)
            The cells the move opens.
        deadline : float, optional
            A :func:`time.monotonic` time after which no new analysis is started.

        Returns
        -------
        AfterSafePlay or None
            What safe play did, or None when it cannot be told: a position too
            large for the exact count, odds that had to be approximated, or the
            deadline passed.
        """
        return self.play_flags(view, analysis.safe, analysis.mine, cells, deadline)

    def play_flags(self, view: NDArray[np.int8], safe: NDArray[np.bool_], mine: NDArray[np.bool_],
                   cells: list[tuple[int, int]],
                   deadline: float | None = None) -> AfterSafePlay | None:
        """:meth:`play`, given only the proven-safe and proven-mine cells of
        ``view`` (``safe``, ``mine``: (rows, cols) bool) instead of its analysis.

        Parameters
        ----------
        view : numpy.ndarray
            The player's view before the move.
        safe, mine : numpy.ndarray
            The cells the exact solver proves safe, and mines, in ``view``.
        cells : list of (int, int)
            The cells the move opens.
        deadline : float, optional
            A :func:`time.monotonic` time after which no new analysis is started.

        Returns
        -------
        AfterSafePlay or None
            As :meth:`play`.
        """
        board = self.board
        rows, cols = board.rows, board.cols
        arr = np.array(cells, np.intp)
        idx = (arr[:, 0], arr[:, 1])
        if mine[idx].any():
            return _MINE
        at = self._at[arr[:, 0] * cols + arr[:, 1]]          # the cells, padded
        padded = self._at
        shown = view >= 0
        logic = self._logic
        if logic is None or self._shown is None or (self._shown & ~shown).any():
            # What was found from another line of play may not be provable here.
            logic = self._logic = Logic(rows, cols)
            logic.load_board(board._pm, board._pc, board.mine_count)
            self._exact.reset()
        self._shown = shown
        logic.mark_safe(padded[shown.ravel()])          # what the player opened
        while True:
            logic.mark_safe(padded[safe.ravel()])
            logic.mark_mines(padded[mine.ravel()])
            solved = logic.run()
            known = logic.knowledge()[at]
            if (known == KNOWN_MINE).any():
                return _MINE
            revealed = (known >= 0) & (known <= 8)
            if solved:          # every safe cell is open: a cell left is a mine
                return _OPENED if revealed.all() else _MINE
            if revealed.all():
                return _OPENED
            if deadline is not None and time.monotonic() > deadline:
                return None
            try:
                a = self._exact.analyze(logic.view())
            except PositionTooLargeError:
                return None
            safe, mine = a.safe, a.mine
            if mine[idx].any():
                return _MINE
            if not safe.any():
                break
        if not a.exact:                 # certain cells stay certain, odds do not
            return None
        p = a.probabilities
        opened = rows * cols - logic.unknown - logic.known_mines - int(np.count_nonzero(shown))
        return AfterSafePlay(False, float(np.nanmax(p[idx])), float(np.nanmin(p)), opened)


def play_safe(game: Game, analysis: _probability.Analysis, cells: list[tuple[int, int]],
              deadline: float | None = None) -> AfterSafePlay | None:
    """What safe play does to ``cells`` of ``game`` (left unchanged): :meth:`SafePlayer.play`.

    Parameters
    ----------
    game : Game
        The game before the move, its mines laid.
    analysis : Analysis
        The solver's analysis of ``game``'s view.
    cells : list of (int, int)
        The cells the move opens.
    deadline : float, optional
        A :func:`time.monotonic` time after which no new analysis is started.

    Returns
    -------
    AfterSafePlay or None
        As :meth:`SafePlayer.play`.

    Raises
    ------
    ValueError
        The game's mines are not laid.
    """
    if game.board is None:
        raise ValueError("safe play needs the game's mines laid")
    return SafePlayer(game.board).play(game.view, analysis, cells, deadline)
