"""Peer (a): plain Python, lists of lists and loops -- the baseline to beat by 100x.

Written the way a careful programmer would without numpy or a compiled
extension: ``random.sample`` over the allowed cells, a neighbour loop for the
counts, an explicit FIFO queue for flood fill (no recursion), and 3BV as
openings plus the safe cells outside every opening's closure.  Nothing is
deliberately slow; nothing is clever either.
"""

from __future__ import annotations

import random
from collections import deque

NAME = "pure_python"
LABEL = "pure Python"

DOES = {
    "gen_cell": "random.sample of the mines over the cells except the click, then counts; "
                "returns (mines, counts) lists of lists",
    "gen_opening": "as gen_cell, excluding the 3x3 block around the click",
    "count": "neighbour counts of a list-of-lists bool mask, loop over the 8 neighbours",
    "bbbv": "FIFO flood fill over zero cells (openings) + safe cells outside their closure",
    "reveal_opening": "FIFO flood fill from the click into a new game's revealed-state "
                      "list of lists (built untimed)",
    "bbbv_empty": "as bbbv, on a board with one mine",
    "reveal_empty": "as reveal_opening, on a board with one mine",
}


def unavailable() -> str | None:
    """Why this peer cannot run here, or None (plain Python always can)."""
    return None


def neighbours(rows: int, cols: int, r: int, c: int):
    """The up-to-eight cells around (r, c) on the board."""
    for dr in (-1, 0, 1):
        rr = r + dr
        if 0 <= rr < rows:
            for dc in (-1, 0, 1):
                cc = c + dc
                if (dr or dc) and 0 <= cc < cols:
                    yield rr, cc


def count(mines: list[list[bool]]) -> list[list[int]]:
    """Adjacent-mine count of every cell."""
    rows, cols = len(mines), len(mines[0])
    counts = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if mines[r][c]:
                for rr, cc in neighbours(rows, cols, r, c):
                    counts[rr][cc] += 1
    return counts


def generate(rows: int, cols: int, mines: int, click: tuple[int, int], radius: int,
             rng: random.Random = random) -> tuple[list[list[bool]], list[list[int]]]:
    """Lay ``mines`` uniformly outside the Chebyshev ``radius`` of ``click``, then count."""
    fr, fc = click
    allowed = [(r, c) for r in range(rows) for c in range(cols)
               if max(abs(r - fr), abs(c - fc)) > radius]
    grid = [[False] * cols for _ in range(rows)]
    for r, c in rng.sample(allowed, mines):
        grid[r][c] = True
    return grid, count(grid)


def flood(mines: list[list[bool]], counts: list[list[int]], revealed: list[list[bool]],
          r: int, c: int) -> int:
    """Reveal safe cell (r, c) and, if it is a zero, its zero region and border.

    Returns how many cells were newly revealed.
    """
    rows, cols = len(mines), len(mines[0])
    if revealed[r][c]:
        return 0
    revealed[r][c] = True
    opened = 1
    queue = deque([(r, c)])
    while queue:
        r, c = queue.popleft()
        if counts[r][c]:
            continue
        for rr, cc in neighbours(rows, cols, r, c):
            if not revealed[rr][cc]:
                revealed[rr][cc] = True
                opened += 1
                queue.append((rr, cc))
    return opened


def bbbv(mines: list[list[bool]], counts: list[list[int]]) -> int:
    """3BV: openings plus safe cells that no opening reveals."""
    rows, cols = len(mines), len(mines[0])
    revealed = [[False] * cols for _ in range(rows)]
    clicks = 0
    for r in range(rows):
        for c in range(cols):
            if not revealed[r][c] and not mines[r][c] and counts[r][c] == 0:
                flood(mines, counts, revealed, r, c)
                clicks += 1
    for r in range(rows):
        for c in range(cols):
            if not revealed[r][c] and not mines[r][c]:
                clicks += 1
    return clicks


def prepare(kernel: str, case):
    """The timed call (and its input) for ``kernel`` on ``case``; see bench.peers."""
    from . import Prepared

    if kernel in ("gen_cell", "gen_opening"):
        radius = 0 if kernel == "gen_cell" else 1
        rows, cols, m, click = case.rows, case.cols, case.mines, case.click
        return Prepared(lambda: generate(rows, cols, m, click, radius),
                        check=lambda out: (out[0], out[1]))
    grid = case.mask.tolist()
    if kernel == "count":
        return Prepared(lambda: count(grid), check=lambda out: out)
    counts = count(grid)
    if kernel in ("bbbv", "bbbv_empty"):
        return Prepared(lambda: bbbv(grid, counts), check=int)
    if kernel in ("reveal_opening", "reveal_empty"):
        r, c = case.click
        rows, cols = case.rows, case.cols
        return Prepared(lambda st: flood(grid, counts, st, r, c), check=int,
                        setup=lambda: [[False] * cols for _ in range(rows)])
    raise KeyError(kernel)
