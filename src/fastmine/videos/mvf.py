"""Reader for ``.mvf`` videos, recorded by Minesweeper Clone (0.75 beta to 2007).

Clone never published its layout; this follows the open readers (rawvf's
``parser_mvf.c``, which tells the releases apart, and ms-toollib for 0.97).
Four families:

- **0.97 beta** (and two hacked builds of it): a text header ("Minesweeper
  Clone", "2004-2005", the author, "version 0.97 beta"), then at byte 74 the
  date, level, mode, the time (seconds and hundredths), the 3BV, solved 3BV,
  left, double and right clicks, question marks, the board (width, height,
  mines, then ``(col + 1, row + 1)`` pairs), the name, and the events: 5
  bytes each, their 40 bits scrambled by a permutation the file's 2-byte
  seed picks; the buttons' states, x, y (9 bits each) and the time (seconds
  and hundredths).
- **2006 and 2007 releases**: the same header with "2006 release 1" etc.; at
  byte 71 the date, level, mode, the time in ms (3 bytes), question marks,
  the board, the name, then 6-byte scrambled events with 11-bit x and y
  (offset by 32) and a 22-bit time in ms.
- **0.96 beta and earlier**: no header; the board, question marks, 8-byte
  plain events (seconds, hundredths, buttons, x, y), the time and a
  100-byte name at fixed distances from the file's end (a 20-byte checksum
  between zero bytes ends 0.8 to 0.96).  Nothing in 0.75 and earlier tells
  a truncated file from a whole one; the events then end where their time
  goes back or past the game's.

Events hold the buttons' states, not presses: a press or release is where a
button's state changes, a move where the pointer does (rawvf's reading).  The
first event is the game's first press, whose button it holds down.
"""

from __future__ import annotations

import math
from datetime import datetime

import numpy as np
from numpy.typing import NDArray

from ._bytes import decode_legacy
from .binread import Cursor
from .model import EventKind, Events, Video, level_of

__all__ = ["read_mvf"]

_LEVELS = {1: "beginner", 2: "intermediate", 3: "expert", 4: "custom", 5: "custom"}
_MODES = {1: "classic", 2: "density", 3: "upk", 4: "cheat"}
# Bytes an event record costs to decode (binread.MAX_READ_BYTES): its bits
# unpacked and permuted, the fields, the button edges, the Events.
_EVENT_COST = {5: 400, 6: 480, 8: 160}


def read_mvf(data: bytes, source: str = "<bytes>") -> Video:
    """Read a Minesweeper Clone video.

    Parameters
    ----------
    data : bytes
        The whole file.
    source : str
        The file's name, for error messages.

    Returns
    -------
    Video

    Raises
    ------
    VideoFormatError
        If the bytes are not a readable Clone video.
        Records that would cost more memory to decode than
        :data:`~fastmine.videos.binread.MAX_READ_BYTES` are refused before
        they are decoded.
    """
    cur = Cursor(data, source)
    if len(data) < 2:
        raise cur.fail("the file is too short to be a Clone video", 0)
    if data[0] == 0x11 and data[1] == ord("M"):
        cur.pos = 27
        family = cur.u8("the header's year")
        if family in b"58":
            cur.pos = 74
            hack = "" if family == ord("5") else " (funny mode)"
            return _read_097(cur, "0.97", "0.97 beta" + hack, family == ord("8"))
        if family in b"67":
            cur.pos = 53
            name = cur.take(cur.u8("the version's length"), "the version").decode("latin-1")
            cur.pos = 71
            return _read_2007(cur, name)
        raise cur.fail(f"unknown Clone release year {chr(family)!r}", 27)
    if data[0] == 0 and data[1] == 0:
        cur.pos = 7
        return _read_097(cur, "0.97", "0.97 beta (unknown hack)", False)
    return _read_early(cur)


def _date(cur: Cursor) -> datetime | None:
    month = cur.u8("the month")
    day = cur.u8("the day")
    year = cur.u16("the year")
    hour, minute, second = (cur.u8("the time of day") for _ in range(3))
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None          # Clone 2007 sometimes saved day 0


def _board(cur: Cursor, base: int) -> tuple[int, int, int, NDArray[np.bool_]]:
    cols = cur.u8("the board width")
    rows = cur.u8("the board height")
    mines = cur.u16("the mine count")
    layout = cur.mines(rows, cols, mines, col_first=True, base=base, board_at=cur.pos - 4)
    return rows, cols, mines, layout


