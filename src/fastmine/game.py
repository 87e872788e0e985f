"""The game: one UI-agnostic game of Minesweeper, and how one is made, copied and saved.

Every UI (terminal, Kivy app, solver, benchmarks) plays through :class:`Game`.
Each move returns the cells it changed as an ``(n, 2)`` array of ``(row, col)``
pairs, so a UI redraws only those.  The moves, the clock and the move log are
the state machine :class:`fastmine.gameplay.GamePlay`, which :class:`Game`
builds on; this module makes a game (new, on a fixed board, from timed
moves), copies, pickles and saves it, and gives its stats and take-back.

>>> g = Game(9, 9, 10, rule="opening", seed=3)
>>> g.state
<GameState.READY: 'ready'>
>>> changed = g.reveal(4, 4)
>>> g.state, int(g.view[4, 4]), len(changed) >= 9
(<GameState.PLAYING: 'playing'>, 0, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from . import _kernels
from . import metrics as _metrics
from . import takeback as _takeback
from . import timedmoves as _timedmoves
from ._validate import check_mines, check_seed, check_size
from .board import Board, Rule, _check_rule, _rule_maker
from .gameformat import (  # noqa: F401 - the save format's names, re-exported
    _ST_FLAG,
    MAX_SAVED_CLICKS,
    MAX_SAVED_SECONDS,
    SAVE_FORMAT,
    SAVE_VERSION,
    _dump,
    _load,
)
from .gameplay import GamePlay
from .metrics import GameStats as GameStats  # the stats' type, importable from here too
from .movelog import MOVE_ASSIST as MOVE_ASSIST  # the move kinds, importable from here too
from .movelog import MOVE_CHORD as MOVE_CHORD
from .movelog import MOVE_MARK as MOVE_MARK
from .movelog import MOVE_MARK_PLAIN as MOVE_MARK_PLAIN
from .movelog import MOVE_REVEAL as MOVE_REVEAL
from .viewcodes import GameState as GameState  # the states, importable from here too


class Game(GamePlay):
    """One game of Minesweeper.

    Mines are laid at the first reveal according to ``rule`` (see
    :meth:`fastmine.Board.generate`), so the first click is never a mine unless
    ``rule="none"``.  ``clock`` is any zero-argument callable returning seconds
    (``time.monotonic`` by default); tests inject a fake one.

    Parameters
    ----------
    rows, cols : int
        The size.
    mines : int
        How many mines.
    rule : {"opening", "cell", "no_guess", "none"}
        The first-click rule (see :meth:`fastmine.Board.generate`).
    seed : int or numpy.random.Generator, optional
        The board's seed: the same seed and first click give the same board.
    question_marks : bool
        Whether a right click cycles through the question mark.
    clock : callable
        Returns the time in seconds.

    Raises
    ------
    TypeError
        An argument of the wrong type.
    ValueError
        A size, mine count, rule or seed out of range, or a no-guess game no
        first click can make solvable.

    See Also
    --------
    Game.from_board : a game on a board made beforehand.
    """

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        rule: Rule = "opening",
        seed: int | np.random.Generator | None = None,
        question_marks: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        rows, cols = check_size(rows, cols)
        mines = check_mines(mines, rows, cols)
        rule = _check_rule(rule)
        maker = _rule_maker(rule)
        if maker is not None:
            # A no-guess game no first click can make solvable is refused now, not
            # after the player's first click and the generator's time limit.
            maker.check_possible(rows, cols, mines)
        self._setup(rows, cols, mines, rule, check_seed(seed), question_marks, clock)

    @classmethod
    def from_board(
        cls,
        board: Board,
        question_marks: bool = True,
        clock: Callable[[], float] = time.monotonic,
        *,
        rule: Rule = "none",
    ) -> Game:
        """A game on a fixed board: no first-click relocation, any cell may be a mine.

        ``rule``: the first-click rule the board was made under (see
        :meth:`fastmine.Board.generate`), kept as :attr:`rule` for what reads
        it (the coach takes the first click as free under any rule but
        ``"none"``, the records and replays keep it); the mines stay where they
        are.  A recorded game rebuilt from a video is ``rule="none"`` (the
        clients make the first click safe by moving a mine, and the video holds
        the board after the move).

        Parameters
        ----------
        board : Board
            The mines.
        question_marks : bool
            Whether a right click cycles through the question mark.
        clock : callable
            Returns the time in seconds.
        rule : {"none", "opening", "cell", "no_guess"}
            The rule to record (the board is not checked against it).

        Returns
        -------
        Game
            A game in the ``READY`` state on ``board``.

        Raises
        ------
        TypeError
            ``board`` is not a :class:`fastmine.Board`, or a bad setting.
        ValueError
            An unknown ``rule``.
        """
        if not isinstance(board, Board):
            raise TypeError(f"from_board needs a fastmine.Board, got {type(board).__name__}")
        rule = _check_rule(rule)
        self = object.__new__(cls)
        self._setup(board.rows, board.cols, board.mine_count, rule, None, question_marks, clock)
        self._attach(board)
        return self

    @classmethod
    def from_moves(cls, board: Board, moves: Iterable[Any], *, rule: Rule = "none",
                   question_marks: bool = True, end_ms: float | None = None) -> Game:
        """The game that ``moves``, each made at its recorded time, make on ``board``.

        Parameters
        ----------
        board : Board
            The mines (fixed: see :meth:`from_board`).
        moves : iterable of (kind, row, col, ms)
            In the order played.  ``kind`` is ``"reveal"``, ``"mark"`` (one
            right click, cycling as ``question_marks`` says) or ``"chord"``, or
            a move log's number as :attr:`moves` gives it (0 reveal, 1 mark
            through "?", 2 chord, 3 mark without "?", plus 4 for a solver's
            move, which marks the game :attr:`assisted`).  ``ms`` is when the
            move was made, in milliseconds on any clock that never goes back
            (a video's, or :attr:`moves`' game time).
        rule : str
            The first-click rule the board was made under (see :meth:`from_board`).
        question_marks : bool
            The game's setting.
        end_ms : float, optional
            The time on the same clock when play stopped, for an unfinished
            game (default: the last move's).  A won or lost game's time ends
            at the move that ended it.

        Returns
        -------
        Game
            Its clock (a :class:`fastmine.timedmoves.ManualClock`) stays at
            ``end_ms``: :attr:`elapsed` is the player's time, from the first
            reveal to the end, and :attr:`moves` logs each move at its game time.

        Raises
        ------
        ValueError, TypeError
            A move of an unknown kind, off the board, with a time below 0 or
            before the move before it, or after the game ended; nothing is
            built.
        """
        return _timedmoves.play(cls, board, moves, rule, question_marks, end_ms)

    # ------------------------------------------------------------ take back

    @property
    def can_take_back_loss(self) -> bool:
        """True if the game is lost and its move log is complete, so
        :meth:`take_back_loss` can rebuild the position before the losing move.

        (Cheap: the moves are not played.  A log that does not lead to the game,
        from a save edited by hand, is found out by :meth:`take_back_loss`.)"""
        return _takeback.why_not(self) is None

    def take_back_loss(self) -> NDArray[np.intp]:
        """Take back the move that lost the game: the game goes on from the
        position before it, marked :attr:`assisted`.

        The cells, counters and mines left are as they were before that move,
        the state is PLAYING again (READY if it was the first reveal), the
        clock runs on from the time of the loss, and the move is gone from
        :attr:`moves`, so the moves still replay exactly to the game.  The
        losing click is no longer counted.  Returns the cells that changed as
        ``(row, col)`` pairs, as a move does.

        Returns
        -------
        numpy.ndarray
            The cells that changed, as ``(row, col)`` pairs.

        Raises
        ------
        ValueError
            Leaving the game unchanged, if the game is not lost, its move log
            is incomplete (see :attr:`can_take_back_loss`) or does not lead to
            it (a save edited by hand, or one written before marks logged
            their cycle with question marks switched during the game: see
            docs/replays.md).

        Examples
        --------

        >>> g = Game.from_board(Board.from_mines([[1, 0, 0], [0, 0, 1]]))
        >>> _ = g.reveal(0, 2); _ = g.reveal(0, 0)
        >>> g.state
        <GameState.LOST: 'lost'>
        >>> g.take_back_loss().tolist(), g.state, g.assisted
        ([[0, 0], [1, 2]], <GameState.PLAYING: 'playing'>, True)
        >>> g.moves[:, :3].tolist()
        [[0, 0, 2]]
        """
        return _takeback.take_back_loss(self)

    # ------------------------------------------------------------------ stats

    def stats(self) -> GameStats:
        """What a player wants to know about this game: time, 3BV, 3BV solved,
        3BV/s, clicks and the community's metrics (see :mod:`fastmine.metrics`).

        Read at any moment: during play the time is the time so far (the
        clock keeps running).  3BV/s and the efficiency (IOE) use the 3BV
        solved, as Arbiter, Vienna and Metasweeper do, so a lost game reads
        what it achieved, not the whole board's 3BV over its few clicks; a
        game shorter than :data:`fastmine.metrics.TIME_FLOOR` has no rates.
        Clicks count the moves made (left: reveals, right: marks, chords),
        not those that raised; the effective ones are found by playing the
        move log again.

        Returns
        -------
        GameStats
            A frozen snapshot: ``time`` in seconds (pauses not counted),
            ``bbbv`` (the board's) and ``bbbv_solved`` (None before the first
            reveal lays the board), ``bbbv_per_second``, ``left_clicks``,
            ``right_clicks``, ``chord_clicks``, the effective clicks, and the
            metrics as properties (``efficiency``/``ioe``, ``correctness``,
            ``throughput``, ``rqp``, ``stnb``, ...).

        Examples
        --------
        >>> g = Game.from_board(Board.from_mines([[1, 0, 0, 0]]))
        >>> _ = g.reveal(0, 3)
        >>> s = g.stats()
        >>> s.bbbv, s.bbbv_solved, s.left_clicks, s.clicks, s.efficiency, g.state.name
        (1, 1, 1, 1, 1.0, 'WON')
        """
        return _metrics.game_stats(self)

    def __repr__(self) -> str:
        return (f"<Game {self.rows}x{self.cols}/{self.mine_count} {self._state.value}, "
                f"{self._core.revealed}/{self._safe} revealed, {self.mines_left} mines left>")

    def __copy__(self) -> Game:
        """An independent copy: moves on it never touch this game.

        It shares only what cannot change: the board and the clock callable.
        (A plain attribute copy would share the cell arrays and the kernels.)
        """
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._st = self._st.copy()
        new._pv = self._pv.copy()
        new._view = None
        new._core = _kernels.GameCore(new._st, new._pv, self.rows, self.cols)
        if self._board is not None:
            new._core.attach(self._board._pm, self._board._pc)
        new._core.recount()
        new._core.base = self._core.base
        new._core.log_set(np.frombuffer(self._core.log_bytes(), np.int64))
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.__copy__()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle through the save format (the kernels' state is not picklable).
        return (_unpickle, (type(self), self.to_dict(), self._clock))

    # -------------------------------------------------------------- save/load

    def to_dict(self) -> dict[str, Any]:
        """The game as a JSON-ready dict: the save format.

        Returns
        -------
        dict
            Board, cells, marks, clicks, time, state and move log, which
            :meth:`from_dict` turns back into this game.
        """
        return _dump(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any], clock: Callable[[], float] = time.monotonic) -> Game:
        """Rebuild a game saved by :meth:`to_dict`.

        A resumed game in progress starts paused only if it was saved paused.

        Parameters
        ----------
        d : dict
            The dict :meth:`to_dict` made (read back from JSON).
        clock : callable
            The new game's clock, returning seconds.

        Returns
        -------
        Game
            The game as it was saved.

        Raises
        ------
        SaveFormatError
            Anything corrupt or inconsistent (a ValueError).
        FutureVersionError
            A save written by a newer fastmine.
        """
        return _load(cls, d, clock)



def _unpickle(cls: type[Game], d: dict[str, Any], clock: Callable[[], float]) -> Game:
    return cls.from_dict(d, clock=clock)
