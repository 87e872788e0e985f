"""The mouse path of a replay: where the pointer was, and each press and release.

A video of another client records every mouse event; a replay made from one
(:mod:`fastmine.replay.fromvideo`) keeps them, so the players can show the
cursor moving and the presses as the player made them.  The path is an int32
array of ``(ms, x, y, kind)`` rows:

``ms``
    Game time in milliseconds (0 at the first reveal, as the moves' times;
    negative before it: flags laid and the pointer moved before the game).
``x``, ``y``
    The pointer's place from the board's top-left corner, in the replay's
    ``mouse_unit`` a cell: the recording's own pixels (a video's
    ``cell_size``, 16 for Arbiter and Clone, 16-54 for Vienna and
    Metasweeper), so the path is kept exactly as recorded; outside
    ``0 .. cols * mouse_unit`` (or rows) it is off the board.
``kind``
    A :class:`fastmine.videos.EventKind` value (0 a move, 1/2 left press and
    release, 3/4 right, 5/6 middle, 7 a flag laid before the game, 8 both
    buttons down, 9/10/11 a left/right/middle press or release, the button's
    state before it deciding).

In the replay file (version 3, ``docs/replays.md``; version 4 when a cell is
not :data:`UNIT` units) it is packed as little-endian int32, zlib-compressed
and base64-encoded, with its count and unit; every size is checked against
:data:`MAX_MOUSE_EVENTS` before it is unpacked.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._frozen import frozen
from ..errors import SaveFormatError

__all__ = ["KIND_NAMES", "LEFT", "MAX_MOUSE_EVENTS", "MAX_UNIT", "MIDDLE", "RIGHT", "UNIT",
           "buttons_held", "check_mouse", "check_unit", "cursor_index", "decode", "encode",
           "mouse_of_video", "pointer"]

UNIT = 16
"""Units of the pointer's place per cell in a replay file of version 3 (and the
default ``mouse_unit``): sixteenths of a cell, 16-pixel cells' pixels."""

MAX_UNIT = 255
"""The largest ``mouse_unit``: a video's cell size is one byte (RMV 2, EVF)."""

MAX_MOUSE_EVENTS = 2**22
"""Most mouse events a replay keeps (4,194,304: 64 MB unpacked, hours of play)."""

MAX_COORD = 2**20
"""The pointer's place is within this many units of the board's corner."""

MAX_MS = 2**31 - 1
"""A mouse event's time is within this many milliseconds of the first reveal."""

KIND_NAMES = ("move", "left down", "left up", "right down", "right up", "middle down",
              "middle up", "flag before the game", "both down", "left", "right", "middle")
"""Each kind's words, by its value."""

LEFT, RIGHT, MIDDLE = 1, 2, 4
"""The bits of :func:`buttons_held`."""

_EFFECT = {1: (LEFT, True), 2: (LEFT, False), 3: (RIGHT, True), 4: (RIGHT, False),
           5: (MIDDLE, True), 6: (MIDDLE, False), 8: (LEFT | RIGHT, True)}
_TOGGLE = {9: LEFT, 10: RIGHT, 11: MIDDLE}


def check_mouse(mouse: object) -> NDArray[np.int32]:
    """The path as a read-only int32 ``(n, 4)`` array, checked.

    Raises
    ------
    ValueError
        Not ``(n, 4)`` integers, more than :data:`MAX_MOUSE_EVENTS` rows,
        times going backwards or out of range, a place out of range, an
        unknown kind.
    """
    arr = np.asarray(mouse)
    if arr.ndim != 2 or arr.shape[1] != 4 or not (arr.size == 0 or
                                                  np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"a mouse path is (n, 4) integer rows (ms, x, y, kind), got an array "
                         f"of shape {arr.shape} and type {arr.dtype}")
    if arr.shape[0] > MAX_MOUSE_EVENTS:
        raise ValueError(f"a mouse path holds at most {MAX_MOUSE_EVENTS:,} events, got "
                         f"{arr.shape[0]:,}")
    if arr.shape[0]:
        ms, xy, kind = arr[:, 0], arr[:, 1:3], arr[:, 3]
        if int(np.abs(ms).max()) > MAX_MS or (np.diff(ms) < 0).any():
            raise ValueError("the mouse path's times must go forward, within 2**31 ms")
        if int(np.abs(xy).max()) > MAX_COORD:
            raise ValueError(f"a mouse path's place is within {MAX_COORD} units of the board")
        if int(kind.min()) < 0 or int(kind.max()) >= len(KIND_NAMES):
            raise ValueError(f"a mouse event's kind is 0 to {len(KIND_NAMES) - 1}")
    out = np.ascontiguousarray(arr, dtype=np.int32)
    if out is arr:
        out = out.copy()
    # frozen: a flag alone could be switched back, and the checked path changed after its check
    return frozen(out)


def check_unit(unit: object) -> int:
    """``unit`` (a mouse path's units a cell), checked: a whole number 1 to :data:`MAX_UNIT`.

    Raises
    ------
    ValueError
        Anything else.
    """
    if not isinstance(unit, (int, np.integer)) or isinstance(unit, bool) or not (
            1 <= int(unit) <= MAX_UNIT):
        raise ValueError(f"a mouse path's unit is 1 to {MAX_UNIT} a cell, got {unit!r:.40}")
    return int(unit)


