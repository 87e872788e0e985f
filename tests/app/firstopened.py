"""Child process for the first-opened tests: start the app, open ONE screen or
dialog by touch, save the window's pixels.

Run as ``python firstopened.py PROFILE LANGUAGE MODE OUT_DIR TARGET...``:
``MODE`` is ``fresh`` (nothing loaded but what a start loads; one target) or
``warm`` (every kv file of the app loaded before the first app starts; a
fresh app for each target); the pixels go to ``OUT_DIR/TARGET-MODE.npy`` and a
PNG beside it.  A fresh process for each run, so no other test, screen or
dialog has loaded a kv file before the one opened (a widget built before its
rule is loaded is built without complaint, and looks wrong).

Time is the fake clock of :mod:`kivydriver`, so two runs draw the same frames.
"""

from __future__ import annotations

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

SCREEN_ENTRIES = {
    # screen -> the Main menu's entry that opens it (Progress is on Records)
    "new_game": "New game...",
    "records": "Records",
    "replays": "Replays",
    "settings": "Settings",
    "how_to_play": "How to play",
    "about": "About",
}
DIALOGS = ("won", "lost", "resume", "quit", "abandon", "message", "main_menu", "solver_menu",
           "tutorial")
"""The dialogs, drop-downs and cards a player meets, besides the screens."""


def all_kv_files() -> list[str]:
    """Every kv file of the app, in the order the app would meet them."""
    from fastmine.app import application
    from fastmine.app.screens import screenloader

    names = list(application.KV_FILES)
    for _module, _cls, kv_files in screenloader.SCREENS.values():
        names += [kv for kv in kv_files if kv not in names]
    names += [kv for kv in ("dialogs/dialogs.kv", "dialogs/endgame.kv", "screens/menus.kv",
                            "screens/tutorial.kv") if kv not in names]
    return names


def targets() -> list[str]:
    """Every screen (screenloader.SCREENS) and every dialog: what a run can open."""
    from fastmine.app.screens import screenloader

    return [*screenloader.SCREENS, *DIALOGS]


def _press_entry(drv, words: str) -> None:
    """Open the Main menu by its button and tap the entry titled ``words``
    (in the app's language)."""
    from fastmine.app.text.i18n import _

    drv.press(drv.ids("menu_button"))
    drv.frames(20)  # the drop-down opens with an animation
    menu = [w for w in drv.window.children if type(w).__name__ == "MainMenu"][0]
    entry = [e for e in menu.walk() if type(e).__name__ == "MenuEntry" and e.title == _(words)][0]
    drv.press(entry)


def open_target(drv, target: str) -> None:
    """Open ``target`` as a player would (touches where there is a button)."""
    import numpy as np
    from fixedgame import MASK

    from fastmine import HIDDEN
    from fastmine.replay import Replay

    app = drv.app
    if target in SCREEN_ENTRIES:
        _press_entry(drv, SCREEN_ENTRIES[target])
    elif target == "progress":
        # Progress is reached from Records: opened straight, as the first screen
        app.show_screen("progress")
    elif target == "replay":
        game = drv.attach_board(MASK)
        drv.board.fit()
        drv.tap_cell(1, 2)
        app.watch_replay(Replay.from_game(game))
    elif target in ("won", "lost"):
        game = drv.attach_board(MASK)
        drv.board.fit()
        drv.tap_cell(1, 2)
        if target == "lost":
            drv.tap_cell(0, 0)
        else:
            for r, c in np.argwhere((game.view == HIDDEN) & ~MASK):
                if game.view[r, c] == HIDDEN:
                    drv.tap_cell(int(r), int(c))
        assert game.state.value == target, game.state
        # the confetti (random) fall over the board until the celebration is over
        from fastmine.app.board.effects import CELEBRATION_TIME

        drv.wait(CELEBRATION_TIME + 0.5)
    elif target == "resume":
        pass  # offered at start: the saved game was written before it
    elif target in ("quit", "abandon"):
        drv.attach_board(MASK)
        drv.tap_cell(1, 2)
        if target == "quit":
            drv.key(27)  # escape / back on the game screen
        else:
            drv.press(drv.ids("face"))  # a new game asks before leaving this one
    elif target == "message":
        app.show_message("Records", "The game was not recorded: the disk is full.")
    elif target == "main_menu":
        drv.press(drv.ids("menu_button"))
    elif target == "solver_menu":
        drv.attach_board(MASK)
        drv.tap_cell(1, 2)
        drv.press(drv.ids("solver"))
    elif target == "tutorial":
        pass  # a first start offers it
    else:
        raise ValueError(f"unknown target {target!r}")
    drv.frames(60)  # every animation (a dialog's, a drop-down's) is over
    check_shown(drv, target)


