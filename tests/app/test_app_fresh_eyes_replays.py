"""A player's second look at the replay player, the end dialog, the Progress
screen, the live coach and read-only records: each test here failed before
its fix.  Real app, real rendering, real touches, time on the fake clock."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog, settle  # noqa: E402
from mounts import remount_ro  # noqa: E402
from profiles import PROFILES, Profile, start_app  # noqa: E402

import fastmine  # noqa: E402
from fastmine import HIDDEN, coach  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.records import GameRecord, RecordsStore  # noqa: E402
from fastmine.replay import Replay  # noqa: E402

PHONE_393_LARGE = Profile("phone_393_font13", (1080, 2340), 2.75, 1.3)
"""The 393-dp phone with large text."""


def lose(drv) -> EndDialog:
    """An opening, then the least likely mine (a real risk)."""
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.frames(1, 2.0)
    hidden = [(int(r), int(c)) for r, c in np.argwhere((game.view == HIDDEN) & MASK)]
    drv.tap_cell(*min(hidden, key=lambda rc: coach.judge(game, "reveal", *rc).risk))
    assert game.state.value == "lost"
    return end_dialog(drv)


def win(drv) -> EndDialog:
    game = drv.attach_board(MASK)
    drv.board.fit()
    for r, c in np.argwhere(~MASK):
        if game.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    assert game.state.value == "won"
    return end_dialog(drv)


def expert_replay(moves: int = 12, seed: int = 4) -> Replay:
    """An Expert game of safe reveals a second apart (not finished)."""
    now = [0.0]
    g = fastmine.Game(16, 30, 99, seed=seed, clock=lambda: now[0])
    g.reveal(8, 15)
    rng = np.random.default_rng(seed)
    while len(Replay.from_game(g)) < moves:
        now[0] += 1.0
        hidden = np.argwhere((g.view == HIDDEN) & ~g.board.mines)
        g.reveal(*(int(v) for v in hidden[rng.integers(len(hidden))]))
    return Replay.from_game(g)


# ------------------------------------------------------------------ the end dialog


def test_end_dialog_values_get_the_width_they_need(make_app, data_dir):
    # "63 of 71 safe cells (89%)" wrapped onto two lines on a 393-dp phone with
    # large text, beside a label column ("Cleared") half empty
    drv = start_app(make_app, data_dir, PHONE_393_LARGE)
    d = lose(drv)
    grid = d.ids.lines
    cells = list(reversed(grid.children))  # label, value, label, value...
    pairs = list(zip(cells[::2], cells[1::2], strict=True))
    one_line = cells[0].texture_size[1]  # "Time": one line
    for key, value in pairs:
        assert value.texture_size[1] == pytest.approx(one_line, abs=1), value.text
        assert key.right <= value.x + 1  # side by side, no overlap
        assert value.right <= grid.right + 1
    cleared = next(v for k, v in pairs if k.text == "Cleared")
    assert "safe cells" in cleared.text


# ------------------------------------------------------------------ read-only records
# (the ``disk`` fixture, a tmpfs that needs root, is in tests/conftest.py)


def read_only_app(make_app, disk):
    """The app on a data folder made read-only after a first run; the box that
    says the settings cannot be saved is read and closed, as a player does."""
    drv = make_app(disk)  # a first run writes its settings and caches
    drv.stop()
    remount_ro(disk)
    drv = make_app(disk)
    settle(drv, 0.2)
    boxes = [w for w in drv.window.children if type(w).__name__ == "MessageDialog"]
    assert all("settings" in w.text.lower() for w in boxes)
    for w in boxes:
        w.dismiss(animation=False)
    drv.frames(2)
    return drv


def test_read_only_records_are_shown_with_a_note_and_no_name_is_asked(make_app, disk):
    with RecordsStore(data_dir=str(disk)) as db:
        db.add(GameRecord.make(9, 9, 10, won=True, time=500.0, bbbv=3, name="Ann"))
    drv = read_only_app(make_app, disk)
    drv.app.show_screen("records")
    settle(drv, 0.3)
    rs = drv.app.root.get_screen("records")
    label = rs.ids.read_only_note
    assert "new games cannot be recorded" in rs.note and label.text == rs.note
    assert label.height > 0 and tuple(label.color) == tuple(drv.app.theme.danger)
    assert rs.error == "" and "Played 1" in rs.summary and rs.rows  # still readable
    drv.app.show_screen("game")
    settle(drv, 0.3)
    d = win(drv)  # a best time (500 s to beat) that cannot be stored
    assert not d.ask_name and d.ids.name_row.height == 0
    assert "Enter your name" not in d.note and "Not recorded" in d.note
    # no "The game was not recorded" box over the dialog (the settings, which
    # cannot be saved either, are told once in a box of their own)
    assert not [w for w in drv.window.children
                if type(w).__name__ == "MessageDialog" and "record" in w.text]
    with RecordsStore(data_dir=str(disk)) as db:
        assert len(db.games()) == 1


def test_read_only_records_loss_still_undoes(make_app, disk):
    with RecordsStore(data_dir=str(disk)):
        pass
    drv = read_only_app(make_app, disk)
    d = lose(drv)
    assert "Not recorded" in d.note and d.can_undo
    drv.press(d.ids.undo)
    settle(drv, 0.5)
    assert drv.ctrl.state == "playing" and drv.game.revealed_count > 0


# ------------------------------------------------------------------ one wording


def test_first_click_rules_are_described_in_one_wording():
    # the new-game screen and the settings screen said the same thing in two ways
    from fastmine.app import settings
    from fastmine.app.screens import newgame

    desc = next(item["desc"] for item in settings.PANEL if item.get("key") == "first_click")
    for rule in settings.FIRST_CLICK_RULES:
        help_line = settings.RULE_HELP[rule]
        assert f"{settings.RULE_LABELS[rule]}: {help_line[:1].lower()}{help_line[1:]}" in desc
    assert newgame.RULE_HELP is settings.RULE_HELP


# ------------------------------------------------------------------ the replay player


def test_leaving_the_app_pauses_the_replay_where_it_was(drv):
    # playback ran on in the background: the first frame back made every move
    # due while the app was away, and the player came back to the last move
    rep = expert_replay()
    scr = drv.app.watch_replay(rep, play=True)
    settle(drv, 2.5)
    k = scr.k
    assert scr.playing and 0 < k < len(rep)
    assert drv.app.dispatch("on_pause")  # the phone's home button: the app may pause
    assert not scr.playing
    drv.clock.advance(120.0)  # two minutes away
    drv.app.dispatch("on_resume")
    settle(drv, 1.0)
    assert scr.k == k and not scr.playing
    scr.pause()  # paused by hand, then away and back: still where it was
    drv.app.dispatch("on_pause")
    drv.clock.advance(60.0)
    drv.app.dispatch("on_resume")
    settle(drv, 1.0)
    assert scr.k == k and not scr.playing


def test_speed_changed_mid_wait_keeps_the_time_already_waited(drv):
    # a faster speed restarted the wait for the next move from zero
    rep = expert_replay()  # moves one second apart
    scr = drv.app.watch_replay(rep)
    scr.set_speed(0.5)  # two seconds a move
    scr.goto(3)
    scr.play()
    settle(drv, 1.6)  # most of the wait for move 4
    assert scr.k == 3
    drv.press(scr.ids.speed)  # 0.5x -> 1x: 0.2 s of game time left, now 0.2 s
    assert scr.speed == 1.0
    settle(drv, 0.4)
    assert scr.k == 4  # not 1 s later


def test_a_finger_holding_the_timeline_holds_the_playback(drv):
    # playing at 8x, a finger holding the thumb at move 20 saw it run on to 28
    # under the finger, then jump back to 20 when it let go
    scr = drv.app.watch_replay(expert_replay(40), play=True)
    scr.set_speed(8.0)  # moves 1 s apart: one every 0.125 s
    settle(drv, 0.3)
    tl = scr.ids.timeline
    y = tl.to_window(tl.center_x, tl.center_y)[1]
    t = drv.down(tl.tick_x(scr.k), y)
    for x in np.linspace(tl.tick_x(scr.k), tl.tick_x(20), 6):
        drv.frames(1)
        drv.move(t, x, y)
    drv.frames(2)
    assert scr.k == 20
    settle(drv, 1.0)  # eight moves' time, the finger still down
    assert scr.k == 20 and round(tl.value) == 20 and scr.playing
    drv.up(t)
    drv.frames(2)
    assert scr.k == 20  # let go where it was
    settle(drv, 0.5)
    assert 20 < scr.k <= 25 and scr.playing  # and playing goes on from there


def test_the_player_s_title_shows_the_result_and_time_of_a_big_custom_game(make_app, data_dir):
    # "50 x 50, 300 mines, playin..." on a 393-dp phone with large text
    from kivy.metrics import dp

    now = [0.0]
    g = fastmine.Game(50, 50, 300, seed=7, clock=lambda: now[0])
    g.reveal(25, 25)
    now[0] = 754.5
    g.reveal(*(int(v) for v in np.argwhere((g.view == HIDDEN) & g.board.mines)[0]))
    drv = start_app(make_app, data_dir, PHONE_393_LARGE)
    scr = drv.app.watch_replay(Replay.from_game(g))
    settle(drv, 0.3)
    header = scr.ids.header
    title = header.ids.title_label
    assert title.text == "50 x 50, 300 mines, lost at 12:34.50"
    assert not title.is_shortened and title.texture_size[1] > title.font_size * 1.5  # two lines
    assert header.height >= title.texture_size[1] + dp(12) - 1
    assert title.texture_size[0] <= title.width + 1


def test_turning_the_phone_back_upright_gives_the_board_its_height_back(make_app, data_dir):
    from profiles import PROFILES, apply_profile

    drv = start_app(make_app, data_dir, PHONE_393_LARGE)
    scr = drv.app.watch_replay(expert_replay(), at=3)
    settle(drv, 0.5)
    board_h, panel_h = scr.ids.board_area.height, scr.ids.panel.height
    land = PROFILES["landscape"]
    apply_profile(drv.window, Profile("turned", land.size, land.density, PHONE_393_LARGE.fontscale))
    settle(drv, 0.5)
    assert scr.landscape and scr.ids.panel.height > panel_h  # a column the screen's height
    apply_profile(drv.window, PHONE_393_LARGE)
    settle(drv, 0.5)
    assert not scr.landscape
    assert scr.ids.panel.height == pytest.approx(panel_h, abs=1)
    assert scr.ids.board_area.height == pytest.approx(board_h, abs=1)


# ------------------------------------------------------------------ progress


def _record(data_dir, games) -> None:
    with RecordsStore(data_dir=str(data_dir)) as db:
        for rows, cols, mines, won, time, bbbv in games:
            db.add(GameRecord.make(rows, cols, mines, won=won, time=time, bbbv=bbbv,
                                   date="2026-11-20T10:00:00Z"))


@pytest.mark.parametrize("games", [
    [(9, 9, 10, True, 14.5, 22)],                                   # one win
    [(9, 9, 10, True, 14.5, 22), (9, 9, 10, True, 14.5, 22)],       # two wins alike
])
def test_a_single_value_is_labelled_where_it_is_drawn(make_app, data_dir, games):
    # one win: its tick read "14" for 14.5 s and "2" for 1.52 3BV/s
    _record(data_dir, games)
    drv = start_app(make_app, data_dir, PHONE_393_LARGE)
    drv.app.show_screen("progress")
    settle(drv, 0.5)
    ps = drv.app.root.get_screen("progress")
    for chart in ps.charts:
        fy = chart._map[1]
        labels = [lbl for lbl in chart._labels[:len(chart.y_labels)]]
        assert len(labels) >= 2
        for lbl, text in zip(labels, chart.y_labels, strict=True):
            assert lbl.text == text
            # the label's number sits where that number is on the axis
            assert lbl.center_y == pytest.approx(fy(float(text)), abs=0.5)
            assert float(text) >= 0
        (py,) = {y for _x, y in chart.screen_points()}
        lo, hi = min(float(t) for t in chart.y_labels), max(float(t) for t in chart.y_labels)
        assert fy(lo) <= py <= fy(hi)  # the point lies between two labelled ticks


# ------------------------------------------------------------------ the live coach


def test_the_live_coach_never_tells_what_only_the_hidden_board_knows(make_app, data_dir):
    # a flag on a guess said "Wrong flag: there is no mine there" when the cell
    # was safe and nothing when it held a mine: flag a cell, read the answer
    drv = start_app(make_app, data_dir, "phone_393", coach=1)
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    guesses = [(int(r), int(c)) for r, c in np.argwhere(game.view == HIDDEN)
               if 0 < coach.judge(game, "mark", int(r), int(c)).risk < 1]
    mines, safe = [rc for rc in guesses if MASK[rc]], [rc for rc in guesses if not MASK[rc]]
    assert mines and safe  # guesses, right and wrong
    picked = mines[:2] + safe[:2]
    for rc in picked:
        risk = coach.judge(game, "mark", *rc).risk
        drv.long_press_cell(*rc)
        settle(drv, 0.2)
        assert game.view[rc] == fastmine.FLAG
        assert drv.ctrl.message == f"A flag on a guess: a {round(risk * 100)}% chance of a mine there."
        drv.long_press_cell(*rc)  # and off again
        settle(drv, 0.2)


@pytest.fixture
def touch_first(monkeypatch):
    """Games open the touch-screen way (zoomed to a finger's size, turned upright)."""
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)


