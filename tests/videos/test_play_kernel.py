"""play_video's compiled path: the kernel builds the board from the mines, plays a
video's events moves and all, and hands back the click log read-only.  Each part is
checked against the plain Python rules (tests/videos/python_rules.py) and fastmine's
own board, and events made some other way (other types, strided) against it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.typing import NDArray
from python_rules import PythonBoard
from video_files import PLAYED, path

import fastmine
from fastmine.videos import EventKind, play_video, read_video
from fastmine.videos._clicks import ClickKernel
from fastmine.videos.clientrules import ACTIONS, BUTTONS, ClientBoard

K = EventKind
Stream = tuple[NDArray[np.bool_], NDArray[np.uint8], NDArray[np.int32], NDArray[np.int32],
               NDArray[np.int64], bool, bool]


@st.composite
def streams(draw: st.DrawFn) -> Stream:
    """A board and a video's events: every kind, moves most of all, on and off the board."""
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    mines = np.array(draw(st.lists(st.booleans(), min_size=rows * cols,
                                   max_size=rows * cols)), dtype=bool).reshape(rows, cols)
    cell = st.one_of(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                     st.just((-1, -1)))
    kind = st.one_of(st.just(int(K.MOVE)), st.integers(0, max(K)))
    steps = []
    # Runs of moves of any length between the events: the kernel skips moves eight
    # at a time, and must land on each click wherever it is in a word.
    for k, c, t, moves in draw(st.lists(st.tuples(kind, cell, st.integers(0, 50),
                                                   st.integers(0, 20)), min_size=1,
                                         max_size=60)):
        steps += [(int(K.MOVE), c, t)] * moves + [(k, c, t)]
    times = np.cumsum([t for _k, _c, t in steps]).astype(np.int64)
    return (mines, np.array([k for k, _c, _t in steps], np.uint8),
            np.array([r for _k, (r, _c), _t in steps], np.int32),
            np.array([c for _k, (_r, c), _t in steps], np.int32), times,
            draw(st.booleans()), draw(st.booleans()))


def _state(b: ClientBoard | PythonBoard) -> tuple[object, ...]:
    return (b.left, b.right, b.double, b.lce, b.rce, b.dce, b.bbbv_solved, b.flags, b.status,
            b.cells)


@given(streams())
def test_play_is_the_python_rules_over_the_clicks(stream: Stream) -> None:
    """The kernel's whole-video play: the clicks stepped one by one (moves skipped,
    each event's position its index) until the game ends, the times of the events
    that started and ended it, the log's arrays with each click's time, cell and
    codes, and the board after it."""
    mines, kinds, rows, cols, times, marks, clone = stream
    fast = ClientBoard(mines, question_marks=marks, count_chord_right_press=clone)
    played = fast._play(kinds, rows, cols, times)
    assert played is not None
    slow = PythonBoard(mines, question_marks=marks, count_chord_right_press=clone)
    start = end = -1
    for i, (k, r, c) in enumerate(zip(kinds.tolist(), rows.tolist(), cols.tolist(),
                                      strict=True)):
        if k == K.MOVE:
            continue
        was = slow.status
        slow.step(k, r, c, i)
        if slow.status != was:
            if start < 0 and slow.status in ("playing", "won", "lost"):
                start = i
            if slow.status in ("won", "lost"):
                end = i
                break
    start_ms, end_ms, arrays = played
    assert start_ms == (None if start < 0 else int(times[start]))
    assert end_ms == int(times[end if end >= 0 else -1])
    time_ms, event, button, action, cell, changed = arrays
    want = slow.log
    assert event.tolist() == [e for e, *_ in want]
    assert time_ms.tolist() == [int(times[e]) for e, *_ in want]
    assert [BUTTONS[b] for b in button.tolist()] == [b for _e, b, *_ in want]
    assert [ACTIONS[a] for a in action.tolist()] == [a for _e, _b, a, *_ in want]
    assert cell.tolist() == [p for *_, p, _c in want]
    assert changed.tolist() == [c for *_, c in want]
    for a, dtype in zip(arrays, (np.int64, np.int64, np.uint8, np.uint8, np.int64, np.bool_),
                        strict=True):
        assert a.dtype == dtype and a.shape == (len(want),) and a.flags.c_contiguous
        with pytest.raises(ValueError):
            a.flags.writeable = True
        with pytest.raises(ValueError):
            a[::-1].flags.writeable = True
    assert _state(fast) == _state(slow)
    assert fast.log == slow.log
    assert (fast.view() == slow.view()).all()


