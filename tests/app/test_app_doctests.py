"""The examples in the app modules' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

pytest.importorskip("kivy")

MODULES = ["raster", "theme", "tiles", "sounds", "store", "dialogs", "screens", "settings", "viewport",
           "chart", "statsscreen", "livecoach",
           "assist", "controls", "haptics"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name, kivy_window):
    mod = importlib.import_module(f"fastmine.app.{name}")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_atlas_tiles_are_distinct_and_opaque(kivy_window):

    from fastmine.app import theme, tiles

    for th in (theme.LIGHT, theme.DARK):
        img = tiles.Atlas.for_theme(th).image
        seen = set()
        for t in range(tiles.N_TILES):
            x, y, w, h = tiles.tile_rect(t)
            top = tiles.ATLAS - (y + h)
            tile = img[top:top + h, x:x + w]
            seen.add(tile.tobytes())
            if t < tiles.FACE_READY:  # board tiles cover their cell completely
                assert tile[..., 3].min() == 255, f"tile {t} has see-through pixels"
        assert len(seen) == tiles.N_TILES  # every tile looks different
