"""Touch and mouse gestures on the board: tap, long press, pan, pinch, wheel.

The rules, as the best touch Minesweepers play (docs/app.md has the player's side):

- A move acts on *release*, never on press, so a press that turns into a pan
  or a pinch does nothing to the board.
- A finger that moves more than :attr:`BoardGestures.slop` (``dp(10)``; the
  Touch tolerance setting makes it 5, 10 or 20 dp) from where it went down is
  a pan: its long press is cancelled and its release does nothing.
- A long press fires while the finger is still down (``Clock.schedule_once``
  on touch down, cancelled on move or release); that touch's release is
  then ignored.  While the finger is held a ring fills around it (the board's
  ``arming_started``), and the board vibrates briefly when it fires.
- A finger down on a number shows the hidden cells a chord would open.
- With a double-tap control scheme (the board's ``double_tap_delay`` above
  0) a tap on a cell waits that long: a second tap on the same cell makes it
  a double tap (``on_cell_double_tap``); anything else (the wait running out,
  a touch elsewhere, the second touch turning into a pan or a hold) plays the
  first as a single tap, before whatever comes next.  What each gesture plays
  is the controller's business (:mod:`.controls`).
- A double tap beside the board (not on a cell) toggles "fit whole board".
- A second finger turns both into a pinch (zoom about their midpoint, pan
  with it); neither finger taps, even after the other one lifts.
- Mouse: left button clicks (``on_cell_click``; no long press, whatever the
  control scheme), right button is ``secondary``, middle button or a double
  click on a number chords, the wheel pans and ctrl + wheel zooms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from kivy.clock import Clock
from kivy.metrics import dp

if TYPE_CHECKING:
    from ..kivytypes import ClockEvent
    from .boardview import BoardView

WHEEL_ZOOM = 1.15
_WHEEL = {"scrollup", "scrolldown", "scrollleft", "scrollright"}


def _default_modifiers() -> list[str]:
    from kivy.core.window import Window
    return list(Window.modifiers)


class _Press:
    """What one touch on the board has done so far."""

    __slots__ = ("start", "cell", "button", "moved", "consumed", "double", "event", "is_mouse",
                 "first")

    def __init__(self, start: tuple[float, float], cell: tuple[int, int] | None, button: str,
                 double: bool, is_mouse: bool) -> None:
        self.start = start
        self.cell = cell
        self.button = button
        self.moved = False
        self.consumed = False  # a long press fired or it joined a pinch
        self.double = double  # Kivy's double-tap flag (a mouse's double click)
        self.event: ClockEvent | None = None  # the long press to come
        self.is_mouse = is_mouse
        self.first: tuple[int, int] | None = None  # the waiting tap this one may double


class _Waiting:
    """A single tap waiting for the double-tap delay."""

    __slots__ = ("cell", "event")

    def __init__(self, cell: tuple[int, int], event: ClockEvent) -> None:
        self.cell = cell
        self.event = event


class _Pinch(TypedDict):
    """Two fingers zooming: where they started and what the board was then."""

    touches: tuple[Any, Any]  # Kivy's touches (MotionEvent)
    dist: float  # their distance apart, window pixels
    scale: float  # the board's scale
    anchor: tuple[float, float]  # the board point under their midpoint


class BoardGestures:
    """Turns touches on a :class:`.boardview.BoardView` into its cell events."""

    def __init__(self, board: BoardView,
                 modifiers: Callable[[], list[str]] = _default_modifiers) -> None:
        self.board = board
        self.modifiers = modifiers
        self.slop = dp(10)
        """How far a finger may move (window pixels) before it pans (the app sets it
        from the Touch tolerance setting)."""
        self._touches: list[Any] = []  # Kivy's touches (MotionEvent) down on the board
        self._pinch: _Pinch | None = None
        self._waiting: _Waiting | None = None

    # ------------------------------------------------------------ down

    def on_touch_down(self, touch: Any) -> bool:
        board = self.board
        if not board.collide_point(*touch.pos) or board.disabled:
            return False
        button = getattr(touch, "button", None)
        if button in _WHEEL:
            self._wheel(touch, button)
            return True
        if board.hidden:
            return False  # the pause overlay handles it
        cell = board.cell_at(*touch.pos)
        is_mouse = touch.device == "mouse"
        first = None
        if self._waiting is not None:
            if (not is_mouse and cell == self._waiting.cell and not self._touches
                    and button in (None, "left")):
                first = self._waiting.cell  # perhaps the second tap: its release decides
                self._waiting.event.cancel()
                self._waiting = None
            else:
                self.play_waiting()  # not a double tap: the first tap plays now
        if cell is None and getattr(touch, "is_double_tap", False) and not self._touches:
            board.toggle_fit()
            return True
        touch.grab(board)
        press = _Press(touch.pos, cell, button or "left", bool(getattr(touch, "is_double_tap", False)),
                       is_mouse)
        press.first = first
        touch.ud["board"] = press
        self._touches.append(touch)
        if len(self._touches) >= 2:
            self._start_pinch()
            return True
        if cell is not None and press.button == "left":
            board.show_press(cell)
            if not is_mouse:
                press.event = Clock.schedule_once(lambda _dt: self._long_press(touch),
                                                  board.long_press_delay)
                board.arming_started(touch.pos)
        return True

    def _long_press(self, touch: Any) -> None:
        press = touch.ud.get("board")
        if press is None or press.moved or press.consumed or touch not in self._touches:
            return
        press.consumed = True
        press.event = None
        self.board.clear_press()
        self.board.arming_stopped(fired=True)
        self._play_first(press)
        if press.cell is not None:
            self.board.dispatch("on_cell_long_press", *press.cell)

    # ------------------------------------------------------------ move

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is not self.board:
            return False
        press = touch.ud.get("board")
        if press is None:
            return True
        if self._pinch is not None and touch in self._pinch["touches"]:
            self._move_pinch(self._pinch)
            return True
        if not press.moved:
            dist = math.hypot(touch.x - press.start[0], touch.y - press.start[1])
            if dist <= self.slop:
                return True
            press.moved = True
            self._cancel(press)
            self.board.clear_press()
            self._play_first(press)  # a pan, not a second tap
            # catch up with the slop the finger moved before it became a pan
            if not press.consumed:
                self.board.pan_by(touch.x - press.start[0], touch.y - press.start[1])
            return True
        if not press.consumed:
            self.board.pan_by(touch.dx, touch.dy)
        return True

    # ------------------------------------------------------------ up

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self.board:
            return False
        touch.ungrab(self.board)
        press = touch.ud.pop("board", None)
        if touch in self._touches:
            self._touches.remove(touch)
        if self._pinch is not None and touch in self._pinch["touches"]:
            self._pinch = None
            if len(self._touches) >= 2:
                self._start_pinch()
        if press is None:
            return True
        self._cancel(press)
        self.board.clear_press()
        if press.moved or press.consumed or press.cell is None:
            return True
        r, c = press.cell
        board = self.board
        if press.button == "right":
            board.dispatch("on_cell_secondary", r, c)
        elif press.button == "middle":
            board.dispatch("on_cell_chord", r, c)
        elif press.button == "left" and press.is_mouse:
            if press.double and 1 <= board.tiles[r, c] <= 8:
                board.dispatch("on_cell_chord", r, c)
            else:
                board.dispatch("on_cell_click", r, c)
        elif press.button == "left":
            if press.first is not None:
                press.first = None
                board.dispatch("on_cell_double_tap", r, c)
            elif board.double_tap_delay > 0:
                self._waiting = _Waiting((r, c), Clock.schedule_once(
                    lambda _dt: self.play_waiting(), board.double_tap_delay))
            else:
                board.dispatch("on_cell_tap", r, c)
        return True

    # ------------------------------------------------------------ helpers

    def _cancel(self, press: _Press) -> None:
        if press.event is not None:
            press.event.cancel()
            press.event = None
            self.board.arming_stopped(fired=False)

    def play_waiting(self) -> None:
        """Play the tap waiting for a second one as a single tap (now)."""
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting.event.cancel()
            self.board.dispatch("on_cell_tap", *waiting.cell)

    def _play_first(self, press: _Press) -> None:
        # the touch that could have been a second tap was not one
        if press.first is not None:
            cell, press.first = press.first, None
            self.board.dispatch("on_cell_tap", *cell)

    def cancel_all(self) -> None:
        """Forget every touch in progress and a tap waiting for a second one
        (a new game or a pause)."""
        if self._waiting is not None:
            self._waiting.event.cancel()
            self._waiting = None
        for touch in self._touches:
            press = touch.ud.get("board")
            if press is not None:
                self._cancel(press)
                press.consumed = True
                press.first = None
        self.board.clear_press()

    def _start_pinch(self) -> None:
        t1, t2 = self._touches[-2], self._touches[-1]
        for t in self._touches:
            press = t.ud.get("board")
            if press is not None:
                self._play_first(press)  # a pinch, not a second tap
                press.consumed = True
                self._cancel(press)
        self.board.clear_press()
        mx, my = (t1.x + t2.x) / 2, (t1.y + t2.y) / 2
        self._pinch = {
            "touches": (t1, t2),
            "dist": max(1.0, math.hypot(t1.x - t2.x, t1.y - t2.y)),
            "scale": self.board.scale,
            "anchor": self.board.to_board(mx, my),
        }

    def _move_pinch(self, p: _Pinch) -> None:
        t1, t2 = p["touches"]
        dist = max(1.0, math.hypot(t1.x - t2.x, t1.y - t2.y))
        mx, my = (t1.x + t2.x) / 2, (t1.y + t2.y) / 2
        self.board.set_scale_at(p["scale"] * dist / p["dist"], mx, my, *p["anchor"])

    def _wheel(self, touch: Any, button: str) -> None:
        board = self.board
        mods = self.modifiers()
        if "ctrl" in mods or "meta" in mods:
            # Kivy names wheel directions after the content: wheel up = "scrolldown"
            factor = WHEEL_ZOOM if button in ("scrolldown", "scrollleft") else 1 / WHEEL_ZOOM
            board.zoom_at(factor, *touch.pos)
            return
        step = dp(48)
        dx = dy = 0.0
        if button == "scrolldown":
            dy = -step
        elif button == "scrollup":
            dy = step
        elif button == "scrollleft":
            dx = step
        else:
            dx = -step
        if "shift" in mods:
            dx, dy = dy, dx
        board.pan_by(dx, dy)
