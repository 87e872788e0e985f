"""The tile atlas: every cell picture and icon, drawn by the project at startup.

Nothing is downloaded or shipped: :func:`draw_atlas` paints the tiles with
:mod:`.raster` (numbers and ``?`` come from Kivy's own Roboto through
:func:`kivy_text_mask`) into one RGBA image of 8 x 8 slots, and
:func:`make_texture` uploads it as a mipmapped texture.  Each slot has a
border of repeated edge pixels so neither filtering nor mipmaps bleed one
tile into the next.

Tile ids are small ints; :data:`VIEW_TILE` maps a game view code to its tile.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypedDict

import numpy as np

from fastmine.viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG

from . import raster as raster_module
from .raster import MaskCache, Painter, circle, mix, polygon, rect, ring, segment, subtract, union
from .theme import RGBA, Theme

TILE = 112  # drawn pixels per tile
PAD = 8  # repeated-edge border around each tile in its slot
SLOT = TILE + 2 * PAD
GRID = 8  # slots per atlas row and column
ATLAS = SLOT * GRID  # 1024: a power of two, so mipmaps work everywhere

# ---- tile ids: 0..8 are revealed numbers
HIDDEN_T = 9
FLAG_T = 10
QUESTION_T = 11
MINE_T = 12
EXPLODED_T = 13
WRONG_FLAG_T = 14
PRESSED_T = 15
HINT_T = 16
PROB_T = 17  # PROB_T + level, level 0..PROB_LEVELS-1 (see prob_level)
PROB_LEVELS = 12
FACE_READY = PROB_T + PROB_LEVELS  # 29
FACE_WON = FACE_READY + 1
FACE_LOST = FACE_READY + 2
ICON_PAUSE = FACE_READY + 3
ICON_PLAY = FACE_READY + 4
ICON_FLAG = FACE_READY + 5
ICON_DIG = FACE_READY + 6  # "tap reveals": the flag-mode button when flag mode is off
ICON_FIT = FACE_READY + 7  # "fit whole board"
ICON_ZOOM = FACE_READY + 8  # "zoom in to the cell size"
ICON_MENU = FACE_READY + 9  # three bars
N_TILES = ICON_MENU + 1

VIEW_TILE = np.zeros(256, np.int16)
"""``VIEW_TILE[view.view(np.uint8)]`` is the tile of each cell of a game view."""
VIEW_TILE[:9] = np.arange(9)
for _code, _tile in ((HIDDEN, HIDDEN_T), (FLAG, FLAG_T), (QUESTION, QUESTION_T), (MINE, MINE_T),
                     (EXPLODED, EXPLODED_T), (WRONG_FLAG, WRONG_FLAG_T)):
    VIEW_TILE[_code & 0xFF] = _tile

TextMask = Callable[[str, int], np.ndarray]
"""(text, pixel height of a digit) -> tight float alpha mask (h, w), top row first."""


def prob_level(p: np.ndarray) -> np.ndarray:
    """Overlay level of mine probabilities: 0 for certainly safe, 11 for a
    certain mine, 1..10 for ten equal bins in between.

    >>> prob_level(np.array([0.0, 1e-9, 0.1, 0.55, 1.0])).tolist()
    [0, 1, 1, 6, 11]
    """
    p = np.asarray(p, float)
    lv: np.ndarray = np.clip(np.ceil(p * 10), 1, 10).astype(np.int16)
    lv[p <= 0] = 0
    lv[p >= 1] = PROB_LEVELS - 1
    return lv


TILE_FONT = "fastmine-tiles"
"""Kivy's own Roboto under a name of the atlas's: the app's default font changes with
the language (a CJK font for Chinese and Japanese, with other digits and no bold),
and the atlas, cached on disk across languages, must not."""


def kivy_text_mask(text: str, height: int) -> np.ndarray:
    """Render ``text`` in Kivy's own bold Roboto (whatever the language's font);
    needs a GL window."""
    import kivy
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text import LabelBase

    if TILE_FONT not in LabelBase._fonts:  # noqa: SLF001 - Kivy keeps its registered fonts here
        fonts = os.path.join(kivy.kivy_data_dir, "fonts")
        LabelBase.register(TILE_FONT, *(os.path.join(fonts, f"Roboto-{style}.ttf") for style in
                                        ("Regular", "Italic", "Bold", "BoldItalic")))
    label = CoreLabel(text=text, font_size=height / 0.72, font_name=TILE_FONT, bold=True)
    label.refresh()
    tex = label.texture
    px = np.frombuffer(tex.pixels, np.uint8).reshape(tex.height, tex.width, 4)
    a: np.ndarray = px[..., 3].astype(np.float32) / 255  # label textures are stored top row first
    ys, xs = np.nonzero(a > 0.02)
    if len(ys) == 0:
        return a
    return a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


# ------------------------------------------------------------------ tiles


class TileMemo(TypedDict, total=False):
    """What the tiles of one theme have in common, kept while they are drawn."""

    masks: MaskCache
    """The painters' shapes (:class:`.raster.Painter`'s ``cache``)."""
    revealed: np.ndarray
    """The canvas of a revealed cell's background."""
    hidden: np.ndarray
    """The canvas of a hidden cell's background."""