def test_a_tap_on_the_coach_s_words_clears_them_and_plays_nothing(make_app, data_dir, touch_first):
    # the words lie over cells the player cannot see: a tap there revealed one
    drv = start_app(make_app, data_dir, "phone_393", coach=1)
    drv.app.start_game(fastmine.Difficulty(16, 30, 99))
    settle(drv, 0.5)
    game = drv.game
    drv.ctrl.reveal(8, 15)
    guess = next((int(r), int(c)) for r, c in np.argwhere(game.view == HIDDEN)
                 if 0 < coach.judge(game, "mark", int(r), int(c)).risk < 1)
    drv.ctrl.mark(*guess)
    settle(drv, 0.3)
    toast = drv.ids("toast")
    assert toast.text and toast.opacity == 1  # the coach's word on the flag
    b = drv.board
    under = [(x, toast.to_window(*toast.center)[1]) for x in
             np.linspace(*(toast.to_window(v, 0)[0] for v in (toast.x + 4, toast.right - 4)), 24)]
    x, y = next((x, y) for x, y in under
                if (cell := b.cell_at(*b.to_widget(x, y))) is not None and game.view[cell] == HIDDEN)
    before = game.view.copy()
    drv.tap(x, y)
    assert drv.ctrl.message == "" and toast.opacity == 0
    assert np.array_equal(game.view, before) and game.state.value == "playing"
    drv.tap(x, y)  # the words gone, the same tap plays the cell
    assert not np.array_equal(game.view, before)


