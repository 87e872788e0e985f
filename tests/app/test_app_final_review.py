"""A demanding player's last walk through the whole app (every screen, light and
dark, at the phone profiles with large text, turned, and on a desktop): each
test here failed before its fix.  Real app, real rendering, real touches."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog  # noqa: E402
from profiles import PROFILES, Profile, box, inside, start_app  # noqa: E402

import fastmine  # noqa: E402
from fastmine import HIDDEN  # noqa: E402
from fastmine.records import GameRecord, RecordsStore  # noqa: E402

PHONE_393_LARGE = Profile("phone_393_font13", (1080, 2340), 2.75, 1.3)
"""The 393-dp phone with large text."""


def test_new_game_shows_the_board_new_games_use_on_the_first_visit(drv):
    # a fresh install plays Beginner, and New game showed no board chosen: the
    # first visit set the choice the screen already had, and only a change of
    # choice set the toggles
    drv.app.show_screen("new_game")
    drv.frames(3)
    screen = drv.app.root.get_screen("new_game")
    assert screen.choice == "beginner"
    assert [n for n in screen.presets if screen.ids[f"preset_{n}"].state == "down"] == ["beginner"]
    drv.press(screen.ids.preset_expert)  # a tap still moves the choice
    assert screen.ids.preset_expert.state == "down" and screen.ids.preset_beginner.state == "normal"


def ancestors(widget) -> list:
    """The widget's parents, nearest first."""
    found = []
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        found.append(widget)
    return found


def best_time_dialog(drv):
    """A win on the fixed board with a risky guess (so the coach has a line to
    say) and a best time (so a name is asked)."""
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.clock.advance(12.0)
    for r, c in np.argwhere(~MASK):
        if game.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    assert game.state.value == "won"
    return end_dialog(drv)


@pytest.mark.parametrize("profile", [PHONE_393_LARGE, PROFILES["landscape"]], ids=lambda p: p.name)
def test_the_best_time_prompt_sits_right_above_the_name_field(make_app, data_dir, profile):
    # "New best time! Enter your name:" was followed by the coach's line, then
    # the field, and on a turned phone it was in the scrolled part, under the
    # fold, while the field it asks for showed
    drv = start_app(make_app, data_dir, profile)
    d = best_time_dialog(drv)
    assert d.ask_name and "Enter your name" in d.note and d.summary
    note, row, summary = d.ids.note, d.ids.name_row, d.ids.summary
    assert note.text == d.note and note.height > 0
    assert 0 <= box(note)[1] - box(row)[3] <= 12 * profile.density  # the prompt, then its field
    # the coach's line above, scrolled with the numbers (on a low screen after them)
    assert [w for w in ancestors(summary) if w is d.ids.scroll.__self__]
    assert box(d.ids.scroll)[1] >= box(note)[3]
    assert inside(note, drv.window) and inside(row, drv.window)
    assert not [w for w in ancestors(note) if w is d.ids.scroll.__self__]  # never scrolled away
    # the numbers still fit or scroll, and every button shows
    for name in ("watch_replay", "view_board", "new_game"):
        assert inside(d.ids[name], drv.window)
    # the buttons are as high as their own words need: the hidden "Why did I
    # lose?", wrapped a few letters a line, made them 85 dp high on a turned phone
    shown = [d.ids[n] for n in ("watch_replay", "view_board", "new_game")]
    need = max(max(48, b.texture_size[1] / profile.density + 14) for b in shown)
    assert [b.height / profile.density for b in shown] == pytest.approx([need] * 3)


def test_a_dialog_without_a_note_keeps_its_height(drv):
    d = best_time_dialog(drv)
    tall = d.height
    d.note, d.ask_name = "", False
    drv.frames(3)
    assert d.ids.note.height == 0 and d.ids.ask.height == 0
    assert d.height < tall


def test_a_speed_chart_draws_nothing_below_zero(make_app, data_dir):
    # one win of 0.24 3BV/s: the chart drew a band under its 0.0 tick, down to
    # -0.26, where no speed can be
    with RecordsStore(data_dir=str(data_dir)) as db:
        db.add(GameRecord.make(9, 9, 10, won=True, time=12.5, bbbv=3))
    drv = make_app(data_dir)
    drv.app.show_screen("progress")
    drv.frames(4)
    for chart in drv.app.root.get_screen("progress").charts:
        assert chart.series is not None and len(chart.series) == 1
        _fx, fy = chart._map
        x0, y0, x1, y1 = chart.plot_box
        assert fy(0.0) <= y0 + 0.5  # zero is at the axis or under it: nothing below zero drawn
        (_x, y), = chart.screen_points()
        assert y0 < y < y1


