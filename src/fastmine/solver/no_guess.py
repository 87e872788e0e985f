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

A time bound makes sure nothing hangs: :class:`fastmine.NoGuessTimeoutError`
is raised rather than pass ``time_limit`` seconds.  A step of the search is
not started when the longest step of its kind so far would end past the
deadline (on a 5000 x 5000 board one exact step takes seconds), so the limit
holds to within one step's variation.

Some games have no no-guess board at all, whatever the time: on a board two
cells wide, the two cells across the narrow side touch exactly the same cells,
so nothing can ever tell them apart -- unless both are mines or both safe.  So
a 2 x N board whose first click opens needs an even mine count.  And a game
with few ways to lay its mines (a small board, or one nearly full of mines:
3 x 3 with 7 mines) may have none that logic clears: those are tried one by
one, up to :data:`EXHAUSTIVE_LAYOUTS` layouts.  :func:`impossible` says so up
front (``Game(..., rule="no_guess")`` and :func:`generate` refuse such games
with a ValueError at once); beyond what it can try, the time limit says it.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import numpy as np

from .._validate import check_mines, check_point, check_seed, check_size
from ..board import Board, _register_rule, opening_fits
from ..errors import NoGuessTimeoutError
from ._logic import Logic
from .logic import run_to_end

_T = TypeVar("_T")

__all__ = ["generate", "impossible", "check_possible", "REJECTION_ATTEMPTS", "PROBE_ATTEMPTS",
           "METHODS", "DEFAULT_TIME_LIMIT", "EXHAUSTIVE_LAYOUTS"]

REJECTION_ATTEMPTS = 300
"""Boards tried by rejection sampling before ``method="auto"`` adjusts instead."""

PROBE_ATTEMPTS = 40
"""After this many failed boards, ``"auto"`` adjusts if the solver got less than
half way on average (rejection would take thousands of boards)."""

METHODS = ("auto", "rejection", "adjust")
"""Accepted values of ``generate(method=...)``."""

DEFAULT_TIME_LIMIT = 10.0
"""Seconds :func:`generate` may take before it raises NoGuessTimeoutError."""

EXHAUSTIVE_LAYOUTS = 1000
"""The most mine layouts :func:`impossible` tries, one by one, to find a game
impossible (for one first click, or for all of them together): a few tenths of
a second at most, once per size (the answers are kept)."""

_K_UNKNOWN = -1

_clock = time.perf_counter   # the search's clock (a module attribute: tests replace it)


def _has_twins(rows: int, cols: int) -> bool:
    """True if some cells of a rows x cols board have equal closed neighbourhoods:
    only boards at most 2 x 2, and boards two cells across."""
    return max(rows, cols) <= 2 or min(rows, cols) == 2


def _twin_classes_left(rows: int, cols: int, fr: int, fc: int, radius: int) -> list[int] | None:
    """Sizes of the groups of indistinguishable cells left after the first click.

    Two cells whose closed neighbourhoods are equal ("twins") show nothing
    that tells them apart; that happens only on boards at most two cells
    across.  None when the board has no twins.  A group's cells revealed at
    the start (the first click, or its 3x3 block when it opens) leave it.
    """
    if not _has_twins(rows, cols):
        return None

    def start(r: int, c: int) -> bool:
        return abs(r - fr) <= radius and abs(c - fc) <= radius

    if rows <= 2 and cols <= 2:
        return [sum(not start(r, c) for r in range(rows) for c in range(cols))]
    if cols == 2:       # the same as its transpose (start() is symmetric)
        rows, cols, fr, fc = cols, rows, fc, fr
    # Columns of two: only the few near the click differ; the rest are whole pairs.
    near = range(max(fc - 1, 0), min(fc + 2, cols))
    return [2] * (cols - len(near)) + [sum(not start(r, c) for r in (0, 1)) for c in near]


def _reachable(sizes: list[int], total: int) -> bool:
    """True if some of ``sizes`` (each used at most once) add up to ``total``."""
    reach = 1                     # bit k: a sum of k is possible
    counts: dict[int, int] = {}
    for s in sizes:
        if s:
            counts[s] = counts.get(s, 0) + 1
    mask = (1 << (total + 1)) - 1
    for s, k in counts.items():
        # k copies of s by binary splitting: 1, 2, 4, ... copies at a time
        take = 1
        while k > 0:
            t = min(take, k)
            reach = (reach | (reach << (s * t))) & mask
            k -= t
            take *= 2
    return bool(reach >> total & 1)


