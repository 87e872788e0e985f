"""Exact labels of every game of a batch at once (``labels=True`` in the batched env).

The labels are :func:`fastmine.env.labels.labels`' exactly (tests/env compare
them with the single environment's), computed for the whole batch in one pass:

- a game whose view has not changed since the last step, flags aside (a flag
  is the player's opinion, not evidence: it changes no label), keeps its labels;
- a game not yet started shows no number: its labels are those of an untouched
  board, counted once for the batch;
- a finished game's labels are its mines;
- every other game is counted by the solver's kernel, called straight into
  the batch's output row with one workspace for the batch (the public
  :func:`fastmine.solver.probabilities` allocates its outputs and an analysis
  object each call, which cost half as much again as the count itself on the
  positions random play meets).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import FLAG, HIDDEN
from ..solver import _prob, _workspace
from ..solver.probability import DEFAULT_MAX_ENTRIES, InconsistentViewError
from . import _batch

__all__ = ["BatchLabels"]


class BatchLabels:
    """The label state of one batched environment (see the module docstring).

    Parameters
    ----------
    num_envs, rows, cols, mines : int
        The batch's shape and mine count.
    """

    def __init__(self, num_envs: int, rows: int, cols: int, mines: int) -> None:
        n = rows * cols
        self.mines = mines
        self._ws = _workspace.Workspace()
        self._flags = np.zeros((3, n), np.uint8)
        # The view each game's labels were counted for (flags as hidden); 127
        # is no view code, so the first step counts every game.
        self._seen = np.full((num_envs, rows, cols), 127, np.int8)
        self._last = np.zeros((num_envs, rows, cols), np.float64)
        self._untouched: NDArray[np.float64] | None = None

    def compute(self, batch: _batch.Batch) -> NDArray[np.float64]:
        """Every game's labels now, float64 (B, rows, cols), a new array.

        Parameters
        ----------
        batch : Batch
            The environment's kernel (its views, phases and mines).

        Returns
        -------
        numpy.ndarray
            The labels, as :func:`fastmine.env.labels.labels` gives each game's.
        """
        views = batch.obs
        phase = batch.phase
        canon = np.where(views == FLAG, np.int8(HIDDEN), views)
        over = (phase == _batch.WON) | (phase == _batch.LOST)
        ready = phase == _batch.READY
        changed = (canon != self._seen).reshape(len(views), -1).any(axis=1)
        out: NDArray[np.float64] = self._last.copy()
        if ready.any():
            out[ready] = self._untouched_labels(views.shape[1:])
        for i in np.flatnonzero(over).tolist():
            out[i] = batch.mine_mask(i)
        for i in np.flatnonzero(changed & ~over & ~ready).tolist():
            self._count(canon[i], out[i])
        # What the next step compares with: finished and fresh games count again
        # once they play (their views are not a played position's).
        self._seen[...] = canon
        self._seen[over | ready] = 127
        self._last[...] = out
        return out

    def _count(self, view: NDArray[np.int8], out: NDArray[np.float64]) -> None:
        """The solver's probabilities of ``view`` into ``out``, 0.0 where open."""
        flat = out.reshape(-1)
        f = self._flags
        res: Any = _prob.analyze(self._ws, view, self.mines, flat, f[0], f[1], f[2],
                                 DEFAULT_MAX_ENTRIES)
        if type(res) is not tuple:          # never for an environment's own view
            raise InconsistentViewError(f"fastmine.env: the solver refused a view: {res}")
        flat[view.reshape(-1) >= 0] = 0.0

    def _untouched_labels(self, shape: tuple[int, ...]) -> NDArray[np.float64]:
        if self._untouched is None:
            labels = np.empty(shape, np.float64)
            self._count(np.full(shape, HIDDEN, np.int8), labels)
            self._untouched = labels
        return self._untouched
