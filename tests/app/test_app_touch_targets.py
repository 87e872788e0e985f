"""Every touch target on every screen is at least 48 dp in both dimensions
(issue 26, item 5), at the phone profiles: the game screen and its menus, every
other screen, every dialog.  A target is anything a finger presses: a button
(any ButtonBehavior), a text field, the replay's timeline, the toast (a tap
dismisses it).  Sizes are measured in dp at the profile's density."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog  # noqa: E402
from kivy.uix.behaviors import ButtonBehavior  # noqa: E402
from kivy.uix.slider import Slider  # noqa: E402
from kivy.uix.textinput import TextInput  # noqa: E402
from profiles import PHONES, inside, start_app  # noqa: E402

from fastmine import HIDDEN, Difficulty  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.dialogs.messages import ConfirmDialog, ResumeDialog  # noqa: E402
from fastmine.app.play import assist  # noqa: E402
from fastmine.app.widgets import MainMenu, Toast  # noqa: E402

MIN_DP = 48


def targets(root):
    """The touch targets shown in the window (hidden ones have no size or no opacity)."""
    for w in (w for top in root.children for w in top.walk(restrict=True)):
        if isinstance(w, Toast):
            if not w.text:
                continue
        elif not isinstance(w, (ButtonBehavior, TextInput, Slider)):
            continue
        if w.width <= 0 or w.height <= 0 or not _visible(w):
            continue
        if getattr(w, "shown", True) is False:  # the board's corner button when hidden
            continue
        yield w


def _visible(w) -> bool:
    while w is not None:
        if w.opacity == 0:
            return False
        parent = w.parent
        if parent is w:
            break
        w = parent
    return True


def small(root, density: float, where: str) -> list[str]:
    bad = []
    for w in targets(root):
        wd, hd = w.width / density, w.height / density
        if wd < MIN_DP - 0.01 or hd < MIN_DP - 0.01:
            label = getattr(w, "text", "") or getattr(w, "title", "") or ""
            bad.append(f"{where}: {type(w).__name__} {label[:30]!r} {wd:.1f}x{hd:.1f} dp")
    return bad


def window_modals(drv, cls):
    return [w for w in drv.window.children if isinstance(w, cls)]


def close_modals(drv) -> None:
    from kivy.uix.dropdown import DropDown
    from kivy.uix.modalview import ModalView

    for w in list(drv.window.children):
        if isinstance(w, ModalView):
            w.dismiss(animation=False)
        elif isinstance(w, DropDown):
            w._real_dismiss()
    drv.frames(3)


@pytest.mark.parametrize("profile", PHONES)
def test_every_touch_target_is_at_least_48_dp(make_app, data_dir, profile):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    try:
        _walk_everything(make_app, data_dir, profile)
    finally:
        viewport.TOUCH_FIRST = None


def _walk_everything(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile, animations=0)
    d = drv.profile.density
    bad: list[str] = []
    win = drv.window

    def check(where: str) -> None:
        drv.frames(3)
        bad.extend(small(win, d, where))

    # the game, zoomed (the corner button shows), with a toast
    drv.app.start_game(Difficulty(16, 30, 99))
    drv.frames(2)
    drv.ctrl.message = "A message over the board"
    check("game")
    drv.ctrl.message = ""
    drv.press(drv.ids("menu_button"))
    check("menu")
    menu = next(w for w in win.children if isinstance(w, MainMenu))
    outside = [e.title for e in menu.container.children if not inside(e, win)]
    assert not outside, f"menu entries out of the window: {outside}"
    close_modals(drv)
    if assist.available():
        drv.press(drv.ids("solver"))
        check("solver menu")
        close_modals(drv)
    # every other screen
    for name in ("new_game", "records", "about", "replays", "settings", "progress",
                 "how_to_play"):
        drv.app.show_screen(name)
        check(name)
    drv.app.show_screen("game")
    drv.frames(2)
    # a loss and its dialog, then the replay player
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)
    drv.ctrl.reveal(4, 4)
    dlg = end_dialog(drv)
    check("loss dialog")
    if dlg.can_replay:
        drv.press(dlg.ids.watch_replay)
        drv.frames(5)
        check("replay player")
        drv.app.show_screen("game")
        close_modals(drv)
    # a win with the best-time prompt (name field and Save)
    game = drv.attach_board(MASK)
    for r, c in np.argwhere(~MASK):
        if game.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    dlg = end_dialog(drv)
    assert dlg.ask_name
    check("win dialog")
    close_modals(drv)
    # the screens that list games, now that there are some; a board picker opened
    for name in ("replays", "records", "progress"):
        drv.app.show_screen(name)
        check(f"{name} with games")
    spinner = drv.app.root.get_screen("records").ids.spinner
    drv.app.show_screen("records")
    drv.frames(2)
    drv.press(spinner)
    check("board picker")
    close_modals(drv)
    spinner._dropdown.dismiss()
    drv.frames(8)
    drv.app.show_screen("game")
    drv.frames(2)
    # the questions and messages
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)
    drv.press(drv.ids("face"))  # a game in progress: asks first
    assert window_modals(drv, ConfirmDialog)
    check("abandon question")
    close_modals(drv)
    drv.app.show_message("A title", "Some words")
    check("message")
    close_modals(drv)
    # the tutorial's card (Skip), on its own board
    drv.app.start_tutorial()
    drv.frames(3)
    assert drv.app._card is not None
    check("tutorial")
    drv.press(drv.app._card.ids.skip)
    drv.frames(3)
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)
    drv.app.save_now()
    drv.stop()
    drv = start_app(make_app, data_dir, profile, animations=0)
    assert window_modals(drv, ResumeDialog)
    check("resume offer")
    assert not bad, "targets under 48 dp:\n" + "\n".join(bad)
    assert not window_modals(drv, EndDialog)
