"""The coach's judgement of a guess taken while a safe cell existed, written out
the slow, obvious way: every mine layout of the unknown cells is listed
(tests/solver/brute_force.py), a cell that is a mine in no layout is safe, safe
cells are opened with a plain flood fill, again and again until none is left,
and the odds are counted as exact fractions.  Only for small boards."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

from fastmine import HIDDEN, Board

sys.path.insert(0, str(Path(__file__).parent / "solver"))
import brute_force  # noqa: E402


def odds(view: np.ndarray, mines: int) -> dict[tuple[int, int], Fraction]:
    """P(mine) of every unknown cell of ``view`` as an exact fraction."""
    lay = brute_force.layouts(view, mines)
    total = len(lay)
    assert total, "the view agrees with no layout"
    return {(int(r), int(c)): Fraction(int(lay[:, r, c].sum()), total)
            for r, c in np.argwhere(np.asarray(view) < 0)}


def play_safe(view: np.ndarray, board: Board) -> np.ndarray:
    """``view`` after opening every cell no layout puts a mine on, until none is left
    (flags and question marks are no evidence: they are hidden cells here)."""
    v = np.where(np.asarray(view) >= 0, view, HIDDEN).astype(np.int8)
    while True:
        safe, _ = brute_force.certain(v, board.mine_count)
        if not safe.any():
            return v
        for r, c in np.argwhere(safe):
            brute_force.reveal(v, board.mines, board.counts, int(r), int(c))


def judge_guess(view: np.ndarray, board: Board, cells: list[tuple[int, int]]
                ) -> tuple[str, Fraction, Fraction | None, int | None]:
    """(category, risk after safe play, best risk after, cells safe play opened)
    of a move opening ``cells`` (some not proven safe) while a safe cell exists.

    Category: ``avoidable_risk`` when safe play opens every cell or proves one a
    mine (risk 1 or 0, best and count None), ``forced_early`` when it leaves the
    risk exactly as it was and no cell safer, ``early_guess`` otherwise."""
    before = odds(view, board.mine_count)
    risk = max(before[p] for p in cells)
    after = play_safe(view, board)
    now = odds(after, board.mine_count)
    if any(now.get(p) == 1 for p in cells):
        return "avoidable_risk", Fraction(1), None, None
    left = [now[p] for p in cells if p in now]
    if not left:
        return "avoidable_risk", Fraction(0), None, None
    risk_after, best = max(left), min(now.values())
    opened = int((after >= 0).sum() - (np.asarray(view) >= 0).sum())
    fair = risk_after == risk and risk_after == best
    return ("forced_early" if fair else "early_guess"), risk_after, best, opened
