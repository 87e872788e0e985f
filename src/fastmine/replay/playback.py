"""Replays: a finished (or unfinished) game's board and moves, played back exactly.

Every :class:`fastmine.Game` logs its moves as it is played (see
:attr:`fastmine.Game.moves`).  :meth:`Replay.from_game` takes that log with the
board, rule and final state; :meth:`Replay.play` rebuilds the game after any
number of moves, with the recorded game times.  The file format (JSON, the mine
layout and moves packed in base64) is described in ``docs/replays.md``; reading
and writing it is :mod:`fastmine.replay.fileformat`'s job.

>>> import fastmine
>>> g = fastmine.Game(9, 9, 10, seed=5)
>>> _ = g.reveal(4, 4)
>>> r = Replay.from_game(g)
>>> r.play().view.tolist() == g.view.tolist()
True
>>> Replay.from_bytes(r.to_bytes()) == r
True
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._frozen import frozen
from .._validate import is_integer
from ..board import Board, Rule
from ..errors import GameOverError
from ..game import Game
from ..movelog import KIND_BITS, KIND_NAMES, MOVE_ASSIST
from ..timedmoves import ManualClock
from ..viewcodes import GameState
from . import fileformat, mousepath
from .fileformat import (  # the file's names, importable from here as before
    MAX_REPLAY_BYTES,
    MAX_REPLAY_FIELDS,
    MAX_REPLAY_MOVES,
    REPLAY_FORMAT,
    REPLAY_VERSION,
    moves_cap,
)

__all__ = ["MAX_REPLAY_BYTES", "MAX_REPLAY_FIELDS", "MAX_REPLAY_MOVES", "REPLAY_FORMAT",
           "REPLAY_VERSION", "Replay", "Seeker", "moves_cap"]


@dataclass(frozen=True, eq=False)
class Replay:
    """A game's board, settings and every move, enough to play it again exactly.

    ``mines``: bool (rows, cols); ``moves``: int64 (n, 4) rows of
    ``(kind, row, col, ms)`` as :attr:`fastmine.Game.moves`; ``state`` and
    ``time``: where the game ended (seconds, as :attr:`fastmine.Game.elapsed`).
    Both arrays are read-only.  Build one with :meth:`from_game` or load one.

    Parameters
    ----------
    mines : numpy.ndarray
        bool (rows, cols), True at a mine.
    rule : {"opening", "cell", "no_guess", "none"}
        The game's first-click rule.
    moves : numpy.ndarray
        int64 (n, 4): ``(kind, row, col, ms)`` per move.
    state : GameState
        How the game ended (or ``PLAYING`` if it did not).
    time : float
        The game's time in seconds.
    question_marks : bool
        The game's setting (at its end).
    assisted : bool
        Whether any help was used (hints, the solver).
    mouse : numpy.ndarray or None
        int32 (n, 4) ``(ms, x, y, kind)``: the mouse path of a game imported
        from a video (:mod:`fastmine.replay.mousepath`), None without one.
    mouse_unit : int
        The path's ``x`` and ``y`` units a cell: the video's pixels a cell
        (``Video.cell_size``), so the path stays as recorded; 16 by default.
    """

    mines: NDArray[np.bool_]
    rule: Rule
    moves: NDArray[np.int64]
    state: GameState
    time: float
    question_marks: bool = True
    assisted: bool = False
    mouse: NDArray[np.int32] | None = None
    mouse_unit: int = mousepath.UNIT

    def __post_init__(self) -> None:
        if self.mouse is not None:
            object.__setattr__(self, "mouse", mousepath.check_mouse(self.mouse))
        object.__setattr__(self, "mouse_unit", mousepath.check_unit(self.mouse_unit))
        # The replay's own read-only copies (fastmine._frozen): flagging the caller's
        # arrays read-only changed them, and the flag could be switched back to
        # change the replay after it was made.
        for name in ("mines", "moves"):
            object.__setattr__(self, name, frozen(np.array(getattr(self, name), order="C")))
        cap = moves_cap(*self.mines.shape) if self.mines.ndim == 2 else 0
        if self.moves.ndim != 2 or self.moves.shape[0] > cap:
            raise ValueError(f"a replay of a {'x'.join(map(str, self.mines.shape))} board holds "
                             f"at most {cap:,} moves (fastmine.limits.max_moves), got "
                             f"{self.moves.shape[0]:,}")

    # ------------------------------------------------------------ building

    @classmethod
    def from_game(cls, game: Game) -> Replay:
        """The replay of ``game`` so far.

        Raises ValueError if the game has no board yet (no reveal), if its move
        log is incomplete (resumed from an old save), or if its moves do not
        replay to it (its cells were changed other than by moves, e.g. a save
        edited by hand, or a save written before marks logged their cycle, with
        question marks switched during the game): a replay is exact or there is
        none.  A move taken back with :meth:`fastmine.Game.take_back_loss`
        leaves the log, so such a game keeps its replay.

        Parameters
        ----------
        game : Game
            A game with at least one reveal, in any state.

        Returns
        -------
        Replay
            Its board, settings, moves, state and time.

        Raises
        ------
        TypeError
            ``game`` is not a :class:`fastmine.Game`.
        ValueError
            The game has no replay (see above).
        """
        if not isinstance(game, Game):
            raise TypeError(f"Replay.from_game needs a fastmine.Game, got {type(game).__name__}")
        if game.board is None:
            raise ValueError("a game has a replay only once its first cell is revealed")
        if not game.moves_complete:
            raise ValueError("this game was resumed from a save without its moves; "
                             "it has no replay")
        if game._core.log_count() > moves_cap(game.rows, game.cols):   # (its file could
            raise ValueError(f"this game has more moves than a replay holds "   # not be read)
                             f"({moves_cap(game.rows, game.cols):,} on a {game.rows}x"
                             f"{game.cols} board); it has no replay")
        rep = cls(game.board.mines.copy(), game.rule, game.moves, game.state,
                  float(game.elapsed), bool(game.question_marks), bool(game.assisted))
        try:
            again: Game | None = rep.play()
        except GameOverError:       # e.g. a log from a save edited by hand
            again = None
        if again is None or again.state is not game.state or not np.array_equal(again.view, game.view):
            raise ValueError("this game's moves do not replay to it (it was changed by "
                             "other means); it has no replay")
        return rep

    # ------------------------------------------------------------ reading

    @property
    def rows(self) -> int:
        """Number of rows."""
        return int(self.mines.shape[0])

    @property
    def cols(self) -> int:
        """Number of columns."""
        return int(self.mines.shape[1])

    @property
    def mine_count(self) -> int:
        """Number of mines."""
        return int(np.count_nonzero(self.mines))

    def __len__(self) -> int:
        """Number of moves."""
        return int(self.moves.shape[0])

    @property
    def times(self) -> NDArray[np.float64]:
        """The game time of each move, in seconds."""
        return self.moves[:, 3] / 1000.0

    @property
    def board(self) -> Board:
        """The board the game was played on (a new :class:`fastmine.Board` each time)."""
        return Board.from_mines(self.mines)

    def describe_move(self, k: int) -> str:
        """Words for move ``k``, e.g. ``"0:03.250 reveal row 4, col 5"``.

        Parameters
        ----------
        k : int
            The move's index, 0-based.

        Returns
        -------
        str
            Its game time, kind and cell (rows and columns 1-based, as the
            terminal shows them), and ``(solver)`` for a solver's move.
        """
        kind, r, c, ms = (int(v) for v in self.moves[k])
        who = " (solver)" if kind & MOVE_ASSIST else ""
        m, s = divmod(ms, 60_000)
        return f"{m}:{s / 1000:06.3f} {KIND_NAMES[kind & KIND_BITS]} row {r + 1}, col {c + 1}{who}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Replay):
            return NotImplemented
        return (np.array_equal(self.mines, other.mines) and self.rule == other.rule
                and np.array_equal(self.moves, other.moves) and self.state is other.state
                and self.time == other.time and self.question_marks == other.question_marks
                and self.assisted == other.assisted
                and (self.mouse is None if other.mouse is None
                     else self.mouse is not None and np.array_equal(self.mouse, other.mouse)
                     and self.mouse_unit == other.mouse_unit))

    __hash__ = None  # type: ignore[assignment]  # holds arrays: not hashable

    # ------------------------------------------------------------ playing

    def play(self, upto: int | None = None) -> Game:
        """A new game after the first ``upto`` moves (all by default).

        Its clock is frozen at the time of the last move made, so ``elapsed``
        is the recorded game time (to the millisecond); its move log equals
        the first ``upto`` recorded moves.

        Parameters
        ----------
        upto : int, optional
            How many moves to make, 0 to ``len(self)``.

        Returns
        -------
        Game
            The game after those moves.

        Raises
        ------
        TypeError
            ``upto`` is not a whole number.
        ValueError
            ``upto`` is out of range.
        """
        n = len(self)
        if upto is None:
            upto = n
        if not is_integer(upto):
            raise TypeError(f"upto must be a whole number of moves, got {upto!r:.40}")
        if not 0 <= upto <= n:
            raise ValueError(f"upto must be 0 to {n} (the number of moves), got {upto}")
        frames = self.frames(int(upto))
        game = next(frames)
        for game in frames:  # noqa: B007 - the last frame is the answer
            pass
        return game

    def frames(self, upto: int | None = None) -> Iterator[Game]:
        """The game before any move, then after each move up to ``upto``.

        For playback; :meth:`play` checks ``upto``, this does not.

        Parameters
        ----------
        upto : int, optional
            The last move to play (all by default).

        Yields
        ------
        Game
            One game, yielded again after every move (copy it to keep a frame).
        """
        n = len(self) if upto is None else upto
        # The clock shows the recorded time of the move being made.
        clock = ManualClock()
        game = Game.from_board(self.board, question_marks=self.question_marks, clock=clock,
                               rule=self.rule)
        yield game
        last = len(self)
        i = 0
        for start in range(0, n, _FRAME_CHUNK):     # as Python ints, a chunk at a time:
            chunk = self.moves[start:min(n, start + _FRAME_CHUNK)].tolist()  # (all at once
            for kind, r, c, ms in chunk:                      # took ~200 bytes a move)
                i += 1
                clock.now = ms / 1000.0
                game._play_logged(kind, r, c)
                # The solver's moves make the game assisted; so does the player's
                # use of a hint, known only for the whole game.
                game.assisted = game.assisted or bool(kind & MOVE_ASSIST) or (
                    i == last and self.assisted)
                yield game

    # ------------------------------------------------------------ the file

    def to_dict(self) -> dict[str, Any]:
        """The replay as the JSON-ready dict of its file (see docs/replays.md).

        Returns
        -------
        dict
            Format, version, size, settings, state and time, and the mines and
            moves packed as base64.
        """
        return fileformat.to_dict(self)

    def to_bytes(self) -> bytes:
        """The replay file's bytes.

        Returns
        -------
        bytes
            Compact UTF-8 JSON of :meth:`to_dict`, and a newline.
        """
        return fileformat.to_bytes(self)

    @classmethod
    def from_dict(cls, d: object) -> Replay:
        """Read :meth:`to_dict`'s dict; the moves are checked by playing them.

        Parameters
        ----------
        d : dict
            The dict, as read from JSON.

        Returns
        -------
        Replay
            The replay.

        Raises
        ------
        fastmine.SaveFormatError
            Anything corrupt: a missing or wrong field, moves that do not play.
        fastmine.FutureVersionError
            A replay written by a newer fastmine.
        """
        return fileformat.from_dict(cls, d)

    @classmethod
    def from_bytes(cls, data: bytes) -> Replay:
        """Read :meth:`to_bytes`'s bytes.

        Parameters
        ----------
        data : bytes
            The file's content.

        Returns
        -------
        Replay
            The replay.

        Raises
        ------
        fastmine.SaveFormatError
            Not JSON, or anything corrupt (as :meth:`from_dict`).
        fastmine.FutureVersionError
            A replay written by a newer fastmine.

        Notes
        -----
        The size and shape are checked before parsing: at most
        :data:`MAX_REPLAY_BYTES`, one flat object (:data:`MAX_REPLAY_FIELDS`).
        """
        return fileformat.from_bytes(cls, data)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the replay file atomically.

        Never over one of fastmine's own files, the records database or the
        saved game among them (:func:`fastmine.files.storage.refuse_owned`).

        Parameters
        ----------
        path : str or os.PathLike
            Where to write (any name; ``.fmreplay`` by convention).

        Returns
        -------
        pathlib.Path
            The path written.

        Raises
        ------
        ValueError
            ``path`` is one of fastmine's own files.
        OSError
            The file cannot be written (the old one, if any, is kept).
        """
        return fileformat.save(self, path)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Replay:
        """Read a replay file written by :meth:`save` (or exported by fastmine).

        The file is read whole, up to :data:`MAX_REPLAY_BYTES`, and every move
        is checked by playing it, so a replay that loads plays back exactly.

        Parameters
        ----------
        path : str or os.PathLike
            The replay file.

        Returns
        -------
        Replay
            The replay it holds.

        Raises
        ------
        FileNotFoundError
            No such file.
        fastmine.SaveFormatError
            The file cannot be read (a folder, a device, unreadable, too
            big), or it is not a replay or is corrupt; the message names the
            file.
        fastmine.FutureVersionError
            A replay written by a newer fastmine (the message names the file).
        """
        return fileformat.load(cls, path)


