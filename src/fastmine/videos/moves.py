"""From a video's mouse events to the player's moves: :func:`play_video`."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from .clientrules import ACTIONS, BUTTONS, ClientBoard, GameStatus
from .model import Video

__all__ = ["ClickLog", "Move", "VideoPlay", "play_video"]


class Move(NamedTuple):
    """One counted click of the player, in the order they happened.

    Attributes
    ----------
    time_ms : int
        When (the event that made it), in ms on the video's clock.
    button : str
        ``"left"``, ``"right"`` or ``"double"`` (a chord: both buttons or the
        middle one), as the click counts name them.
    action : str
        What the click did or tried: ``"reveal"`` (left), ``"flag"``,
        ``"unflag"``, ``"question"`` (a flag turned into a question mark),
        ``"unmark"`` (a question mark cleared), ``"mark"`` (a right click on an
        open cell or off the board: no effect), ``"chord"``.
    row, col : int
        The cell, or -1, -1 for a click off the board.
    changed : bool
        Whether the board changed (a reveal of a hidden cell, a flag laid or
        taken, a chord that opened cells).  Clicks that changed nothing are
        kept: they count.
    event : int
        Index of the event in :attr:`Video.events` that made the move.
    """

    time_ms: int
    button: str
    action: str
    row: int
    col: int
    changed: bool
    event: int


LEFT, RIGHT, DOUBLE = range(3)
"""The button codes of :attr:`ClickLog.button` (:data:`BUTTONS` names them)."""


# ClickLog and VideoPlay are frozen dataclasses whose __init__ and __repr__ are
# written out here, doing what dataclass's own would (init=False, repr=False):
# dataclass generates its methods by compiling source at import, which for these two
# classes cost 0.6 ms at every start of fastmine analyze; written here, they are
# compiled once into the bytecode cache.  tests/videos/test_play_dataclasses.py checks
# them against dataclass's own.


@dataclass(frozen=True, eq=False, init=False, repr=False)
class ClickLog:
    """A video's counted clicks as arrays, one entry a click (see :class:`Move`).

    Attributes
    ----------
    time_ms, event : ndarray of int64
        When, and the index in :attr:`Video.events` of the event that made it.
    button, action : ndarray of uint8
        Codes: :data:`BUTTONS` and :data:`ACTIONS` name them.
    cell : ndarray of int64
        Row-major cell index, -1 off the board.
    changed : ndarray of bool
        Whether the board changed.
    cols : int
        The board's width (a cell's row is ``cell // cols``).
    """

    time_ms: NDArray[np.int64]
    event: NDArray[np.int64]
    button: NDArray[np.uint8]
    action: NDArray[np.uint8]
    cell: NDArray[np.int64]
    changed: NDArray[np.bool_]
    cols: int

    def __init__(self, time_ms: NDArray[np.int64], event: NDArray[np.int64],
                 button: NDArray[np.uint8], action: NDArray[np.uint8], cell: NDArray[np.int64],
                 changed: NDArray[np.bool_], cols: int) -> None:
        # Frozen: straight into the instance's dict, where dataclass's own __init__
        # puts them through object.__setattr__ (half the time).
        d = self.__dict__
        d["time_ms"] = time_ms
        d["event"] = event
        d["button"] = button
        d["action"] = action
        d["cell"] = cell
        d["changed"] = changed
        d["cols"] = cols

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(time_ms={self.time_ms!r}, event={self.event!r}, "
                f"button={self.button!r}, action={self.action!r}, cell={self.cell!r}, "
                f"changed={self.changed!r}, cols={self.cols!r})")


@dataclass(frozen=True, eq=False, init=False, repr=False)
class VideoPlay:
    """The game a video holds, as the recording client played it.

    Attributes
    ----------
    moves : tuple of Move
        Every counted click.  Clicks the clients stop counting are not moves:
        before the first reveal, taking off the only flag, or a left release
        off the board with no flag laid, undoes everything done so far (the
        counts start again; the board is untouched again), and the clicks
        before it go (the events still hold them).
    outcome : str
        ``"won"``, ``"lost"`` or ``"unfinished"``.
    start_ms : int or None
        Time of the event that revealed the first cell (None if none did).
    end_ms : int
        Time of the event that won or lost the game, else of the last event.
    time_ms : int
        The game's time, ``end_ms - start_ms`` (0 when it never started).
    left, right, double : int
        Click counts as the clients count them (every click, off the board too).
    left_effective, right_effective, double_effective : int
        ms-toollib's effective clicks: a reveal of a hidden cell, the first
        flag on each mine, a chord that opened cells.
    bbbv_solved : int
        3BV solved (ms-toollib's count).
    flags : int
        Flags on the board at the end.
    final_view : ndarray of int8
        The board at the end, in fastmine's view codes.
    log : ClickLog
        The same clicks as arrays (:attr:`moves` is made from it when first
        read: what the metrics and the coach need is read from the arrays).
    """

    outcome: str
    start_ms: int | None
    end_ms: int
    time_ms: int
    left: int
    right: int
    double: int
    left_effective: int
    right_effective: int
    double_effective: int
    bbbv_solved: int
    flags: int
    final_view: NDArray[np.int8]
    log: ClickLog = field(repr=False)

    def __init__(self, outcome: str, start_ms: int | None, end_ms: int, time_ms: int,
                 left: int, right: int, double: int, left_effective: int,
                 right_effective: int, double_effective: int, bbbv_solved: int, flags: int,
                 final_view: NDArray[np.int8], log: ClickLog) -> None:
        d = self.__dict__                     # as ClickLog's
        d["outcome"] = outcome
        d["start_ms"] = start_ms
        d["end_ms"] = end_ms
        d["time_ms"] = time_ms
        d["left"] = left
        d["right"] = right
        d["double"] = double
        d["left_effective"] = left_effective
        d["right_effective"] = right_effective
        d["double_effective"] = double_effective
        d["bbbv_solved"] = bbbv_solved
        d["flags"] = flags
        d["final_view"] = final_view
        d["log"] = log

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(outcome={self.outcome!r}, "
                f"start_ms={self.start_ms!r}, end_ms={self.end_ms!r}, "
                f"time_ms={self.time_ms!r}, left={self.left!r}, right={self.right!r}, "
                f"double={self.double!r}, left_effective={self.left_effective!r}, "
                f"right_effective={self.right_effective!r}, "
                f"double_effective={self.double_effective!r}, "
                f"bbbv_solved={self.bbbv_solved!r}, flags={self.flags!r}, "
                f"final_view={self.final_view!r})")

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """Every counted click, as :class:`Move` (see the class's attributes)."""
        lg = self.log
        cols = lg.cols
        return tuple(
            Move(int(t), BUTTONS[b], ACTIONS[a], p // cols if p >= 0 else -1,
                 p % cols if p >= 0 else -1, bool(ch), i)
            for t, i, b, a, p, ch in zip(lg.time_ms.tolist(), lg.event.tolist(),
                                         lg.button.tolist(), lg.action.tolist(),
                                         lg.cell.tolist(), lg.changed.tolist(), strict=True))

    def first_reveal(self) -> int:
        """Where the game started: the left click that revealed the first cell.

        Returns
        -------
        int
            Its index in :attr:`moves` (and :attr:`log`); -1 if no click did.
        """
        hits = np.flatnonzero((self.log.button == LEFT) & self.log.changed)
        return int(hits[0]) if len(hits) else -1

    def last_change(self) -> int:
        """The last click that changed the board.

        Returns
        -------
        int
            Its index in :attr:`moves` (and :attr:`log`); -1 if no click did.
        """
        hits = np.flatnonzero(self.log.changed)
        return int(hits[-1]) if len(hits) else -1

    @property
    def clicks(self) -> int:
        """All clicks: ``left + right + double``."""
        return self.left + self.right + self.double

    @property
    def effective_clicks(self) -> int:
        """Clicks that did something (ms-toollib's ``ce``)."""
        return self.left_effective + self.right_effective + self.double_effective


def play_video(video: Video, question_marks: bool | None = None,
               count_chord_right_press: bool | None = None) -> VideoPlay:
    """Turn a video's mouse events into the player's moves, by the clients' rules.

    The rules are :class:`~fastmine.videos.clientrules.ClientBoard`'s: left
    reveals on release, right flags on press, both buttons or the middle one
    chord (on a revealed 0 too), clicks before the first reveal and off the
    board counted as the clients count them.

    Parameters
    ----------
    video : Video
        A video from :func:`~fastmine.videos.read_video`.
    question_marks : bool, optional
        Whether a right click on a flag makes a question mark.  By default
        the video's own setting; ms-toollib never does, so compare with it
        using False.
    count_chord_right_press : bool, optional
        Whether the right press of a chord begun on an open cell counts as a
        right click: by default only in Minesweeper Clone's videos, whose own
        counts do so (ms-toollib never does).

    Returns
    -------
    VideoPlay
    """
    marks = bool(video.question_marks) if question_marks is None else question_marks
    clone = video.software == "Minesweeper Clone"
    board = ClientBoard(video.mine_layout, marks,
                        clone if count_chord_right_press is None else count_chord_right_press)
    ev = video.events
    # In the kernel's types: read_video's columns are (no copy); events made some
    # other way (other dtypes, strided) are copied into them, with NumPy's casts.
    columns = (np.ascontiguousarray(ev.kind, np.uint8), np.ascontiguousarray(ev.row, np.int32),
               np.ascontiguousarray(ev.col, np.int32), np.ascontiguousarray(ev.time_ms, np.int64))
    played = board._play(*columns)
    if played is None:
        raise ValueError("a video's events must be 1-D columns of one length, with at "
                         "least one event; got kind, row, col and time_ms of shapes "
                         + ", ".join(str(c.shape) for c in columns))
    # The kernel played them all and handed back the log's arrays, read-only already.
    start, end, arrays = played
    log = ClickLog(*arrays, video.cols)
    outcome = {GameStatus.WON: "won", GameStatus.LOST: "lost"}.get(board.status, "unfinished")
    return VideoPlay(
        outcome=outcome, start_ms=start, end_ms=end,
        time_ms=0 if start is None else end - start, left=board.left, right=board.right,
        double=board.double, left_effective=board.lce, right_effective=board.rce,
        double_effective=board.dce, bbbv_solved=board.bbbv_solved, flags=board.flags,
        final_view=board.view(), log=log)
