"""Reader for ``.evf`` videos, recorded by Metasweeper (元扫雷), versions 0 to 4.

The layout is public: ms-toollib's "evf format" document.  In short
(integers big-endian):

- 1 byte version; 1 byte of flags (completed, official, fair, no-flag, and
  in version 4 "converted from another format"); from version 3 a settings
  byte (question marks off, cursor held in the board, auto-restart).
- rows, cols (1 byte each), mines (2), cell size in pixels (1), mode (2),
  3BV (2), the game time in ms (3 bytes; 4 in version 4).
- Versions 0-3: NUL-terminated strings: software, player, race id, unique
  id, start and end time stamps, country; version 2 and 3 add a device id.
  Version 4: country (2 bytes), start and end time in microseconds since 1970
  (8 bytes each), then NUL-terminated UTF-8: software, (if converted: the
  converter and the original encoding), player, race id, unique id; a device
  id (2-byte length).
- The mines: one bit a cell, row by row, high bit first.
- Version 4: custom metric names (2-byte count, NUL-terminated each).
- Events.  Versions 0-3: 8 bytes each, kind, 3-byte time (ms), 2-byte x and
  y (pixels from the board's corner), until a 0 (32-byte checksum follows) or
  a 255 (none).  Version 4: kind, then for a mouse event 1 byte of elapsed ms
  and 2-byte signed x and y steps; for a game state (81 replay, 82 win,
  83 fail, 99 error) the elapsed ms; for a board event (100-121) the elapsed
  ms, row and col; for a metric (200 number, 201 text) the elapsed ms, a
  2-byte index, then an 8-byte float or a NUL-terminated string; 255 a pause
  (2 bytes of ms added to the next event's time).  0 ends them; a 2-byte
  checksum length and the checksum follow.

Mouse event kinds: 1 move, 2/3 left press/release, 4/5 right, 6/7 middle,
8 a flag laid before the game (``pf``), 9 a chord press of unknown button
(``cc``), 10-12 a left/right/middle press-or-release (``l``, ``r``, ``m``).
Text of versions 0-3 may be in a legacy code page (Metasweeper converted old
videos byte for byte); version 4 is UTF-8.  A version 4 file converted from an
Arbiter or Clone video keeps the player's local wall clock in its start time
(as Metasweeper converts them, and as ``fastmine replay --export`` writes
them): its date is read as local time (naive), as the original's, not as UTC.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import numpy as np
from numpy.typing import NDArray

from ._bytes import NOT_UTF8, decode_legacy, decode_utf8, decode_utf8_kept
from .avf import _date as _arbiter_date
from .binread import END, TEXT, Cursor, be, check_board, kinds
from .model import Events, Video, level_of

__all__ = ["LOCAL_TIME_SOFTWARE", "keeps_local_time", "read_evf", "source_of"]

LOCAL_TIME_SOFTWARE = ("Minesweeper Arbiter", "Minesweeper Clone")
"""The programs whose videos keep the player's local wall-clock time, not UTC.

An EVF 4 converted from their videos keeps that wall clock in its start-time
field as if it were UTC (as Metasweeper and ms-toollib convert them); read
back, its date is naive local time, as the original's."""

_MODES = {0: "classic", 1: "upk", 2: "cheat", 3: "density", 4: "win7",
          5: "competitive_solvable", 6: "strong_solvable", 7: "weak_solvable",
          8: "to_be_solvable", 9: "strong_guessable", 10: "weak_guessable",
          11: "chording_recursive", 12: "flag_recursive", 13: "chording_flag_recursive",
          14: "solvable_chording_recursive", 15: "solvable_flag_recursive",
          16: "solvable_chording_flag_recursive", 65535: "no_rule"}
_KINDS = np.full(256, 255, dtype=np.uint8)
_KINDS[1:13] = np.arange(12)           # EVF's codes 1-12 are EventKind 0-11 in order
_ENDS = (0, 255)        # the byte after the last event: a checksum follows, or none
_GAME_STATES = {81: "replay", 82: "win", 83: "fail", 99: "error"}
# Bytes an event costs to decode (binread.MAX_READ_BYTES): versions 0-3 per
# 8-byte record, version 4 per record of any kind.
_V0_COST = 96
_V4_COST = 288


