"""Writing small videos for tests: EVF version 0, the simplest layout (fixed
8-byte events), so hostile and unusual games can be built byte by byte."""

from __future__ import annotations

import numpy as np


def evf0(mines: np.ndarray, events: list[tuple[int, int, int, int]], *, cell: int = 16,
         time_ms: int = 0, player: bytes = b"tester", end: int = 255) -> bytes:
    """An EVF 0 file: ``events`` are ``(code, time_ms, x, y)`` with EVF's codes
    (1 move, 2/3 left press/release, 4/5 right, 6/7 middle, 8 preflag, 9 chord
    press, 10-12 press-or-release); ``end`` 255 means no checksum."""
    rows, cols = mines.shape
    out = bytearray([0, 0b1000_0000, rows, cols])
    out += int(mines.sum()).to_bytes(2, "big")
    out += bytes([cell]) + (0).to_bytes(2, "big") + (0).to_bytes(2, "big")
    out += time_ms.to_bytes(3, "big")
    for text in (b"Meta 3.1.9", player, b"", b"", b"0", b"0", b"XX"):
        out += text + b"\0"
    out += np.packbits(mines.ravel().astype(np.uint8)).tobytes()
    for code, t, x, y in events:
        out += bytes([code]) + t.to_bytes(3, "big") + x.to_bytes(2, "big") + y.to_bytes(2, "big")
    out.append(end)
    if end == 0:
        out += bytes(32)
    return bytes(out)


def evf4(mines: np.ndarray, raw_events: bytes, *, cell: int = 16) -> bytes:
    """An EVF 4 file around ``raw_events``, the event list's bytes as the format
    writes them (kind, then its fields), without the closing 0."""
    rows, cols = mines.shape
    out = bytearray([4, 0b1000_0000, 0, rows, cols])
    out += int(mines.sum()).to_bytes(2, "big") + bytes([cell])
    out += (0).to_bytes(2, "big") + (0).to_bytes(2, "big") + (0).to_bytes(4, "big")
    out += b"XX" + (0).to_bytes(8, "big") + (0).to_bytes(8, "big")
    for text in (b"\xe5\x85\x833.2.1", b"tester", b"", b""):
        out += text + b"\0"
    out += (0).to_bytes(2, "big")
    out += np.packbits(mines.ravel().astype(np.uint8)).tobytes()
    out += (0).to_bytes(2, "big") + raw_events + b"\0" + (0).to_bytes(2, "big")
    return bytes(out)


def click(code_down: int, r: int, c: int, t: int, cell: int = 16) -> list[tuple[int, int, int, int]]:
    """A press and a release (codes ``code_down`` and ``code_down + 1``) on cell (r, c)."""
    x, y = c * cell + cell // 2, r * cell + cell // 2
    return [(code_down, t, x, y), (code_down + 1, t, x, y)]
