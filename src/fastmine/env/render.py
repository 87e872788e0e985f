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

__all__ = ["CELL", "GLYPHS", "MAX_RENDER_BYTES", "ansi", "cell_size", "rgb_array"]

GLYPHS: dict[int, str] = {
    HIDDEN: "#", FLAG: "F", QUESTION: "?", MINE: "*", EXPLODED: "X", WRONG_FLAG: "!",
    0: ".", **{n: str(n) for n in range(1, 9)},
}
"""View code -> character (the terminal game's glyphs)."""

CELL = 16
"""Pixels per cell side in :func:`rgb_array` (fewer on large boards: :func:`cell_size`)."""

MAX_RENDER_BYTES = 64 * 2**20
"""Most bytes of the images one ``render()`` call makes (64 MiB): a board too large
for 16 pixels a cell is drawn with 8, 4, 2 or 1 (:func:`cell_size`)."""

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


def cell_size(rows: int, cols: int, images: int = 1) -> int:
    """Pixels per cell side for ``images`` images of a ``rows`` x ``cols`` board:
    the largest of 16, 8, 4, 2, 1 that keeps them within :data:`MAX_RENDER_BYTES`.

    Raises
    ------
    ValueError
        Not even one pixel a cell fits (too many games to render at once).

    >>> cell_size(16, 30), cell_size(1024, 1024)
    (16, 4)
    """
    for c in (16, 8, 4, 2, 1):
        if images * rows * cols * c * c * 3 <= MAX_RENDER_BYTES:
            return c
    raise ValueError(f"{images} images of a {rows}x{cols} board need more than "
                     f"{MAX_RENDER_BYTES // 2**20} MiB even at one pixel a cell; render "
                     "fewer games at once")


def ansi(view: NDArray[np.int8]) -> str:
    """The view as text: one line per row, one character per cell (:data:`GLYPHS`)."""
    return "\n".join("".join(row) for row in _TEXT[np.asarray(view, np.int64) + 6])


def rgb_array(view: NDArray[np.int8], cell: int | None = None) -> NDArray[np.uint8]:
    """The view as an image: uint8 ``(rows * cell, cols * cell, 3)``.

    ``cell`` (pixels a cell side, a power of two up to 16): default
    :func:`cell_size` of the board, 16 up to 80,000 cells or so.
    """
    v = np.asarray(view, np.int64) + 6
    rows, cols = v.shape
    c = cell_size(rows, cols) if cell is None else cell
    step = CELL // c
    tiles = _TILES[:, ::step, ::step]           # each tile shrunk to c x c pixels
    out = np.empty((rows, c, cols, c, 3), np.uint8)
    for r in range(rows):       # a row of tiles at a time: no board-sized temporary
        out[r] = tiles[v[r]].transpose(1, 0, 2, 3)
    return out.reshape(rows * c, cols * c, 3)
