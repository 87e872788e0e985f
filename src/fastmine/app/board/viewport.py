"""Where a board opens on screen: touch-first or not, cell size, transposition,
and the zoom kept between games of the same size.

Pure arithmetic, no widgets, so the rules are easy to read and test:

- On a touch screen a board whose whole-board cells are at least
  ``MIN_WHOLE_DP`` (38 dp, about 6 mm: Beginner on any phone, 40 dp on a
  360-dp one) opens whole and centred, never bigger than the player's cell
  size (the setting, about 9 mm by default); a bigger board opens zoomed at
  that size around the middle of the board (where a first click opens an
  area) or, for a resumed game, around the cells already open.
- The zoom the player leaves a board size at is kept for the next game of
  that size (:class:`ZoomMemory`), but only under the cell size it was left
  at: a changed setting is never overridden by a view kept before it.
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

MIN_WHOLE_DP = 38.0
"""A board whose whole-board cells are at least this many dp opens whole: a
board that fits is worth more than bigger cells that pan (Beginner's 40 dp on
a 360-dp phone are easy to tap).  Smaller cells than this a finger misses, so
such a board opens zoomed at the cell size setting and pans."""


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
                 focus: tuple[float, float] | None = None,
                 whole_px: float = MIN_WHOLE_DP) -> View:
    """The view a touch-screen game opens at: the whole board when its cells
    are then at least ``whole_px`` pixels (at most ``cell_px``, centred),
    else ``cell_px`` pixels per cell around ``focus`` (drawn cell units;
    default the middle).  Pass ``whole_px`` as ``dp(MIN_WHOLE_DP)``; the
    replay player, only watched, accepts smaller cells.

    With 1 px a dp, a 56-dp cell size:

    >>> opening_view(9, 9, 360, 520, 56)               # Beginner on a 360-dp phone: whole at 40
    View(scale=40.0, center=(4.5, 4.5), fitted=True)
    >>> opening_view(9, 9, 800, 800, 56).scale         # fits at 56: centred at 56, not blown up
    56
    >>> opening_view(30, 16, 393, 700, 56).scale      # Expert in portrait (23 dp whole): 56
    56
    >>> opening_view(16, 16, 360, 520, 56).fitted      # Intermediate on a phone (22.5 dp whole): zoomed
    False
    >>> opening_view(16, 16, 360, 520, 40).scale       # ... at the cell size setting
    40
    """
    fit = fit_scale(drows, dcols, width, height)
    middle = (dcols / 2, drows / 2)
    if fit >= cell_px:
        return View(cell_px, middle, dcols * cell_px <= width and drows * cell_px <= height)
    if fit >= whole_px:
        return View(fit, middle, True)
    return View(cell_px, focus or middle, False)


MAX_VIEWS_BYTES = 1 << 20
"""Far more than the kept views of every board size need; a bigger file is not theirs."""


Key = tuple[int, int, bool, float]
"""A kept view's key: (rows, cols, transposed, cell size setting in dp)."""


class ZoomMemory:
    """The last zoom and position per board size (in dp and cell units), so
    the next game of the same size opens where the player left the last one.

    A view is kept under the cell size setting it was left at (the last part
    of its :data:`Key`) and recalled only under that setting: a view kept at
    56 dp never opens a game after the player chose 72 dp.

    >>> m = ZoomMemory(); m.remember((50, 50, False, 56.0), 60.0, (10.5, 40.0), False)
    >>> ZoomMemory.from_json(m.to_json()).recall((50, 50, False, 56.0))
    (60.0, (10.5, 40.0), False)
    >>> m.recall((50, 50, False, 72.0)) is None       # another cell size: not this view
    True
    >>> ZoomMemory.from_json("not json").recall((50, 50, False, 56.0)) is None
    True
    """

    def __init__(self) -> None:
        self._views: dict[Key, tuple[float, tuple[float, float], bool]] = {}

    def remember(self, key: Key, scale_dp: float, center: tuple[float, float],
                 fitted: bool) -> None:
        """Keep the view of a board of ``key`` = (rows, cols, transposed, cell size)."""
        self._views[key] = (scale_dp, center, fitted)

    def recall(self, key: Key) -> tuple[float, tuple[float, float], bool] | None:
        """(scale in dp, centre, fitted) last used for this key, or None."""
        return self._views.get(key)

    def forget(self) -> None:
        """Drop every kept view (the cell size setting changed)."""
        self._views.clear()

    def __len__(self) -> int:
        return len(self._views)

    def to_json(self) -> str:
        """The kept views as JSON (for the app's data folder)."""
        return json.dumps([[r, c, t, cell, scale, cx, cy, fitted]
                           for (r, c, t, cell), (scale, (cx, cy), fitted) in sorted(self._views.items())])

    @classmethod
    def from_json(cls, text: str) -> ZoomMemory:
        """Views written by :meth:`to_json`; anything unreadable is dropped, and so
        are views kept without their cell size (older files: such a view is the
        one that overrode a changed setting).

        >>> ZoomMemory.from_json("[[9, 9, false, 56.0, 4.5, 4.5, false]]")._views
        {}
        """
        memory = cls()
        try:
            rows = json.loads(text)
        except (ValueError, RecursionError):    # json nests a call per level: ours has two
            return memory
        if not isinstance(rows, list):
            return memory
        for row in rows:
            try:
                r, c, t, cell, scale, cx, cy, fitted = row
                key = (int(r), int(c), bool(t), float(cell))
                view = (float(scale), (float(cx), float(cy)), bool(fitted))
            except (TypeError, ValueError, OverflowError):   # float(10**400): OverflowError
                continue
            numbers = (key[3], view[0], *view[1])
            if key[0] > 0 and key[1] > 0 and all(map(math.isfinite, numbers)) and view[0] > 0:
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
