"""A tiny anti-aliased painter over numpy, for drawing the tile atlas.

Shapes are signed distance functions evaluated once per pixel (no
supersampling): coverage is ``clip(0.5 - distance_in_pixels, 0, 1)``, which
gives clean edges at any tile size in a few milliseconds.  Coordinates are in
tile units: ``(0, 0)`` is the top-left corner, ``(1, 1)`` the bottom-right.

>>> p = Painter(16)
>>> p.fill(circle(0.5, 0.5, 0.4), (1, 0, 0, 1))
>>> rgba = p.to_rgba8()
>>> rgba.shape, int(rgba[8, 8, 0]), int(rgba[0, 0, 3])
((16, 16, 4), 255, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

SDF = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A shape: (x, y) arrays in tile units -> signed distance (negative inside)."""

Box = tuple[float, float, float, float]
"""(x0, y0, x1, y1) in tile units: a shape's distance is at least its distance to this box."""

Key = tuple[object, ...]
"""What identifies a shape: its kind and its numbers (equal for equal shapes)."""

Mask = tuple[np.ndarray, tuple[int, int]]
"""A shape's coverage near its box and the pixel (row, column) of its top-left corner."""

Grid = tuple[np.ndarray, np.ndarray]
"""The x and y coordinates of a canvas's pixel centres, in tile units."""

MaskCache = dict[Key, "Mask | Grid"]
"""What painters share: ``("grid", size)`` -> :data:`Grid`, ``(shape.key, size)`` -> :data:`Mask`."""


