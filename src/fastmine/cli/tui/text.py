"""How a board and a replay look as text, shared by both terminal modes and both
replay players (printed and curses).

>>> import numpy as np
>>> print("\\n".join(board_lines(np.array([[0, 1, -1], [-2, -3, 2]], np.int8))))
    1 2 3
 1  . 1 #
 2  F ? 2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...difficulty import difficulty_name
from ...viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG

if TYPE_CHECKING:
    from ...replay import Replay

GLYPHS: dict[int, str] = {
    HIDDEN: "#",
    FLAG: "F",
    QUESTION: "?",
    MINE: "*",
    EXPLODED: "X",
    WRONG_FLAG: "!",
    0: ".",
    **{n: str(n) for n in range(1, 9)},
}
"""View code (or number 0..8) -> the character shown for it."""

LEGEND = "# hidden  F flag  ? question  . empty  1-8 mines around  * mine  X exploded  ! wrong flag"
"""One line explaining :data:`GLYPHS`."""

_TABLE = np.array([GLYPHS[v] for v in range(-6, 9)])  # index = code + 6


def glyph_grid(view: np.ndarray) -> np.ndarray:
    """An array of one-character strings, the glyph of every cell of ``view``."""
    return _TABLE[np.asarray(view, np.int64) + 6]


def board_lines(view: np.ndarray) -> list[str]:
    """The board as text with 1-based row and column numbers, as plain mode prints it."""
    rows, cols = view.shape
    w = len(str(cols)) + 1
    rw = len(str(rows)) + 1
    grid = glyph_grid(view)
    lines = [" " * (rw + 1) + "".join(f"{c + 1:>{w}}" for c in range(cols))]
    for r in range(rows):
        lines.append(f"{r + 1:>{rw}} " + "".join(f"{g:>{w}}" for g in grid[r]))
    return lines


def replay_header(replay: Replay) -> str:
    """One line naming a replay's game: board, rule, how it ended and its time."""
    name = difficulty_name(replay.rows, replay.cols, replay.mine_count)
    return (f"{name} {replay.rows}x{replay.cols}/{replay.mine_count}, first click "
            f"{replay.rule}: {replay.state.value} in {replay.time:.3f} s, {len(replay)} moves")