@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_the_kernel_builds_numbers_and_3bv_like_the_board(rows: int, cols: int,
                                                          data: st.DataObject) -> None:
    """A game won by clicking every safe cell in turn shows every number as fastmine's
    Board counts them, and solves the board's 3BV: the numbers and each number's
    own 3BV are built in the kernel from the mines alone."""
    mines = np.array(data.draw(st.lists(st.booleans(), min_size=rows * cols,
                                        max_size=rows * cols)), dtype=bool).reshape(rows, cols)
    if mines.all():
        return
    b = ClientBoard(mines)
    slow = PythonBoard(mines)
    for r, c in zip(*np.nonzero(~mines), strict=True):
        for kind in (K.LEFT_DOWN, K.LEFT_UP):
            assert b.step(kind, int(r), int(c)) == slow.step(kind, int(r), int(c))
    assert b.status == "won" and _state(b) == _state(slow)
    view = b.view()
    assert (view == slow.view()).all()
    assert view.flags.writeable and view.dtype == np.int8 and view.shape == (rows, cols)
    if mines.any():                         # a Board needs a mine
        board = fastmine.Board.from_mines(mines)
        assert (view[~mines] == board.counts[~mines]).all()
        assert b.bbbv_solved == board.bbbv()


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_events_made_otherwise_play_alike(name: str) -> None:
    """Events whose arrays are not as read_video makes them (other integer types, a
    strided view) are not the kernel's as they are; play_video copies them into its
    types, and they give the same play to the last bit."""
    video = read_video(path(name))
    ev = video.events
    odd = dataclasses.replace(ev, kind=ev.kind.astype(np.int64),
                              row=np.repeat(ev.row, 2)[::2], time_ms=ev.time_ms.astype(np.int32))
    board = ClientBoard(video.mine_layout)
    assert board._play(odd.kind, odd.row, odd.col, odd.time_ms) is None
    assert board.left == board.right == board.double == 0 and not board.log
    for marks in (False, True):
        fast = play_video(video, question_marks=marks, count_chord_right_press=marks)
        slow = play_video(dataclasses.replace(video, events=odd), question_marks=marks,
                          count_chord_right_press=marks)
        for f in dataclasses.fields(fast):
            a, b = getattr(fast, f.name), getattr(slow, f.name)
            if f.name == "final_view":
                assert a.dtype == b.dtype and (a == b).all() and a.flags.writeable
            elif f.name == "log":
                for g in dataclasses.fields(a):
                    x, y = getattr(a, g.name), getattr(b, g.name)
                    if isinstance(x, np.ndarray):
                        assert x.dtype == y.dtype and x.tolist() == y.tolist()
                        assert not x.flags.writeable and not y.flags.writeable
                    else:
                        assert x == y
            else:
                assert a == b, f.name
        assert fast.moves == slow.moves


