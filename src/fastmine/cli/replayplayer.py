"""The curses replay player of ``fastmine replay``: play, pause, step, speed.

Keys: space pauses and resumes, right arrow (or l) steps one move forward,
left arrow (or h) one back, home (or 0) goes to the start, end (or $) to the
end, + and - double and halve the speed, q quits.  With the coach's verdicts:
n and N jump to the next and the previous risky move (a guess, a risk, the
loss), f to the move that lost; the line under the move says what the move
was, the timeline bar marks risky moves with ! and the loss with X, and the
coach's summary sits under the bar.

A replay imported from a video keeps the mouse path: the cell under the
pointer is shown in reverse video, moving at the recorded pace between the
moves, and while a button is down the column after it shows which (L, R, B
for both, M); the status line names the cell and the buttons.
"""

from __future__ import annotations

import contextlib
import curses
import textwrap
import time
from typing import Any

from ..replay import Replay, Seeker
from ..replay.mousepath import LEFT, MIDDLE, RIGHT, buttons_held, pointer
from .tui.draw import Palette, put
from .tui.text import GLYPHS, replay_header

KEYS_LINE = "space pause  <- -> step  home/end  + - speed  q quit"
COACH_KEYS = "  n/N risky moves  f loss"


class Cursor(Seeker):
    """The replay at one move (:class:`fastmine.replay.Seeker`), with the
    coach's verdicts on its moves."""

    def __init__(self, replay: Replay, verdicts: list[Any] | None = None) -> None:
        super().__init__(replay)
        self.verdicts = verdicts
        self._longest: str | None = None
        mouse = replay.mouse
        self.held = buttons_held(mouse) if mouse is not None else None
        self.start_ms = min(0, int(mouse[0, 0])) if mouse is not None and len(mouse) else 0
        self.end_ms = max(int(replay.time * 1000),
                          int(mouse[-1, 0]) if mouse is not None and len(mouse) else 0)
        self.ms: float = self.start_ms
        """The game time shown (milliseconds): where the pointer is drawn."""

    def goto(self, k: int) -> Any:
        """The game after ``k`` moves, the clock set to the time of move ``k``."""
        game = super().goto(k)
        self.ms = self.start_ms if self.k == 0 else float(self.replay.moves[self.k - 1, 3])
        if self.k == len(self.replay):
            self.ms = max(self.ms, self.end_ms)
        return game

    def pointer(self) -> tuple[int, int, int] | None:
        """``(row, col, buttons)`` of the mouse at :attr:`ms` (None without a path)."""
        mouse = self.replay.mouse
        if mouse is None or self.held is None:
            return None
        return pointer(mouse, self.held, self.ms, self.replay.rows, self.replay.cols,
                       self.replay.mouse_unit)

    def risky(self, step: int) -> int | None:
        """The position (moves shown) just after the next risky move (``step`` 1)
        or the previous one (``step`` -1) from the current move; None if none."""
        if not self.verdicts:
            return None
        from ..coach import is_risky

        marks = [v.index + 1 for v in self.verdicts if is_risky(v)]
        if step > 0:
            return next((k for k in marks if k > self.k), None)
        return next((k for k in reversed(marks) if k < self.k), None)

    def fatal(self) -> int | None:
        """The position just after the move that lost, or None."""
        from ..coach import fatal

        lost = fatal(self.verdicts or [])
        return None if lost is None else lost.index + 1

    def longest(self) -> str:
        """The longest of the coach's sentences on this game ("" without
        verdicts): the player keeps room for it, so the board stays put."""
        if self._longest is None:
            from ..coach import describe

            self._longest = max((describe(v) for v in self.verdicts or ()), key=len, default="")
        return self._longest

    def current(self) -> str:
        """The coach's sentence on the move just shown ("" at the start or without verdicts)."""
        if not self.verdicts or self.k == 0:
            return ""
        from ..coach import describe

        return describe(self.verdicts[self.k - 1])


def play_curses(replay: Replay, *, speed: float = 1.0,
                coached: tuple[list[Any] | None, str] | None = None) -> int:
    """Play ``replay`` full screen until the user quits; returns 0.

    ``coached``: the coach's verdicts and summary
    (:func:`fastmine.replay.verdicts.verdicts_of`), or None to play without them.
    """
    return int(curses.wrapper(_main, replay, speed, coached))


