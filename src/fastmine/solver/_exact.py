"""The strategies' one door to the exact probability engine.

The engine (:mod:`fastmine.solver.probability`) is built on its own branch;
everything here adapts its public functions to what the strategies need, so a
change of its API touches this file only.
"""

from __future__ import annotations

import numpy as np


def _engine():
    try:
        from . import probability
    except ImportError as exc:  # pragma: no cover - only before the engine is merged
        raise RuntimeError(
            "this strategy needs the exact probability engine "
            "(fastmine.solver.probability), which is not available") from exc
    return probability


def probabilities(view: np.ndarray, mines: int) -> np.ndarray:
    """P(mine) of every cell (NaN where revealed), exact given the mine count."""
    return np.asarray(_engine().probabilities(view, mines), dtype=np.float64)


def certain(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(safe, mine) bool masks of the cells whose probability is exactly 0 or 1."""
    with np.errstate(invalid="ignore"):
        return p == 0.0, p == 1.0


def log_weight(view: np.ndarray, mines: int) -> float | None:
    """Natural log of the number of boards consistent with ``view`` (None if unknown).

    Used to get the chance of each number a guessed cell can show; when the
    engine does not report it, callers fall back to an approximation.
    """
    eng = _engine()
    fn = getattr(eng, "log_solutions", None)
    if fn is None:
        return None
    return float(fn(view, mines))
