"""Where things are, and the first minute (issue 34 §3): the menu opens under
its button; the tutorial speaks to the mouse on a desktop and to the finger on
a touch screen, its clock does not run, it leaves the first game unpaused, its
Skip is a button and its card leaves the rows its step talks about in view;
the desktop import chooser is themed, with the usual places and a path field."""

from __future__ import annotations

import pytest

pytest.importorskip("kivy")

from profiles import box, start_app  # noqa: E402

from fastmine.app.text import i18n  # noqa: E402


@pytest.fixture(autouse=True)
def english_after():
    yield
    from fastmine.app.text.languages import use_font

    i18n.set_language("en")
    use_font("en")


def open_menu(drv):
    drv.press(drv.ids("menu_button"))
    drv.wait(0.3)
    return next(w for w in drv.window.children if type(w).__name__ == "MainMenu")


@pytest.mark.parametrize("profile", ["phone_360_font13", "phone_393", "desktop"])
def test_the_menu_opens_right_under_its_button(make_app, data_dir, profile):
    # a portrait phone showed it at the bottom of the window over the tool bar,
    # a desktop 70 px under its button
    drv = start_app(make_app, data_dir, profile, animations=0)
    menu = open_menu(drv)
    bx0, by0, bx1, _by1 = box(drv.ids("menu_button"))
    mx0, my0, mx1, my1 = box(menu)
    assert my1 == pytest.approx(by0, abs=1), (box(menu), (bx0, by0, bx1))
    assert mx1 == pytest.approx(bx1, abs=1)  # right edges in line
    assert my0 >= 0 and mx0 >= 0 and menu.height == pytest.approx(menu.container.minimum_height)
    menu.dismiss()
    drv.wait(0.3)


def test_a_turned_phone_opens_the_whole_menu_beside_its_button(make_app, data_dir):
    drv = start_app(make_app, data_dir, "landscape", animations=0)
    menu = open_menu(drv)
    bx0, _by0, _bx1, _by1 = box(drv.ids("menu_button"))
    mx0, my0, mx1, my1 = box(menu)
    assert my0 >= 0 and my1 <= drv.window.height + 0.5 and mx0 >= 0
    assert mx1 == pytest.approx(bx0, abs=1)
    assert menu.height == pytest.approx(menu.container.minimum_height)
    menu.dismiss()
    drv.wait(0.3)


# ------------------------------------------------------------------ the tutorial


def card(drv):
    return drv.app._card


def step(drv) -> str | None:
    from fastmine.app.screens import tutorial as T

    i = drv.app.tutorial_step
    return None if i is None else T.STEPS[i].name


@pytest.mark.parametrize(("mouse", "words", "not_words"), [
    (True, "Right-click", "Hold a finger on it until"), (False, "Hold a finger", "Right-click")])
def test_the_tutorial_speaks_to_the_mouse_or_the_finger(make_app, data_dir, mouse, words,
                                                        not_words):
    # a desktop told a mouse player to hold: holding the left button opens the
    # mine on release, and the tutorial started again
    from fastmine.app.screens import tutorial as T

    drv = start_app(make_app, data_dir, "desktop" if mouse else "phone_360", offer_tutorial=True,
                    animations=0)
    drv.app.mouse_player = mouse
    drv.app._tutorial_show()
    assert card(drv).text.startswith("Click" if mouse else "Tap")
    drv.tap_cell(*T.OPEN)
    assert step(drv) == "flag"
    assert words in card(drv).text and not_words not in card(drv).text
    if mouse:  # a real right click flags it, and the step is done
        drv.tap_cell(*T.FLAG_CELL, button="right", device="mouse")
        assert step(drv) == "chord" and card(drv).text.startswith("Now click")


def test_on_a_desktop_platform_the_tutorial_speaks_to_the_mouse(make_app, data_dir, monkeypatch):
    import kivy.utils

    drv = start_app(make_app, data_dir, "desktop", offer_tutorial=True, animations=0)
    assert drv.app.speaks_to_mouse()  # Linux here
    monkeypatch.setattr(kivy.utils, "platform", "android")
    assert not drv.app.speaks_to_mouse()


def test_the_tutorials_clock_stands_still_and_the_first_game_is_not_paused(make_app, data_dir):
    from fastmine.app.screens import tutorial as T

    drv = start_app(make_app, data_dir, "phone_360", offer_tutorial=True, animations=0)
    assert step(drv) == "open"
    drv.tap_cell(*T.OPEN)
    drv.wait(5.0)
    assert drv.game.elapsed == 0.0 and drv.ids("timer").text.strip("0") == ""
    drv.press(card(drv).ids.skip)
    drv.frames(3)
    assert step(drv) is None
    # the first real game: ready to play, not "Paused - Tap to resume"
    assert drv.game.state.value == "ready" and not drv.ctrl.paused
    assert drv.ids("paused_cover").opacity == 0 or drv.ids("paused_cover").disabled