def _main(win: curses.window, replay: Replay, speed: float,
          coached: tuple[list[Any] | None, str] | None) -> int:
    with contextlib.suppress(curses.error):
        curses.curs_set(0)    # some terminals cannot hide the cursor
    palette = Palette(curses.has_colors())
    verdicts, note = coached if coached is not None else (None, "")
    cur = Cursor(replay, verdicts)
    summary = f"coach: {note}" if coached is not None else ""
    times = replay.moves[:, 3].tolist()
    paused = speed == 0
    speed = speed or 1.0
    n = len(replay)
    path = replay.mouse is not None
    while True:
        _draw(win, cur, palette, replay_header(replay), paused, speed, summary)
        due_ms = times[cur.k] if cur.k < n else cur.end_ms
        running = not paused and (cur.k < n or cur.ms < due_ms)
        if running:
            wait = max(0.0, (due_ms - cur.ms) / 1000.0 / speed)
            if path:            # the pointer moves between the moves
                wait = min(wait, 0.04)
            win.timeout(int(wait * 1000))
        else:
            win.timeout(-1)
        before = time.monotonic()
        key = win.getch()
        if running:         # the game's clock runs on while a key is read too
            cur.ms = min(due_ms, cur.ms + (time.monotonic() - before) * 1000.0 * speed)
        if key == -1:
            if cur.k < n and (cur.ms >= due_ms or not path):      # the next move is due
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
        elif key in (ord("n"), ord("N"), ord("f")):
            to = cur.fatal() if key == ord("f") else cur.risky(1 if key == ord("n") else -1)
            if to is not None:
                paused = True
                cur.goto(to)


def button_mark(held: int) -> str:
    """The mark for the buttons down: L, R, B (left and right: a chord), M."""
    if held & LEFT and held & RIGHT:
        return "B"
    return "L" if held & LEFT else "R" if held & RIGHT else "M" if held & MIDDLE else ""


def pointer_words(cur: Cursor) -> str:
    """The status line's words on the mouse: ``"  mouse row 3, col 4 (L)"`` ("" without a path)."""
    at = cur.pointer()
    if at is None:
        return ""
    r, c, held = at
    where = "off the board" if r < 0 else f"row {r + 1}, col {c + 1}"
    return f"  mouse {where}" + (f" ({button_mark(held)})" if held else "")


def _fold(text: str, width: int) -> list[str]:
    """``text`` folded at word ends into lines of at most ``width`` (one line, maybe empty, at least)."""
    return textwrap.wrap(text, width) or [""]


def bar(cur: Cursor, width: int) -> str:
    """The timeline: ``=`` up to the current move, ``!`` at risky moves and
    ``X`` at the one that lost (by where they fall in the move list).

    A later mark in the same column wins, and the loss always shows.
    """
    n = len(cur.replay)
    filled = width * cur.k // n if n else width
    cells = ["="] * filled + [" "] * (width - filled)
    if cur.verdicts and n:
        from ..coach import is_risky

        for v in cur.verdicts:
            if is_risky(v):
                cells[min(width - 1, width * v.index // n)] = "!" if v.survived else "X"
    return "[" + "".join(cells) + "]"


def _draw(win: curses.window, cur: Cursor, palette: Palette, title: str, paused: bool,
          speed: float, summary: str = "") -> None:
    win.erase()
    put(win, 0, 0, title, palette.header)
    n = len(cur.replay)
    status = "paused" if paused else f"playing x{speed:g}"
    last = cur.replay.describe_move(cur.k - 1) if cur.k else "start"
    put(win, 1, 0, f"move {cur.k}/{n}  {last}  [{status}]{pointer_words(cur)}")
    h, w = win.getmaxyx()
    # The coach's sentences fold at word ends rather than being cut at the
    # edge; the board starts below the room the longest sentence needs.
    room = max(w - 1, 10)
    rows = min(len(_fold(cur.longest(), room)), 3)
    for i, line in enumerate(_fold(cur.current(), room)[:rows]):
        put(win, 2 + i, 0, line)
    top = 2 + rows
    view = cur.game.view
    for r in range(view.shape[0]):
        for c in range(view.shape[1]):
            v = int(view[r, c])
            put(win, top + r, 2 * c, GLYPHS[v], palette.attr[v])
    at = cur.pointer()
    if at is not None and at[0] >= 0:
        r, c, held = at
        v = int(view[r, c])
        put(win, top + r, 2 * c, GLYPHS[v], palette.attr[v] | curses.A_REVERSE)
        if held:
            put(win, top + r, 2 * c + 1, button_mark(held), curses.A_BOLD)
    notes = _fold(summary, room) if summary else []
    # a blank row between the board and the bar, unless the screen is too low
    # for it, the summary and the keys line (an Expert board on 24 rows)
    gap = 1 if top + view.shape[0] + 2 + len(notes) + 1 <= h else 0
    y = top + gap + view.shape[0]
    put(win, y, 0, bar(cur, max(10, min(w - 2, 60))))
    for line in notes:
        y += 1
        put(win, y, 0, line)
    put(win, y + 1, 0, KEYS_LINE + (COACH_KEYS if cur.verdicts else ""))
    win.refresh()
