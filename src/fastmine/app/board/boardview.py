"""The board: one widget drawing every cell with one Mesh from the tile atlas.

Vertices are kept in cell units of the *drawn* board (drawn cell
``(dr, dc)`` spans ``x in [dc, dc+1]``, ``y in [drows-1-dr, drows-dr]``) so
zoom and pan only change a Translate and a Scale instruction, never the
mesh.  Changing cells rewrites the texture coordinates of just those cells
in a numpy copy of the vertex buffer and hands it to the Mesh once per
batch.  Hit-testing is arithmetic.

On a touch screen the drawn board may be the game's board transposed (see
:mod:`.viewport`): ``rows``, ``cols``, ``tiles`` and every cell event stay
in the game's coordinates; only the vertices, hit-testing and the view
(``drows``, ``dcols``, ``scale``, ``offset``) are in drawn ones.

Touches and the mouse are interpreted by :class:`.gestures.BoardGestures`;
this widget dispatches the results as cell events (touch: ``on_cell_tap``,
``on_cell_long_press``, ``on_cell_double_tap``; mouse: ``on_cell_click``,
``on_cell_secondary``, ``on_cell_chord``) and never knows about game rules.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import (
    Color,
    InstructionGroup,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Scale,
    Translate,
)
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from .. import settings as S
from ..services.appfiles import VIEWS_FILE
from . import tiles as T
from . import viewport
from .effects import ArmingRing, Cascade, Celebration, Effects, Explosion
from .gestures import BoardGestures
from .overview import FitButton, ScrollIndicators

MAX_VERTICES = 65536  # Mesh indices are unsigned shorts
BUTTON_MARGIN = 10  # dp from the corner button to the board's edges
_PRESSABLE = np.zeros(T.N_TILES, bool)
_PRESSABLE[[T.HIDDEN_T, T.QUESTION_T, T.HINT_T]] = True
_PRESSABLE[T.PROB_T:T.PROB_T + T.PROB_LEVELS] = True


def app_setting(key: str) -> bool:
    """A bool setting of the running app (its default without one)."""
    app = App.get_running_app()
    config = getattr(app, "config", None)
    if config is None:
        return bool(S.DEFAULTS[S.SECTION][key])
    return S.flag(config, key)


def app_vibration() -> str:
    """The running app's vibration strength ("off" without an app)."""
    app = App.get_running_app()
    config = getattr(app, "config", None)
    return "off" if config is None else S.vibration(config)


def app_cell_size() -> float:
    """The cell-size setting in dp (the default without an app)."""
    app = App.get_running_app()
    config = getattr(app, "config", None)
    return 56.0 if config is None else S.cell_size(config)