def _from_memo(p: Painter, memo: TileMemo | None, key: Literal["revealed", "hidden"],
               draw: Callable[[], None]) -> None:
    """Draw on the fresh canvas ``p`` what ``draw`` draws, or copy it from ``memo``
    (the revealed and hidden backgrounds are under most tiles of an atlas)."""
    if memo is None:
        draw()
        return
    kept = memo.get(key)
    if kept is None:
        draw()
        memo[key] = p.img.copy()
    else:
        p.img[...] = kept


def _hidden(p: Painter, t: Theme, body: RGBA | None = None) -> None:
    m = 0.035
    p.fill(rect(0, 0, 1, 1), t.board_bg)
    p.fill(rect(m, m + 0.02, 1 - m, 1 - m, 0.15), t.hidden_dark)
    body = body or t.hidden
    light = mix(body, t.hidden_light, 0.7) if body is not t.hidden else t.hidden_light
    p.gradient(rect(m, m, 1 - m, 1 - m - 0.05, 0.15), light, body)


def _revealed(p: Painter, t: Theme, bg: RGBA | None = None) -> None:
    p.fill(rect(0, 0, 1, 1), bg or t.revealed)
    w = 0.022
    edge = t.revealed_edge
    p.fill(union(rect(0, 0, 1, w), rect(0, 0, w, 1), rect(0, 1 - w, 1, 1), rect(1 - w, 0, 1, 1)), edge)


def _glyph(p: Painter, mask: np.ndarray, color: Sequence[float], cy: float = 0.5) -> None:
    h, w = mask.shape
    top = int(round(cy * p.size - h / 2))
    left = int(round(p.size / 2 - w / 2))
    p.paint(mask, color, at=(top, left))


def _mine(p: Painter, t: Theme, alpha: float = 1.0) -> None:
    c = (*t.mine[:3], t.mine[3] * alpha)
    spikes = []
    for k in range(4):
        a = k * np.pi / 4
        dx, dy = 0.33 * np.cos(a), 0.33 * np.sin(a)
        spikes.append(segment(0.5 - dx, 0.5 - dy, 0.5 + dx, 0.5 + dy, 0.07))
    p.fill(union(circle(0.5, 0.5, 0.23), *spikes), c)
    shine = (1.0, 1.0, 1.0, 0.85 * alpha) if t.is_light else (0.1, 0.1, 0.12, 0.8 * alpha)
    p.fill(circle(0.43, 0.43, 0.06), shine)


def _flag(p: Painter, flag_color: RGBA, pole_color: RGBA) -> None:
    p.fill(segment(0.6, 0.16, 0.6, 0.76, 0.07), pole_color)
    p.fill(rect(0.32, 0.72, 0.8, 0.82, 0.035), pole_color)
    p.fill(polygon([(0.64, 0.12), (0.64, 0.52), (0.18, 0.32)]), flag_color)


def _cross(p: Painter, color: RGBA, r: float = 0.3, w: float = 0.08) -> None:
    p.fill(union(segment(0.5 - r, 0.5 - r, 0.5 + r, 0.5 + r, w),
                 segment(0.5 - r, 0.5 + r, 0.5 + r, 0.5 - r, w)), color)


