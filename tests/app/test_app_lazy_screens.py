"""The first frame loads only what it draws: the other screens come on first use.

A start imports and parses the game screen and its menus; the dialogs' rules
come with the first dialog, the Settings, New game, Records, Progress, About,
How to play, Replays and replay player screens (their modules and kv files)
when first opened, and the solver is imported after the first frame, never
before it.  Checked in a child
process at its first frame: the other tests' imports would hide a module the
app imports.  Structure only, no timing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from fastmine.app import application
from fastmine.app.screens import screenloader

PROBE = r"""
import json, os, sys
from kivy.config import Config
Config.set("graphics", "width", "480")
Config.set("graphics", "height", "800")
Config.set("graphics", "maxfps", "0")
from kivy.base import EventLoop, runTouchApp
from kivy.core.window import Window
from kivy.lang import Builder

from fastmine.app.application import FastmineApp
from fastmine.app import kvfiles
from fastmine.app.services import appfiles

seen = {}
here = kvfiles.APP_DIR


def loaded():
    # the app's kv files by their path in its folder (Kivy's own style.kv is there
    # too), in the order they loaded
    return {"modules": sorted(m for m in sys.modules if m.startswith(("fastmine", "kivy.uix"))),
            "kv": [os.path.relpath(os.path.abspath(f), here).replace(os.sep, "/")
                   for f in Builder.files if os.path.abspath(f).startswith(here + os.sep)],
            "tiles_kept": len(list(appfiles.cache_folder(sys.argv[1]).glob("atlas-*.npy")))}


def first_flip(*_a):
    Window.unbind(on_flip=first_flip)
    seen["first_frame"] = loaded()


Window.bind(on_flip=first_flip)
app = FastmineApp(data_dir=sys.argv[1])
app.offer_tutorial = sys.argv[2] == "tutorial"
app._run_prepare()
runTouchApp(embedded=True)
for _ in range(20):
    EventLoop.idle()
    if "first_frame" in seen:
        break
for _ in range(3):
    EventLoop.idle()
seen["solver_ok"] = app.solver_ok
seen["after"] = loaded()
opened = {}
if app.tutorial_on:
    app.end_tutorial()
for name in sorted(app.SCREENS):
    if name == "replay":  # the player opens on a replay: built here, shown from the list
        screen = app.replay_screen()
    else:
        app.show_screen(name)
        screen = app.root.current_screen
    for _ in range(2):
        EventLoop.idle()
    opened[name] = {"class": type(screen).__name__, "widgets": len(list(screen.walk()))}
app.show_screen("game")
EventLoop.idle()
seen["opened"] = opened
seen["before_dialog"] = loaded()
dialog = app.show_message("Title", "Text")
EventLoop.idle()
seen["dialog_widgets"] = len(list(dialog.walk()))
dialog.dismiss(animation=False)
seen["end"] = loaded()
menu = app.game_screen.open_menu(app.game_screen.ids.menu_button)
EventLoop.idle()
seen["menu_entries"] = len([w for w in menu.walk() if type(w).__name__ == "MenuEntry"])
menu.dismiss()
seen["menu"] = loaded()
app.stop()
print(json.dumps(seen), file=sys.__stdout__)
"""

LAZY_MODULES = {f"fastmine.app.{module}" for module, _cls, _kv in screenloader.SCREENS.values()} | {
    "fastmine.app.screens.chart", "fastmine.app.replays.replayboard", "fastmine.app.textfield", "kivy.uix.textinput",
    "fastmine.records", "fastmine.solver.strategies", "fastmine.app.dialogs.endgame"}
"""What no first frame imports: every screen but the game's, the charts, the
replay board, the text field (Kivy's TextInput), the records (SQLite: first used
at the end of a game), the end dialog (with the first game's end), and the
solver's moves (the solver check, after the first frame)."""
LAZY_KV = {kv for _m, _c, kv_files in screenloader.SCREENS.values() for kv in kv_files}


def run_app(data_dir, tutorial: bool) -> dict:
    env = os.environ.copy()  # conftest's headless Kivy settings
    env.pop("FASTMINE_APP_DATA", None)
    out = subprocess.run([sys.executable, "-c", PROBE, str(data_dir), "tutorial" if tutorial else "-"],
                         capture_output=True, text=True, timeout=300, env=env, cwd=data_dir)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_first_frame_loads_only_the_game_screen_and_each_screen_opens(kivy_window, tmp_path):
    seen = run_app(tmp_path, tutorial=False)
    first = seen["first_frame"]
    assert LAZY_MODULES.isdisjoint(first["modules"]), sorted(LAZY_MODULES & set(first["modules"]))
    assert first["kv"] == list(application.KV_FILES)
    # the solver check and writing the tiles drawn at this first start come a frame
    # later; the Odds and Solver buttons never changed
    assert (first["tiles_kept"], seen["after"]["tiles_kept"]) == (0, 1)
    assert "fastmine.solver.strategies" in seen["after"]["modules"]
    assert seen["solver_ok"] is True
    # every screen opens, built from its own rules (a screen without its kv has no children)
    assert {name: info["class"] for name, info in seen["opened"].items()} == {
        name: cls for name, (_m, cls, _kv) in screenloader.SCREENS.items()}
    assert all(info["widgets"] > 3 for info in seen["opened"].values()), seen["opened"]
    assert sorted(seen["before_dialog"]["kv"]) == sorted({*application.KV_FILES, *LAZY_KV})  # each once
    # the dialogs' rules come with the first dialog
    end = seen["end"]
    assert set(end["modules"]) >= LAZY_MODULES - {"fastmine.app.dialogs.endgame"}
    assert end["kv"] == [*seen["before_dialog"]["kv"], "dialogs/dialogs.kv"]
    assert "fastmine.app.dialogs.endgame" not in end["modules"]  # its rules and module: a game's end
    assert seen["dialog_widgets"] > 3
    # the menus' rules come with the first menu, which has its entries
    assert seen["menu"]["kv"] == [*end["kv"], "screens/menus.kv"]
    assert seen["menu_entries"] == 7


def test_a_first_start_loads_the_tutorials_card_but_not_the_rules_screen(kivy_window, tmp_path):
    first = run_app(tmp_path, tutorial=True)["first_frame"]
    assert first["kv"] == [*application.KV_FILES, "screens/tutorial.kv"]
    assert "fastmine.app.screens.howtoplay" not in first["modules"]
