"""The app's kv files load once per process, in the order the app states.

Tests and the benchmark start several apps in one process; a kv file loaded a
second time would give every widget of its rules its children twice.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("kivy")

from kivy.lang import Builder  # noqa: E402

from fastmine.app import application, kvfiles  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.dialogs.messages import ResumeDialog  # noqa: E402
from fastmine.app.screens import screenloader  # noqa: E402


def shape(widget) -> list[tuple[int, str, int]]:
    """Every widget under ``widget``: its depth, class and number of children."""
    out, todo = [], [(0, widget)]
    while todo:  # no recursion: an explicit stack
        depth, w = todo.pop()
        out.append((depth, type(w).__name__, len(w.children)))
        todo.extend((depth + 1, c) for c in w.children)
    return out


def screens_shape(app) -> dict[str, list]:
    return {s.name: shape(s) for s in app.root.screens}


def test_a_second_app_builds_each_widget_once(make_app, tmp_path):
    first = make_app(tmp_path / "first")
    before = screens_shape(first.app)
    dialogs_before = [shape(EndDialog()), shape(ResumeDialog())]
    second = make_app(tmp_path / "second")
    assert screens_shape(second.app) == before
    assert [shape(EndDialog()), shape(ResumeDialog())] == dialogs_before
    # and not twice from the start: the top bar is two counters, the face,
    # the menu button and two spacers
    assert len(second.ids("top_bar").children) == 6
    assert len(second.app.game_screen.children) == 1


def test_every_kv_file_is_loaded_once_and_in_order(drv):
    here = kvfiles.APP_DIR
    loaded = [os.path.abspath(f) for f in Builder.files]
    wanted = [os.path.join(here, *name.split("/")) for name in application.KV_FILES]
    assert all(loaded.count(p) == 1 for p in wanted), loaded
    assert [p for p in loaded if p in wanted] == wanted
    # every kv file in the app's folder is one of them, or one a screen loads on
    # first use, or the tutorial's card's, or the dialogs' (with the first dialog),
    # the end dialog's (with the first game's end), the menus' (with the first menu)
    assert {p.relative_to(here).as_posix() for p in Path(here).rglob("*.kv")} == {
        *application.KV_FILES, *(kv for _m, _c, files in screenloader.SCREENS.values() for kv in files),
        "screens/tutorial.kv", "dialogs/dialogs.kv", "dialogs/endgame.kv", "screens/menus.kv"}


def test_a_screen_opened_in_a_second_app_is_built_once(make_app, tmp_path):
    # a screen's kv loads on its first use, once per process: the second app's
    # screens have the first one's widgets, not twice as many
    shapes = []
    for name in ("first", "second"):
        drv = make_app(tmp_path / name)
        for screen in sorted(drv.app.SCREENS - {"replay"}):
            drv.app.show_screen(screen)
            drv.frames(1)
        shapes.append(screens_shape(drv.app))
    assert shapes[0] == shapes[1]
