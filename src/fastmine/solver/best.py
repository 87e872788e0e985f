"""The ``best`` strategy: certain moves first, then the best guess.

Per position:

1. Certain cells.  The local rules (:mod:`fastmine.solver.logic`) find most
   of them in microseconds; only when they are stuck is the exact engine asked.
   Every cell proven safe is revealed.  Mines are never flagged: flags change
   nothing in the win rate.
2. Endgame.  When at most :data:`~fastmine.solver.endgame.MAX_SOLUTIONS` mine
   layouts agree with the view (cells proven to be mines are fixed, so this
   counts the doubt that is left, not the mines), an exhaustive search over
   them picks the move that wins most often (:mod:`fastmine.solver.endgame`).
3. Unavoidable 50/50.  A number with one mine left among exactly two
   undecided cells, where every other neighbour of either cell (that is not a
   known mine) touches both, can never be resolved by any other move: the
   guess will have to be made, so it is made now, and what it shows helps the
   guesses that follow (:func:`unavoidable_pair`).
4. Guess.  The candidates are the frontier cells at least
   :data:`CANDIDATE_RATIO` times as safe as the safest cell, and, when the
   cells off the frontier are nearly as safe (:data:`INTERIOR_RATIO`), a few of
   those: all of them when there are few, otherwise the ones two steps from a
   number and the ones with two or three unknown neighbours (corners, edges).
   Each candidate ``x`` is scored by its *secondary safety*: for every number
   ``v`` it could show, the exact share of layouts where ``x`` is safe and
   shows ``v`` (from the engine's layout counts) times how safe the next move
   would then be -- a blend of the safest and second-safest cell there
   (:data:`BLEND`), a certain-safe cell counting as 1.  A candidate that can
   only ever show one number tells nothing and is played only when every
   candidate is like that.  A candidate is dropped as soon as even a perfect
   rest of its sum could not beat the best so far.

The scoring is that of the strongest published solvers (D. Hill's
JSMinesweeper "secondary safety"), on our exact engine.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from .. import viewcodes
from ..viewcodes import GameState
from . import _guess, _logic, _workspace, endgame, fifty
from ._logic import Logic
from .fifty import FiftyRisk
from .probability import DEFAULT_MAX_ENTRIES, Analysis, analyze

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["Planner", "planner_for", "unavoidable_pair", "CANDIDATE_RATIO",
           "INTERIOR_RATIO", "BLEND", "FEW_INTERIOR", "LOOKAHEAD_MARGIN",
           "LOOKAHEAD_CANDIDATES", "BOOK_BYTES"]

CANDIDATE_RATIO = 0.9
"""Frontier cells at least this fraction as safe as the safest cell are scored."""

INTERIOR_RATIO = 0.95
"""Cells off the frontier are scored when they are at least this fraction as safe
as the safest frontier cell."""

LOOKAHEAD_MARGIN = 0.02
"""When the second-best candidate scores within this fraction of the best, both
are valued one move deeper (:meth:`Planner.deep_value`) and the better is
played.  That is about half the guesses on Expert and twice the time of a
game; on Expert with a safe corner start it wins +0.16 points (se 0.08, paired
over 200,000 games not used before; +0.11 on the 100,000 of them looked at
only after it was kept; docs/solver.md).
``Planner.lookahead = False`` (``fastmine solve --no-lookahead``) turns it
off."""

LOOKAHEAD_CANDIDATES = 3
"""How many of the next position's safest candidates the lookahead scores."""

FEW_INTERIOR = 30
"""With fewer cells off the frontier than this, all of them are candidates."""

BLEND = 0.4
"""Weight of the safest next cell in the blended safety (the second-safest gets
the rest): a position with two good next moves is worth more than one with one.

JSMinesweeper uses 0.8.  Measured here, paired on the same games: 0.4 wins
+0.34 pp (se 0.12) of Expert games with a safe corner start on 100,000 games of
a seed never used to choose it (+0.22 pp over all 160,000 such games), and
changes nothing that shows on the five other target settings (within
+/-0.05 pp); 0.5 to 0.7 gain less (docs/solver.md).  Below 0.5 the
second-safest next cell outweighs the safest: after a corner showing 1, for
instance, the next guess goes to another corner rather than two cells along
the edge."""

