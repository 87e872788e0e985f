"""The true-black theme and the colour-blind-safe number palette (issue 26, item 7),
checked on screenshots of the real app at a phone profile.

The eight numbers are read back from the pixels of a board that shows all of
them, run through colorspacious's simulations of deuteranopia, protanopia and
tritanopia (full severity), and compared in CAM02-UCS: with the colour-blind
palette any two numbers stay at least :data:`MIN_DISTANCE` apart under every
simulation, in every theme; the classic palette does not (green 2 and red 3
under deuteranopia, blue 1 and purple 4 of the dark themes under protanopia),
which shows the check can fail.  Pictures (``$FASTMINE_SCREENSHOTS``):
``theme-<theme>-<palette>.png`` and the colour-blind board as each kind of
colour blindness sees it, ``numbers-colour_blind-simulated.png``.
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

pytest.importorskip("kivy")
colorspacious = pytest.importorskip("colorspacious")

from profiles import start_app  # noqa: E402

from fastmine import Board, Game  # noqa: E402

MIN_DISTANCE = 15.0
"""Smallest CAM02-UCS distance between two numbers' colours, as measured on the
screen (the palettes are designed for 20; anti-aliased pixels cost a little)."""
SIMULATIONS = (None, "deuteranomaly", "protanomaly", "tritanomaly")


def all_numbers_board() -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
    """An 8x8 mine layout with a safe cell of every count 1..8, and where each is."""
    rng = np.random.default_rng(0)
    while True:
        mask = rng.random((8, 8)) < 0.55
        board = Board.from_mines(mask)
        counts = board.counts
        where = {}
        for n in range(1, 9):
            cells = np.argwhere((counts == n) & ~mask)
            if len(cells):
                where[n] = tuple(map(int, cells[0]))
        if len(where) == 8:
            return mask, where


def number_colours(drv, where) -> np.ndarray:
    """The colour each number is drawn in, read from the screen (n, 3) in 0..1:
    the pixels of its cell farthest from the cell's background, their median."""
    px = drv.pixels().astype(float) / 255
    bg = np.array(drv.app.theme.revealed[:3])
    b = drv.board
    half = b.scale * 0.35
    out = []
    for n in range(1, 9):
        x, y = b.to_window(*b.cell_center(*where[n]))
        cell = px[int(y - half):int(y + half), int(x - half):int(x + half)].reshape(-1, 3)
        far = np.abs(cell - bg).sum(axis=1)
        core = cell[far >= 0.8 * far.max()]
        out.append(np.median(core, axis=0))
    return np.array(out)


