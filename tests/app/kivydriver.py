"""Drive the real fastmine app from tests: frames, touches, mouse, keys, screenshots.

Touches go through ``EventLoop._dispatch_input`` and ``dispatch_input`` so
Kivy's post-processing runs (double tap detection) exactly as for a real
device.  Time is a :class:`FakeClock` patched into the Kivy clock, into the
touch timestamps and into the double-tap detector, and given to the app as
its game clock, so a long press or a timer is deterministic: time moves
only in :meth:`Driver.frames`.
"""

from __future__ import annotations

import os

import numpy as np
from kivy.tests.common import UnitTestTouch

FRAME = 1 / 60


class FakeClock:
    """Seconds that pass only when told to."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, dt: float) -> None:
        self.now += dt

    @classmethod
    def install(cls) -> FakeClock:
        """Patch Kivy's clock, touch times and double-tap detection to one fake clock."""
        import kivy.input.motionevent as me
        import kivy.input.postproc.doubletap as dt
        from kivy.clock import Clock

        clock = cls(Clock.time())
        Clock.time = clock
        me.time = clock
        dt.time = clock
        return clock


def drawn_small(texture, side: int) -> np.ndarray:
    """``texture`` drawn, stretched or shrunk, into a ``side`` x ``side`` framebuffer
    cleared to transparent black: its (side, side, 4) RGBA pixels, bottom row first
    (OpenGL's order), blended over that black (colour times alpha).

    Drawn smaller than the texture, OpenGL samples its mipmap levels, so this
    shows what a level holds.
    """
    from kivy.graphics import ClearBuffers, ClearColor, Color, Fbo, Rectangle

    fbo = Fbo(size=(side, side))
    with fbo:
        ClearColor(0, 0, 0, 0)
        ClearBuffers()
        Color(1, 1, 1, 1)
        Rectangle(texture=texture, pos=(0, 0), size=(side, side))
    fbo.draw()
    return np.frombuffer(fbo.pixels, np.uint8).reshape(side, side, 4)


class Touch(UnitTestTouch):
    """A test touch; ``button`` and ``device="mouse"`` make it a mouse click."""

    def __init__(self, x, y, button=None, device=None):
        super().__init__(x, y)
        if button is not None:
            self.button = button
            self.profile.append("button")
        if device is not None:
            self.device = device


