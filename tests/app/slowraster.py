"""The tile painter as it was before shapes carried boxes and keys: every fill
evaluates its shape over the whole tile, nothing is kept between fills or
tiles.  A slow, obviously correct reference for :mod:`fastmine.app.board.raster`
(``test_app_atlas_drawing`` checks the fast painter gives the same pixels).
The one change: :class:`Painter` accepts the ``cache`` keyword and ignores it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

SDF = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""A shape: (x, y) arrays in tile units -> signed distance (negative inside)."""


def circle(cx: float, cy: float, r: float) -> SDF:
    """A disc of radius ``r`` centred on ``(cx, cy)``."""
    return lambda x, y: np.hypot(x - cx, y - cy) - r


def ring(cx: float, cy: float, r: float, width: float) -> SDF:
    """A circle outline of radius ``r`` and stroke ``width``."""
    return lambda x, y: np.abs(np.hypot(x - cx, y - cy) - r) - width / 2


def rect(x0: float, y0: float, x1: float, y1: float, radius: float = 0.0) -> SDF:
    """An axis-aligned rectangle with corners rounded by ``radius``."""
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = (x1 - x0) / 2 - radius, (y1 - y0) / 2 - radius

    def sdf(x, y):
        qx = np.abs(x - cx) - hx
        qy = np.abs(y - cy) - hy
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
        inside = np.minimum(np.maximum(qx, qy), 0)
        return outside + inside - radius

    return sdf


def segment(x0: float, y0: float, x1: float, y1: float, width: float) -> SDF:
    """A straight stroke with round caps."""
    dx, dy = x1 - x0, y1 - y0
    ll = dx * dx + dy * dy or 1e-12

    def sdf(x, y):
        t = np.clip(((x - x0) * dx + (y - y0) * dy) / ll, 0, 1)
        return np.hypot(x - x0 - t * dx, y - y0 - t * dy) - width / 2

    return sdf


def polygon(points: Sequence[tuple[float, float]]) -> SDF:
    """A simple polygon (any winding)."""
    pts = np.asarray(points, float)

    def sdf(x, y):
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

    return sdf


def union(*shapes: SDF) -> SDF:
    """Every point inside any of ``shapes``."""
    def sdf(x, y):
        return np.minimum.reduce([s(x, y) for s in shapes])
    return sdf


def subtract(shape: SDF, hole: SDF) -> SDF:
    """``shape`` with ``hole`` cut out."""
    return lambda x, y: np.maximum(shape(x, y), -hole(x, y))


class Painter:
    """An RGBA canvas of ``size`` x ``size`` pixels, premultiplied floats."""

    def __init__(self, size: int, background: Sequence[float] | None = None,
                 cache: dict | None = None) -> None:
        self.size = size
        self.img = np.zeros((size, size, 4), np.float32)
        c = (np.arange(size, dtype=np.float32) + 0.5) / size
        self._x, self._y = np.meshgrid(c, c)
        if background is not None:
            self.img[...] = _premul(background)

    def coverage(self, shape: SDF) -> np.ndarray:
        """Per-pixel coverage (0..1) of ``shape``."""
        return np.clip(0.5 - shape(self._x, self._y) * self.size, 0.0, 1.0)

    def fill(self, shape: SDF, color: Sequence[float]) -> None:
        """Paint ``shape`` in ``color`` over what is there."""
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
        cov = self.coverage(shape)
        t = self._y[..., None]
        col = np.asarray(top, np.float32) * (1 - t) + np.asarray(bottom, np.float32) * t
        a = cov[..., None] * col[..., 3:4]
        self.img *= 1.0 - a
        self.img[..., :3] += a * col[..., :3]
        self.img[..., 3:4] += a

    def to_rgba8(self) -> np.ndarray:
        """Straight-alpha uint8 RGBA, top row first."""
        a = self.img[..., 3:4]
        rgb = np.divide(self.img[..., :3], a, out=np.zeros_like(self.img[..., :3]), where=a > 1e-6)
        out = np.concatenate([rgb, a], axis=2)
        return (np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8)


def _premul(c: Sequence[float]) -> np.ndarray:
    return np.array([c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]], np.float32)


def mix(a: Sequence[float], b: Sequence[float], t: float) -> tuple[float, float, float, float]:
    """Linear blend of two RGBA colours (``t=0`` gives ``a``)."""
    return tuple(float(a[i] * (1 - t) + b[i] * t) for i in range(4))  # type: ignore[return-value]
