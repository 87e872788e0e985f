"""Moves made at their recorded times: a game rebuilt with the player's clock.

A game's time runs from its first reveal to the move that ends it (see
:attr:`fastmine.Game.elapsed`), read from the clock the game was given.
:class:`ManualClock` is a clock its caller sets; :meth:`fastmine.Game.from_moves`
sets one to each move's recorded time before making the move, so the rebuilt
game's time, and the game time :attr:`fastmine.Game.moves` logs for each move,
are the player's.

>>> import fastmine
>>> board = fastmine.Board.from_mines([[0, 0, 1], [0, 0, 0]])
>>> g = fastmine.Game.from_moves(board, [("mark", 0, 2, 500), ("reveal", 0, 0, 1200),
...                                      ("reveal", 1, 2, 3450)], rule="opening")
>>> g.state.value, g.elapsed, g.rule
('won', 2.25, 'opening')
>>> g.moves[:, 3].tolist()          # game time: 0 at the first reveal
[0, 0, 2250]
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from ._validate import is_integer
from .board import Board, Rule
from .gameformat import MAX_SAVED_SECONDS
from .movelog import KIND_BITS, MOVE_ASSIST, MOVE_CHORD, MOVE_MARK, MOVE_MARK_PLAIN, MOVE_REVEAL

if TYPE_CHECKING:
    from .game import Game

__all__ = ["MAX_MOVE_MS", "ManualClock", "TIMED_KINDS"]

TIMED_KINDS = ("reveal", "mark", "chord")
"""Move kinds by name that :meth:`fastmine.Game.from_moves` takes (a mark is one
right click: it cycles flag, ?, none as the game's ``question_marks`` says)."""

MAX_MOVE_MS = MAX_SAVED_SECONDS * 1000
"""Latest move time accepted, in milliseconds (as a save holds)."""


class ManualClock:
    """A clock for ``Game(clock=...)`` that reads the time it was last set to.

    Parameters
    ----------
    now : float
        The time it reads, in seconds, until set again.

    Examples
    --------
    >>> clock = ManualClock()
    >>> clock.now = 2.5
    >>> clock()
    2.5
    """

    def __init__(self, now: float = 0.0) -> None:
        self.now = float(now)

    def __call__(self) -> float:
        return self.now

    def __repr__(self) -> str:
        return f"ManualClock(now={self.now!r})"


_NAMES = {"reveal": MOVE_REVEAL, "chord": MOVE_CHORD}


def _kind(kind: object, question_marks: bool, i: int) -> int:
    """A move's kind as the move log's number (see :mod:`fastmine.movelog`)."""
    kind = getattr(kind, "value", kind)         # an enum of kinds is fine too
    if isinstance(kind, str):
        if kind == "mark":
            return MOVE_MARK if question_marks else MOVE_MARK_PLAIN
        if kind in _NAMES:
            return _NAMES[kind]
    elif (is_integer(kind)
          and 0 <= kind < 2 * MOVE_ASSIST and (kind & KIND_BITS) <= MOVE_MARK_PLAIN):
        return int(kind)
    raise ValueError(f"move {i} has an unknown kind {kind!r:.40}; choose one of {TIMED_KINDS} "
                     f"or a move log's number 0-{2 * MOVE_ASSIST - 1}")


def _time(ms: object, i: int) -> float:
    if isinstance(ms, (bool, np.bool_)) or not isinstance(ms, (int, float, np.integer,
                                                               np.floating)):
        raise TypeError(f"move {i} must give its time as a number of milliseconds, "
                        f"got {ms!r:.40}")
    if isinstance(ms, (int, np.integer)) and not 0 <= ms <= MAX_MOVE_MS:
        raise ValueError(f"move {i} is at {ms} ms: a time is 0 to {MAX_MOVE_MS:.0f} ms")
    t = float(ms)
    if not (math.isfinite(t) and 0 <= t <= MAX_MOVE_MS):
        raise ValueError(f"move {i} is at {ms!r:.40} ms: a time is 0 to {MAX_MOVE_MS:.0f} ms")
    return t


def _cell(value: object, what: str, i: int) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"move {i} must give its {what} as an integer, not a bool")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # anything else: TypeError
    except TypeError:
        raise TypeError(f"move {i} must give its {what} as an integer, got {value!r:.40}"
                        ) from None