def smallest_distances(rgb: np.ndarray) -> dict[str | None, tuple[float, tuple[int, int]]]:
    """Per simulation: the smallest CAM02-UCS distance between two numbers, and which."""
    from colorspacious import cspace_convert

    out = {}
    for kind in SIMULATIONS:
        seen = rgb if kind is None else np.clip(cspace_convert(
            rgb, {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, "sRGB1"), 0, 1)
        ucs = cspace_convert(seen, "sRGB1", "CAM02-UCS")
        pairs = [(float(np.linalg.norm(ucs[i] - ucs[j])), (i + 1, j + 1))
                 for i, j in itertools.combinations(range(8), 2)]
        out[kind] = min(pairs)
    return out


def show(make_app, data_dir, theme: str, palette: str):
    drv = start_app(make_app, data_dir, "phone_393", theme=theme, numbers=palette, animations=0)
    mask, where = all_numbers_board()
    game = Game.from_board(Board.from_mines(mask), clock=drv.clock)
    for cell in where.values():
        game.reveal(*cell)
    drv.ctrl.attach(game)
    drv.frames(3)
    return drv, where


@pytest.mark.parametrize("theme", ["light", "dark", "black"])
def test_the_colour_blind_numbers_stay_apart_in_every_theme(make_app, data_dir, theme,
                                                             screenshot_dir):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    try:
        drv, where = show(make_app, data_dir, theme, "colour_blind")
        path, _px = drv.screenshot(screenshot_dir, f"theme-{theme}-colour_blind")
        seen = number_colours(drv, where)
        # the screen shows the palette's colours
        want = np.array([c[:3] for c in drv.app.theme.numbers])
        assert np.abs(seen - want).max() < 0.1
        worst = smallest_distances(seen)
        assert all(d >= MIN_DISTANCE for d, _pair in worst.values()), worst
        if theme == "light":
            _simulated_picture(drv, os.path.join(str(screenshot_dir),
                                                 "numbers-colour_blind-simulated.png"))
        # the classic palette of the same theme fails the same check
        drv, where = show(make_app, data_dir, theme, "standard")
        drv.screenshot(screenshot_dir, f"theme-{theme}-standard")
        worst = smallest_distances(number_colours(drv, where))
        assert min(d for d, _pair in worst.values()) < MIN_DISTANCE, worst
    finally:
        viewport.TOUCH_FIRST = None


def test_true_black_is_black_where_the_screen_is_bare(make_app, data_dir, screenshot_dir):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    try:
        drv, where = show(make_app, data_dir, "black", "standard")
        _path, px = drv.screenshot(screenshot_dir, "theme-black-standard")
    finally:
        viewport.TOUCH_FIRST = None
    b = drv.board
    black = (px == 0).all(axis=2)
    assert black.mean() > 0.5  # the background, the bars and the open cells: pixels off
    hidden = [tuple(map(int, rc)) for rc in np.argwhere(drv.game.view == -1)]
    for r, c in hidden[:5] + [where[1]]:
        x, y = map(int, b.to_window(*b.cell_center(r, c)))
        is_number = (r, c) == where[1]
        # an open cell's background is black (its number is not); a hidden cell is grey
        corner = px[int(y - b.scale * 0.3), int(x - b.scale * 0.3)]
        assert (corner == 0).all() == is_number, (r, c, corner)


def _simulated_picture(drv, path: str) -> None:
    """The board as normal vision and the three dichromacies see it, side by side."""
    from colorspacious import cspace_convert
    from kivy.core.image import Image as CoreImage
    from kivy.graphics.texture import Texture

    b = drv.board
    x0, y0 = map(int, b.to_window(b.x + b.offset[0], b.y + b.offset[1]))
    side = int(min(b.dcols, b.drows) * b.scale)
    crop = drv.pixels()[y0:y0 + side:2, x0:x0 + side:2][::-1].astype(float) / 255  # top row first
    panels = [crop] + [np.clip(cspace_convert(crop, {"name": "sRGB1+CVD", "cvd_type": k,
                                                      "severity": 100}, "sRGB1"), 0, 1)
                       for k in SIMULATIONS[1:]]
    gap = np.ones((crop.shape[0], 8, 3))
    row = np.concatenate([p for panel in panels for p in (panel, gap)][:-1], axis=1)
    img = (row * 255 + 0.5).astype(np.uint8)
    tex = Texture.create(size=(img.shape[1], img.shape[0]), colorfmt="rgb")
    tex.blit_buffer(np.ascontiguousarray(img).tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    CoreImage(tex).save(path, flipped=False)


def test_the_number_colours_setting_applies_at_once_and_keeps_the_theme(make_app, data_dir):
    from fastmine.app.board import viewport
    from fastmine.app.board.theme import COLOUR_BLIND_NUMBERS, DARK

    viewport.TOUCH_FIRST = True
    try:
        drv, where = show(make_app, data_dir, "dark", "standard")
        assert np.abs(number_colours(drv, where) - [c[:3] for c in DARK.numbers]).max() < 0.1
        screen = drv.app.settings_screen()
        drv.app.open_settings()
        drv.frames(2)
        row = screen.rows["numbers"]
        row.parent.parent.scroll_to(row, animate=False)  # the settings page scrolls on a phone
        drv.frames(2)
        drv.press(row.ids["choice_colour_blind"])  # a real tap
        assert drv.app.config.get("game", "numbers") == "colour_blind"
        drv.app.close_settings()
        drv.frames(3)
        if drv.ctrl.paused:  # as any visit to Settings leaves a game: a tap resumes
            drv.press(drv.ids("paused_cover"))
            drv.frames(3)
        theme = drv.app.theme
        assert theme.name == "dark" and theme.palette == "colour_blind"
        want = [c[:3] for c in COLOUR_BLIND_NUMBERS[False]]
        assert np.abs(number_colours(drv, where) - want).max() < 0.1  # the board redrawn
    finally:
        viewport.TOUCH_FIRST = None