def test_an_assisted_game_abandoned_shows_on_records(make_app, data_dir):
    # "The game in progress will be lost and counted as abandoned in your
    # statistics": with the live coach on (or after a hint) the game was
    # assisted, and Records counted abandoned games without help only: none showed
    from fastmine.app.dialogs.messages import ConfirmDialog

    drv = make_app(data_dir, coach=1)
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.ctrl.hint()
    assert game.assisted and drv.ctrl.state == "playing"
    drv.press(drv.ids("face"))
    drv.wait(0.3)
    ask = next(w for w in drv.window.children if isinstance(w, ConfirmDialog))
    assert "counted as abandoned" in ask.text
    drv.press(ask.ids.yes)
    drv.wait(0.3)
    drv.app.show_screen("records")
    drv.frames(3)
    rs = drv.app.root.get_screen("records")
    assert rs.difficulty == "Beginner" and "1 abandoned" in rs.summary
    assert "Played 0" in rs.summary  # not a game played: win % unchanged


def test_the_resume_offer_never_parts_a_number_from_its_unit(make_app, data_dir):
    # "Intermediate 16 x 16, 40 mines, 0" over "s played, 40 mines left." on a
    # 360-dp phone with large text
    from fastmine.app.dialogs.messages import ResumeDialog

    drv = start_app(make_app, data_dir, "phone_360_font13")
    drv.ctrl.seed = 9
    drv.app.start_game(fastmine.Difficulty(16, 16, 40), name="intermediate")
    drv.ctrl.reveal(8, 8)
    drv.app.save_now()
    drv.stop()
    drv = start_app(make_app, data_dir, "phone_360_font13")
    drv.wait(0.3)
    d = next(w for w in drv.window.children if isinstance(w, ResumeDialog))
    label = next(w for w in d.walk() if getattr(w, "text", None) == d.text and w is not d)
    label.texture_update()
    lines = ["".join(w.text for w in line.words) for line in label._label._cached_lines]
    assert len(lines) > 1, lines  # it wraps at this size: where matters
    assert " ".join(lines).replace("\u00a0", " ") == d.text.replace("\u00a0", " ")
    for before, after in zip(lines[:-1], lines[1:], strict=True):
        assert not (before.rstrip()[-1:].isdigit() and after[:1].isalpha()), lines
        assert not before.rstrip().endswith(" x"), lines


def test_a_label_sits_level_with_its_value_on_two_lines(make_app, data_dir):
    # "62 of 71 safe cells" over "(87%)" on a 360-dp phone with large text, and
    # "Cleared" beside "(87%)", the second line, as if it named that
    from fixedgame import MINES

    drv = start_app(make_app, data_dir, "phone_360_font13")
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.tap_cell(*MINES[1])
    assert game.state.value == "lost"
    d = end_dialog(drv)
    cells = list(reversed(d.ids.lines.children))  # label, value, label, value...
    pairs = list(zip(cells[::2], cells[1::2], strict=True))
    cleared = next(v for k, v in pairs if k.text == "Cleared")
    one_line = cells[0].texture_size[1]
    assert cleared.texture_size[1] > 1.5 * one_line  # it wraps at this size: the case
    for key, value in pairs:
        assert key.height == pytest.approx(value.height)
        assert key.center_y == pytest.approx(value.center_y, abs=1)


def test_a_bad_custom_size_says_why_where_it_can_be_read(make_app, data_dir):
    # Start with a size the game cannot have: the reason appeared under the
    # size fields, out of view on a 360-dp phone with large text, and Start
    # seemed to do nothing
    drv = start_app(make_app, data_dir, "phone_360_font13")
    drv.app.show_screen("new_game")
    drv.frames(3)
    screen = drv.app.root.get_screen("new_game")
    drv.press(screen.ids.custom)
    screen.ids.rows.text, screen.ids.cols.text, screen.ids.mines.text = "2", "2", "9"
    screen.ids.scroll.scroll_y = 1.0  # the top of the screen, the presets, in view
    drv.frames(3)
    assert not inside(screen.ids.mines, screen.ids.scroll)
    drv.press(screen.ids.start)
    drv.frames(4)
    assert drv.app.root.current == "new_game" and "Rows must be" in screen.error
    assert inside(screen.ids.error, screen.ids.scroll)
    assert inside(screen.ids.rows, screen.ids.scroll)  # the field it is about, too


