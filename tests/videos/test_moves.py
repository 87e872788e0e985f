"""From events to moves on real videos: the counts and outcome by the clients'
rules, the board Vienna itself recorded after every click, and the same game
rebuilt in fastmine's engine from the moves."""

from __future__ import annotations

import numpy as np
import pytest
from video_files import PLAYED, path

import fastmine
from fastmine.videos import EventKind, play_video, read_video
from fastmine.videos.clientrules import ACTIONS, BUTTONS, ClientBoard
from fastmine.videos.rmv import read_rmv_board_events

_ACTIONS = {"left": {"reveal"}, "right": {"flag", "unflag", "question", "unmark", "mark"},
            "double": {"chord"}}


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_outcome_time_and_clicks(name: str) -> None:
    v = read_video(path(name))
    p = play_video(v)
    assert (p.outcome, p.time_ms, p.left, p.right, p.double, p.bbbv_solved) == PLAYED[name]
    if p.outcome == "won":
        assert p.bbbv_solved == fastmine.Board.from_mines(v.mine_layout).bbbv()
        assert v.stated_outcome in ("won", None)


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_moves_are_the_counted_clicks(name: str) -> None:
    v = read_video(path(name))
    p = play_video(v)
    for button, actions in _ACTIONS.items():
        mine = [m for m in p.moves if m.button == button]
        assert len(mine) == getattr(p, button)
        assert {m.action for m in mine} <= actions
    events = [m.event for m in p.moves]
    assert events == sorted(events)
    for m in p.moves:
        assert m.time_ms == v.events.time_ms[m.event]
        assert (m.row, m.col) == (int(v.events.row[m.event]), int(v.events.col[m.event]))
        if m.row < 0:
            assert not m.changed
    changed = [m for m in p.moves if m.changed]
    assert changed[0].button == "left" or changed[0].action == "flag"
    reveals = [m for m in changed if m.button == "left"]
    assert p.start_ms == reveals[0].time_ms
    if p.outcome != "unfinished":
        assert p.end_ms == changed[-1].time_ms
    assert p.time_ms == p.end_ms - p.start_ms
    assert p.effective_clicks <= p.clicks


def test_clone_counts_are_its_own() -> None:
    # Clone 0.97 stores its click counts; the rules reproduce them.
    for name in ("clone_097.mvf", "clone_097_exp.mvf", "clone_097_counts.mvf"):
        v = read_video(path(name))
        p = play_video(v)
        assert (p.left, p.right, p.double) == tuple(
            int(v.details[k]) for k in ("left_clicks", "right_clicks", "double_clicks"))
        assert p.bbbv_solved == int(v.details["solved_bbbv"])


def test_lost_game() -> None:
    # The example: lost after 65.62 s with 11 of 180 3BV solved.
    p = play_video(read_video(path("arbiter_exp_lost.avf")))
    assert (p.outcome, p.time_ms, p.bbbv_solved) == ("lost", 65620, 11)
    assert (p.final_view == fastmine.EXPLODED).sum() == 1
    assert p.moves[-1].changed and p.moves[-1].time_ms == p.end_ms


def _vienna_view(rows: int, cols: int) -> list[int]:
    return [10] * (rows * cols)


