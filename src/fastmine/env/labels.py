"""Exact labels: the mine probability of every unknown cell of an observation.

While a game is being played, a cell's label is fastmine's exact solver
(:func:`fastmine.solver.probabilities`): the share of the mine layouts that
agree with every number shown that put a mine on it, given the total mine
count.  Flags are the player's opinion, not evidence: a flagged cell is
unknown like a hidden one.  Revealed cells are NaN.  The solver knows nothing
of the first-click rule, so before the first click every cell is
``mines / cells`` and a no-guess board's labels are those of an ordinary board
showing the same numbers.

When a game is over its view shows the mines (lost) or flags them (won), so the
labels are certain: 1.0 on a mine still shown hidden or flagged, 0.0 on every
other hidden cell, NaN elsewhere.

>>> import numpy as np
>>> view = np.array([[-1, -1], [1, 1]], np.int8)
>>> labels(view, 1, over=False).tolist()
[[0.5, 0.5], [nan, nan]]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .. import FLAG, HIDDEN
from .. import solver as _solver

__all__ = ["labels"]


def labels(view: NDArray[np.int8], mines: int, *, over: bool,
           mine_mask: NDArray[np.bool_] | None = None) -> NDArray[np.float64]:
    """The exact mine probability of each cell of ``view`` (float64, NaN where revealed).

    Parameters
    ----------
    view : ndarray of int8, shape (rows, cols)
        An environment's view (the observation's ``"view"`` without one-hot planes).
    mines : int
        The board's total mine count.
    over : bool
        True when the game is won or lost (its view shows where the mines are).
    mine_mask : ndarray of bool, optional
        Where the mines are; needed only when ``over``.

    Returns
    -------
    ndarray of float64, shape (rows, cols)

    Raises
    ------
    ValueError
        ``over`` without ``mine_mask``, or a view the solver refuses (not a
        view of a game in play).
    """
    if not over:
        return _solver.probabilities(view, mines)
    if mine_mask is None:
        raise ValueError("the labels of a finished game need its mine_mask")
    unknown = (view == HIDDEN) | (view == FLAG)
    out = np.full(view.shape, np.nan)
    out[unknown] = mine_mask[unknown]
    return out
