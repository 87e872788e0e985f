"""The app in other languages, with the real app, real rendering and real touches:
the Language setting applies at once (the game goes on), "System" follows the
device, and every screen in German and Russian at a 360-dp phone with large
text (font scale 1.3) keeps every label's words inside its widget; Chinese and
Japanese draw with their own font."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog, settle  # noqa: E402
from profiles import PROFILES, Profile, box, start_app  # noqa: E402

from fastmine import HIDDEN  # noqa: E402
from fastmine.app.text import i18n  # noqa: E402

PHONE_LARGE = PROFILES["phone_360_font13"]
"""720x1280 at density 2 with font scale 1.3: the tightest phone profile."""


@pytest.fixture(autouse=True)
def english_after():
    yield
    from fastmine.app.text.languages import use_font

    i18n.set_language("en")
    use_font("en")


def visible(w) -> bool:
    """Drawn: neither it nor a parent is transparent (the window is its own parent)."""
    seen = set()
    while w is not None and id(w) not in seen:
        seen.add(id(w))
        if getattr(w, "opacity", 1) == 0:
            return False
        w = w.parent
    return True


def overflowing(root, window) -> list[str]:
    """Labels (and buttons) whose words spill out of their widget, on screen."""
    from kivy.uix.label import Label

    bad = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text or not visible(w):
            continue
        w.texture_update()
        tw, th = w.texture_size
        x0, y0, x1, y1 = box(w)
        if x1 <= 0 or y1 <= 0 or x0 >= window.width or y0 >= window.height:
            continue  # scrolled out of view
        if tw > w.width + 1.5 or th > w.height + 1.5:
            bad.append(f"{type(w).__name__} {w.text[:40]!r}: text {tw:.0f}x{th:.0f} in "
                       f"{w.width:.0f}x{w.height:.0f}")
    return bad


def lose(drv):
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    r, c = next((int(r), int(c)) for r, c in np.argwhere(np.asarray(MASK, bool)
                                                         & (game.view == HIDDEN)))
    drv.tap_cell(r, c)
    return end_dialog(drv)


def screens(drv, code: str, folder, check) -> None:
    """Every screen and dialog of the app, each shot and checked."""
    app = drv.app

    def look(name: str, root) -> None:
        drv.frames(4)
        drv.screenshot(folder, f"lang_{code}_{name}")
        check(name, root)

    look("game", app.root)
    for name in ("new_game", "records", "progress", "replays", "settings", "about", "how_to_play"):
        app.show_screen(name)
        look(name, app.root)
        if name == "settings":  # its long page, scrolled to the end
            app.root.current_screen.ids.box.parent.scroll_y = 0
            look("settings_end", app.root)
    app.show_screen("game")
    drv.frames(2)
    from kivy.factory import Factory

    menu = Factory.MainMenu()
    menu.open(drv.ids("menu_button"))
    look("menu", menu)
    menu.dismiss()
    drv.frames(2)
    d = lose(drv)
    look("end_dialog", d)
    drv.press(d.ids.why)
    settle(drv, 0.5)
    look("replay", app.root)


@pytest.mark.parametrize("code", ["de", "ru"])
def test_every_screen_at_large_text_keeps_its_words_inside(make_app, data_dir, screenshot_dir,
                                                           code):
    drv = start_app(make_app, data_dir, PHONE_LARGE, language=code, animations=0)
    assert i18n.language() == code
    problems: list[str] = []
    screens(drv, code, screenshot_dir,
            lambda name, root: problems.extend(f"{name}: {p}" for p in overflowing(root, drv.window)))
    assert not problems, "\n".join(problems)


def test_the_language_setting_applies_at_once_and_the_game_goes_on(make_app, data_dir):
    drv = start_app(make_app, data_dir, "phone_360", animations=0)
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    before = game.view.copy()
    drv.app.show_screen("settings")
    drv.frames(3)
    settings = drv.app.root.get_screen("settings")
    row = settings.rows["language"]
    button = row.ids["choice_ru"]
    settings.ids.box.parent.scroll_to(button, animate=False)
    drv.frames(3)
    drv.press(button)  # a real tap on "Русский"
    drv.frames(3)
    app = drv.app
    assert i18n.language() == "ru" and app.config.get("game", "language") == "ru"
    assert app.root.current == "settings"  # the player stays where the choice was made
    assert app.root.get_screen("settings").ids.box.children[-1].text == "Игра"
    app.show_screen("game")
    drv.frames(3)
    assert drv.game is game and np.array_equal(drv.game.view, before)  # the game goes on
    assert drv.ids("hint").text == "Подсказка" and drv.ids("odds").text == "Шансы"
    assert drv.ctrl.paused  # as any visit to Settings leaves it: a tap resumes
    drv.press(drv.ids("paused_cover"))
    drv.tap_cell(*next((int(r), int(c)) for r, c in np.argwhere(
        ~np.asarray(MASK, bool) & (game.view == HIDDEN))))
    assert (game.view != before).any()  # the new screen plays the same game
    # English again, by the same row
    app.show_screen("settings")
    drv.frames(3)
    row = app.root.get_screen("settings").rows["language"]
    row.value = "en"
    drv.frames(3)
    assert i18n.language() == "en" and drv.ids("hint").text == "Hint"


def test_a_word_with_two_senses_is_two_messages(make_app, data_dir):
    # "Light" is a theme and a vibration strength: Russian once showed the
    # vibration's "Слабая" (weak) for the light theme.  Seen on the real screen.
    drv = start_app(make_app, data_dir, "phone_360", animations=0, language="ru")
    drv.app.show_screen("settings")
    drv.frames(3)
    rows = drv.app.root.get_screen("settings").rows
    words = {k: [c.text for c in r.ids.choices.children[::-1]] for k, r in rows.items()}
    assert words["theme"][:2] == ["Светлая", "Тёмная"]
    assert words["vibration"] == ["Выкл.", "Слабая", "Сильная"]


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.SOURCE])
def test_every_language_tells_the_two_senses_apart(code):
    from fastmine.app.screens.settings import shown

    i18n.set_language(code)
    assert shown("Light", "theme") != shown("Light", "vibration")
    assert shown("Light", "theme") == i18n.translate("Light")


def test_a_choice_shared_by_settings_of_different_senses_has_a_context():
    # Off/On of the on-off settings mean the same everywhere; any other word two
    # settings offer ("Light", a vibration's "Off") is a message of its own in
    # every setting but one, or a translator cannot tell the senses apart.
    from fastmine.app import settings as S

    keys_of: dict[str, list[str]] = {}
    for item in S.PANEL:
        if item["type"] == "options":
            for label in S.option_labels(item).values():
                keys_of.setdefault(label, []).append(item["key"])
        elif item["type"] == "bool":
            for label in S.option_labels(item).values():
                keys_of.setdefault(label, []).append("<on-off>")
    for label, keys in keys_of.items():
        senses = sorted(set(keys))
        if len(senses) > 1 and not label.endswith(" s"):  # a delay is a number
            plain = [k for k in senses if k not in i18n.CONTEXT_KEYS]
            assert len(plain) <= 1, (label, senses)


def test_system_follows_the_desktop_locale():
    assert i18n.system_language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert i18n.system_language({"LANGUAGE": "pt_BR:pt", "LANG": "en_US.UTF-8"}) == "pt_BR"
    assert i18n.system_language({"LC_ALL": "zh_CN.UTF-8"}) == "zh_CN"
    assert i18n.system_language({"LANG": "sv_SE.UTF-8", "LANGUAGE": "sv"}) in i18n.LANGUAGES


@pytest.mark.parametrize("code", ["zh_CN", "ja", "ko"])
def test_chinese_japanese_and_korean_draw_with_their_own_font(make_app, data_dir, screenshot_dir, code):
    from kivy.core.text import DEFAULT_FONT, LabelBase

    drv = start_app(make_app, data_dir, "phone_393", language=code, animations=0)
    font = i18n.font_for(code)
    assert LabelBase._fonts[DEFAULT_FONT][0] == font
    hint = drv.ids("hint")
    assert hint.text == i18n._("Hint") != "Hint"
    hint.texture_update()
    assert hint.texture_size[0] > 10  # drawn, in the app's font
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.app.ctrl.hint()
    drv.frames(3)
    drv.screenshot(screenshot_dir, f"lang_{code}_game")
    assert not overflowing(drv.app.root, drv.window)
    assert game.view[1, 2] >= 0


def test_a_game_in_russian_speaks_russian_with_the_default_font(make_app, data_dir,
                                                                 screenshot_dir):
    from kivy.core.text import DEFAULT_FONT, LabelBase

    drv = start_app(make_app, data_dir, "phone_393", language="ru", animations=0)
    assert LabelBase._fonts[DEFAULT_FONT][0].endswith("Roboto-Regular.ttf")  # it has Cyrillic
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.app.ctrl.hint()
    drv.frames(3)
    drv.screenshot(screenshot_dir, "lang_ru_game_hint")
    assert drv.ids("hint").text == "Подсказка" and drv.ids("solver").text == "Решатель"
    assert drv.ctrl.message.startswith("Безопасно")
    assert not overflowing(drv.app.root, drv.window)
    assert game.view[1, 2] >= 0


def test_a_landscape_phone_in_german_keeps_its_words_inside(make_app, data_dir):
    p = PROFILES["landscape"]
    drv = start_app(make_app, data_dir, Profile("landscape_large", p.size, p.density, 1.3),
                    language="de", animations=0)
    assert not overflowing(drv.app.root, drv.window)
