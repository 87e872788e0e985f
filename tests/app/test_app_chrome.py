"""The app's chrome on phones and a desktop: bars, dialogs, menus, settings,
undo after a loss, abandoning a game, Escape, and the theme switch.

Every test runs the real app at a screen profile (:mod:`profiles`): a phone
360 or 393 dp wide (at font scale 1.3 too), the phone turned, a 1280x800
desktop.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK  # noqa: E402
from kivy.uix.label import Label  # noqa: E402
from profiles import ALL, PHONES, inside, start_app  # noqa: E402

from fastmine import FLAG, HIDDEN, records  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.dialogs.messages import ConfirmDialog, MessageDialog, ResumeDialog  # noqa: E402
from fastmine.app.play import assist  # noqa: E402


def modal(drv, cls):
    found = [w for w in drv.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} is open"
    return found[0]


def clipped_labels(root, within=None):
    """Labels (buttons too) whose text is wider or taller than their box, or
    whose box leaves ``within``; as (text, why) pairs."""
    bad = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text or w.opacity == 0 or w.height == 0:
            continue
        w.texture_update()
        tw, th = w.texture_size
        if tw > w.width + 1 or th > w.height + 1:
            bad.append((w.text, f"text {tw}x{th} in a {w.width:.0f}x{w.height:.0f} box"))
        if within is not None and not inside(w, within, slack=1):
            bad.append((w.text, "outside its dialog or window"))
    return bad


# ---------------------------------------------------------------- bars


@pytest.mark.parametrize("profile", ALL)
def test_every_bar_control_lies_inside_the_window(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    screen = drv.app.game_screen
    drv.tap_cell(4, 4)
    drv.frames(2)
    for w in screen.controls:
        assert inside(w, drv.window), f"{profile}: {w} at {w.pos} {w.size} leaves the window"
        assert w.width >= 40 * drv.profile.density * 0.99 or isinstance(w, Label), "too small to touch"
    assert not clipped_labels(screen), clipped_labels(screen)
    ids = screen.ids
    board_area = ids.board_area
    if drv.profile.landscape:  # a side column: the board keeps the whole height
        assert board_area.height == pytest.approx(drv.window.height)
        assert all(w.x >= board_area.right - 1 for w in screen.controls)
    else:
        assert ids.top_bar.y >= board_area.top - 1 and ids.tool_bar.top <= board_area.y + 1
    # the menu opens inside the window with every entry readable
    drv.press(ids.menu_button)
    drv.wait(0.3)
    menu = next(w for w in drv.window.children if type(w).__name__ == "MainMenu")
    assert inside(menu, drv.window)
    assert not clipped_labels(menu, drv.window)
    menu.dismiss()
    drv.wait(0.3)


@pytest.mark.skipif(not assist.available(), reason=assist.unavailable_reason())
@pytest.mark.parametrize("profile", ["phone_360_font13", "landscape"])
def test_solver_menu_in_plain_words(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.press(drv.ids("solver"))
    drv.wait(0.3)
    menu = next(w for w in drv.window.children if type(w).__name__ == "SolverMenu")
    entries = list(menu.container.children)[::-1]
    assert [e.title for e in entries] == [m.title for m in assist.SOLVER_MOVES]
    assert entries[0].title == "Play a safe move"
    assert inside(menu, drv.window) and not clipped_labels(menu, drv.window)
    drv.press(entries[3])  # "Play one move": it opens the board
    assert drv.ctrl.state == "playing" and drv.game.assisted


def test_portrait_and_landscape_switch_at_run_time(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_393")
    screen = drv.app.game_screen
    def parent(name):
        return drv.ids(name).parent.__self__

    assert not screen.landscape and parent("hint") is drv.ids("tool_bar").__self__
    drv.window.size = (2340, 1080)
    drv.frames(3)
    assert screen.landscape and parent("hint") is not drv.ids("tool_bar").__self__
    assert parent("hint").parent.__self__ is parent("mines_left").parent.__self__  # one column
    assert all(inside(w, drv.window) for w in screen.controls)
    drv.window.size = (1080, 2340)
    drv.frames(3)
    assert not screen.landscape and parent("face") is drv.ids("top_bar").__self__
    assert all(inside(w, drv.window) for w in screen.controls)


# ---------------------------------------------------------------- theme


def _bar_pixels(drv):
    """The colour at an empty spot of the top bar and of the tool bar (or the side column)."""
    drv.window.canvas.ask_update()
    drv.frames(2)
    px = drv.pixels()
    out = []
    for bar in ("top_bar", "tool_bar"):
        w = drv.ids(bar) if not drv.app.game_screen.landscape else drv.ids("solver").parent.parent
        x, y = w.to_window(w.x + 2, w.y + 2)  # inside the bar, in its padding
        out.append(px[int(y), int(x)].astype(int))
    return out


@pytest.mark.parametrize("profile", ["phone_360", "landscape"])
def test_dark_switch_recolours_both_bars_at_once(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    light = _bar_pixels(drv)
    screen = drv.app.settings_screen()
    drv.app.open_settings()
    drv.frames(2)
    row = screen.rows["theme"]
    row.parent.parent.scroll_to(row, animate=False)  # the settings page scrolls on a phone
    drv.frames(2)
    drv.press(row.ids["choice_dark"])
    assert drv.app.theme.name == "dark"
    drv.app.close_settings()
    drv.frames(2)
    dark = _bar_pixels(drv)
    want = (np.array(drv.app.theme.bar[:3]) * 255).round()
    for before, after in zip(light, dark, strict=True):
        assert np.abs(before - after).max() > 60, "a bar kept its light colour"
        assert np.abs(after - want).max() <= 2, "the bar is not the dark theme's colour"
    # the menu button's lines follow too: light on dark
    btn = drv.ids("menu_button")
    px = drv.pixels()
    x, y = btn.to_window(btn.center_x, btn.center_y)
    assert px[int(y), int(x)].mean() > 150


# ---------------------------------------------------------------- settings


def test_settings_screen_speaks_the_players_words(drv):
    drv.app.open_settings()
    drv.frames(3)
    rows = drv.app.settings_screen().rows
    words = {k: [c.text for c in r.ids.choices.children[::-1]] for k, r in rows.items()}
    assert words["first_click"] == ["Safe cell", "Opening", "No guess"]
    assert words["theme"] == ["Light", "Dark", "Black", "High contrast", "Sepia", "Ocean"]
    assert words["numbers"] == ["Classic", "Colour-blind safe"]
    assert words["question_marks"] == words["animations"] == ["Off", "On"]
    assert words["vibration"] == ["Off", "Light", "Strong"]
    assert "Large" in words["cell_size"]
    for raw in ("no_guess", "dark", "light", "cell"):
        assert all(raw not in ws for ws in words.values())
    # a choice applies and is kept
    rows["cell_size"].parent.parent.scroll_to(rows["cell_size"], animate=False)
    drv.frames(2)
    drv.press(rows["cell_size"].ids["choice_72"])
    assert drv.app.config.get("game", "cell_size") == "72"
    with open(drv.app.get_application_config()) as f:
        assert "cell_size = 72" in f.read()


def test_f1_opens_and_closes_the_settings(drv):
    w = drv.window
    for current in ("settings", "game"):
        # as SDL does: on_keyboard (Kivy's F1 handler) when on_key_down is not handled
        if not w.dispatch("on_key_down", 282, 58, None, []):
            w.dispatch("on_keyboard", 282, 58, None, [])
        drv.frames(2)
        assert drv.app.root.current == current


def test_question_marks_default_off_on_touch_screens():
    from fastmine.app import settings as S

    assert S.touch_defaults(S.DEFAULTS)["game"]["question_marks"] == 0
    assert S.DEFAULTS["game"]["question_marks"] == 1  # desktop: right click cycles flag, ?, none


# ---------------------------------------------------------------- dialogs


@pytest.mark.parametrize("profile", ["phone_360_font13", "phone_393", "landscape"])
def test_dialogs_show_all_their_text(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.tap_cell(4, 4)  # boom
    drv.wait(0.8)
    d = modal(drv, EndDialog)
    assert d.can_undo
    assert inside(d, drv.window) and not clipped_labels(d, d), clipped_labels(d, d)
    drv.press(d.ids.view_board)
    drv.wait(0.4)
    for dialog in (ConfirmDialog(title="Abandon this game?", text="The game in progress will be lost "
                                 "and counted as abandoned in your statistics.",
                                 yes_text="Abandon", no_text="Keep playing"),
                   ResumeDialog(text="Expert 16 x 30, 99 mines, 123 s played, 40 mines left."),
                   MessageDialog(title="Saved game not loaded", text="The saved game is corrupt: "
                                 "it was kept as saved-game.json.corrupt-20261123-221500.")):
        dialog.open()
        drv.wait(0.4)
        assert inside(dialog, drv.window) and not clipped_labels(dialog, dialog), \
            clipped_labels(dialog, dialog)
        dialog.dismiss()
        drv.wait(0.4)


@pytest.mark.parametrize("profile", PHONES)
def test_new_game_screen_start_is_always_reachable(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.app.show_screen("new_game")
    drv.frames(3)
    screen = drv.app.root.get_screen("new_game")
    assert inside(screen.ids.start, drv.window)
    assert not clipped_labels(screen), clipped_labels(screen)
    drv.press(screen.ids.preset_expert)
    drv.press(screen.ids.start)
    assert drv.app.root.current == "game" and drv.game.shape == (16, 30)


@pytest.mark.parametrize("profile", ["phone_360_font13", "desktop"])
def test_other_screens_fit(make_app, data_dir, profile):
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        for i, who in enumerate(["Annabelle Longname-Smith", "Bob"]):
            db.add(records.GameRecord.make(9, 9, 10, won=True, time=112.5 + i, bbbv=20, name=who))
    drv = start_app(make_app, data_dir, profile)
    for name in ("records", "settings", "about"):
        drv.app.show_screen(name)
        drv.frames(3)
        screen = drv.app.root.get_screen(name)
        assert not clipped_labels(screen), (name, clipped_labels(screen))
        if name == "records":  # only a long name may end in "...": times and dates never
            cells = list(screen.ids.table.children)[::-1]
            assert len(cells) == 15
            cut = [c.text for i, c in enumerate(cells) if c.is_shortened]
            assert all(cells.index(c) % 5 == 1 for c in cells if c.is_shortened), cut
        assert inside(screen.ids.get("back") or next(
            w for w in screen.walk() if getattr(w, "text", None) == "Back"), drv.window)


# ---------------------------------------------------------------- nothing lost by accident


def test_undo_after_a_loss_restores_the_board_and_marks_the_game_assisted(drv, data_dir):
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.tap_cell(0, 8, button="right", device="mouse")  # a flag, kept by the undo
    before = game.view.copy()
    assert drv.ids("hint").text == "Hint"
    drv.tap_cell(4, 4)  # boom
    assert drv.ctrl.state == "lost" and drv.ids("hint").text == "Undo"
    drv.wait(0.8)
    d = modal(drv, EndDialog)
    assert d.can_undo
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        assert db.statistics("beginner", include_assisted=True).played == 1  # the loss is stored ...
    drv.press(d.ids.undo)
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        assert db.count() == 0  # ... and taken back with the move
    g = drv.game
    assert np.array_equal(g.view, before)
    assert g.state.value == "playing" and g.assisted and drv.ctrl.assisted
    assert g.view[0, 8] == FLAG and g.view[4, 4] == HIDDEN
    assert "assisted" in drv.ctrl.message
    assert np.array_equal(drv.board.tiles, drv.ctrl._tiles_of(g.view))  # the board shows it
    assert not drv.ctrl.undoable and drv.ids("hint").text == "Hint"
    # the game goes on to a win that is recorded as assisted, and no best time
    for r, c in np.argwhere(~MASK):
        if g.view[r, c] == HIDDEN:
            drv.tap_cell(int(r), int(c))
    assert g.state.value == "won"
    drv.wait(0.8)
    d = modal(drv, EndDialog)
    assert not d.ask_name and not d.can_undo and "assisted" in d.note.lower()
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        games = db.games()
        assert len(games) == 1 and games[0].won and games[0].assisted
        assert db.best_times("beginner") == []
        # its replay skips the move taken back and plays to the same win
        replay = db.replay(games[0].id)
        assert replay is not None and replay.play().state.value == "won"
        assert (4, 4) not in {(int(m[1]), int(m[2])) for m in replay.moves if m[0] & 3 == 0}


def test_undo_key_and_nothing_to_undo(drv):
    game = drv.attach_board(MASK)
    assert drv.app.undo_loss() is False  # nothing lost yet
    drv.tap_cell(1, 2)
    drv.tap_cell(0, 0)  # boom
    drv.wait(0.8)
    drv.key(117, "u")  # u takes the losing move back (and closes the dialog)
    drv.wait(0.4)
    assert drv.game is not game and drv.game.state.value == "playing"
    assert not any(isinstance(w, EndDialog) for w in drv.window.children)


def test_abandoning_a_game_asks_first_and_is_counted(drv, data_dir):
    game = drv.attach_board(MASK)
    drv.press(drv.ids("face"))  # not started yet: nothing to lose, no question
    assert drv.game is not game
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.press(drv.ids("face"))
    ask = modal(drv, ConfirmDialog)
    assert "abandon" in ask.title.lower() and drv.ctrl.paused
    drv.press(ask.ids.no)
    assert drv.game is game and not drv.ctrl.paused  # keep playing
    drv.wait(0.4)  # the question fades out
    drv.press(drv.ids("face"))
    drv.press(modal(drv, ConfirmDialog).ids.yes)
    assert drv.game is not game and drv.ctrl.state == "ready"
    assert drv.app.store.stats("beginner").abandoned == 1
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        assert db.count() == 0  # an abandoned game is not a loss
    drv.app.show_screen("records")
    drv.frames(3)
    assert "1 abandoned" in drv.app.root.get_screen("records").summary
    # the New game screen asks too
    drv.app.show_screen("game")
    drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.app.show_screen("new_game")
    drv.frames(3)
    screen = drv.app.root.get_screen("new_game")
    drv.press(screen.ids.start)
    drv.press(modal(drv, ConfirmDialog).ids.yes)
    assert drv.app.root.current == "game" and drv.ctrl.state == "ready"
    assert drv.app.store.stats("beginner").abandoned == 2


def test_discarding_a_saved_game_counts_it_abandoned(make_app, data_dir):
    drv = make_app(data_dir)
    drv.tap_cell(4, 4)
    drv.stop()
    drv = make_app(data_dir)
    drv.press(modal(drv, ResumeDialog).ids.discard)
    assert drv.app.store.stats("beginner").abandoned == 1


@pytest.mark.parametrize("profile", ["desktop", "phone_360"])
def test_escape_on_the_game_pauses_and_asks_never_quits(make_app, data_dir, profile):
    drv = start_app(make_app, data_dir, profile)
    drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    w = drv.window
    # as SDL does: on_keyboard (which quits on Escape) only if on_key_down is not handled
    assert w.dispatch("on_key_down", 27, 41, None, []) is True
    drv.frames(2)
    assert drv.ctrl.paused
    ask = modal(drv, ConfirmDialog)
    assert "quit" in ask.title.lower()
    # Kivy's own Escape handling asks the app before closing: the app says no
    assert w.dispatch("on_request_close", source="keyboard") is True
    assert len([x for x in w.children if isinstance(x, ConfirmDialog)]) == 1  # asked once
    drv.press(ask.ids.no)
    assert drv.app.root.parent is w and drv.app.root.current == "game"
    assert drv.app.quit_dialog is None
    # back (Android) does the same
    assert w.dispatch("on_key_down", 1001, 0, None, []) is True
    drv.frames(2)
    drv.press(modal(drv, ConfirmDialog).ids.no)
    assert drv.app.root.parent is w


def test_desktop_window_remembers_its_size(make_app, data_dir):
    drv = start_app(make_app, data_dir, "desktop")
    drv.window.size = (1100, 700)
    drv.frames(2)
    drv.stop()
    drv = make_app(data_dir, size=(1280, 800))
    drv.frames(2)
    assert tuple(drv.window.size) == (1100, 700)


def test_main_opens_the_desktop_window_landscape_within_1280x800():
    from fastmine.app import launch

    w, h = (int(v) for v in launch.DESKTOP_SIZE.split("x"))
    assert w > h and w <= 1280 and h <= 800 - 60  # room for a title bar and a panel


def test_profiles_examples():
    import doctest

    import profiles

    assert doctest.testmod(profiles).failed == 0
