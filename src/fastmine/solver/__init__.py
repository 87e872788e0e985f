"""The fastmine solver: exact mine probabilities, certain cells, strategies.

>>> import numpy as np
>>> import fastmine
>>> from fastmine import solver
>>> solver.probabilities(np.array([[-1, -1], [1, 1]]), 1)[0].tolist()
[0.5, 0.5]
>>> game = fastmine.Game(9, 9, 10, rule="opening", seed=3)
>>> solver.play(game, "best", rng=3) in (fastmine.GameState.WON, fastmine.GameState.LOST)
True
"""

from .probability import (
    DEFAULT_MAX_ENTRIES,
    Analysis,
    InconsistentViewError,
    PositionTooLargeError,
    analyze,
    log_solutions,
    mine_cells,
    probabilities,
    safe_cells,
)
from .strategies import STRATEGIES, Strategy, first_click_for, play, step

__all__ = [
    "Analysis",
    "DEFAULT_MAX_ENTRIES",
    "STRATEGIES",
    "Strategy",
    "InconsistentViewError",
    "PositionTooLargeError",
    "analyze",
    "first_click_for",
    "log_solutions",
    "mine_cells",
    "play",
    "probabilities",
    "safe_cells",
    "step",
]