def test_back_and_escape_on_progress_return_to_records_as_its_back_button(drv):
    # Android back (and Escape) on Progress went to the game; its Back button to Records
    for key in (27, 1001):
        drv.app.show_screen("records")
        settle(drv, 0.2)
        drv.app.show_screen("progress")
        settle(drv, 0.2)
        drv.key(key)
        assert drv.app.root.current == "records"


def test_end_dialog_labels_wrap_between_words_on_a_narrow_phone(make_app, data_dir):
    # where the values cannot all fit (360 dp, large text), "Clicks (L/R/chord)"
    # must not be cut inside a word ("(L/R/ch" over "ord)") to make room
    from fastmine.app.widgets import TLabel

    drv = start_app(make_app, data_dir, "phone_360_font13")
    d = lose(drv)
    cells = list(reversed(d.ids.lines.children))
    for key in cells[::2]:
        for word in key.text.split():
            probe = TLabel(text=word, bold=True, font_size=key.font_size)
            probe.texture_update()
            assert key.width >= probe.texture_size[0], (key.text, word)


@pytest.mark.parametrize("profile", ["turned_large", "phone_360_font13", "landscape"])
def test_end_dialog_row_buttons_are_one_height_and_aligned(make_app, data_dir, profile):
    # a turned phone with large text: "Why did I lose?" took two lines, its
    # neighbours one, and the four buttons of the row sat at ragged heights
    land = PROFILES["landscape"]
    p = Profile("turned_large", land.size, land.density, 1.3) if profile == "turned_large" else profile
    drv = start_app(make_app, data_dir, p)
    d = lose(drv)
    settle(drv, 0.2)
    buttons = [d.ids[name] for name in ("why", "watch_replay", "view_board", "new_game")]
    heights = {round(b.height, 1) for b in buttons}
    assert len(heights) == 1, heights
    for b in buttons:
        assert b.texture_size[1] <= b.height  # every word shows
    if d.wide:  # one row: one top
        assert len({round(b.to_window(b.x, b.top)[1], 1) for b in buttons}) == 1


