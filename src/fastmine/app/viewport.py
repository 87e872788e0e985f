"""Where a board opens on screen: touch-first or not, cell size, transposition,
and the zoom kept between games of the same size.

Pure arithmetic, no widgets, so the rules are easy to read and test:

- On a touch screen a game opens at the player's cell size (the setting,
  about 9 mm by default).  A board that fits at that size, or nearly
  (``FIT_SLACK``: fitting may shrink its cells from the default 56 dp to
  48 dp, the smallest comfortable touch target, and no further), opens
  whole and centred; a bigger one opens zoomed at that size around the middle
  of the board (where a first click opens an area) or, for a resumed game,
  around the cells already open.
- A wide board in a portrait window (or a tall one in landscape) is drawn
  transposed, so its long side follows the screen's: 16x30 shows as 30 rows
  of 16.  Only the drawing turns; the game keeps its rows and columns.
- Desktop windows keep "fit the whole board", drawn as the board is.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from dataclasses import dataclass

import numpy as np

TOUCH_FIRST: bool | None = None
"""Force the touch-first layout on (True) or off (False); None: decide by
platform (Android, iOS) or the ``FASTMINE_TOUCH`` environment variable."""

FIT_SLACK = 48 / 56
"""A board whose whole-board cells are at least this fraction of the chosen
cell size (48 dp of the default 56) opens whole rather than panning for a
sliver; below that a finger misses cells, so it opens zoomed and pans."""


def touch_first() -> bool:
    """True where the board opens at a finger's cell size (phones, tablets)."""
    if TOUCH_FIRST is not None:
        return TOUCH_FIRST
    env = os.environ.get("FASTMINE_TOUCH", "").strip().lower()
    if env in ("1", "yes", "true", "on"):
        return True
    if env in ("0", "no", "false", "off"):
        return False
    from kivy.utils import platform

    return platform in ("android", "ios")


def transposed(rows: int, cols: int, width: float, height: float) -> bool:
    """Whether a rows x cols board is drawn turned in a width x height area:
    its long side goes along the area's long side.

    >>> transposed(16, 30, 393, 700), transposed(16, 30, 800, 393), transposed(30, 16, 800, 393)
    (True, False, True)
    >>> transposed(9, 9, 393, 700), transposed(16, 30, 0, 0)
    (False, False)
    """
    if width <= 1 or height <= 1 or rows == cols:
        return False
    return (cols > rows) != (width > height)


@dataclass(frozen=True)
class View:
    """How to show a board: ``scale`` pixels per cell with the board point
    ``center`` (cell units, x right, y up, of the drawn board) in the
    middle of the area; ``fitted`` when the whole board shows."""

    scale: float
    center: tuple[float, float]
    fitted: bool


def fit_scale(drows: int, dcols: int, width: float, height: float) -> float:
    """Pixels per cell that show the whole drawn board (drows x dcols)."""
    if not drows or width <= 1 or height <= 1:
        return 1.0
    return min(width / dcols, height / drows)


def opening_view(drows: int, dcols: int, width: float, height: float, cell_px: float,
                 focus: tuple[float, float] | None = None, slack: float = FIT_SLACK) -> View:
    """The view a touch-screen game opens at: ``cell_px`` pixels per cell
    around ``focus`` (drawn cell units; default the middle), or the whole
    board when it fits at (nearly) that size: cells at least ``slack`` times
    ``cell_px`` (the replay player, only watched, accepts smaller ones).

    >>> opening_view(30, 16, 393, 700, 56).scale      # Expert in portrait: 56 px cells
    56
    >>> opening_view(9, 9, 393, 700, 56).fitted        # Beginner on a phone: 43.7 would be too small
    False
    >>> opening_view(9, 9, 460, 700, 56)               # a little short of 56: whole at 51 px
    View(scale=51.111111111111114, center=(4.5, 4.5), fitted=True)
    >>> opening_view(16, 16, 360, 600, 56).fitted      # Intermediate on a phone: zoomed, pans
    False
    >>> opening_view(9, 9, 800, 800, 56).scale         # fits at 56: centred at 56, not blown up
    56
    """
    fit = fit_scale(drows, dcols, width, height)
    middle = (dcols / 2, drows / 2)
    if fit >= cell_px:
        return View(cell_px, middle, dcols * cell_px <= width and drows * cell_px <= height)
    if fit >= cell_px * slack:
        return View(fit, middle, True)
    return View(cell_px, focus or middle, False)


