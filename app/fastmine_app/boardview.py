"""The board: one widget drawing every cell with one Mesh from the tile atlas.

Vertices are kept in cell units (cell ``(r, c)`` spans ``x in [c, c+1]``,
``y in [rows-1-r, rows-r]``) so zoom and pan only change a Translate and a
Scale instruction, never the mesh.  Changing cells rewrites the texture
coordinates of just those cells in a numpy copy of the vertex buffer and
hands it to the Mesh once per batch.  Hit-testing is arithmetic.

Touches and the mouse are interpreted by :class:`.gestures.BoardGestures`;
this widget dispatches the results as cell events (``on_cell_tap``,
``on_cell_long_press``, ``on_cell_secondary``, ``on_cell_chord``) and never
knows about game rules.
"""

from __future__ import annotations

import numpy as np
from kivy.graphics import Color, Line, Mesh, PopMatrix, PushMatrix, Scale, Translate
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.widget import Widget

from . import tiles as T
from .gestures import BoardGestures

MAX_VERTICES = 65536  # Mesh indices are unsigned shorts


class BoardView(Widget):
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
    """Pixels per cell."""
    long_press_delay = NumericProperty(0.4)
    hidden = BooleanProperty(False)
    """True hides the cells (the game is paused)."""

    __events__ = ("on_cell_tap", "on_cell_long_press", "on_cell_secondary", "on_cell_chord")

    def __init__(self, **kwargs) -> None:
        self.rows = self.cols = 0
        self.tiles = np.zeros((0, 0), np.int16)
        self._verts = np.zeros(0, np.float32)
        self._ox = self._oy = 0.0
        self._user_zoomed = False
        self._pressed: tuple[int, int] | None = None
        self._ready = False  # property handlers wait for the canvas
        super().__init__(**kwargs)
        with self.canvas:
            self._scissor = ScissorPush(x=0, y=0, width=1, height=1)
            PushMatrix()
            self._translate = Translate(0, 0)
            self._scale = Scale(1, 1, 1)
            self._tint = Color(1, 1, 1, 1)
            self.mesh = Mesh(mode="triangles")
            self._cursor_color = Color(*self.cursor_color)
            self._cursor_line = Line(width=1, rectangle=(0, 0, 0, 0))
            PopMatrix()
            ScissorPop()
        self.gestures = BoardGestures(self)
        self._ready = True
        if self.atlas is not None:
            self.mesh.texture = self.atlas.texture
        self.bind(pos=self._on_geometry, size=self._on_geometry)

    # ------------------------------------------------------------ building

    def set_board(self, tiles: np.ndarray) -> None:
        """Start showing a new board whose cells show ``tiles`` (rows, cols)."""
        rows, cols = tiles.shape
        if rows * cols * 4 > MAX_VERTICES:
            raise ValueError(f"a {rows}x{cols} board is too big for one mesh (max {MAX_VERTICES // 4} cells)")
        if (rows, cols) != (self.rows, self.cols):
            self.rows, self.cols = rows, cols
            self._build_geometry()
            self._user_zoomed = False
        self.tiles = np.array(tiles, np.int16)
        self._pressed = None
        self._write_uv(slice(None), self.tiles.ravel())
        self.mesh.vertices = self._verts
        self.fit()

    def _build_geometry(self) -> None:
        rows, cols = self.rows, self.cols
        r, c = np.divmod(np.arange(rows * cols), cols)
        x0 = c.astype(np.float32)
        y0 = (rows - 1 - r).astype(np.float32)
        v = np.zeros((rows * cols, 4, 4), np.float32)
        v[:, 0, 0] = v[:, 3, 0] = x0
        v[:, 1, 0] = v[:, 2, 0] = x0 + 1
        v[:, 0, 1] = v[:, 1, 1] = y0
        v[:, 2, 1] = v[:, 3, 1] = y0 + 1
        self._verts = v.reshape(-1)
        base = (np.arange(rows * cols, dtype=np.int64) * 4)[:, None]
        idx = (base + np.array([0, 1, 2, 2, 3, 0])).ravel()
        self.mesh.indices = idx.tolist()

    def _write_uv(self, cells, tile_ids: np.ndarray) -> None:
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

    def on_atlas(self, _inst, atlas) -> None:
        if atlas is None or not self._ready:
            return
        self.mesh.texture = atlas.texture
        if self.rows:
            self.set_all_tiles(self.tiles)

    def on_cursor_color(self, _inst, value) -> None:
        if self._ready:
            self._cursor_color.rgba = value

    def on_hidden(self, _inst, hidden) -> None:
        if not self._ready:
            return
        self._tint.a = 0.0 if hidden else 1.0
        self._cursor_color.a = 0.0 if hidden else self.cursor_color[3]

    def on_cursor(self, _inst, cell) -> None:
        if not self._ready:
            return
        if cell is None:
            self._cursor_line.rectangle = (0, 0, 0, 0)
        else:
            r, c = cell
            self._cursor_line.rectangle = (c + 0.04, self.rows - 1 - r + 0.04, 0.92, 0.92)
        self._cursor_line.width = max(0.04, 2.0 / max(self.scale, 1))

    # ------------------------------------------------------------ pressed look

    def show_press(self, cell: tuple[int, int]) -> None:
        """Show a hidden cell as pressed while a finger or button is down on it."""
        self.clear_press()
        r, c = cell
        if self.tiles[r, c] in (T.HIDDEN_T, T.QUESTION_T, T.HINT_T) or (
                T.PROB_T <= self.tiles[r, c] < T.PROB_T + T.PROB_LEVELS):
            self._pressed = (r, c, int(self.tiles[r, c]))
            self._write_uv([r * self.cols + c], np.array([T.PRESSED_T]))
            self.mesh.vertices = self._verts

    def clear_press(self) -> None:
        """Undo :meth:`show_press`."""
        if self._pressed is not None:
            r, c, tile = self._pressed
            self._pressed = None
            if self.tiles[r, c] == tile:
                self._write_uv([r * self.cols + c], np.array([tile]))
                self.mesh.vertices = self._verts

    # ------------------------------------------------------------ geometry

    @property
    def offset(self) -> tuple[float, float]:
        """Where the board's bottom-left corner is, relative to the widget."""
        return (self._ox, self._oy)

    def fit_scale(self) -> float:
        """The scale that shows the whole board."""
        if not self.rows or self.width <= 1 or self.height <= 1:
            return 1.0
        return min(self.width / self.cols, self.height / self.rows)

    def scale_limits(self) -> tuple[float, float]:
        """(min, max) pixels per cell: from the whole board to big fingertip cells
        (and at least three times closer than the whole board)."""
        fit = self.fit_scale()
        return fit, max(fit * 3, dp(80))

    def fit(self) -> None:
        """Show the whole board, centred."""
        self._user_zoomed = False
        self.scale = self.fit_scale()
        self._ox = self._oy = 0.0
        self._apply()

    def _on_geometry(self, *_args) -> None:
        if self._user_zoomed:
            lo, hi = self.scale_limits()
            self.scale = min(max(self.scale, lo), hi)
            self._apply()
        else:
            self.fit()

    def zoom_at(self, factor: float, x: float, y: float) -> None:
        """Zoom by ``factor`` keeping the point under (x, y) (parent coords) still."""
        self.set_scale_at(self.scale * factor, x, y, *self.to_board(x, y))

    def set_scale_at(self, scale: float, x: float, y: float, bx: float, by: float) -> None:
        """Set the scale so board point (bx, by) (cell units) lands on (x, y)."""
        lo, hi = self.scale_limits()
        self.scale = min(max(scale, lo), hi)
        self._user_zoomed = self.scale > lo * 1.001
        self._ox = x - self.x - bx * self.scale
        self._oy = y - self.y - by * self.scale
        self._apply()

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the board by (dx, dy) pixels (clamped to keep it in view)."""
        self._ox += dx
        self._oy += dy
        self._apply()

    def _apply(self) -> None:
        s = self.scale
        bw, bh = self.cols * s, self.rows * s
        self._ox = _clamp_axis(self._ox, bw, self.width)
        self._oy = _clamp_axis(self._oy, bh, self.height)
        self._translate.xy = (self.x + self._ox, self.y + self._oy)
        self._scale.xyz = (s, s, 1)
        self.update_clip()
        self.on_cursor(self, self.cursor)

    def update_clip(self, *_args) -> None:
        """Clip drawing to the widget (in window coordinates, as scissors are)."""
        x0, y0 = self.to_window(self.x, self.y)
        x1, y1 = self.to_window(self.right, self.top)
        sc = self._scissor
        sc.x, sc.y = int(round(x0)), int(round(y0))
        sc.width, sc.height = max(0, int(round(x1 - x0))), max(0, int(round(y1 - y0)))

    def to_board(self, x: float, y: float) -> tuple[float, float]:
        """Parent coords -> board coords in cell units (x right, y up)."""
        s = self.scale or 1.0
        return (x - self.x - self._ox) / s, (y - self.y - self._oy) / s

    def cell_at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (row, col) under a point in parent coords, or None."""
        if not self.rows or not self.collide_point(x, y):
            return None
        bx, by = self.to_board(x, y)
        c = int(np.floor(bx))
        r = self.rows - 1 - int(np.floor(by))
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return (r, c)
        return None

    def cell_center(self, r: int, c: int) -> tuple[float, float]:
        """Parent coords of the centre of cell (r, c) (tests and the cursor use it)."""
        s = self.scale
        return (self.x + self._ox + (c + 0.5) * s, self.y + self._oy + (self.rows - r - 0.5) * s)

    def show_cell(self, r: int, c: int) -> None:
        """Pan the least needed to bring cell (r, c) fully into view."""
        s = self.scale
        x0 = self._ox + c * s
        y0 = self._oy + (self.rows - 1 - r) * s
        dx = min(0.0, self.width - (x0 + s)) or max(0.0, -x0)
        dy = min(0.0, self.height - (y0 + s)) or max(0.0, -y0)
        if dx or dy:
            self.pan_by(dx, dy)

    # ------------------------------------------------------------ input

    def on_touch_down(self, touch):
        return self.gestures.on_touch_down(touch)

    def on_touch_move(self, touch):
        return self.gestures.on_touch_move(touch)

    def on_touch_up(self, touch):
        return self.gestures.on_touch_up(touch)

    def on_cell_tap(self, r: int, c: int) -> None:
        """A tap or left click released on cell (r, c)."""

    def on_cell_long_press(self, r: int, c: int) -> None:
        """A finger held still on cell (r, c) for ``long_press_delay``."""

    def on_cell_secondary(self, r: int, c: int) -> None:
        """A right click released on cell (r, c)."""

    def on_cell_chord(self, r: int, c: int) -> None:
        """A middle click, or a double click on a number, at cell (r, c)."""


def _clamp_axis(offset: float, content: float, view: float) -> float:
    if content <= view:
        return (view - content) / 2
    return min(0.0, max(view - content, offset))
