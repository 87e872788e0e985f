"""The ``best`` strategy: certain moves first, then the best guess.

Per position:

1. Certain cells.  The local rules (:mod:`fastmine.solver.logic`) find most
   of them in microseconds; only when they are stuck is the exact engine asked.
   Every cell proven safe is revealed.  Mines are never flagged: flags change
   nothing in the win rate.
2. Endgame.  With at most :data:`~fastmine.solver.endgame.MAX_CELLS` unknown
   cells, an exhaustive search over the remaining boards picks the move that
   wins most often (:mod:`fastmine.solver.endgame`).
3. Guess.  The candidates are the cells whose chance of being safe is within
   :data:`TOLERANCE` of the safest (at most :data:`MAX_FRONTIER` frontier cells
   and :data:`MAX_INTERIOR` interior cells -- off the frontier every cell has
   the same chance, so only those with the fewest unknown neighbours, the
   corners first, are candidates).  With one candidate it is played.  With
   several, each is scored by the chance of surviving it *and* the next move:
   ``P(safe) * sum_v P(shows v | safe) * S2(v)``, where ``S2(v)`` is 1 when the
   position after it shows ``v`` has a certain-safe cell (progress) and
   otherwise the safety of the best cell there.  Ties go to the cell with fewer
   unknown neighbours.
"""

from __future__ import annotations

import threading

import numpy as np

from .. import codes
from ..codes import GameState
from . import _exact, endgame
from ._logic import Logic

__all__ = ["Planner", "planner_for", "TOLERANCE", "MAX_FRONTIER", "MAX_INTERIOR"]

TOLERANCE = 0.03
"""Guesses this much less safe than the safest cell are still scored."""

MAX_FRONTIER = 5
"""Most frontier cells scored per guess (the safest first)."""

MAX_INTERIOR = 2
"""Most interior (off-frontier) cells scored per guess."""

MAX_EXACT_CALLS = 16
"""Budget of exact-engine calls spent on scoring one guess."""

_local = threading.local()


def planner_for(game, rng: np.random.Generator, endgame: bool = True) -> Planner:
    """The calling thread's planner for the game's size (planners are reused)."""
    cache = getattr(_local, "planners", None)
    if cache is None:
        cache = _local.planners = {}
    key = (game.rows, game.cols)
    planner = cache.get(key)
    if planner is None:
        if len(cache) > 8:
            cache.clear()
        planner = cache[key] = Planner(game.rows, game.cols)
    planner.rng = rng
    planner.endgame = endgame
    planner.mines = game.mine_count
    return planner


def _nsum(mask: np.ndarray) -> np.ndarray:
    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), np.int16)
    p[1:-1, 1:-1] = mask
    return (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
            + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])


def _poisson_binomial(ps) -> np.ndarray:
    """Distribution of the number of successes of independent Bernoulli(p_i)."""
    dist = np.zeros(len(ps) + 1)
    dist[0] = 1.0
    for k, p in enumerate(ps):
        dist[1:k + 2] = dist[1:k + 2] * (1 - p) + dist[:k + 1] * p
        dist[0] *= 1 - p
    return dist


