"""Drawing the curses game: colours, the header, the board, the message and key lines.

Everything here only paints; what to paint comes from the session and the
:class:`~fastmine.cli.tui.layout.Layout`.  Text is clipped to the screen so a
narrow terminal never raises ``curses.error``.
"""

from __future__ import annotations

import contextlib
import curses
import textwrap
from typing import TYPE_CHECKING

import numpy as np

from ...viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, GameState
from .keys import help_line
from .layout import BOARD_Y, Layout, too_small_text
from .text import GLYPHS

if TYPE_CHECKING:
    from .session import Session

# Classic Minesweeper number colours, as close as 8 terminal colours get.
_NUMBER_COLOURS = {1: curses.COLOR_BLUE, 2: curses.COLOR_GREEN, 3: curses.COLOR_RED,
                   4: curses.COLOR_MAGENTA, 5: curses.COLOR_RED, 6: curses.COLOR_CYAN,
                   7: curses.COLOR_YELLOW, 8: curses.COLOR_WHITE}


class Palette:
    """Curses attributes for each view code; plain attributes when colours are off."""

    def __init__(self, use_colour: bool) -> None:
        self.attr: dict[int, int] = {v: curses.A_NORMAL for v in GLYPHS}
        self.attr[MINE] = curses.A_BOLD
        self.attr[EXPLODED] = curses.A_BOLD | curses.A_REVERSE
        self.attr[WRONG_FLAG] = curses.A_BOLD
        self.attr[FLAG] = curses.A_BOLD
        self.header = curses.A_BOLD
        if not use_colour:
            return
        try:
            curses.start_color()
            curses.use_default_colors()
            bg = -1
        except curses.error:
            bg = curses.COLOR_BLACK
        pair = 0

        def colour(fg: int, bg_: int = bg) -> int:
            nonlocal pair
            pair += 1
            if pair >= curses.COLOR_PAIRS:
                return curses.A_NORMAL
            curses.init_pair(pair, fg, bg_)
            return curses.color_pair(pair)

        for n, fg in _NUMBER_COLOURS.items():
            self.attr[n] = colour(fg) | (curses.A_BOLD if n in (1, 2, 3, 4) else 0)
        self.attr[FLAG] = colour(curses.COLOR_RED) | curses.A_BOLD
        self.attr[QUESTION] = colour(curses.COLOR_YELLOW) | curses.A_BOLD
        self.attr[EXPLODED] = colour(curses.COLOR_WHITE, curses.COLOR_RED) | curses.A_BOLD
        self.attr[WRONG_FLAG] = colour(curses.COLOR_BLACK, curses.COLOR_YELLOW)
        self.attr[HIDDEN] = colour(curses.COLOR_BLUE)
        self.header = colour(curses.COLOR_CYAN) | curses.A_BOLD


def put(win: curses.window, y: int, x: int, text: str, attr: int = 0) -> None:
    """Write ``text`` at (y, x), clipped to the window; never raises for off-screen text."""
    h, w = win.getmaxyx()
    if not (0 <= y < h) or x >= w or x < 0:
        return
    text = text[: w - x]
    if y == h - 1 and x + len(text) >= w:
        text = text[: w - x - 1]  # writing the bottom-right cell fails in curses
    if text:
        with contextlib.suppress(curses.error):
            win.addstr(y, x, text, attr)


def draw_too_small(win: curses.window, height: int, width: int) -> None:
    """The message shown when the terminal cannot hold the game."""
    win.erase()
    for i, line in enumerate(too_small_text(height, width)):
        put(win, i, 0, line)
    win.refresh()


