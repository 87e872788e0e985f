"""The tile atlas is drawn fast and exactly as before.

The painter evaluates a shape only near its box and once per atlas, and the
backgrounds most tiles share are drawn once: the pixels must not change.  The
reference is the painter as it was (:mod:`slowraster`: every fill over the
whole tile, nothing kept), driving the same tile drawing code.
"""

from __future__ import annotations

import numpy as np
import pytest
import slowraster  # tests/app's own reference, beside this file
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine.app.board import raster, tiles
from fastmine.app.board.theme import PALETTES, THEMES, get_theme

PAINTER_NAMES = ("Painter", "circle", "mix", "polygon", "rect", "ring", "segment", "subtract", "union")


def text_mask(text: str, height: int) -> np.ndarray:
    """A stand-in for Kivy's text (no window needed): a fixed mask per text and height."""
    seed = height * 1000 + sum(ord(ch) for ch in text)
    return np.random.default_rng(seed).random((height, max(1, height * 3 // 5) * len(text))).astype(
        np.float32)


def slow_tiles(theme, size: int = tiles.TILE) -> list[np.ndarray]:
    """Every tile as the old painter drew it: nothing shared between fills or tiles."""
    with pytest.MonkeyPatch.context() as mp:
        for name in PAINTER_NAMES:
            mp.setattr(tiles, name, getattr(slowraster, name))
        return [tiles.draw_tile(tile, theme, text_mask, size) for tile in range(tiles.N_TILES)]


def slow_atlas(theme) -> np.ndarray:
    """The atlas as the old code put it together."""
    atlas = np.zeros((tiles.ATLAS, tiles.ATLAS, 4), np.uint8)
    pad = tiles.PAD
    for tile, img in enumerate(slow_tiles(theme)):
        r, c = divmod(tile, tiles.GRID)
        atlas[r * tiles.SLOT:(r + 1) * tiles.SLOT, c * tiles.SLOT:(c + 1) * tiles.SLOT] = np.pad(
            img, ((pad, pad), (pad, pad), (0, 0)), mode="edge")
    return atlas


@pytest.mark.parametrize("palette", PALETTES)
@pytest.mark.parametrize("name", list(THEMES))
def test_atlas_pixels_are_the_old_ones(name: str, palette: str) -> None:
    theme = get_theme(name, palette)
    assert np.array_equal(tiles.draw_atlas(theme, text_mask), slow_atlas(theme))


@pytest.mark.parametrize("size", [16, 37, 64, 160])
@pytest.mark.parametrize("name", ["light", "dark"])
def test_tiles_are_the_old_ones_at_other_sizes(name: str, size: int) -> None:
    theme = get_theme(name, "standard")
    memo: dict = {}  # shared, as draw_atlas shares it
    fast = [tiles.draw_tile(tile, theme, text_mask, size, memo=memo) for tile in range(tiles.N_TILES)]
    for tile, (new, old) in enumerate(zip(fast, slow_tiles(theme, size), strict=True)):
        assert np.array_equal(new, old), f"tile {tile} differs at {size} px"


coord = st.floats(-0.4, 1.4, allow_nan=False)
small = st.floats(0.0, 0.6, allow_nan=False)
width = st.floats(0.005, 0.3, allow_nan=False)
point = st.tuples(coord, coord)


def no_empty_edge(points) -> bool:
    """A polygon whose every edge has a length (a zero-length one divides by 0)."""
    return all(np.hypot(ax - bx, ay - by) > 1e-3
               for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1], strict=True))


simple = st.one_of(
    st.tuples(st.just("circle"), coord, coord, small),
    st.tuples(st.just("ring"), coord, coord, small, width),
    st.tuples(st.just("rect"), coord, coord, coord, coord, st.floats(0.0, 0.1)),
    st.tuples(st.just("segment"), coord, coord, coord, coord, width).filter(
        lambda s: no_empty_edge([s[1:3], s[3:5]])),
    st.tuples(st.just("polygon"), st.lists(point, min_size=3, max_size=6).filter(no_empty_edge)),
)
shape_spec = st.one_of(
    simple,
    st.tuples(st.just("union"), st.lists(simple, min_size=1, max_size=3)),
    st.tuples(st.just("subtract"), simple, simple),
)
colour = st.tuples(*[st.floats(0.0, 1.0)] * 4)


def build(module, spec):
    """The shape ``spec`` describes, made by ``module`` (raster or slowraster)."""
    kind, *args = spec
    if kind == "union":
        return module.union(*(build(module, s) for s in args[0]))
    if kind == "subtract":
        return module.subtract(build(module, args[0]), build(module, args[1]))
    if kind == "rect" and (args[2] - args[0] < 2 * args[4] or args[3] - args[1] < 2 * args[4]):
        args[4] = 0.0  # a corner radius wider than the rectangle is no rectangle
    return getattr(module, kind)(*args)


# a polygon edge almost level overflows a division, alike in both painters
@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@settings(max_examples=150, deadline=None)
@given(size=st.integers(4, 140),
       strokes=st.lists(st.tuples(shape_spec, colour, st.booleans()), min_size=1, max_size=4),
       background=st.none() | colour, shared=st.booleans())
def test_any_shapes_paint_as_before(size, strokes, background, shared) -> None:
    cache: dict = {}
    fast = raster.Painter(size, background, cache=cache)
    slow = slowraster.Painter(size, background)
    for spec, col, as_gradient in strokes:
        for painter, module in ((fast, raster), (slow, slowraster)):
            shape = build(module, spec)
            if as_gradient:
                painter.gradient(shape, col, col[::-1])
            else:
                painter.fill(shape, col)
        if shared:  # a painter with the cache filled by the first draws the same
            fast = _continue(fast, cache)
    assert np.array_equal(fast.img, slow.img)
    assert np.array_equal(fast.to_rgba8(), slow.to_rgba8())


def _continue(painter, cache: dict):
    again = raster.Painter(painter.size, cache=cache)
    again.img[...] = painter.img
    return again


def test_a_shape_knows_its_box_and_key() -> None:
    a, b = raster.circle(0.5, 0.5, 0.25), raster.circle(0.5, 0.5, 0.25)
    assert a.key == b.key and a.box == (0.25, 0.25, 0.75, 0.75)
    assert raster.union(a, raster.rect(0.1, 0.2, 0.3, 0.9)).box == (0.1, 0.2, 0.75, 0.9)
    x = np.array([[0.5]], np.float32)
    assert float(a(x, x)[0, 0]) == pytest.approx(-0.25)
