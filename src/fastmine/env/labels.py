"""Exact labels: the probability of a mine on every cell, given an observation.

While a game is being played, the label of an unknown cell (hidden or flagged:
flags are the player's opinion, not evidence) is fastmine's exact solver
(:func:`fastmine.solver.probabilities`): the share of the mine layouts that
agree with every number shown that put a mine on it, given the total mine
count.  An open cell is safe: 0.0.  The solver knows nothing of the first-click
rule, so before the first click every cell is ``mines / cells``, and a no-guess
board's labels are those of an ordinary board showing the same numbers.

When a game is over its view shows where the mines are, so every label is
certain: 1.0 on a mine (shown, exploded or flagged), 0.0 elsewhere.

There is no NaN: the whole array can be a training target (weigh the cells
with ``view == HIDDEN`` if only those matter).

>>> import numpy as np
>>> view = np.array([[-1, -1], [1, 1]], np.int8)
>>> labels(view, 1, over=False).tolist()
[[0.5, 0.5], [0.0, 0.0]]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .. import solver as _solver

__all__ = ["labels"]


def labels(view: NDArray[np.int8], mines: int, *, over: bool,
           mine_mask: NDArray[np.bool_] | None = None) -> NDArray[np.float64]:
    """The exact mine probability of each cell of ``view`` (float64, 0.0 where open).

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
        p = _solver.probabilities(view, mines)
        p[view >= 0] = 0.0          # the solver's NaN: an open cell is safe
        return p
    if mine_mask is None:
        raise ValueError("the labels of a finished game need its mine_mask")
    out: NDArray[np.float64] = np.array(mine_mask, np.float64)
    return out