def parse(moves: Iterable[Any], rows: int, cols: int, question_marks: bool
          ) -> list[tuple[int, int, int, float]]:
    """Every move as ``(kind, row, col, ms)``, checked: a known kind, a cell on
    the board, a time from 0 that never goes back.  Raises ValueError or
    TypeError naming the first bad move (counted from 0)."""
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
        raise TypeError(f"moves must be (kind, row, col, ms) rows, got {type(moves).__name__}")
    out: list[tuple[int, int, int, float]] = []
    last = 0.0
    mark = MOVE_MARK if question_marks else MOVE_MARK_PLAIN
    for i, m in enumerate(moves):
        # The common case first: a tuple of a kind and three plain ints, all
        # good (a video's moves, a move log's rows); anything else, or anything
        # wrong, goes through the checks below, which name the fault.
        if type(m) is tuple and len(m) == 4:
            k, r, c, ms = m
            if type(r) is int and type(c) is int and type(ms) is int \
                    and 0 <= r < rows and 0 <= c < cols and last <= ms <= MAX_MOVE_MS:
                if type(k) is str:
                    kind = mark if k == "mark" else _NAMES.get(k, -1)
                elif type(k) is int and 0 <= k < 2 * MOVE_ASSIST \
                        and (k & KIND_BITS) <= MOVE_MARK_PLAIN:
                    kind = k
                else:
                    kind = -1
                if kind >= 0:
                    last = float(ms)
                    out.append((kind, r, c, last))
                    continue
        if isinstance(m, (str, bytes)) or not hasattr(m, "__len__") or len(m) != 4:
            raise TypeError(f"move {i} must be (kind, row, col, ms), got {m!r:.60}")
        kind = _kind(m[0], question_marks, i)
        r, c = _cell(m[1], "row", i), _cell(m[2], "column", i)
        if not (0 <= r < rows and 0 <= c < cols):
            raise ValueError(f"move {i} is at ({r}, {c}), off the {rows}x{cols} board")
        t = _time(m[3], i)
        if t < last:
            raise ValueError(f"times go backwards: move {i} is at {m[3]!r:.40} ms, after "
                             f"{last:g} ms")
        last = t
        out.append((kind, r, c, t))
    return out


def play(cls: type[Game], board: Board, moves: Iterable[Any], rule: Rule,
         question_marks: bool, end_ms: object) -> Game:
    """:meth:`fastmine.Game.from_moves` (which documents it)."""
    if not isinstance(board, Board):
        raise TypeError(f"from_moves needs a fastmine.Board, got {type(board).__name__}")
    if not isinstance(question_marks, (bool, np.bool_)):
        raise TypeError("question_marks must be True or False")
    timed = parse(moves, board.rows, board.cols, bool(question_marks))
    end = None if end_ms is None else _time(end_ms, len(timed))
    if end is not None and timed and end < timed[-1][3]:
        raise ValueError(f"end_ms ({end_ms!r:.40}) is before the last move "
                         f"({timed[-1][3]:g} ms)")
    clock = ManualClock()
    game = cls.from_board(board, rule=rule, question_marks=bool(question_marks), clock=clock)
    for i, (kind, r, c, t) in enumerate(timed):
        if game.state.is_over:
            raise ValueError(f"move {i} ({r}, {c}) comes after the game ended "
                             f"({game.state.value})")
        clock.now = t / 1000.0
        if kind & MOVE_ASSIST:
            game.assisted = True
        game._play_logged(kind, r, c)
    if end is not None:
        clock.now = end / 1000.0
    return game
