"""The curses replay player of ``fastmine replay``: play, pause, step, speed.

Keys: space pauses and resumes, right arrow (or l) steps one move forward,
left arrow (or h) one back, home (or 0) goes to the start, end (or $) to the
end, + and - double and halve the speed, q quits.
"""

from __future__ import annotations

import contextlib
import curses
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from .tui.draw import Palette, put
from .tui.text import GLYPHS

if TYPE_CHECKING:
    from .game import Game
    from .replay import Replay

KEYS_LINE = "space pause  <- -> step  home/end  + - speed  q quit"


class Cursor:
    """The replay at one move: the game after ``k`` moves, moved forward cheaply
    and backward by replaying from the start (no move is ever undone)."""

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        self._frames: Iterator[Game] = replay.frames()
        self.game: Game = next(self._frames)
        self.k = 0

    def goto(self, k: int) -> None:
        """Show the game after ``k`` moves (clamped to 0..len(replay))."""
        k = max(0, min(k, len(self.replay)))
        if k < self.k:
            self._frames = self.replay.frames()
            self.game = next(self._frames)
            self.k = 0
        while self.k < k:
            self.game = next(self._frames)
            self.k += 1


def play_curses(replay: Replay, *, speed: float = 1.0) -> int:
    """Play ``replay`` full screen until the user quits; returns 0."""
    return int(curses.wrapper(_main, replay, speed))


def _main(win: curses.window, replay: Replay, speed: float) -> int:
    from .replaycmd import header

    with contextlib.suppress(curses.error):
        curses.curs_set(0)    # some terminals cannot hide the cursor
    palette = Palette(curses.has_colors())
    cur = Cursor(replay)
    times = replay.moves[:, 3].tolist()
    paused = speed == 0
    speed = speed or 1.0
    due = time.monotonic()   # wall time when the next move is shown
    n = len(replay)
    while True:
        _draw(win, cur, palette, header(replay), paused, speed)
        if not paused and cur.k < n:
            gap = (times[cur.k] - (times[cur.k - 1] if cur.k else 0)) / 1000.0 / speed
            wait = max(0.0, due + gap - time.monotonic())
            win.timeout(int(wait * 1000))
        else:
            win.timeout(-1)
        key = win.getch()
        if key == -1:           # the next move is due
            due = time.monotonic()
            cur.goto(cur.k + 1)
            continue
        if key in (ord("q"), ord("Q"), 27):
            return 0
        if key == ord(" "):
            paused = not paused
        elif key in (curses.KEY_RIGHT, ord("l")):
            paused = True
            cur.goto(cur.k + 1)
        elif key in (curses.KEY_LEFT, ord("h")):
            paused = True
            cur.goto(cur.k - 1)
        elif key in (curses.KEY_HOME, ord("0")):
            cur.goto(0)
        elif key in (curses.KEY_END, ord("$")):
            cur.goto(n)
        elif key == ord("+"):
            speed = min(speed * 2, 64.0)
        elif key == ord("-"):
            speed = max(speed / 2, 1 / 64)
        due = time.monotonic()


def _draw(win: curses.window, cur: Cursor, palette: Palette, title: str, paused: bool,
          speed: float) -> None:
    win.erase()
    put(win, 0, 0, title, palette.header)
    n = len(cur.replay)
    status = "paused" if paused else f"playing x{speed:g}"
    last = cur.replay.describe_move(cur.k - 1) if cur.k else "start"
    put(win, 1, 0, f"move {cur.k}/{n}  {last}  [{status}]")
    view = cur.game.view
    for r in range(view.shape[0]):
        for c in range(view.shape[1]):
            v = int(view[r, c])
            put(win, 3 + r, 2 * c, GLYPHS[v], palette.attr[v])
    # A timeline: how far through the moves, as a bar.
    h, w = win.getmaxyx()
    width = max(10, min(w - 2, 60))
    filled = width * cur.k // n if n else width
    put(win, 4 + view.shape[0], 0, "[" + "=" * filled + " " * (width - filled) + "]")
    put(win, 5 + view.shape[0], 0, KEYS_LINE)
    win.refresh()