def _face(p: Painter, kind: str) -> None:
    yellow, ink = (1.0, 0.82, 0.25, 1.0), (0.12, 0.12, 0.14, 1.0)
    p.fill(circle(0.5, 0.5, 0.44), ink)
    p.fill(circle(0.5, 0.5, 0.39), yellow)
    if kind == "won":
        p.fill(union(rect(0.22, 0.34, 0.46, 0.48, 0.05), rect(0.54, 0.34, 0.78, 0.48, 0.05),
                     segment(0.2, 0.37, 0.8, 0.37, 0.04)), ink)
    elif kind == "lost":
        for cx in (0.35, 0.65):
            p.fill(union(segment(cx - 0.07, 0.33, cx + 0.07, 0.47, 0.045),
                         segment(cx - 0.07, 0.47, cx + 0.07, 0.33, 0.045)), ink)
    else:
        p.fill(union(circle(0.36, 0.4, 0.055), circle(0.64, 0.4, 0.055)), ink)
    if kind == "lost":  # frown: the top half of a ring
        arc = subtract(ring(0.5, 0.78, 0.16, 0.05), rect(0, 0.76, 1, 1))
    else:  # smile: the bottom half of a ring
        arc = subtract(ring(0.5, 0.54, 0.2, 0.05), rect(0, 0, 1, 0.58))
    p.fill(arc, ink)


def draw_tile(tile: int, theme: Theme, text_mask: TextMask, size: int = TILE,
              memo: TileMemo | None = None) -> np.ndarray:
    """The RGBA uint8 image (size, size, 4) of one tile, top row first.

    ``memo``, shared by the tiles of one theme, keeps what they have in common
    (shapes' coverage, backgrounds): they are drawn once, the pixels unchanged."""
    t = theme
    p = Painter(size, cache=None if memo is None else memo.setdefault("masks", {}))
    white = (1.0, 1.0, 1.0, 1.0)

    def revealed() -> None:
        _from_memo(p, memo, "revealed", lambda: _revealed(p, t))

    def hidden() -> None:
        _from_memo(p, memo, "hidden", lambda: _hidden(p, t))

    if tile <= 8:
        revealed()
        if tile:
            _glyph(p, text_mask(str(tile), int(size * 0.5)), t.numbers[tile - 1])
    elif tile == HIDDEN_T:
        hidden()
    elif tile == FLAG_T:
        hidden()
        _flag(p, t.flag, t.pole)
    elif tile == QUESTION_T:
        hidden()
        _glyph(p, text_mask("?", int(size * 0.48)), t.question, cy=0.48)
    elif tile == MINE_T:
        revealed()
        _mine(p, t)
    elif tile == EXPLODED_T:
        _revealed(p, t, bg=t.exploded_bg)
        _mine(p, t if t.is_light else _with_mine(t, (0.08, 0.08, 0.1, 1.0)))
    elif tile == WRONG_FLAG_T:
        revealed()
        _mine(p, t, alpha=0.35)
        _cross(p, t.flag)
    elif tile == PRESSED_T:
        _revealed(p, t, bg=mix(t.revealed, t.hidden, 0.25))
    elif tile == HINT_T:
        _hidden(p, t, body=mix(t.hidden, t.hint, 0.35))
        p.fill(ring(0.5, 0.47, 0.25, 0.085), t.hint)
    elif PROB_T <= tile < PROB_T + PROB_LEVELS:
        level = tile - PROB_T
        _hidden(p, t, body=mix(t.hidden, _prob_color(t, level), 0.62))
        if level == 0:  # certainly safe: a small dot, so it reads without colour too
            p.fill(circle(0.5, 0.47, 0.09), (1.0, 1.0, 1.0, 0.9))
        elif level == PROB_LEVELS - 1:  # certain mine: a small cross
            _cross(p, (1.0, 1.0, 1.0, 0.9), r=0.12, w=0.07)
    elif tile in (FACE_READY, FACE_WON, FACE_LOST):
        _face(p, {FACE_READY: "ready", FACE_WON: "won", FACE_LOST: "lost"}[tile])
    elif tile == ICON_PAUSE:
        p.fill(union(rect(0.28, 0.22, 0.43, 0.78, 0.04), rect(0.57, 0.22, 0.72, 0.78, 0.04)), white)
    elif tile == ICON_PLAY:
        p.fill(polygon([(0.3, 0.2), (0.3, 0.8), (0.8, 0.5)]), white)
    elif tile == ICON_FLAG:
        _flag(p, white, white)
    elif tile == ICON_DIG:  # a shovel: "a tap digs" (flag mode off)
        p.fill(union(segment(0.22, 0.22, 0.56, 0.56, 0.08), segment(0.12, 0.3, 0.3, 0.12, 0.08),
                     polygon([(0.5, 0.66), (0.66, 0.5), (0.86, 0.7), (0.88, 0.88), (0.7, 0.86)])),
               white)
    elif tile == ICON_FIT:  # four corners pointing out
        k, w = 0.2, 0.08
        for x, y, dx, dy in ((0.18, 0.18, 1, 1), (0.82, 0.18, -1, 1), (0.18, 0.82, 1, -1),
                             (0.82, 0.82, -1, -1)):
            p.fill(union(segment(x, y, x + dx * k, y, w), segment(x, y, x, y + dy * k, w),
                         segment(x, y, x + dx * 0.17, y + dy * 0.17, w)), white)
    elif tile == ICON_ZOOM:  # a magnifier with a plus
        p.fill(union(ring(0.42, 0.42, 0.24, 0.08), segment(0.6, 0.6, 0.82, 0.82, 0.11),
                     segment(0.3, 0.42, 0.54, 0.42, 0.07), segment(0.42, 0.3, 0.42, 0.54, 0.07)), white)
    elif tile == ICON_MENU:
        p.fill(union(*(segment(0.24, y, 0.76, y, 0.085) for y in (0.3, 0.5, 0.7))), white)
    else:
        raise ValueError(f"unknown tile id {tile}")
    return p.to_rgba8()


