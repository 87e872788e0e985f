"""The fastmine solver: exact mine probabilities, certain cells, strategies.

>>> import numpy as np
>>> import fastmine
>>> from fastmine import solver
>>> solver.probabilities(np.array([[-1, -1], [1, 1]]), 1)[0].tolist()
[0.5, 0.5]
>>> game = fastmine.Game(9, 9, 10, rule="opening", seed=3)
>>> solver.play(game, "best", rng=3) in (fastmine.GameState.WON, fastmine.GameState.LOST)
True

The names below load their module on first use (as scikit-image's subpackages
do), so ``import fastmine`` -- which imports :mod:`fastmine.solver.no_guess` for
``rule="no_guess"`` -- does not load the strategies and their kernels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_FROM_PROBABILITY = frozenset({"DEFAULT_MAX_ENTRIES", "Analysis", "InconsistentViewError",
                               "PositionTooLargeError", "analyze", "log_solutions", "mine_cells",
                               "probabilities", "safe_cells"})
_FROM_STRATEGIES = frozenset({"STRATEGIES", "Strategy", "first_click_for", "play", "step"})

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


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    if name in _FROM_PROBABILITY:
        from . import probability

        value = getattr(probability, name)
    elif name in _FROM_STRATEGIES:
        from . import strategies

        value = getattr(strategies, name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value   # later lookups find it without calling this
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