class Shape:
    """A shape's distance function with what makes drawing it cheap: ``box``, the
    part of the tile it can cover, and ``key``, equal for equal shapes.

    Calling it evaluates the distance, like any :data:`SDF`.  A :class:`Painter`
    evaluates it only over the pixels near ``box`` (elsewhere the coverage is 0,
    and painting 0 leaves a pixel exactly as it was) and once per ``key``
    (the same background is under most tiles).
    """

    __slots__ = ("box", "key", "sdf")

    def __init__(self, sdf: SDF, box: Box, key: Key) -> None:
        self.sdf = sdf
        self.box = box
        self.key = key

    def __call__(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return self.sdf(x, y)


def circle(cx: float, cy: float, r: float) -> Shape:
    """A disc of radius ``r`` centred on ``(cx, cy)``."""
    return Shape(lambda x, y: np.hypot(x - cx, y - cy) - r, (cx - r, cy - r, cx + r, cy + r),
                 ("circle", cx, cy, r))


def ring(cx: float, cy: float, r: float, width: float) -> Shape:
    """A circle outline of radius ``r`` and stroke ``width``."""
    o = r + width / 2
    return Shape(lambda x, y: np.abs(np.hypot(x - cx, y - cy) - r) - width / 2,
                 (cx - o, cy - o, cx + o, cy + o), ("ring", cx, cy, r, width))


def rect(x0: float, y0: float, x1: float, y1: float, radius: float = 0.0) -> Shape:
    """An axis-aligned rectangle with corners rounded by ``radius``."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - radius, (y1 - y0) / 2 - radius

    def sdf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        qx = np.abs(x - cx) - hx
        qy = np.abs(y - cy) - hy
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
        inside = np.minimum(np.maximum(qx, qy), 0)
        return outside + inside - radius

    return Shape(sdf, (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)),
                 ("rect", x0, y0, x1, y1, radius))


def segment(x0: float, y0: float, x1: float, y1: float, width: float) -> Shape:
    """A straight stroke with round caps."""
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy or 1e-12

    def sdf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        t = np.clip(((x - x0) * dx + (y - y0) * dy) / ll, 0, 1)
        return np.hypot(x - x0 - t * dx, y - y0 - t * dy) - width / 2

    h = width / 2
    return Shape(sdf, (min(x0, x1) - h, min(y0, y1) - h, max(x0, x1) + h, max(y0, y1) + h),
                 ("segment", x0, y0, x1, y1, width))


def polygon(points: Sequence[tuple[float, float]]) -> Shape:
    """A simple polygon (any winding)."""
    pts = np.asarray(points, float)

    def sdf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        d = np.full(x.shape, np.inf)
        inside = np.zeros(x.shape, bool)
        n = len(pts)
        for i in range(n):
            ax, ay = pts[i]
            bx, by = pts[(i + 1) % n]
            ex, ey = bx - ax, by - ay
            t = np.clip(((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey), 0, 1)
            d = np.minimum(d, np.hypot(x - ax - t * ex, y - ay - t * ey))
            crosses = ((ay > y) != (by > y)) & (x < ax + (y - ay) * ex / (ey or 1e-12))
            inside ^= crosses
        return np.where(inside, -d, d)

    xs, ys = pts[:, 0], pts[:, 1]
    return Shape(sdf, (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())),
                 ("polygon", *(tuple(map(float, p)) for p in pts)))


def union(*shapes: Shape) -> Shape:
    """Every point inside any of ``shapes``."""
    def sdf(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        nearest: np.ndarray = np.minimum.reduce([s(x, y) for s in shapes])
        return nearest
    boxes = [s.box for s in shapes]
    box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
           max(b[2] for b in boxes), max(b[3] for b in boxes))
    return Shape(sdf, box, ("union", *(s.key for s in shapes)))


def subtract(shape: Shape, hole: Shape) -> Shape:
    """``shape`` with ``hole`` cut out."""
    return Shape(lambda x, y: np.maximum(shape(x, y), -hole(x, y)), shape.box,
                 ("subtract", shape.key, hole.key))


MARGIN = 2
"""Pixels drawn around a shape's box: beyond half a pixel from it the coverage is 0."""


class Painter:
    """An RGBA canvas of ``size`` x ``size`` pixels, premultiplied floats.

    ``cache`` keeps the pixel grid and the coverage of each shape drawn (by
    its key and the size): painters that share it (the tiles of an atlas)
    draw a shape seen before without evaluating it again.
    """

    def __init__(self, size: int, background: Sequence[float] | None = None,
                 cache: MaskCache | None = None) -> None:
        self.size = size
        self.img = np.zeros((size, size, 4), np.float32)
        self._masks: MaskCache = {} if cache is None else cache
        # the key says which kind of value it holds
        grid = cast("Grid | None", self._masks.get(("grid", size)))
        if grid is None:
            c = (np.arange(size, dtype=np.float32) + 0.5) / size
            gx, gy = np.meshgrid(c, c)
            grid = self._masks[("grid", size)] = (gx, gy)
        self._x: np.ndarray = grid[0]
        self._y: np.ndarray = grid[1]
        if background is not None:
            self.img[...] = _premul(background)

    def coverage(self, shape: SDF) -> np.ndarray:
        """Per-pixel coverage (0..1) of ``shape``."""
        return np.clip(0.5 - shape(self._x, self._y) * self.size, 0.0, 1.0)

    def _window(self, box: Box) -> tuple[slice, slice]:
        """The rows and columns of pixels whose centres are within :data:`MARGIN`
        pixels of ``box`` (the coverage is 0 at every other pixel)."""
        s = self.size
        x0, y0, x1, y1 = box
        cols = slice(max(0, int(np.floor(x0 * s)) - MARGIN), min(s, int(np.ceil(x1 * s)) + MARGIN))
        rows = slice(max(0, int(np.floor(y0 * s)) - MARGIN), min(s, int(np.ceil(y1 * s)) + MARGIN))
        return rows, cols

    def _boxed_coverage(self, shape: Shape) -> tuple[np.ndarray, tuple[int, int]]:
        """The coverage of ``shape`` over the pixels near its box, and the
        pixel of its top-left corner; each value is what :meth:`coverage`
        gives there (the same operations on the same numbers)."""
        key = (shape.key, self.size)
        found = cast("Mask | None", self._masks.get(key))  # the key says it is a Mask
        if found is None:
            rows, cols = self._window(shape.box)
            x, y = self._x[rows, cols], self._y[rows, cols]
            alpha = np.clip(0.5 - shape(x, y) * self.size, 0.0, 1.0)
            found = self._masks[key] = (alpha, (rows.start, cols.start))
        return found

    def fill(self, shape: SDF, color: Sequence[float]) -> None:
        """Paint ``shape`` in ``color`` over what is there."""
        if isinstance(shape, Shape):
            alpha, at = self._boxed_coverage(shape)
            self.paint(alpha, color, at=at)
        else:
            self.paint(self.coverage(shape), color)

    def paint(self, alpha: np.ndarray, color: Sequence[float], at: tuple[int, int] = (0, 0)) -> None:
        """Composite an alpha mask (h, w) in ``color`` with its top-left at pixel ``at``."""
        y0, x0 = at
        h, w = alpha.shape
        # clip the mask to the canvas
        sy0, sx0 = max(0, -y0), max(0, -x0)
        y0, x0 = max(0, y0), max(0, x0)
        h = min(h - sy0, self.size - y0)
        w = min(w - sx0, self.size - x0)
        if h <= 0 or w <= 0:
            return
        a = (alpha[sy0:sy0 + h, sx0:sx0 + w] * color[3])[..., None].astype(np.float32)
        src = np.array([color[0], color[1], color[2], 1.0], np.float32)
        dst = self.img[y0:y0 + h, x0:x0 + w]
        dst *= 1.0 - a
        dst += a * src

    def gradient(self, shape: SDF, top: Sequence[float], bottom: Sequence[float]) -> None:
        """Fill ``shape`` with a vertical gradient from ``top`` to ``bottom``."""
        if isinstance(shape, Shape):
            cov, (y0, x0) = self._boxed_coverage(shape)
        else:
            cov, y0, x0 = self.coverage(shape), 0, 0
        h, w = cov.shape
        img = self.img[y0:y0 + h, x0:x0 + w]
        t = self._y[y0:y0 + h, x0:x0 + w, None]
        col = np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t
        a = cov[..., None] * col[..., 3:4]
        img *= 1.0 - a
        img[..., :3] += a * col[..., :3]
        img[..., 3:4] += a

    def to_rgba8(self) -> np.ndarray:
        """Straight-alpha uint8 RGBA, top row first."""
        a = self.img[..., 3:4]
        # the colour over alpha where there is any, else 0: divided by 1 there and
        # multiplied by 0 (a masked divide did the same division, three times slower)
        seen = a > 1e-6
        out = self.img / np.where(seen, a, np.float32(1))
        out *= seen
        out[..., 3:4] = a
        # then clipped and scaled in place, the same operations step by step
        np.clip(out, 0, 1, out=out)
        out *= 255
        out += 0.5
        return out.astype(np.uint8)


def _premul(c: Sequence[float]) -> np.ndarray:
    return np.array([c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]], np.float32)


def mix(a: Sequence[float], b: Sequence[float], t: float) -> tuple[float, float, float, float]:
    """Linear blend of two RGBA colours (``t=0`` gives ``a``)."""
    r, g, bl, al = (float(a[i] * (1 - t) + b[i] * t) for i in range(4))
    return r, g, bl, al
