"""The clients' rules: how presses and releases become reveals, flags and chords.

:class:`ClientBoard` is the mouse state machine and board of the competitive
clients (Arbiter, Vienna, Clone, Metasweeper) as ms-toollib's
``MinesweeperBoard`` models them, the reference the community's tools
(Metasweeper, the ranking sites) compute click counts and solved 3BV with:

- a left click reveals on the release, on the cell under the pointer then;
- a right press flags or unflags at once (right clicks on open cells count too);
- both buttons down make a chord, done on the first release; the right press
  that started it is not counted as a right click when it was on an open
  cell (Minesweeper Clone counts it: ``count_chord_right_press``); the middle
  button chords on its release;
- a chord on a revealed number whose adjacent flags equal it opens its other
  hidden neighbours -- on a revealed 0 too: a 0 whose neighbour was left
  hidden by a flag that is gone opens it (as fastmine's own chord does);
- before the first reveal, flags may be laid ("preflags"); a left release off
  the board with no preflag cancels everything done so far, as taking off the
  last preflag does;
- EVF's events that do not say press or release (``LEFT``, ``RIGHT``,
  ``MIDDLE``) are played as ms-toollib plays them once the game runs, and
  before it as the press when the button is up, the release when it is down;
- after the game is won or lost nothing counts.

Where ms-toollib has no rule (it stops with an error, or aborts the process:
a middle release off the board, a preflag on a flagged cell, a second right
press without a release before the game), the event is taken as a click with
no effect, or ignored.

Counts follow ms-toollib's definitions: ``left``, ``right``, ``double``
(every click, effective or not, off the board too); ``lce``, ``rce``,
``dce`` (effective clicks: a reveal of a hidden cell, the first flag on each
mine, a chord that opened something); ``bbbv_solved``.

The rules run in a compiled kernel, which builds the board from the mines; this
layer checks every argument first, but for the events of :meth:`ClientBoard.run`,
which the kernel checks, all before it applies any.
Cells are kept in ms-toollib's codes (0-8 open, 10 hidden, 11 flag, 12
question mark, 14 wrong flag, 15 the mine that blew), so a test can compare
them with ms-toollib's board; :meth:`ClientBoard.view` gives fastmine's view codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ..limits import check_board_size
from ._clicks import ClickKernel
from .model import EventKind

__all__ = ["ACTIONS", "BUTTONS", "ClientBoard", "GameStatus"]

BUTTONS = ("left", "right", "double")
"""The click counts' names, by the kernel's button code."""

ACTIONS = ("reveal", "flag", "unflag", "question", "unmark", "mark", "chord")
"""What a click did or tried, by the kernel's action code (see :class:`~fastmine.videos.Move`)."""


class GameStatus:
    """Where the game is: :data:`READY` (nothing done), :data:`PREFLAGGING`
    (pressed or flagged before the first reveal), :data:`PLAYING`, :data:`WON`,
    :data:`LOST`."""

    READY = "ready"
    PREFLAGGING = "preflagging"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


if TYPE_CHECKING:   # only in annotations: building the alias costs 27 us at every start
    _LogArrays = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.uint8],
                       NDArray[np.uint8], NDArray[np.int64], NDArray[np.bool_]]

_STATUS = (GameStatus.READY, GameStatus.PREFLAGGING, GameStatus.PLAYING, GameStatus.WON,
           GameStatus.LOST)
_LAST_KIND = max(EventKind)


