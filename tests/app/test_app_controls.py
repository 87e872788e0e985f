"""Control schemes, tap on a number, the double-tap delay and vibration
(issue 26, item 4), with real touches through Kivy's event loop at the phone
profiles.  Every scheme does what its name says; the mouse keeps its buttons;
vibration has strengths and patterns, migrates from the old on/off setting, and
a long press without a vibrator logs no traceback."""

from __future__ import annotations

import logging

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog  # noqa: E402
from profiles import PHONES, start_app  # noqa: E402

from fastmine import FLAG, HIDDEN  # noqa: E402

# MASK (fixedgame): 9x9, mines at the corners, the middles of the edges, (4, 4) and
# (2, 6); (1, 2) opens an area. After it, (1, 4) is a 1 whose only mine is (0, 4)
# and whose hidden neighbour (0, 5) is safe.
SAFE, MINE = (0, 5), (0, 4)
NUMBER = (1, 4)


@pytest.fixture
def buzz():
    """Record vibration patterns instead of asking a vibrator."""
    from fastmine.app.services import haptics

    patterns: list[tuple[float, ...]] = []
    haptics.set_backend(patterns.append)
    yield patterns
    haptics.set_backend(None)


def phone(make_app, data_dir, profile="phone_360", **config):
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = True
    drv = start_app(make_app, data_dir, profile, **config)
    drv.attach_board(MASK)
    drv.ctrl.reveal(1, 2)  # the opening, whatever a tap does
    drv.frames(2)
    assert drv.game.view[1, 2] == 0
    return drv


@pytest.fixture(autouse=True)
def _touch_first_back():
    yield
    from fastmine.app.board import viewport

    viewport.TOUCH_FIRST = None


def double_tap(drv, r, c) -> None:
    """Two quick taps on a cell: the second lands 0.05 s after the first lifts."""
    x, y = drv.cell_pos(r, c)
    drv.tap(x, y, hold=0.05)
    drv.tap(x, y, hold=0.05)


# ---------------------------------------------------------------- the schemes


@pytest.mark.parametrize("profile", PHONES)
def test_tap_opens_hold_flags(make_app, data_dir, profile):
    drv = phone(make_app, data_dir, profile, controls="tap_open")
    g = drv.game
    drv.long_press_cell(*MINE)
    assert g.view[MINE] == FLAG
    drv.tap_cell(*SAFE)
    assert g.view[SAFE] >= 0  # at once: no waiting for a second tap


@pytest.mark.parametrize("profile", ["phone_393", "landscape"])
def test_tap_flags_hold_opens(make_app, data_dir, profile):
    drv = phone(make_app, data_dir, profile, controls="tap_flag")
    g = drv.game
    drv.tap_cell(*MINE)
    assert g.view[MINE] == FLAG
    drv.tap_cell(*MINE)  # a tap again takes the flag off (question marks are off on phones)
    assert g.view[MINE] == HIDDEN
    drv.long_press_cell(*SAFE)
    assert g.view[SAFE] >= 0


@pytest.mark.parametrize("profile", ["phone_360_font13", "phone_393"])
def test_double_tap_opens_tap_flags(make_app, data_dir, profile):
    drv = phone(make_app, data_dir, profile, controls="double_open")
    g = drv.game
    drv.tap_cell(*MINE)
    assert g.view[MINE] == HIDDEN  # the single tap waits for a possible second one ...
    drv.wait(0.3)
    assert g.view[MINE] == FLAG  # ... then flags
    double_tap(drv, *SAFE)
    assert g.view[SAFE] >= 0  # a double tap opens
    assert g.view[MINE] == FLAG
    # a hold opens too (it does what a double tap does)
    hidden = [tuple(map(int, rc)) for rc in np.argwhere((g.view == HIDDEN) & ~MASK)]
    r, c = hidden[0]
    drv.long_press_cell(r, c)
    assert g.view[r, c] >= 0


