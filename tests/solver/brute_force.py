"""Slow, obviously-correct references for the solver tests (brute force)."""

from __future__ import annotations

import itertools

import numpy as np


def layouts(view: np.ndarray, mines: int) -> np.ndarray:
    """Every mine layout of the unknown cells (code < 0) consistent with ``view``.

    Returns a bool array (n, rows, cols).  Brute force over all ways to put the
    mines on the unknown cells: only for small positions.
    """
    view = np.asarray(view)
    rows, cols = view.shape
    unknown = np.flatnonzero(view.ravel() < 0)
    if mines > len(unknown):
        return np.zeros((0, rows, cols), bool)
    combos = np.array(list(itertools.combinations(unknown, mines)), np.intp)
    combos = combos.reshape(-1, mines)
    m = np.zeros((len(combos), rows * cols), bool)
    m[np.arange(len(combos))[:, None], combos] = True
    numbers = np.flatnonzero(view.ravel() >= 0)
    if len(numbers):
        # adj[k, cell]: cell is a neighbour of the k-th revealed number.
        adj = np.zeros((len(numbers), rows * cols), np.int32)
        for k, p in enumerate(numbers):
            r, c = divmod(int(p), cols)
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    if (rr, cc) != (r, c):
                        adj[k, rr * cols + cc] = 1
        ok = ((m.astype(np.int32) @ adj.T) == view.ravel()[numbers]).all(axis=1)
        m = m[ok]
    return m.reshape(len(m), rows, cols)


def certain(view: np.ndarray, mines: int) -> tuple[np.ndarray, np.ndarray]:
    """(safe, mine) masks of unknown cells that are safe / mined in every layout."""
    lay = layouts(view, mines)
    unknown = np.asarray(view) < 0
    if len(lay) == 0:
        z = np.zeros_like(unknown)
        return z, z
    return unknown & ~lay.any(axis=0), unknown & lay.all(axis=0)


def probabilities(view: np.ndarray, mines: int) -> np.ndarray:
    """P(mine) per cell by counting layouts (NaN where revealed)."""
    lay = layouts(view, mines)
    p = lay.mean(axis=0) if len(lay) else np.zeros(np.shape(view))
    return np.where(np.asarray(view) < 0, p, np.nan)


def reveal(view: np.ndarray, mines: np.ndarray, counts: np.ndarray, r: int, c: int) -> None:
    """Reveal (r, c) of a safe cell in ``view`` in place, flooding zeros."""
    rows, cols = view.shape
    stack = [(r, c)]
    while stack:
        r, c = stack.pop()
        if view[r, c] >= 0:
            continue
        assert not mines[r, c]
        view[r, c] = counts[r, c]
        if counts[r, c] == 0:
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    if view[rr, cc] < 0:
                        stack.append((rr, cc))


def solvable(mines: np.ndarray, first: tuple[int, int]) -> bool:
    """Can the board be cleared from ``first`` by certain moves only (brute force)?"""
    mines = np.asarray(mines, bool)
    rows, cols = mines.shape
    p = np.pad(mines, 1).astype(int)
    counts = sum(p[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    if mines[first]:
        return False
    view = np.full((rows, cols), -1, np.int8)
    reveal(view, mines, counts, *first)
    total = int(mines.sum())
    while ((view < 0) & ~mines).any():
        safe, _ = certain(view, total)
        if not safe.any():
            return False
        for r, c in zip(*np.nonzero(safe), strict=True):
            reveal(view, mines, counts, r, c)
    return True