def encode(mouse: NDArray[np.int32]) -> str:
    """The path packed for the replay file (little-endian int32, zlib, base64)."""
    raw = np.ascontiguousarray(mouse, dtype="<i4").tobytes()
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def decode(text: object, count: object) -> NDArray[np.int32]:
    """The path from the replay file's fields ``mouse`` and ``mouse_count``.

    Both are checked before anything is unpacked: the count against
    :data:`MAX_MOUSE_EVENTS`, the text against what that count can take, the
    unpacking bounded to the count's bytes.

    Raises
    ------
    fastmine.SaveFormatError
        Anything wrong, in words.
    """
    if not isinstance(count, int) or isinstance(count, bool) or not (
            0 <= count <= MAX_MOUSE_EVENTS):
        raise SaveFormatError(f"replay field 'mouse_count' must be 0 to {MAX_MOUSE_EVENTS:,}, "
                              f"got {count!r:.40}")
    if not isinstance(text, str):
        raise SaveFormatError("replay field 'mouse' must be a string")
    size = 16 * count
    most = 4 * ((size + size // 1000 + 64 + 2) // 3 + 1)   # base64 of zlib's worst case
    if len(text) > most:
        raise SaveFormatError(f"replay field 'mouse' is longer ({len(text):,} characters) "
                              f"than {count:,} mouse events take ({most:,})")
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        z = zlib.decompressobj()
        raw = z.decompress(packed, size + 1)
        if not z.eof or z.unused_data:
            raise SaveFormatError("the mouse path holds more than mouse_count events")
    except (binascii.Error, UnicodeEncodeError):
        raise SaveFormatError("replay field 'mouse' is not valid base64") from None
    except zlib.error as exc:
        raise SaveFormatError(f"the mouse path is corrupt ({exc})") from None
    if len(raw) != size:
        raise SaveFormatError(f"the mouse path holds {len(raw) // 16} events, not {count}")
    try:
        return check_mouse(np.frombuffer(raw, "<i4").reshape(count, 4))
    except ValueError as exc:
        raise SaveFormatError(f"the mouse path is corrupt: {exc}") from None


def mouse_of_video(video: Any, start_ms: int) -> NDArray[np.int32]:
    """A video's mouse events as a replay's path (times from ``start_ms``, the
    first reveal; places in the video's pixels, ``video.cell_size`` a cell: the
    replay's ``mouse_unit``).

    Parameters
    ----------
    video : fastmine.videos.Video
    start_ms : int
        The video's time of the first reveal (``play_video(video).start_ms``).

    Returns
    -------
    ndarray of int32, (n, 4)
    """
    ev = video.events
    n = min(len(ev), MAX_MOUSE_EVENTS)
    out = np.empty((n, 4), np.int64)
    out[:, 0] = np.asarray(ev.time_ms[:n], np.int64) - int(start_ms)
    # A client's clock can step back (a real Arbiter Expert game starts 10 ms,
    # then 0 ms): the client accepted the game, so an event later than one
    # after it takes that one's time (the later times, the game's own, stay).
    out[:, 0] = np.minimum.accumulate(out[::-1, 0])[::-1]
    # The recorded pixels as they are: scaled to sixteenths of a cell they lost
    # up to a pixel a point, and the path measured on them grew (1.6-4.1%).
    out[:, 1] = np.asarray(ev.x[:n], np.int64)
    out[:, 2] = np.asarray(ev.y[:n], np.int64)
    out[:, 3] = np.asarray(ev.kind[:n], np.int64)
    np.clip(out[:, 1:3], -MAX_COORD, MAX_COORD, out=out[:, 1:3])
    np.clip(out[:, 0], -MAX_MS, MAX_MS, out=out[:, 0])
    return check_mouse(out)


def cursor_index(mouse: NDArray[np.int32], ms: float) -> int:
    """The index of the last mouse event at or before game time ``ms`` (-1: none yet)."""
    return int(np.searchsorted(mouse[:, 0], ms, side="right")) - 1


def buttons_held(mouse: NDArray[np.int32]) -> NDArray[np.uint8]:
    """The buttons down after each event: bits :data:`LEFT`, :data:`RIGHT`, :data:`MIDDLE`.

    Parameters
    ----------
    mouse : ndarray
        A checked path (:func:`check_mouse`).

    Returns
    -------
    ndarray of uint8, (n,)
    """
    kinds = mouse[:, 3].tolist()
    out = np.zeros(len(kinds), np.uint8)
    held = 0
    for i, k in enumerate(kinds):   # one pass; EVF's toggles need the state before
        if k in _EFFECT:
            bits, down = _EFFECT[k]
            held = held | bits if down else held & ~bits
        elif k in _TOGGLE:
            held ^= _TOGGLE[k]
        out[i] = held
    return out


def pointer(mouse: NDArray[np.int32], held: NDArray[np.uint8], ms: float, rows: int,
            cols: int, unit: int = UNIT) -> tuple[int, int, int] | None:
    """Where the pointer is at game time ``ms``: ``(row, col, buttons)``, the
    cell under it (-1, -1 off the board) and the buttons held (:func:`buttons_held`);
    None before the first event.  ``unit``: the path's units a cell (the
    replay's ``mouse_unit``).
    """
    i = cursor_index(mouse, ms)
    if i < 0:
        return None
    x, y = int(mouse[i, 1]), int(mouse[i, 2])
    r, c = y // unit, x // unit
    if x < 0 or y < 0 or r >= rows or c >= cols:
        r = c = -1
    return r, c, int(held[i])