@pytest.mark.parametrize("name", sorted(n for n in PLAYED if n.endswith(".rmv")))
def test_board_after_every_event_is_what_vienna_recorded(name: str) -> None:
    """Vienna stores what each cell showed after every mouse event (its board
    events); the rules' board must be the same after each millisecond."""
    v = read_video(path(name))
    be = read_rmv_board_events(path(name).read_bytes())
    b = ClientBoard(v.mine_layout, question_marks=bool(v.question_marks))
    shown = _vienna_view(v.rows, v.cols)
    ev = v.events
    for k in np.flatnonzero(ev.kind == EventKind.PRE_FLAG):
        shown[int(ev.row[k]) * v.cols + int(ev.col[k])] = 11
    j = 0
    compared = 0
    for i in range(len(ev)):
        b.step(int(ev.kind[i]), int(ev.row[i]), int(ev.col[i]), i)
        while j < len(be) and be.after[j] <= i:
            code, p = int(be.code[j]), int(be.row[j]) * v.cols + int(be.col[j])
            if 18 <= code <= 26:
                shown[p] = code - 18                    # open_0 .. open_8
            elif code in (12, 13):
                shown[p] = 11 if code == 13 else 12     # flag, question mark
            elif code in (14, 27):
                shown[p] = 15                           # the blast
            elif code == 11 and shown[p] >= 10:
                shown[p] = 10                           # closed again
            j += 1                                      # 9, 10: a cell shown pressed
        # Vienna may write a click's board changes after a move of the same
        # millisecond: compare once a millisecond's events are all in.
        last_of_ms = i + 1 == len(ev) or ev.time_ms[i + 1] != ev.time_ms[i]
        if ev.kind[i] != EventKind.PRE_FLAG and last_of_ms:
            assert b.cells == shown, f"event {i}"
            compared += 1
        if b.status in ("won", "lost"):
            break
    assert compared > 0 and j == len(be)


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_fastmine_rebuilds_the_game_from_the_moves(name: str) -> None:
    v = read_video(path(name))
    marks = bool(v.question_marks)
    p = play_video(v, question_marks=marks)
    g = fastmine.Game.from_board(fastmine.Board.from_mines(v.mine_layout), question_marks=marks)
    b = ClientBoard(v.mine_layout, question_marks=marks,
                    count_chord_right_press=v.software == "Minesweeper Clone")
    ev = v.events
    moves = iter(p.moves)
    move = next(moves, None)
    for i in range(len(ev)):
        b.step(int(ev.kind[i]), int(ev.row[i]), int(ev.col[i]), i)
        while move is not None and move.event == i:
            if move.row >= 0:
                play = {"left": g.reveal, "right": g.toggle_mark, "double": g.chord}
                before = g.view.copy()
                play[move.button](move.row, move.col)
                # A click that changed nothing changes nothing in fastmine either.
                assert move.changed or (g.view == before).all()
            move = next(moves, None)
        if ev.kind[i] == EventKind.MOVE:
            continue
        # The chord on a revealed 0 included (vienna2_preflags.rmv has one).
        assert (g.view == b.view()).all(), f"event {i}: fastmine's game is not the video's"
    assert g.state.value == p.outcome


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_the_click_log_is_the_moves_and_cannot_be_changed(name: str) -> None:
    """VideoPlay keeps its clicks as arrays and makes the Move tuples from them
    on first use: the two say the same, and the arrays are read-only (a caller
    that wrote to them would make the moves and the metrics disagree)."""
    play = play_video(read_video(path(name)))
    log = play.log
    assert len(play.moves) == len(log.cell)
    for i, m in enumerate(play.moves):
        assert (m.time_ms, m.button, m.action, m.changed, m.event) == (
            int(log.time_ms[i]), BUTTONS[log.button[i]], ACTIONS[log.action[i]],
            bool(log.changed[i]), int(log.event[i]))
        assert (m.row, m.col) == ((int(log.cell[i]) // log.cols, int(log.cell[i]) % log.cols)
                                  if log.cell[i] >= 0 else (-1, -1))
    first = next((i for i, m in enumerate(play.moves) if m.button == "left" and m.changed), -1)
    last = max((i for i, m in enumerate(play.moves) if m.changed), default=-1)
    assert (play.first_reveal(), play.last_change()) == (first, last)
    for a in (log.time_ms, log.event, log.button, log.action, log.cell, log.changed):
        with pytest.raises(ValueError):
            a[...] = 0
        with pytest.raises(ValueError):
            a.flags.writeable = True


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_the_move_log_is_the_timed_moves(name: str) -> None:
    """move_log gives the coach the moves rebuild plays (timed_moves), as move
    log kinds: a mark with or without "?" as the game had it."""
    from fastmine.videos.rebuild import move_log, timed_moves

    play = play_video(read_video(path(name)))
    for marks in (True, False):
        kinds = {"reveal": 0, "mark": 1 if marks else 3, "chord": 2}
        want = [(kinds[k], r, c) for k, r, c, _ms in timed_moves(play)]
        assert move_log(play, marks).tolist() == [list(m) for m in want]
