"""A small chart drawn with Kivy graphics: points, a median line, axes with ticks.

The Progress screen (:mod:`.progress`) draws a board's times and 3BV/s
with it.  No plotting library: the Android build has none, and a few dozen
points, one line and two axes are quick to draw with canvas instructions.
The tick labels are label widgets (their size follows the font scale); a
tap near a point picks that game (:attr:`Chart.picked`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Point, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.widget import Widget

from fastmine.records.progress import Series

from ..widgets import TLabel

if TYPE_CHECKING:
    from fastmine.records import GameRecord

MAX_DOTS = 400
"""Up to this many points each get a round dot; more are drawn as small squares
(one instruction for all), which is much lighter to draw."""


def nice_ticks(lo: float, hi: float, most: int, whole: bool = False) -> list[float]:
    """Round tick values from ``lo`` to ``hi`` (both included): multiples of a
    step of 1, 2 or 5 times a power of ten, the finest step that gives at most
    ``most`` ticks; ``whole``: steps of at least 1 (game numbers).

    >>> nice_ticks(7.3, 24.1, 6)
    [10.0, 15.0, 20.0]
    >>> nice_ticks(7.3, 24.1, 2)
    [10.0, 20.0]
    >>> nice_ticks(1, 38, 4, whole=True)
    [10.0, 20.0, 30.0]
    >>> nice_ticks(2.5, 2.5, 5)
    [2.5]
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi < lo:
        raise ValueError(f"ticks need a finite range, low to high, got {lo!r} to {hi!r}")
    most = max(1, int(most))
    span = hi - lo
    if span == 0:
        return [float(lo)]
    step = 10.0 ** math.floor(math.log10(span / most))
    while True:
        for m in (1, 2, 5):
            s = m * step
            if whole and s < 1:
                continue
            first, last = math.ceil(lo / s - 1e-9), math.floor(hi / s + 1e-9)
            if last - first + 1 <= most:
                return [round(k * s, 10) for k in range(first, last + 1)]
        step *= 10


def tick_text(value: float, step: float) -> str:
    """A tick's label, with as many decimals as the step needs.

    >>> tick_text(10.0, 5.0), tick_text(1.5, 0.5), tick_text(0.25, 0.05)
    ('10', '1.5', '0.25')
    """
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    return f"{value:.{decimals}f}"


