"""No-guess boards: boards that can be cleared from the first click by logic alone.

Two methods, chosen by :func:`generate`:

``"rejection"``
    Lay mines with the ``opening`` first-click rule (``cell`` when the board is
    too dense for an opening), run the logical solver from the first click, and
    start over with a fresh board until one is solved.  The solver is complete
    (local rules, then the exact engine's certain cells when those are stuck,
    mine count included), so the result is **uniform over all no-guess boards**
    with that first click -- the best kind.  Fast while a fair share of random
    boards is solvable: measured on one core, about 10 % of Expert boards
    opened in the middle, 5 % of 50x50 boards with 500 mines.

``"adjust"``
    Lay a random board and solve; whenever the solver is stuck, pick a stuck
    number at random and *move mines*: its hidden mined neighbours move into the
    unreachable interior (hidden cells that touch no revealed cell), which makes
    the number's other neighbours provably safe; when the interior has no room,
    the opposite (its hidden safe neighbours become mines taken from the
    interior).  Then solve on.  When the solver finishes, the board is checked
    again from the first click, from scratch; if that check gets stuck, adjusting
    continues from there.  Works at densities where almost no random board is
    solvable, but the boards are **not uniform** (the mines are pushed away from
    where the solver happened to be stuck).  It uses the local rules only.

``"auto"`` (the default) tries rejection for :data:`REJECTION_ATTEMPTS`
boards and then switches to adjusting -- sooner, after :data:`PROBE_ATTEMPTS`
boards, when the solver cleared less than half of the safe cells on average
before getting stuck (then well under 1 % of boards are solvable).  The switch
depends on the boards tried only, never on the clock, so the same seed gives the
same board on any machine.

Measured acceptance (first click opening in the centre, complete solver):
Expert 16x30/99 18 %, 30x30/200 6 %, 50x50/500 10 %, 16x30/110 4.5 %,
25x25/150 0.7 %, 16x30/120 0.3 %, and 0 for 50x50/600 and ``hell`` (25x25/188).
So rejection serves every classic preset and 50x50/500; adjusting serves the
dense ones.

A time bound makes sure nothing hangs: past ``time_limit`` seconds
:class:`fastmine.NoGuessTimeoutError` is raised.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np

from .._validate import check_mines, check_point, check_seed, check_size
from ..board import Board, opening_fits
from ..errors import NoGuessTimeoutError
from ._logic import Logic
from .logic import run_to_end

__all__ = ["generate", "REJECTION_ATTEMPTS", "PROBE_ATTEMPTS", "METHODS", "DEFAULT_TIME_LIMIT"]

REJECTION_ATTEMPTS = 300
"""Boards tried by rejection sampling before ``method="auto"`` adjusts instead."""

PROBE_ATTEMPTS = 40
"""After this many failed boards, ``"auto"`` adjusts if the solver got less than
half way on average (rejection would take thousands of boards)."""

METHODS = ("auto", "rejection", "adjust")
"""Accepted values of ``generate(method=...)``."""

DEFAULT_TIME_LIMIT = 10.0
"""Seconds :func:`generate` may take before it raises NoGuessTimeoutError."""

_K_UNKNOWN = -1


def generate(
    rows: int,
    cols: int,
    mines: int,
    first_click: tuple[int, int],
    seed: int | np.random.Generator | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    method: str = "auto",
) -> Board:
    """A random board solvable from ``first_click`` without guessing.

    The first click always opens (is a zero) unless the board is too dense for
    that, then it is only safe.  The same ``seed`` gives the same board.
    Raises :class:`fastmine.NoGuessTimeoutError` when no such board was found
    within ``time_limit`` seconds (very dense boards may have none at all).

    >>> from fastmine.solver.logic import solves
    >>> b = generate(9, 9, 10, (4, 4), seed=1)
    >>> b.mine_count, solves(b, (4, 4))
    (10, True)
    """
    rows, cols = check_size(rows, cols)
    mines = check_mines(mines, rows, cols)
    fr, fc = check_point(rows, cols, first_click)
    seed = check_seed(seed)
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise TypeError(f"time_limit must be a number of seconds, got {time_limit!r}")
    if not time_limit > 0 or math.isnan(time_limit):
        raise ValueError(f"time_limit must be positive, got {time_limit!r}")
    if method not in METHODS:
        if not isinstance(method, str):
            raise TypeError(f"method must be a string, one of {METHODS}")
        raise ValueError(f"unknown no-guess method {method!r}; choose one of {METHODS}")

    radius = 1 if opening_fits(rows, cols, mines, fr, fc) else 0
    rng = random.Random(seed)
    deadline = time.perf_counter() + time_limit
    gen = _Generator(rows, cols, mines, fr, fc, radius, rng, deadline, time_limit)
    if method in ("auto", "rejection"):
        board = gen.rejection(auto=method == "auto")
        if board is not None:
            return board
    while True:
        board = gen.adjust()
        if board is not None:
            return board


class _Generator:
    """One no-guess search: its parameters, random stream, solver and deadline."""

    def __init__(self, rows, cols, mines, fr, fc, radius, rng, deadline, time_limit):
        self.rows, self.cols, self.mines = rows, cols, mines
        self.fr, self.fc, self.radius = fr, fc, radius
        self.start = (fr + 1) * (cols + 2) + fc + 1
        self.rng = rng
        self.deadline = deadline
        self.time_limit = time_limit
        self.solver = Logic(rows, cols)

    def _check_time(self) -> None:
        if time.perf_counter() > self.deadline:
            raise NoGuessTimeoutError(
                f"no {self.rows}x{self.cols} board with {self.mines} mines solvable without "
                f"guessing from ({self.fr}, {self.fc}) was found in {self.time_limit:g} s; "
                f"try fewer mines or a longer time_limit")

    def _lay(self) -> Board:
        return Board._lay(self.rows, self.cols, self.mines, self.fr, self.fc, self.radius,
                          self.rng.getrandbits(64))

    def rejection(self, auto: bool) -> Board | None:
        """Uniform sampling: fresh boards until one is solved.

        With ``auto``, gives up (None) as the module docstring describes.
        """
        solver = self.solver
        tried = 0
        progress = 0.0
        safe = self.rows * self.cols - self.mines
        while True:
            if auto and (tried >= REJECTION_ATTEMPTS
                         or (tried == PROBE_ATTEMPTS and progress < 0.5 * tried)):
                return None
            self._check_time()
            board = self._lay()
            solver.load_board(board._pm, board._pc, self.mines)
            solver.reveal(self.start)
            if run_to_end(solver, self.mines, complete=True):
                return board
            tried += 1
            progress += 1.0 - solver.safe_left / safe

    def adjust(self) -> Board | None:
        """Move mines away from where the solver is stuck (None: start a new board)."""
        solver = self.solver
        board = self._lay()
        pm = board._pm.copy()
        pc = board._pc.copy()
        W = self.cols + 2
        shape = (self.rows + 2, W)
        verified = True
        solver.load_board(pm, pc, self.mines)
        solver.reveal(self.start)
        while True:
            self._check_time()
            if solver.run():
                if verified:
                    return Board._from_padded(pm, pc, self.rows, self.cols, self.mines)
                # Moving mines may have invalidated an earlier deduction: re-check
                # from the first click, and keep adjusting from where that stops.
                solver.load_board(pm, pc, self.mines)
                solver.reveal(self.start)
                verified = True
                continue
            if not self._perturb(pm, pc, shape):
                return None
            solver.set_counts(pc)
            verified = False

    def _perturb(self, pm: np.ndarray, pc: np.ndarray, shape: tuple[int, int]) -> bool:
        solver = self.solver
        kn = solver.knowledge()
        revealed = (kn >= 0) & (kn <= 8)
        near = np.zeros(shape, bool)
        r2 = revealed.reshape(shape)
        # Cells touching a revealed cell (3x3 dilation; the ring is never revealed).
        near[:-1, :] |= r2[1:, :]
        near[1:, :] |= r2[:-1, :]
        near2 = near | r2
        near = near2.copy()
        near[:, :-1] |= near2[:, 1:]
        near[:, 1:] |= near2[:, :-1]
        interior = (kn == _K_UNKNOWN) & ~near.ravel()
        free = np.flatnonzero(interior & (pm == 0))
        full = np.flatnonzero(interior & (pm == 1))
        numbers = solver.frontier_numbers()
        if len(numbers) == 0:
            return False
        W = shape[1]
        offs = np.array([-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1])
        order = list(numbers)
        self.rng.shuffle(order)
        for a in order:
            nbrs = a + offs
            hidden = nbrs[kn[nbrs] == _K_UNKNOWN]
            mined = hidden[pm[hidden] == 1]
            clear = hidden[pm[hidden] == 0]
            if 0 < len(mined) <= len(free):
                dest = self.rng.sample(list(free), len(mined))
                self._move(pm, pc, mined, dest, offs)
                return True
            if 0 < len(clear) <= len(full):
                src = self.rng.sample(list(full), len(clear))
                self._move(pm, pc, src, clear, offs)
                return True
        return False

    @staticmethod
    def _move(pm, pc, src, dest, offs) -> None:
        for p in src:
            pm[p] = 0
            pc[p + offs] -= 1
        for p in dest:
            pm[p] = 1
            pc[p + offs] += 1