class Driver:
    """One running app and the means to play it."""

    def __init__(self, app, window, clock) -> None:
        self.app = app
        self.window = window
        self.clock = clock

    @classmethod
    def start(cls, window, clock, data_dir: str, size=(480, 800), config=None) -> Driver:
        from kivy.base import EventLoop

        from fastmine.app.application import FastmineApp

        if tuple(window.size) != tuple(size):
            window.size = size
            EventLoop.idle()
        config = dict(config or {})
        # the first-run tutorial would cover every test's board: only its own tests ask for it
        offer_tutorial = bool(config.pop("offer_tutorial", False))
        if config:
            # settings as a previous run left them in the app's config file
            path = os.path.join(data_dir, "fastmine.ini")
            with open(path, "w") as f:
                f.write("[game]\n" + "".join(f"{k} = {v}\n" for k, v in config.items()))
        app = FastmineApp(data_dir=data_dir, clock=clock)
        app.offer_tutorial = offer_tutorial
        app._run_prepare()
        drv = cls(app, window, clock)
        drv.frames(3)
        return drv

    def stop(self) -> None:
        """Stop the app like Kivy does at exit, but keep the window for the next one."""
        from kivy.app import App
        from kivy.uix.modalview import ModalView

        app = self.app
        if app is None:
            return
        self.app = None
        app.dispatch("on_stop")
        for w in list(self.window.children):
            if isinstance(w, ModalView):
                w.dismiss(animation=False)
            self.window.remove_widget(w)
        if app._app_settings is not None and app._app_settings.parent:
            app._app_settings.parent.remove_widget(app._app_settings)
        self.frames(2)  # let pending kv updates run while ``app`` still resolves
        App._running_app = None
        # kv's ``app`` caches the app it first resolved and forgets it on that
        # app's on_stop; resolved again by the frames above, it would keep this
        # (stopped) app, and the next app's kv rules would read its root and
        # sizes (a solver sheet sized for the last test's window)
        from kivy.lang.parser import global_idmap

        object.__setattr__(global_idmap["app"], "_obj", None)

    # ------------------------------------------------------------ time

    def frames(self, n: int = 1, dt: float = FRAME) -> None:
        """Let ``n`` frames of ``dt`` seconds pass, drawing each."""
        from kivy.base import EventLoop

        for _ in range(n):
            self.clock.advance(dt)
            EventLoop.idle()

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass in frames of 0.05 s."""
        self.frames(max(1, int(round(seconds / 0.05))), 0.05)

    # ------------------------------------------------------------ shortcuts

    @property
    def ctrl(self):
        return self.app.ctrl

    @property
    def board(self):
        return self.app.game_screen.board

    @property
    def game(self):
        return self.app.ctrl.game

    def ids(self, name: str):
        return self.app.game_screen.ids[name]

    def attach_board(self, mask, question_marks: bool = True):
        """Play a board with these mines (a 2-D bool array-like), no first-click help."""
        from fastmine import Board, Game

        game = Game.from_board(Board.from_mines(np.asarray(mask, bool)), clock=self.clock,
                               question_marks=question_marks)
        self.ctrl.attach(game)
        self.frames(2)
        return game

    # ------------------------------------------------------------ input

    def _send(self, etype: str, touch) -> None:
        from kivy.base import EventLoop

        EventLoop._dispatch_input(etype, touch)
        EventLoop.dispatch_input()

    def cell_pos(self, r: int, c: int) -> tuple[float, float]:
        """Window coordinates of the centre of cell (r, c)."""
        b = self.board
        return b.to_window(*b.cell_center(r, c))

    def widget_pos(self, widget) -> tuple[float, float]:
        """Window coordinates of the centre of a widget."""
        return widget.to_window(*widget.center)

    def down(self, x, y, button=None, device=None) -> Touch:
        t = Touch(x, y, button=button, device=device)
        self._send("begin", t)
        return t

    def move(self, t: Touch, x, y) -> None:
        win = self.window
        t.move({"x": x / (win.width - 1.0), "y": y / (win.height - 1.0)})
        self._send("update", t)

    def up(self, t: Touch) -> None:
        self._send("end", t)

    def tap(self, x, y, hold: float = 0.08, button=None, device=None) -> None:
        """Press, hold ``hold`` seconds, release, then let the UI settle."""
        t = self.down(x, y, button=button, device=device)
        self.wait(hold)
        self.up(t)
        self.frames(3)

    def tap_cell(self, r: int, c: int, **kw) -> None:
        self.tap(*self.cell_pos(r, c), **kw)

    def long_press_cell(self, r: int, c: int, hold: float = 0.6) -> None:
        self.tap(*self.cell_pos(r, c), hold=hold)

    def press(self, widget) -> None:
        """Tap a widget (a button) in the middle."""
        self.tap(*self.widget_pos(widget))

    def drag(self, x0, y0, x1, y1, steps: int = 8) -> None:
        t = self.down(x0, y0)
        for i in range(1, steps + 1):
            self.frames(1)
            self.move(t, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.frames(1)
        self.up(t)
        self.frames(2)

    def key(self, key: int, text: str | None = None) -> None:
        self.window.dispatch("on_key_down", key, 0, text, [])
        self.window.dispatch("on_key_up", key, 0)
        self.frames(2)

    # ------------------------------------------------------------ screen

    def pixels(self) -> np.ndarray:
        """The window's current image, (h, w, 3) uint8, bottom row first."""
        from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

        w, h = self.window.size
        data = glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE)
        return np.frombuffer(data, np.uint8).reshape(h, w, 3)

    def screenshot(self, folder, name: str) -> tuple[str, np.ndarray]:
        """Draw a fresh frame, save it as ``folder/name.png``; returns (path, pixels)."""
        self.window.canvas.ask_update()
        self.frames(2)
        px = self.pixels()
        tmp = self.window.screenshot(name=os.path.join(str(folder), f".{name}.png"))
        path = os.path.join(str(folder), f"{name}.png")
        os.replace(tmp, path)
        return path, px