def test_a_game_played_before_the_tutorial_comes_back_paused(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_360", animations=0)
    drv.tap_cell(4, 4)
    game = drv.game
    drv.app.start_tutorial()
    drv.frames(2)
    drv.press(card(drv).ids.skip)
    drv.frames(2)
    assert drv.game is game and drv.ctrl.paused


def test_skip_looks_like_a_button(make_app, data_dir):
    from kivy.graphics import Color, Line

    drv = start_app(make_app, data_dir, "phone_360", offer_tutorial=True, animations=0)
    skip = card(drv).ids.skip
    drawn = list(skip.canvas.after.children)
    lines = [i for i, ins in enumerate(drawn) if isinstance(ins, Line)]
    assert lines, "no outline"
    colour = next(ins for ins in reversed(drawn[:lines[0]]) if isinstance(ins, Color))
    assert colour.a > 0.5  # a visible border round its word


@pytest.mark.parametrize("profile", ["landscape", "desktop"])
def test_the_tutorial_card_leaves_the_cells_of_its_step_in_view(make_app, data_dir, profile):
    from fastmine.app.screens import tutorial as T

    drv = start_app(make_app, data_dir, profile, offer_tutorial=True, animations=0)
    drv.app.mouse_player = profile == "desktop"
    b = drv.board

    def clear(target) -> None:
        drv.frames(3)
        cx0, cy0, cx1, cy1 = box(card(drv))
        x0, y0, x1, y1 = target
        dx = min(cx1, x1) - max(cx0, x0)
        dy = min(cy1, y1) - max(cy0, y0)
        assert dx <= 0.5 or dy <= 0.5, f"{profile} {step(drv)}: card {box(card(drv))} over {target}"

    def around(cell):
        x, y = drv.cell_pos(*cell)
        half = 1.5 * b.scale
        return (x - half, y - half, x + half, y + half)

    clear(around(T.OPEN))
    drv.tap_cell(*T.OPEN)
    clear(around(T.FLAG_CELL))
    if profile == "desktop":
        drv.tap_cell(*T.FLAG_CELL, button="right", device="mouse")
    else:
        drv.long_press_cell(*T.FLAG_CELL)
    assert step(drv) == "chord"
    clear(around(T.CHORD_CELL))
    drv.tap_cell(*T.CHORD_CELL)
    assert step(drv) == "fit"
    drv.wait(0.3)
    clear(box(b.fit_button))


# ------------------------------------------------------------- the import chooser


@pytest.mark.parametrize("code", ["en", "zh_CN"])
def test_the_desktop_import_chooser_has_places_a_path_field_and_the_apps_look(
        make_app, data_dir, tmp_path, monkeypatch, code):
    # Kivy's bare dark file list, English headers (Name, Size), no path field
    import shutil
    from pathlib import Path

    from kivy.uix.filechooser import FileChooserController

    from fastmine.app.replays import videoimport

    data = Path(__file__).resolve().parents[1] / "data"
    home = tmp_path / "home"
    (home / "Downloads" / "games").mkdir(parents=True)
    shutil.copy(data / "videos" / "meta_v3_beg.evf", home / "Downloads" / "game.evf")
    (home / "Downloads" / "notes.txt").write_text("not a video")
    monkeypatch.setenv("HOME", str(home))
    drv = start_app(make_app, data_dir, "desktop", animations=0, language=code)
    drv.app.show_screen("replays")
    drv.frames(2)
    picker = videoimport.choose_file(drv.app, chooser=_no_native)
    drv.frames(3)
    assert not any(isinstance(w, FileChooserController) for w in picker.walk())
    assert set(picker.places) == {"Home", "Downloads"}  # no last folder yet
    assert picker.places["Home"].text == i18n._("Home")
    drv.press(picker.places["Downloads"])
    drv.frames(2)
    assert picker.folder == str(home / "Downloads")
    assert picker.entries == ["games/", "game.evf"]  # folders, then videos; no notes.txt
    # the words are the app's: no English header left in Chinese
    texts = " ".join(w.text for w in picker.walk() if hasattr(w, "text"))
    assert "Name" not in texts and "Size" not in texts
    # a typed path: a folder is shown, nonsense is said so, a file opens
    picker.path_field.text = str(home)
    picker.path_field.dispatch("on_text_validate")
    assert picker.folder == str(home)
    picker.path_field.text = str(home / "nowhere")
    picker.path_field.dispatch("on_text_validate")
    assert picker.message and picker.folder == str(home)
    picker.path_field.text = str(home / "Downloads" / "game.evf")
    picker.path_field.dispatch("on_text_validate")
    drv.frames(3)
    assert drv.app.root.current == "replay"
    # the next chooser offers the folder it came from
    assert drv.app.config.get("game", "import_folder") == str(home / "Downloads")
    picker = videoimport.kivy_chooser(drv.app)
    assert picker.folder == str(home / "Downloads")
    picker.dismiss()
    drv.wait(0.5)


def _no_native(**_kw):
    raise NotImplementedError("no native chooser here")