SHOWN = {"won": "EndDialog", "lost": "EndDialog", "resume": "ResumeDialog", "quit": "ConfirmDialog",
         "abandon": "ConfirmDialog", "message": "MessageDialog", "main_menu": "MainMenu",
         "solver_menu": "SolverMenu", "tutorial": "TutorialCard"}
"""Each dialog -> the class of the widget that shows it."""


def check_shown(drv, target: str) -> None:
    """Fail unless ``target`` is what the window shows (a picture of the game
    screen compared with another would prove nothing)."""
    if target in SHOWN:
        found = {type(w).__name__ for top in drv.window.children for w in top.walk()}
        assert SHOWN[target] in found, f"{target}: no {SHOWN[target]} shown"
    else:
        assert drv.app.root.current == target, f"{target}: {drv.app.root.current} shown"


def write_saved_game(data_dir: str) -> None:
    """A game in progress left by an earlier run, so the start offers to resume it."""
    from fixedgame import MASK

    from fastmine import Board, Game
    from fastmine.app.playerdata import PlayerData

    game = Game.from_board(Board.from_mines(MASK), clock=lambda: 0.0)
    game.reveal(1, 2)
    PlayerData(data_dir).save_game(game)


def main(profile_name: str, language: str, mode: str, out_dir: str, *names: str) -> None:
    """Open each of ``names`` in an app of its own and save its pixels as
    ``out_dir/<name>-<mode>.npy`` (and .png).  ``fresh`` opens one only: a
    second would find the first one's rules loaded."""
    sys.path.insert(0, HERE)
    from profiles import PROFILES, set_metrics

    if mode not in ("fresh", "warm"):
        raise ValueError(f"mode must be fresh or warm, not {mode!r}")
    if mode == "fresh" and len(names) != 1:
        raise ValueError("a fresh process opens one screen or dialog")
    profile = PROFILES[profile_name]
    from kivy.config import Config

    Config.set("graphics", "width", str(profile.size[0]))
    Config.set("graphics", "height", str(profile.size[1]))
    Config.set("graphics", "maxfps", "0")
    Config.set("graphics", "multisamples", "0")
    import numpy as np
    from kivy.base import EventLoop, runTouchApp
    from kivy.clock import Clock
    from kivy.core.window import Window

    Clock._max_fps = 0.0
    from kivydriver import Driver, FakeClock

    set_metrics(profile.density, profile.fontscale)
    if mode == "warm":
        from fastmine.app.kvfiles import load_kv

        load_kv(*all_kv_files())
    clock = FakeClock.install()
    runTouchApp(embedded=True)
    EventLoop.idle()
    for target in names:
        data_dir = tempfile.mkdtemp(prefix=f"data-{mode}-{target}-", dir=out_dir)
        if target == "resume":
            write_saved_game(data_dir)
        config = {"language": language, "offer_tutorial": target == "tutorial"}
        drv = Driver.start(Window, clock, data_dir, size=profile.size, config=config)
        drv.frames(10)
        open_target(drv, target)
        _path, px = drv.screenshot(out_dir, f"{target}-{mode}")
        np.save(os.path.join(out_dir, f"{target}-{mode}.npy"), px)
        drv.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
