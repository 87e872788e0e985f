"""The replay player's board: the app's board, read-only, that follows the moves.

On a touch screen a replay opens like a game would (see :mod:`.viewport`): at
the player's cell size around the move shown ("Why did I lose?": the fatal
cell), or whole when its cells are big enough to read.  Then each move's cell
is kept in view by panning, never zooming; a view the player moved by hand is
left alone until the player screen says otherwise (play, a step, a jump).  A
desktop window shows the whole board.  Its zoom is its own: the views the
game's board keeps per board size (``board_views.json``) are never touched.

A replay imported from a video keeps the player's mouse path: :meth:`ReplayBoard.show_mouse`
draws the pointer where it was at a game time (a dot, ringed while a button
is down), and the player screen moves it at the recorded pace.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, PopMatrix
from kivy.metrics import dp
from kivy.properties import NumericProperty

from ..board import viewport
from ..board.boardview import BoardView, app_setting

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from fastmine.replay import Replay

    from ..kivytypes import ClockEvent

READ_SLACK = 28 / 56
"""On a touch screen a replay opens whole when its cells are at least this
fraction of the cell size setting (28 dp of the default 56: a number still
reads at a glance), not the 48 dp a game needs: nothing is tapped, only
watched, so Beginner shows whole on a phone (29 dp on a 360-dp phone with
large text, under the coach's words and the controls) while Intermediate
(25 dp at most) and Expert (12 to 19 dp) open zoomed."""
FOLLOW_MARGIN = 1.0
"""Cells around the move's cell that :meth:`ReplayBoard.follow` keeps in view
(its neighbours: what the move was judged on)."""
FOLLOW_GLIDE = 0.25
"""Seconds the view takes to glide to the next move's cell."""


class ReplayBoard(BoardView):
    """The board of a replay: drawn like the game's, never played.

    No cell event is bound and a finger shows no press and no long-press ring,
    so a tap changes nothing; pinch and pan still work, and a double tap
    anywhere toggles the whole board and the cell size, like the fit button.
    Its zoom is its own: it never writes over the views the game's board
    keeps per board size.  The :attr:`cursor` outlines the cell of the move
    being shown.

    On a touch screen it opens like a game would (see :mod:`.viewport`): at
    the player's cell size around the move shown, or whole when its cells are
    at least :data:`READ_SLACK` of that size.  Then :meth:`follow` keeps each
    move's cell in view, panning, never zooming, unless the player moved the
    view by hand (:attr:`hands_off`)."""

    text_room = NumericProperty(0.0)
    """Pixels of height the words under the board take beyond their fixed share
    (set by the player's screen): given back when judging the opening view."""

    def __init__(self, **kwargs: Any) -> None:
        self.hands_off = False
        """The player panned or zoomed by hand: :meth:`follow` leaves the view
        alone until the screen clears this (play, a step, a jump)."""
        self._glide: list[float] | None = None  # from x, from y, to x, to y, seconds gone
        self._glide_event: ClockEvent | None = None
        self._last_was_pan = False  # the last finger up had panned or pinched
        self._mouse_for: object = None   # the replay whose buttons_held is cached
        self._held: NDArray[np.uint8] | None = None  # the buttons down after each event
        self.mouse_at: tuple[float, float, int] | None = None
        """Where the pointer is drawn: (row, col) in cells (fractions) and the
        buttons held, or None (no path, off the board, before the first event)."""
        super().__init__(**kwargs)
        self._pointer = InstructionGroup()   # drawn in cells, under the board's matrix
        pop = [i for i in self.canvas.children if isinstance(i, PopMatrix)]
        self.canvas.insert(self.canvas.indexof(pop[0]), self._pointer)

    def show_mouse(self, replay: Replay | None, ms: float | None) -> None:
        """Draw the pointer of ``replay``'s mouse path at game time ``ms``
        (milliseconds); nothing without a path, or when ``ms`` is None."""
        from fastmine.replay.mousepath import UNIT, buttons_held, cursor_index

        mouse = getattr(replay, "mouse", None)
        self._pointer.clear()
        self.mouse_at = None
        if mouse is None or ms is None or not len(mouse):
            return
        held_after = self._held
        if self._mouse_for is not replay or held_after is None:
            held_after = buttons_held(mouse)
            self._mouse_for, self._held = replay, held_after
        i = cursor_index(mouse, ms)
        if i < 0:
            return
        unit = getattr(replay, "mouse_unit", UNIT)     # the path's units a cell
        fr, fc = float(mouse[i, 2]) / unit, float(mouse[i, 1]) / unit
        if not (0 <= fr < self.rows and 0 <= fc < self.cols):
            return
        held = int(held_after[i])
        self.mouse_at = (fr, fc, held)
        dr, dc = (fc, fr) if self.transposed else (fr, fc)
        x, y = dc, self.drows - dr
        size = 0.3
        self._pointer.add(Color(0.95, 0.3, 0.1, 1) if held else Color(0.1, 0.1, 0.1, 0.85))
        self._pointer.add(Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size)))
        if held:    # a press: a ring around the dot
            self._pointer.add(Line(circle=(x, y, 0.4), width=max(0.04, dp(2) / max(self.scale, 1))))

    def _attach_to_app(self) -> None:
        pass

    def _want_transposed(self, rows: int, cols: int) -> bool:
        # Drawn the way the game draws it in this orientation, so the player
        # knows the board again: the game's area is as tall as the window,
        # while the player's, above its controls, can be wider than tall (an
        # Expert board upright would then lie on its side).
        from kivy.core.window import Window

        return self.touch_first and viewport.transposed(rows, cols, Window.width, Window.height)

    def open_view(self) -> None:
        """Fit on a desktop; on a touch screen the whole board if its cells
        are readable, else the cell size around the move shown.  Whether they
        are is judged without :attr:`text_room`: the length of the words under
        the board (a language's, a move's) never decides it."""
        self._stop_glide()
        if not self.touch_first or not self.rows:
            self.fit()
            return
        focus = None if self._focus is None else self._drawn_center(*self._focus)
        whole_px = self.cell_px() * READ_SLACK
        judged = viewport.opening_view(self.drows, self.dcols, self.width, self.height + self.text_room,
                                       self.cell_px(), focus, whole_px=whole_px)
        if judged.fitted:
            self.fit()
            return
        v = viewport.opening_view(self.drows, self.dcols, self.width, self.height, self.cell_px(),
                                  focus, whole_px=whole_px)
        if v.fitted and v.scale >= self.fit_scale() - 1e-9:
            self.fit()
        else:
            self.set_view(v.scale, v.center)

    def on_text_room(self, *_args: object) -> None:
        if self.rows and not self._settled:  # not yet moved by hand: open again, judged anew
            self.open_view()

    def follow(self, cell: tuple[int, int], animate: bool = True) -> None:
        """Make game cell ``cell`` the one the view is about: a view not yet
        moved by hand reopens around it (the window turned, say), and unless
        :attr:`hands_off`, a zoomed view that does not show it and its
        neighbours (:data:`FOLLOW_MARGIN`) centres on it, gliding there
        (at once with ``animate`` False or the Animations setting off)."""
        self._focus = cell
        if self.hands_off or not self.rows or self.is_fitted():
            return
        s = self.scale
        cx, cy = self._drawn_center(*cell)
        x, y = self._ox + cx * s, self._oy + cy * s
        mx = min((0.5 + FOLLOW_MARGIN) * s, self.width / 2)
        my = min((0.5 + FOLLOW_MARGIN) * s, self.height / 2)
        if mx <= x <= self.width - mx and my <= y <= self.height - my:
            return
        tx, ty = self.clamped_offset(self.width / 2 - cx * s, self.height / 2 - cy * s)
        self._stop_glide()
        if animate and app_setting("animations"):
            self._glide = [self._ox, self._oy, tx, ty, 0.0]
            self._glide_event = Clock.schedule_interval(self._glide_step, 0)
        else:
            self._ox, self._oy = tx, ty
            self._apply()

    def _glide_step(self, dt: float) -> None:
        g = self._glide
        if g is None:
            return
        g[4] += dt
        t = min(1.0, g[4] / FOLLOW_GLIDE)
        e = 1 - (1 - t) ** 3  # ease out: quick to leave, gentle to land
        self._ox = g[0] + (g[2] - g[0]) * e
        self._oy = g[1] + (g[3] - g[1]) * e
        self._apply()
        if t >= 1.0:
            self._stop_glide()

    def _stop_glide(self) -> None:
        if self._glide_event is not None:
            self._glide_event.cancel()
            self._glide_event = None
        self._glide = None

    def _settle(self) -> None:
        # a pan, a pinch, the wheel, the fit button or a double tap: the
        # player's view, kept (on this board only) until play or a step
        self._stop_glide()
        self.hands_off = True
        super()._settle()

    def _on_geometry(self, *args: object) -> None:
        self._stop_glide()  # its target was worked out for the old size
        super()._on_geometry(*args)

    def on_touch_down(self, touch: Any) -> bool:
        if (getattr(touch, "is_double_tap", False) and self.collide_point(*touch.pos)
                and not self.hidden and not self.gestures._touches
                and getattr(touch, "button", None) in (None, "left")
                and not self.fit_button.collide_point(*touch.pos)
                and not self._last_was_pan):
            # a tap on a cell does nothing here, so the whole board takes the
            # double tap the game's board takes only beside its cells (not a
            # finger put back where a quick pan started: Kivy counts that too)
            self.toggle_fit()
            return True
        return super().on_touch_down(touch)

    def on_touch_up(self, touch: Any) -> bool:
        press = touch.ud.get("board") if touch.grab_current is self else None
        if press is not None:
            self._last_was_pan = bool(press.moved or press.consumed)
        return super().on_touch_up(touch)

    def show_press(self, cell: tuple[int, int]) -> None:
        pass

    def arming_started(self, pos: tuple[float, float]) -> None:
        pass

    def on_cursor(self, inst: object, cell: tuple[int, int] | None) -> None:
        super().on_cursor(inst, cell)
        if self._ready:  # bolder than the keyboard cursor: it is the point of the screen
            self._cursor_line.width = max(0.05, dp(3) / max(self.scale, 1))
