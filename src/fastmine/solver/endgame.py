"""Exhaustive endgame search: the move that wins most often when few layouts remain.

When few mine layouts agree with the view, every one of them can be listed
(:func:`solutions`), each equally likely.  :func:`best_move` then searches all
move sequences: the chance of winning from a set ``S`` of possible layouts is 1
when no cell is a mine in some layouts of ``S`` and safe in others, and otherwise

    W(S) = max over undecided cells x of  sum over numbers v  |S(x safe, shows v)| / |S| * W(S(x, v))

A cell that is safe in every layout of ``S`` but shows different numbers in
them is revealed first: that costs nothing and only splits ``S`` (this is also
what the flood fill of a revealed zero does, so the values are exact).  Sets
are bitsets over the listed layouts and W is memoised, in the Cython kernel
:mod:`fastmine.solver._endgame`; a node budget bounds the work, past it the
search gives up (None) and the caller guesses by other means.

What is listed is the layouts of the *undecided* cells: cells the caller
already knows to be mines (``known``, e.g. ``Analysis.mine``) are fixed, so an
Expert endgame with 90 mines found and a handful of cells in doubt is small.

>>> import numpy as np
>>> view = np.array([[1, -1], [1, -1]], np.int8)   # one mine in the right column
>>> cells, boards = solutions(view, 1)
>>> len(boards)
2
>>> round(best_move(view, 1)[1], 3)   # a true 50/50
0.5
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._validate import as_int
from . import _endgame
from .probability import _bad_value, _check

__all__ = ["solutions", "best_move", "MAX_SOLUTIONS", "MAX_NODES"]

MAX_SOLUTIONS = 1000
"""Most layouts :func:`best_move` will search over."""

MAX_NODES = 200_000
"""Search budget: distinct layout sets evaluated before giving up."""

_LIST_BYTES = 64 << 20
"""Above this many bytes for ``limit + 1`` layouts, count them before listing."""


def _check_view(view: object, mines: object) -> tuple[np.ndarray, int]:
    """``probability._check``, plus the values: the lister reads them as they are."""
    arr, mines = _check(view, mines)
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < -3 or hi > 8:
            raise _bad_value(lo if lo < -3 else hi)
    return arr, mines


def _count_arg(name: str, value: object, default: int) -> int:
    """A positive count argument (``limit``, ``max_nodes``); None means ``default``."""
    if value is None:
        return default
    value = as_int(name, value)
    if value < 1:
        raise ValueError(f"{name} must be at least 1, got {value}")
    if value > 2**31 - 64:
        raise ValueError(f"{name} must be below 2**31, got {value}")
    return value


def _known_mask(known: object, shape: tuple[int, int]) -> np.ndarray | None:
    if known is None:
        return None
    mask = np.asarray(known)
    if mask.dtype != np.bool_:
        raise TypeError(f"known must be a bool mask, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise ValueError(f"known must have the view's shape {shape}, got {mask.shape}")
    return mask


def _neighbours(rows: int, cols: int, flat: np.ndarray) -> np.ndarray:
    """(len(flat), 8) flat indices of the neighbours of each cell; -1 off the board."""
    r, c = np.divmod(flat, cols)
    out = np.full((len(flat), 8), -1, np.int64)
    k = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                rr, cc = r + dr, c + dc
                ok = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
                out[ok, k] = rr[ok] * cols + cc[ok]
                k += 1
    return out


class _Listing:
    """The undecided cells of a view and the constraints on them, as arrays."""

    def __init__(self, view: np.ndarray, mines: int, known: np.ndarray | None) -> None:
        rows, cols = view.shape
        unknown = (view < 0).ravel()
        # One spare slot at the end, False: where the -1 of "off the board" lands.
        known_flat = np.zeros(rows * cols + 1, bool)
        if known is not None:
            known_flat[:-1] = known.ravel()
        unknown &= ~known_flat[:-1]
        self.mines = mines - int(known_flat.sum())
        self.cells = cells = np.flatnonzero(unknown)
        n = len(cells)
        index = np.full(rows * cols + 1, -1, np.int64)    # the extra slot: "off the board"
        index[cells] = np.arange(n)
        numbers = np.flatnonzero(view.ravel() >= 0)
        nbr = _neighbours(rows, cols, numbers)
        members = index[nbr]                                 # -1: not a listed cell
        known_near = known_flat[nbr].sum(axis=1) if known is not None else 0
        need = view.ravel()[numbers].astype(np.int64) - known_near
        has = (members >= 0).any(axis=1)
        # A number with nothing undecided around it must already be satisfied.
        self.consistent = self.mines >= 0 and not (need[~has] != 0).any()
        self.members, self.need = members[has], need[has]
        # What each listed cell would show: its known mines plus its listed mined neighbours.
        cnbr = _neighbours(rows, cols, cells)
        self.cell_known = known_flat[cnbr].sum(axis=1) if known is not None else np.zeros(n, int)
        self.cell_nbr = index[cnbr]

    def layouts(self, limit: int) -> np.ndarray | None:
        """Bool (layouts, cells), or None when there are more than ``limit``."""
        n = len(self.cells)
        if not self.consistent:
            return np.zeros((0, n), bool)
        members = self.members
        # Order cells so constraints close early: constrained cells first, by
        # first appearance, then the unconstrained ones.
        seq = members[members >= 0]
        first, at = np.unique(seq, return_index=True)
        constrained = first[np.argsort(at, kind="stable")]
        rest = np.setdiff1d(np.arange(n), constrained, assume_unique=True)
        order = np.concatenate([constrained, rest]).astype(np.int32)
        pos = np.empty(n, np.int64)
        pos[order] = np.arange(n)
        # CSR: for each position, the constraints its cell is in.
        j, k = np.nonzero(members >= 0)
        p = pos[members[j, k]]
        srt = np.argsort(p, kind="stable")
        start = np.zeros(n + 1, np.int32)
        np.cumsum(np.bincount(p, minlength=n), out=start[1:])
        flat = j[srt].astype(np.int32)
        need = self.need.astype(np.int32)
        left = (members >= 0).sum(axis=1).astype(np.int32)
        if (limit + 1) * max(n, 1) > _LIST_BYTES:
            # Room for limit + 1 layouts would be large: count them first (the
            # count stops past the limit), then list exactly that many.
            found = _endgame.layouts(order, start, flat, need.copy(), left.copy(), self.mines,
                                     np.zeros((0, n), np.uint8), limit + 1)
            if found < 0 or found > limit:
                return None
            out = np.zeros((found + 1, n), np.uint8)
        else:
            out = np.zeros((limit + 1, n), np.uint8)     # one spare row: "more than limit"
        found = _endgame.layouts(order, start, flat, need, left, self.mines, out)
        if found < 0 or found > limit:
            return None
        return out[:found].astype(bool)

    def values(self, boards: np.ndarray) -> np.ndarray:
        """int8 (layouts, cells): what each cell shows in each layout, -1 for a mine."""
        ext = np.zeros((len(boards), len(self.cells) + 1), np.int8)
        ext[:, :-1] = boards
        shown = ext[:, self.cell_nbr].sum(axis=2, dtype=np.int8) + self.cell_known.astype(np.int8)
        return np.ascontiguousarray(np.where(boards, np.int8(-1), shown), dtype=np.int8)


def solutions(view: ArrayLike, mines: int, limit: int | None = None,
              known: ArrayLike | None = None) -> tuple[NDArray[np.intp], NDArray[np.bool_]] | None:
    """All mine layouts of the undecided cells consistent with ``view``.

    Every code < 0 counts as unknown; cells set in the bool mask ``known`` are
    taken as mines and left out.  Returns ``(cells, boards)``: the flat indices
    of the cells listed and a bool array, one row per layout (True: a mine),
    or None when there are more than ``limit`` (default :data:`MAX_SOLUTIONS`)
    layouts.  An inconsistent view has no layouts (zero rows).
    """
    view, mines = _check_view(view, mines)
    limit = _count_arg("limit", limit, MAX_SOLUTIONS)
    listing = _Listing(view, mines, _known_mask(known, view.shape))
    boards = listing.layouts(limit)
    return None if boards is None else (listing.cells, boards)


def best_move(view: ArrayLike, mines: int, max_nodes: int | None = None,
              known: ArrayLike | None = None,
              limit: int | None = None) -> tuple[tuple[int, int], float] | None:
    """The winning-most move: ``((row, col), chance of winning)``, or None.

    None when there are more than ``limit`` layouts (default
    :data:`MAX_SOLUTIONS`), when the search budget (``max_nodes`` layout sets,
    default :data:`MAX_NODES`) runs out, when no layout is consistent with the
    view, or when no cell can be safe.  ``known``: a bool mask of cells known
    to be mines (see :func:`solutions`).
    """
    view, mines = _check_view(view, mines)
    limit = _count_arg("limit", limit, MAX_SOLUTIONS)
    max_nodes = _count_arg("max_nodes", max_nodes, MAX_NODES)
    listing = _Listing(view, mines, _known_mask(known, view.shape))
    boards = listing.layouts(limit)
    if boards is None or len(boards) == 0 or len(listing.cells) == 0:
        return None
    best, chance = _endgame.search(listing.values(boards), max_nodes)
    if best < 0:
        return None
    r, c = divmod(int(listing.cells[best]), view.shape[1])
    return (r, c), float(chance)
