"""Reader for ``.avf`` videos, recorded by Minesweeper Arbiter (0.35 to 0.52.3).

Layout (integers big-endian; learnt from the open readers ms-toollib and
rawvf, as no specification was published):

- 1 byte: Arbiter's minor version (52 for 0.52.3); 4 bytes not used.
- 1 byte: level, 3 Beginner (8x8, 10 mines), 4 Intermediate, 5 Expert,
  6 custom, followed for custom by ``cols - 1``, ``rows - 1`` (1 byte each)
  and the mine count (2 bytes).
- The mines: one ``(row + 1, col + 1)`` byte pair each.
- An obfuscated stretch, then a text header ``[L|...|Bnnn|T...]``, where the
  byte two before its ``[`` is 17 with question marks on and 127 with them
  off: ``[0|22.5.2021.16:39:05:9912|22.16:39:11:3325|HS|B28T6.41]`` is
  level, start and end time stamps (local time), a high score mark, the 3BV
  and the time plus one second.  A custom game adds ``W8H11M7|`` after the level.
- A few bytes, then the events, 8 bytes each:
  ``kind, x_hi, s_lo, x_lo, hundredths, y_hi, s_hi, y_lo`` where the time is
  ``(s_hi * 256 + s_lo - 1)`` seconds plus hundredths, and x, y are pixels
  from the board's corner (16 a cell).  Kinds: 1 move, 3 left press, 5 and 21
  left release, 9 right press, 17 and 145 right release, 33 middle press, 65
  and 193 middle release.  A record with both time bytes zero ends them.
- A footer of ``\\r``-separated text after ``cs=`` and a 16-byte checksum:
  ``RealTime: 5.41``, ``Skin: 3.1`` (from 0.47), the player's name, and
  ``Minesweeper Arbiter 0.52.3. Copyright ...``.

The name is in the Windows code page of the player's machine (GBK or cp1252;
see :func:`fastmine.videos._bytes.decode_code_page`).
"""

from __future__ import annotations

import re
from datetime import datetime

import numpy as np

from ._bytes import decode_legacy
from ._records import avf_events
from .binread import Cursor
from .model import EventKind, Events, Video

__all__ = ["read_avf"]

_LEVELS = {3: ("beginner", 8, 8, 10), 4: ("intermediate", 16, 16, 40),
           5: ("expert", 16, 30, 99)}

# Arbiter's event codes (bit 0 set on every record; the others say which
# button changed).  145, 193 and 21 are releases recorded with a second bit set.
_KINDS = np.full(256, 255, dtype=np.uint8)
for _code, _kind in ((1, EventKind.MOVE), (3, EventKind.LEFT_DOWN), (5, EventKind.LEFT_UP),
                     (21, EventKind.LEFT_UP), (9, EventKind.RIGHT_DOWN),
                     (17, EventKind.RIGHT_UP), (145, EventKind.RIGHT_UP),
                     (33, EventKind.MIDDLE_DOWN), (65, EventKind.MIDDLE_UP),
                     (193, EventKind.MIDDLE_UP)):
    _KINDS[_code] = _kind

_SCORE = re.compile(rb"B(\d{1,5})T(\d{1,6})[.,](\d{1,3})$")
_STAMP = re.compile(rb"^(\d{1,2})\.(\d{1,2})\.(\d{4})\.(\d{1,2}):(\d{1,2}):(\d{1,2})")
_VERSION = re.compile(rb"Arbiter\s+([0-9][^ \r]*?)\.?(?:\s+Copyright|\s*$)")
_SEARCH_LIMIT = 4096   # the header and footer sit within a few hundred bytes of their anchors
_EVENT_COST = 96       # bytes an 8-byte record costs to decode (binread.MAX_READ_BYTES)


# The game header's start and the first event are found with bytes.find, not
# patterns: each compiled pattern costs ~0.05 ms at every start.

def _find_header(data: bytes, start: int, end: int) -> int:
    """Where the first ``[0|`` .. ``[3|`` lying in ``data[start:end]`` begins, or -1."""
    stop = min(end, len(data)) - 2          # where a "[" can be with its two bytes
    i = data.find(b"[", start, stop) if stop > start else -1
    while i >= 0:
        if 48 <= data[i + 1] <= 51 and data[i + 2] == 124:      # 0-3, then "|"
            return i
        i = data.find(b"[", i + 1, stop)
    return -1


def _find_first_event(data: bytes, start: int, end: int) -> int:
    """Where the first ``\\x00\\x01`` or ``\\x01\\x01`` lying in ``data[start:end]``
    begins, or -1."""
    a = data.find(b"\x00\x01", start, end)
    b = data.find(b"\x01\x01", start, end)
    return b if a < 0 else a if b < 0 else min(a, b)


def _date(stamp: bytes) -> datetime | None:
    m = _STAMP.match(stamp)
    if m is None:
        return None          # before Arbiter 0.46.1 the stamp had no date
    day, month, year, hour, minute, second = (int(g) for g in m.groups())
    try:
        return datetime(year, month, day, hour, minute, second)
    except ValueError:
        return None


