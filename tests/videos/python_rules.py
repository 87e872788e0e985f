"""The clients' click rules in plain Python, as fastmine.videos first had them.

The same state machine as the compiled kernel behind
:class:`fastmine.videos.clientrules.ClientBoard` (``fastmine/videos/_clicks.pyx``),
written for reading: it was checked against ms-toollib on 8,085 real Arbiter videos
and the test videos (the board after every event, every count), and the kernel is
checked against it on random event streams of every kind, with every option.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from fastmine.videos import EventKind
from fastmine.viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG

__all__ = ["GameStatus", "PythonBoard"]

HIDDEN_CODE, FLAG_CODE, QUESTION_CODE, WRONG_CODE, BLAST_CODE = 10, 11, 12, 14, 15

# Mouse states (ms-toollib's names): which buttons are down.
UP_UP, UP_DOWN, UP_DOWN_NOT_FLAG, DOWN_UP, CHORDING, CHORDING_NOT_FLAG, \
    DOWN_UP_AFTER_CHORDING, UNDEFINED = range(8)


class GameStatus:
    """Where the game is: :data:`READY` (nothing done), :data:`PREFLAGGING`
    (pressed or flagged before the first reveal), :data:`PLAYING`, :data:`WON`,
    :data:`LOST`."""

    READY = "ready"
    PREFLAGGING = "preflagging"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


_BORDER = 99
_READY, _PREFLAGGING, _PLAYING, _WON, _LOST = (
    GameStatus.READY, GameStatus.PREFLAGGING, GameStatus.PLAYING, GameStatus.WON, GameStatus.LOST)
# The event kinds as plain ints: the state machine runs once per click.
(_MOVE, _LEFT_DOWN, _LEFT_UP, _RIGHT_DOWN, _RIGHT_UP, _MIDDLE_DOWN, _MIDDLE_UP, _PRE_FLAG,
 _BOTH_DOWN, _LEFT, _RIGHT, _MIDDLE) = (int(k) for k in EventKind)
_LEFT_BUTTON = {_LEFT_DOWN: True, _LEFT_UP: False}
_RIGHT_BUTTON = {_RIGHT_DOWN: True, _RIGHT_UP: False}


class PythonBoard:
    """The clients' board and mouse state machine; feed it a video's events with :meth:`step`.

    Parameters
    ----------
    mine_layout : ndarray of bool, shape (rows, cols)
        Where the mines are.
    question_marks : bool
        Whether a right click on a flag turns it into a question mark (as the
        clients do with question marks on) instead of clearing it.
    count_chord_right_press : bool
        Whether a right press on an open cell that becomes a chord still
        counts as a right click.  Minesweeper Clone counts it (the click counts
        Clone 0.97 stores in its videos say so); Arbiter, Metasweeper and
        ms-toollib do not.

    Attributes
    ----------
    left, right, double : int
        Clicks so far, as the clients count them.
    lce, rce, dce : int
        Effective left, right and double clicks.
    bbbv_solved : int
        3BV solved so far (ms-toollib's count).
    flags : int
        Flags on the board.
    status : str
        A :class:`GameStatus` value.
    log : list of tuple
        One ``(event, button, action, cell, changed)`` entry per counted click
        (see :func:`fastmine.videos.play_video`); ``event`` is the index given
        to :meth:`step`.
    """

    def __init__(self, mine_layout: NDArray[np.bool_], question_marks: bool = False,
                 count_chord_right_press: bool = False) -> None:
        rows, cols = (int(n) for n in mine_layout.shape)
        self.rows = rows
        self.cols = cols
        self.question_marks = question_marks
        self.count_chord_right_press = count_chord_right_press
        mines = np.asarray(mine_layout, dtype=bool)
        padded = np.zeros((rows + 2, cols + 2), dtype=np.int64)
        padded[1:-1, 1:-1] = mines
        counts = sum(padded[1 + dr:rows + 1 + dr, 1 + dc:cols + 1 + dc]
                     for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        numbers = np.where(mines, -1, counts)
        # Padded by a ring of border cells (board -2, cell 99), so a neighbour
        # is p + an offset, never out of range and never hidden.
        w = cols + 2
        self._w = w
        self._around = (-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1)
        board = np.full((rows + 2, w), -2, dtype=np.int64)
        board[1:-1, 1:-1] = numbers
        grid = np.full((rows + 2, w), _BORDER, dtype=np.int64)
        grid[1:-1, 1:-1] = HIDDEN_CODE
        self._board: list[int] = board.ravel().tolist()
        # A number is a 3BV of its own when no 0 touches it.
        padded_zero = np.zeros((rows + 4, w + 2), dtype=bool)
        padded_zero[1:-1, 1:-1] = board == 0
        near_zero = np.zeros((rows + 2, w), dtype=bool)
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                near_zero |= padded_zero[dr:dr + rows + 2, dc:dc + w]
        self._own_3bv: list[bool] = ((board > 0) & ~near_zero).ravel().tolist()
        self._cells: list[int] = grid.ravel().tolist()
        self.hidden_safe = rows * cols - int(mines.sum())
        self.left = self.right = self.double = 0
        self.lce = self.rce = self.dce = 0
        self.bbbv_solved = 0
        self.flags = 0
        self.status = _READY
        self.mouse = UP_UP
        self._log: list[tuple[int, str, str, int, bool]] = []
        self._flagged_once: set[int] = set()
        # Zero regions (connected zeros), labelled when first needed, with the
        # number of flags on each: ms-toollib walks a region on every reveal
        # of one of its zeros, which a hostile video could make quadratic.
        self._region: list[int] = [-1] * len(self._board)
        self._region_flags: list[int] = []
        self._last_right = -1
        self._preflags = 0
        self._middle = False
        self._left_down = False
        self._right_down = False
        self._event = -1

    # ---------------------------------------------------------------- helpers
    @property
    def cells(self) -> list[int]:
        """The board in ms-toollib's codes, row by row (0-8 open, 10 hidden, 11 flag,
        12 question mark, 14 wrong flag, 15 the mine that blew)."""
        w, cells = self._w, self._cells
        return [x for r in range(1, self.rows + 1) for x in cells[r * w + 1:r * w + 1 + self.cols]]

    def _index(self, p: int) -> int:
        """The row-major index of padded cell ``p``."""
        r, c = divmod(p, self._w)
        return (r - 1) * self.cols + c - 1

    def view(self) -> NDArray[np.int8]:
        """The board as fastmine's view codes (``HIDDEN``, ``FLAG``, numbers, ...).

        As fastmine shows a finished game: after a win every mine shows as a
        ``FLAG``, after a loss the unflagged mines as ``MINE``.
        """
        grid = np.array(self._cells, dtype=np.int16).reshape(self.rows + 2, self._w)
        cells = grid[1:-1, 1:-1]
        out = cells.astype(np.int8, copy=True)
        out[cells == HIDDEN_CODE] = HIDDEN
        out[cells == FLAG_CODE] = FLAG
        out[cells == QUESTION_CODE] = QUESTION
        out[cells == WRONG_CODE] = WRONG_FLAG
        out[cells == BLAST_CODE] = EXPLODED
        if self.status == _LOST or self.status == _WON:
            mines = np.array(self._board).reshape(self.rows + 2, self._w)[1:-1, 1:-1] == -1
            shown = MINE if self.status == _LOST else FLAG
            out[mines & ((cells == HIDDEN_CODE) | (cells == QUESTION_CODE))] = shown
        return out

    @property
    def log(self) -> list[tuple[int, str, str, int, bool]]:
        """One ``(event, button, action, cell, changed)`` entry per counted click,
        ``cell`` the row-major index of the cell (-1 off the board)."""
        return [(i, b, a, self._index(p) if p >= 0 else -1, c) for i, b, a, p, c in self._log]

    def _record(self, button: str, action: str, p: int, changed: bool) -> None:
        if button == "right":
            self._last_right = len(self._log)
        self._log.append((self._event, button, action, p, changed))

    def _clear_counts(self) -> None:
        self.flags = 0
        self._flagged_once.clear()
        self.double = self.left = self.right = 0
        self._log.clear()
        self._last_right = -1

    def _open(self, start: list[int]) -> None:
        """Reveal ``start`` and the regions their zeros open (ms-toollib's
        refresh_board; here each cell is revealed when it is first reached, so
        the walk touches every cell once)."""
        board, cells, around = self._board, self._cells, self._around
        stack = []
        blew = False
        opened = 0
        for p in start:
            v = board[p]
            if v < 0:
                cells[p] = BLAST_CODE
                blew = True
                continue
            if cells[p] >= 10:
                opened += 1
            cells[p] = v
            if v == 0:
                stack.append(p)
        while stack:
            p = stack.pop()
            for d in around:
                q = p + d
                c = cells[q]
                if c in (HIDDEN_CODE, QUESTION_CODE):
                    v = board[q]                 # a zero's neighbour: never a mine
                    cells[q] = v
                    opened += 1
                    if v == 0:
                        stack.append(q)
        self.hidden_safe -= opened
        if blew:
            for p, v in enumerate(cells):
                if v == FLAG_CODE and board[p] != -1:
                    cells[p] = WRONG_CODE

    def _label(self, p: int) -> int:
        """The label of zero ``p``'s region, labelling the region (and counting its
        flags) the first time."""
        label = self._region[p]
        if label >= 0:
            return label
        label = len(self._region_flags)
        board, cells, region, around = self._board, self._cells, self._region, self._around
        flags = 0
        region[p] = label
        stack = [p]
        while stack:
            q = stack.pop()
            if cells[q] == FLAG_CODE:
                flags += 1
            for d in around:
                n = q + d
                if board[n] == 0 and region[n] < 0:
                    region[n] = label
                    stack.append(n)
        self._region_flags.append(flags)
        return label

    def _zero_region_unflagged(self, p: int) -> bool:
        """True unless a zero of ``p``'s zero region is flagged (then it cannot
        open whole, and ms-toollib does not count it as solved 3BV)."""
        return self._region_flags[self._label(p)] == 0

    def _flag_changed(self, p: int, delta: int) -> None:
        if self._board[p] == 0 and self._region[p] >= 0:
            self._region_flags[self._region[p]] += delta

    def _settle(self) -> None:
        if self.hidden_safe == 0 and self.status != _LOST:
            self.status = _WON

    # ------------------------------------------------------------------ clicks
    def _left_click(self, p: int) -> int:
        self.left += 1
        cells = self._cells
        if cells[p] != HIDDEN_CODE and cells[p] != QUESTION_CODE:
            self._record("left", "reveal", p, False)
            return 0
        v = self._board[p]
        if v == -1:
            self._open([p])
            self.status = _LOST
            self._record("left", "reveal", p, True)
            return 4
        if v == 0:
            if self._zero_region_unflagged(p):
                self.bbbv_solved += 1
        elif self._own_3bv[p]:
            self.bbbv_solved += 1
        self.lce += 1
        self._open([p])
        self._settle()
        self._record("left", "reveal", p, True)
        return 2

    def _right_click(self, p: int) -> int:
        self.right += 1
        cells = self._cells
        v = cells[p]
        if v < 10:
            self._record("right", "mark", p, False)
            return 0
        if v == HIDDEN_CODE:
            cells[p] = FLAG_CODE
            self._flag_changed(p, 1)
            self.flags += 1
            if self._board[p] == -1 and p not in self._flagged_once:
                self.rce += 1
            if self._board[p] == -1:
                self._flagged_once.add(p)
            action = "flag"
        elif v == FLAG_CODE:
            cells[p] = QUESTION_CODE if self.question_marks else HIDDEN_CODE
            self._flag_changed(p, -1)
            self.flags -= 1
            action = "question" if self.question_marks else "unflag"
        else:                                      # a question mark
            cells[p] = HIDDEN_CODE
            action = "unmark"
        self._record("right", action, p, True)
        return 1

    def _chord(self, p: int) -> int:
        self.double += 1
        cells, board = self._cells, self._board
        v = cells[p]
        if v >= 8:
            self._record("double", "chord", p, False)
            return 0
        hidden = []
        flags = 0
        around_bbbv = 0
        for d in self._around:
            q = p + d
            c = cells[q]
            if c == FLAG_CODE:
                flags += 1
            elif c == HIDDEN_CODE or (c == QUESTION_CODE and self.question_marks):
                hidden.append(q)
                if self._own_3bv[q]:
                    around_bbbv += 1
        if flags != v or not hidden:
            self._record("double", "chord", p, False)
            return 0
        lost = any(board[q] == -1 for q in hidden)
        self.dce += 1
        regions = len({self._label(q) for q in hidden if board[q] == 0
                       and self._zero_region_unflagged(q)})
        self.bbbv_solved += around_bbbv + regions
        self._open(hidden)
        if lost:
            self.status = _LOST
        else:
            self._settle()
        self._record("double", "chord", p, True)
        return 4 if lost else 3

    def _off_board_left(self) -> int:
        self.left += 1
        self._record("left", "reveal", -1, False)
        return 0

    def _off_board_right(self) -> None:
        self.right += 1
        self._record("right", "mark", -1, False)

    def _uncount_right(self) -> None:
        """The right press that began a chord on an open cell is not a right click."""
        if self.count_chord_right_press:
            return
        self.right -= 1
        if self._last_right >= 0:
            del self._log[self._last_right]
            self._last_right = -1

    # -------------------------------------------------------------------- step
    def step(self, kind: int, row: int, col: int, event: int = -1) -> int:
        """Apply one mouse event at cell ``(row, col)`` (-1, -1 off the board).

        Returns ms-toollib's "useful level": 0 nothing changed, 1 a flag or
        question mark, 2 a reveal, 3 a chord that opened cells, 4 a mine.
        ``event`` is stored in the :attr:`log` of the clicks it makes.
        """
        self._event = event
        status = self.status
        if status in (_WON, _LOST):
            return 0
        on = row >= 0
        p = (row + 1) * self._w + col + 1 if on else -1
        e = int(kind)
        if e == _MOVE:
            return 0
        if not 0 < e <= _MIDDLE:
            raise ValueError(f"unknown event kind {kind!r}")
        # EVF's "l", "r", "m" (press or release, unsaid): ms-toollib plays them
        # as below once the game runs; before it, they are the press when the
        # button is up and the release when it is down.
        if status != _PLAYING:
            if e == _LEFT:
                e = _LEFT_UP if self._left_down else _LEFT_DOWN
            elif e == _RIGHT:
                e = _RIGHT_UP if self._right_down else _RIGHT_DOWN
            elif e == _MIDDLE:
                e = _MIDDLE_UP if self._middle else _MIDDLE_DOWN
        if e in _LEFT_BUTTON:
            self._left_down = _LEFT_BUTTON[e]
        elif e in _RIGHT_BUTTON:
            self._right_down = _RIGHT_BUTTON[e]
        elif e == _LEFT:
            self._left_down = not self._left_down
        elif e == _RIGHT:
            self._right_down = not self._right_down
        if status == _READY:
            done = self._ready(e, on, p)
        elif status == _PREFLAGGING:
            done = self._preflagging(e, on, p)
        else:
            done = None
        if done is not None:
            return done
        return self._playing(e, on, p)

    def _ready(self, e: int, on: bool, p: int) -> int | None:
        ms = self.mouse
        if e in (_MIDDLE_DOWN, _MIDDLE_UP):
            return 0       # Arbiter videos may begin with a middle click
        if e == _LEFT_DOWN:
            if ms == UP_UP:
                self.mouse = DOWN_UP
                if on:
                    self.status = _PREFLAGGING
            elif ms == UP_DOWN:
                self.mouse = CHORDING
            elif ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            return 0
        if e == _PRE_FLAG:
            if not on or self._cells[p] != HIDDEN_CODE:
                return 0
            self._preflags += 1
            self.status = _PREFLAGGING
            return self._right_click(p)
        if e == _RIGHT_DOWN:
            if ms == UP_UP:
                self.mouse = UP_DOWN
                if on:
                    self._preflags = 1
                    self.status = _PREFLAGGING
                    return self._right_click(p)
                return 0
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = CHORDING
                return 0
            return None
        if e == _LEFT_UP:
            if ms in (CHORDING, CHORDING_NOT_FLAG):
                self.mouse = UP_DOWN
                return 0
            if ms in (DOWN_UP_AFTER_CHORDING, DOWN_UP, UP_UP):
                self.mouse = UP_UP
                return 0
            return None
        if e == _RIGHT_UP:
            if ms == UP_DOWN:
                self.mouse = UP_UP
                return 0
            if ms == CHORDING:
                self.mouse = DOWN_UP_AFTER_CHORDING
                return 0
            if ms == UP_UP:
                return 0
            return None
        if e == _BOTH_DOWN:
            if ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            elif ms in (DOWN_UP, DOWN_UP_AFTER_CHORDING, UP_DOWN, UP_UP):
                self.mouse = CHORDING
            return 0
        return 0

    def _preflagging(self, e: int, on: bool, p: int) -> int | None:
        ms = self.mouse
        if e == _LEFT_UP and ms == DOWN_UP:
            if not on:
                self.mouse = UP_UP
                if self._preflags == 0:
                    self.status = _READY
                    self._clear_counts()
                    return 0
                return self._off_board_left()
            if self._cells[p] == HIDDEN_CODE:
                self.status = _PLAYING
                self.mouse = UP_UP
                return self._left_click(p)
            # A release on a flag before the game: a left click, nothing more.
            self.left += 1
            self._record("left", "reveal", p, False)
            return 0
        if e == _PRE_FLAG:
            if not on or self._cells[p] != HIDDEN_CODE:
                return 0
            self._preflags += 1
            return self._right_click(p)
        if e == _RIGHT_DOWN:
            if ms == UP_UP:
                if not on:
                    self.mouse = UP_DOWN_NOT_FLAG
                    self._off_board_right()
                    return None
                self.mouse = UP_DOWN
                if self._cells[p] == HIDDEN_CODE:
                    self._preflags += 1
                else:
                    self._preflags -= 1
                    if self._preflags == 0:
                        # Taking off the last preflag undoes everything so far.
                        self.status = _READY
                        self._clear_counts()
                        if self._cells[p] == FLAG_CODE:
                            self._flag_changed(p, -1)
                        self._cells[p] = HIDDEN_CODE
                        return 0
                return self._right_click(p)
            if ms == DOWN_UP:
                self.mouse = CHORDING
                if on and self._preflags == 0:
                    self.status = _READY
                return None
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = CHORDING
                return None
            return 0
        if e == _BOTH_DOWN:
            if ms == DOWN_UP:
                if on and self._preflags == 0:
                    self.status = _READY
                self.mouse = CHORDING
            elif ms in (DOWN_UP_AFTER_CHORDING, UP_DOWN, UP_UP):
                self.mouse = CHORDING
            elif ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            return 0
        return None

    def _release_chord(self, on: bool, p: int, after: int, uncount: bool) -> int:
        self.mouse = after
        if uncount:
            self._uncount_right()
        if not on:
            return 0
        return self._chord(p)

    def _playing(self, e: int, on: bool, p: int) -> int:
        ms = self.mouse
        if e == _LEFT_DOWN:
            self.mouse = {UP_UP: DOWN_UP, UP_DOWN: CHORDING, UP_DOWN_NOT_FLAG: CHORDING_NOT_FLAG,
                          UNDEFINED: DOWN_UP}.get(ms, ms)
        elif e in (_LEFT_UP, _LEFT):
            if ms == DOWN_UP:
                self.mouse = UP_UP
                if not on:
                    return self._off_board_left() if e == _LEFT_UP else 0
                return self._left_click(p)
            if ms in (CHORDING, CHORDING_NOT_FLAG):
                return self._release_chord(on, p, UP_DOWN, ms == CHORDING_NOT_FLAG)
            if ms == DOWN_UP_AFTER_CHORDING:
                self.mouse = UP_UP
            elif e == _LEFT:
                self.mouse = {UP_UP: DOWN_UP, UP_DOWN: CHORDING,
                              UP_DOWN_NOT_FLAG: CHORDING_NOT_FLAG, UNDEFINED: UP_UP}.get(ms, ms)
            elif ms == UNDEFINED:
                self.mouse = UP_UP
        elif e == _RIGHT_DOWN or (e == _RIGHT and ms in (UP_UP, DOWN_UP,
                                                             DOWN_UP_AFTER_CHORDING)):
            if ms == UP_UP:
                if on:
                    self.mouse = UP_DOWN_NOT_FLAG if self._cells[p] < 10 else UP_DOWN
                    return self._right_click(p)
                self.mouse = UP_DOWN_NOT_FLAG
                self._off_board_right()
            elif ms in (DOWN_UP, DOWN_UP_AFTER_CHORDING):
                self.mouse = CHORDING
            elif ms == UNDEFINED:
                self.mouse = UP_DOWN
        elif e in (_RIGHT_UP, _RIGHT):
            if ms in (UP_DOWN, UP_DOWN_NOT_FLAG):
                self.mouse = UP_UP
            elif ms in (CHORDING, CHORDING_NOT_FLAG):
                return self._release_chord(on, p, DOWN_UP_AFTER_CHORDING,
                                           ms == CHORDING_NOT_FLAG)
            elif ms == UNDEFINED:
                self.mouse = UP_UP
        elif e == _MIDDLE_DOWN:
            self._middle = True
        elif e in (_MIDDLE_UP, _MIDDLE):
            self._middle = not self._middle if e == _MIDDLE else False
            if not self._middle:
                if not on:
                    self.double += 1
                    self._record("double", "chord", -1, False)
                    return 0
                return self._chord(p)
        elif e == _BOTH_DOWN:
            if ms == UP_DOWN_NOT_FLAG:
                self.mouse = CHORDING_NOT_FLAG
            elif ms in (DOWN_UP, DOWN_UP_AFTER_CHORDING, UP_DOWN, UP_UP):
                self.mouse = CHORDING
        return 0
