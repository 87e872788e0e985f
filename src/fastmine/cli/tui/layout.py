"""Where the curses game puts things: header, board window, status and key lines.

Pure arithmetic, no curses, so it is tested directly.  The screen is::

    y = 0            header: board, mines left, timer, state
    y = 1            blank
    y = 2 .. H - 3   the board (or the part of it that fits)
    y = H - 2        message line
    y = H - 1        keys line

Each cell is two columns wide (glyph and a space).  A board larger than the
screen scrolls so the cursor stays visible, keeping a margin of context.

>>> lay = fit(24, 80, 9, 9, (0, 0))
>>> lay.too_small, lay.vis_rows, lay.vis_cols, lay.top, lay.left
(False, 9, 9, 0, 0)
>>> lay.cell_at(2, lay.board_x)
(0, 0)
>>> fit(24, 80, 50, 50, (49, 49)).top
30
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

MIN_HEIGHT = 6
"""Smallest usable terminal: header, blank, 2 board rows, message, keys."""
MIN_WIDTH = 24
"""Smallest usable terminal width."""
CELL_W = 2
BOARD_Y = 2
SCROLL_MARGIN = 2  # cells of context kept beyond the cursor when scrolling


@dataclass(frozen=True)
class Layout:
    """The screen positions for one frame.  ``top``/``left`` are the first visible row/col."""

    height: int
    width: int
    too_small: bool
    vis_rows: int = 0
    vis_cols: int = 0
    top: int = 0
    left: int = 0
    board_x: int = 0  # screen x of the first visible column's glyph
    rows: int = 0
    cols: int = 0

    @property
    def message_y(self) -> int:
        """Screen row of the message line."""
        return self.height - 2

    @property
    def keys_y(self) -> int:
        """Screen row of the keys line."""
        return self.height - 1

    @property
    def scrolled(self) -> bool:
        """True when part of the board is off screen."""
        return self.vis_rows < self.rows or self.vis_cols < self.cols

    def screen_of(self, r: int, c: int) -> tuple[int, int] | None:
        """Screen (y, x) of cell (r, c)'s glyph, or None if it is off screen."""
        if self.too_small or not (self.top <= r < self.top + self.vis_rows
                                  and self.left <= c < self.left + self.vis_cols):
            return None
        return BOARD_Y + r - self.top, self.board_x + CELL_W * (c - self.left)

    def cell_at(self, y: int, x: int) -> tuple[int, int] | None:
        """The cell drawn at screen (y, x) (its glyph or the space after it), or None."""
        if self.too_small:
            return None
        dr, dx = y - BOARD_Y, x - self.board_x
        if not (0 <= dr < self.vis_rows and 0 <= dx < CELL_W * self.vis_cols):
            return None
        return self.top + dr, self.left + dx // CELL_W


def _scroll(first: int, visible: int, total: int, cursor: int) -> int:
    if visible >= total:
        return 0
    margin = min(SCROLL_MARGIN, (visible - 1) // 2)
    if cursor - margin < first:
        first = cursor - margin
    elif cursor + margin >= first + visible:
        first = cursor + margin - visible + 1
    return max(0, min(first, total - visible))


def fit(height: int, width: int, rows: int, cols: int, cursor: tuple[int, int],
        prev: Layout | None = None) -> Layout:
    """The layout of a ``rows`` x ``cols`` board on a ``height`` x ``width`` screen.

    ``prev`` is the last frame's layout: the view scrolls only as far as the
    cursor needs, so it does not jump around.
    """
    if height < MIN_HEIGHT or width < MIN_WIDTH:
        return Layout(height, width, True, rows=rows, cols=cols)
    vis_rows = min(rows, height - BOARD_Y - 2)
    vis_cols = min(cols, (width - 1) // CELL_W)
    top = _scroll(prev.top if prev else 0, vis_rows, rows, cursor[0])
    left = _scroll(prev.left if prev else 0, vis_cols, cols, cursor[1])
    board_x = max(1, (width - CELL_W * vis_cols) // 2) if vis_cols == cols else 1
    return Layout(height, width, False, vis_rows, vis_cols, top, left, board_x, rows, cols)


def too_small_text(height: int, width: int) -> list[str]:
    """The lines shown instead of the game when the terminal is too small (wrapped to fit).

    >>> too_small_text(4, 20)
    ['Terminal too small', '(20x4): need at', 'least 24x6. Enlarge', 'it, or q to quit.']
    """
    text = (f"Terminal too small ({width}x{height}): need at least "
            f"{MIN_WIDTH}x{MIN_HEIGHT}. Enlarge it, or q to quit.")
    return textwrap.wrap(text, max(1, width - 1), break_long_words=True)[:max(1, height)]