# Clone's releases as its videos name them: "0.97 beta", "2007 release 2",
# "0.96 beta (or earlier)", "0.75 beta (or earlier)".
_CLONE_RELEASE = re.compile(r"0\.\d+ beta\b|20\d\d(?: |$)")


def _software(name: str) -> tuple[str, str]:
    """(program, version) from EVF's source string ("元3.1.9", "Arbiter", "0.97 beta")."""
    for prefix in ("元扫雷", "元", "Metasweeper", "Meta"):
        if name.startswith(prefix):
            return "Metasweeper", name[len(prefix):].strip()
    if name == "Arbiter":
        return "Minesweeper Arbiter", ""
    if _CLONE_RELEASE.match(name):
        return "Minesweeper Clone", name
    return name, ""


def source_of(software: str) -> str:
    """EVF's source string for a program as fastmine names it (the inverse of
    what :func:`read_evf` makes of the string, as Metasweeper writes them).

    Parameters
    ----------
    software : str
        The program and its version, ``"Minesweeper Arbiter 0.52.3"``,
        ``"Minesweeper Clone 0.97 beta"``, ``"Viennasweeper 3.0C"``,
        ``"Metasweeper 3.1.9"`` (:attr:`Video.software` and
        :attr:`Video.software_version` joined by a space).

    Returns
    -------
    str
        ``"Arbiter"``, Clone's release (``"0.97 beta"``), ``"Viennasweeper"``,
        ``"元3.1.9"``; any other program's name as it is.
    """
    name = software.strip()
    for program, source in (("Minesweeper Arbiter", "Arbiter"),
                            ("Viennasweeper", "Viennasweeper")):
        if name == program or name.startswith(program + " "):
            return source
    if name.startswith("Minesweeper Clone "):
        release = name[len("Minesweeper Clone "):].strip()
        if _CLONE_RELEASE.match(release):
            return release
    if name.startswith("Metasweeper"):
        return "元" + name[len("Metasweeper"):].strip()
    return name


def keeps_local_time(source: str) -> bool:
    """Whether a video converted from EVF source ``source`` keeps local wall-clock
    time (:data:`LOCAL_TIME_SOFTWARE`)."""
    return _software(source)[0] in LOCAL_TIME_SOFTWARE


def _wall_clock(microseconds: int) -> datetime | None:
    """A local wall-clock time kept as microseconds since 1970 (naive)."""
    if not 0 < microseconds < 253402300799 * 10**6:
        return None
    return datetime(1970, 1, 1) + timedelta(microseconds=microseconds)


def _utc(microseconds: int) -> datetime | None:
    if not 0 < microseconds < 253402300799 * 10**6:      # up to the year 9999
        return None
    return datetime.fromtimestamp(microseconds / 1e6, tz=timezone.utc)


