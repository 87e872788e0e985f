"""What a video holds once read: :class:`Video` and its :class:`Events`.

One data model for the four formats.  A reader fills it from the bytes and
checks every count and size against what a real game can hold (the limits
below) before it allocates anything.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._frozen import frozen
from ._records import pack
from .binread import Cursor

if TYPE_CHECKING:   # (NDArray[...] costs 0.2 ms at import; only annotations use it)
    from ._records import _Columns

__all__ = [
    "EVENT_CODES",
    "LEVELS",
    "MAX_EVENT_RATE",
    "MAX_FILE_BYTES",
    "MAX_TIME_MS",
    "EventKind",
    "Events",
    "Video",
    "level_of",
]

MAX_FILE_BYTES = 16 * 2**20
"""Largest video file read (16 MiB).

A recorded Expert game is 15-80 kB, a 20-minute 36x60 marathon 340 kB; 16 MiB
holds hours of mouse movement in any format.  Checked before the file is read.
"""

MAX_EVENT_RATE = 2000
"""Most mouse events a video may hold per second of recorded time (plus 20,000).

A mouse reports at most 1000 times a second, and each report is a move and at
most a press or a release; real videos hold 30-300 events a second.  A file
claiming more is not a recording of a game.
"""

_EVENT_ALLOWANCE = 20_000

MAX_TIME_MS = 2**31 - 1
"""Latest event time accepted (about 24.8 days), in milliseconds."""

LEVELS = ("beginner", "intermediate", "expert", "custom")
"""Level names, as the clients use them.  Beginner is 8x8 with 10 mines in
every client (fastmine's own Beginner is 9x9)."""

_STANDARD = {(8, 8, 10): "beginner", (16, 16, 40): "intermediate", (16, 30, 99): "expert"}


def level_of(rows: int, cols: int, mines: int) -> str:
    """The clients' level of a board: ``"beginner"`` for 8x8 with 10 mines,
    ``"intermediate"`` 16x16/40, ``"expert"`` 16 rows by 30 columns with 99, else
    ``"custom"``."""
    return _STANDARD.get((rows, cols, mines), "custom")


class EventKind(enum.IntEnum):
    """What a recorded mouse event is.

    The first seven are what every format records.  The rest come from EVF,
    whose writers may record less than a full press or release:

    ``PRE_FLAG``
        A flag laid before the game started, recorded without its click (RMV's
        preflags section, EVF's ``pf``).
    ``BOTH_DOWN``
        A chord's press where the file does not say which button went down last
        (EVF ``cc``).
    ``LEFT``, ``RIGHT``, ``MIDDLE``
        A press or a release of that button, not saying which (EVF ``l``,
        ``r``, ``m``); the button's state before it decides.
    """

    MOVE = 0
    LEFT_DOWN = 1
    LEFT_UP = 2
    RIGHT_DOWN = 3
    RIGHT_UP = 4
    MIDDLE_DOWN = 5
    MIDDLE_UP = 6
    PRE_FLAG = 7
    BOTH_DOWN = 8
    LEFT = 9
    RIGHT = 10
    MIDDLE = 11

    @property
    def code(self) -> str:
        """The community's short name for the event (``"mv"``, ``"lc"``, ``"lr"``, ...)."""
        return EVENT_CODES[self]


EVENT_CODES = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m")
"""Short names of the :class:`EventKind` values, in order, as rawvf and ms-toollib
spell them (``"lc"``: left press, ``"lr"``: left release, ...)."""


_A = TypeVar("_A", bound=np.ndarray)


def _frozen(a: _A) -> _A:
    """A private read-only copy nobody can make writable again (a flag alone can be
    switched back by whoever holds the array).

    An array over a bytes object (the readers' kernels make them) is kept as it
    is: its memory cannot change, so a copy would only cost time.
    """
    base: object = getattr(a, "base", None)      # (NumPy's stubs say only arrays or None)
    if type(base) is bytes and not a.flags.writeable and a.flags.c_contiguous:
        return a
    return cast(_A, frozen(np.array(a, order="C", copy=True)))  # the same type as a


# Events and Video write their own __init__ (init=False), which fills the
# instance's dict at once: the generated one of a frozen dataclass sets each field
# through object.__setattr__, 4 us a video, and compiles itself at every start.
@dataclass(frozen=True, eq=False, init=False)
class Events:
    """A video's mouse events, one array entry per event, in recorded order.

    Attributes
    ----------
    time_ms : ndarray of int64
        When the event happened, in milliseconds on the video's clock (see
        :attr:`Video.events`): Arbiter and Clone 0.97 record hundredths, the
        others milliseconds.
    kind : ndarray of uint8
        An :class:`EventKind` value.
    x, y : ndarray of int32
        The pointer in pixels from the board's top-left corner
        (:attr:`Video.cell_size` pixels a cell).  Off the board they may be
        negative or beyond it, as recorded.
    row, col : ndarray of int32
        The cell under the pointer, or -1 for both when the pointer is off the board.
    """

    time_ms: NDArray[np.int64]
    kind: NDArray[np.uint8]
    x: NDArray[np.int32]
    y: NDArray[np.int32]
    row: NDArray[np.int32]
    col: NDArray[np.int32]

    def __init__(self, time_ms: NDArray[np.int64], kind: NDArray[np.uint8],
                 x: NDArray[np.int32], y: NDArray[np.int32], row: NDArray[np.int32],
                 col: NDArray[np.int32]) -> None:
        d = self.__dict__
        d["time_ms"] = time_ms
        d["kind"] = kind
        d["x"] = x
        d["y"] = y
        d["row"] = row
        d["col"] = col

    def __len__(self) -> int:
        return int(self.time_ms.shape[0])

    @classmethod
    def build(cls, time_ms: ArrayLike, kind: ArrayLike, x: ArrayLike, y: ArrayLike,
              cell_size: int, rows: int, cols: int, cur: Cursor) -> Events:
        """Events from their columns, checked: times in range, not too many for
        the time they span.

        Parameters
        ----------
        time_ms, kind, x, y : array_like
            The columns, one entry per event (pixels for ``x`` and ``y``).
        cell_size : int
            Pixels per cell, to find the cell under the pointer.
        rows, cols : int
            The board's size.
        cur : Cursor
            The file's reader, which names the file in an error.

        Returns
        -------
        Events
            The checked, read-only columns, with the cells.

        Raises
        ------
        VideoFormatError
            No events, a time out of range, or more events than a mouse makes.
        """
        t = np.asarray(time_ms, dtype=np.int64)
        k = np.asarray(kind, dtype=np.uint8)
        xs = np.asarray(x, dtype=np.int32)
        ys = np.asarray(y, dtype=np.int32)
        # One compiled pass: the columns, the cells under the pointer and the time span.
        lo, hi, columns = pack(t, k, xs, ys, cell_size, rows, cols)
        return cls._checked(t.shape[0], lo, hi, columns, cur)

    @classmethod
    def _checked(cls, n: int, lo: int, hi: int, columns: _Columns, cur: Cursor) -> Events:
        """Events from ``n`` packed columns spanning ``lo..hi`` ms, once the count and
        times are checked (the checks of :meth:`build`)."""
        if n == 0:
            raise cur.fail("the video has no mouse events")
        if lo < 0 or hi > MAX_TIME_MS:
            bad = lo if lo < 0 else hi
            raise cur.fail(f"an event time of {bad} ms is outside 0..{MAX_TIME_MS} ms")
        span_s = (hi - lo) / 1000
        if n > _EVENT_ALLOWANCE + MAX_EVENT_RATE * span_s:
            raise cur.fail(f"{n} mouse events in {span_s:.3f} s is more than a mouse makes "
                           f"(at most {MAX_EVENT_RATE} a second)")
        return cls(*columns)


_NO_DETAILS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, eq=False, init=False, repr=False)
class Video:
    """A recorded game as a video file holds it.

    Read one with :func:`fastmine.videos.read_video`; turn its events into the
    player's moves with :func:`fastmine.videos.play_video`.

    Attributes
    ----------
    source : str
        The file's name (``"<bytes>"`` when read from memory).
    format : str
        ``"avf"``, ``"rmv"``, ``"mvf"`` or ``"evf"``.
    format_version : str
        The layout's version: the EVF or RMV version number (``"4"``, ``"2"``),
        Arbiter's version byte for AVF (``"52"``), the Clone release family for
        MVF (``"0.97"``, ``"2006"``, ``"2007"``, ``"0.96"``).
    software, software_version : str
        The program that recorded the game and its version, as the file names
        them: ``"Minesweeper Arbiter"`` ``"0.52.3"``, ``"Viennasweeper"``
        ``"3.1"``, ``"Minesweeper Clone"`` ``"2007 release 2"``,
        ``"Metasweeper"`` ``"3.2.1"``.  An EVF converted from another format
        names the original program (``details["converted_by"]`` the converter).
    player : str
        The player's name, decoded in the encoding the format uses (GBK or
        cp1252 for the old clients, UTF-8 for RMV 2 and EVF).
    date : datetime or None
        When the game was played: timezone-aware UTC where the file stores a
        Unix time (RMV, EVF), naive local time where it stores a wall clock
        (AVF, MVF), None where it stores none.
    level : str
        ``"beginner"``, ``"intermediate"``, ``"expert"`` or ``"custom"``, as
        the file states it (by the board's size where it does not).
    rows, cols, mines : int
        The board.
    mine_layout : ndarray of bool, shape (rows, cols)
        True where a mine is.  Read-only.
    cell_size : int
        Pixels per cell in the events' coordinates (16 except in RMV 2 and EVF).
    question_marks : bool or None
        Whether the player had question marks on (None: not recorded).
    mode : str
        The game mode: ``"classic"`` or another mode name the format defines
        (``"upk"``, ``"density"``, ``"no_guess"``, ...).
    events : Events
        Every mouse event.  Time 0 is where the client's clock starts:
        Arbiter's and Clone's at the first click's press, Vienna's at its
        release (Vienna does not record that press; the reader adds it at
        time 0), Metasweeper's at the first press that changed the board (a
        flag laid before the first reveal counts).  The game's own start is
        :attr:`VideoPlay.start_ms <fastmine.videos.VideoPlay.start_ms>`.
    stated_time_ms : int or None
        The game's time as the file states it, in milliseconds.
    stated_bbbv : int or None
        The board's 3BV as the file states it.
    stated_outcome : str or None
        ``"won"``, ``"lost"`` or ``"unfinished"`` where the file says.
    details : Mapping[str, str]
        Other text fields by name (``"nickname"``, ``"country"``, ``"skin"``,
        ``"converted_by"``, ...), where the file has them.
    """

    source: str
    format: str
    format_version: str
    software: str
    software_version: str
    player: str
    date: datetime | None
    level: str
    rows: int
    cols: int
    mines: int
    mine_layout: NDArray[np.bool_]
    cell_size: int
    question_marks: bool | None
    mode: str
    events: Events
    stated_time_ms: int | None = None
    stated_bbbv: int | None = None
    stated_outcome: str | None = None
    details: Mapping[str, str] = field(default_factory=dict)

    def __init__(self, source: str, format: str, format_version: str, software: str,
                 software_version: str, player: str, date: datetime | None, level: str,
                 rows: int, cols: int, mines: int, mine_layout: NDArray[np.bool_],
                 cell_size: int, question_marks: bool | None, mode: str, events: Events,
                 stated_time_ms: int | None = None, stated_bbbv: int | None = None,
                 stated_outcome: str | None = None,
                 details: Mapping[str, str] = _NO_DETAILS) -> None:
        d = self.__dict__
        d["source"] = source
        d["format"] = format
        d["format_version"] = format_version
        d["software"] = software
        d["software_version"] = software_version
        d["player"] = player
        d["date"] = date
        d["level"] = level
        d["rows"] = rows
        d["cols"] = cols
        d["mines"] = mines
        d["mine_layout"] = _frozen(mine_layout)
        d["cell_size"] = cell_size
        d["question_marks"] = question_marks
        d["mode"] = mode
        d["events"] = events
        d["stated_time_ms"] = stated_time_ms
        d["stated_bbbv"] = stated_bbbv
        d["stated_outcome"] = stated_outcome
        d["details"] = MappingProxyType(dict(details))

    @property
    def notes(self) -> tuple[str, ...]:
        """What the reader must tell the player once about this file: text
        fields that were not valid UTF-8 and were read with replacement
        characters (``details["not_utf8"]``); empty for most files.

        Returns
        -------
        tuple of str
        """
        bad = self.details.get("not_utf8")
        if not bad:
            return ()
        return (f"{bad}: not valid UTF-8, shown with replacement characters (\ufffd)",)

    def __repr__(self) -> str:
        return (f"<Video {self.format} {self.software} {self.software_version} "
                f"{self.player!r} {self.level} {self.rows}x{self.cols}/{self.mines} "
                f"{len(self.events)} events>")
