"""The app's only door to :mod:`fastmine.solver`: assist moves, hints, odds.

The solver is imported lazily, so the app starts fast and still runs (with
the assist buttons disabled) where the solver is missing.  Every function
here returns plain data; the controller decides what to show.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from fastmine import FLAG, HIDDEN, QUESTION, GameState

from ..text.i18n import N_, _, fmt_percent

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from fastmine import Game

STRATEGIES: dict[str, str] = {
    "Auto": "auto",
    "Deter": "deterministic",
    "Infer": "inference",
    "Proba": "probability",
    "Random": "random",
}
"""Short name -> solver strategy (the five auto-sweep moves)."""


@dataclass(frozen=True)
class SolverMove:
    """One entry of the Solver menu: a strategy in a player's words."""

    strategy: str
    title: str
    line: str


SOLVER_MOVES: tuple[SolverMove, ...] = (
    SolverMove("inference", N_("Play a safe move"),
               N_("Opens a cell the solver proves safe, or flags a proven mine.")),
    SolverMove("deterministic", N_("Play an obvious move"),
               N_("Flags or clears around a number whose count settles it.")),
    SolverMove("probability", N_("Play the best guess"),
               N_("Opens the cell least likely to hold a mine.")),
    SolverMove("auto", N_("Play one move"),
               N_("An obvious move, else a safe one, else a random guess.")),
    SolverMove("random", N_("Open a random cell"),
               N_("A blind guess, as a beginner would.")),
)
"""The Solver menu, most useful first (in English: the menu translates it); every
move marks the game assisted."""

@dataclass(frozen=True)
class Solver:
    """What the app uses of :mod:`fastmine.solver`."""

    step: Callable[[Game, str], object]
    """Make one move of a strategy (one of :data:`STRATEGIES`' values) on a game."""
    probabilities: Callable[[np.ndarray, int], np.ndarray]
    """P(mine) of every cell of a view with that many mines (NaN where revealed)."""
    safe_cells: Callable[[np.ndarray, int], np.ndarray]
    """The cells of a view that are certainly safe."""


_solver: Solver | None = None
_solver_error: str | None = None


def solver() -> Solver | None:
    """The solver's ``step``, ``probabilities`` and ``safe_cells``, or None
    (see :func:`unavailable_reason`)."""
    global _solver, _solver_error
    if _solver is None and _solver_error is None:
        try:
            mod = importlib.import_module("fastmine.solver")
            _solver = Solver(step=mod.step, probabilities=mod.probabilities,
                             safe_cells=mod.safe_cells)
        except (ImportError, AttributeError) as exc:
            _solver_error = _("the solver is not available ({why})").format(why=exc)
    return _solver


def available() -> bool:
    """True when the assist buttons can work."""
    return solver() is not None


def unavailable_reason() -> str:
    """Why :func:`available` is False ("" when it is True)."""
    solver()
    return _solver_error or ""


def step(game: Game, strategy: str) -> np.ndarray:
    """Let the solver make one move with ``strategy``; returns the changed cells.

    The changed cells are found by comparing the view before and after, so
    this works whatever the solver's ``step`` returns.  Marks the game assisted.
    """
    s = solver()
    if s is None:
        raise RuntimeError(unavailable_reason())
    before = game.view.copy()
    s.step(game, strategy)
    game.assisted = True
    return np.argwhere(game.view != before)


def probabilities(game: Game) -> np.ndarray | None:
    """P(mine) per cell (NaN where revealed), or None before the first move."""
    s = solver()
    if s is None or game.state is not GameState.PLAYING:
        return None
    return np.asarray(s.probabilities(game.view, game.mine_count), float)


@dataclass(frozen=True)
class Hint:
    """A suggested cell: certainly safe (``p == 0``), or the safest guess."""

    row: int
    col: int
    p: float
    certain: bool

    def message(self, transposed: bool = False) -> str:
        """What to tell the player; ``transposed``: the board is drawn turned,
        so the row and column named are those the player sees (counted from
        the top left of the drawing), not the game's.

        >>> Hint(6, 17, 0.0, True).message(), Hint(6, 17, 0.0, True).message(transposed=True)
        ('Safe: row 7, column 18.', 'Safe: row 18, column 7.')
        """
        r, c = (self.col, self.row) if transposed else (self.row, self.col)
        if self.certain:
            return _("Safe: row {row}, column {col}.").format(row=r + 1, col=c + 1)
        return _("No certain move. Safest guess: row {row}, column {col} ({percent} chance of a "
                 "mine).").format(row=r + 1, col=c + 1, percent=fmt_percent(self.p))


def _as_cells(found: ArrayLike, shape: tuple[int, ...]) -> np.ndarray:
    a = np.asarray(found)
    if a.dtype == bool and a.shape == shape:
        return np.argwhere(a)
    return a.reshape(-1, 2).astype(np.intp) if a.size else np.empty((0, 2), np.intp)


def hint(game: Game, near: tuple[int, int] | None = None) -> Hint | None:
    """A certainly safe unrevealed cell (the nearest to ``near``), else the
    lowest-probability one; None when there is nothing to suggest."""
    if game.state.is_over:
        return None
    rows, cols = game.rows, game.cols
    near = near or (rows // 2, cols // 2)
    if game.state is GameState.READY:
        if game.rule == "none":
            return Hint(near[0], near[1], game.mine_count / (rows * cols), False)
        return Hint(near[0], near[1], 0.0, True)  # the first click is safe by rule
    s = solver()
    if s is None:
        raise RuntimeError(unavailable_reason())
    view = game.view
    unknown = (view == HIDDEN) | (view == QUESTION)
    safe = _as_cells(s.safe_cells(view, game.mine_count), view.shape)
    if len(safe):
        safe = safe[unknown[safe[:, 0], safe[:, 1]]]
    if len(safe):
        d = np.abs(safe - np.array(near)).max(axis=1)
        r, c = safe[int(np.argmin(d))]
        return Hint(int(r), int(c), 0.0, True)
    p = probabilities(game)
    if p is None:
        return None
    p = np.where(unknown & (view != FLAG) & ~np.isnan(p), p, np.inf)
    if not np.isfinite(p).any():
        return None
    best = np.argwhere(p <= p.min() + 1e-9)
    r, c = best[int(np.argmin(np.abs(best - np.array(near)).max(axis=1)))]
    return Hint(int(r), int(c), float(p[r, c]), bool(p[r, c] == 0))
