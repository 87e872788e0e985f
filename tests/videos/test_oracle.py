"""fastmine.videos against ms-toollib on real videos: the same board, events, clicks,
outcome, time and 3BV, and the same board after every event.

ms-toollib (the ``bench`` extra) is the oracle only: it aborts the whole process on a
file it cannot read, so it is fed nothing but the real files it is known to read.
"""

from __future__ import annotations

import numpy as np
import pytest
from video_files import ORACLE_READS, path

import fastmine
from fastmine.videos import EventKind, play_video, read_video
from fastmine.videos.clientrules import ClientBoard
from fastmine.videos.model import EVENT_CODES

ms = pytest.importorskip("ms_toollib")

_CLASSES = {"avf": "AvfVideo", "rmv": "RmvVideo", "mvf": "MvfVideo", "evf": "EvfVideo"}
_LEVELS = {3: "beginner", 4: "intermediate", 5: "expert", 6: "custom"}


def _oracle(name: str):  # type: ignore[no-untyped-def]
    cls = getattr(ms, _CLASSES[name.rsplit(".", 1)[1]])
    v = cls(str(path(name)))
    v.parse()
    v.analyse()
    return v


@pytest.fixture(scope="module", params=ORACLE_READS)
def pair(request):  # type: ignore[no-untyped-def]
    name = request.param
    return name, read_video(path(name)), _oracle(name)


def test_board_level_player_and_stated_values(pair) -> None:  # type: ignore[no-untyped-def]
    _, v, o = pair
    np.testing.assert_array_equal(v.mine_layout, np.array(o.board) == -1)
    assert (v.rows, v.cols, v.mines) == (o.row, o.column, o.mine_num)
    assert v.level == _LEVELS[o.level]
    assert v.player == o.player_identifier
    assert v.stated_bbbv == o.bbbv
    assert v.cell_size == o.pix_size


def test_events(pair) -> None:  # type: ignore[no-untyped-def]
    _, v, o = pair
    mouse = [e for e in o.events if e.event.is_mouse()]
    assert len(mouse) == len(v.events)
    ev = v.events
    times = np.array([round(e.time * 1000) for e in mouse])
    np.testing.assert_array_equal(times, ev.time_ms)
    assert [e.event.unwrap_mouse().mouse for e in mouse] == [EVENT_CODES[k] for k in ev.kind]
    x = np.array([e.event.unwrap_mouse().x for e in mouse])
    y = np.array([e.event.unwrap_mouse().y for e in mouse])
    on = ev.row >= 0
    np.testing.assert_array_equal(x[on], ev.x[on])
    np.testing.assert_array_equal(y[on], ev.y[on])
    # Off the board ms-toollib keeps a point past the board's corner (rows * size, ...).
    off = (x[~on] >= v.cols * v.cell_size) | (y[~on] >= v.rows * v.cell_size)
    assert off.all()


def test_clicks_outcome_time_and_solved_3bv(pair) -> None:  # type: ignore[no-untyped-def]
    _, v, o = pair
    p = play_video(v, question_marks=False, count_chord_right_press=False)
    o.current_time = 1e9          # the counts at the end of the video
    assert (p.left, p.right, p.double) == (o.left, o.right, o.double)
    assert (p.left_effective, p.right_effective, p.double_effective) == (o.lce, o.rce, o.dce)
    assert p.bbbv_solved == o.bbbv_solved
    assert (p.outcome == "won") == o.is_completed
    assert p.time_ms == o.rtime_ms
    assert p.flags == o.flag


def test_board_and_counts_after_every_event(pair) -> None:  # type: ignore[no-untyped-def]
    _, v, o = pair
    mouse = [e for e in o.events if e.event.is_mouse()]
    b = ClientBoard(v.mine_layout)
    ev = v.events
    for i, (k, r, c) in enumerate(zip(ev.kind.tolist(), ev.row.tolist(), ev.col.tolist(),
                                      strict=True)):
        level = b.step(k, r, c, i)
        if k == EventKind.MOVE:
            continue
        theirs = mouse[i]
        assert level == theirs.useful_level, f"event {i}"
        assert b.cells == [x for row in theirs.next_game_board.game_board for x in row], (
            f"board after event {i}")
        kp = theirs.key_dynamic_params
        assert (b.left, b.right, b.double, b.bbbv_solved, b.lce, b.rce, b.dce, b.flags) == (
            kp.left, kp.right, kp.double, kp.bbbv_solved, kp.lce, kp.rce, kp.dce, kp.flag), (
            f"counts after event {i}")


_MS_CODES = {fastmine.HIDDEN: 10, fastmine.FLAG: 11, fastmine.QUESTION: 12,
             fastmine.WRONG_FLAG: 14, fastmine.EXPLODED: 15, fastmine.MINE: 10}


def test_fastmine_game_rebuilt_from_the_moves_has_ms_toollibs_board(pair) -> None:  # type: ignore[no-untyped-def]
    """Replay the moves in fastmine's engine; after each, its board is ms-toollib's
    board after that move's event (mines a finished game shows aside), the chord
    on a revealed 0 of vienna2_preflags.rmv included."""
    name, v, o = pair
    mouse = [e for e in o.events if e.event.is_mouse()]
    p = play_video(v, question_marks=False, count_chord_right_press=False)
    g = fastmine.Game.from_board(fastmine.Board.from_mines(v.mine_layout), question_marks=False)
    play = {"left": g.reveal, "right": g.toggle_mark, "double": g.chord}
    for m in p.moves:
        if m.row < 0:
            continue
        play[m.button](m.row, m.col)
        ours = g.view.astype(np.int16)
        for code, ms_code in _MS_CODES.items():
            ours[g.view == code] = ms_code
        theirs = np.array(mouse[m.event].next_game_board.game_board)
        same = ours == theirs
        if g.state.is_over:             # fastmine shows the mines of a finished game
            same |= v.mine_layout & (theirs == 10)
        assert same.all(), f"{name}: after {m}, fastmine's board is not ms-toollib's"
    assert g.state.value == p.outcome