def read_evf(data: bytes, source: str = "<bytes>") -> Video:
    """Read a Metasweeper video (EVF version 0 to 4).

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
        If the bytes are not a readable EVF video.
        Records that would cost more memory to decode than
        :data:`~fastmine.videos.binread.MAX_READ_BYTES` are refused before
        they are decoded.
    """
    cur = Cursor(data, source)
    version = cur.u8("the version byte")
    if version > 4:
        raise cur.fail(f"EVF version {version} is newer than this reader knows (0-4)", 0)
    flags = cur.u8("the summary byte")
    settings = cur.u8("the settings byte") if version >= 3 else 0
    rows = cur.u8("the row count")
    cols = cur.u8("the column count")
    mines = cur.u16("the mine count")
    board_at = cur.pos
    check_board(rows, cols, mines, cur, board_at - 4)
    cell_size = cur.u8("the cell size")
    if cell_size == 0:
        raise cur.fail("the cell size is 0 pixels", cur.pos - 1)
    mode = cur.u16("the mode")
    bbbv = cur.u16("the 3BV")
    time_ms = cur.u32("the time") if version == 4 else cur.u24("the time")
    details: dict[str, str] = {}
    not_utf8: list[str] = []
    converted = version == 4 and bool(flags & 0b0000_1000)
    if version == 4:
        details["country"] = decode_utf8(cur.take(2, "the country"), "the country", cur,
                                         cur.pos - 2)
        start_us = cur.u64("the start time")
        cur.skip(8, "the end time")
        source_name = _text4(cur, "the software")
        if converted:
            details["converted_by"] = _text4(cur, "the converter")
            details["original_encoding"] = _text4(cur, "the original encoding")
        # a name written wrong keeps its game: read with U+FFFD, said once
        player = decode_utf8_kept(cur.cstring("the player's name"), "the player's name",
                                  not_utf8)
        details["race_id"] = _text4(cur, "the race id")
        details["unique_id"] = _text4(cur, "the unique id")
        cur.skip(cur.u16("the device id's length"), "the device id")
        # A video converted from a program that keeps local time holds that wall
        # clock as if it were UTC: it stays local (naive), as in the original.
        local = converted and keeps_local_time(source_name)
        date = _wall_clock(start_us) if local else _utc(start_us)
    else:
        source_name = decode_legacy(cur.cstring("the software"))
        player = decode_legacy(cur.cstring("the player's name"))
        details["race_id"] = decode_legacy(cur.cstring("the race id"))
        details["unique_id"] = decode_legacy(cur.cstring("the unique id"))
        start = cur.cstring("the start time stamp")
        cur.cstring("the end time stamp")
        details["country"] = decode_legacy(cur.cstring("the country"))
        if version >= 2:
            cur.cstring("the device id")
        date = _legacy_date(source_name, start)
    software, software_version = _software(source_name)
    n_cells = rows * cols
    bits = np.frombuffer(cur.take((n_cells + 7) // 8, "the mine layout"), dtype=np.uint8)
    layout = np.unpackbits(bits)[:n_cells].astype(bool).reshape(rows, cols)
    if int(layout.sum()) != mines:
        raise cur.fail(f"the header says {mines} mines, the layout holds {int(layout.sum())}",
                       cur.pos - bits.shape[0])
    outcome: str | None = None
    if version == 4:
        for i in range(cur.u16("the custom metric count")):
            cur.cstring(f"custom metric {i + 1}'s name")
        t4, k4, x4, y4, outcome = _events_v4(cur)
        events = Events.build(t4, k4, x4, y4, cell_size, rows, cols, cur)
    else:
        events = Events.build(*_events_v0(cur), cell_size, rows, cols, cur)
    stated = "won" if flags & 0b1000_0000 else outcome
    details["no_flags"] = "yes" if flags & 0b0001_0000 else "no"
    if not_utf8:
        details[NOT_UTF8] = ", ".join(not_utf8)
    return Video(
        source=source, format="evf", format_version=str(version), software=software,
        software_version=software_version, player=player, date=date,
        level=level_of(rows, cols, mines), rows=rows, cols=cols, mines=mines,
        mine_layout=layout, cell_size=cell_size,
        question_marks=None if version < 3 else bool(settings & 0b1000_0000),
        mode=_MODES.get(mode, f"mode {mode}"), events=events, stated_time_ms=time_ms,
        stated_bbbv=bbbv, stated_outcome=stated, details=details)


def _text4(cur: Cursor, what: str) -> str:
    at = cur.pos
    return decode_utf8(cur.cstring(what), what, cur, at)


def _legacy_date(software: str, stamp: bytes) -> datetime | None:
    """Versions 0-3 keep the start as text, in the recording program's own form."""
    if software == "Arbiter":
        return _arbiter_date(stamp)
    if not stamp.isdigit() or len(stamp) > 20:
        return None
    n = int(stamp)
    return _utc(n * 10**6 if software == "Viennasweeper" else n)


def _events_v0(cur: Cursor) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.int64],
                                     NDArray[np.int64]]:
    """Versions 0-3: fixed 8-byte events up to a 0 or 255 byte."""
    data = cur.data
    p = cur.pos
    rec = cur.rest(8, "mouse events", _V0_COST)
    n_full = rec.shape[0]
    ends = np.flatnonzero((rec[:, 0] == 0) | (rec[:, 0] == 255))
    n = int(ends[0]) if ends.shape[0] else n_full
    if p + 8 * n >= len(data) or data[p + 8 * n] not in _ENDS:
        cur.pos = len(data)
        raise cur.fail("the event list has no end: the file is truncated")
    rec = rec[:n]
    kind = kinds(_KINDS, rec[:, 0], cur, p, 8)
    t, x, y = be(rec, 1, 2, 3), be(rec, 4, 5), be(rec, 6, 7)
    cur.pos = p + 8 * n
    if cur.u8("the end of the events") == 0:
        cur.skip(32, "the checksum")
    return t, kind, x, y