def test_a_long_name_in_the_best_times_keeps_its_beginning(make_app, data_dir):
    # "Maximilian-Alexander von Longname" read "M...e" in the table on a
    # 360-dp phone with large text: no one knows their own name again
    long = "Maximilian-Alexander von Longname"
    with RecordsStore(data_dir=str(data_dir)) as db:
        db.add(GameRecord.make(9, 9, 10, won=True, time=123.456, bbbv=30, name=long))
        db.add(GameRecord.make(9, 9, 10, won=True, time=1.2, bbbv=3, name="Bo"))
    drv = start_app(make_app, data_dir, "phone_360_font13")
    drv.app.show_screen("records")
    drv.frames(3)
    table = drv.app.root.get_screen("records").ids.table
    label = next(w for w in table.children if w.text == long)
    label.texture_update()
    shown = "".join(w.text for line in label._label._cached_lines for w in line.words)
    assert shown != long and shown.endswith("...")  # it is cut at this size: the case
    assert len(shown) > 5 and long.startswith(shown[:-3])
    assert inside(label, drv.window)


@pytest.mark.parametrize("profile", ["landscape", "desktop", "phone_360_font13"])
def test_the_best_times_read_as_one_table_on_a_wide_screen(make_app, data_dir, profile):
    # on a turned phone the name sat in the middle of the screen and its time
    # at the far right, 300 dp away
    with RecordsStore(data_dir=str(data_dir)) as db:
        db.add(GameRecord.make(9, 9, 10, won=True, time=12.5, bbbv=30, name="Ann"))
    drv = start_app(make_app, data_dir, profile)
    drv.app.show_screen("records")
    drv.frames(3)
    table = drv.app.root.get_screen("records").ids.table
    cells = list(reversed(table.children))
    assert [c.text for c in cells[:5]] == ["#", "Name", "Time", "3BV/s", "Date"]
    left = box(cells[0])[0]
    right = box(cells[4])[2]
    density = PROFILES[profile].density
    assert right - left <= 562 * density
    assert inside(cells[0], drv.window) and inside(cells[4], drv.window)
    middle = (left + right) / 2  # centred under the board picker
    assert middle == pytest.approx(drv.window.width / 2, abs=0.1 * drv.window.width)


@pytest.mark.parametrize("profile", ["desktop", "landscape", "phone_360_font13"])
def test_the_about_text_keeps_lines_a_reader_can_follow(make_app, data_dir, profile):
    # on a desktop its lines ran across the whole 1280-px window
    drv = start_app(make_app, data_dir, profile)
    drv.app.show_screen("about")
    drv.frames(3)
    label = next(w for w in drv.app.root.get_screen("about").walk()
                 if type(w).__name__ == "TLabel" and "fastmine" in w.text)
    density = PROFILES[profile].density
    assert label.texture_size[0] <= 642 * density + 2 * label.padding[0]
    assert label.text_size[0] - label.padding[0] - label.padding[2] <= 641 * density
    assert label.padding[0] >= 16 * density - 0.5  # a phone keeps its margins
    assert inside(label, drv.window) or label.height > drv.window.height  # it scrolls


def test_the_about_text_tells_the_app_a_player_has(drv):
    # About named the project's write-ups ("seed write-ups: a Haskell terminal
    # and GUI game...") in its credits, said a right click cycles to a question
    # mark (off unless chosen in Settings), and said nothing of the replays,
    # Why did I lose?, Progress or the coach
    drv.app.show_screen("about")
    drv.frames(2)
    text = drv.app.root.get_screen("about").text
    for word in ("seed", "write-up", "Haskell"):
        assert word not in text
    for feature in ("Replays", "Watch replay", "Why did I lose?", "Progress", "Coach while playing"):
        assert feature in text
    assert "with question marks on" in text
    from kivy.factory import Factory

    menu = [e.text for e in Factory.MainMenu().walk() if type(e).__name__ == "MenuEntry"]
    assert "Replays" in menu  # the words are the menu's own
