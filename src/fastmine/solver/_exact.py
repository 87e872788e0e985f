"""The strategies' one door to the exact probability engine.

Everything here adapts :mod:`fastmine.solver.probability` to what the
strategies need, so a change of its API touches this file only.
"""

from __future__ import annotations

import numpy as np

from .probability import Analysis, InconsistentViewError, analyze

__all__ = ["Analysis", "InconsistentViewError", "analyze", "probabilities", "certain"]


def probabilities(view: np.ndarray, mines: int) -> np.ndarray:
    """P(mine) of every cell (NaN where revealed), exact given the mine count."""
    return analyze(view, mines).probabilities


def certain(view: np.ndarray, mines: int) -> tuple[np.ndarray, np.ndarray]:
    """(safe, mine) bool masks of the cells the exact engine proves."""
    a = analyze(view, mines)
    return a.safe, a.mine