def _mines(n: int) -> str:
    return "1 mine" if n == 1 else f"{n} mines"


def _twins_at(rows: int, cols: int, mines: int, fr: int, fc: int) -> str | None:
    radius = 1 if opening_fits(rows, cols, mines, fr, fc) else 0
    sizes = _twin_classes_left(rows, cols, fr, fc, radius)
    if sizes is None or _reachable(sizes, mines):
        return None
    pairs = "cell pairs across the narrow side" if min(rows, cols) == 2 and max(rows, cols) > 2 \
        else "cells"
    return (f"no {rows}x{cols} board with {_mines(mines)} can be solved without guessing from "
            f"({fr}, {fc}): its {pairs} touch the same cells, so each must be all mines or "
            f"all safe, and {_mines(mines)} cannot be laid that way")


def _radius(rows: int, cols: int, mines: int, fr: int, fc: int) -> int:
    """1 when the first click's 3x3 block stays clear (the mines fit outside it), else 0."""
    return 1 if opening_fits(rows, cols, mines, fr, fc) else 0


def _free_cells(rows: int, cols: int, mines: int, fr: int, fc: int) -> int:
    """How many cells the generator may mine for this first click (no list made)."""
    radius = _radius(rows, cols, mines, fr, fc)
    block = ((min(fr + radius, rows - 1) - max(fr - radius, 0) + 1)
             * (min(fc + radius, cols - 1) - max(fc - radius, 0) + 1))
    return rows * cols - block


def _comb_over(n: int, k: int, cap: int) -> int:
    """``math.comb(n, k)``, or ``cap + 1`` as soon as it is known to pass ``cap``.

    A few multiplications at most: the exact count of a large board is a number
    of thousands of digits that nobody needs.
    """
    k = min(k, n - k)
    if k < 0:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)      # exact: a product of i+1 consecutive numbers
        if out > cap:
            return cap + 1
    return out


def _layout_count(rows: int, cols: int, mines: int, fr: int, fc: int,
                  cap: int = EXHAUSTIVE_LAYOUTS) -> int:
    """How many ways to lay the mines for this first click, up to ``cap + 1``."""
    return _comb_over(_free_cells(rows, cols, mines, fr, fc), mines, cap)


def _layouts(rows: int, cols: int, mines: int, fr: int, fc: int) -> list[int]:
    """The cells the generator may mine for this first click (the first click's
    3x3 block stays clear when it fits, as :meth:`fastmine.Board.generate` lays
    them).  Listed only when :func:`_layout_count` found few layouts."""
    radius = _radius(rows, cols, mines, fr, fc)
    return [r * cols + c for r in range(rows) for c in range(cols)
            if abs(r - fr) > radius or abs(c - fc) > radius]


_SOLVES_KEPT = 256
_solves_known: dict[tuple[int, int, int, int, int], bool] = {}
"""Answers of :func:`_some_layout_solves` (only finished ones), the oldest dropped first."""


def _some_layout_solves(rows: int, cols: int, mines: int, fr: int, fc: int,
                        deadline: float | None = None) -> bool:
    """True when logic clears at least one of the layouts of :func:`_layouts`
    (every one is tried: call only when there are few).

    Raises :class:`fastmine.NoGuessTimeoutError` past ``deadline`` (of
    ``_clock``); an answer cut short is not kept.
    """
    key = (rows, cols, mines, fr, fc)
    known = _solves_known.get(key)
    if known is not None:
        return known
    from .logic import solves

    found = False
    for mined in itertools.combinations(_layouts(rows, cols, mines, fr, fc), mines):
        if deadline is not None and _clock() > deadline:
            raise NoGuessTimeoutError(
                f"the check whether a {rows}x{cols} board with {_mines(mines)} can be solved "
                "without guessing did not finish within its time limit; try fewer mines, a "
                "smaller board or a longer time_limit")
        mask = np.zeros(rows * cols, bool)
        mask[list(mined)] = True
        if solves(Board.from_mines(mask.reshape(rows, cols)), (fr, fc)):
            found = True
            break
    if len(_solves_known) >= _SOLVES_KEPT:
        del _solves_known[next(iter(_solves_known))]
    _solves_known[key] = found
    return found


