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

from . import _endgame
from .probability import _check

__all__ = ["solutions", "best_move", "MAX_SOLUTIONS", "MAX_NODES"]

MAX_SOLUTIONS = 1000
"""Most layouts :func:`best_move` will search over."""

MAX_NODES = 200_000
"""Search budget: distinct layout sets evaluated before giving up."""


def _known_mask(known: object, shape: tuple[int, int]) -> np.ndarray | None:
    if known is None:
        return None
    mask = np.asarray(known)
    if mask.dtype != np.bool_:
        raise TypeError(f"known must be a bool mask, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise ValueError(f"known must have the view's shape {shape}, got {mask.shape}")
    return mask


def solutions(view, mines: int, limit: int = MAX_SOLUTIONS, known=None):
    """All mine layouts of the undecided cells consistent with ``view``.

    Every code < 0 counts as unknown; cells set in the bool mask ``known`` are
    taken as mines and left out.  Returns ``(cells, boards)``: the flat indices
    of the cells listed and a bool array, one row per layout (True: a mine),
    or None when there are more than ``limit`` layouts.  An inconsistent view
    has no layouts (zero rows).
    """
    view, mines = _check(view, mines)
    rows, cols = view.shape
    known = _known_mask(known, view.shape)
    unknown = view < 0
    padded_known = np.zeros((rows + 2, cols + 2), np.int8)
    if known is not None:
        unknown &= ~known
        mines -= int(known.sum())
        padded_known[1:-1, 1:-1] = known
    cells = np.flatnonzero(unknown)
    n = len(cells)
    if mines < 0:
        return cells, np.zeros((0, n), bool)
    index = np.full(rows * cols, -1, np.int64)
    index[cells] = np.arange(n)
    # Known mines around each number, so constraints count only undecided cells.
    near_known = sum(padded_known[dr:dr + rows, dc:dc + cols]
                     for dr in (0, 1, 2) for dc in (0, 1, 2) if dr != 1 or dc != 1)
    cons: list[tuple[int, list[int]]] = []
    for p in np.flatnonzero(view >= 0):
        r, c = divmod(int(p), cols)
        r0, r1, c0, c1 = max(r - 1, 0), min(r + 2, rows), max(c - 1, 0), min(c + 2, cols)
        members = [int(index[rr * cols + cc]) for rr in range(r0, r1) for cc in range(c0, c1)
                   if unknown[rr, cc]]
        need = int(view[r, c]) - int(near_known[r, c])
        if members:
            cons.append((need, members))
        elif need != 0:
            return cells, np.zeros((0, n), bool)
    # Order cells so constraints close early: constrained cells first, by
    # first appearance, then the unconstrained ones.
    order: list[int] = []
    seen: set[int] = set()
    for _, members in cons:
        for i in members:
            if i not in seen:
                seen.add(i)
                order.append(i)
    order += [i for i in range(n) if i not in seen]
    pos = np.empty(n, np.int64)
    pos[order] = np.arange(n)
    of_pos: list[list[int]] = [[] for _ in range(n)]
    for j, (_, members) in enumerate(cons):
        for i in members:
            of_pos[pos[i]].append(j)
    start = np.zeros(n + 1, np.int32)
    start[1:] = np.cumsum([len(x) for x in of_pos])
    flat = np.array([j for x in of_pos for j in x], np.int32)
    need = np.array([v for v, _ in cons], np.int32)
    left = np.array([len(m) for _, m in cons], np.int32)
    out = np.zeros((limit + 1, n), np.uint8)     # one spare row: "more than limit"
    found = _endgame.layouts(np.array(order, np.int32), start, flat, need, left, mines, out)
    if found < 0 or found > limit:
        return None
    return cells, out[:found].astype(bool)


def best_move(view, mines: int, max_nodes: int = MAX_NODES, known=None,
              limit: int = MAX_SOLUTIONS):
    """The winning-most move: ``((row, col), chance of winning)``, or None.

    None when there are more than ``limit`` layouts, when the search budget
    (``max_nodes`` layout sets) runs out, when no layout is consistent with the
    view, or when no cell can be safe.  ``known``: a bool mask of cells known
    to be mines (see :func:`solutions`).
    """
    view, mines = _check(view, mines)
    rows, cols = view.shape
    found = solutions(view, mines, limit, known)
    if found is None:
        return None
    cells, boards = found
    nb = len(boards)
    if nb == 0 or len(cells) == 0:
        return None
    # What each listed cell shows in each layout: its mined neighbours,
    # the known mines included.
    grid = np.zeros((nb, rows + 2, cols + 2), np.int8)
    flat = grid.reshape(nb, -1)
    pcells = (cells // cols + 1) * (cols + 2) + cells % cols + 1
    flat[:, pcells] = boards
    known = _known_mask(known, view.shape)
    if known is not None and known.any():
        kc = np.flatnonzero(known)
        flat[:, (kc // cols + 1) * (cols + 2) + kc % cols + 1] = 1
    counts = np.zeros((nb, rows, cols), np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                counts += grid[:, dr:dr + rows, dc:dc + cols]
    values = np.ascontiguousarray(np.where(boards, -1, counts.reshape(nb, -1)[:, cells]),
                                  dtype=np.int8)
    best, chance = _endgame.search(values, int(max_nodes))
    if best < 0:
        return None
    r, c = divmod(int(cells[best]), cols)
    return (r, c), float(chance)