def header_text(session: Session, cursor: tuple[int, int], layout: Layout) -> str:
    """``Mines 10  Time 12  playing  (5,5)  beginner 9x9, 10 mines`` (most important first)."""
    g = session.game
    state = "PAUSED" if g.paused else {GameState.WON: "WON", GameState.LOST: "LOST"}.get(
        g.state, g.state.value)
    if g.assisted:
        state += " (assisted)"
    if session.coach:
        state += "  coach"          # the live coach is on (w turns it off)
    pos = f"({cursor[0] + 1},{cursor[1] + 1})"
    scroll = "  scroll" if layout.scrolled else ""
    return (f"Mines {g.mines_left}  Time {int(g.elapsed)}  {state}  {pos}  "
            f"{session.options.label}{scroll}")


def draw(win: curses.window, session: Session, layout: Layout, cursor: tuple[int, int], message: str,
         palette: Palette, show_cursor: bool = True) -> None:
    """Paint one full frame."""
    if layout.too_small:
        draw_too_small(win, layout.height, layout.width)
        return
    win.erase()
    g = session.game
    put(win, 0, 1, header_text(session, cursor, layout), palette.header)
    if g.paused:
        y = BOARD_Y + max(0, layout.vis_rows // 2 - 1)
        text = "Paused - press p to resume"
        put(win, y, max(0, (layout.width - len(text)) // 2), text, curses.A_BOLD)
    else:
        _draw_board(win, g.view, layout, cursor if show_cursor else None, palette)
    put(win, layout.message_y, 1, message, curses.A_BOLD)
    notes = wrap_notes(session.outcome.coach if session.outcome is not None else (), layout.width)
    slots = note_rows(layout, len(notes))
    for y, line in zip(slots, notes, strict=False):
        put(win, y, 1, line)
    if layout.keys_y not in slots:
        put(win, layout.keys_y, 1, help_line(layout.width))
    win.refresh()


def wrap_notes(lines: tuple[str, ...] | list[str], width: int) -> list[str]:
    """The coach's lines folded at word ends to fit ``width`` columns (less the
    margin), so a summary longer than the terminal is read whole, not cut.

    >>> wrap_notes(["Coach: You survived 1 guess you had to make (19%)."], 40)
    ['Coach: You survived 1 guess you had to', 'make (19%).']
    """
    room = max(width - 2, 10)
    return [part for line in lines for part in (textwrap.wrap(line, room) or [""])]


def note_rows(layout: Layout, n: int) -> list[int]:
    """Screen rows for ``n`` lines shown under a finished game (the coach's):
    the free rows between the board and the message line, nearest the message,
    else the keys line too (the message says which keys matter then).

    >>> from .layout import fit
    >>> note_rows(fit(24, 80, 9, 9, (0, 0)), 2)
    [20, 21]
    >>> note_rows(fit(24, 80, 30, 30, (0, 0)), 2)
    [23]
    """
    free = list(range(BOARD_Y + layout.vis_rows, layout.message_y))
    if len(free) >= n:
        return free[len(free) - n:]
    return (free + [layout.keys_y])[:n]


def _draw_board(win: curses.window, view: np.ndarray, layout: Layout,
                cursor: tuple[int, int] | None, palette: Palette) -> None:
    r0, c0 = layout.top, layout.left
    part = view[r0:r0 + layout.vis_rows, c0:c0 + layout.vis_cols].tolist()
    for dr, row in enumerate(part):
        y = BOARD_Y + dr
        for dc, v in enumerate(row):
            attr = palette.attr[v]
            if cursor is not None and (r0 + dr, c0 + dc) == cursor:
                attr |= curses.A_REVERSE
            put(win, y, layout.board_x + 2 * dc, GLYPHS[v], attr)
    # Arrows on the screen edges say there is more board that way.
    mid = BOARD_Y + layout.vis_rows // 2
    if layout.top > 0:
        put(win, BOARD_Y, layout.width - 1, "^")
    if layout.top + layout.vis_rows < layout.rows:
        put(win, BOARD_Y + layout.vis_rows - 1, layout.width - 1, "v")
    if layout.left > 0:
        put(win, mid, 0, "<")
    if layout.left + layout.vis_cols < layout.cols:
        put(win, mid, layout.width - 1, ">")
