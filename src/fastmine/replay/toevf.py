"""A replay written as a Metasweeper video (``.evf``, version 4), for
``fastmine replay --export ID game.evf``.

EVF's layout is public (ms-toollib's "evf format" document; fastmine's reader
is :mod:`fastmine.videos.evf`).  Version 4 is written, as Metasweeper 3.2 and
later write it and as it converts other clients' videos: the first mouse
event with its place, then each event's elapsed milliseconds (a pause event
before a gap over 255 ms) and its signed 16-bit steps in pixels, and an
empty checksum.

What the exported file keeps, so that fastmine and ms-toollib read the same
game back (``tests/videos/test_export_roundtrip.py`` checks it on every test
video):

- the mouse path as recorded, in the video's own pixels: the cell size is the
  replay's ``mouse_unit`` (24 for a Vienna video on 24-pixel cells), and a
  point off the board stays where it was (a release at y = -1 is not moved
  onto the board: EVF 4's steps are signed);
- the recording program, for a game imported from another client's video
  (``software``): the file is marked converted, its source names the program
  as Metasweeper does ("Arbiter", "0.97 beta", "Viennasweeper"), so a reader
  counts the clicks by that client's rules (Minesweeper Clone counts a
  chord's right press: its IOE stays the client's);
- the date in the zone the source gave: UTC for Vienna, Metasweeper and
  fastmine's own games, the player's local wall clock (no zone) for Arbiter
  and Clone, which record only that (kept as Metasweeper converts them); a
  date the file cannot hold as given is left out, never relabelled.

A replay without a path (a game played in fastmine) becomes the clicks that
make each move, at the move's time, over the middle of its cell (16-pixel
cells): a reveal is a left press and release, a mark a right press and
release, a chord both buttons pressed and released (left first).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
from numpy.typing import NDArray

from ..movelog import KIND_BITS, MOVE_CHORD, MOVE_REVEAL
from ..videos.evf import keeps_local_time, source_of
from ..videos.model import MAX_FILE_BYTES, MAX_TIME_MS
from .playback import Replay

__all__ = ["CELL_PIXELS", "EVF_VERSION", "MAX_EVF_MS", "to_evf"]

EVF_VERSION = 4
"""The EVF version written."""

CELL_PIXELS = 16
"""The cell size written for a replay without a mouse path (pixels)."""

MAX_EVF_MS = MAX_TIME_MS
"""The longest game written, in milliseconds (about 24.8 days): the latest event
time fastmine's reader accepts; a longer game is refused."""

_EPOCH = datetime(1970, 1, 1)
_EPOCH_UTC = datetime(1970, 1, 1, tzinfo=timezone.utc)
_FIRST_CODES = (1, 2, 4, 8)      # what a version 4 file may start with (ms-toollib's rule)


def _clicks(replay: Replay) -> NDArray[np.int64]:
    """``(ms, x, y, kind)`` rows of each move's clicks (EventKind values)."""
    out = []
    for kind, r, c, ms in replay.moves.tolist():
        x, y = c * CELL_PIXELS + CELL_PIXELS // 2, r * CELL_PIXELS + CELL_PIXELS // 2
        k = kind & KIND_BITS
        out.append((ms, x, y, 0))                                   # the pointer arrives
        if k == MOVE_REVEAL:
            out += [(ms, x, y, 1), (ms, x, y, 2)]
        elif k == MOVE_CHORD:
            out += [(ms, x, y, 1), (ms, x, y, 3), (ms, x, y, 2), (ms, x, y, 4)]
        else:                                                       # a mark
            out += [(ms, x, y, 3), (ms, x, y, 4)]
    return np.array(out, dtype=np.int64).reshape(-1, 4)


def _start_us(date: datetime | str | None, local_source: bool) -> int:
    """The start-time field: microseconds since 1970 of UTC, or of the wall clock
    for a source that records local time; 0 (none) when the date cannot be held
    as the source gave it."""
    if date is None:
        return 0
    if isinstance(date, str):
        try:
            date = datetime.fromisoformat(date)
        except ValueError:
            return 0
    naive = date.tzinfo is None or date.utcoffset() is None
    if naive != local_source:
        return 0            # e.g. a Clone game without a date, recorded at its import
    us = ((date - _EPOCH) if naive else (date - _EPOCH_UTC)) // timedelta(microseconds=1)
    return int(us) if 0 < us < 2**63 else 0


