"""Exact analyses of one game's successive positions, each reusing what the last proved.

A game's positions follow one another: each shows the cells of the last one
open, and some more.  A cell an earlier position proved safe, or a mine, stays
proven (more numbers only rule layouts out), so :class:`IncrementalAnalyzer`
takes those cells out of the count: a known mine lowers the numbers around it
and the mine total, a known safe cell just leaves the unknown cells.  The
layouts counted are exactly the ones :func:`fastmine.solver.analyze` counts,
so the certain cells are the same and the probabilities equal up to the
rounding of the floats (the counts' floating weights differ).  What is left
to count is the frontier still in doubt: in an Expert game, about a quarter
of the frontier cells and of the numbers a from-scratch analysis goes through.
A position that rules out none of the last one's layouts (the cells opened
since were proven safe, and their numbers touch only proven cells) is not
counted at all: its uncertain cells keep the last odds.

A view that does not follow the last one (a cell open then is hidden again,
as after a take-back; a known mine shown open; another mine count) is
analysed from scratch, and so is an inconsistent one, so the errors are
:func:`~fastmine.solver.analyze`'s own.

>>> import numpy as np
>>> from fastmine.solver.incremental import IncrementalAnalyzer
>>> chain = IncrementalAnalyzer(2)
>>> chain.analyze(np.array([[-1, -1, -1], [1, 2, 1]])).probabilities[0].tolist()
[1.0, 0.0, 1.0]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validate import as_int, check_view_shape
from . import _prob, _workspace
from .probability import (
    _POOL_KEEP_BYTES,
    DEFAULT_MAX_ENTRIES,
    MAX_ENTRIES_LIMIT,
    Analysis,
    InconsistentViewError,
    _bad_value,
    _check,
    _game_type,
    _pool,
)
from .probability import analyze as _analyze

if TYPE_CHECKING:
    from ..game import Game

__all__ = ["IncrementalAnalyzer"]

_INT8 = np.dtype(np.int8)   # a view's dtype is this very object (NumPy keeps one per type)


class IncrementalAnalyzer:
    """Analyses of one game's positions, in the order played.

    Parameters
    ----------
    mines : int
        The board's total mine count (every position analysed has it).
    max_entries : int
        As :func:`fastmine.solver.analyze`'s.

    Notes
    -----
    Each :meth:`analyze` gives what :func:`fastmine.solver.analyze` gives for
    the same view and mine count: the same certain cells and interior, the
    probabilities within rounding (1e-12), the same ``log_solutions`` within
    rounding.  ``variables``, ``components`` and ``blocks`` describe the part
    recounted (the cells still in doubt); ``frontier_cells`` counts every
    unknown cell next to a number, as there.

    Examples
    --------
    >>> import fastmine
    >>> g = fastmine.Game(16, 30, 99, seed=5)
    >>> _ = g.reveal(8, 15)
    >>> chain = IncrementalAnalyzer(99)
    >>> a = chain.analyze(g.view)
    >>> bool(a.safe.any() or a.exact)
    True
    """

    __slots__ = ("_known", "_last", "_last_flat", "_max_entries", "_mines", "_shape", "_ws")

    def __init__(self, mines: int, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        self._mines = as_int("mines", mines)
        if self._mines < 0:
            raise ValueError(f"mines must be 0 or more, got {self._mines}")
        if max_entries is not DEFAULT_MAX_ENTRIES:
            max_entries = as_int("max_entries", max_entries)
            if not 1 <= max_entries <= MAX_ENTRIES_LIMIT:
                raise ValueError(
                    f"max_entries must be from 1 to {MAX_ENTRIES_LIMIT}, got {max_entries}")
        self._max_entries = int(max_entries)
        # A workspace from analyze's pool, given back when this analyzer goes:
        # a new one grows some forty buffers on first use (~85 us), and the
        # coach makes an analyzer or two a game.
        self._ws = _pool.pop() if _pool else _workspace.Workspace()
        self._known: NDArray[np.uint8] | None = None
        # the last analysis, and its probabilities flat: a position that rules
        # out none of its layouts keeps its odds (see _prob.analyze_known)
        self._last: Analysis | None = None
        self._last_flat: NDArray[np.float64] | None = None
        self._shape: tuple[int, int] | None = None

    def __del__(self) -> None:
        ws = getattr(self, "_ws", None)
        if ws is not None and len(_pool) < 4 and ws.nbytes() <= _POOL_KEEP_BYTES:
            _pool.append(ws)

    @property
    def mines(self) -> int:
        """The total mine count every position is analysed with."""
        return self._mines

    def reset(self) -> None:
        """Forget what earlier positions proved (the next view is analysed from scratch)."""
        self._known = None
        self._last = self._last_flat = None

    def analyze(self, view: ArrayLike | Game) -> Analysis:
        """The analysis of ``view``, the game's next position.

        Parameters
        ----------
        view : array_like or Game
            The player's view (as :func:`fastmine.solver.analyze` takes it),
            or the game.

        Returns
        -------
        Analysis
            As :func:`fastmine.solver.analyze` gives it (see the class notes).

        Raises
        ------
        InconsistentViewError
            No layout of the mines fits the view.
        TypeError, ValueError
            A malformed view (as :func:`fastmine.solver.analyze`).
        """
        mines = self._mines
        if type(view) is np.ndarray and view.dtype is _INT8 and view.ndim == 2:
            arr = view              # a game's view: only its size is left to check,
            shape = arr.shape       # once for a board
            if shape != self._shape:
                shape = check_view_shape(shape)
        else:
            # a game brings its own mine count, checked against this analyzer's
            arr, mines = _check(view, None if isinstance(view, _game_type()) else mines)
            if mines != self._mines:
                raise ValueError(f"this analyzer counts {self._mines} mines; the game has {mines}")
            shape = arr.shape
        n = shape[0] * shape[1]
        known = self._known
        if known is None or self._shape != shape:
            known = self._known = np.zeros(n, np.uint8)
            self._shape = shape
            self._last = self._last_flat = None
        flat = np.empty(n, np.float64)
        u8 = np.zeros((3, n), np.uint8)
        last = self._last
        try:
            res = _prob.analyze_known(self._ws, arr, known, mines, flat, u8, self._max_entries,
                                      self._last_flat)
        except BaseException:       # a position too large, an interrupt: start afresh next
            self.reset()
            raise
        if res is None:
            # Not a successor of the last position, or inconsistent: from scratch,
            # with analyze's own errors.
            known[:] = 0
            u8[:] = 0
            self._last = self._last_flat = last = None
            res = _prob.analyze_known(self._ws, arr, known, mines, flat, u8, self._max_entries)
            if res is None:
                known[:] = 0
                _analyze(arr, mines, max_entries=self._max_entries)   # raises its error
                raise InconsistentViewError("inconsistent view")      # pragma: no cover
        if type(res) is int:
            known[:] = 0
            self._last = self._last_flat = None
            raise _bad_value(res)
        flags = u8.view(np.bool_).reshape(3, *shape)
        if res[0] is None:      # type: ignore[index]
            # No layout ruled out: the last count stands (its odds are in flat).
            assert last is not None
            _, nf, p_int = res                                  # type: ignore[misc]
            a = Analysis(flat.reshape(shape), flags[0], flags[1], flags[2], mines, last.exact,
                         last.log_solutions,
                         last.interior_probability if p_int == -1.0 else p_int, nf,
                         last.variables, last.components, last.blocks)
        else:
            exact, log_z, nf, nv, ncomp, nblocks, p_int = res   # type: ignore[misc]
            # positional: the fields in their order, built ~3x faster than by keyword
            a = Analysis(flat.reshape(shape), flags[0], flags[1], flags[2], mines, exact, log_z,
                         p_int, nf, nv, ncomp, nblocks)
        self._last, self._last_flat = a, flat
        return a