# ------------------------------------------------------------------ the Replays list


def _finished(seed: int) -> fastmine.Game:
    g = fastmine.Game(9, 9, 10, seed=seed, clock=lambda: 0.0)
    g.reveal(4, 4)
    rng = np.random.default_rng(seed)
    while not g.state.is_over:
        hidden = np.argwhere(g.view == HIDDEN)
        g.reveal(*(int(v) for v in hidden[rng.integers(len(hidden))]))
    return g


def test_a_long_replays_list_says_it_shows_the_last_games(make_app, data_dir):
    # 200 recorded games listed 100 with no word on the others
    from fastmine.app.replays.listing import RECENT

    with RecordsStore(data_dir=str(data_dir)) as db:
        ids = [db.record_game(_finished(seed)).id for seed in range(RECENT + 1)]
    drv = make_app(data_dir)
    drv.app.show_screen("replays")
    settle(drv, 0.3)
    rs = drv.app.root.get_screen("replays")
    rows = rs.rows()
    assert len(rows) == RECENT and rows[0].record_id == ids[-1]  # newest first
    assert rs.ids.message.text == f"The last {RECENT} recorded games, newest first."
    assert rs.ids.message.height > 0
    with RecordsStore(data_dir=str(data_dir)) as db:
        for record_id in ids[1:]:
            db.remove(record_id)
    rs.refresh()
    settle(drv, 0.2)
    assert len(rs.rows()) == 1 and rs.ids.message.text == ""  # one game: nothing to say