def _v4_sizes() -> list[int]:
    """Bytes each version 4 event takes (0: unknown; binread.TEXT: a metric's
    text, whose size is found by its NUL; binread.END: the end)."""
    size = [0] * 256
    size[0] = END
    for c in range(1, 13):
        size[c] = 6                     # mouse: elapsed ms, x step, y step
    for c in _GAME_STATES:
        size[c] = 2                     # game state: elapsed ms
    for c in range(100, 200):
        size[c] = 4                     # board: elapsed ms, row, col
    size[200] = 12                      # number metric: elapsed ms, index, float64
    size[201] = TEXT                    # text metric: elapsed ms, index, text
    size[255] = 3                       # pause: ms added to the next event
    return size


_V4_SIZES = _v4_sizes()


def _events_v4(cur: Cursor) -> tuple[NDArray[np.int64], NDArray[np.uint8], NDArray[np.int64],
                                     NDArray[np.int64], str | None]:
    """Version 4: variable-length events with time and position steps.

    One scan finds where each event starts (:meth:`binread.Cursor.scan`);
    their fields are then read for all events at once.
    """
    data = cur.data
    n = len(data)
    at = cur.scan(_V4_SIZES, "the end of the events")
    cur.pos += 1
    cur.skip(cur.u16("the checksum's length"), "the checksum")
    cur.budget(at.shape[0], _V4_COST, "events")
    d = np.frombuffer(data, dtype=np.uint8)
    code = d[at].astype(np.int64)
    pause = code == 255
    b1 = d[at + 1].astype(np.int64)
    b2 = d[np.minimum(at + 2, n - 1)].astype(np.int64)
    # Every event but a pause says the ms since the one before; a pause's ms go
    # to the next event's time.
    elapsed = np.where(pause, b1 << 8 | b2, b1)
    time = np.cumsum(elapsed)
    mouse = code <= 12
    m_at = at[mouse]
    dx = d[m_at + 2].astype(np.int64) << 8 | d[m_at + 3]
    dy = d[m_at + 4].astype(np.int64) << 8 | d[m_at + 5]
    # Steps are signed 16-bit, the first event's place is from (0, 0); sums
    # wrap around at 16 bits as the writers' do.
    dx[1:] = np.where(dx[1:] >= 0x8000, dx[1:] - 0x10000, dx[1:])
    dy[1:] = np.where(dy[1:] >= 0x8000, dy[1:] - 0x10000, dy[1:])
    x = np.cumsum(dx)
    y = np.cumsum(dy)
    if x.shape[0] > 1:
        x[1:] = ((x[1:] + 0x8000) & 0xFFFF) - 0x8000
        y[1:] = ((y[1:] + 0x8000) & 0xFFFF) - 0x8000
    ends = code[(code == 82) | (code == 83)]
    outcome = None if ends.shape[0] == 0 else "won" if ends[-1] == 82 else "lost"
    return time[mouse], (code[mouse] - 1).astype(np.uint8), x, y, outcome
