"""Long-term 50/50 risk: favour guesses that settle a 50/50 the game may force later.

D. Hill's JSMinesweeper (``LongTermRiskHelper``) looks for the shapes in which
two hidden cells can end up indistinguishable: a pair side by side whose two
short ends are all mines or off the board, or a 2x2 block whose four corner
cells are.  If the shape does form, one of its cells will have to be guessed at
50% some day; a candidate that sits in such a shape, guessed now at better
odds, removes that risk, so its score is raised by

    1 + 0.9 * P(the shape forms with the candidate as its mine) / P(the candidate is safe)

where the chance is counted exactly by the probability engine with the
shape's mines and safe cells fixed (:func:`layouts_with`).  A cell whose every
mine layout makes such a shape (a *pseudo 50/50*) is guessed at once: it is a
50/50 or safe.  The tiles of a shape's ends that are still hidden ("enablers")
share the shape's chance.

On by default (``Planner.long_term``; ``play(..., long_term=False)`` and
``fastmine solve --no-long-term-risk`` turn it off).  The shapes are found in
the kernel (_fifty), and each position is prepared once for counting them
(``_fifty.Counter``); this layer keeps the buffers, the enablers and the
factor.  It adds about 3% of the instructions of an Expert game with a safe
corner start, 7% with an opening.  Measured on
100,000 paired games per setting: Expert safe corner +0.14 pp (se 0.06) and,
on fresh games, +0.11 (0.06); Expert opening at (3,3) +0.16 (0.05);
Intermediate opening +0.01 (0.01).  See docs/solver.md.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from . import _fifty, _workspace
from .probability import DEFAULT_MAX_ENTRIES, Analysis

__all__ = ["WEIGHT", "FiftyRisk"]

WEIGHT = 0.9
"""How much a candidate's share of 50/50 shapes raises its score (JSMinesweeper's value)."""


class FiftyRisk:
    """The 50/50 shapes of one position (``a``: its exact analysis).

    ``ws`` is a probability workspace for this object's counts alone: the
    position is prepared in it once, so the caller must not use it for
    anything else while the object is in use (a count after another position
    was prepared there raises RuntimeError).  Each shape is counted once, so
    scoring many candidates shares the work.
    """

    def __init__(self, ws: _workspace.Workspace, view: np.ndarray, mines: int,
                 a: Analysis) -> None:
        if view.ndim != 2 or a.mine.shape != view.shape or a.probabilities.shape != view.shape:
            raise ValueError(f"the analysis ({a.mine.shape}) is not of this view "
                             f"({view.shape})")
        self.view = view
        self.rows, self.cols = view.shape
        self.mines = mines
        self.a = a
        self.left = mines - int(np.count_nonzero(a.mine))
        self._enablers = np.zeros(view.shape)
        # The kernel's view of the position: which shapes may still close, the
        # position prepared once for counting them (_fifty.Counter, which works
        # in ``ws`` from now on), and each shape's share once counted.
        view8 = np.ascontiguousarray(view, np.int8)
        self._mine8 = np.ascontiguousarray(a.mine).view(np.uint8)
        self._miss = np.empty((3, self.rows, self.cols), np.int8)
        _fifty.shapes(view8, self._mine8, self._miss)
        self._counter = _fifty.Counter(ws, view8, mines, a.log_solutions,
                                       np.empty(view.size, np.float64),
                                       np.empty(view.size, np.uint8), DEFAULT_MAX_ENTRIES)
        self._shares = np.full((3, self.rows, self.cols), -1.0)

    def layouts_with(self, mines: Iterable[tuple[int, int]],
                     safes: Iterable[tuple[int, int]]) -> float:
        """The share of the position's layouts in which every cell of
        ``mines`` is a mine and every cell of ``safes`` is safe (exact).
        The cells are hidden (row, col) cells, none in both lists."""
        cells = []
        for name, group in (("mines", mines), ("safes", safes)):
            at = np.array(list(group), np.intp)
            at = at.reshape(0, 2) if at.size == 0 else at
            if (at.ndim != 2 or at.shape[1] != 2
                    or not ((at >= 0).all() and (at < (self.rows, self.cols)).all())
                    or (self.view[tuple(at.T)] >= 0).any()):
                raise ValueError(f"{name} must be hidden cells of the {self.rows}x{self.cols} "
                                 f"board, got {list(group)!r}")
            cells.append(at)
        if len({tuple(x) for x in np.concatenate(cells).tolist()}) < sum(map(len, cells)):
            raise ValueError("a cell is given twice in mines and safes")
        return _fifty.layouts_with(self._counter, np.ascontiguousarray(cells[0].T),
                                   np.ascontiguousarray(cells[1].T))

    def pseudo(self) -> tuple[int, int] | None:
        """Scan the board for the shapes that need at most one more mine (two
        for a block's pair): their hidden end cells ("enablers") get the shapes'
        chance, and the first cell that is a mine only inside such a shape is
        returned (a 50/50 or safe), else None.  Call it before :meth:`factor`."""
        i = _fifty.pseudo(self._counter, self._mine8, self._miss, self._shares, self._enablers,
                          self.a.probabilities, self.left)
        return None if i < 0 else divmod(i, self.cols)

    def ceiling(self, r: int, c: int) -> float:
        """A bound on :meth:`factor` that counts nothing: 1 when no shape
        can close around (r, c), else the factor of the largest share."""
        if not _fifty.near(self._miss, self.left, r, c) and self._enablers[r, c] <= 0.0:
            return 1.0
        p = float(self.a.probabilities[r, c])
        return 1.0 + min(p, 1.0 - p) / (1.0 - p) * WEIGHT if p < 1.0 else 1.0

    def factor(self, r: int, c: int) -> float:
        """How much guessing (r, c) now is worth over its score (>= 1): the
        shares of the shapes with (r, c) in them that may close with up to 3
        more mines (of overlapping blocks only the largest), and of the shapes
        it is an end of (:meth:`pseudo`), as a part of its safety."""
        pairs, block = _fifty.factor_share(self._counter, self._mine8, self._miss,
                                           self._shares, self.left, r, c)
        p = float(self.a.probabilities[r, c])
        share = min(pairs + (block + float(self._enablers[r, c])), p, 1.0 - p)
        if share <= 0.0:
            return 1.0
        return 1.0 + share / (1.0 - p) * WEIGHT