def _permutation(seed: int, slots: int) -> NDArray[np.intp]:
    """Where each of an event's fields' bits sits, from the file's 2-byte seed."""
    num1 = math.sqrt(seed)
    num2 = math.sqrt(seed + 1000.0)
    num3 = math.sqrt(num1 + 1000.0)
    num4 = math.sqrt(num2 + 1000.0)
    values = [math.cos(num3 + 1000.0), math.sin(math.sqrt(num2)), math.cos(num3),
              math.sin(math.sqrt(num1) + 1000.0)]
    values += [math.cos(num4), math.sin(num4)] if slots == 6 else [math.cos(num4)]
    digits = "".join(f"{round(abs(v) * 1e8):08d}"[:8] for v in values)
    return np.array(sorted(range(len(digits)), key=lambda j: digits[j]), dtype=np.intp)


def _descramble(cur: Cursor, size: int) -> NDArray[np.uint8]:
    """The ``n`` events of ``size`` bytes as rows of bits, in the permutation's order."""
    seed = cur.u16("the event seed")
    count = cur.u24("the event count")
    raw = cur.records(count, size, "events", _EVENT_COST[size])
    bits = np.unpackbits(raw, axis=1, bitorder="little")
    return bits[:, _permutation(seed, size)]


def _field(bits: NDArray[np.uint8], first: int, width: int) -> NDArray[np.int64]:
    weights = np.int64(1) << np.arange(width, dtype=np.int64)
    out: NDArray[np.int64] = bits[:, first:first + width].astype(np.int64) @ weights
    return out


def _read_097(cur: Cursor, family: str, version: str, funny: bool) -> Video:
    date = _date(cur)
    level_byte = cur.u8("the level")
    mode = cur.u8("the mode")
    time_ms = cur.u16("the time") * 1000 + cur.u8("the time's hundredths") * 10
    bbbv = cur.u16("the 3BV")
    solved = cur.u16("the solved 3BV")
    left, double, right = (cur.u16("the click counts") for _ in range(3))
    marks = cur.u8("the question mark setting")
    rows, cols, mines, layout = _board(cur, 1)
    name = cur.take(cur.u8("the name's length"), "the name")
    bits = _descramble(cur, 5)
    buttons = bits[:, :3]           # right, middle, left
    x = _field(bits, 12, 9)
    y = _field(bits, 3, 9)
    t = _field(bits, 28, 10) * 1000 + _field(bits, 21, 7) * 10
    details = {"left_clicks": str(left), "right_clicks": str(right),
               "double_clicks": str(double), "solved_bbbv": str(solved)}
    return _video(cur, family, version, name, date, level_byte, 3 if funny else mode,
                  rows, cols, mines, layout, marks, buttons, x, y, t, time_ms, bbbv,
                  "won" if bbbv == solved else "lost", details)


def _read_2007(cur: Cursor, version: str) -> Video:
    date = _date(cur)
    level_byte = cur.u8("the level")
    mode = cur.u8("the mode")
    time_ms = cur.u24("the time")
    marks = cur.u8("the question mark setting")
    rows, cols, mines, layout = _board(cur, 1)
    name = cur.take(cur.u8("the name's length"), "the name")
    bits = _descramble(cur, 6)
    buttons = bits[:, :3]
    x = _field(bits, 14, 11) - 32
    y = _field(bits, 3, 11) - 32
    t = _field(bits, 25, 22)
    return _video(cur, version[:4], version, name, date, level_byte, mode, rows, cols,
                  mines, layout, marks, buttons, x, y, t, time_ms, None, None, {})