def _with_mine(t: Theme, color: RGBA) -> Theme:
    from dataclasses import replace
    return replace(t, mine=color)


def _prob_color(t: Theme, level: int) -> RGBA:
    x = level / (PROB_LEVELS - 1)
    return mix(t.prob_safe, t.prob_mid, x * 2) if x <= 0.5 else mix(t.prob_mid, t.prob_mine, x * 2 - 1)


def draw_atlas(theme: Theme, text_mask: TextMask = kivy_text_mask) -> np.ndarray:
    """The whole atlas as an (ATLAS, ATLAS, 4) uint8 image, top row first."""
    atlas = np.zeros((ATLAS, ATLAS, 4), np.uint8)
    memo: TileMemo = {}
    for tile in range(N_TILES):
        img = np.pad(draw_tile(tile, theme, text_mask, memo=memo), ((PAD, PAD), (PAD, PAD), (0, 0)),
                     mode="edge")
        r, c = divmod(tile, GRID)
        atlas[r * SLOT:(r + 1) * SLOT, c * SLOT:(c + 1) * SLOT] = img
    return atlas


def tile_uvs() -> np.ndarray:
    """float32 (N_TILES, 4, 2): texture coords of each tile's corners in mesh
    vertex order (bottom-left, bottom-right, top-right, top-left)."""
    ids = np.arange(N_TILES)
    r, c = np.divmod(ids, GRID)
    u0 = (c * SLOT + PAD) / ATLAS
    u1 = (c * SLOT + PAD + TILE) / ATLAS
    vt = 1 - (r * SLOT + PAD) / ATLAS  # the image is flipped on upload: its top row is v=1
    vb = 1 - (r * SLOT + PAD + TILE) / ATLAS
    uv = np.stack([np.stack([u0, vb], 1), np.stack([u1, vb], 1),
                   np.stack([u1, vt], 1), np.stack([u0, vt], 1)], 1)
    return uv.astype(np.float32)


def tile_rect(tile: int) -> tuple[int, int, int, int]:
    """(x, y, w, h) of a tile in texture pixels, y from the bottom (for get_region)."""
    r, c = divmod(tile, GRID)
    return (c * SLOT + PAD, ATLAS - (r * SLOT + PAD + TILE), TILE, TILE)


def mipmap_levels(image: np.ndarray) -> list[np.ndarray]:
    """``image`` (h, w, 4) uint8 and its halvings down to 1x1, each pixel the
    rounded mean of the 2x2 it replaces (what ``glGenerateMipmap`` computes).

    >>> [lv.shape[:2] for lv in mipmap_levels(np.zeros((4, 4, 4), np.uint8))]
    [(4, 4), (2, 2), (1, 1)]
    >>> int(mipmap_levels(np.array([[[0] * 4, [255] * 4], [[0] * 4, [255] * 4]], np.uint8))[1][0, 0, 0])
    128
    """
    levels = [image]
    while levels[-1].shape[0] > 1 and levels[-1].shape[1] > 1:
        a = levels[-1]
        # the four corners of each 2x2 summed in place into one quarter-size
        # uint16 array: no widened copy of the whole level (and 5x faster than
        # a reshape and sum over two axes)
        s = a[0::2, 0::2].astype(np.uint16)
        s += a[1::2, 0::2]
        s += a[0::2, 1::2]
        s += a[1::2, 1::2]
        s += 2
        s //= 4
        levels.append(s.astype(np.uint8))
    return levels