def test_double_tap_flags_tap_opens(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_360", controls="double_flag")
    g = drv.game
    double_tap(drv, *MINE)
    assert g.view[MINE] == FLAG
    drv.wait(0.5)
    assert g.view[MINE] == FLAG  # not a flag and then a single tap on top of it
    drv.tap_cell(*SAFE)
    assert g.view[SAFE] == HIDDEN
    drv.wait(0.3)
    assert g.view[SAFE] >= 0
    hidden = [tuple(map(int, rc)) for rc in np.argwhere((g.view == HIDDEN) & MASK)]
    drv.long_press_cell(*hidden[0])
    assert g.view[hidden[0]] == FLAG


def test_a_tap_elsewhere_plays_the_waiting_tap_at_once(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_393", controls="double_flag")
    g = drv.game
    drv.tap_cell(*SAFE)
    assert g.view[SAFE] == HIDDEN
    drv.tap_cell(*MINE)  # another cell: the first tap was a single tap after all
    assert g.view[SAFE] >= 0 and g.view[MINE] == HIDDEN
    drv.wait(0.35)
    assert g.state.value == "lost"  # and the second one, a single tap, opened the mine


def test_the_double_tap_delay_setting(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_393", controls="double_flag", double_tap_delay="0.5")
    g = drv.game
    x, y = drv.cell_pos(*MINE)
    drv.tap(x, y, hold=0.05)
    drv.wait(0.4)
    drv.tap(x, y, hold=0.05)  # 0.45 s later: within 0.5 s, a double tap
    assert g.view[MINE] == FLAG
    drv.app.config.set("game", "double_tap_delay", "0.25")
    drv.app.on_config_change(drv.app.config, "game", "double_tap_delay", "0.25")
    drv.wait(0.6)
    x, y = drv.cell_pos(*SAFE)
    drv.tap(x, y, hold=0.05)
    drv.wait(0.4)  # past 0.25 s: the first tap opened the cell
    assert g.view[SAFE] >= 0


def test_flag_mode_swaps_opening_and_flagging_in_a_double_tap_scheme(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_393", controls="double_open")
    g = drv.game
    drv.press(drv.ids("flag_mode"))
    assert drv.ctrl.flag_mode
    drv.tap_cell(*SAFE)
    drv.wait(0.35)
    assert g.view[SAFE] >= 0  # a single tap now opens
    double_tap(drv, *MINE)
    assert g.view[MINE] == FLAG  # and a double tap flags


def test_a_tap_on_a_number_chords_or_does_nothing(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_360", tap_number="nothing")
    g = drv.game
    drv.long_press_cell(*MINE)
    assert g.view[MINE] == FLAG
    drv.tap_cell(*NUMBER)
    assert g.view[SAFE] == HIDDEN  # a tap on the satisfied 1 does nothing
    drv.long_press_cell(*NUMBER)
    assert g.view[SAFE] >= 0  # a hold on it chords
    drv.app.config.set("game", "tap_number", "chord")
    drv.app.on_config_change(drv.app.config, "game", "tap_number", "chord")
    before = g.view.copy()
    drv.long_press_cell(6, 8)  # hold on an unsatisfied number with taps chording: nothing
    assert np.array_equal(g.view, before)


def test_the_mouse_keeps_its_buttons_whatever_the_scheme(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_393", controls="tap_flag")
    g = drv.game
    drv.tap_cell(*MINE, button="right", device="mouse")
    assert g.view[MINE] == FLAG
    drv.tap_cell(*SAFE, button="left", device="mouse")
    assert g.view[SAFE] >= 0


def test_the_scheme_chosen_on_the_settings_screen_applies_to_the_game(make_app, data_dir):
    drv = phone(make_app, data_dir, "phone_360_font13")
    drv.app.open_settings()
    drv.frames(3)
    screen = drv.app.settings_screen()
    row = screen.rows["controls"]
    row.parent.parent.scroll_to(row, animate=False)
    drv.frames(2)
    drv.press(row.ids["choice_tap_flag"])
    assert drv.app.config.get("game", "controls") == "tap_flag"
    drv.app.show_screen("game")
    drv.frames(2)
    assert drv.ctrl.paused
    drv.press(drv.ids("paused_cover"))  # a tap resumes
    drv.tap_cell(*MINE)
    assert drv.game.view[MINE] == FLAG


# ---------------------------------------------------------------- vibration


def test_vibration_strengths_and_patterns(make_app, data_dir, buzz):
    from fastmine.app.services import haptics

    drv = phone(make_app, data_dir, "phone_393", vibration="strong")
    drv.long_press_cell(*MINE)
    assert buzz == [haptics.PATTERNS["hold"]["strong"]]
    buzz.clear()
    drv.app.config.set("game", "vibration", "light")
    drv.long_press_cell(*MINE)  # the flag comes off
    assert buzz == [haptics.PATTERNS["hold"]["light"]]
    buzz.clear()
    drv.tap_cell(4, 4)  # boom
    assert buzz == [haptics.PATTERNS["explode"]["light"]]
    # a longer buzz for strong, a pattern of a few pulses on an explosion
    for event in ("hold", "explode", "win"):
        light, strong = (haptics.PATTERNS[event][s] for s in ("light", "strong"))
        assert sum(strong[1::2]) > sum(light[1::2]) > 0
    assert len(haptics.PATTERNS["win"]["light"][1::2]) == 3


def test_a_win_buzzes_and_off_is_off(make_app, data_dir, buzz):
    from fastmine.app.services import haptics

    drv = phone(make_app, data_dir, "phone_393", vibration="light")
    g = drv.game
    *others, last = [tuple(map(int, rc)) for rc in np.argwhere((g.view == HIDDEN) & ~MASK)]
    for r, c in others:
        drv.ctrl.reveal(r, c)
    drv.tap_cell(*last)  # the last safe cell
    assert g.state.value == "won"
    assert buzz[-1] == haptics.PATTERNS["win"]["light"]
    buzz.clear()
    drv2 = phone(make_app, data_dir, "phone_393", vibration="off")
    drv2.long_press_cell(*MINE)
    drv2.tap_cell(4, 4)
    assert drv2.game.state.value == "lost" and buzz == []


@pytest.mark.parametrize("old, new", [("1", "light"), ("0", "off")])
def test_the_old_on_off_vibration_setting_migrates(make_app, data_dir, old, new):
    drv = phone(make_app, data_dir, "phone_393", haptics=old)
    assert drv.app.config.get("game", "vibration") == new
    drv.app.start_game(drv.app.current_difficulty()[1])  # writes the migrated settings
    with open(drv.app.get_application_config()) as f:
        assert f"vibration = {new}" in f.read()


def test_a_long_press_without_a_vibrator_logs_no_traceback(make_app, data_dir, capfd):
    """plyer has no vibrator on Linux: probed once, quietly, at the first buzz."""
    from fastmine.app.services import haptics

    haptics.set_backend(None)  # the real probe
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    kivy_log = logging.getLogger("kivy")
    kivy_log.addHandler(handler)
    try:
        drv = phone(make_app, data_dir, "phone_393", vibration="strong")
        capfd.readouterr()
        for cell in (MINE, MINE, (0, 8)):
            drv.long_press_cell(*cell)
        drv.tap_cell(4, 4)  # an explosion's pattern too
        end_dialog(drv)
    finally:
        kivy_log.removeHandler(handler)
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert not [r for r in records if r.exc_info or "Traceback" in r.getMessage()]
    said = [r.getMessage() for r in records if "vibration" in r.getMessage()]
    assert len(said) == 1, said  # one quiet line, the first time only
    assert drv.game.view[0, 8] == FLAG and not haptics.available()