def read_avf(data: bytes, source: str = "<bytes>") -> Video:
    """Read an Arbiter video.

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
        If the bytes are not a readable Arbiter video.
        Records that would cost more memory to decode than
        :data:`~fastmine.videos.binread.MAX_READ_BYTES` are refused before
        they are decoded.
    """
    cur = Cursor(data, source)
    version = cur.u8("the version byte")
    cur.skip(4, "the header")
    level_byte = cur.u8("the level byte")
    if level_byte in _LEVELS:
        level, rows, cols, mines = _LEVELS[level_byte]
    elif level_byte == 6:
        level = "custom"
        cols = cur.u8("the board width") + 1
        rows = cur.u8("the board height") + 1
        mines = cur.u16("the mine count")
    else:
        raise cur.fail(f"level byte {level_byte} is not an Arbiter level (3-6): "
                       "this is not an Arbiter video", cur.pos - 1)
    layout = cur.mines(rows, cols, mines, col_first=False, base=1)

    open_at = _find_header(data, cur.pos, cur.pos + _SEARCH_LIMIT)
    if open_at < 0:
        raise cur.fail("no game header ('[0|...]') after the mines: truncated or corrupt")
    marks_byte = data[open_at - 2]
    if marks_byte not in (17, 127):
        raise cur.fail(f"the question-mark byte is {marks_byte}, not 17 or 127", open_at - 2)
    close_at = data.find(b"]", open_at, open_at + 256)
    if close_at < 0:
        raise cur.fail("the game header ('[...]') is not closed", open_at)
    fields = data[open_at + 1:close_at].split(b"|")
    if level_byte == 6:
        fields.pop(1)        # "W8H11M7": the custom size again
    if len(fields) < 3:
        raise cur.fail("the game header has too few fields", open_at)
    score = _SCORE.search(fields[-1])
    if score is None:
        raise cur.fail(f"the game header does not end in its 3BV and time "
                       f"({fields[-1][-24:]!r})", open_at)
    bbbv = int(score.group(1))
    hundredths = int(score.group(3).ljust(2, b"0")[:2])
    header_time_ms = (int(score.group(2)) - 1) * 1000 + hundredths * 10

    first = _find_first_event(data, close_at + 2, close_at + 2 + _SEARCH_LIMIT)
    if first < 0:
        raise cur.fail("no mouse events after the game header", close_at)
    start = first - 1
    cur.pos = start
    cur.budget(max(cur.remaining, 0) // 8, _EVENT_COST, "mouse events")
    # The 8-byte records found, checked and decoded in compiled code (_records.avf_events).
    n, bad, lo, hi, columns = avf_events(data, start, _KINDS, rows, cols)
    if columns is None:
        if n < 0:
            raise cur.fail("the event list has no end: the file is truncated", len(data))
        raise cur.fail(f"unknown event code {data[start + 8 * bad]}", start + 8 * bad)
    events = Events._checked(n, lo, hi, columns, cur)

    after = start + 8 * n + 8
    foot = data.find(b"cs=", after, after + _SEARCH_LIMIT)
    if foot < 0:
        raise cur.fail("no footer ('cs=...') after the events: truncated or corrupt", after)
    lines = data[foot + 3 + 16:foot + 3 + 16 + _SEARCH_LIMIT].split(b"\r")
    # The checksum may hold a \r byte; the first line is what follows it.
    lines = lines[1:] if lines and lines[0] == b"" else lines
    details: dict[str, str] = {}
    real_time_ms: int | None = None
    name: bytes | None = None
    program = b""
    for i, line in enumerate(lines):
        key, sep, value = line.partition(b": ")
        if sep and key in (b"RealTime", b"Skin"):
            if key == b"Skin":
                details["skin"] = value.decode("latin-1")
            else:
                t = re.fullmatch(rb"(\d{1,6})[.,](\d{1,3})", value.strip())
                if t is not None:
                    real_time_ms = int(t.group(1)) * 1000 + int(t.group(2).ljust(3, b"0")[:3])
            continue
        name = line
        program = lines[i + 1] if i + 1 < len(lines) else b""
        break
    if name is None:
        raise cur.fail("the footer has no player name", foot)
    v = _VERSION.search(program)
    software_version = v.group(1).decode("latin-1") if v else f"0.{version}"
    stamp = fields[1]
    end_stamp = fields[2]
    details["start_stamp"] = stamp.decode("latin-1")
    details["end_stamp"] = end_stamp.split(b"B")[0].decode("latin-1")
    return Video(
        source=source, format="avf", format_version=str(version),
        software="Minesweeper Arbiter", software_version=software_version,
        player=decode_legacy(name), date=_date(stamp), level=level,
        rows=rows, cols=cols, mines=mines, mine_layout=layout, cell_size=16,
        question_marks=marks_byte == 17, mode="classic", events=events,
        stated_time_ms=real_time_ms if real_time_ms is not None else header_time_ms,
        stated_bbbv=bbbv, stated_outcome=None, details=details)