class ClientBoard:
    """The clients' board and mouse state machine; feed it a video's events with :meth:`step`.

    Parameters
    ----------
    mine_layout : array-like of bool, shape (rows, cols)
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

    Raises
    ------
    ValueError
        If the layout is not 2-D or its size is past fastmine's limits.
    """

    def __init__(self, mine_layout: NDArray[np.bool_], question_marks: bool = False,
                 count_chord_right_press: bool = False) -> None:
        mines = np.asarray(mine_layout, dtype=bool)
        if mines.ndim != 2:
            raise ValueError(f"the mine layout must be 2-D (rows, cols), got shape {mines.shape}")
        rows, cols = check_board_size(int(mines.shape[0]), int(mines.shape[1]))
        self.rows = rows
        self.cols = cols
        # The kernel builds the numbers and 3BV from the mines itself (a copy).
        self._k = ClickKernel(np.ascontiguousarray(mines), rows, cols, bool(question_marks),
                              bool(count_chord_right_press))

    # Counts and state, read from the kernel.
    @property
    def question_marks(self) -> bool:
        """Whether a right click on a flag makes a question mark."""
        return self._k.question_marks

    @property
    def count_chord_right_press(self) -> bool:
        """Whether a chord's right press on an open cell counts as a right click."""
        return self._k.count_chord_right_press

    @property
    def left(self) -> int:
        """Left clicks so far."""
        return self._k.left

    @property
    def right(self) -> int:
        """Right clicks so far."""
        return self._k.right

    @property
    def double(self) -> int:
        """Double clicks (chords) so far."""
        return self._k.double

    @property
    def lce(self) -> int:
        """Effective left clicks (reveals of a hidden cell)."""
        return self._k.lce

    @property
    def rce(self) -> int:
        """Effective right clicks (the first flag on each mine)."""
        return self._k.rce

    @property
    def dce(self) -> int:
        """Effective double clicks (chords that opened cells)."""
        return self._k.dce

    @property
    def bbbv_solved(self) -> int:
        """3BV solved so far."""
        return self._k.bbbv_solved

    @property
    def flags(self) -> int:
        """Flags on the board."""
        return self._k.flags

    @property
    def status(self) -> str:
        """A :class:`GameStatus` value."""
        return _STATUS[self._k.status]

    @property
    def cells(self) -> list[int]:
        """The board in ms-toollib's codes, row by row (0-8 open, 10 hidden, 11 flag,
        12 question mark, 14 wrong flag, 15 the mine that blew)."""
        out: list[int] = self._k.grid()[1:-1, 1:-1].ravel().tolist()
        return out

    @property
    def log(self) -> list[tuple[int, str, str, int, bool]]:
        """One ``(event, button, action, cell, changed)`` entry per counted click:
        ``event`` as given to :meth:`step`, ``cell`` the row-major index of the
        cell (-1 off the board)."""
        event, button, action, cell, changed = self._log_arrays()
        return list(zip(event.tolist(), [BUTTONS[b] for b in button.tolist()],
                        [ACTIONS[a] for a in action.tolist()], cell.tolist(), changed.tolist(),
                        strict=True))

    def _log_arrays(self) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.uint8],
                                   NDArray[np.int64], NDArray[np.bool_]]:
        """The log as arrays, cells as row-major indices (-1 off the board)."""
        event, button, action, padded, changed = self._k.log()
        w = self.cols + 2
        p = padded.astype(np.int64)
        cell = np.where(p >= 0, (p // w - 1) * self.cols + p % w - 1, -1)
        return event, button, action, cell, changed

    def _play(self, kinds: NDArray[np.uint8], rows: NDArray[np.int32], cols: NDArray[np.int32],
              times: NDArray[np.int64]) -> tuple[int | None, int, _LogArrays] | None:
        """:func:`~fastmine.videos.play_video`'s events, all of a video's, moves too.

        None, with nothing done, unless they are as :class:`~fastmine.videos.Events`
        holds them (1-D C-contiguous uint8, int32, int32, int64 of one non-zero
        length).  Else as :meth:`run` over them with each event's position for its
        index (it raises its ValueError, nothing applied, for a click that is not
        right; moves are skipped), returning the time of the event that started the
        game (None if none did), the time of the one that ended it (else of the last
        event), and the click log as :class:`~fastmine.videos.ClickLog`'s arrays in
        order (time, event, button, action, row-major cell, changed), read-only.
        """
        played: tuple[int | None, int, _LogArrays] | None = self._k.play(kinds, rows, cols,
                                                                           times)
        return played

    def view(self) -> NDArray[np.int8]:
        """The board as fastmine's view codes (``HIDDEN``, ``FLAG``, numbers, ...).

        As fastmine shows a finished game: after a win every mine shows as a
        ``FLAG``, after a loss the unflagged mines as ``MINE``.

        Returns
        -------
        numpy.ndarray
            int8 (rows, cols), as :attr:`fastmine.Game.view`.
        """
        out: NDArray[np.int8] = self._k.view()
        return out

    def step(self, kind: int, row: int, col: int, event: int = -1) -> int:
        """Apply one mouse event at cell ``(row, col)`` (-1, -1 off the board).

        Parameters
        ----------
        kind : int
            An :class:`~fastmine.videos.EventKind`.
        row, col : int
            The cell under the pointer, or -1, -1.
        event : int
            Stored in the :attr:`log` entry of the click it makes (its index).

        Returns
        -------
        int
            ms-toollib's "useful level": 0 nothing changed, 1 a flag or
            question mark, 2 a reveal, 3 a chord that opened cells, 4 a mine.

        Raises
        ------
        ValueError
            An unknown kind, or a cell off the board that is not (-1, -1).
        """
        kind, row, col, event = int(kind), int(row), int(col), int(event)
        if not 0 <= kind <= _LAST_KIND:
            raise ValueError(f"unknown event kind {kind}")
        if not ((0 <= row < self.rows and 0 <= col < self.cols) or row == col == -1):
            raise ValueError(f"cell ({row}, {col}) is not on the {self.rows}x{self.cols} "
                             "board, nor (-1, -1) for off the board")
        if not -2**63 <= event < 2**63:
            raise ValueError(f"event index {event} does not fit in 64 bits")
        return self._k.step(kind, row, col, event)

    def run(self, kinds: NDArray[np.uint8], rows: NDArray[np.int32], cols: NDArray[np.int32],
            index: NDArray[np.int64]) -> tuple[int, int, int]:
        """Step through events until the game ends (as :meth:`step` each).

        Parameters
        ----------
        kinds : numpy.ndarray
            uint8: each event's :class:`~fastmine.videos.EventKind`.
        rows, cols : numpy.ndarray
            int32: the cell under the pointer, or -1, -1.
        index : numpy.ndarray
            int64: each event's index, as :meth:`step` takes it.

        Returns
        -------
        tuple of int
            The number of events used, and the positions (in these arrays) of
            the event that started the game and of the one that ended it (-1
            when none did).

        Raises
        ------
        ValueError
            As :meth:`step`, for any of the events, before any is applied.
        """
        k = np.ascontiguousarray(kinds, dtype=np.uint8)
        r = np.ascontiguousarray(rows, dtype=np.int32)
        c = np.ascontiguousarray(cols, dtype=np.int32)
        i = np.ascontiguousarray(index, dtype=np.int64)
        if not k.shape == r.shape == c.shape == i.shape or k.ndim != 1:
            raise ValueError("kinds, rows, cols and index must be 1-D arrays of one length")
        # The kernel checks the kinds and cells before it applies any event.
        used, start, end = self._k.run(k, r, c, i)
        return used, start, end