class BoardView(Widget):  # type: ignore[misc]  # Kivy has no type information
    """A zoomable, pannable grid of tiles.

    Call :meth:`set_board` for a new game, :meth:`set_tiles` with changed
    cells after each move, :meth:`fit` to show the whole board.

    Drawing is clipped with a scissor rectangle, not a stencil, and there is
    no background fill (the window's clear colour shows around the board):
    with software GL every full-widget fill costs as much as the board.
    """

    atlas = ObjectProperty(None, allownone=True)
    """The :class:`.tiles.Atlas` to draw with."""
    cursor_color = ListProperty([0.2, 0.4, 0.9, 1])
    cursor = ObjectProperty(None, allownone=True)
    """Keyboard cursor cell ``(row, col)``, or None to hide it."""
    scale = NumericProperty(1.0)
    """Pixels per drawn cell."""
    long_press_delay = NumericProperty(0.4)
    double_tap_delay = NumericProperty(0.0)
    """Seconds a tap waits for a second one (0: taps play at once; see :mod:`.gestures`)."""
    hidden = BooleanProperty(False)
    """True hides the cells (the game is paused)."""
    transposed = BooleanProperty(False)
    """True while the board is drawn turned (game row r is drawn column r)."""
    touch_first = BooleanProperty(False)
    """The current game opened the touch-screen way (cell size, pan, transpose)."""

    __events__ = ("on_cell_tap", "on_cell_long_press", "on_cell_double_tap", "on_cell_click",
                  "on_cell_secondary", "on_cell_chord")

    def __init__(self, **kwargs: Any) -> None:
        self.rows = self.cols = 0
        self.drows = self.dcols = 0
        self.tiles = np.zeros((0, 0), np.int16)
        self._verts = np.zeros(0, np.float32)
        self._ox = self._oy = 0.0
        self._fitted = True  # showing the whole board; geometry changes refit
        self._settled = False  # the player moved the view of this game
        # the view kept for this board size: (scale in dp, centre, whole board shown)
        self._recalled: tuple[float, tuple[float, float], bool] | None = None
        self._focus: tuple[int, int] | None = None  # game cell a zoomed opening centres on
        self._pressed: list[tuple[int, int, int]] = []
        self.memory = viewport.ZoomMemory()
        self._game_id = 0  # bumped per game: a deferred animation of the last game is dropped
        self._views_path: str | None = None
        """Zoom and position per board size, kept between games."""
        self._ready = False  # property handlers wait for the canvas
        super().__init__(**kwargs)
        with self.canvas:
            self._scissor = ScissorPush(x=0, y=0, width=1, height=1)
            PushMatrix()
            self._translate = Translate(0, 0)
            self._scale = Scale(1, 1, 1)
            self._tint = Color(1, 1, 1, 1)
            self.mesh = Mesh(mode="triangles")
            self._fx_cells = InstructionGroup()
            self._cursor_color = Color(*self.cursor_color)
            self._cursor_line = Line(width=1, rectangle=(0, 0, 0, 0))
            PopMatrix()
            self._fx_screen = InstructionGroup()
            self._overlay = InstructionGroup()
            ScissorPop()
        with self.canvas.after:  # unclipped: the ring shows whole around a finger at the edge
            self._cue = InstructionGroup()
        self.effects = Effects(self._fx_cells, self._fx_screen)
        self.indicators = ScrollIndicators(self._overlay)
        self.arming = ArmingRing(self._cue)
        self.fit_button = FitButton()
        self.fit_button.bind(on_release=lambda *_a: self.toggle_fit())
        self.add_widget(self.fit_button)
        self.gestures = BoardGestures(self)
        self._ready = True
        if self.atlas is not None:
            self.on_atlas(self, self.atlas)
        self.bind(pos=self._on_geometry, size=self._on_geometry)

    # ------------------------------------------------------------ building

    def set_board(self, tiles: np.ndarray, focus: tuple[int, int] | None = None) -> None:
        """Start showing a new board whose cells show ``tiles`` (rows, cols).

        ``focus`` is a game cell to open the view around when the board opens
        zoomed (a resumed game's play area); by default the middle."""
        rows, cols = tiles.shape
        if rows * cols * 4 > MAX_VERTICES:
            raise ValueError(f"a {rows}x{cols} board is too big for one mesh (max {MAX_VERTICES // 4} cells)")
        self._game_id += 1
        self._attach_to_app()
        self.effects.clear()
        self.arming.hide()
        self.touch_first = viewport.touch_first()
        want_t = self._want_transposed(rows, cols)
        if (rows, cols) != (self.rows, self.cols) or want_t != self.transposed:
            self.rows, self.cols = rows, cols
            self.transposed = want_t
            self._build_geometry()
        self.tiles = np.array(tiles, np.int16)
        self._pressed = []
        self._write_uv(slice(None), self.tiles.ravel())
        self.mesh.vertices = self._verts
        self._settled = False
        self._recalled = self.memory.recall(self._memory_key()) if self.touch_first else None
        if focus is None:
            focus = viewport.play_area(self.tiles)
        self._focus = focus
        self.open_view()

    def _attach_to_app(self) -> None:
        """Once: load the views kept by the last run, and keep them when the app
        pauses or stops (a phone may end the process at any time after that)."""
        app = App.get_running_app()
        if self._views_path is not None or app is None:
            return
        try:
            self._views_path = os.path.join(app.config_dir, VIEWS_FILE)
        except (AttributeError, OSError):
            return
        self.memory = viewport.ZoomMemory.load(self._views_path)
        app.fbind("on_pause", self.save_views)
        app.fbind("on_stop", self.save_views)

    def save_views(self, *_args: object) -> None:
        """Write the kept views to the app's data folder."""
        if self._views_path is not None:
            self.memory.save(self._views_path)

    def _want_transposed(self, rows: int, cols: int) -> bool:
        return self.touch_first and viewport.transposed(rows, cols, self.width, self.height)

    def _memory_key(self) -> viewport.Key:
        return (self.rows, self.cols, self.transposed, app_cell_size())

    def _build_geometry(self) -> None:
        rows, cols = self.rows, self.cols
        self.drows, self.dcols = (cols, rows) if self.transposed else (rows, cols)
        r, c = np.divmod(np.arange(rows * cols), cols)
        dr, dc = (c, r) if self.transposed else (r, c)
        x0 = dc.astype(np.float32)
        y0 = (self.drows - 1 - dr).astype(np.float32)
        v = np.zeros((rows * cols, 4, 4), np.float32)
        v[:, 0, 0] = v[:, 3, 0] = x0
        v[:, 1, 0] = v[:, 2, 0] = x0 + 1
        v[:, 0, 1] = v[:, 1, 1] = y0
        v[:, 2, 1] = v[:, 3, 1] = y0 + 1
        if self.atlas is not None and len(self._verts) == len(v.reshape(-1)) and self.tiles.size:
            v[:, :, 2:4] = self._verts.reshape(-1, 4, 4)[:, :, 2:4]  # keep the tiles shown
        self._verts = v.reshape(-1)
        base = (np.arange(rows * cols, dtype=np.int64) * 4)[:, None]
        idx = (base + np.array([0, 1, 2, 2, 3, 0])).ravel()
        # unsigned shorts as Kivy uploads them (set_board keeps every index below
        # 65536): used in place, not a list of 6 Python ints per cell (600 KB at 50x50)
        self.mesh.indices = idx.astype(np.uint16)

    def _write_uv(self, cells: np.ndarray | slice | list[int], tile_ids: np.ndarray) -> None:
        v = self._verts.reshape(-1, 4, 4)
        v[cells, :, 2:4] = self.atlas.uv[tile_ids]

    def set_tiles(self, cells: np.ndarray, tile_ids: np.ndarray) -> None:
        """Show ``tile_ids[i]`` at ``cells[i]`` (an (n, 2) array of (row, col))."""
        cells = np.asarray(cells)
        if len(cells) == 0:
            return
        tile_ids = np.asarray(tile_ids, np.int16)
        self.tiles[cells[:, 0], cells[:, 1]] = tile_ids
        self._write_uv(cells[:, 0] * self.cols + cells[:, 1], tile_ids)
        self.mesh.vertices = self._verts  # one upload per batch

    def set_all_tiles(self, tiles: np.ndarray) -> None:
        """Replace every cell's tile (theme change, overlay on or off)."""
        self.tiles[...] = tiles
        self._write_uv(slice(None), self.tiles.ravel())
        self.mesh.vertices = self._verts

    def on_atlas(self, _inst: object, atlas: T.Atlas | None) -> None:
        if atlas is None or not self._ready:
            return
        self.mesh.texture = atlas.texture
        self.fit_button.atlas = atlas
        self.indicators.set_rgb(atlas.theme.text)
        if self.rows:
            self.set_all_tiles(self.tiles)

    def on_cursor_color(self, _inst: object, value: list[float]) -> None:
        if self._ready:
            self._cursor_color.rgba = value

    def on_hidden(self, _inst: object, hidden: bool) -> None:
        if not self._ready:
            return
        self._tint.a = 0.0 if hidden else 1.0
        self._cursor_color.a = 0.0 if hidden else self.cursor_color[3]
        if hidden:
            self.effects.clear()
        self._update_overview()

    def on_cursor(self, _inst: object, cell: tuple[int, int] | None) -> None:
        if not self._ready:
            return
        if cell is None:
            self._cursor_line.rectangle = (0, 0, 0, 0)
        else:
            dr, dc = self._drawn(*cell)
            self._cursor_line.rectangle = (dc + 0.04, self.drows - 1 - dr + 0.04, 0.92, 0.92)
        self._cursor_line.width = max(0.04, 2.0 / max(self.scale, 1))

    # ------------------------------------------------------------ pressed look

    def show_press(self, cell: tuple[int, int]) -> None:
        """Show a hidden cell as pressed while a finger or button is down on
        it; on a number, its hidden neighbours (the cells a chord would open)."""
        self.clear_press()
        r, c = cell
        tile = self.tiles[r, c]
        if 1 <= tile <= 8:
            r0, r1, c0, c1 = max(r - 1, 0), min(r + 2, self.rows), max(c - 1, 0), min(c + 2, self.cols)
            near = np.argwhere(_PRESSABLE[self.tiles[r0:r1, c0:c1]]) + (r0, c0)
            targets = [(int(a), int(b)) for a, b in near]
        elif _PRESSABLE[tile]:
            targets = [(r, c)]
        else:
            return
        if not targets:
            return
        self._pressed = [(a, b, int(self.tiles[a, b])) for a, b in targets]
        idx = [a * self.cols + b for a, b in targets]
        self._write_uv(idx, np.full(len(idx), T.PRESSED_T, np.int16))
        self.mesh.vertices = self._verts

    def pressed_cells(self) -> list[tuple[int, int]]:
        """The cells shown pressed now (game coordinates)."""
        return [(r, c) for r, c, _t in self._pressed]

    def clear_press(self) -> None:
        """Undo :meth:`show_press`."""
        if self._pressed:
            pressed, self._pressed = self._pressed, []
            keep = [(r, c, t) for r, c, t in pressed if self.tiles[r, c] == t]
            if keep:
                self._write_uv([r * self.cols + c for r, c, _t in keep],
                               np.array([t for _r, _c, t in keep], np.int16))
                self.mesh.vertices = self._verts

    # ------------------------------------------------------------ feel

    def animate_move(self, changed: np.ndarray, origin: tuple[int, int] | None, ended: str) -> None:
        """The animations after a move whose tiles are already shown: the
        opening cascade, the explosion, the celebration (none with the
        animations setting off).  They are built just before the next frame
        is drawn, not here, so the move's own work never waits for them."""
        if (len(changed) < 3 and not ended) or self.atlas is None:
            return  # a single cell: nothing to animate, and no cost
        if not app_setting("animations"):
            return
        game_id = self._game_id
        Clock.schedule_once(lambda _dt: self._start_effect(game_id, np.asarray(changed), origin, ended), -1)

    def _start_effect(self, game_id: int, changed: np.ndarray, origin: tuple[int, int] | None,
                      ended: str) -> None:
        if game_id != self._game_id:
            return  # another game started meanwhile
        if ended == "won":
            self.effects.start(Celebration(self))
        elif ended == "lost":
            boom = np.argwhere(self.tiles == T.EXPLODED_T)
            if len(boom):
                self.effects.start(Explosion(self, (int(boom[0][0]), int(boom[0][1]))))
        else:
            opened = changed[self.tiles[changed[:, 0], changed[:, 1]] <= 8]
            if len(opened) >= 3:
                o = origin if origin is not None else (int(opened[0][0]), int(opened[0][1]))
                self.effects.start(Cascade(self, opened, o), in_cells=True)

    def arming_started(self, pos: tuple[float, float]) -> None:
        """A finger is down on a cell: start the ring that fills until the long press."""
        self.arming.show(pos, self.long_press_delay, self.cursor_color)

    def arming_stopped(self, fired: bool) -> None:
        """The finger lifted or moved (``fired`` False), or the long press fired."""
        self.arming.hide()
        if fired:
            strength = app_vibration()
            if strength != "off":
                from ..services import haptics
                haptics.buzz("hold", strength)

    # ------------------------------------------------------------ geometry

    @property
    def offset(self) -> tuple[float, float]:
        """Where the drawn board's bottom-left corner is, relative to the widget."""
        return (self._ox, self._oy)

    def _drawn(self, r: int, c: int) -> tuple[int, int]:
        return (c, r) if self.transposed else (r, c)

    def cell_quads(self, cells: np.ndarray) -> np.ndarray:
        """A copy of the mesh's vertices of game cells ``cells`` ((n, 2) (row, col)):
        (n, 4, 4), per corner x, y (drawn cell units) and the tile's u, v."""
        cells = np.asarray(cells)
        quads: np.ndarray = self._verts.reshape(-1, 4, 4)[cells[:, 0] * self.cols + cells[:, 1]]
        return quads

    def _drawn_center(self, r: int, c: int) -> tuple[float, float]:
        dr, dc = self._drawn(r, c)
        return (dc + 0.5, self.drows - dr - 0.5)

    def fit_scale(self) -> float:
        """The scale that shows the whole board."""
        return viewport.fit_scale(self.drows, self.dcols, self.width, self.height)

    def cell_px(self) -> float:
        """The player's cell size in pixels."""
        px: float = dp(app_cell_size())
        return px

    def scale_limits(self) -> tuple[float, float]:
        """(min, max) pixels per cell: from the whole board (or, on a touch
        screen, the cell size if smaller) to big fingertip cells."""
        fit = self.fit_scale()
        lo = min(fit, self.cell_px()) if self.touch_first else fit
        return lo, max(fit * 3, dp(80), self.cell_px() * 1.5)

    def is_fitted(self) -> bool:
        """True when the whole board is in view."""
        return bool(self.dcols * self.scale <= self.width + 0.5
                    and self.drows * self.scale <= self.height + 0.5)

    def fit(self) -> None:
        """Show the whole board, centred."""
        self._fitted = True
        self.scale = self.fit_scale()
        self._ox = self._oy = 0.0
        self._apply()

    def open_view(self) -> None:
        """Show a new game: fit on a desktop; on a touch screen the view kept
        for this board size, else the player's cell size (see :mod:`.viewport`)."""
        if not self.touch_first or not self.rows:
            self.fit()
            return
        if self._recalled is not None:
            scale_dp, center, fitted = self._recalled
            if fitted:
                self.fit()
            else:
                self.set_view(dp(scale_dp), center)
            return
        self._open_at(None if self._focus is None else self._drawn_center(*self._focus))

    def _open_at(self, focus: tuple[float, float] | None) -> None:
        """The whole board if its cells are big enough (:data:`.viewport.MIN_WHOLE_DP`),
        else the player's cell size around ``focus`` (drawn cell units)."""
        v = viewport.opening_view(self.drows, self.dcols, self.width, self.height, self.cell_px(),
                                  focus, whole_px=dp(viewport.MIN_WHOLE_DP))
        if v.fitted and v.scale >= self.fit_scale() - 1e-9:
            self.fit()
        else:
            self.set_view(v.scale, v.center)

    def apply_cell_size(self) -> None:
        """The cell size setting changed: the views kept under the old size are
        forgotten (a kept zoom must not override the new setting in the next
        game of a size already played), and the game on screen shows at the new
        size around the same middle, or whole if it now opens whole."""
        self.memory.forget()
        self.save_views()
        self._recalled = None
        if not self.touch_first or not self.rows:
            return
        self._open_at(self.view_center())
        self._settled = False  # as a game opens: a turned phone reopens it by the setting

    def set_view(self, scale: float, center: tuple[float, float]) -> None:
        """``scale`` px per cell with drawn board point ``center`` in the middle."""
        lo, hi = self.scale_limits()
        self.scale = min(max(scale, lo), hi)
        self._fitted = False
        self._ox = self.width / 2 - center[0] * self.scale
        self._oy = self.height / 2 - center[1] * self.scale
        self._apply()

    def view_center(self) -> tuple[float, float]:
        """The drawn board point (cell units) in the middle of the widget."""
        s = self.scale or 1.0
        return ((self.width / 2 - self._ox) / s, (self.height / 2 - self._oy) / s)

    def toggle_fit(self) -> None:
        """The fit button and a double tap beside the board: whole board <->
        the player's cell size around the middle of the view."""
        if self.is_fitted() and self.fit_scale() < self.cell_px() * 0.999:
            self.set_view(self.cell_px(), self.view_center())
        else:
            self.fit()
        self._settle()

    def _settle(self) -> None:
        """The player chose this view: keep it for the next game of this size."""
        self._settled = True
        if self.touch_first and self.rows:
            self.memory.remember(self._memory_key(), self.scale / dp(1), self.view_center(),
                                 self._fitted or self.is_fitted())

    def _on_geometry(self, *_args: object) -> None:
        if not self.rows:
            self._apply()
            return
        want_t = self._want_transposed(self.rows, self.cols)
        if want_t != self.transposed:
            # the window turned: redraw turned, around the same game cell
            cell = self.cell_at(*self.to_parent(*self.center)) if self._settled else None
            scale_dp = self.scale / dp(1)
            self.transposed = want_t
            self._build_geometry()
            self.mesh.vertices = self._verts
            self._recalled = self.memory.recall(self._memory_key())
            if self._settled and self._fitted:
                self.fit()  # the player chose the whole board: still the whole board
            elif not self._settled or cell is None:
                self.open_view()
            else:
                self.set_view(dp(scale_dp), self._drawn_center(*cell))
            return
        if not self._settled:
            self.open_view()
        elif self._fitted:
            self.fit()
        else:
            lo, hi = self.scale_limits()
            self.scale = min(max(self.scale, lo), hi)
            self._apply()

    def zoom_at(self, factor: float, x: float, y: float) -> None:
        """Zoom by ``factor`` keeping the point under (x, y) (parent coords) still."""
        self.set_scale_at(self.scale * factor, x, y, *self.to_board(x, y))

    def set_scale_at(self, scale: float, x: float, y: float, bx: float, by: float) -> None:
        """Set the scale so board point (bx, by) (cell units) lands on (x, y)."""
        lo, hi = self.scale_limits()
        self.scale = min(max(scale, lo), hi)
        self._fitted = self.scale <= self.fit_scale() * 1.001
        self._ox = x - self.x - bx * self.scale
        self._oy = y - self.y - by * self.scale
        self._apply()
        self._settle()

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the board by (dx, dy) pixels (clamped to keep it in view)."""
        self._ox += dx
        self._oy += dy
        self._apply()
        self._settle()

    def clamped_offset(self, ox: float, oy: float) -> tuple[float, float]:
        """Where the board's corner may be at the current scale, nearest (ox, oy)."""
        s = self.scale
        # a zoomed board pans a little past its bottom-right corner, so the
        # cells under the corner button can be brought out from under it
        pad = self.fit_button.height + dp(BUTTON_MARGIN + 4)
        return (viewport.clamp_axis(ox, self.dcols * s, self.width, low_pad=pad),
                viewport.clamp_axis(oy, self.drows * s, self.height, high_pad=pad))

    def _apply(self) -> None:
        s = self.scale
        self._ox, self._oy = self.clamped_offset(self._ox, self._oy)
        self._translate.xy = (self.x + self._ox, self.y + self._oy)
        self._scale.xyz = (s, s, 1)
        self.update_clip()
        self.on_cursor(self, self.cursor)
        self._update_overview()

    def _update_overview(self) -> None:
        if not self._ready:
            return
        self.indicators.update(self)
        if self.hidden:
            self.indicators.color.a = 0.0
        fb = self.fit_button
        # x + width, not right: inside a pos/size callback Kivy's cached
        # right/top may still hold the old value (a turned window left the
        # clip and the button where the board was)
        fb.pos = (self.x + self.width - fb.width - dp(BUTTON_MARGIN), self.y + dp(BUTTON_MARGIN))
        fitted = self.is_fitted()
        fb.zoomed = not fitted
        # "zoom in" only where it covers no cell of the whole board: the whole
        # board cannot pan a cell out from under it
        s = self.scale
        bx0, by0 = self.x + self._ox, self.y + self._oy
        clear = (fb.x >= bx0 + self.dcols * s or fb.right <= bx0
                 or fb.y >= by0 + self.drows * s or fb.top <= by0)
        can_zoom = (self.touch_first and fitted and clear
                    and self.fit_scale() < self.cell_px() * 0.999)
        fb.shown = bool(self.rows) and not self.hidden and (not fitted or can_zoom)

    def update_clip(self, *_args: object) -> None:
        """Clip drawing to the widget (in window coordinates, as scissors are)."""
        x0, y0 = self.to_window(self.x, self.y)
        x1, y1 = self.to_window(self.x + self.width, self.y + self.height)  # not right/top: stale here
        sc = self._scissor
        sc.x, sc.y = int(round(x0)), int(round(y0))
        sc.width, sc.height = max(0, int(round(x1 - x0))), max(0, int(round(y1 - y0)))

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """Parent coords -> drawn board coords in cell units (x right, y up)."""
        s = self.scale or 1.0
        return (x - self.x - self._ox) / s, (y - self.y - self._oy) / s

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The game's (row, col) under a point in parent coords, or None."""
        if not self.rows or not self.collide_point(x, y):
            return None
        bx, by = self.to_board(x, y)
        dc = int(np.floor(bx))
        dr = self.drows - 1 - int(np.floor(by))
        if 0 <= dr < self.drows and 0 <= dc < self.dcols:
            return (dc, dr) if self.transposed else (dr, dc)
        return None

    def cell_center(self, r: int, c: int) -> tuple[float, float]:
        """Parent coords of the centre of game cell (r, c) (tests and the cursor use it)."""
        s = self.scale
        bx, by = self._drawn_center(r, c)
        return (self.x + self._ox + bx * s, self.y + self._oy + by * s)

    def show_cell(self, r: int, c: int) -> None:
        """Pan the least needed to bring game cell (r, c) fully into view."""
        s = self.scale
        dr, dc = self._drawn(r, c)
        x0 = self._ox + dc * s
        y0 = self._oy + (self.drows - 1 - dr) * s
        dx = min(0.0, self.width - (x0 + s)) or max(0.0, -x0)
        dy = min(0.0, self.height - (y0 + s)) or max(0.0, -y0)
        if dx or dy:
            self.pan_by(dx, dy)

    # ------------------------------------------------------------ input

    def on_touch_down(self, touch: Any) -> bool:
        if self.fit_button.dispatch("on_touch_down", touch):
            return True
        return self.gestures.on_touch_down(touch)

    def on_touch_move(self, touch: Any) -> bool:
        return self.gestures.on_touch_move(touch)

    def on_touch_up(self, touch: Any) -> bool:
        return self.gestures.on_touch_up(touch)

    def on_cell_tap(self, r: int, c: int) -> None:
        """A single tap released on cell (r, c) (after the double-tap delay, if any)."""

    def on_cell_long_press(self, r: int, c: int) -> None:
        """A finger held still on cell (r, c) for ``long_press_delay``."""

    def on_cell_double_tap(self, r: int, c: int) -> None:
        """A second tap on cell (r, c) within ``double_tap_delay`` of the first."""

    def on_cell_click(self, r: int, c: int) -> None:
        """A left click released on cell (r, c)."""

    def on_cell_secondary(self, r: int, c: int) -> None:
        """A right click released on cell (r, c)."""

    def on_cell_chord(self, r: int, c: int) -> None:
        """A middle click, or a double click on a number, at cell (r, c)."""
