"""Text that fits and follows the language (issue 34 §2), at a 360-dp phone with
large text (720x1280, density 2, font scale 1.3) and in landscape: every
setting's choice inside its row with its whole text, the Replays screen's
Import button in the new language, the end dialog's last stats row above its
fold, no English left in Chinese and Russian."""

from __future__ import annotations

import re

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


def texture_inside(w, slack: float = 1.5) -> bool:
    w.texture_update()
    return w.texture_size[0] <= w.width + slack and w.texture_size[1] <= w.height + slack


@pytest.mark.parametrize("code", ["ru", "de", "zh_CN"])
def test_every_settings_choice_stays_inside_its_row_with_its_whole_text(make_app, data_dir, code):
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language=code)
    drv.app.show_screen("settings")
    drv.frames(4)
    rows = drv.app.root.get_screen("settings").rows
    bad = []
    for key, row in rows.items():
        choices = row.ids.choices
        for b in choices.children:
            if not hasattr(b, "texture_update"):
                continue  # the player's name: a text field
            x0, _y0, x1, _y1 = box(b)
            cx0, _cy0, cx1, _cy1 = box(choices)
            if x0 < cx0 - 0.5 or x1 > cx1 + 0.5 or x1 > drv.window.width:
                bad.append(f"{key}: {b.text!r} spans {x0:.0f}-{x1:.0f} in {cx0:.0f}-{cx1:.0f}")
            elif not texture_inside(b):
                bad.append(f"{key}: {b.text!r} text {b.texture_size} in {b.size}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("code", "profile"), [("zh_CN", "phone_360_font13"), ("ru", "phone_360_font13"),
                                               ("en", "phone_360_font13"), ("ru", "landscape"),
                                               ("zh_CN", "landscape")])
def test_the_end_dialog_shows_whole_stats_rows_clear_of_the_scroll_bar(make_app, data_dir, code,
                                                                       profile):
    from fixedgame import MASK
    from test_app_games import open_dialog, win_by_taps

    from fastmine.app.dialogs.endgame import EndDialog

    drv = start_app(make_app, data_dir, profile, animations=0, language=code)
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.wait(2.0)
    win_by_taps(drv, game)
    d = open_dialog(drv, EndDialog)
    drv.frames(4)
    scroll = d.ids.scroll
    sx0, sy0, sx1, sy1 = box(scroll)
    shown = 0
    for w in d.ids.lines.children:
        x0, y0, x1, y1 = box(w)
        inside = y0 >= sy0 - 0.5 and y1 <= sy1 + 0.5
        outside = y1 <= sy0 + 0.5 or y0 >= sy1 - 0.5
        assert inside or outside, f"{w.text!r} cut at the fold: {y0:.0f}-{y1:.0f} in {sy0:.0f}-{sy1:.0f}"
        if inside:
            shown += 1
            assert texture_inside(w), f"{w.text!r}: {w.texture_size} in {w.size}"
            if w.halign == "right":  # a value: clear of the scroll bar over the right edge
                assert x0 + (w.width + w.texture_size[0]) / 2 <= sx1 - scroll.bar_width, w.text
    assert shown >= 2


def tight_buttons(root, window, margin: float) -> list[str]:
    """Buttons whose words come closer than ``margin`` px to their left or right border."""
    from kivy.uix.button import Button

    bad = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Button) or not w.text.strip() or w.opacity == 0 or w.width < 2:
            continue
        x0, y0, x1, y1 = box(w)
        if x1 <= 0 or y1 <= 0 or x0 >= window.width or y0 >= window.height:
            continue
        w.texture_update()
        lines = getattr(w._label, "_cached_lines", [])
        widest = max((line.w for line in lines), default=w.texture_size[0])
        if (w.width - widest) / 2 < margin:
            bad.append(f"{type(w).__name__} {w.text[:30]!r}: words {widest:.0f} px in {w.width:.0f}")
        drawn = [x for line in lines for x in "".join(wd.text for wd in line.words).split()]
        words = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", w.text).split()
        if lines and drawn != words and not any("\u3000" <= ch <= "\u9fff" for ch in w.text):
            bad.append(f"{type(w).__name__} {w.text[:30]!r}: a word cut, drawn {drawn}")
    return bad


@pytest.mark.parametrize("code", ["ru", "zh_CN"])
def test_button_words_keep_clear_of_their_border(make_app, data_dir, code):
    from fixedgame import MASK
    from kivy.metrics import dp
    from test_app_games import open_dialog, win_by_taps

    from fastmine.app.dialogs.endgame import EndDialog

    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language=code)
    game = drv.attach_board(MASK)
    bad = [f"game: {b}" for b in tight_buttons(drv.app.root, drv.window, dp(6))]
    drv.tap_cell(1, 2)
    drv.wait(2.0)
    win_by_taps(drv, game)
    d = open_dialog(drv, EndDialog)
    drv.frames(4)
    bad += [f"end dialog: {b}" for b in tight_buttons(d, drv.window, dp(6))]
    d.dismiss()
    drv.frames(3)
    for name in ("new_game", "replays"):
        drv.app.show_screen(name)
        drv.frames(4)
        bad += [f"{name}: {b}" for b in tight_buttons(drv.app.root, drv.window, dp(6))]
    assert not bad, "\n".join(bad)


# ------------------------------------------------- every word in the language in use


def test_the_replays_import_button_follows_a_language_change(make_app, data_dir):
    # the button's words were translated once, at import: after a change to
    # Chinese it still said "Import a video or replay" (boxes the other way round)
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language="en")
    drv.app.show_screen("replays")
    drv.frames(3)
    button = drv.app.root.get_screen("replays").ids.import_button
    assert button.text == "Import a video or replay"
    drv.app.apply_language("zh_CN")
    drv.frames(3)
    drv.app.show_screen("replays")
    drv.frames(3)
    button = drv.app.root.get_screen("replays").ids.import_button
    assert button.text == i18n._("Import a video or replay") != "Import a video or replay"


def test_the_resume_offer_reads_as_one_sentence_of_the_language(make_app, data_dir):
    from fastmine.app.dialogs.messages import ResumeDialog

    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language="zh_CN")
    drv.tap_cell(4, 4)
    drv.stop()  # quitting saves
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language="zh_CN")
    d = [w for w in drv.window.children if isinstance(w, ResumeDialog)]
    assert d, "the saved game is offered"
    assert ", " not in d[0].text and d[0].text.endswith("。"), d[0].text
    assert "，" in d[0].text


@pytest.mark.parametrize("code", ["ru", "zh_CN"])
def test_the_progress_legend_and_a_game_code_typo_speak_the_language(make_app, data_dir, code):
    drv = start_app(make_app, data_dir, "phone_360_font13", animations=0, language=code)
    drv.app.show_screen("progress")
    drv.frames(3)
    legend = drv.app.root.get_screen("progress").legend
    assert "a win" not in legend and i18n._("a win") in legend
    from fastmine import gamecode

    good = gamecode.encode(gamecode.GameSpec("seed", 9, 9, 10, "opening", seed=7))
    typo = good[:-1] + ("2" if good[-1] != "2" else "3")
    problem = drv.app.play_code(typo)
    assert problem == i18n._("This code has a typo: check it letter by letter.")
    assert problem.isascii() == (code == "en"), problem