MAX_VIEWS_BYTES = 1 << 20
"""Far more than the kept views of every board size need; a bigger file is not theirs."""


class ZoomMemory:
    """The last zoom and position per board size (in dp and cell units), so
    the next game of the same size opens where the player left the last one.

    >>> m = ZoomMemory(); m.remember((50, 50, False), 56.0, (10.5, 40.0), False)
    >>> ZoomMemory.from_json(m.to_json()).recall((50, 50, False))
    (56.0, (10.5, 40.0), False)
    >>> ZoomMemory.from_json("not json").recall((50, 50, False)) is None
    True
    """

    def __init__(self) -> None:
        self._views: dict[tuple[int, int, bool], tuple[float, tuple[float, float], bool]] = {}

    def remember(self, key: tuple[int, int, bool], scale_dp: float, center: tuple[float, float],
                 fitted: bool) -> None:
        """Keep the view of a board of size ``key`` = (rows, cols, transposed)."""
        self._views[key] = (scale_dp, center, fitted)

    def recall(self, key: tuple[int, int, bool]) -> tuple[float, tuple[float, float], bool] | None:
        """(scale in dp, centre, fitted) last used for this size, or None."""
        return self._views.get(key)

    def forget(self) -> None:
        """Drop every kept view."""
        self._views.clear()

    def to_json(self) -> str:
        """The kept views as JSON (for the app's data folder)."""
        return json.dumps([[r, c, t, scale, cx, cy, fitted]
                           for (r, c, t), (scale, (cx, cy), fitted) in sorted(self._views.items())])

    @classmethod
    def from_json(cls, text: str) -> ZoomMemory:
        """Views written by :meth:`to_json`; anything unreadable is dropped."""
        memory = cls()
        try:
            rows = json.loads(text)
        except ValueError:
            return memory
        if not isinstance(rows, list):
            return memory
        for row in rows:
            try:
                r, c, t, scale, cx, cy, fitted = row
                key = (int(r), int(c), bool(t))
                view = (float(scale), (float(cx), float(cy)), bool(fitted))
            except (TypeError, ValueError):
                continue
            if key[0] > 0 and key[1] > 0 and all(map(math.isfinite, (view[0], *view[1]))) and view[0] > 0:
                memory._views[key] = view
        return memory

    @classmethod
    def load(cls, path: str) -> ZoomMemory:
        """The views kept in ``path``; none if it is missing or unreadable (read at
        the first game: a FIFO or a huge file there must not hold up the start)."""
        from fastmine.files.storage import read_regular_file

        try:
            return cls.from_json(read_regular_file(path, MAX_VIEWS_BYTES).decode("utf-8"))
        except (OSError, UnicodeDecodeError):
            return cls()

    def save(self, path: str) -> None:
        """Keep the views in ``path`` (atomically; a failure only loses them)."""
        from fastmine.files.storage import atomic_write_text

        with contextlib.suppress(OSError):
            atomic_write_text(path, self.to_json())


def play_area(tiles: np.ndarray) -> tuple[int, int] | None:
    """The open cell nearest the middle of the open cells (tile ids 0-8; a
    resumed game's play area), or None when nothing is open."""
    open_cells = np.argwhere(tiles <= 8)
    if not len(open_cells):
        return None
    mid = open_cells.mean(axis=0)
    r, c = open_cells[np.argmin(((open_cells - mid) ** 2).sum(axis=1))]
    return int(r), int(c)


def clamp_axis(offset: float, content: float, view: float, low_pad: float = 0.0,
               high_pad: float = 0.0) -> float:
    """Where content of length ``content`` may sit in a view of length ``view``:
    centred if it fits, else covering the view, give or take the pads.

    >>> clamp_axis(0, 100, 300), clamp_axis(50, 500, 300), clamp_axis(-900, 500, 300, low_pad=60)
    (100.0, 0.0, -260)

    Content longer by a rounding error still fits (a whole board drawn at
    the scale that fits it is ``n * (view / n)`` long, a hair over ``view``):

    >>> abs(clamp_axis(87, 30 * (1040 / 30) + 1e-9, 1040, high_pad=120)) < 1e-6  # not 87 px down
    True
    """
    if content <= view + 0.5:  # half a pixel: no visible overflow
        return (view - content) / 2
    return min(high_pad, max(view - content - low_pad, offset))
