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

Off by default (``Planner.long_term``, ``fastmine solve --long-term-risk``),
because it costs about 1.3 times the time of an Expert game.  Measured on
100,000 paired games per setting: Expert safe corner +0.14 pp (se 0.06) and,
on fresh games, +0.11 (0.06); Expert opening at (3,3) +0.16 (0.05);
Intermediate opening +0.01 (0.01).  See docs/solver.md.
"""

from __future__ import annotations

import math

import numpy as np

from . import _prob
from .probability import DEFAULT_MAX_ENTRIES

__all__ = ["WEIGHT", "FiftyRisk"]

WEIGHT = 0.9
"""How much a candidate's share of 50/50 shapes raises its score (JSMinesweeper's value)."""


class FiftyRisk:
    """The 50/50 shapes of one position (``a``: its exact analysis).

    ``ws`` is a probability workspace the caller lends (it is overwritten).
    Every count is cached, so scoring many candidates shares the work.
    """

    def __init__(self, ws, view: np.ndarray, mines: int, a) -> None:
        self.ws = ws
        self.view = view
        self.rows, self.cols = view.shape
        self.mines = mines
        self.a = a
        self.left = mines - int(np.count_nonzero(a.mine))
        self._cache: dict = {}
        self._enablers: dict = {}
        self._near: tuple | None = None
        self._prob = np.empty(view.size, np.float64)
        self._interior = np.empty(view.size, np.uint8)

    def _on(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols

    def _hidden(self, r: int, c: int) -> bool:
        """On the board, not revealed, not a known mine."""
        return self._on(r, c) and self.view[r, c] < 0 and not self.a.mine[r, c]

    def _missing(self, cells) -> list | None:
        """The cells of a shape's ends that would still have to be mines, or
        None when one is revealed (the shape cannot form)."""
        out = []
        for r, c in cells:
            if not self._on(r, c) or self.a.mine[r, c]:
                continue
            if self.view[r, c] >= 0:
                return None
            out.append((r, c))
        return out

    def layouts_with(self, mines, safes) -> float:
        """The share of the position's layouts in which every cell of
        ``mines`` is a mine and every cell of ``safes`` is safe (exact)."""
        key = (tuple(sorted(mines)), tuple(sorted(safes)))
        share = self._cache.get(key)
        if share is not None:
            return share
        view = self.view.astype(np.int8)            # a copy
        fits = True
        for r, c in mines:                          # a known mine: off every number around it
            for rr in range(max(r - 1, 0), min(r + 2, self.rows)):
                for cc in range(max(c - 1, 0), min(c + 2, self.cols)):
                    if self.view[rr, cc] >= 0:
                        view[rr, cc] -= 1
                        fits &= bool(view[rr, cc] >= 0)
        share = 0.0
        if fits:
            for r, c in list(mines) + list(safes):
                view[r, c] = 9                      # known: see _prob.count_known
            log_n = _prob.count_known(self.ws, view, self.mines - len(mines), self._prob,
                                      self._interior, DEFAULT_MAX_ENTRIES)
            if log_n > -math.inf:
                share = math.exp(log_n - self.a.log_solutions)
        self._cache[key] = share
        return share

    # The shapes, each by its top-left cell; the first cell listed is its mine.
    def _pair(self, r: int, c: int, dr: int, dc: int, most: int):
        """Two cells (r, c), (r + dr, c + dc) (dr + dc == 1) whose short ends,
        the three cells beyond each, would all have to be mines."""
        r2, c2 = r + dr, c + dc
        if not (self._hidden(r, c) and self._hidden(r2, c2)):
            return None
        if dc:
            ends = [(r + k, c - 1) for k in (-1, 0, 1)] + [(r + k, c + 2) for k in (-1, 0, 1)]
        else:
            ends = [(r - 1, c + k) for k in (-1, 0, 1)] + [(r + 2, c + k) for k in (-1, 0, 1)]
        missing = self._missing(ends)
        if missing is None or len(missing) + 1 > min(most, self.left):
            return None
        return (self.layouts_with(missing + [(r, c)], [(r2, c2)]), missing,
                [(r, c), (r2, c2)])

    def _box(self, r: int, c: int, most: int):
        """A 2x2 block whose four corner cells would all have to be mines."""
        cells = [(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)]
        if not all(self._hidden(*x) for x in cells):
            return None
        missing = self._missing([(r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)])
        if missing is None or len(missing) + 2 > min(most, self.left):
            return None
        return (self.layouts_with(missing + [(r, c), (r + 1, c + 1)], [(r + 1, c), (r, c + 1)]),
                missing, cells)

    def pseudo(self) -> tuple[int, int] | None:
        """Scan the board for the shapes that need at most one more mine (two
        for a block's pair): their hidden end cells ("enablers") get the shapes'
        chance, and the first cell that is a mine only inside such a shape is
        returned (a 50/50 or safe), else None.  Call it before :meth:`factor`."""
        probs = self.a.probabilities
        shapes = (lambda r, c: self._pair(r, c, 0, 1, 2), lambda r, c: self._pair(r, c, 1, 0, 2),
                  lambda r, c: self._box(r, c, 2))
        for shape, spots in zip(shapes, self._spots(2, 2), strict=True):
            for r, c in np.argwhere(spots).tolist():
                found = shape(r, c)
                if found is None:
                    continue
                share, missing, cells = found
                for m in missing:
                    self._enablers[m] = self._enablers.get(m, 0.0) + share
                for x in cells:
                    p = float(probs[x])
                    if share > 0.0 and abs(share - p) <= 1e-9 * p:
                        return x
        return None

    def _spots(self, most: int, most_block: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where a side-by-side pair, an upright pair (``most``) and a block
        (``most_block``) may close, as (rows, cols) masks of their top-left
        cells: the same test as :meth:`_pair` and :meth:`_box` before counting,
        on the whole board at once, so that only those places are counted."""
        rows, cols = self.rows, self.cols
        hidden = np.zeros((rows + 4, cols + 4), bool)     # two cells of margin
        shown = np.zeros((rows + 4, cols + 4), bool)
        hidden[2:-2, 2:-2] = (self.view < 0) & ~self.a.mine
        shown[2:-2, 2:-2] = self.view >= 0

        def at(a, dr, dc):          # a[r + dr, c + dc] for every board cell (r, c)
            return a[2 + dr:2 + dr + rows, 2 + dc:2 + dc + cols]

        out = []
        for ends, cells, need, limit in (
                ([(k, -1) for k in (-1, 0, 1)] + [(k, 2) for k in (-1, 0, 1)], [(0, 0), (0, 1)],
                 1, min(most, self.left)),
                ([(-1, k) for k in (-1, 0, 1)] + [(2, k) for k in (-1, 0, 1)], [(0, 0), (1, 0)],
                 1, min(most, self.left)),
                ([(-1, -1), (-1, 2), (2, -1), (2, 2)], [(0, 0), (1, 0), (0, 1), (1, 1)],
                 2, min(most_block, self.left))):
            ok = np.ones((rows, cols), bool)
            for dr, dc in cells:
                ok &= at(hidden, dr, dc)
            missing = np.zeros((rows, cols), np.int8)
            for dr, dc in ends:
                ok &= ~at(shown, dr, dc)
                missing += at(hidden, dr, dc)
            ok &= missing + need <= limit
            out.append(ok)
        return out[0], out[1], out[2]

    def factor(self, r: int, c: int) -> float:
        """How much guessing (r, c) now is worth over its score (>= 1)."""
        if self._near is None:      # where shapes may close with up to 3 more mines
            self._near = self._spots(4, 5)
        across, upright, blocks = self._near
        share = 0.0
        for spots, (rr, cc, dr, dc) in ((across, (r, c, 0, 1)), (across, (r, c - 1, 0, 1)),
                                        (upright, (r, c, 1, 0)), (upright, (r - 1, c, 1, 0))):
            if rr >= 0 and cc >= 0 and spots[rr, cc]:
                share += self._pair(rr, cc, dr, dc, 4)[0]
        block = 0.0
        for rr, cc in ((r, c), (r, c - 1), (r - 1, c), (r - 1, c - 1)):
            if rr >= 0 and cc >= 0 and blocks[rr, cc]:
                block = max(block, self._box(rr, cc, 5)[0])
        share += block + self._enablers.get((r, c), 0.0)
        p = float(self.a.probabilities[r, c])
        share = min(share, p, 1.0 - p)     # a share of the cell's own mine layouts
        if share <= 0.0:
            return 1.0
        return 1.0 + share / (1.0 - p) * WEIGHT
