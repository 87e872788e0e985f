"""Exact mine probabilities and certain cells of a Minesweeper position.

A *view* is what a player sees: an integer array with ``0..8`` for revealed
numbers and a negative code for every other cell (``fastmine.HIDDEN``,
``FLAG``, ``QUESTION``).  Flags and question marks are the player's opinion,
not evidence: they count as unknown cells.  ``mines`` is the *total* mine
count of the board (not the count left after flags).

Every layout of ``mines`` mines on the unknown cells that agrees with all the
numbers is equally likely; the probability of a cell is the share of those
layouts that put a mine on it.  The engine counts them exactly, without listing
them: frontier cells with the same neighbouring numbers are grouped, the
frontier is split into independent components, each is counted by a dynamic
programme per number of mines, and the components are combined with the
unconstrained interior through binomial weights (in log space, so a 100x100
board with thousands of mines is fine).

Certain cells come from exact (boolean) bookkeeping, not from float
comparisons: ``P == 0.0`` exactly when a cell is certainly safe and ``P == 1.0``
exactly when it is certainly a mine; every other cell gets a value strictly
between.

Budget and approximation: counting a component stores a table of partial
counts.  When a component would need more than ``max_entries`` stored entries
(or more than 16 simultaneously open number constraints, e.g. a large blob of
scattered numbers), it is cut in halves along its processing order, and the
numbers that straddle a cut are ignored.  That is a relaxation: every real
layout is still counted, so cells reported certain are still certain (for a
consistent view), but probabilities near the cuts are approximate, an
inconsistency across a cut may go unnoticed, and ``Analysis.exact`` is False.
Ordinary play (Expert, 50x50, 100x100 frontiers) stays exact.

>>> import numpy as np
>>> from fastmine import solver
>>> view = np.array([[-1, -1, -1],
...                  [ 1,  2,  1]])
>>> solver.probabilities(view, 2)[0].tolist()
[1.0, 0.0, 1.0]
>>> solver.safe_cells(view, 2)
array([[0, 1]])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validate import as_int, check_view_shape
from ..errors import PositionTooLargeError
from ..limits import MAX_CELLS
from . import _prob, _workspace

if TYPE_CHECKING:
    from ..game import Game

__all__ = [
    "Analysis",
    "DEFAULT_MAX_ENTRIES",
    "InconsistentViewError",
    "PositionTooLargeError",
    "analyze",
    "log_solutions",
    "mine_cells",
    "probabilities",
    "safe_cells",
]

#: Default budget of stored DP entries (about 9 bytes each) before a component
#: is split and approximated; ~18 MB at most.
DEFAULT_MAX_ENTRIES = 2_000_000

#: Largest ``max_entries`` accepted: the kernels multiply it (16x for the
#: work, 64x for the combination) in 64-bit integers.
MAX_ENTRIES_LIMIT = 2**40

_FINISHED = (-4, -5, -6)  # MINE, EXPLODED, WRONG_FLAG: only shown after a game ends


class InconsistentViewError(ValueError):
    """No layout of the given number of mines agrees with the view's numbers."""


@dataclass(eq=False, slots=True)
class Analysis:
    """Everything :func:`analyze` found out about a position.

    Treat it as read-only (it is a plain slotted dataclass because a frozen one
    costs several microseconds to build, and this is built once per call).
    Cell sets are given twice: as boolean masks (``safe``, ``mine``) and, through
    :attr:`safe_cells` / :attr:`mine_cells`, as ``(n, 2)`` arrays of
    ``(row, col)`` in row-major order (the format ``Game`` moves return).
    """

    probabilities: NDArray[np.float64]
    """float64 (rows, cols): P(mine) of each unknown cell; NaN where revealed."""
    safe: NDArray[np.bool_]
    """bool (rows, cols): cells that are certainly safe."""
    mine: NDArray[np.bool_]
    """bool (rows, cols): cells that are certainly mines."""
    interior: NDArray[np.bool_]
    """bool (rows, cols): unknown cells with no revealed neighbour (all share one P)."""
    mines: int
    """The total mine count the analysis used."""
    exact: bool
    """False when a component was too large and was approximated (see module doc)."""
    log_solutions: float
    """Natural log of the number of mine layouts consistent with the view."""
    interior_probability: float
    """P(mine) of any interior cell; NaN when there are none."""
    frontier_cells: int
    """Unknown cells next to at least one revealed number."""
    variables: int
    """Frontier groups (cells with the same neighbouring numbers)."""
    components: int
    """Independent frontier components."""
    blocks: int = field(repr=False)
    """Pieces actually counted (more than ``components`` when something was split)."""

    @property
    def safe_cells(self) -> NDArray[np.intp]:
        """``(n, 2)`` intp array of the certainly safe cells, row-major."""
        return np.argwhere(self.safe)

    @property
    def mine_cells(self) -> NDArray[np.intp]:
        """``(n, 2)`` intp array of the certain mines, row-major."""
        return np.argwhere(self.mine)

    @property
    def unknown(self) -> NDArray[np.bool_]:
        """bool (rows, cols): cells not revealed (hidden, flagged or question-marked)."""
        return ~np.isnan(self.probabilities)