def _read_early(cur: Cursor) -> Video:
    data = cur.data
    size = len(data)
    rows, cols, mines, layout = _board(cur, 0)
    marks = cur.u8("the question mark setting")
    cur.skip(1, "the header")
    first = cur.pos
    if size < first + 125:
        raise cur.fail("the file is too short for an early Clone video", size)
    if not chr(data[-1]).isdigit() and not chr(data[-22]).isdigit():
        version, after, name = "0.96 beta (or earlier)", size - 125, data[-122:-22]
    elif data[-13:-10] == b"   ":
        version, after, name = "0.76 beta", size - 113, data[-110:-10]
    else:
        version, after, name = "0.75 beta (or earlier)", size - 13, b""
    # These layouts have no sizes to check a truncation against; what they
    # have is a 20-byte checksum between two zero bytes (0.8 to 0.96) and a
    # 100-byte text field for the name.
    if version.startswith("0.96") and (data[-1] != 0 or data[-22] != 0):
        raise cur.fail("the checksum is not between two zero bytes: the file is truncated "
                       "or not a Clone video", size - 22)
    if any(b < 32 and b != 0 for b in name):
        raise cur.fail("the player's name holds control bytes: the file is truncated or "
                       "corrupt", size - len(name))
    if level_of(rows, cols, mines) == "custom":
        raise cur.fail(f"a {rows}x{cols} board with {mines} mines: early Clone versions "
                       "played only the three standard levels", 0)
    cur.pos = after
    time_ms = cur.u16("the time") * 1000 + cur.u8("the time's hundredths") * 10
    n = max(0, (after - first) // 8 + 1)
    if first + 8 * n > size:
        n -= 1
    rec = Cursor(data, cur.source, first).records(n, 8, "events", _EVENT_COST[8])
    t = rec[:, 0].astype(np.int64) * 1000 + rec[:, 1].astype(np.int64) * 10
    # The events end where the time goes back or passes the game's time.
    bad = np.flatnonzero((t > time_ms) | np.r_[False, t[1:] < t[:-1]])
    n = int(bad[0]) if bad.shape[0] else n
    if n == 0:
        raise cur.fail("the video has no mouse events", first)
    rec, t = rec[:n], t[:n]
    # Buttons: left, middle, right in bits 0-2; the rows end with all released.
    b = rec[:, 2]
    buttons = np.stack([(b >> 2) & 1, (b >> 1) & 1, b & 1], axis=1).astype(np.uint8)
    buttons = np.vstack([buttons, np.zeros((1, 3), np.uint8)])
    x = (rec[:, 3].astype(np.int64) << 8) | rec[:, 4]
    y = (rec[:, 5].astype(np.int64) << 8) | rec[:, 6]
    x, y, t = (np.r_[a, a[-1:]] for a in (x, y, t))
    level_byte = {"beginner": 1, "intermediate": 2, "expert": 3}[level_of(rows, cols, mines)]
    return _video(cur, "0.96", version, name.rstrip(b" \0"), None, level_byte, 1, rows, cols,
                  mines, layout, marks, buttons, x, y, t, time_ms, None, None, {})


def _video(cur: Cursor, family: str, version: str, name: bytes, date: datetime | None,
           level_byte: int, mode: int, rows: int, cols: int, mines: int,
           layout: NDArray[np.bool_], marks: int, buttons: NDArray[np.uint8],
           x: NDArray[np.int64], y: NDArray[np.int64], t: NDArray[np.int64],
           time_ms: int, bbbv: int | None, outcome: str | None,
           details: dict[str, str]) -> Video:
    if level_byte not in _LEVELS:
        raise cur.fail(f"level {level_byte} is not a Clone level (1-5)")
    if buttons.shape[0] == 0:
        raise cur.fail("the video has no mouse events")
    kind, at = _button_events(buttons, x, y)
    events = Events.build(t[at], kind, x[at], y[at], 16, rows, cols, cur)
    return Video(
        source=cur.source, format="mvf", format_version=family, software="Minesweeper Clone",
        software_version=version, player=decode_legacy(name), date=date,
        level=_LEVELS[level_byte], rows=rows, cols=cols, mines=mines, mine_layout=layout,
        cell_size=16, question_marks=bool(marks), mode=_MODES.get(mode, f"mode {mode}"),
        events=events, stated_time_ms=time_ms, stated_bbbv=bbbv, stated_outcome=outcome,
        details=details)


def _button_events(buttons: NDArray[np.uint8], x: NDArray[np.int64],
                   y: NDArray[np.int64]) -> tuple[NDArray[np.uint8], NDArray[np.intp]]:
    """Events from button states: (kind, index of the record it happened at).

    ``buttons`` columns are right, middle, left.  The first record's pressed
    button is the game's first press (middle before right before left).
    """
    right, middle, left = (buttons[:, i].astype(bool) for i in range(3))
    first = (EventKind.MIDDLE_DOWN if middle[0] else EventKind.RIGHT_DOWN if right[0]
             else EventKind.LEFT_DOWN if left[0] else EventKind.MOVE)
    moved = np.r_[False, (x[1:] != x[:-1]) | (y[1:] != y[:-1])]

    def down(b: NDArray[np.bool_]) -> NDArray[np.bool_]:
        out: NDArray[np.bool_] = np.r_[False, b[1:] & ~b[:-1]]
        return out

    def up(b: NDArray[np.bool_]) -> NDArray[np.bool_]:
        out: NDArray[np.bool_] = np.r_[False, ~b[1:] & b[:-1]]
        return out

    # Per record, in rawvf's order: move, presses (left, right, middle), releases.
    order = [(moved, EventKind.MOVE), (down(left), EventKind.LEFT_DOWN),
             (down(right), EventKind.RIGHT_DOWN), (down(middle), EventKind.MIDDLE_DOWN),
             (up(left), EventKind.LEFT_UP), (up(right), EventKind.RIGHT_UP),
             (up(middle), EventKind.MIDDLE_UP)]
    mask = np.stack([m for m, _ in order], axis=1)
    codes = np.array([k for _, k in order], dtype=np.uint8)
    rec, slot = np.nonzero(mask)            # row-major: by record, then in order
    kind = np.r_[np.uint8(first), codes[slot]].astype(np.uint8)
    at = np.r_[0, rec].astype(np.intp)
    return kind, at
