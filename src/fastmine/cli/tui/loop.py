"""The curses game loop: read a key or click, act on the session, redraw.

:func:`run_curses` is what ``fastmine play`` calls.  The loop wakes up a few
times a second (``getch`` with a timeout) so the timer ticks without input.
Dialogs (resume?, abandon?, your name?) are small modal loops on the message
line that keep redrawing on resize.
"""

from __future__ import annotations

import contextlib
import curses
import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

from .draw import Palette, draw
from .keys import MOUSE_MASK, MOVES, action_for, mouse_action
from .layout import Layout, fit
from .session import Session

TICK_MS = 200
"""How often the screen refreshes without input (the timer shows whole seconds)."""


class TerminalUI:
    """The curses front end over a :class:`Session`."""

    def __init__(self, stdscr: curses.window, session: Session, *, name: str | None = None) -> None:
        self.scr = stdscr
        self.session = session
        self.name = name
        self.cursor = (session.game.rows // 2, session.game.cols // 2)
        self.message = ""
        self.layout: Layout | None = None
        self.press: tuple[int, int] | None = None
        self.exit_notes: list[str] = []  # printed after curses ends
        self.running = True
        self._setup()

    def _setup(self) -> None:
        scr = self.scr
        with contextlib.suppress(curses.error):
            curses.curs_set(0)
        scr.keypad(True)
        scr.timeout(TICK_MS)
        curses.mousemask(MOUSE_MASK)
        curses.mouseinterval(0)  # report press and release as they come, no click synthesis
        self.palette = Palette(curses.has_colors())

    # ------------------------------------------------------------ drawing

    def redraw(self) -> None:
        """Recompute the layout for the current size and paint a frame."""
        h, w = self.scr.getmaxyx()
        g = self.session.game
        self.layout = fit(h, w, g.rows, g.cols, self.cursor, self.layout
                          if self.layout and (self.layout.rows, self.layout.cols) == g.shape
                          else None)
        draw(self.scr, self.session, self.layout, self.cursor, self.message, self.palette)

    def _getch(self) -> int:
        key: int = self.scr.getch()
        if key == curses.KEY_RESIZE:
            curses.update_lines_cols()
        return key

    # ------------------------------------------------------------ dialogs

    def ask(self, question: str, answers: str = "yn") -> str:
        """Show a question on the message line; returns the answer key (lower case).

        Escape and ``q`` answer with the last of ``answers`` (the safe choice).
        """
        saved, self.message = self.message, question
        try:
            while True:
                self.redraw()
                key = self._getch()
                if key < 0 or key == curses.KEY_RESIZE:
                    continue
                ch = chr(key).lower() if 0 < key < 256 else ""
                if ch and ch in answers:
                    return ch
                if key == 27 or ch == "q":
                    return answers[-1]
        finally:
            self.message = saved

    def ask_text(self, prompt: str, default: str = "", limit: int = 40) -> str | None:
        """A one-line text field on the message line; Enter accepts, Escape cancels."""
        text = default
        with contextlib.suppress(curses.error):
            curses.curs_set(1)
        try:
            while True:
                self.message = f"{prompt}{text}"
                self.redraw()
                if self.layout and not self.layout.too_small:
                    x = min(1 + len(self.message), self.layout.width - 1)
                    with contextlib.suppress(curses.error):
                        self.scr.move(self.layout.message_y, x)
                try:
                    ch = self.scr.get_wch()
                except curses.error:
                    continue  # the tick timeout
                if ch == curses.KEY_RESIZE:
                    curses.update_lines_cols()
                elif ch in ("\n", "\r", curses.KEY_ENTER):
                    return text
                elif ch == "\x1b":
                    return None
                elif ch in (curses.KEY_BACKSPACE, "\x7f", "\b"):
                    text = text[:-1]
                elif ch == "\x15":  # ctrl-u clears
                    text = ""
                elif isinstance(ch, str) and ch.isprintable() and len(text) < limit:
                    text += ch
        finally:
            self.message = ""
            with contextlib.suppress(curses.error):
                curses.curs_set(0)

    # ------------------------------------------------------------ start and end

    def offer_resume(self, resume: bool | None) -> None:
        """Look for a saved game and resume it (asking unless ``resume`` says)."""
        if resume is False:
            return
        game, trouble = self.session.check_save()
        if trouble:
            self.message = trouble
        if game is None:
            return
        from ...files.savedgame import describe

        if resume is None:
            answer = self.ask(f"Resume saved game ({describe(game)})? y/n (n discards it)",
                              "yn")
            if answer != "y":
                trouble = self.session.discard_save(game)
                self.message = "Saved game discarded" + (f" ({trouble})" if trouble else "")
                return
        self.message = self.session.resume(game)
        self.cursor = (game.rows // 2, game.cols // 2)

    def game_over(self, summary: str) -> None:
        """Show the win or loss, ask for a name on a best time, record the game."""
        s = self.session
        self.message = summary
        name = None
        if s.outcome is not None and s.outcome.best and s.use_records:
            default = self.name if self.name is not None else s.last_name()
            name = self.ask_text(f"New best time {s.outcome.stats.time:.2f} s! Your name: ",
                                 default)
        note = s.finish_record(name)
        self.message = f"{summary}  n: new game, q: quit"
        if note:
            self.message = f"{note}. {self.message}"

    def quit(self) -> None:
        """Save a game in progress and stop the loop."""
        note = self.session.save_on_quit()
        if note:
            self.exit_notes.append(note)
        self.running = False

    # ------------------------------------------------------------ actions

    def act(self, action: str) -> None:
        """Carry out one action name from :mod:`.keys`."""
        s = self.session
        g = s.game
        if action in MOVES:
            dr, dc = MOVES[action]
            self.cursor = (min(max(self.cursor[0] + dr, 0), g.rows - 1),
                           min(max(self.cursor[1] + dc, 0), g.cols - 1))
            return
        if action == "home":
            self.cursor = (0, 0)
        elif action == "end":
            self.cursor = (g.rows - 1, g.cols - 1)
        elif action == "quit":
            self.quit()
        elif action == "pause":
            self.message = s.toggle_pause() or ""
        elif action == "code":
            self.message = s.code()
        elif action == "coach":
            self.message = s.toggle_coach()
        elif action == "new":
            if g.state.name == "PLAYING" and self.ask(
                    "Abandon this game and start a new one? (y/n)") != "y":
                return
            self.message = s.new_game()
            self.cursor = (s.game.rows // 2, s.game.cols // 2)
            self.layout = None
        elif action == "hint":
            cell, self.message = s.hint()
            if cell is not None:
                self.cursor = cell
        elif action.startswith("assist:"):
            strategy = action.split(":", 1)[1]
            self._result(lambda: s.assist(strategy))
        elif action in ("reveal", "mark", "chord"):
            self.move(action, *self.cursor)
        elif action == "mouse":
            self.mouse()

    def move(self, action: str, r: int, c: int) -> None:
        """A move on a cell: ``reveal`` (chords on a number), ``mark`` or ``chord``."""
        s = self.session
        fn = {"reveal": s.reveal, "mark": s.mark, "chord": s.chord}[action]
        self._result(lambda: fn(r, c))

    def _result(self, do: Callable[[], Any]) -> None:
        # Runs a move; if it ended the game, shows the outcome and records it.
        s = self.session
        before = s.outcome
        msg = do()
        if before is None and s.outcome is not None:
            self.redraw()
            self.game_over(s.outcome.summary())
        else:
            self.message = msg or ""

    def mouse(self) -> None:
        """Left button: reveal on release (press moves the cursor); right: mark; middle: chord."""
        try:
            _, x, y, _, bstate = curses.getmouse()
        except curses.error:
            return
        what = mouse_action(bstate)
        cell = self.layout.cell_at(y, x) if self.layout else None
        if what is None:
            return
        if cell is None:
            self.press = None
            return
        self.cursor = cell
        if what == "press":
            self.press = cell
            return
        if what == "reveal" and self.press not in (None, cell):
            self.press = None  # released somewhere else: a change of mind
            return
        self.press = None
        self.move(what, *cell)

    # ------------------------------------------------------------ loop

    def run(self, resume: bool | None = None) -> int:
        """The event loop; returns the exit status."""
        self.redraw()
        self.offer_resume(resume)
        while self.running:
            self.redraw()
            try:
                key = self._getch()
            except KeyboardInterrupt:
                self.quit()
                break
            if key < 0 or key == curses.KEY_RESIZE:
                continue
            action = action_for(key)
            if self.layout is not None and self.layout.too_small and action not in (
                    "quit", "resize", None):
                continue
            if action:
                self.act(action)
        return 0


def run_curses(session: Session, *, resume: bool | None = None, name: str | None = None) -> int:
    """Play in curses until the player quits; prints any note (like where the game
    was saved) after the screen is restored.  Returns the exit status."""
    ui_box: list[TerminalUI] = []

    def main(stdscr: curses.window) -> int:
        ui = TerminalUI(stdscr, session, name=name)
        ui_box.append(ui)
        try:
            return ui.run(resume)
        except KeyboardInterrupt:
            ui.quit()
            return 0

    # Closing the terminal window or a kill saves the game like q does.
    old = {sig: signal.signal(sig, _interrupt)
           for sig in (getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))}
    try:
        status = curses.wrapper(main)
    except curses.error as exc:
        print(f"fastmine play: the terminal cannot run the curses game ({exc}); "
              "try --plain")
        return 2
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    for note in session.notes + (ui_box[0].exit_notes if ui_box else []):
        with contextlib.suppress(OSError):  # the terminal may be gone after a hangup
            print(note)
    return status


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)

