"""The state machine of play: a game's cells, clock, moves and move log.

:class:`GamePlay` is what every :class:`fastmine.Game` runs on: it holds the
cell arrays and the Cython kernel that plays on them, and makes each move
(:meth:`~GamePlay.reveal`, :meth:`~GamePlay.chord`,
:meth:`~GamePlay.toggle_mark`), moving the game through ``READY``,
``PLAYING`` and ``WON`` or ``LOST``.  :class:`fastmine.Game` adds how a game is
made (new, on a fixed board, from timed moves), copied, pickled and saved; a
move is a method of this class, found on the game at once (no extra call).

>>> import fastmine
>>> g = fastmine.Game(9, 9, 10, rule="opening", seed=3)
>>> g.state
<GameState.READY: 'ready'>
>>> changed = g.reveal(4, 4)
>>> g.state, int(g.view[4, 4]), len(changed) >= 9
(<GameState.PLAYING: 'playing'>, 0, True)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kernels
from ._frozen import frozen
from ._validate import check_cell
from .board import Board, Rule
from .errors import GameOverError, GamePausedError
from .movelog import MOVE_ASSIST, MOVE_CHORD, MOVE_MARK, MOVE_REVEAL, decode
from .viewcodes import HIDDEN, GameState

__all__ = ["GamePlay"]

_ST_FLAG = _kernels.STATE_FLAG
# Module constants for the checks every move makes (a member lookup on the
# enum class costs more than a global).
_READY, _WON, _LOST = GameState.READY, GameState.WON, GameState.LOST

_NO_CHANGES = np.empty((0, 2), np.intp)
_NO_CHANGES.flags.writeable = False

_Play = TypeVar("_Play", bound="GamePlay")


class GamePlay:
    """The rules of play over one game's cells: the base of :class:`fastmine.Game`.

    Not made directly: :class:`fastmine.Game` (and its ``from_board``,
    ``from_moves`` and ``from_dict``) sets a game up through :meth:`_setup`,
    and every method here is a method of each game.
    """

    def _setup(self, rows: int, cols: int, mines: int, rule: Rule, seed: int | None,
               question_marks: bool, clock: Callable[[], float]) -> None:
        if not isinstance(question_marks, (bool, np.bool_)):
            raise TypeError("question_marks must be True or False")
        if not callable(clock):
            raise TypeError("clock must be a callable returning seconds")
        # Size, mine count, rule and seed are read-only properties: the kernels
        # index this game's arrays with them.
        self._rows: int = rows
        self._cols: int = cols
        self._mines: int = mines
        self._rule: Rule = rule
        self._seed: int | None = seed
        self._question_marks = bool(question_marks)
        self.assisted = False
        self._clock: Callable[[], float] = clock
        self._W = cols + 2
        self._safe = rows * cols - mines
        n = (rows + 2) * (cols + 2)
        st = np.zeros(n, np.uint8)
        pv = np.empty(n, np.int8)
        pv.fill(HIDDEN)     # (np.full costs several times more on small boards)
        self._st = st
        self._pv = pv
        # Made on first use: a game that is only played (a solver, a benchmark)
        # never pays for the view object.
        self._view: NDArray[np.int8] | None = None
        # The core sets the ring of ``st`` to "revealed", so no move touches it.
        self._core = _kernels.GameCore(st, pv, rows, cols)
        self._board: Board | None = None
        self._state = GameState.READY
        self._elapsed = 0.0
        self._started: float | None = None  # clock value when the clock last ran
        self._paused = False
        self.left_clicks = 0
        self.right_clicks = 0
        self.chord_clicks = 0
        # Every move is logged by the core itself (its cell, kind and game
        # time: two machine ints, no Python object; fastmine.replay reads
        # them).  ``_assist`` is added to the kind of the moves a solver makes;
        # ``_log_complete`` is False for a game rebuilt from a save that did
        # not carry its moves.
        self._log_complete = True
        self._assist = 0

    def _attach(self, board: Board) -> None:
        self._board = board
        self._core.attach(board._pm, board._pc)

    # ------------------------------------------------------------------ state

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """Number of columns."""
        return self._cols

    @property
    def mine_count(self) -> int:
        """Number of mines."""
        return self._mines

    @property
    def rule(self) -> Rule:
        """The first-click rule (see :meth:`fastmine.Board.generate`)."""
        return self._rule

    @property
    def seed(self) -> int | None:
        """The seed the board is laid with (None: fresh randomness)."""
        return self._seed

    @property
    def question_marks(self) -> bool:
        """Whether the mark cycle includes the question mark; may be switched any time."""
        return self._question_marks

    @question_marks.setter
    def question_marks(self, on: bool) -> None:
        if not isinstance(on, (bool, np.bool_)):
            raise TypeError(f"question_marks must be True or False, got {on!r:.40}")
        self._question_marks = bool(on)

    @property
    def state(self) -> GameState:
        """The current :class:`GameState`."""
        return self._state

    @property
    def view(self) -> NDArray[np.int8]:
        """Read-only int8 array (rows, cols): 0..8 where revealed, else a view code."""
        view = self._view
        if view is None:
            # frozen, not just flagged read-only: a caller could flag a plain view
            # writable again and write into the cells the kernel reads
            view = frozen(self._pv).reshape(self._rows + 2, self._cols + 2)[1:-1, 1:-1]
            self._view = view
        return view

    @property
    def board(self) -> Board | None:
        """The board, or None before the first reveal of a generated game."""
        return self._board

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return (self.rows, self.cols)

    @property
    def mines_left(self) -> int:
        """Mines minus flags (negative when the player over-flags)."""
        return self.mine_count - self._core.flags

    @property
    def revealed_count(self) -> int:
        """Safe cells revealed so far."""
        return self._core.revealed

    @property
    def paused(self) -> bool:
        """True while the clock is paused."""
        return self._paused

    # ------------------------------------------------------------------ clock

    @property
    def elapsed(self) -> float:
        """Seconds played: from the first reveal to the end, minus pauses."""
        if self._started is None:
            return self._elapsed
        return self._elapsed + max(0.0, self._clock() - self._started)

    def _stop_clock(self, now: float | None = None) -> None:
        if self._started is not None:
            if now is None:
                now = self._clock()
            self._elapsed += max(0.0, now - self._started)
            self._started = None

    def _now(self) -> float | None:
        # Read before a move changes anything: a clock that fails must leave
        # the game as it was, not half-updated (cells open, state not won).
        return self._clock() if self._started is not None else None

    def pause(self) -> bool:
        """Pause the clock (moves raise :class:`GamePausedError` until resumed).

        Returns
        -------
        bool
            True if the game is now paused; a finished game cannot pause.
        """
        if self._state.is_over:
            return False
        self._stop_clock()
        self._paused = True
        return True

    def resume(self) -> bool:
        """Resume after :meth:`pause`.

        Returns
        -------
        bool
            True if the game was paused (and now runs again).
        """
        if not self._paused:
            return False
        self._paused = False
        if self._state is GameState.PLAYING:
            self._started = self._clock()
            self._core.base = self._started - self._elapsed
        return True

    # ------------------------------------------------------------------ moves

    def _begin_move(self, r: object, c: object) -> int:
        # Inline the common case (two in-range ints): this is on every move.
        if not (type(r) is int and type(c) is int
                and 0 <= r < self._rows and 0 <= c < self._cols):
            r, c = check_cell(self._rows, self._cols, r, c)
        state = self._state
        if state is _WON or state is _LOST:
            raise GameOverError(f"the game is over ({self._state.value}); start a new game")
        if self._paused:
            raise GamePausedError("the game is paused; call resume() first")
        return (r + 1) * self._W + c + 1

    def reveal(self, r: int, c: int) -> NDArray[np.intp]:
        """Reveal cell (r, c): a left click.

        A flagged or already revealed cell is left as it is.  Revealing a zero
        opens its whole zero region and its border.  Revealing a mine loses.
        The first reveal of a generated game lays its mines.

        Parameters
        ----------
        r, c : int
            The cell's row and column, 0-based.

        Returns
        -------
        numpy.ndarray
            The cells that changed, an ``(n, 2)`` intp array of ``(row, col)``
            pairs (empty when nothing changed).

        Raises
        ------
        TypeError, ValueError
            A cell that is not a pair of integers on the board.
        GameOverError
            The game is already won or lost.
        GamePausedError
            The game is paused.
        NoGuessTimeoutError
            The first reveal of a ``"no_guess"`` game found no board in time;
            the game is unchanged.
        """
        p = self._begin_move(r, c)
        now: float | None
        if self._state is _READY and self._core.state_at(p) != _ST_FLAG:
            # Everything that can fail (laying mines, e.g. a no-guess timeout,
            # or the clock) happens before the game changes at all.
            board = self._board
            if board is None:
                board = Board.generate(self._rows, self._cols, self._mines,
                                       first_click=(p // self._W - 1, p % self._W - 1),
                                       rule=self._rule, seed=self._seed)
            started = self._clock()
            if self._board is None:
                self._attach(board)
            self._state = GameState.PLAYING
            self._started = started
            self._core.base = started      # game time 0 on the core's move log
            now = started
        else:
            now = self._now()
        self.left_clicks += 1
        self._core.reveal(p, self._assist, now)
        return self._settle(now)

    def reveal_cells(self, cells: ArrayLike) -> NDArray[np.intp]:
        """Reveal several cells in order, each as :meth:`reveal` would.

        Stops as soon as the game ends (a mine revealed, or the last safe cell);
        the cells after that are not touched.  Each cell counts as one left
        click.  The whole list is checked before anything changes.

        Parameters
        ----------
        cells : array_like
            An ``(n, 2)`` array-like of ``(row, col)`` integer pairs.

        Returns
        -------
        numpy.ndarray
            Every changed cell as ``(row, col)`` pairs, in the order they
            changed.

        Raises
        ------
        TypeError, ValueError
            ``cells`` is not an ``(n, 2)`` integer array, or a cell is off the
            board.
        GameOverError, GamePausedError
            As :meth:`reveal`.

        Examples
        --------
        >>> import fastmine
        >>> g = fastmine.Game(2, 3, 1, seed=1)
        >>> g.reveal_cells([(0, 0), (1, 0)]).shape[1]
        2
        """
        # A private copy, checked and then used: the caller (another thread)
        # may change its own array while the kernel runs without the GIL.
        if isinstance(cells, (str, bytes)):
            raise TypeError("cells must be (row, col) integer pairs, not a string")
        try:
            arr = np.array(cells)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"cells must be an (n, 2) array of (row, col) pairs: {exc}") from None
        if arr.size == 0:
            arr = arr.reshape(0, 2)
        elif arr.dtype.kind not in "iu":
            raise TypeError(f"cells must be (row, col) integer pairs, got {arr.dtype} values")
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"cells must be an (n, 2) array of (row, col) pairs, got shape {arr.shape}")
        if not isinstance(cells, np.ndarray) and _holds_bool(cells):
            # numpy turns [0, False] into [0, 0]; reveal(0, False) is refused, so is this.
            raise TypeError("cells must be (row, col) integer pairs, not bools")
        n = arr.shape[0]
        if n == 0:
            self._begin_move(0, 0)      # a finished or paused game still says so
            return _NO_CHANGES
        core = self._core
        if arr.dtype == np.intp:        # the common case: checked in the kernel
            bad = core.first_outside(arr)
        else:                           # checked in its own type, so nothing wraps
            off = ((arr[:, 0] < 0) | (arr[:, 0] >= self.rows)
                   | (arr[:, 1] < 0) | (arr[:, 1] >= self.cols))
            bad = int(np.argmax(off)) if off.any() else -1
        if bad >= 0:
            r, c = (int(x) for x in arr[bad])
            check_cell(self.rows, self.cols, r, c)     # raises the usual message
        arr = arr.astype(np.intp, copy=False)
        self._begin_move(int(arr[0, 0]), int(arr[0, 1]))
        changed = []
        k = 0
        while self._state is GameState.READY and k < n:
            # Until the game starts (the first reveal lays the mines and may
            # fail, changing nothing; a flagged cell does not start it).
            changed.append(self.reveal(int(arr[k, 0]), int(arr[k, 1])))
            k += 1
        if k == n or self._state is not GameState.PLAYING:
            return changed[0] if len(changed) == 1 else np.concatenate(changed)
        now = self._now()
        self.left_clicks += core.reveal_many(arr, k, self._safe, self._assist, now)
        changed.append(self._settle(now))
        return changed[0] if len(changed) == 1 else np.concatenate(changed)

    def chord(self, r: int, c: int) -> NDArray[np.intp]:
        """Chord on a revealed number whose adjacent flags equal it.

        Reveals every adjacent unflagged hidden cell; a wrong flag there means a
        mine is revealed and the game is lost.  Otherwise nothing happens.

        Parameters
        ----------
        r, c : int
            The number's row and column, 0-based.

        Returns
        -------
        numpy.ndarray
            The cells that changed, as :meth:`reveal` returns them.

        Raises
        ------
        TypeError, ValueError, GameOverError, GamePausedError
            As :meth:`reveal`.
        """
        p = self._begin_move(r, c)
        # Before the first reveal the core only logs it (no cell is revealed).
        now = self._now()
        self.chord_clicks += 1
        self._core.chord(p, self._assist, now)
        return self._settle(now)

    def toggle_mark(self, r: int, c: int) -> NDArray[np.intp]:
        """Cycle the mark of a hidden cell: hidden -> flag -> question -> hidden.

        With ``question_marks`` off the cycle is hidden <-> flag.  Revealed
        cells are left as they are.

        Parameters
        ----------
        r, c : int
            The cell's row and column, 0-based.

        Returns
        -------
        numpy.ndarray
            The cell, as ``[[r, c]]``, or an empty array if it is revealed.

        Raises
        ------
        TypeError, ValueError, GameOverError, GamePausedError
            As :meth:`reveal`.
        """
        p = self._begin_move(r, c)
        now = self._clock() if self._started is not None else None
        self.right_clicks += 1
        self._core.toggle_mark(p, self._question_marks, self._assist, now)
        return self._core.take_changes()

    # ------------------------------------------------------------ move log

    @property
    def moves(self) -> NDArray[np.int64]:
        """Every move so far as an ``(n, 4)`` int64 array (a copy) of
        ``(kind, row, col, ms)``: kind 0 reveal, 1 mark, 2 chord, 3 mark with
        question marks off, plus 4 when a solver made the move (see
        :meth:`assisting`); ms is the game time of
        the move (first reveal at 0, pauses not counted).  Moves that raised
        (a finished or paused game, a cell off the board) are not moves.
        """
        # From a copy of the bytes: a numpy view would pin the array's buffer
        # and the next move could not grow it.
        raw = np.frombuffer(self._core.log_bytes(), np.int64).reshape(-1, 2)
        return decode(raw, self._cols, padded=True)

    @property
    def moves_complete(self) -> bool:
        """True if :attr:`moves` holds every move since the game began (False for
        a game resumed from a save that did not carry its moves)."""
        return self._log_complete

    @contextlib.contextmanager
    def assisting(self: _Play) -> Iterator[_Play]:
        """Within this block, moves are the solver's: logged as assisted, and
        the game is marked :attr:`assisted`.

        Yields
        ------
        Game
            This game.

        Examples
        --------

        >>> import fastmine
        >>> g = fastmine.Game(9, 9, 10, seed=1)
        >>> with g.assisting():
        ...     _ = g.reveal(4, 4)
        >>> int(g.moves[0, 0]), g.assisted
        (4, True)
        """
        self.assisted = True
        before = self._assist
        self._assist = MOVE_ASSIST
        try:
            yield self
        finally:
            self._assist = before

    def _play_logged(self, kind: int, r: int, c: int) -> NDArray[np.intp]:
        """Make one move as :attr:`moves` records it (``kind`` with its assist
        bit): how a replay or a take-back plays a move log again.  A mark
        cycles as it did then, whatever the setting is now."""
        self._assist = kind & MOVE_ASSIST
        question_marks = self._question_marks
        try:
            move = kind & 3
            if move == MOVE_REVEAL:
                return self.reveal(r, c)
            if move == MOVE_CHORD:
                return self.chord(r, c)
            self._question_marks = move == MOVE_MARK
            return self.toggle_mark(r, c)
        finally:
            self._assist = 0
            self._question_marks = question_marks

    def _settle(self, now: float | None) -> NDArray[np.intp]:
        """End the game if the move just made lost or won it (``now``: the clock
        read before the move, so nothing here can fail half way)."""
        core = self._core
        if core.exploded:
            self._state = GameState.LOST
            self._stop_clock(now)
            core.finish_loss()
        elif core.revealed == self._safe:
            self._state = GameState.WON
            self._stop_clock(now)
            core.finish_win()
        return core.take_changes()


def _holds_bool(cells: Any) -> bool:
    """True if a (checked: (n, 2), integer) sequence of pairs holds a bool."""
    return any(isinstance(x, (bool, np.bool_)) for pair in cells for x in pair)
