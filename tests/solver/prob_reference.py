"""Slow, obviously-correct references for the solver tests.

``brute_force`` lists every way to put ``mines`` mines on the unknown cells of a
small view, keeps the layouts that agree with every revealed number, and counts.
Exact integers throughout: probabilities come back as ``Fraction``s.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

import fastmine


def unknown_cells(view: np.ndarray) -> list[tuple[int, int]]:
    """Cells that are not revealed numbers (hidden, flagged, question-marked)."""
    return [(r, c) for r in range(view.shape[0]) for c in range(view.shape[1]) if view[r, c] < 0]


def brute_force(view, mines: int, limit: int = 300_000):
    """``(layouts, {cell: Fraction})`` over all consistent layouts; None if too many to list."""
    view = np.asarray(view)
    rows, cols = view.shape
    cells = unknown_cells(view)
    index = {cell: i for i, cell in enumerate(cells)}
    u = len(cells)
    if mines > u:
        return 0, {}
    from math import comb

    if comb(u, mines) > limit:
        return None
    # constraints: each revealed number = mines among its unknown neighbours
    rows_a, targets = [], []
    for r in range(rows):
        for c in range(cols):
            if view[r, c] >= 0:
                row = np.zeros(u, np.int64)
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        q = (r + dr, c + dc)
                        if q in index:
                            row[index[q]] = 1
                rows_a.append(row)
                targets.append(int(view[r, c]))
    combos = np.array(list(itertools.combinations(range(u), mines)), np.int64)
    layouts = np.zeros((len(combos), u), np.int64)
    if mines:
        np.put_along_axis(layouts, combos, 1, axis=1)
    ok = np.ones(len(layouts), bool)
    if rows_a:
        a = np.array(rows_a)
        ok = (layouts @ a.T == np.array(targets)).all(axis=1)
    good = layouts[ok]
    total = len(good)
    if total == 0:
        return 0, {}
    counts = good.sum(axis=0)
    return total, {cell: Fraction(int(counts[i]), total) for cell, i in index.items()}


def play_random_position(rng: np.random.Generator, rows: int, cols: int, mines: int,
                         max_unknown: int = 16, marks: bool = True):
    """A real mid-game view: a random board, a few random safe reveals, maybe some marks.

    Returns ``(view, mines)``; the view always has at most ``max_unknown``
    unknown cells so :func:`brute_force` can check it.
    """
    first = (int(rng.integers(rows)), int(rng.integers(cols)))
    rule = str(rng.choice(["cell", "opening", "none"]))
    board = fastmine.Board.generate(rows, cols, mines, first_click=first, rule=rule,
                                    seed=int(rng.integers(2**31)))
    game = fastmine.Game.from_board(board)
    safe = np.argwhere(~board.mines)
    stop_at = int(rng.integers(1, max_unknown + 1))
    while True:
        hidden = [tuple(p) for p in safe if game.view[p[0], p[1]] < 0]
        unknown = int((game.view < 0).sum())
        if not hidden or (unknown <= max_unknown and unknown <= stop_at + mines):
            break
        r, c = hidden[int(rng.integers(len(hidden)))]
        if game.view[r, c] == fastmine.FLAG:
            game.toggle_mark(r, c)
        game.reveal(r, c)
    if marks and game.state is fastmine.GameState.PLAYING:
        for r, c in np.argwhere(game.view < 0):
            if rng.random() < 0.15:
                game.toggle_mark(int(r), int(c))      # a flag (right or wrong)
                if rng.random() < 0.3:
                    game.toggle_mark(int(r), int(c))  # a question mark
    return np.array(game.view), mines
