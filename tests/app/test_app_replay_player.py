"""The app's replay player and "Why did I lose?": real app, real rendering, real
touches and keys, time on the fake clock.  Every board shown is compared with
the engine's own replay (Replay.play(upto=k)); the coach's words with
fastmine.coach's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("kivy")

from fixedgame import MASK, end_dialog, settle  # noqa: E402
from profiles import PHONES, box, inside, start_app  # noqa: E402

import fastmine  # noqa: E402
from fastmine import HIDDEN, coach  # noqa: E402
from fastmine.app.board import tiles as T  # noqa: E402
from fastmine.app.dialogs.endgame import EndDialog  # noqa: E402
from fastmine.replay import Replay  # noqa: E402


def tiles_of(view):
    return T.VIEW_TILE[np.ascontiguousarray(view).view(np.uint8)]


def lose(drv) -> EndDialog:
    """Lose a game by touch: an opening, a safe cell, a think, then a mine."""
    game = drv.attach_board(MASK)
    drv.board.fit()
    drv.tap_cell(1, 2)
    drv.frames(1, 2.0)  # a tick of its own: a long press is timed from the last one
    safe = next((r, c) for r in range(9) for c in range(9)
                if game.view[r, c] == HIDDEN and not MASK[r, c])
    drv.tap_cell(*safe)
    drv.frames(1, 5.0)
    # the least likely mine: a real risk, not a certain mine
    hidden = [(int(r), int(c)) for r, c in np.argwhere((game.view == HIDDEN) & MASK)]
    drv.tap_cell(*min(hidden, key=lambda rc: coach.judge(game, "reveal", *rc).risk))
    assert game.state.value == "lost"
    return end_dialog(drv)


def analysed(game):
    rep = Replay.from_game(game)
    verdicts = coach.analyze(rep.board, rep.moves, rule=rep.rule,
                             question_marks=rep.question_marks)
    return rep, verdicts


def player(drv):
    assert drv.app.root.current == "replay"
    return drv.app.root.get_screen("replay")


def shows(scr, rep, k) -> bool:
    """The player's board is the engine's board after k moves (tiles and all)."""
    return scr.k == k and np.array_equal(scr.board.tiles, tiles_of(rep.play(upto=k).view))


def recorded_game(seed=3, times=(0.0, 0.4, 1.2, 61.2, 61.5, 62.0, 62.1)):
    """An Expert game whose moves come at these game times (a 60 s think among them)."""
    now = [0.0]
    g = fastmine.Game(16, 30, 99, seed=seed, clock=lambda: now[0])
    g.reveal(8, 15)
    for t in times[1:]:
        now[0] = t
        hidden = np.argwhere((g.view == HIDDEN) & ~g.board.mines)
        g.reveal(*(int(v) for v in hidden[len(hidden) // 2]))
    assert not g.state.is_over
    return Replay.from_game(g)


# ------------------------------------------------------------------ why did I lose


def test_why_did_i_lose_shows_the_board_before_the_fatal_move_and_the_odds(drv, monkeypatch):
    runs = []
    analyze = coach.analyze
    monkeypatch.setattr(coach, "analyze", lambda *a, **k: runs.append(1) or analyze(*a, **k))
    d = lose(drv)
    assert len(runs) == 1  # the app's analysis of the game, for its dialog
    rep, verdicts = analysed(drv.game)  # the test's own
    fatal = coach.fatal(verdicts)
    assert fatal is not None and fatal.index == len(rep) - 1
    assert d.can_why and d.can_replay
    assert d.summary == "\n".join(coach.summary_lines(verdicts))  # a sentence a line
    assert d.ids.summary.text == d.summary and d.ids.summary.height > 0
    drv.press(d.ids.why)
    settle(drv, 0.5)  # the dialog fades out
    scr = player(drv)
    assert shows(scr, rep, fatal.index)  # the board as it was before the fatal move
    assert drv.game.state.value == "lost"  # the game itself is untouched
    assert scr.board.cursor == fatal.cell  # the fatal cell is marked, in the fatal colour
    from fastmine.app.replays.player import FATAL
    assert tuple(scr.board.cursor_color) == FATAL[1]
    assert coach.describe(fatal) in scr.verdict_text  # its risk and what was on offer
    assert 0 < fatal.risk < 1 and f"{round(fatal.risk * 100)}%" in scr.verdict_text
    assert "The losing move" in scr.verdict_text
    # the same sentences: one a line in the dialog, one paragraph under the
    # player's controls (a line each would take the board's height on a phone)
    assert scr.summary == d.summary.replace("\n", " ") and "\n" in d.summary
    # the timeline marks it
    assert any(i == fatal.index and tall for i, _rgba, tall in scr.ids.timeline.marks)
    # Back returns to the game with its dialog; undoing the loss works as before
    drv.press(scr.ids.header.ids.back_button)
    settle(drv, 0.5)
    assert drv.app.root.current == "game" and d.parent is not None
    drv.press(d.ids.watch_replay)  # the whole game now, from the same dialog
    settle(drv, 0.5)
    assert player(drv).playing
    assert len(runs) == 2  # the players used the dialog's analysis: no other run
    drv.key(27)
    settle(drv, 0.5)
    assert drv.app.root.current == "game" and d.parent is not None
    drv.press(d.ids.undo)
    settle(drv, 0.5)
    assert d.parent is None and drv.ctrl.state == "playing" and drv.game.assisted


def test_watch_replay_plays_from_the_start_and_escape_returns_to_the_dialog(drv):
    d = lose(drv)
    rep = Replay.from_game(drv.game)
    drv.press(d.ids.watch_replay)
    settle(drv, 0.5)
    scr = player(drv)
    assert scr.playing  # it plays at once
    settle(drv, 12.0)
    assert shows(scr, rep, len(rep)) and not scr.playing
    drv.key(27)  # Escape: back where the player came from
    settle(drv, 0.5)
    assert drv.app.root.current == "game" and d.parent is not None


def test_a_won_game_offers_the_replay_but_not_why(drv):
    game = drv.attach_board(MASK)
    drv.board.fit()
    for r, c in np.argwhere(~MASK):
        if game.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    d = end_dialog(drv)
    assert d.won and d.can_replay and not d.can_why
    assert d.ids.why.parent is None and d.ids.watch_replay.width > 0
    # no half-empty row: "Watch replay" once sat alone on half a row
    rows = list(reversed(d.ids.actions.children))
    assert [[b is d.ids[n].__self__ for b, n in zip(reversed(r.children), names, strict=True)]
            for r, names in zip(rows, (("watch_replay", "view_board"), ("new_game",)),
                                strict=True)] == [[True, True], [True]]
    for row in rows:
        assert sum(b.width for b in row.children) + row.spacing * (len(row.children) - 1) \
            == pytest.approx(row.width, abs=1)
    drv.press(d.ids.view_board)  # the old buttons work as before
    settle(drv, 0.5)
    assert d.parent is None


# ------------------------------------------------------------------ playback


def test_playback_follows_the_recorded_times_times_the_speed(drv):
    from fastmine.app.replays.player import MAX_PAUSE

    rep = recorded_game()
    scr = drv.app.watch_replay(rep)
    drv.frames(2)
    assert shows(scr, rep, 0) and not scr.playing
    drv.press(scr.ids.speed)  # 1x -> 2x
    assert scr.speed == 2.0 and scr.ids.speed.text == "2x"
    # a slow, obviously right reference: wait before each move, a long think capped
    gaps = np.diff(rep.times, prepend=0.0)
    due = np.cumsum(np.minimum(gaps, MAX_PAUSE) / 2.0)
    assert due[3] - due[2] == pytest.approx(MAX_PAUSE / 2)  # the 60 s think
    scr.toggle_play()
    t0 = drv.clock.now
    for target in [*(due[:-1] + np.diff(due) / 2), due[-1] + 0.3]:  # between moves
        while drv.clock.now - t0 < target:
            drv.frames(1)
        assert shows(scr, rep, int(np.sum(due <= drv.clock.now - t0)))
        assert scr.clock_text == _clock(rep.times[scr.k - 1] if scr.k else 0.0)
    assert not scr.playing  # stopped at the end
    # pause holds the board while time passes; play at the end starts again
    drv.press(scr.ids.play)
    assert scr.playing and shows(scr, rep, 1)
    drv.press(scr.ids.play)
    assert not scr.playing
    k = scr.k
    settle(drv, 5.0)
    assert scr.k == k


def _clock(t):
    from fastmine.app.replays.player import fmt_clock

    return fmt_clock(t)


def test_steps_keys_and_the_timeline_land_on_the_right_move(drv):
    rep = recorded_game()
    n = len(rep)
    scr = drv.app.watch_replay(rep)
    drv.frames(2)
    for _ in range(3):
        drv.press(scr.ids.forward_step)
    assert shows(scr, rep, 3)
    drv.press(scr.ids.back_step)
    assert shows(scr, rep, 2)
    drv.press(scr.ids.end)
    assert shows(scr, rep, n)
    drv.press(scr.ids.start)
    assert shows(scr, rep, 0)
    drv.key(275)  # right
    drv.key(275)
    assert shows(scr, rep, 2)
    drv.key(276)  # left
    assert shows(scr, rep, 1)
    drv.key(279)  # End
    assert shows(scr, rep, n)
    drv.key(278)  # Home
    assert shows(scr, rep, 0)
    drv.key(32, " ")  # space plays, and pauses
    assert scr.playing
    drv.key(32, " ")
    assert not scr.playing
    # a finger drags the timeline's thumb to move 5, then back to move 2
    tl = scr.ids.timeline
    y = tl.to_window(*tl.center)[1]
    for k in (5, 2):
        drv.drag(tl.tick_x(scr.k), y, tl.tick_x(k), y)
        assert shows(scr, rep, k), (scr.k, k)
    # the move named is the next one, as the coach judged it
    _rep, verdicts = rep, coach.analyze(rep.board, rep.moves, rule=rep.rule)
    assert coach.describe(verdicts[2]) in scr.verdict_text
    assert scr.board.cursor == verdicts[2].cell


def test_taps_on_the_replay_board_change_nothing(drv):
    rep = recorded_game()
    game_view = drv.game.view.copy()
    scr = drv.app.watch_replay(rep, at=3)
    drv.frames(2)
    b = scr.board
    before = b.tiles.copy()
    hidden = [tuple(int(v) for v in rc) for rc in np.argwhere(rep.play(upto=3).view == HIDDEN)[:3]]
    for r, c in hidden:
        drv.tap(*b.to_window(*b.cell_center(r, c)))
        drv.tap(*b.to_window(*b.cell_center(r, c)), hold=0.8)  # a long press
        drv.tap(*b.to_window(*b.cell_center(r, c)), button="right", device="mouse")
    assert np.array_equal(b.tiles, before) and shows(scr, rep, 3) and not scr.playing
    assert np.array_equal(drv.game.view, game_view)


def test_on_a_turned_board_the_move_names_its_cell_where_the_player_sees_it(
        make_app, data_dir, monkeypatch):
    import re

    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", True)
    drv = start_app(make_app, data_dir, "phone_393", animations=0)
    rep = recorded_game()  # Expert: drawn turned on a phone held upright
    scr = drv.app.watch_replay(rep, at=3)
    drv.frames(3)
    b = scr.board
    assert b.transposed and not b.is_fitted()  # zoomed: whole, Expert's cells would be 19 dp
    m = re.search(r"row (\d+), column (\d+)", scr.verdict_text)
    row, col = int(m[1]), int(m[2])  # counted from the top left, as drawn
    ox, oy = b.offset
    seen = b.cell_at(b.x + ox + (col - 0.5) * b.scale, b.y + oy + (b.drows - row + 0.5) * b.scale)
    assert seen == b.cursor == tuple(int(v) for v in rep.moves[3, 1:3])


# ------------------------------------------------------------------ the list


def test_the_replays_screen_lists_recorded_games_newest_first_and_opens_one(drv, data_dir):
    from kivy.uix.dropdown import DropDown

    from fastmine.app.replays.listing import ReplaysScreen
    from fastmine.records import RecordsStore

    lose(drv)
    drv.app.new_game()
    drv.frames(2)
    win = drv.attach_board(MASK)
    for r, c in np.argwhere(~MASK):
        if win.view[r, c] == HIDDEN:
            drv.ctrl.reveal(int(r), int(c))
    settle(drv, 0.8)
    for w in list(drv.window.children):
        if isinstance(w, EndDialog):
            w.dismiss()
    settle(drv, 0.5)
    drv.press(drv.ids("menu_button"))
    settle(drv, 0.3)
    menu = next(w for w in drv.window.children if isinstance(w, DropDown))
    entry = next(e for e in menu.container.children if e.title == "Replays")
    drv.press(entry)
    drv.frames(3)
    assert drv.app.root.current == "replays"
    rs = drv.app.root.get_screen("replays")
    assert isinstance(rs, ReplaysScreen)
    rows = rs.rows()
    assert len(rows) == 2
    assert "Won" in rows[0].text and "Lost" in rows[1].text  # newest first
    with RecordsStore(data_dir=data_dir) as db:
        ids = db.replay_ids()
        lost = db.replay(ids[0])
    drv.press(rows[1])
    scr = player(drv)
    assert scr.replay == lost and scr.playing
    drv.press(scr.ids.header.ids.back_button)
    assert drv.app.root.current == "replays"
    drv.key(1001)  # Android back: to the game
    assert drv.app.root.current == "game"


def test_an_unreadable_replay_is_reported_on_the_list(drv, data_dir):
    import sqlite3

    from fastmine.app.playerdata import PlayerData
    from fastmine.records import RECORDS_FILE

    g = fastmine.Game(9, 9, 10, seed=4)
    g.reveal(4, 4)
    while not g.state.is_over:
        g.reveal(*(int(v) for v in np.argwhere(g.view == HIDDEN)[0]))
    PlayerData(str(data_dir)).record_game(g)
    with sqlite3.connect(data_dir / RECORDS_FILE) as db:
        db.execute("UPDATE replays SET data = x'00'")
    drv.app.show_screen("replays")
    drv.frames(3)
    rs = drv.app.root.get_screen("replays")
    drv.press(rs.rows()[0])
    assert drv.app.root.current == "replays"
    assert rs.error.startswith("That replay cannot be read") and rs.ids.message.height > 0


def test_frames_too_big_to_keep_are_replayed_from_the_start(kivy_window, monkeypatch):
    from fastmine.app.replays import player

    rep = recorded_game()
    monkeypatch.setattr(player, "MAX_FRAME_BYTES", 0)
    frames = player.ReplayFrames(rep)
    assert frames._all is None
    for k in (3, 5, 1, 7, 0, len(rep), 2):
        assert np.array_equal(frames.view(k), rep.play(upto=k).view), k


# ------------------------------------------------------------------ phones


def _overlap(a, b) -> bool:
    ax0, ay0, ax1, ay1 = box(a)
    bx0, by0, bx1, by1 = box(b)
    return min(ax1, bx1) - max(ax0, bx0) > 0.5 and min(ay1, by1) - max(ay0, by0) > 0.5


def _check_layout(widgets, window) -> None:
    for name, w in widgets.items():
        assert inside(w, window), f"{name} at {box(w)} is not on the {window.size} screen"
        if getattr(w, "text", "") and hasattr(w, "texture_size"):
            tw, th = w.texture_size
            assert th <= w.height + 0.5, f"{name}'s text is cut: {th} > {w.height}"
    names = list(widgets)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _overlap(widgets[a], widgets[b]), f"{a} {box(widgets[a])} overlaps {b} {box(widgets[b])}"


@pytest.mark.parametrize("profile", [*PHONES, "desktop"])
def test_the_player_and_the_list_fit_a_phone(make_app, data_dir, screenshot_dir, profile,
                                             monkeypatch):
    from fastmine.app.board import viewport

    monkeypatch.setattr(viewport, "TOUCH_FIRST", profile != "desktop")
    drv = start_app(make_app, data_dir, profile, animations=0)
    d = lose(drv)
    drv.frames(3)
    drv.screenshot(screenshot_dir, f"replay_{profile}_end_dialog")
    for name in ("why", "watch_replay", "undo", "view_board", "new_game", "summary"):
        assert inside(d.ids[name], drv.window), f"{name} at {box(d.ids[name])}"
    assert d.ids.summary.texture_size[1] <= d.ids.summary.height  # wraps, never cut
    assert d.ids.scroll.height >= d.ids.numbers.height - 0.5  # all of it shows, no scrolling
    drv.press(d.ids.why)
    settle(drv, 0.5)
    scr = player(drv)
    ids = scr.ids
    widgets = {n: ids[n] for n in ("start", "back_step", "play", "forward_step", "end", "speed",
                                   "timeline", "clock", "move", "verdict", "summary", "board_area")}
    widgets["back"] = ids.header.ids.back_button
    _check_layout(widgets, drv.window)
    b = scr.board
    assert b.is_fitted() and inside(b, ids.board_area)
    x0, y0 = b.to_window(*b.cell_center(*b.cursor))
    assert inside(b, drv.window) and b.collide_point(*b.to_widget(x0, y0))  # the marked cell shows
    for w in ("start", "back_step", "play", "forward_step", "end", "speed"):
        assert ids[w].height >= 44 * drv.profile.density - 0.5  # a finger's worth
    drv.screenshot(screenshot_dir, f"replay_{profile}_why")
    drv.press(ids.start)
    drv.press(ids.play)
    settle(drv, 1.0)
    drv.press(ids.play)
    assert 0 < scr.k < scr.n
    if profile in ("phone_393", "desktop"):  # the board as it plays, and the end
        drv.screenshot(screenshot_dir, f"replay_{profile}_playing")
        drv.press(ids.end)
        drv.screenshot(screenshot_dir, f"replay_{profile}_end")
    # the list
    drv.press(ids.header.ids.back_button)
    settle(drv, 0.5)
    d.dismiss()
    settle(drv, 0.5)
    drv.app.show_screen("replays")
    drv.frames(3)
    rs = drv.app.root.get_screen("replays")
    rows = rs.rows()
    assert len(rows) == 1
    _check_layout({"row": rows[0], "back": rs.ids.header.ids.back_button}, drv.window)
    assert rows[0].height >= 48 * drv.profile.density - 0.5
    drv.screenshot(screenshot_dir, f"replay_{profile}_list")


# ------------------------------------------------------------------ docstrings


@pytest.mark.parametrize("name", ["replays.player", "replays.replayboard", "replays.listing"])
def test_doctests(name, kivy_window):
    import doctest
    import importlib

    mod = importlib.import_module(f"fastmine.app.{name}")
    assert doctest.testmod(mod).failed == 0
