"""Peer (b): NumPy/SciPy, whole-array operations instead of Python loops.

The idiomatic vectorised engine: mines laid with ``Generator.choice`` without
replacement, neighbour counts as a sum of eight shifted views of a padded
array, and flood fill / 3BV from ``scipy.ndimage.label`` on the zero cells
(8-connected) plus a 3x3 ``binary_dilation`` for each opening's border.
"""

from __future__ import annotations

import numpy as np

NAME = "numpy"
LABEL = "NumPy/SciPy"

DOES = {
    "gen_cell": "rng.choice of the mines over the allowed flat indices (no replacement), "
                "then counts by shifted sums; returns (mines, counts) arrays",
    "gen_opening": "as gen_cell, excluding the 3x3 block around the click",
    "count": "sum of the 8 shifted views of the zero-padded mask (int8)",
    "bbbv": "ndimage.label of the zero cells (8-connected) + binary_dilation 3x3; "
            "3BV = labels + safe cells outside the dilation",
    "reveal_opening": "ndimage.label of the zero cells, the clicked component dilated 3x3 "
                      "is or-ed into a new game's revealed mask (built untimed)",
    "bbbv_empty": "as bbbv, on a board with one mine",
    "reveal_empty": "as reveal_opening, on a board with one mine",
}

_EIGHT = np.ones((3, 3), bool)
_rng = np.random.default_rng()


def unavailable() -> str | None:
    """Why this peer cannot run here (SciPy missing), or None."""
    try:
        import scipy.ndimage  # noqa: F401
    except ImportError as exc:
        return f"SciPy is not installed ({exc})"
    return None


def count(mask: np.ndarray) -> np.ndarray:
    """int8 neighbour counts of a bool mask, by shifted sums over a padded copy."""
    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), np.int8)
    p[1:-1, 1:-1] = mask
    out = np.zeros((rows, cols), np.int8)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            if dr != 1 or dc != 1:
                out += p[dr:dr + rows, dc:dc + cols]
    return out


def generate(rows: int, cols: int, mines: int, click: tuple[int, int], radius: int,
             rng: np.random.Generator = _rng) -> tuple[np.ndarray, np.ndarray]:
    """Lay ``mines`` uniformly outside the Chebyshev ``radius`` of ``click``, then count."""
    fr, fc = click
    allowed = np.ones((rows, cols), bool)
    allowed[max(fr - radius, 0):fr + radius + 1, max(fc - radius, 0):fc + radius + 1] = False
    cells = np.flatnonzero(allowed)
    mask = np.zeros(rows * cols, bool)
    mask[rng.choice(cells, mines, replace=False)] = True
    mask = mask.reshape(rows, cols)
    return mask, count(mask)


def bbbv(mask: np.ndarray, counts: np.ndarray) -> int:
    """3BV from connected-component labels of the zero cells."""
    from scipy import ndimage

    zero = ~mask & (counts == 0)
    _, openings = ndimage.label(zero, structure=_EIGHT)
    closure = ndimage.binary_dilation(zero, structure=_EIGHT)
    return int(openings) + int(np.count_nonzero(~mask & ~closure))


def reveal(mask: np.ndarray, counts: np.ndarray, revealed: np.ndarray, r: int,
           c: int) -> np.ndarray:
    """Reveal safe cell (r, c) into the bool mask ``revealed`` (and return it)."""
    from scipy import ndimage

    if counts[r, c] != 0:
        revealed[r, c] = True
        return revealed
    labels, _ = ndimage.label(~mask & (counts == 0), structure=_EIGHT)
    region = labels == labels[r, c]
    revealed |= ndimage.binary_dilation(region, structure=_EIGHT)
    return revealed


def prepare(kernel: str, case):
    """The timed call (and its input) for ``kernel`` on ``case``; see bench.peers."""
    from . import Prepared

    if kernel in ("gen_cell", "gen_opening"):
        radius = 0 if kernel == "gen_cell" else 1
        rows, cols, m, click = case.rows, case.cols, case.mines, case.click
        return Prepared(lambda: generate(rows, cols, m, click, radius), check=lambda out: out)
    mask = np.ascontiguousarray(case.mask, dtype=bool)
    if kernel == "count":
        return Prepared(lambda: count(mask), check=lambda out: out)
    counts = count(mask)
    if kernel in ("bbbv", "bbbv_empty"):
        return Prepared(lambda: bbbv(mask, counts), check=int)
    if kernel in ("reveal_opening", "reveal_empty"):
        r, c = case.click
        return Prepared(lambda st: reveal(mask, counts, st, r, c),
                        check=lambda out: int(np.count_nonzero(out)),
                        setup=lambda: np.zeros(mask.shape, bool))
    raise KeyError(kernel)