def _impossible_at(rows: int, cols: int, mines: int, fr: int, fc: int,
                   deadline: float | None = None) -> str | None:
    reason = _twins_at(rows, cols, mines, fr, fc)
    if reason is not None:
        return reason
    n = _layout_count(rows, cols, mines, fr, fc)
    if n > EXHAUSTIVE_LAYOUTS or _some_layout_solves(rows, cols, mines, fr, fc, deadline):
        return None
    return (f"no {rows}x{cols} board with {_mines(mines)} can be solved without guessing from "
            f"({fr}, {fc}): none of the {n} ways to lay the mines around that first click "
            "can be cleared by logic alone")


def _first_clicks(rows: int, cols: int) -> Iterator[tuple[int, int]]:
    """One first click of each kind, row by row: the others are mirror images (or
    turned, on a square board) of these, and have the same layouts mirrored.

    The clicks of the top-left quarter (and on a square board, its part on and
    above the diagonal): made one at a time, so a caller that stops early
    never walks the whole board.
    """
    for r in range((rows + 1) // 2):
        for c in range(r if rows == cols else 0, (cols + 1) // 2):
            yield r, c


def _impossible_everywhere(rows: int, cols: int, mines: int,
                           deadline: float | None = None) -> str | None:
    """Why no first click can work, by trying every layout, when there are few.

    Stops counting as soon as the layouts pass :data:`EXHAUSTIVE_LAYOUTS`: at
    most that many first clicks are looked at, whatever the board's size.
    """
    clicks = []
    total = 0
    for r, c in _first_clicks(rows, cols):
        total += _layout_count(rows, cols, mines, r, c)
        if total > EXHAUSTIVE_LAYOUTS:
            return None
        clicks.append((r, c))
    if any(_some_layout_solves(rows, cols, mines, r, c, deadline) for r, c in clicks):
        return None
    return (f"no {rows}x{cols} board with {_mines(mines)} can be solved without guessing, "
            f"from any first click: none of its {total} ways to lay the mines (each first "
            "click, up to mirror images) can be cleared by logic alone")


def _check_time_limit(time_limit: object) -> float:
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise TypeError(f"time_limit must be a number of seconds, got {time_limit!r}")
    if not time_limit > 0 or math.isnan(time_limit):
        raise ValueError(f"time_limit must be positive, got {time_limit!r}")
    return float(time_limit)


def impossible(rows: int, cols: int, mines: int,
               first_click: tuple[int, int] | None = None, *,
               time_limit: float = DEFAULT_TIME_LIMIT) -> str | None:
    """Why no board of this size is solvable without guessing, or None.

    With ``first_click`` None: None when at least one first click could work.
    None means only "not known to be impossible": a dense board may still
    have no no-guess board, which :func:`generate` reports by its time limit.

    The check's work is bounded whatever the board's size: it counts the ways
    to lay the mines (for at most :data:`EXHAUSTIVE_LAYOUTS` first clicks, a
    few multiplications each) and tries them only when there are at most
    that many.  Trying them stops at ``time_limit`` seconds with
    :class:`fastmine.NoGuessTimeoutError`.

    >>> impossible(2, 10, 1) is not None, impossible(2, 10, 2), impossible(9, 9, 10)
    (True, None, None)
    """
    rows, cols = check_size(rows, cols)
    mines = check_mines(mines, rows, cols)
    deadline = _clock() + _check_time_limit(time_limit)
    if first_click is not None:
        fr, fc = check_point(rows, cols, first_click)
        return _impossible_at(rows, cols, mines, fr, fc, deadline)
    if not _has_twins(rows, cols):
        return _impossible_everywhere(rows, cols, mines, deadline)
    # Thin boards: a click's class structure depends only on its distance to
    # the ends (up to 3) and the row/column across, so a few clicks cover all.
    along = max(rows, cols)
    reason = None
    for i in sorted({0, 1, 2, along // 2, along - 3, along - 2, along - 1}):
        if not 0 <= i < along:
            continue
        for j in range(min(rows, cols)):
            r, c = (j, i) if rows <= cols else (i, j)
            reason = _twins_at(rows, cols, mines, r, c)
            if reason is None:
                return _impossible_everywhere(rows, cols, mines, deadline)
    assert reason is not None   # the loops tried at least one click (rows, cols >= 1)
    return (f"no {rows}x{cols} board with {_mines(mines)} can be solved without guessing, "
            f"from any first click: {reason.split(': ', 1)[1]}")


def check_possible(rows: int, cols: int, mines: int,
                   first_click: tuple[int, int] | None = None, *,
                   time_limit: float = DEFAULT_TIME_LIMIT) -> None:
    """Raise ValueError (with the reason) when :func:`impossible` finds a reason.

    What a UI calls before it starts a no-guess game (``first_click`` None:
    is any first click possible?).  :class:`fastmine.NoGuessTimeoutError`
    when the check takes longer than ``time_limit`` seconds.
    """
    reason = impossible(rows, cols, mines, first_click, time_limit=time_limit)
    if reason is not None:
        raise ValueError(reason)


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
    time_limit = _check_time_limit(time_limit)
    if method not in METHODS:
        if not isinstance(method, str):
            raise TypeError(f"method must be a string, one of {METHODS}")
        raise ValueError(f"unknown no-guess method {method!r}; choose one of {METHODS}")

    # The check up front is part of the search's time: one limit for the whole call.
    deadline = _clock() + time_limit
    reason = _impossible_at(rows, cols, mines, fr, fc, deadline)
    if reason is not None:
        raise ValueError(reason)
    radius = _radius(rows, cols, mines, fr, fc)
    rng = random.Random(seed)
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

    def __init__(self, rows: int, cols: int, mines: int, fr: int, fc: int, radius: int,
                 rng: random.Random, deadline: float, time_limit: float) -> None:
        self.rows, self.cols, self.mines = rows, cols, mines
        self.fr, self.fc, self.radius = fr, fc, radius
        self.start = (fr + 1) * (cols + 2) + fc + 1
        self.rng = rng
        self.deadline = deadline
        self.time_limit = time_limit
        self.cost: dict[str, float] = {}     # longest step of each kind so far, seconds
        self.solver = Logic(rows, cols)

    def _timeout(self) -> NoGuessTimeoutError:
        return NoGuessTimeoutError(
            f"no {self.rows}x{self.cols} board with {self.mines} mines solvable without "
            f"guessing from ({self.fr}, {self.fc}) was found in {self.time_limit:g} s; "
            f"try fewer mines or a longer time_limit")

    def _check_time(self) -> None:
        if _clock() > self.deadline:
            raise self._timeout()

    def step(self, kind: str, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(*args)`` unless the longest step of this ``kind`` so far
        would end past the deadline (then NoGuessTimeoutError).  An unseen
        kind is estimated at twice the longest step of any kind."""
        start = _clock()
        cost = self.cost.get(kind)
        if cost is None:
            cost = 2.0 * max(self.cost.values(), default=0.0)
        if start + cost > self.deadline:
            raise self._timeout()
        out = fn(*args)
        took = _clock() - start
        if took > self.cost.get(kind, 0.0):
            self.cost[kind] = took
        return out

    def _lay(self) -> Board:
        return self.step("lay", Board._lay, self.rows, self.cols, self.mines, self.fr, self.fc,
                         self.radius, self.rng.getrandbits(64))

    def _start(self, pm: np.ndarray, pc: np.ndarray) -> None:
        self.step("start", self._load, pm, pc)

    def _load(self, pm: np.ndarray, pc: np.ndarray) -> None:
        self.solver.load_board(pm, pc, self.mines)
        self.solver.reveal(self.start)

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
            self._start(board._pm, board._pc)
            if run_to_end(solver, self.mines, complete=True, step=self.step):
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
        self._start(pm, pc)
        while True:
            self._check_time()
            if self.step("rules", solver.run):
                if verified:
                    return Board._from_padded(pm, pc, self.rows, self.cols, self.mines)
                # Moving mines may have invalidated an earlier deduction: re-check
                # from the first click, and keep adjusting from where that stops.
                self._start(pm, pc)
                verified = True
                continue
            if not self.step("perturb", self._perturb, pm, pc, shape):
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
    def _move(pm: np.ndarray, pc: np.ndarray, src: Iterable[int | np.integer[Any]],
              dest: Iterable[int | np.integer[Any]],
              offs: np.ndarray) -> None:
        for p in src:
            pm[p] = 0
            pc[p + offs] -= 1
        for p in dest:
            pm[p] = 1
            pc[p + offs] += 1


# Board.generate(rule="no_guess") and Game(rule="no_guess") use this module
# through the board's rule registry: the board cannot import the solver.
_register_rule("no_guess", sys.modules[__name__])