class Seeker:
    """A replay's positions in any order, for a player that jumps about:
    :meth:`goto` gives the game after ``k`` moves, played forward from where
    it is, or again from the start to go back (no move is ever undone).  The
    game is one object throughout: copy it to keep a position.

    Parameters
    ----------
    replay : Replay
        The replay to step through.

    Examples
    --------
    >>> import fastmine
    >>> g = fastmine.Game(9, 9, 10, seed=1)
    >>> _ = g.reveal(4, 4)
    >>> hidden = np.argwhere(g.view == fastmine.HIDDEN)[0]
    >>> _ = g.toggle_mark(*hidden.tolist())
    >>> s = Seeker(Replay.from_game(g))
    >>> s.goto(2).mines_left, s.goto(1).mines_left, s.k
    (9, 10, 1)
    """

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self._frames: Iterator[Game] = replay.frames()
        self.game: Game = next(self._frames)
        self.k = 0
        """How many moves the game shows."""

    def goto(self, k: int) -> Game:
        """The game after ``k`` moves.

        Parameters
        ----------
        k : int
            How many moves, clamped to 0..len(replay).

        Returns
        -------
        Game
            The seeker's one game, now after ``k`` moves.
        """
        k = max(0, min(int(k), len(self.replay)))
        if k < self.k:
            self._frames = self.replay.frames()
            self.game = next(self._frames)
            self.k = 0
        while self.k < k:
            self.game = next(self._frames)
            self.k += 1
        return self.game


_FRAME_CHUNK = 4096
"""Moves turned into Python ints at a time while playing."""
