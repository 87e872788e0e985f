"""Fast local logic: the cells that simple rules prove safe or mined.

The kernel (:mod:`fastmine.solver._logic`) applies, to a fixpoint:

* the single-cell rules: a number whose remaining mines are 0 makes its other
  unknown neighbours safe; one whose remaining mines equal its unknown
  neighbours makes them all mines;
* the pair rule: for two numbers at most two cells apart, the cells only the
  first sees, the cells they share and the cells only the second sees hold
  ``x``, ``s`` and ``y`` mines with ``x + s`` and ``s + y`` known; whatever
  the feasible range forces is certain (this covers the subset rule and the
  1-2-1 / 1-2-2-1 patterns);
* the global mine-count rule (no mines left, or every unknown cell a mine).

This is sound but not complete.  :func:`solves` falls back to the exact
engine (:func:`fastmine.solver.safe_cells`) whenever the local rules are stuck,
which makes it complete: a board passes exactly when it can be cleared from the
first click by logic alone, mine count included.

>>> import numpy as np
>>> view = np.array([[1, 1, 1], [-1, -1, -1]], np.int8)   # 1-1-1 above a hidden row
>>> safe, mines = local_deductions(view, 1)
>>> safe.astype(int).tolist(), mines.astype(int).tolist()
([[0, 0, 0], [1, 0, 1]], [[0, 0, 0], [0, 1, 0]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .. import viewcodes
from .._validate import check_mines, check_point, check_view_shape, integer_dtype
from ..board import Board
from ._logic import Logic

__all__ = ["local_deductions", "solves", "check_view"]

_MIN_CODE = min(viewcodes.VIEW_CODES)


def check_view(view: object, mines: object) -> tuple[np.ndarray, int]:
    """Validate a game view and mine count; returns ``(int8 view, mines)``."""
    if isinstance(view, (str, bytes)):
        raise TypeError("view must be a 2-D array of view codes, not a string")
    try:
        arr = np.asarray(view)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"view must be a rectangular 2-D array: {exc}") from None
    if not integer_dtype(arr.dtype):
        raise TypeError(f"view must hold integer view codes, got dtype {arr.dtype}")
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"view must be a non-empty 2-D array, got shape {arr.shape}")
    check_view_shape(arr.shape)       # before min/max read a huge broadcast view
    if arr.size and (arr.min() < _MIN_CODE or arr.max() > 8):
        raise ValueError(f"view codes must be 0..8 or {_MIN_CODE}..-1 (fastmine.viewcodes)")
    mines = check_mines(mines, *arr.shape)
    return np.ascontiguousarray(arr, dtype=np.int8), mines


def local_deductions(view: object, mines: int) -> tuple[np.ndarray, np.ndarray]:
    """Cells the local rules prove safe and mined: two bool arrays like ``view``.

    Flags and question marks are not evidence: they count as unknown cells.
    """
    arr, mines = check_view(view, mines)
    return _local(Logic(*arr.shape), arr, mines)


def _local(solver: Logic, view: np.ndarray, mines: int) -> tuple[np.ndarray, np.ndarray]:
    # Trusted inputs: a Logic of the view's size and an int8 C-contiguous view.
    solver.load_view(view, mines)
    solver.run()
    safe_p, mine_p = solver.found()
    rows, cols = view.shape
    out = np.zeros((2, (rows + 2) * (cols + 2)), bool)
    out[0, safe_p] = True
    out[1, mine_p] = True
    out = out.reshape(2, rows + 2, cols + 2)[:, 1:-1, 1:-1]
    return out[0], out[1]


def exact_safe(view: np.ndarray, mines: int) -> np.ndarray:
    """Padded indices of the cells the exact engine proves safe in ``view``.

    ``view`` holds numbers and ``-1`` only.
    """
    from .probability import analyze

    r, c = np.nonzero(analyze(view, mines).safe)
    out: NDArray[np.intp] = ((r + 1) * (view.shape[1] + 2) + c + 1).astype(np.intp)
    return out


def _direct(kind: str, fn: Callable[..., Any], *args: Any) -> Any:
    return fn(*args)


def run_to_end(solver: Logic, mines: int, complete: bool,
               step: Callable[..., Any] = _direct) -> bool:
    """Board mode: run the rules, asking the exact engine when stuck.

    Returns True when every safe cell has been revealed by logic.  ``step``
    runs each piece of work (``step(kind, fn, *args)``, kind ``"rules"`` or
    ``"exact"``): the no-guess generator passes one that keeps its deadline.
    """
    while not step("rules", solver.run):
        if not complete:
            return False
        safe = step("exact", exact_safe, solver.view(), mines)
        if len(safe) == 0:
            return False
        solver.mark_safe(safe)
    return True


def solves(board: Board, first_click: tuple[int, int], *, complete: bool = True) -> bool:
    """True when ``board`` can be cleared from ``first_click`` without guessing.

    ``complete=False`` uses the local rules only (faster; may say False for a
    board that global reasoning would solve).  A mine at ``first_click`` is False.

    >>> b = Board.from_mines([[0, 0, 0], [0, 0, 0], [0, 0, 1]])
    >>> solves(b, (0, 0))
    True
    """
    if not isinstance(board, Board):
        raise TypeError(f"solves needs a fastmine.Board, got {type(board).__name__}")
    r, c = check_point(board.rows, board.cols, first_click)
    p = (r + 1) * (board.cols + 2) + c + 1
    if board._pm[p]:
        return False
    solver = Logic(board.rows, board.cols)
    solver.load_board(board._pm, board._pc, board.mine_count)
    solver.reveal(p)
    return run_to_end(solver, board.mine_count, complete)