def test_back_from_progress_keeps_the_board_looked_at(make_app, data_dir):
    # Records on a custom board -> Progress -> Back showed Beginner again
    _record(data_dir, [(20, 30, 100, True, 100.0, 120), (9, 9, 10, True, 10.0, 20)])
    drv = make_app(data_dir)
    drv.app.show_screen("records")
    settle(drv, 0.2)
    rs = drv.app.root.get_screen("records")
    rs.difficulty = "Custom 20x30/100"
    settle(drv, 0.2)
    drv.app.show_screen("progress")
    settle(drv, 0.2)
    ps = drv.app.root.get_screen("progress")
    assert ps.difficulty == "Custom 20x30/100"
    drv.press(ps.ids.back)
    settle(drv, 0.2)
    assert drv.app.root.current == "records" and rs.difficulty == "Custom 20x30/100"
    assert rs.rows and rs.rows[0][2] == "100.00 s"
    drv.app.show_screen("progress")  # a board chosen on Progress comes back too
    settle(drv, 0.2)
    ps.difficulty = "Beginner"
    settle(drv, 0.2)
    drv.key(27)
    assert rs.difficulty == "Beginner"
    drv.app.show_screen("game")  # from the game, Records opens on the game's board
    settle(drv, 0.2)
    rs.difficulty = "Custom 20x30/100"  # the screen left (released at the game: built again)
    drv.app.show_screen("records")
    settle(drv, 0.2)
    assert drv.app.root.get_screen("records").difficulty == "Beginner"
