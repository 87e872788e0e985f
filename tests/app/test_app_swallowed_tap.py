"""The tap after "Undo the losing move" (and after any dialog or menu closes)
plays at once.

A closing dialog fades out for a tenth of a second (Kivy's ModalView) and a
closing drop-down menu stays a tenth of a second (DropDown's
``min_state_time``); both stay in the window meanwhile and, being modal, took
every touch: a quick tap on a cell right after "Undo the losing move" did
nothing (the finger down within 0.1 s of the release on the button; a slow
frame, such as the undo's own redraw of a big board, lengthens that window).
Now a dialog or menu that is closing lets touches through.

The other paths a tap after the undo takes were read and cannot swallow a
tap on a visible hidden cell: the undo touch itself is grabbed by the dialog's
button, so its release never reaches the board; the board's long-press event
is per touch and cancelled on release (the losing tap's too); Kivy's double-tap
flag only turns a tap on a *number* into a chord; the corner button swallows
only just after it hides, and the undo does not move the view; the toast
("Move taken back ...") takes a tap only on its own box, which hides the cells
under it; a touch left in the board's list (a lost release) would make every
later tap a pinch, not one.
"""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog  # noqa: E402
from profiles import start_app  # noqa: E402

from fastmine import HIDDEN  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.dialogs.messages import MessageDialog  # noqa: E402


def quick_tap(drv, x, y) -> None:
    """A tap whose finger lands one frame after the last release (a fast player)."""
    t = drv.down(x, y)
    drv.frames(2)
    drv.up(t)
    drv.frames(2)


@pytest.mark.parametrize("profile", ["phone_360", "phone_393"])
def test_the_tap_right_after_undo_plays(make_app, data_dir, profile):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    try:
        drv = start_app(make_app, data_dir, profile)
        drv.attach_board(MASK)
        drv.tap_cell(1, 2)  # the opening
        r, c = 1, 6  # hidden, no mine
        drv.board.show_cell(r, c)
        drv.tap_cell(4, 4)  # a mine
        d = end_dialog(drv)
        assert d.can_undo
        # release on "Undo the losing move", then at once a tap on a hidden cell
        t = drv.down(*drv.widget_pos(d.ids.undo))
        drv.frames(2)
        drv.up(t)
        drv.frames(1)
        assert drv.ctrl.state == "playing"
        assert drv.game.view[r, c] == HIDDEN
        quick_tap(drv, *drv.cell_pos(r, c))
        assert drv.game.view[r, c] != HIDDEN, "the first tap after the undo was swallowed"
        drv.frames(10)  # the dialog's fade-out is over: it is gone
        assert not any(isinstance(w, EndDialog) for w in drv.window.children)
    finally:
        viewport.TOUCH_FIRST = None


def test_a_closing_message_takes_no_touch(drv):
    drv.attach_board(MASK)
    d = drv.app.show_message("Title", "Words")
    drv.frames(10)
    drv.press(d.ids.ok)  # closes: fades out for a moment
    quick_tap(drv, *drv.cell_pos(1, 2))
    assert drv.game.view[1, 2] != HIDDEN, "the first tap after the message closed was swallowed"
    drv.frames(10)
    assert not any(isinstance(w, MessageDialog) for w in drv.window.children)


def test_the_tap_right_after_a_menu_entry_plays(drv):
    from kivy.uix.dropdown import DropDown

    drv.attach_board(MASK)
    drv.press(drv.ids("menu_button"))
    menu = next(w for w in drv.window.children if isinstance(w, DropDown))
    entry = next(w for w in menu.container.children if getattr(w, "title", "") == "Fit board")
    t = drv.down(*drv.widget_pos(entry))
    drv.frames(1)
    drv.up(t)
    drv.frames(1)
    quick_tap(drv, *drv.cell_pos(1, 2))
    assert drv.game.view[1, 2] != HIDDEN, "the first tap after the menu closed was swallowed"