def upload_levels(image: np.ndarray) -> list[np.ndarray]:
    """The mipmap levels :func:`make_texture` gives OpenGL for the atlas ``image``
    (top row first): its :func:`mipmap_levels` bottom row first, as OpenGL
    counts rows.  The tile cache keeps them, so a later start makes none."""
    return mipmap_levels(image[::-1])


def make_texture(image: np.ndarray | None, remake: Callable[[], np.ndarray] | None = None,
                 levels: Sequence[np.ndarray] | None = None) -> Any:
    """Upload an atlas image as a mipmapped Kivy texture (re-uploaded by
    itself if the GL context is lost, as on Android).

    Every mipmap level is computed here with numpy (:func:`mipmap_levels`) and
    defined with a ``glTexImage2D`` of its own, so the texture is complete
    without ``glGenerateMipmap``.  Kivy's ``mipmap=True`` is not used because its
    allocation fills the texture with zeros and runs ``glGenerateMipmap`` over
    them: with software OpenGL that cost 0.15 s of CPU and 6 MB at every start
    (0.2 s for this whole function, now 0.03 s).

    Parameters
    ----------
    image
        The atlas, (ATLAS, ATLAS, 4) uint8, top row first; None when ``levels``
        are given.
    remake
        Gives the image again when the OpenGL context is lost (as on Android)
        and the texture must be uploaded again; without it the texture keeps
        ``image`` for that.  The mipmap levels are always made again.
    levels
        The image's :func:`upload_levels` when they are at hand (read from the
        tile cache): uploaded as they are, nothing computed.

    Returns
    -------
    kivy.graphics.texture.Texture
        The mipmapped texture."""
    from kivy.graphics.opengl import (
        GL_RGBA,
        GL_TEXTURE_2D,
        GL_UNPACK_ALIGNMENT,
        GL_UNSIGNED_BYTE,
        glPixelStorei,
        glTexImage2D,
    )
    from kivy.graphics.texture import Texture

    def upload(tex: Any, pixels: np.ndarray | None, given: Sequence[np.ndarray] | None = None) -> None:
        tex.bind()
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4)  # rows of 4-byte pixels: never padded
        if given is None:
            assert pixels is not None
            given = upload_levels(pixels)
        for k, level in enumerate(given):
            glTexImage2D(GL_TEXTURE_2D, k, GL_RGBA, level.shape[1], level.shape[0], 0, GL_RGBA,
                         GL_UNSIGNED_BYTE, level.tobytes())

    if image is None and (levels is None or remake is None):
        raise ValueError("make_texture needs the image, or its levels and a way to make it again")
    tex = Texture.create(size=(ATLAS, ATLAS), colorfmt="rgba")
    upload(tex, image, levels)
    # Kivy holds a plain function strongly; a closure over ``image`` would keep it
    if remake is None:
        tex.add_reload_observer(lambda t, kept=image: upload(t, kept))
    else:
        tex.add_reload_observer(lambda t: upload(t, remake()))
    tex.min_filter = "linear_mipmap_linear"
    tex.mag_filter = "linear"
    return tex


class Atlas:
    """The uploaded atlas of one theme: ``texture``, ``uv`` and icon regions.

    Use :meth:`for_theme`: atlases are drawn once per theme per process.  Only
    the texture keeps the pixels (4 MB): :attr:`image` makes them again, from
    the tile cache when there is one, else by drawing.
    """

    _cache: dict[Theme, Atlas] = {}
    _unsaved: dict[str, np.ndarray] = {}  # drawn, to be kept on disk by save_drawn()

    def __init__(self, theme: Theme, text_mask: TextMask = kivy_text_mask,
                 image: np.ndarray | None = None, cache_path: str | None = None,
                 levels: Sequence[np.ndarray] | None = None) -> None:
        self.theme = theme
        self._text_mask = text_mask
        self._cache_path = cache_path
        # an image (or its upload levels) given is what draw_atlas(theme,
        # text_mask) draws (drawn, or read from the cache by for_theme): the
        # texture need not keep it
        if image is None and levels is None:
            image = self._pixels()
        self.texture = make_texture(image, remake=self._pixels, levels=levels)
        self.uv = tile_uvs()

    @property
    def image(self) -> np.ndarray:
        """The atlas's pixels, (ATLAS, ATLAS, 4) uint8, top row first, made again
        on each use (read from the tile cache, else drawn)."""
        return self._pixels()

    def _pixels(self) -> np.ndarray:
        if self._cache_path and os.path.exists(self._cache_path):
            image = _load_cache(self._cache_path)
            if image is not None:
                return image
        return draw_atlas(self.theme, self._text_mask)

    @classmethod
    def for_theme(cls, theme: Theme, cache_dir: str | None = None, save_later: bool = False) -> Atlas:
        """The atlas of ``theme``, drawn on first use.

        With ``cache_dir`` the drawn image is also kept on disk (a ``.npy``
        named after everything that shapes it), so later starts skip drawing;
        with ``save_later`` not now but at the next :meth:`save_drawn` (the
        app's first start writes it after its first frame).
        """
        if theme not in cls._cache:
            path = _cache_path(cache_dir, theme) if cache_dir else None
            # a later start: the levels as uploaded, none made (16 ms at each start)
            levels = _load_levels(path) if path and os.path.exists(path) else None
            if levels is not None:
                cls._cache[theme] = cls(theme, cache_path=path, levels=levels)
            else:
                image = draw_atlas(theme)
                cls._cache[theme] = cls(theme, image=image, cache_path=path)
                if path:
                    cls._unsaved[path] = image
                    if not save_later:
                        cls.save_drawn()
        return cls._cache[theme]

    @classmethod
    def save_drawn(cls) -> None:
        """Keep on disk the atlases drawn with ``save_later`` (and forget their pixels)."""
        while cls._unsaved:
            path, image = cls._unsaved.popitem()
            _save_cache(path, image)

    def region(self, tile: int) -> Any:
        """A Kivy TextureRegion showing one tile (for Image widgets)."""
        return self.texture.get_region(*tile_rect(tile))


