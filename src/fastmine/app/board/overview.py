"""Where you are on a zoomed board: scroll indicators along two edges and a
"fit whole board" button in the board's corner.

The indicators are two thin bars whose length is the part of the board in
view and whose position is where that part is; they show only on an axis
the board overflows.  The button toggles between the whole board and the
zoomed view (the player's cell size), showing the icon of what a tap does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.graphics import (
    Color,
    InstructionGroup,
    Rectangle,
    RoundedRectangle,
    SmoothRoundedRectangle,
)
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from . import tiles as T

if TYPE_CHECKING:
    from .boardview import BoardView

BAR = 4  # dp thickness of a scroll indicator
MARGIN = 3  # dp from the board's edge
HIDDEN_GRACE = 0.6
"""Seconds after the corner button hides during which a touch on its place
is still swallowed (longer than a double tap)."""


class ScrollIndicators:
    """Two bars drawn into ``group`` (window units)."""

    def __init__(self, group: InstructionGroup) -> None:
        self.color = Color(0.1, 0.1, 0.12, 0.0)
        self.h_bar = RoundedRectangle(pos=(0, 0), size=(0, 0), radius=[dp(BAR) / 2])
        self.v_bar = RoundedRectangle(pos=(0, 0), size=(0, 0), radius=[dp(BAR) / 2])
        for ins in (self.color, self.h_bar, self.v_bar):
            group.add(ins)
        self.visible = (False, False)

    def update(self, board: BoardView) -> None:
        """Follow ``board``'s view: offset, scale, size."""
        ox, oy = board.offset
        bw, bh = board.dcols * board.scale, board.drows * board.scale
        w, h = board.width, board.height
        t, m = dp(BAR), dp(MARGIN)
        show_h = bw > w + 0.5
        show_v = bh > h + 0.5
        if show_h:
            length = max(dp(24), w * w / bw)
            x = board.x + min(1.0, max(0.0, -ox / max(1.0, bw - w))) * (w - length)
            self.h_bar.pos, self.h_bar.size = (x, board.y + m), (length, t)
        else:
            self.h_bar.size = (0, 0)
        if show_v:
            length = max(dp(24), h * h / bh)
            y = board.y + min(1.0, max(0.0, -oy / max(1.0, bh - h))) * (h - length)
            self.v_bar.pos, self.v_bar.size = (board.x + board.width - m - t, y), (t, length)
        else:
            self.v_bar.size = (0, 0)
        self.visible = (show_h, show_v)
        self.color.a = 0.55 if (show_h or show_v) else 0.0

    def set_rgb(self, rgb: Sequence[float]) -> None:
        """Bar colour (the theme's text colour reads on either theme)."""
        self.color.rgb = tuple(rgb[:3])


class FitButton(ButtonBehavior, Widget):  # type: ignore[misc]  # Kivy has no type information
    """The corner button: "fit whole board" when zoomed, "zoom in" when the
    whole board shows smaller than the player's cell size."""

    atlas = ObjectProperty(None, allownone=True)
    zoomed = BooleanProperty(True)
    """True: a tap fits the whole board (shows the fit icon)."""
    shown = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self._hidden_at = -1e9
        super().__init__(**kwargs)
        self.size_hint = (None, None)
        self.size = (dp(48), dp(48))
        with self.canvas:
            self._bg_color = Color(0.08, 0.09, 0.12, 0.0)
            self._bg = SmoothRoundedRectangle(pos=self.pos, size=self.size, radius=[dp(10)])
            self._icon_color = Color(1, 1, 1, 0.0)
            self._icon = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._redraw, size=self._redraw, state=self._redraw, atlas=self._redraw,
                  zoomed=self._redraw, shown=self._redraw)

    def _redraw(self, *_args: object) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        pad = self.width * 0.16
        self._icon.pos = (self.x + pad, self.y + pad)
        self._icon.size = (self.width - 2 * pad, self.height - 2 * pad)
        if self.atlas is not None:
            self._icon.texture = self.atlas.region(T.ICON_FIT if self.zoomed else T.ICON_ZOOM)
        down = self.state == "down"
        self._bg_color.a = (0.8 if down else 0.6) if self.shown else 0.0
        self._icon_color.a = 1.0 if self.shown else 0.0

    def on_shown(self, _inst: object, shown: bool) -> None:
        if not shown:
            self._hidden_at = Clock.get_time()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.shown:
            # just hidden (a tap fitted a board that now lies under the
            # button): a second tap of the same finger, a double tap, must not
            # land on the cell that appeared under it and reveal it
            recent = Clock.get_time() - self._hidden_at < HIDDEN_GRACE
            return bool(recent and self.collide_point(*touch.pos))
        handled: bool = super().on_touch_down(touch)
        return handled