class Planner:
    """Decides the ``best`` strategy's moves for boards of one size."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.W = cols + 2
        self.logic = Logic(rows, cols)
        self.rng = np.random.default_rng()
        self.endgame = True
        self.mines = 1
        self.stats = {"exact": 0, "guesses": 0, "endgame": 0}

    # ------------------------------------------------------------ certain cells

    def _cells(self, padded: np.ndarray) -> np.ndarray:
        r, c = np.divmod(padded, self.W)
        return np.stack([r - 1, c - 1], axis=1)

    def local(self, view: np.ndarray, mines: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(safe, mine) masks proven by the local rules."""
        logic = self.logic
        logic.load_view(view, self.mines if mines is None else mines)
        logic.run()
        safe_p, mine_p = logic.found()
        out = np.zeros((2, (self.rows + 2) * self.W), bool)
        out[0, safe_p] = True
        out[1, mine_p] = True
        out = out.reshape(2, self.rows + 2, self.W)[:, 1:-1, 1:-1]
        return out[0], out[1]

    def _local_safe(self, view: np.ndarray, mines: int) -> np.ndarray:
        """(n, 2) cells the local rules prove safe, in the order found."""
        logic = self.logic
        logic.load_view(view, mines)
        logic.run()
        return self._cells(logic.found()[0])

    def _probabilities(self, view: np.ndarray, mines: int) -> np.ndarray:
        self.stats["exact"] += 1
        return _exact.probabilities(view, mines)

    def certain_or_probabilities(self, view: np.ndarray, mines: int):
        """Cells proven safe ((n, 2), maybe empty) and the probabilities if computed."""
        cells = self._local_safe(view, mines)
        if len(cells):
            return cells, None
        p = self._probabilities(view, mines)
        safe = np.argwhere(p == 0.0)
        return safe, p

    # ------------------------------------------------------------ guesses

    def guess(self, view: np.ndarray, mines: int, p: np.ndarray) -> tuple[int, int]:
        """The cell to reveal when nothing is certain."""
        self.stats["guesses"] += 1
        unknown = view < 0
        if self.endgame and unknown.sum() <= endgame.MAX_CELLS:
            found = endgame.best_move(view, mines)
            if found is not None:
                self.stats["endgame"] += 1
                return found[0]
        safety = np.where(unknown, 1.0 - p, -1.0)
        best = safety.max()
        frontier = unknown & (_nsum(view >= 0) > 0)
        nunk = _nsum(unknown)
        near = safety >= best - TOLERANCE
        cands = []
        f = np.flatnonzero(near & frontier)
        if len(f):
            f = f[np.argsort(-safety.ravel()[f], kind="stable")][:MAX_FRONTIER]
            cands.extend(int(i) for i in f)
        inner = np.flatnonzero(near & unknown & ~frontier)
        if len(inner):
            k = nunk.ravel()[inner]
            inner = inner[k == k.min()]
            pick = self.rng.permutation(len(inner))[:MAX_INTERIOR]
            cands.extend(int(inner[i]) for i in pick)
        if len(cands) == 1:
            return divmod(cands[0], self.cols)
        budget = [MAX_EXACT_CALLS]
        best_i, best_s = cands[0], -1.0
        for i in cands:
            s = self._score(view, mines, p, i, budget)
            s = (s, -int(nunk.ravel()[i]))
            if best_s == -1.0 or s > best_s:
                best_i, best_s = i, s
        return divmod(best_i, self.cols)

    def _score(self, view, mines, p, i, budget) -> float:
        """P(safe) * E[safety of the next move], for revealing flat cell ``i``."""
        r, c = divmod(i, self.cols)
        safe = 1.0 - p[r, c]
        r0, r1 = max(r - 1, 0), min(r + 2, self.rows)
        c0, c1 = max(c - 1, 0), min(c + 2, self.cols)
        block = view[r0:r1, c0:c1]
        pb = p[r0:r1, c0:c1]
        nb = (block < 0)
        nb[r - r0, c - c0] = False
        dist = _poisson_binomial(pb[nb])
        total = 0.0
        after = view.copy()
        for v in range(len(dist)):
            w = dist[v]
            if w < 1e-9:
                continue
            after[r, c] = v
            total += w * self._next_safety(after, mines, budget)
        return safe * total

    def _next_safety(self, view, mines, budget) -> float:
        if len(self._local_safe(view, mines)):
            return 1.0
        if budget[0] <= 0:
            return 0.0
        budget[0] -= 1
        try:
            q = self._probabilities(view, mines)
        except ValueError:   # this number cannot show here
            return 0.0
        unknown = view < 0
        if not unknown.any():
            return 1.0
        return float(1.0 - np.nanmin(np.where(unknown, q, np.nan)))

    # ------------------------------------------------------------ moves

    def step(self, game) -> np.ndarray:
        """One move of ``best`` on a game in progress."""
        self.mines = mines = game.mine_count
        view = game.view
        cells, p = self.certain_or_probabilities(view, mines)
        if len(cells):
            r, c = (int(x) for x in cells[0])
        else:
            r, c = self.guess(view, mines, p)
        if view[r, c] == codes.FLAG:
            return game.toggle_mark(r, c)
        return game.reveal(r, c)

    def play(self, game) -> GameState:
        """Play a game in progress to the end."""
        self.mines = mines = game.mine_count
        while not game.state.is_over:
            view = game.view
            cells, p = self.certain_or_probabilities(view, mines)
            if not len(cells):
                cells = [self.guess(view, mines, p)]
            for r, c in cells:
                r, c = int(r), int(c)
                if view[r, c] >= 0:
                    continue    # opened by an earlier cell's flood fill
                while view[r, c] == codes.FLAG:
                    game.toggle_mark(r, c)
                game.reveal(r, c)
                if game.state.is_over:
                    break
        return game.state