_pool: list[Any] = []  # idle kernel workspaces (reused; one per concurrent caller)
_POOL_KEEP_BYTES = 8 << 20


def _bad_value(value: int) -> ValueError:
    if value in _FINISHED:
        return ValueError(
            "view shows a finished game (MINE, EXPLODED or WRONG_FLAG cells); "
            "probabilities are only defined while playing"
        )
    return ValueError(
        f"view values must be 0..8 (revealed) or -1..-3 (hidden, flag, question), got {value}"
    )


def _check(view: object, mines: object) -> tuple[np.ndarray, int]:
    """The view as a 2-D int8 array (values are checked by the kernel) and the mine count."""
    if isinstance(view, _game_type()):
        if mines is None:
            mines = view.mine_count
        view = view.view
    elif mines is None:
        raise TypeError("mines (the total mine count) is required unless a Game is passed")
    arr = np.asarray(view)
    if arr.size > MAX_CELLS:          # before min/max read a huge (broadcast) view
        check_view_shape(arr.shape)
    if arr.dtype != np.int8:
        if arr.dtype.kind not in "iu":
            raise TypeError(f"view must be an integer array, got dtype {arr.dtype}")
        if arr.size:
            lo, hi = int(arr.min()), int(arr.max())
            if lo < -128 or hi > 127:  # would wrap in int8; never a valid code anyway
                raise _bad_value(lo if lo < -128 else hi)
        arr = arr.astype(np.int8)
    # The size first (a broadcast view of 2**31 columns costs no memory, and
    # the kernels index cells with C ints): one limit, fastmine.limits.
    rows, cols = check_view_shape(arr.shape)
    if type(mines) is not int:
        mines = as_int("mines", mines)
    if not 0 <= mines <= rows * cols:
        raise ValueError(
            f"mines must be between 0 and {rows * cols} for a {rows}x{cols} view, got {mines}"
        )
    return arr, mines


def _game_type() -> type[Game]:
    global _GAME
    if _GAME is None:
        from ..game import Game  # the solver builds on the game, not the reverse

        _GAME = Game
    return _GAME


_GAME: type[Game] | None = None


