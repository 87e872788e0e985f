"""Pictures of a view: text (``render_mode="ansi"``) and an RGB image (``"rgb_array"``).

>>> import numpy as np
>>> print(ansi(np.array([[-1, 1], [0, -2]], np.int8)))
#1
.F
>>> rgb_array(np.array([[-1, 1]], np.int8)).shape
(16, 32, 3)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .. import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG

__all__ = ["CELL", "GLYPHS", "ansi", "rgb_array"]

GLYPHS: dict[int, str] = {
    HIDDEN: "#", FLAG: "F", QUESTION: "?", MINE: "*", EXPLODED: "X", WRONG_FLAG: "!",
    0: ".", **{n: str(n) for n in range(1, 9)},
}
"""View code -> character (the terminal game's glyphs)."""

CELL = 16
"""Pixels per cell side in :func:`rgb_array`."""

_TEXT = np.array([GLYPHS[v] for v in range(-6, 9)])       # index: code + 6

# 3x5 digits, one string of 15 bits (row-major) per digit 1..8.
_DIGITS = {
    1: "010110010010111", 2: "111001111100111", 3: "111001111001111", 4: "101101111001001",
    5: "111100111001111", 6: "111100111101111", 7: "111001001001001", 8: "111101111101111",
}
_DIGIT_COLOURS = {1: (0, 0, 255), 2: (0, 128, 0), 3: (255, 0, 0), 4: (0, 0, 128),
                  5: (128, 0, 0), 6: (0, 128, 128), 7: (0, 0, 0), 8: (128, 128, 128)}
_OPEN = (224, 224, 224)
_HIDDEN = (176, 176, 176)


def _tile(code: int) -> NDArray[np.uint8]:
    t = np.empty((CELL, CELL, 3), np.uint8)
    hidden = code in (HIDDEN, FLAG, QUESTION)
    t[:] = _HIDDEN if hidden else (255, 64, 64) if code == EXPLODED else _OPEN
    if hidden:      # a raised tile: light top-left edge, dark bottom-right
        t[:2, :] = (240, 240, 240)
        t[:, :2] = (240, 240, 240)
        t[-2:, :] = (112, 112, 112)
        t[:, -2:] = (112, 112, 112)
    else:
        t[-1, :] = (160, 160, 160)
        t[:, -1] = (160, 160, 160)
    if 1 <= code <= 8:
        bits = np.array([int(b) for b in _DIGITS[code]], bool).reshape(5, 3)
        glyph = np.kron(bits, np.ones((2, 2), bool))            # 10 x 6 pixels
        t[3:13, 5:11][glyph] = _DIGIT_COLOURS[code]
    elif code in (FLAG, WRONG_FLAG):
        t[3:10, 7:9] = (255, 0, 0)      # the flag
        t[3:7, 4:7] = (255, 0, 0)
        t[10:12, 5:11] = (0, 0, 0)      # its foot
        if code == WRONG_FLAG:
            i = np.arange(3, 13)
            t[i, i] = (0, 0, 0)
            t[i, 15 - i] = (0, 0, 0)
    elif code in (MINE, EXPLODED):
        y, x = np.ogrid[:CELL, :CELL]
        t[(y - 7.5) ** 2 + (x - 7.5) ** 2 <= 16] = (0, 0, 0)
    elif code == QUESTION:
        t[4:12, 7:9] = (0, 0, 0)
    return t


_TILES = np.stack([_tile(v) for v in range(-6, 9)])          # index: code + 6


def ansi(view: NDArray[np.int8]) -> str:
    """The view as text: one line per row, one character per cell (:data:`GLYPHS`)."""
    return "\n".join("".join(row) for row in _TEXT[np.asarray(view, np.int64) + 6])


def rgb_array(view: NDArray[np.int8]) -> NDArray[np.uint8]:
    """The view as an image: uint8 ``(rows * CELL, cols * CELL, 3)``."""
    v = np.asarray(view, np.int64)
    rows, cols = v.shape
    tiles = _TILES[v + 6]                       # rows, cols, CELL, CELL, 3
    return np.ascontiguousarray(tiles.transpose(0, 2, 1, 3, 4)).reshape(rows * CELL, cols * CELL, 3)
