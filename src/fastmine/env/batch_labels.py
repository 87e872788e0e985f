"""Exact labels of every game of a batch at once (``labels=True`` in the batched env).

The labels are :func:`fastmine.env.labels.labels`' up to float rounding
(tests/env compare them within 1e-12, and exactly 0 and 1 on the same cells),
computed for the whole batch in one call of a compiled counter
(``fastmine.solver._kept``) that keeps each game's count from step to step:

- a game in play keeps its frontier's components (hidden cells next to a
  number, joined when they share one) with their tables of layouts per number
  of mines; a step counts again only the components around the cells it
  opened, and combines every table over the mine count again (that moves
  every label).  Cells a count proves (a mine or safe in every layout) leave
  the count for good.  A game whose view has not changed, flags aside (a flag
  is the player's opinion, not evidence), keeps its labels;
- a game not yet started shows no number: its labels are those of an untouched
  board, counted once for the batch;
- a finished game's labels are its mines;
- a game the counter hands back (a component over its enumeration budget, or
  a view it finds inconsistent) is counted by the solver's kernel, called
  straight into the batch's output row, and counted afresh by the counter at
  its next step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import HIDDEN
from ..solver import _kept, _prob, _workspace
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
        self._counter = _kept.Counter(num_envs, rows, cols, mines)
        self._ws = _workspace.Workspace()
        self._flags = np.zeros((3, n), np.uint8)
        self._handed = np.zeros(num_envs, np.uint8)
        # The labels of the last step, kept: a game whose view did not change
        # keeps its row (the counter writes only the rows it counts).
        self._last = np.zeros((num_envs, n), np.float64)
        # Before the first reveal a game shows no number: its labels are those of
        # an untouched board, counted once.
        self._untouched = np.empty(n, np.float64)
        self._count(np.full((rows, cols), HIDDEN, np.int8), self._untouched)

    @property
    def counter(self) -> _kept.Counter:
        """The compiled counter (its figures: components recounted and kept)."""
        return self._counter

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
        out = self._last
        self._counter.update(views, batch.phase, _batch.PLAYING, _batch.READY,
                             self._untouched, out, self._handed)
        batch.finished_mines_into(out)
        if self._handed.any():
            for i in np.flatnonzero(self._handed).tolist():
                self._count(views[i], out[i])
        labels: NDArray[np.float64] = out.reshape(views.shape).copy()
        return labels

    def _count(self, view: NDArray[np.int8], flat: NDArray[np.float64]) -> None:
        """The solver's probabilities of ``view`` into ``flat``, 0.0 where open."""
        f = self._flags
        res: Any = _prob.analyze(self._ws, view, self.mines, flat, f[0], f[1], f[2],
                                 DEFAULT_MAX_ENTRIES)
        if type(res) is not tuple:          # never for an environment's own view
            raise InconsistentViewError(f"fastmine.env: the solver refused a view: {res}")
        flat[view.reshape(-1) >= 0] = 0.0
