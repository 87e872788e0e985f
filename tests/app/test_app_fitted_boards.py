"""Fitted boards and a Cell size setting that applies (issue 26, item 1), at the
phone profiles with real touches.

- A board whose whole-board cells are at least 38 dp opens whole: Beginner on
  every phone (40 dp on a 360-dp phone, 43.6 dp on a 393-dp one).
- A bigger board opens at the Cell size setting (Intermediate's whole-board
  cells on a phone are 22.5-24.6 dp: it opens at the setting, whole on a
  tablet).
- Changing Cell size applies to the game on screen and to the next games,
  also of a size whose zoom was kept: a kept view never overrides the setting.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("kivy")

from profiles import PHONES, Profile, inside, start_app  # noqa: E402

from fastmine import DIFFICULTIES, Difficulty  # noqa: E402

EXPERT = DIFFICULTIES["expert"]
TABLET = Profile("tablet", (1600, 2400), 2.0)  # 800 x 1200 dp


@pytest.fixture
def touch_first(monkeypatch):
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)


def cell_dp(drv) -> float:
    return drv.board.scale / drv.profile.density


def whole_on_screen(drv) -> bool:
    """Every cell of the board lies inside the board's widget and the window."""
    b = drv.board
    if not b.is_fitted():
        return False
    for r, c in ((0, 0), (0, b.cols - 1), (b.rows - 1, 0), (b.rows - 1, b.cols - 1)):
        x, y = b.cell_center(r, c)
        half = b.scale / 2
        for px, py in ((x - half + 1, y - half + 1), (x + half - 1, y + half - 1)):
            if not b.collide_point(px, py):
                return False
    return inside(b, drv.window)


def choose(drv, key: str, value: str) -> None:
    """Pick a setting on the settings screen with a real tap, then go back."""
    drv.app.open_settings()
    drv.frames(3)
    row = drv.app.settings_screen().rows[key]
    row.parent.parent.scroll_to(row, animate=False)
    drv.frames(2)
    drv.press(row.ids[f"choice_{value}"])
    assert drv.app.config.get("game", key) == value
    drv.press(drv.app.settings_screen().ids.get("back") or next(
        w for w in drv.app.settings_screen().walk() if getattr(w, "text", None) == "Back"))
    assert drv.app.root.current == "game"
    drv.frames(2)


@pytest.mark.parametrize("profile", PHONES)
def test_beginner_opens_whole_on_every_phone(make_app, data_dir, touch_first, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.app.start_game(DIFFICULTIES["beginner"], "beginner")
    drv.frames(3)
    assert whole_on_screen(drv)
    assert 38 <= cell_dp(drv) <= 56  # whole, at most the cell size
    # and a tap on a corner cell plays it
    drv.tap(*drv.cell_pos(8, 8))
    assert drv.game.view[8, 8] >= 0


@pytest.mark.parametrize("profile", PHONES)
def test_intermediate_opens_at_the_cell_size_on_a_phone_and_whole_on_a_tablet(
        make_app, data_dir, touch_first, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.app.start_game(DIFFICULTIES["intermediate"], "intermediate")
    drv.frames(3)
    b = drv.board
    assert b.fit_scale() / drv.profile.density < 38  # 22.5 to 24.6 dp whole on a phone
    assert cell_dp(drv) == pytest.approx(56) and not b.is_fitted()
    drv.press(b.fit_button)  # one tap shows it whole
    assert whole_on_screen(drv)


def test_intermediate_opens_whole_on_a_tablet(make_app, data_dir, touch_first):
    drv = start_app(make_app, data_dir, TABLET)
    drv.app.start_game(DIFFICULTIES["intermediate"], "intermediate")
    drv.frames(3)
    assert whole_on_screen(drv) and 38 <= cell_dp(drv) <= 56


@pytest.mark.parametrize("profile", ["phone_393", "phone_360_font13"])
def test_cell_size_applies_to_the_game_on_screen_and_the_next_of_a_size_played(
        make_app, data_dir, touch_first, profile):
    drv = start_app(make_app, data_dir, profile)
    b = drv.board
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(56)
    b.zoom_at(1.2, *b.center)  # the player zooms: kept for the next Expert game
    kept = cell_dp(drv)
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(kept)
    middle = b.cell_at(*b.center)
    choose(drv, "cell_size", "72")
    # the game on screen: at the new size, around the same cell
    assert cell_dp(drv) == pytest.approx(72)
    assert b.cell_at(*b.center) in {(middle[0] + dr, middle[1] + dc)
                                    for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    # the next game of a size already played: the setting, not the kept zoom
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(72)
    drv.app.start_game(Difficulty(50, 50, 500))
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(72)
    # back to 56: the view kept at 56 before the change is not brought back either
    choose(drv, "cell_size", "56")
    assert cell_dp(drv) == pytest.approx(56)
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(56)


def test_a_whole_board_stays_whole_under_a_bigger_cell_size(make_app, data_dir, touch_first):
    drv = start_app(make_app, data_dir, "phone_360")
    drv.app.start_game(DIFFICULTIES["beginner"], "beginner")
    drv.frames(2)
    assert whole_on_screen(drv)
    choose(drv, "cell_size", "72")
    assert whole_on_screen(drv)
    drv.app.start_game(DIFFICULTIES["beginner"], "beginner")
    drv.frames(2)
    assert whole_on_screen(drv)


def test_a_view_kept_before_a_restart_under_another_cell_size_is_not_used(
        make_app, data_dir, touch_first):
    """The issue's case: views kept at 56 dp, then Huge chosen (here written to the
    settings file, as a previous run leaves it): the next Expert game opens at 72."""
    drv = start_app(make_app, data_dir, "phone_393")
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    drv.board.zoom_at(0.8, *drv.board.center)
    drv.stop()
    kept = json.loads((data_dir / "board_views.json").read_text())
    assert kept and all(row[3] == 56.0 for row in kept)  # kept with its cell size
    drv = start_app(make_app, data_dir, "phone_393", cell_size=72)
    drv.app.start_game(EXPERT, "expert")
    drv.frames(2)
    assert cell_dp(drv) == pytest.approx(72)


def test_views_kept_by_an_older_version_are_dropped(tmp_path):
    from fastmine.app.board.viewport import ZoomMemory

    path = tmp_path / "board_views.json"
    path.write_text("[[16, 30, true, 56.0, 15.0, 8.0, false]]")  # no cell size in it
    assert len(ZoomMemory.load(str(path))) == 0
    m = ZoomMemory()
    m.remember((16, 30, True, 72.0), 80.0, (8.0, 15.0), False)
    m.save(str(path))
    back = ZoomMemory.load(str(path))
    assert back.recall((16, 30, True, 72.0)) == (80.0, (8.0, 15.0), False)
    assert back.recall((16, 30, True, 56.0)) is None
    assert np.isfinite(back.recall((16, 30, True, 72.0))[0])
