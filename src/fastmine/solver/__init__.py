"""The fastmine solver: exact mine probabilities, certain cells, strategies.

>>> import numpy as np
>>> from fastmine import solver
>>> solver.probabilities(np.array([[-1, -1], [1, 1]]), 1)[0].tolist()
[0.5, 0.5]
"""

from .probability import (
    DEFAULT_MAX_ENTRIES,
    Analysis,
    InconsistentViewError,
    analyze,
    log_solutions,
    mine_cells,
    probabilities,
    safe_cells,
)

__all__ = [
    "Analysis",
    "DEFAULT_MAX_ENTRIES",
    "InconsistentViewError",
    "analyze",
    "log_solutions",
    "mine_cells",
    "probabilities",
    "safe_cells",
]