BOOK_BYTES = 4 << 20
"""About how much memory a planner may use to remember its recent guesses
(least recently used first out): some 6,000 Expert positions."""


def _settings() -> tuple[object, ...]:
    """Every tunable a guess depends on (part of the guess book's key, so that
    changing one at run time never recalls a guess made under another)."""
    return (CANDIDATE_RATIO, INTERIOR_RATIO, BLEND, FEW_INTERIOR, LOOKAHEAD_MARGIN,
            LOOKAHEAD_CANDIDATES, endgame.MAX_SOLUTIONS, endgame.MAX_NODES, fifty.WEIGHT)


_local = threading.local()

_NO_PROBS = np.zeros((1, 1), np.float64)   # "no probabilities": the kernels do not read it


def planner_for(game: Game, endgame: bool = True, lookahead: bool = True,
                long_term: bool = True) -> Planner:
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
    planner.endgame = endgame
    planner.lookahead = lookahead
    planner.long_term = long_term
    planner.mines = game.mine_count
    return planner


def _nsum(mask: np.ndarray) -> np.ndarray:
    """For each cell, how many of its 8 neighbours are set in ``mask``."""
    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), np.int16)
    p[1:-1, 1:-1] = mask
    return (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
            + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])


def unavoidable_pair(view: np.ndarray, mine: np.ndarray,
                     probabilities: np.ndarray | None = None) -> tuple[tuple[int, int], ...] | None:
    """Two cells forming a 50/50 that no other move can ever resolve, or None.

    ``mine``: the cells known to be mines.  The pair is the two undecided
    neighbours of a number with exactly one mine left to place, such that every
    neighbour of either cell, other than the pair and known mines, is adjacent
    to both -- so whatever it would show counts both alike.  Swapping the mine
    between the two cells then maps every layout to another, so both have
    probability exactly 1/2: given the position's ``probabilities``, only such
    cells are examined (a shortcut, same answer).

    >>> import numpy as np
    >>> view = np.array([[1, -1], [1, -1]], np.int8)
    >>> unavoidable_pair(view, np.zeros((2, 2), bool))
    ((0, 1), (1, 1))
    """
    view = np.asarray(view)
    mine = np.asarray(mine)
    if view.dtype.kind not in "iu" or mine.dtype != np.bool_:
        raise TypeError(f"view must be integers and mine a bool mask, got {view.dtype} and {mine.dtype}")
    if view.ndim != 2 or mine.shape != view.shape:
        raise ValueError(f"view must be 2-D and mine the same shape, got {view.shape} and {mine.shape}")
    use = probabilities is not None
    if use:
        probabilities = np.asarray(probabilities, np.float64)
        if probabilities.shape != view.shape:
            raise ValueError("probabilities must have the view's shape")
    else:
        probabilities = _NO_PROBS
    out = np.empty(4, np.intp)
    if not _logic.fifty_pair(view.astype(np.int8, copy=False), mine.view(np.uint8),
                             probabilities, use, out):
        return None
    ar, ac, br, bc = out.tolist()
    return (ar, ac), (br, bc)