class Chart(Widget):  # type: ignore[misc]  # Kivy has no type information
    """One :class:`fastmine.records.progress.Series`: a dot per game, its running median
    as a line, the game number across and the value up."""

    series = ObjectProperty(None, allownone=True)
    """The :class:`~fastmine.records.progress.Series` drawn (None: an empty frame)."""
    theme = ObjectProperty(None, allownone=True)
    """The app's theme (bound in kv, so a theme switch redraws)."""
    picked = ObjectProperty(None, allownone=True)
    """The record of the point tapped last, or None; drawn ringed."""
    y_labels = ListProperty([])
    """The value axis's tick labels, bottom up (what the player reads)."""
    x_labels = ListProperty([])
    """The game axis's tick labels, left to right."""
    font_size = NumericProperty(0)
    unit = StringProperty("")

    __events__ = ("on_pick",)

    def __init__(self, **kwargs: Any) -> None:
        self._labels: list[TLabel] = []
        self._plot = (0.0, 0.0, 1.0, 1.0)  # x0, y0, x1, y1 of the plotting area
        # game number and value to widget x and y, once laid out with a series
        self._map: tuple[Callable[[float], float], Callable[[float], float]] | None = None
        super().__init__(**kwargs)
        if not self.font_size:
            self.font_size = sp(12)
        self._redraw = Clock.create_trigger(self.redraw, -1)
        self.bind(pos=self._redraw, size=self._redraw, series=self._redraw, theme=self._redraw,
                  picked=self._redraw, font_size=self._redraw)

    # ------------------------------------------------------------ geometry

    def screen_points(self) -> list[tuple[float, float]]:
        """Where each point of :attr:`series` is drawn (widget coordinates)."""
        s = self.series
        if s is None or self._map is None:
            return []
        fx, fy = self._map
        return [(fx(x), fy(v)) for x, v in zip(s.x, s.values, strict=True)]

    def median_points(self) -> list[tuple[float, float]]:
        """Where the median line's corners are drawn (widget coordinates)."""
        s = self.series
        if s is None or self._map is None:
            return []
        fx, fy = self._map
        return [(fx(x), fy(v)) for x, v in zip(s.x, s.median, strict=True)]

    @property
    def plot_box(self) -> tuple[float, float, float, float]:
        """The plotting area inside the axes (x0, y0, x1, y1), widget coordinates."""
        return self._plot

    # ------------------------------------------------------------ drawing

    def _label(self, i: int, text: str) -> TLabel:
        while len(self._labels) <= i:
            lbl = TLabel(size_hint=(None, None), font_size=self.font_size)
            self._labels.append(lbl)
            self.add_widget(lbl)
        lbl = self._labels[i]
        lbl.font_size = self.font_size
        lbl.text = text
        lbl.texture_update()
        lbl.size = lbl.texture_size
        return lbl

    def redraw(self, *_args: object) -> None:
        """Lay out the ticks and draw everything again (cheap: a few dozen instructions)."""
        app = App.get_running_app()
        if app is None:
            return  # a redraw left pending when the app stopped: its labels need the app
        theme = self.theme or app.theme
        s: Series | None = self.series
        self.canvas.before.clear()
        self._map = None
        if s is None or not len(s):
            for lbl in self._labels:
                lbl.text = ""
                lbl.size = (0, 0)
            self.y_labels, self.x_labels = [], []
            return
        lo = min(min(s.values), min(s.median))
        hi = max(max(s.values), max(s.median))
        # the values' range and a little room: a dot on the edge would sit on the axis
        room = (hi - lo) * 0.06 or max(abs(hi) * 0.1, 0.5)
        ylo, yhi = lo - room, hi + room
        if lo >= 0:  # times and speeds: no room drawn below zero (one win of 0.24 3BV/s
            ylo = max(ylo, 0.0)  # drew a band under its 0.0 tick, down to -0.26)
        line_h = self._label(0, "0").height
        most_y = max(2, int(self.height / max(line_h * 2.2, dp(36))))
        ys = nice_ticks(lo, hi, most_y)
        if len(ys) < 2:
            # one value (one win, or every win alike): round ticks around it, in
            # the room drawn; its own value would be labelled to the step's
            # decimals (14.5 s read "14", 1.52 3BV/s read "2")
            ys = nice_ticks(max(ylo, 0.0) if lo >= 0 else ylo, yhi, most_y) or ys
        y_step = ys[1] - ys[0] if len(ys) > 1 else 0.0
        y_texts = [tick_text(v, y_step) if y_step else f"{v:g}" for v in ys]
        # the value labels' column is as wide as the widest of them
        widths = [self._label(i, t).width for i, t in enumerate(y_texts)]
        gap = dp(5)
        x0: float = self.x + max(widths) + gap  # Kivy's sizes: floats
        x1: float = self.right - dp(6)
        y0: float = self.y + line_h + gap
        y1: float = self.top - line_h / 2
        xmax = max(s.x)
        pad = max(0.5, 0.03 * xmax)
        xlo, xhi = 1 - pad, xmax + pad
        most_x = max(2, int((x1 - x0) / max(dp(44), self.font_size * 3.5)))
        xs = nice_ticks(1, xmax, most_x, whole=True)
        self._plot = (x0, y0, x1, y1)

        def fx(v: float) -> float:
            return x0 + (v - xlo) / (xhi - xlo) * (x1 - x0)

        def fy(v: float) -> float:
            return y0 + (v - ylo) / (yhi - ylo) * (y1 - y0)

        self._map = (fx, fy)
        n = len(ys)
        for i, v in enumerate(ys):
            lbl = self._labels[i]
            lbl.right = x0 - gap
            lbl.center_y = fy(v)
        x_texts = [str(int(v)) for v in xs]
        for j, v in enumerate(xs):
            lbl = self._label(n + j, x_texts[j])
            lbl.center_x = min(max(fx(v), x0 + lbl.width / 2), self.right - lbl.width / 2)
            lbl.top = y0 - gap / 2
        for lbl in self._labels[n + len(xs):]:
            lbl.text = ""
            lbl.size = (0, 0)
        self.y_labels, self.x_labels = y_texts, x_texts

        dim = theme.text_dim
        with self.canvas.before:
            Color(*dim[:3], 0.25)
            for v in ys:  # light grid lines at the value ticks
                Line(points=[x0, fy(v), x1, fy(v)], width=1)
            Color(*dim)
            Line(points=[x0, y1, x0, y0, x1, y0], width=dp(1))
            for v in xs:
                Line(points=[fx(v), y0, fx(v), y0 - gap / 2], width=dp(1))
            pts = self.screen_points()
            r = dp(4.5) if len(pts) < 60 else dp(3)
            Color(*theme.accent[:3], 0.75)
            if len(pts) <= MAX_DOTS:
                for px, py in pts:
                    Ellipse(pos=(px - r, py - r), size=(2 * r, 2 * r), segments=16)
            else:
                Point(points=[c for p in pts for c in p], pointsize=r * 0.7)
            Color(*theme.hint)
            med = self.median_points()
            if len(med) > 1:
                Line(points=[c for p in med for c in p], width=dp(1.6))
            else:
                Rectangle(pos=(med[0][0] - dp(6), med[0][1] - dp(0.8)), size=(dp(12), dp(1.6)))
            if self.picked is not None and self.picked in s.records:
                px, py = pts[s.records.index(self.picked)]
                Color(*theme.text)
                Line(circle=(px, py, r + dp(4)), width=dp(1.4))

    # ------------------------------------------------------------ touch

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.series is None:
            handled: bool = super().on_touch_down(touch)
            return handled
        pts = self.screen_points()
        if not pts:
            return False
        # the nearest point within a fingertip's reach
        reach = dp(28)
        best = min(range(len(pts)), key=lambda i: (pts[i][0] - touch.x) ** 2 + (pts[i][1] - touch.y) ** 2)
        px, py = pts[best]
        if (px - touch.x) ** 2 + (py - touch.y) ** 2 > reach * reach:
            return False
        self.dispatch("on_pick", self.series.records[best])
        return True

    def on_pick(self, record: GameRecord) -> None:
        """A point was tapped: ``record`` is its game."""
