"""Memory that comes back: a screen the player left is released once the game
is shown again, and opened again it is built again, looking as it did.

Every screen but the game's (``screenloader.SCREENS``) is opened as a player
opens it (``firstopened.open_target``: the Main menu's entries, Progress
straight, the replay player on a game's replay), then left with the back key.
Its widgets and the textures its labels drew must then be freed: no weak
reference to them survives a garbage collection, and the manager no longer has
the screen.  Opened again, it is a new screen whose pixels are those of the
first one.  Structure only: no memory size is asserted (machines differ).
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

pytest.importorskip("kivy")

import firstopened  # noqa: E402

from fastmine.app.screens import screenloader  # noqa: E402

SCREENS = sorted(screenloader.SCREENS)


def _drawn(screen) -> tuple[list[weakref.ref], list[weakref.ref]]:
    """Weak references to the widgets of ``screen`` and to the textures they draw
    of their own (their labels' words: made from no file), not the images every
    screen shares (Kivy's white texture, its theme's atlas, kept by Kivy's cache)."""
    from kivy.graphics.instructions import InstructionGroup

    widgets, textures, seen = [], [], set()
    for w in screen.walk(restrict=True):
        widgets.append(weakref.ref(w))
        groups = [c for c in (w.canvas.before, w.canvas, w.canvas.after) if c is not None]
        while groups:
            for ins in groups.pop().children:
                t = getattr(ins, "texture", None)
                # a region's repr shows the texture it is part of: from a file or not
                if t is not None and id(t) not in seen and "source='" not in repr(t):
                    seen.add(id(t))
                    textures.append(weakref.ref(t))
                if isinstance(ins, InstructionGroup):
                    groups.append(ins)
    return widgets, textures


def _back_to_game(drv) -> None:
    drv.key(27)  # escape / Android's back: every screen goes back towards the game
    drv.frames(5)
    if drv.app.root.current != "game":  # Progress goes back to Records first
        drv.key(27)
        drv.frames(5)
    assert drv.app.root.current == "game"
    drv.frames(3)


@pytest.mark.parametrize("target", SCREENS)
def test_a_screen_left_is_released_with_its_textures(drv, target):
    firstopened.open_target(drv, target)
    screen = drv.app.root.get_screen(target)
    widgets, textures = _drawn(screen)
    assert len(widgets) > 3 and textures, f"{target} draws nothing to check"
    ref = weakref.ref(screen)
    del screen
    _back_to_game(drv)
    gc.collect()
    assert not drv.app.root.has_screen(target), f"{target} is still in the screen manager"
    assert ref() is None, f"{target} is still referenced after the player left it"
    alive = [type(w()).__name__ for w in widgets if w() is not None]
    assert not alive, f"{target}: {len(alive)} widgets still alive: {sorted(set(alive))[:8]}"
    # OpenGL's names of what the game screen draws too (a region shares its texture's)
    shared = {t().id for t in _drawn(drv.app.game_screen)[1] if t() is not None}
    shared.add(drv.app.atlas.texture.id)  # the tiles: the replay player draws them too
    kept = [t() for t in textures if t() is not None and t().id not in shared]
    assert not kept, f"{target}: {len(kept)} textures still alive ({[t.size for t in kept][:5]})"


@pytest.mark.parametrize("target", SCREENS)
def test_a_screen_opened_again_is_built_again_the_same(drv, target):
    firstopened.open_target(drv, target)
    drv.app.root.get_screen(target).opened_before = True  # a mark on this screen object
    first = drv.pixels()
    _back_to_game(drv)
    firstopened.open_target(drv, target)
    again = drv.app.root.get_screen(target)
    assert not getattr(again, "opened_before", False), f"{target} was kept, not built again"
    pixels = drv.pixels()
    assert pixels.shape == first.shape
    differ = np.any(pixels != first, axis=2)
    assert not differ.any(), f"{target} opened again differs in {int(differ.sum())} pixels"
