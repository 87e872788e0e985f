"""Whole games through the real UI: win, loss, records with a name, timer, resume, settings."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("kivy")

from fixedgame import MASK  # noqa: E402

from fastmine import FLAG, HIDDEN, QUESTION, records  # noqa: E402
from fastmine.app.board import tiles as T  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.app.dialogs.messages import ResumeDialog  # noqa: E402

# MASK is beginner-sized (9x9, 10 mines) so the records see a "beginner" game.
SAFE = [(r, c) for r in range(9) for c in range(9) if not MASK[r, c]]


def open_dialog(drv, cls):
    drv.wait(0.8)  # the dialog waits a moment so the board can be seen
    found = [w for w in drv.window.children if isinstance(w, cls)]
    assert found, f"no {cls.__name__} is open"
    return found[0]


def win_by_taps(drv, game):
    for r, c in SAFE:
        if game.view[r, c] == HIDDEN:
            drv.tap_cell(r, c)
    assert game.state.value == "won"


def test_won_game_asks_for_a_name_and_stores_the_record(drv, data_dir):
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.wait(2.0)  # the timer runs on the fake clock
    win_by_taps(drv, game)
    assert drv.ctrl.state == "won"
    assert (game.view[MASK] == FLAG).all()  # a win shows every mine flagged
    d = open_dialog(drv, EndDialog)
    assert d.won and d.ask_name
    labels = [w.text for w in d.ids.lines.children][::-1]
    assert labels[0] == "Time" and labels[2] == "3BV" and "3BV/s" in labels and "Efficiency" in labels
    d.ids.name_input.text = "Ann"
    drv.press(d.ids.save_name)
    assert "Saved: Ann" in d.note
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        best = db.best_times("beginner")
    assert len(best) == 1 and best[0].name == "Ann" and best[0].won and not best[0].assisted
    assert best[0].time == pytest.approx(game.stats().time)
    assert drv.app.config.get("game", "player_name") == "Ann"
    # the records screen shows it
    drv.press(d.ids.view_board)
    drv.app.show_screen("records")
    drv.frames(3)
    screen = drv.app.root.get_screen("records")
    assert screen.rows and screen.rows[0][1] == "Ann"
    assert "Played 1" in screen.summary and "(100%)" in screen.summary


def test_slower_win_is_not_a_best_time(drv, data_dir):
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        db.add(records.GameRecord.make(9, 9, 10, won=True, time=0.5, name="Fast"))
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.wait(1.0)
    win_by_taps(drv, game)
    d = open_dialog(drv, EndDialog)
    assert not d.ask_name and "Fast" in d.note
    drv.key(27)  # escape (Android: back) closes the dialog, not the app
    drv.wait(0.5)
    assert not any(isinstance(w, EndDialog) for w in drv.window.children)
    assert drv.app.root.parent is drv.window
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        assert db.statistics("beginner").played == 2


def test_lost_game_shows_mines_exploded_and_wrong_flags(drv, data_dir):
    game = drv.attach_board(MASK)
    drv.tap_cell(1, 0)  # a 1: opens nothing more
    assert game.view[1, 0] == 1
    drv.tap_cell(2, 2, button="right", device="mouse")  # a wrong flag
    drv.tap_cell(0, 8, button="right", device="mouse")  # a right flag
    drv.tap_cell(4, 4)  # boom
    assert game.state.value == "lost" and drv.ctrl.state == "lost"
    tiles = drv.board.tiles
    assert tiles[4, 4] == T.EXPLODED_T
    assert tiles[2, 2] == T.WRONG_FLAG_T
    assert tiles[0, 8] == T.FLAG_T
    assert (tiles[MASK] != T.HIDDEN_T).all()
    assert tiles[0, 0] == T.MINE_T
    d = open_dialog(drv, EndDialog)
    assert not d.won and not d.ask_name and "Boom" in d.title
    with records.RecordsStore(data_dir=str(data_dir)) as db:
        st = db.statistics("beginner")
    assert (st.played, st.won) == (1, 0)
    # moves after the end are ignored
    drv.press(d.ids.view_board)
    drv.tap_cell(3, 3)
    assert game.view[3, 3] == HIDDEN
    # the face button starts a new game
    drv.press(drv.ids("face"))
    assert drv.game is not game and drv.ctrl.state == "ready"


def test_timer_starts_at_first_reveal_pauses_and_resumes(drv):
    drv.attach_board(MASK)
    drv.wait(2.0)
    assert drv.ctrl.time_text == "000"  # not started before the first reveal
    drv.tap_cell(1, 2)
    drv.wait(3.05)
    assert drv.ctrl.time_text == "003"
    drv.press(drv.ids("pause"))
    assert drv.ctrl.paused and drv.board.hidden
    drv.tap_cell(0, 6)  # the board is hidden: this lands on the pause cover
    assert not drv.ctrl.paused  # ... which resumes
    drv.press(drv.ids("pause"))
    assert drv.ctrl.paused
    drv.wait(10)
    assert drv.ctrl.time_text == "003"
    assert drv.game.view[0, 6] == HIDDEN  # nothing revealed while paused
    drv.press(drv.ids("pause"))
    assert not drv.ctrl.paused and not drv.board.hidden
    drv.wait(2.05)
    assert drv.ctrl.time_text == "005"


def test_focus_loss_and_app_pause_pause_the_game(drv, data_dir):
    drv.attach_board(MASK)
    drv.tap_cell(1, 2)
    drv.window._focus = False
    drv.frames(1)
    assert drv.ctrl.paused
    drv.window._focus = True
    drv.ctrl.resume()
    assert drv.app.on_pause() is True  # Android may now stop us: the game is saved
    assert drv.ctrl.paused
    assert (data_dir / "saved-game.json").exists()


def test_resume_after_restart(make_app, data_dir):
    drv = make_app(data_dir)
    drv.tap_cell(4, 4)
    drv.tap_cell(0, 0, button="right", device="mouse")
    view = drv.game.view.copy()
    assert drv.ctrl.state == "playing"
    drv.wait(2.0)
    elapsed = drv.game.elapsed
    drv.stop()  # quitting saves
    drv = make_app(data_dir)
    d = [w for w in drv.window.children if isinstance(w, ResumeDialog)]
    assert d, "the saved game is offered"
    drv.press(d[0].ids.resume)
    drv.wait(0.5)  # the dialog's closing animation
    assert (drv.game.view == view).all()
    assert drv.game.elapsed == pytest.approx(elapsed)
    assert drv.ctrl.paused  # resumes paused, the board hidden until a tap
    drv.tap_cell(4, 4)
    assert not drv.ctrl.paused
    # declining instead starts fresh and forgets the save
    drv.stop()
    drv = make_app(data_dir)
    d = [w for w in drv.window.children if isinstance(w, ResumeDialog)][0]
    drv.press(d.ids.discard)
    assert drv.ctrl.state == "ready"
    assert not (data_dir / "saved-game.json").exists()


def test_corrupt_save_is_reported_and_kept(make_app, data_dir):
    (data_dir / "saved-game.json").write_text("{not json")
    drv = make_app(data_dir)
    from fastmine.app.dialogs.messages import MessageDialog
    msgs = [w for w in drv.window.children if isinstance(w, MessageDialog)]
    assert msgs and "corrupt" in msgs[0].text
    kept = list(data_dir.glob("saved-game.json.corrupt*"))
    assert kept and kept[0].read_text() == "{not json"


def _setting(drv, key):
    drv.app.open_settings()
    drv.frames(2)
    assert drv.app.root.current == "settings"
    return drv.app.settings_screen().rows[key]


def test_settings_applied(drv, make_app, data_dir):
    # question marks off: the mark cycle is hidden <-> flag
    game = drv.attach_board(MASK)
    _setting(drv, "question_marks").value = "0"
    drv.app.close_settings()
    drv.frames(2)
    for expected in (FLAG, HIDDEN):
        drv.tap_cell(0, 0, button="right", device="mouse")
        assert game.view[0, 0] == expected
    # long-press delay
    _setting(drv, "long_press_delay").value = "0.8"
    assert drv.board.long_press_delay == pytest.approx(0.8)
    # first-click rule for the next game
    _setting(drv, "first_click").value = "cell"
    assert drv.ctrl.rule == "cell"
    # dark theme: new colours and a new atlas on the board
    light = drv.board.atlas
    _setting(drv, "theme").value = "dark"
    assert drv.app.theme.name == "dark" and drv.board.atlas is not light
    assert drv.board.mesh.texture is drv.board.atlas.texture
    # sound off
    _setting(drv, "sound").value = "0"
    assert not drv.app.sounds.enabled
    drv.app.close_settings()
    # settings are kept for the next start
    drv.stop()
    drv = make_app(data_dir)
    assert drv.app.theme.name == "dark" and drv.ctrl.rule == "cell"
    assert not drv.ctrl.question_marks and not drv.app.sounds.enabled
    drv.tap_cell(4, 4)
    drv.tap_cell(0, 0, button="right", device="mouse")
    drv.tap_cell(0, 0, button="right", device="mouse")
    assert drv.game.view[0, 0] != QUESTION


def test_sound_effects_are_generated(drv, data_dir):
    from fastmine.app.services import sounds

    paths = sounds.write_sounds(str(data_dir / "sounds"))
    for name in sounds.NAMES:
        data = Path(paths[name]).read_bytes()
        assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 1000
    drv.app.sounds.load()
    drv.app.sounds.play("reveal")  # plays, or does nothing without an audio device
    drv.app.sounds.enabled = False
    assert drv.app.sounds.play("reveal") is False