def test_play_checks_the_clicks_first_and_skips_the_moves() -> None:
    """A click of an unknown kind or off the board raises run's ValueError before
    any event is applied; a move's cell is never looked at (play_video never did)."""
    b = ClientBoard(np.zeros((2, 3), bool))
    k = np.array([K.LEFT_DOWN, K.LEFT_UP, 12], np.uint8)
    r = np.array([0, 0, 0], np.int32)
    t = np.arange(3, dtype=np.int64)
    with pytest.raises(ValueError, match="^unknown event kind 12$"):
        b._play(k, r, r, t)
    k[2] = K.RIGHT_DOWN
    bad = np.array([0, 0, 2], np.int32)
    with pytest.raises(ValueError, match=r"^a cell is neither on the 2x3 board nor \(-1, -1\) "
                                         r"for off the board$"):
        b._play(k, bad, r, t)
    assert _state(b) == (0, 0, 0, 0, 0, 0, 0, 0, "ready", [10] * 6) and not b.log
    k[2] = K.MOVE
    played = b._play(k, bad, r, t)
    assert played is not None and played[0] == 1 and b.status == "won"


def test_run_still_checks_every_event() -> None:
    """run checks moves' cells too (in the kernel now), with its messages, and
    applies nothing when one is wrong."""
    b = ClientBoard(np.zeros((2, 3), bool))
    k = np.array([K.LEFT_DOWN, K.LEFT_UP, K.MOVE], np.uint8)
    i = np.arange(3, dtype=np.int64)
    ok = np.array([0, 0, 0], np.int32)
    with pytest.raises(ValueError, match=r"^a cell is neither on the 2x3 board"):
        b.run(k, ok, np.array([0, 0, -1], np.int32), i)
    with pytest.raises(ValueError, match="^unknown event kind 200$"):
        b.run(np.array([1, 2, 200], np.uint8), ok, ok, i)
    with pytest.raises(ValueError, match="^kinds, rows, cols and index must be"):
        b._k.run(k, ok, ok, i[:2])
    assert _state(b) == (0, 0, 0, 0, 0, 0, 0, 0, "ready", [10] * 6) and not b.log
    assert b.run(k, ok, ok, i) == (2, 1, 1) and b.status == "won"


@pytest.mark.parametrize("mines, rows, cols", [
    (np.zeros((2, 3), bool), 3, 2), (np.zeros((2, 3), bool), 2, 4),
    (np.zeros((2, 3), np.uint8), 2, 3), (np.zeros((2, 6), bool)[:, ::2], 2, 3),
    (np.zeros(6, bool), 2, 3), (np.zeros((0, 3), bool), 0, 3),
])
def test_the_kernel_checks_the_layout_it_is_given(mines: NDArray[np.generic], rows: int,
                                                  cols: int) -> None:
    with pytest.raises(ValueError, match="^the click kernel needs a C-contiguous bool"):
        ClickKernel(mines, rows, cols, False, False)


def test_the_kernel_checks_a_steps_cell() -> None:
    """A cell off the board reaches no ring cell nor memory past it, even through the
    kernel's own step (the old kernel took (0, 3) on a 2x3 board for the ring)."""
    k = ClickKernel(np.zeros((2, 3), bool), 2, 3, False, False)
    for row, col in ((0, 3), (2, 0), (-1, 0), (0, -1), (-2, -2), (5, 5)):
        with pytest.raises(ValueError, match=rf"^cell \({row}, {col}\) is not on the 2x3 board"):
            k.step(int(K.LEFT_DOWN), row, col, 0)
    assert (k.left, k.status, k.log_len) == (0, 0, 0)
    assert k.step(int(K.LEFT_DOWN), -1, -1, 0) == 0


def test_events_that_are_no_video_s_are_refused_clearly() -> None:
    """No event, or columns of different lengths or shapes (events made by hand):
    a ValueError that says so, not an IndexError from deep inside."""
    video = read_video(path(sorted(PLAYED)[0]))
    ev = video.events
    empty = dataclasses.replace(ev, **{f.name: getattr(ev, f.name)[:0]
                                       for f in dataclasses.fields(ev)})
    short = dataclasses.replace(ev, row=ev.row[:-1])
    flat = dataclasses.replace(ev, col=np.stack([ev.col, ev.col]))
    for events in (empty, short, flat):
        with pytest.raises(ValueError, match="events must be 1-D columns of one length"):
            play_video(dataclasses.replace(video, events=events))