def analyze(view: ArrayLike | Game, mines: int | None = None, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> Analysis:
    """Exact probabilities and certain cells of ``view`` with ``mines`` mines in total.

    Parameters
    ----------
    view : array_like or Game
        The player's view, as :attr:`fastmine.Game.view` gives it: 0..8 where
        revealed, :data:`fastmine.HIDDEN`, :data:`fastmine.FLAG` or
        :data:`fastmine.QUESTION` elsewhere (a flag is not taken as a mine); or
        the game itself.
    mines : int, optional
        The total number of mines; defaults to a game's mine count (needed
        with an array).
    max_entries : int
        Bounds the memory of the counting tables (see the module docstring):
        a component that needs more is approximated and ``exact`` is False.

    Returns
    -------
    Analysis
        Probabilities, certain cells and counts of the position.

    Raises
    ------
    InconsistentViewError
        No layout of ``mines`` mines fits the view.
    TypeError, ValueError
        A ``max_entries`` out of range, a malformed view (not 2-D, a code that is not a view code, a finished
        game's cells) or mine count.

    Examples
    --------
    >>> import numpy as np
    >>> a = analyze(np.array([[-1, -1], [1, 1]]), 1)
    >>> a.probabilities[0].tolist(), a.exact, len(a.safe_cells)
    ([0.5, 0.5], True, 0)
    """
    arr, mines = _check(view, mines)
    if max_entries is not DEFAULT_MAX_ENTRIES:
        max_entries = as_int("max_entries", max_entries)
        if not 1 <= max_entries <= MAX_ENTRIES_LIMIT:
            raise ValueError(
                f"max_entries must be from 1 to {MAX_ENTRIES_LIMIT}, got {max_entries}")
    rows, cols = arr.shape
    n = rows * cols
    prob = np.empty(n, np.float64)
    flags = np.zeros((3, n), np.bool_)
    safe, mine, interior = flags
    u8 = flags.view(np.uint8)
    ws = _pool.pop() if _pool else _workspace.Workspace()
    try:
        res = _prob.analyze(ws, arr, mines, prob, u8[0], u8[1], u8[2], max_entries)
    finally:
        if len(_pool) < 4 and ws.nbytes() <= _POOL_KEEP_BYTES:
            _pool.append(ws)
    if type(res) is not tuple:
        if type(res) is int:
            raise _bad_value(res)
        raise InconsistentViewError(f"inconsistent view: {res}")
    exact, log_z, nf, nv, ncomp, nblocks, p_int = res
    shape = (rows, cols)
    # positional: the fields in their order (built ~3x faster than by keyword)
    return Analysis(prob.reshape(shape), safe.reshape(shape), mine.reshape(shape),
                    interior.reshape(shape), mines, exact, log_z, p_int, nf, nv, ncomp, nblocks)


def probabilities(view: ArrayLike | Game, mines: int | None = None) -> NDArray[np.float64]:
    """P(mine) of every unknown cell, exact given the total mine count.

    Parameters
    ----------
    view : array_like or Game
        The player's view, as :attr:`fastmine.Game.view` gives it: 0..8 where
        revealed, :data:`fastmine.HIDDEN`, :data:`fastmine.FLAG` or
        :data:`fastmine.QUESTION` elsewhere (a flag is not taken as a mine); or
        the game itself.
    mines : int, optional
        The total number of mines; defaults to a game's mine count (needed
        with an array).

    Returns
    -------
    numpy.ndarray
        float64 (rows, cols): the probability of a mine at each unknown cell,
        NaN where revealed.

    Raises
    ------
    InconsistentViewError
        No layout of ``mines`` mines fits the view.
    TypeError, ValueError
        A malformed view (not 2-D, a code that is not a view code, a finished
        game's cells) or mine count.

    See Also
    --------
    analyze : everything at once (certain cells, counts).
    """
    return analyze(view, mines).probabilities


def safe_cells(view: ArrayLike | Game, mines: int | None = None) -> NDArray[np.intp]:
    """The cells that are certainly safe.

    Parameters
    ----------
    view : array_like or Game
        The player's view, as :attr:`fastmine.Game.view` gives it: 0..8 where
        revealed, :data:`fastmine.HIDDEN`, :data:`fastmine.FLAG` or
        :data:`fastmine.QUESTION` elsewhere (a flag is not taken as a mine); or
        the game itself.
    mines : int, optional
        The total number of mines; defaults to a game's mine count (needed
        with an array).

    Returns
    -------
    numpy.ndarray
        ``(n, 2)`` intp array of ``(row, col)``, row-major.

    Raises
    ------
    InconsistentViewError
        No layout of ``mines`` mines fits the view.
    TypeError, ValueError
        A malformed view (not 2-D, a code that is not a view code, a finished
        game's cells) or mine count.
    """
    return np.argwhere(analyze(view, mines).safe)


def mine_cells(view: ArrayLike | Game, mines: int | None = None) -> NDArray[np.intp]:
    """The cells that are certainly mines.

    Parameters
    ----------
    view : array_like or Game
        The player's view, as :attr:`fastmine.Game.view` gives it: 0..8 where
        revealed, :data:`fastmine.HIDDEN`, :data:`fastmine.FLAG` or
        :data:`fastmine.QUESTION` elsewhere (a flag is not taken as a mine); or
        the game itself.
    mines : int, optional
        The total number of mines; defaults to a game's mine count (needed
        with an array).

    Returns
    -------
    numpy.ndarray
        ``(n, 2)`` intp array of ``(row, col)``, row-major.

    Raises
    ------
    InconsistentViewError
        No layout of ``mines`` mines fits the view.
    TypeError, ValueError
        A malformed view (not 2-D, a code that is not a view code, a finished
        game's cells) or mine count.
    """
    return np.argwhere(analyze(view, mines).mine)


def log_solutions(view: ArrayLike | Game, mines: int | None = None) -> float:
    """Natural log of the number of mine layouts consistent with ``view``.

    ``-inf`` when there is none (an inconsistent view is a count of zero here,
    not an error, so a strategy can score hypothetical reveals directly);
    malformed input still raises.  Ratios of these counts are probabilities:
    ``exp(log_solutions(v2, m) - log_solutions(v1, m))`` is the chance of ``v2``
    given ``v1`` when ``v2`` only adds information to ``v1``.

    Parameters
    ----------
    view : array_like or Game
        The player's view, as :attr:`fastmine.Game.view` gives it: 0..8 where
        revealed, :data:`fastmine.HIDDEN`, :data:`fastmine.FLAG` or
        :data:`fastmine.QUESTION` elsewhere (a flag is not taken as a mine); or
        the game itself.
    mines : int, optional
        The total number of mines; defaults to a game's mine count (needed
        with an array).

    Returns
    -------
    float
        The natural log of the count, or ``-inf`` for none.

    Raises
    ------
    TypeError, ValueError
        A malformed view or mine count.

    Examples
    --------
    >>> import numpy as np
    >>> round(float(np.exp(log_solutions(np.array([[-1, -1], [1, 1]]), 1))))
    2
    >>> log_solutions(np.array([[-1, -1], [1, 1]]), 2)
    -inf
    """
    try:
        return analyze(view, mines).log_solutions
    except InconsistentViewError:
        return float("-inf")