def _events(mouse: NDArray[np.int64], rows: int, cols: int, cell: int) -> bytes:
    """The event list: version 4 mouse events with pauses before long gaps."""
    ms, kind = mouse[:, 0], mouse[:, 3]
    xy = mouse[:, 1:3].copy()
    # A point off the board is written where EVF's specification puts every
    # such point, (cols, rows) x the cell size: off the board for every reader
    # (a release at y = -1 clamped to 0 was a click on row 1).
    off = ((xy[:, 0] < 0) | (xy[:, 0] >= cols * cell) | (xy[:, 1] < 0)
           | (xy[:, 1] >= rows * cell))
    xy[off] = (cols * cell, rows * cell)
    if kind[0] + 1 not in _FIRST_CODES:
        # A file starts with a move, a press or a laid flag (ms-toollib refuses
        # anything else): a move to the same place comes first.
        mouse = np.vstack([np.array([[ms[0], xy[0, 0], xy[0, 1], 0]]),
                           np.column_stack([ms, xy, kind])])
        ms, kind, xy = mouse[:, 0], mouse[:, 3], mouse[:, 1:3]
    gap = np.diff(ms - ms[0], prepend=0)
    step = np.diff(xy, axis=0, prepend=np.zeros((1, 2), np.int64)) & 0xFFFF
    rec = np.empty((len(ms), 6), np.uint8)
    rec[:, 0] = kind + 1
    rec[:, 1] = np.minimum(gap, 255) & 0xFF
    rec[:, 2], rec[:, 3] = step[:, 0] >> 8, step[:, 0] & 0xFF
    rec[:, 4], rec[:, 5] = step[:, 1] >> 8, step[:, 1] & 0xFF
    parts: list[bytes] = []
    at = 0
    for i in np.flatnonzero(gap > 255).tolist():
        parts.append(rec[at:i].tobytes())
        left = int(gap[i])
        while left > 255:            # pauses carry the gap; the event keeps the rest
            chunk = min(left, 65535)
            parts.append(bytes([255]) + chunk.to_bytes(2, "big"))
            left -= chunk
        rec[i, 1] = left
        at = i
    parts.append(rec[at:].tobytes())
    return b"".join(parts)


def to_evf(replay: Replay, *, player: str = "", date: datetime | str | None = None,
           software: str | None = None) -> bytes:
    """The replay as the bytes of an EVF version 4 video.

    Parameters
    ----------
    replay : Replay
    player : str
        The player's name (UTF-8).
    date : datetime or str (ISO 8601), optional
        When the game was played: aware (UTC) for fastmine's own games and
        Vienna's and Metasweeper's videos, naive (local wall clock) for
        Arbiter's and Clone's.  A date in the other form than its source
        records is left out.
    software : str, optional
        The program that recorded a game imported from its video, as fastmine
        names it (``"Minesweeper Clone 0.97 beta"``, a record's ``software``);
        None for a game played in fastmine.

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        A board EVF cannot hold (over 255 rows or columns, 65,535 mines, or
        rows or columns times the cell size over 32,767 pixels), a game longer
        than :data:`MAX_EVF_MS`, or a video larger than fastmine reads
        (:data:`fastmine.videos.model.MAX_FILE_BYTES`).
    """
    rows, cols, mines = replay.rows, replay.cols, replay.mine_count
    if rows > 255 or cols > 255 or mines > 65535:
        raise ValueError(f"an EVF video holds at most 255x255 cells and 65,535 mines, "
                         f"not {rows}x{cols}/{mines}")
    if replay.mouse is not None and len(replay.mouse):
        mouse = replay.mouse.astype(np.int64)
        cell = replay.mouse_unit
    else:
        mouse, cell = _clicks(replay), CELL_PIXELS
    if max(rows, cols) * cell > 32767:
        raise ValueError(f"an EVF video's board is at most 32,767 pixels across, not "
                         f"{max(rows, cols)} cells of {cell}")
    time_ms = round(replay.time * 1000)
    span = int(mouse[-1, 0] - mouse[0, 0]) if len(mouse) else 0
    if max(time_ms, span) > MAX_EVF_MS:
        raise ValueError(f"an EVF video keeps times up to {MAX_EVF_MS} ms (24.8 days); "
                         f"this game lasts {max(time_ms, span)} ms")
    source = "fastmine" if software is None else source_of(software)
    converted = software is not None
    start = _start_us(date, converted and keeps_local_time(source))
    state = replay.state.value
    kinds = replay.moves[:, 0] & KIND_BITS
    marks = (kinds != MOVE_REVEAL) & (kinds != MOVE_CHORD)
    flagged_mine = bool(replay.mines[replay.moves[marks, 1], replay.moves[marks, 2]].any())
    summary = ((0b1000_0000 if state == "won" else 0) | (0 if flagged_mine else 0b0001_0000)
               | (0b0000_1000 if converted else 0))
    head = bytearray([EVF_VERSION, summary, 0b1000_0000 if replay.question_marks else 0,
                      rows, cols])
    head += mines.to_bytes(2, "big") + bytes([cell]) + (0).to_bytes(2, "big")
    head += min(replay.board.bbbv(), 65535).to_bytes(2, "big") + time_ms.to_bytes(4, "big")
    head += b"XX" + start.to_bytes(8, "big")
    head += (start + 1000 * time_ms if start else 0).to_bytes(8, "big")
    texts = [source]
    if converted:
        from .. import __version__

        texts += [f"fastmine {__version__}", "utf-8"]
    texts += [player, "", ""]
    for text in texts:
        head += text.encode("utf-8").replace(b"\0", b"") + b"\0"
    head += (0).to_bytes(2, "big")                                  # no device id
    head += np.packbits(replay.mines.ravel()).tobytes()
    head += (0).to_bytes(2, "big")                                  # no custom metrics
    # No game-state event (82 won, 83 lost) after the mouse events: ms-toollib
    # then counts nothing at the video's end; the summary byte says a win.
    data = bytes(head) + _events(mouse, rows, cols, cell) + b"\0" + (0).to_bytes(2, "big")
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"this game's video would be {len(data):,} bytes, more than a "
                         f"video fastmine reads ({MAX_FILE_BYTES:,})")
    return data