def _cache_path(cache_dir: str, theme: Theme) -> str:
    import kivy

    key = hashlib.sha1()
    with open(__file__, "rb") as f:
        key.update(f.read())
    with open(raster_module.__file__, "rb") as f:
        key.update(f.read())
    key.update(repr(theme).encode())
    key.update(kivy.__version__.encode())
    return os.path.join(cache_dir, f"atlas-{theme.name}-{theme.palette}-{key.hexdigest()[:16]}.npy")


LEVEL_SIDES = tuple(ATLAS >> k for k in range(ATLAS.bit_length()))
"""The side of each mipmap level of the atlas, 1024 down to 1."""

_LEVELS_BYTES = sum(4 * side * side for side in LEVEL_SIDES)
"""The bytes of all the atlas's mipmap levels, as the tile cache keeps them."""

_CACHE_BYTES = _LEVELS_BYTES + 4096
"""The largest cache file read: the levels' bytes and a ``.npy`` header."""


def _load_levels(path: str) -> list[np.ndarray] | None:
    """The atlas's :func:`upload_levels` kept in ``path`` (read-only views of one
    buffer), or None if it is not a tile cache of ours (the atlas is drawn again).

    The file is one flat uint8 ``.npy`` array, the levels one after the other.
    It is read only if it is a regular file of at most :data:`_CACHE_BYTES`
    (a FIFO there held up the start for ever), and its header is checked before
    any array is made (a header claiming 200000 x 200000 x 4 asked for 149 GiB).
    """
    from numpy.lib import format as npy

    from fastmine.files.storage import read_regular_file

    try:
        data = read_regular_file(path, _CACHE_BYTES)
        buf = io.BytesIO(data)
        version = npy.read_magic(buf)
        read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, fortran, dtype = read_header(buf)
    except (OSError, ValueError):
        return None
    if shape != (_LEVELS_BYTES,) or fortran or dtype != np.dtype(np.uint8):
        return None
    start = buf.tell()
    if len(data) - start != _LEVELS_BYTES:
        return None
    flat = np.frombuffer(data, np.uint8, _LEVELS_BYTES, start)
    levels = []
    for side in LEVEL_SIDES:
        n = 4 * side * side
        levels.append(flat[:n].reshape(side, side, 4))
        flat = flat[n:]
    return levels


def _load_cache(path: str) -> np.ndarray | None:
    """The atlas image (top row first, a copy of its own) kept in ``path``, or
    None if it is not a tile cache of ours (see :func:`_load_levels`)."""
    levels = _load_levels(path)
    return None if levels is None else levels[0][::-1].copy()


def _save_cache(path: str, image: np.ndarray) -> None:
    from fastmine.files.storage import atomic_write_bytes

    buf = io.BytesIO()
    np.save(buf, np.concatenate([lv.ravel() for lv in upload_levels(image)]), allow_pickle=False)
    with contextlib.suppress(OSError):  # a cache only: drawing again next time is fine
        atomic_write_bytes(path, buf.getvalue())