class Planner:
    """Decides the ``best`` strategy's moves for boards of one size."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        self.W = cols + 2
        self.logic = Logic(rows, cols)
        self.endgame = True
        self.lookahead = True
        self.long_term = True       # weigh the long-term 50/50 risk (fifty.py)
        self.mines = 1
        self.stats = {"exact": 0, "guesses": 0, "endgame": 0, "fifty": 0, "lookahead": 0,
                      "recalled": 0, "pseudo": 0}
        self._book: OrderedDict[tuple[object, ...], tuple[int, int]] = OrderedDict()     # guess(): position -> cell
        # Scratch for scoring hypothetical positions (_guess.score, _guess.deep_value).
        self._ws = _workspace.Workspace()
        self._fifty_ws = _workspace.Workspace()     # FiftyRisk's own (it keeps a position there)
        self._prob = np.empty(rows * cols, np.float64)
        self._interior = np.empty(rows * cols, np.uint8)
        self._parts = np.empty(9, np.float64)
        self._cands = np.empty(rows * cols, np.intp)    # scratch of _candidates
        self._keys = np.empty(rows * cols, np.float64)
        self._scratch = _guess.Scratch(rows, cols)

    # ------------------------------------------------------------ certain cells

    def _cells(self, padded: np.ndarray) -> np.ndarray:
        r, c = np.divmod(padded, self.W)
        out = np.empty((len(padded), 2), np.intp)
        out[:, 0] = r - 1
        out[:, 1] = c - 1
        return out

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

    def _analyze(self, view: np.ndarray, mines: int) -> Analysis:
        self.stats["exact"] += 1
        return analyze(view, mines)

    def certain_or_analysis(self, view: np.ndarray, mines: int
                            ) -> tuple[NDArray[np.intp], Analysis | None]:
        """Cells proven safe ((n, 2), maybe empty) and the exact analysis if it was needed."""
        cells = self._local_safe(view, mines)
        if len(cells):
            return cells, None
        a = self._analyze(view, mines)
        return np.argwhere(a.safe), a

    # ------------------------------------------------------------ guesses

    def guess(self, view: np.ndarray, mines: int, a: Analysis) -> tuple[int, int]:
        """The cell to reveal when nothing is certain (``a``: the view's analysis).

        A pure function of the position and the settings, so the planner
        remembers its recent answers (:data:`BOOK_BYTES`): the first guesses
        of games that start alike are the same positions again (after a safe
        corner start, a third of all guesses on Expert), and those are the
        dearest, with the most candidates and usually a lookahead.
        """
        if view.shape != (self.rows, self.cols):
            raise ValueError(f"a {self.rows}x{self.cols} planner was given a view of shape "
                             f"{view.shape}")
        self.stats["guesses"] += 1
        key = (view.tobytes(), view.dtype.char, mines, self.endgame, self.lookahead,
               self.long_term, _settings())
        book = self._book
        cell = book.get(key)
        if cell is not None:
            book.move_to_end(key)
            self.stats["recalled"] += 1
            return cell
        cell = book[key] = self._guess(view, mines, a)
        if len(book) * (len(key[0]) + 200) > BOOK_BYTES:
            book.popitem(last=False)        # the least recently used
        return cell

    def _guess(self, view: np.ndarray, mines: int, a: Analysis) -> tuple[int, int]:
        if self.endgame and a.log_solutions <= math.log(endgame.MAX_SOLUTIONS + 0.5):
            found = endgame.best_move(view, mines, known=a.mine)
            if found is not None:
                self.stats["endgame"] += 1
                return found[0]
        pair = unavoidable_pair(view, a.mine, a.probabilities)
        if pair is not None:
            self.stats["fifty"] += 1
            return pair[0]
        risk = None
        if self.long_term:
            risk = FiftyRisk(self._fifty_ws, view, mines, a)
            cell = risk.pseudo()
            if cell is not None:
                key = self._score(view, mines, cell[0] * self.cols + cell[1],
                                  1.0 - float(a.probabilities[cell]), a.log_solutions, None,
                                  a.probabilities, view.copy())
                if key is not None and key[0] == 0:     # not a dead cell
                    self.stats["pseudo"] += 1
                    return cell
        cands = self._candidates(view, a)
        if len(cands) == 1:
            return divmod(int(cands[0]), self.cols)
        safety = 1.0 - a.probabilities.ravel()
        best_i, best_key = int(cands[0]), None
        second_i, second_key = -1, None
        keep = 1.0 - LOOKAHEAD_MARGIN if self.lookahead else 1.0
        child = view.copy()
        factors = {}
        for i in cands:
            # With the lookahead a runner-up within the margin must survive the
            # pruning too, so the bound is the margin below the best so far.
            # The score will be multiplied by the cell's factor.  A score is
            # at most the cell's safety, so a cell that cannot win even at the
            # factor's ceiling is dropped before its shapes are counted.
            f = 1.0
            if risk is not None:
                r, c = divmod(int(i), self.cols)
                f = risk.ceiling(r, c)
                if (f > 1.0 and best_key is not None and best_key[0] == 0
                        and safety[i] * f < best_key[1] * keep):
                    continue
                f = factors[int(i)] = risk.factor(r, c) if f > 1.0 else 1.0
            bound: tuple[int, float] | None = (
                None if best_key is None else (best_key[0], best_key[1] * keep / f))
            key = self._score(view, mines, int(i), float(safety[i]), a.log_solutions, bound,
                              a.probabilities, child)
            if key is None:
                continue
            key = (key[0], key[1] * f)
            if best_key is None or key > best_key:
                if best_key is not None:
                    second_i, second_key = best_i, best_key
                best_i, best_key = int(i), key
            elif second_key is None or key > second_key:
                second_i, second_key = int(i), key
        if (self.lookahead and second_key is not None and best_key is not None
                and best_key[0] == second_key[0] == 0 and second_key[1] >= keep * best_key[1]):
            self.stats["lookahead"] += 1
            value = self.deep_value(view, mines, best_i, a)
            assert value is not None    # without a bound there is always a value
            first = value * factors.get(best_i, 1.0)
            f = factors.get(second_i, 1.0)
            other = self.deep_value(view, mines, second_i, a, bound=first / f)
            if other is not None and other * f > first:
                best_i = second_i
        return divmod(best_i, self.cols)

    def deep_value(self, view: np.ndarray, mines: int, i: int, a: Analysis,
                   bound: float | None = None) -> float | None:
        """How good revealing flat cell ``i`` is, one move deeper than its score.

        For each number ``v`` the cell could show: the share of layouts where
        it is safe and shows ``v``, times the best score (secondary safety) of
        the :data:`LOOKAHEAD_CANDIDATES` safest candidates of the position
        where it does -- or times 1 when that position has a certain move or
        nothing left to find.  ``a`` is the analysis of ``view``.  With
        ``bound``, None as soon as the value cannot reach it (the numbers not
        yet solved counted as certain wins); otherwise the same value.  The
        loop runs in the kernel (:func:`fastmine.solver._guess.deep_value`).
        """
        r, c = divmod(int(i), self.cols)
        value, calls = _guess.deep_value(
            self._ws, self._scratch, view.astype(np.int8, copy=False), mines, r, c,
            a.probabilities, a.log_solutions, bound is not None,
            0.0 if bound is None else bound, DEFAULT_MAX_ENTRIES, CANDIDATE_RATIO,
            INTERIOR_RATIO, FEW_INTERIOR, LOOKAHEAD_CANDIDATES, BLEND)
        self.stats["exact"] += calls
        return None if math.isnan(value) else value

    def _candidates(self, view: np.ndarray, a: Analysis) -> np.ndarray:
        """Flat indices of the cells worth scoring, safest first (step 4 of the
        module docstring; the rule itself is in the kernel, _guess.candidates)."""
        n = _guess.candidates(view.astype(np.int8, copy=False), a.probabilities,
                              a.mine.view(np.uint8), a.interior.view(np.uint8),
                              a.interior_probability, CANDIDATE_RATIO, INTERIOR_RATIO,
                              FEW_INTERIOR, self._cands, self._keys)
        cands = self._cands[:n]
        return cands[np.argsort(self._keys[:n], kind="stable")]    # a copy: nested calls reuse the buffers

    def _score(self, view: np.ndarray, mines: int, i: int, safe: float, log_z: float,
               best_key: tuple[int, float] | None, probs: np.ndarray | None = None,
               child: np.ndarray | None = None) -> tuple[int, float] | None:
        """Sort key of revealing flat cell ``i``: (not dead, secondary safety), or
        None once it cannot beat ``best_key``.

        ``probs`` (the position's exact probabilities) only saves work: numbers
        that are likely to show are scored first, so a hopeless candidate is
        dropped sooner, and numbers no layout allows (below the certain mines
        around the cell, or above its possible ones) are not solved at all.
        The result does not depend on it.  ``child``: a
        writable copy of ``view`` to work in (left as it was).  The loop over
        the numbers runs in the kernel (:func:`fastmine.solver._guess.score`).
        """
        bound = best_key[1] if best_key is not None and best_key[0] == 0 else None
        if bound is not None and safe < bound:
            return None     # even if every number led to a certain win
        r, c = divmod(i, self.cols)
        if child is None:
            child = view.copy()
        values, score, calls = _guess.score(
            self._ws, child, mines, self._prob, self._interior, DEFAULT_MAX_ENTRIES,
            _NO_PROBS if probs is None else probs, r, c, log_z, safe,
            bound is not None, 0.0 if bound is None else bound, BLEND, self._parts,
            probs is not None)
        self.stats["exact"] += calls
        if values < 0:
            return None
        return (0 if values > 1 else -1, score)

    # ------------------------------------------------------------ moves

    def step(self, game: Game) -> NDArray[np.intp]:
        """One move of ``best`` on a game in progress."""
        self.mines = mines = game.mine_count
        view = game.view
        cells, a = self.certain_or_analysis(view, mines)
        if len(cells):
            r, c = (int(x) for x in cells[0])
        else:
            assert a is not None        # nothing certain, so the position was analysed
            r, c = self.guess(view, mines, a)
        if view[r, c] == viewcodes.FLAG:
            return game.toggle_mark(r, c)
        return game.reveal(r, c)

    def play(self, game: Game) -> GameState:
        """Play a game in progress to the end.

        The local rules run incrementally: the kernel is told what each reveal
        showed (:meth:`~fastmine.solver._logic.Logic.learn`) and re-examines
        only the numbers around it; the exact engine is asked only when they
        are stuck.  The cells revealed before each guess are the same as with
        a fresh analysis of every position, so the decisions are too.
        """
        self.mines = mines = game.mine_count
        view = game.view            # live: the game updates it in place
        logic = self.logic
        logic.load_view(view, mines)
        W = self.W
        playing = GameState.PLAYING
        flag = viewcodes.FLAG
        has_flags = bool((view == flag).any())     # only a player's game has any
        while game.state is playing:
            logic.run()
            todo = logic.new_safe()
            if not len(todo):
                a = self._analyze(view, mines)
                logic.mark_mines(self._padded(a.mine))
                if a.safe.any():
                    logic.mark_safe(self._padded(a.safe))
                    todo = logic.new_safe()
                else:
                    r, c = self.guess(view, mines, a)
                    todo = np.array([(r + 1) * W + c + 1], np.intp)
            cells = np.empty((len(todo), 2), np.intp)
            np.divmod(todo - W - 1, W, out=(cells[:, 0], cells[:, 1]))
            if has_flags and (view[cells[:, 0], cells[:, 1]] == flag).any():
                for r, c in cells.tolist():     # the player's flags: lift them first
                    while view.item(r, c) == flag:
                        game.toggle_mark(r, c)
            changed = game.reveal_cells(cells)   # in order; stops if the game ends
            if game.state is playing:
                logic.learn(changed, view)
        return game.state

    def _padded(self, mask: np.ndarray) -> np.ndarray:
        """Padded flat indices of the cells set in a (rows, cols) mask."""
        r, c = np.nonzero(mask)
        return ((r + 1) * self.W + c + 1).astype(np.intp)
