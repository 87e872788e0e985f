"""A replay written as a Metasweeper video (``.evf``, version 3), for
``fastmine replay --export ID game.evf``.

EVF's layout is public (ms-toollib's "evf format" document; fastmine's reader
is :mod:`fastmine.videos.evf`).  Version 3 is written: fixed 8-byte mouse
events (code, 24-bit ms, 16-bit x and y in pixels), which ms-toollib and
Metasweeper read, and which needs no checksum (the event list ends with 255).

The mouse events are the replay's own path when it has one (a game imported
from a video); otherwise each move becomes the clicks that make it in the
clients, at the move's time, over the middle of its cell: a reveal is a left
press and release, a mark a right press and release, a chord both buttons
pressed and released (left first).  Cells are 16 pixels.
"""

from __future__ import annotations

import numpy as np

from ..movelog import KIND_BITS
from .mousepath import UNIT
from .playback import Replay

__all__ = ["CELL_PIXELS", "MAX_EVF_MS", "to_evf"]

CELL_PIXELS = 16
"""The cell size written (pixels)."""

MAX_EVF_MS = 2**24 - 1
"""EVF version 3 keeps times in 24 bits (4 h 39 min); a longer game is refused."""

_REVEAL, _CHORD = 0, 2


def _clicks(replay: Replay) -> list[tuple[int, int, int, int]]:
    """``(evf code, ms, x, y)`` for each move's clicks."""
    out = []
    for kind, r, c, ms in replay.moves.tolist():
        x, y = c * CELL_PIXELS + CELL_PIXELS // 2, r * CELL_PIXELS + CELL_PIXELS // 2
        k = kind & KIND_BITS
        out.append((1, ms, x, y))                                   # the pointer arrives
        if k == _REVEAL:
            out += [(2, ms, x, y), (3, ms, x, y)]
        elif k == _CHORD:
            out += [(2, ms, x, y), (4, ms, x, y), (3, ms, x, y), (5, ms, x, y)]
        else:                                                       # a mark
            out += [(4, ms, x, y), (5, ms, x, y)]
    return out


def _path(mouse: np.ndarray) -> list[tuple[int, int, int, int]]:
    """The replay's mouse path in EVF codes and pixels (times from its first event)."""
    ms = mouse[:, 0].astype(np.int64)
    ms = ms - min(0, int(ms.min())) if len(ms) else ms
    px = np.clip(mouse[:, 1:3].astype(np.int64) * CELL_PIXELS // UNIT, 0, 2**16 - 1)
    return list(zip((mouse[:, 3].astype(np.int64) + 1).tolist(), ms.tolist(),
                    px[:, 0].tolist(), px[:, 1].tolist(), strict=True))


def to_evf(replay: Replay, *, player: str = "", date_us: int = 0) -> bytes:
    """The replay as the bytes of an EVF version 3 video.

    Parameters
    ----------
    replay : Replay
    player : str
        The player's name (UTF-8).
    date_us : int
        The game's start, microseconds since 1970 (0: unknown).

    Returns
    -------
    bytes

    Raises
    ------
    ValueError
        A board EVF cannot hold (over 255 rows or columns, 65,535 mines), or a
        game longer than :data:`MAX_EVF_MS`.
    """
    rows, cols, mines = replay.rows, replay.cols, replay.mine_count
    if rows > 255 or cols > 255 or mines > 65535:
        raise ValueError(f"an EVF video holds at most 255x255 cells and 65,535 mines, "
                         f"not {rows}x{cols}/{mines}")
    events = _path(replay.mouse) if replay.mouse is not None else _clicks(replay)
    time_ms = round(replay.time * 1000)
    if time_ms > MAX_EVF_MS or any(e[1] > MAX_EVF_MS for e in events):
        raise ValueError(f"an EVF video keeps times up to {MAX_EVF_MS} ms (4 h 39 min); "
                         f"this game lasts {time_ms} ms")
    won = replay.state.value == "won"
    bbbv = replay.board.bbbv()
    head = bytearray([3, 0b1000_0000 if won else 0,
                      0b1000_0000 if replay.question_marks else 0, rows, cols])
    head += mines.to_bytes(2, "big") + bytes([CELL_PIXELS]) + (0).to_bytes(2, "big")
    head += min(bbbv, 65535).to_bytes(2, "big") + time_ms.to_bytes(3, "big")
    stamp = str(int(date_us)).encode() if date_us > 0 else b""
    for text in (b"fastmine", player.encode("utf-8").replace(b"\0", b""), b"", b"",
                 stamp, stamp, b"", b""):
        head += text + b"\0"
    head += np.packbits(replay.mines.ravel()).tobytes()
    body = bytearray()
    for code, ms, x, y in events:
        body += bytes([code]) + int(ms).to_bytes(3, "big") + int(x).to_bytes(2, "big") + \
            int(y).to_bytes(2, "big")
    return bytes(head + body + b"\xff")
