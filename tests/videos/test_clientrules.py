"""The clients' click rules: against a literal transcription of ms-toollib's state
machine on random boards and event streams, and case by case."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from python_rules import PythonBoard
from reference_rules import ReferenceBoard, Unsupported

from fastmine.videos import EventKind
from fastmine.videos.clientrules import ClientBoard, GameStatus
from fastmine.videos.model import EVENT_CODES
from fastmine.viewcodes import FLAG, HIDDEN, QUESTION

K = EventKind
_CODES = ["lc", "lr", "rc", "rr", "mc", "mr", "mv", "cc", "pf"]


@st.composite
def games(draw: st.DrawFn) -> tuple[list[list[bool]], list[tuple[str, int, int]]]:
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 6))
    mines = draw(st.lists(st.lists(st.booleans(), min_size=cols, max_size=cols),
                          min_size=rows, max_size=rows))
    cell = st.one_of(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                     st.just((-1, -1)))
    if draw(st.booleans()):
        # Any order of presses and releases.
        steps = draw(st.lists(st.tuples(st.sampled_from(_CODES), cell), max_size=60))
    else:
        # A real mouse: a button is pressed only when up, released only when down.
        down = {"l": False, "r": False, "m": False}
        steps = []
        for _ in range(draw(st.integers(0, 60))):
            b = draw(st.sampled_from("lrm" + "v" * 3 + "cp"))
            if b in "lrm":
                code = b + ("r" if down[b] else "c")
                down[b] = not down[b]
            else:
                code = {"v": "mv", "c": "cc", "p": "pf"}[b]
            steps.append((code, draw(cell)))
    return mines, [(code, r, c) for code, (r, c) in steps]


def _state(b: ClientBoard) -> tuple[int, ...]:
    return (b.left, b.right, b.double, b.lce, b.rce, b.dce, b.bbbv_solved, b.flags)


def _ref_state(r: ReferenceBoard) -> tuple[int, ...]:
    return (r.left, r.right, r.double, r.lce, r.rce, r.dce, r.bbbv_solved, r.flag)


@given(games())
def test_same_as_ms_toollib_state_machine(game) -> None:  # type: ignore[no-untyped-def]
    mines, steps = game
    rows, cols = len(mines), len(mines[0])
    ours = ClientBoard(np.array(mines, dtype=bool))
    ref = ReferenceBoard(mines)
    for code, r, c in steps:
        pos = (r, c) if r >= 0 else (rows, cols)
        try:
            expected = ref.step(code, pos)
        except Unsupported:
            return                          # ms-toollib has no rule here
        got = ours.step(EVENT_CODES.index(code), r, c)
        assert got == expected
        assert ours.cells == [x for row in ref.game_board for x in row]
        assert _state(ours) == _ref_state(ref)
        assert ours.status == ref.game_board_state


@st.composite
def any_games(draw: st.DrawFn) -> tuple[np.ndarray, list[tuple[int, int, int]], bool, bool]:
    rows = draw(st.integers(1, 7))
    cols = draw(st.integers(1, 7))
    mines = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    cell = st.one_of(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)),
                     st.just((-1, -1)))
    steps = draw(st.lists(st.tuples(st.integers(0, max(K)), cell), max_size=80))
    return (np.array(mines, dtype=bool).reshape(rows, cols),
            [(k, r, c) for k, (r, c) in steps], draw(st.booleans()), draw(st.booleans()))


@given(any_games())
def test_compiled_rules_are_the_python_rules(game) -> None:  # type: ignore[no-untyped-def]
    """Every event kind, every option: the kernel behind ClientBoard plays like the
    plain Python rules (checked against ms-toollib on 8,085 real videos)."""
    mines, steps, marks, clone = game
    fast = ClientBoard(mines, question_marks=marks, count_chord_right_press=clone)
    slow = PythonBoard(mines, question_marks=marks, count_chord_right_press=clone)
    for i, (k, r, c) in enumerate(steps):
        assert fast.step(k, r, c, i) == slow.step(k, r, c, i)
        assert fast.cells == slow.cells
        assert _state(fast) == (slow.left, slow.right, slow.double, slow.lce, slow.rce, slow.dce,
                                slow.bbbv_solved, slow.flags)
        assert fast.status == slow.status
    assert fast.log == slow.log
    assert (fast.view() == slow.view()).all()


def test_arguments_are_checked() -> None:
    b = ClientBoard(np.zeros((2, 3), bool))
    for bad in ((12, 0, 0), (-1, 0, 0), (1, 2, 0), (1, 0, 3), (1, -1, 0), (1, -2, -2)):
        with pytest.raises(ValueError):
            b.step(*bad)
    with pytest.raises(ValueError):
        ClientBoard(np.zeros(4, bool))
    with pytest.raises(ValueError):
        b.run(np.array([1], np.uint8), np.array([5], np.int32), np.array([0], np.int32),
              np.array([0], np.int64))
    assert b.left == 0 and b.status == "ready"


def _play(mines: list[str], steps: list[tuple[EventKind, int, int]],
          **kw: bool) -> ClientBoard:
    b = ClientBoard(np.array([[ch == "*" for ch in row] for row in mines]), **kw)
    for i, (k, r, c) in enumerate(steps):
        b.step(k, r, c, i)
    return b


def _click(k_down: EventKind, k_up: EventKind, r: int, c: int) -> list[tuple[EventKind, int,
                                                                               int]]:
    return [(k_down, r, c), (k_up, r, c)]


LEFT = (K.LEFT_DOWN, K.LEFT_UP)
RIGHT = (K.RIGHT_DOWN, K.RIGHT_UP)


def test_left_reveals_on_release_where_the_pointer_is() -> None:
    b = _play(["...*", "....", "...*"], [(K.LEFT_DOWN, 0, 3), (K.MOVE, 2, 0), (K.LEFT_UP, 2, 0)])
    assert b.status == GameStatus.PLAYING
    assert b.cells[2 * 4 + 0] == 0 and b.cells[3] == 10        # the mine was not touched
    assert b.left == 1 and b.log == [(2, "left", "reveal", 8, True)]


def test_right_flags_on_press_and_unflags() -> None:
    steps = _click(*LEFT, 2, 0) + [(K.RIGHT_DOWN, 0, 3)]
    b = _play(["...*", "....", "...*"], steps)
    assert b.cells[3] == 11 and b.flags == 1 and b.rce == 1
    b.step(K.RIGHT_UP, 0, 3)
    b.step(K.RIGHT_DOWN, 0, 3)
    assert b.cells[3] == 10 and b.flags == 0 and b.right == 2
    assert [m[2] for m in b.log] == ["reveal", "flag", "unflag"]


def test_both_buttons_chord_on_the_first_release() -> None:
    # Mines at (0, 3) and (2, 3); reveal (0, 0) opens the left part, flag both mines,
    # then chord the 2 at (1, 2) with left + right.
    mines = ["...*", "....", "...*"]
    steps = (_click(*LEFT, 0, 0) + _click(*RIGHT, 0, 3) + _click(*RIGHT, 2, 3)
             + [(K.LEFT_DOWN, 1, 2), (K.RIGHT_DOWN, 1, 2), (K.RIGHT_UP, 1, 2),
                (K.LEFT_UP, 1, 2)])
    b = _play(mines, steps)
    assert b.status == GameStatus.WON
    assert (b.left, b.right, b.double, b.dce) == (1, 2, 1, 1)
    assert b.log[-1][1:] == ("double", "chord", 6, True)


def test_middle_button_chords_on_release() -> None:
    mines = ["...*", "....", "...*"]
    steps = (_click(*LEFT, 0, 0) + _click(*RIGHT, 0, 3) + _click(*RIGHT, 2, 3)
             + _click(K.MIDDLE_DOWN, K.MIDDLE_UP, 1, 2))
    assert _play(mines, steps).status == GameStatus.WON


def test_chord_on_a_revealed_zero_opens_a_neighbour_left_hidden() -> None:
    # The game: flag (1, 1), reveal (0, 0), unflag (1, 1), chord on (0, 0).
    mines = ["...*", "....", "...*"]
    steps = (_click(*RIGHT, 1, 1) + _click(*LEFT, 0, 0) + _click(*RIGHT, 1, 1)
             + [(K.LEFT_DOWN, 0, 0), (K.RIGHT_DOWN, 0, 0), (K.LEFT_UP, 0, 0)])
    b = _play(mines, steps)
    before_chord = b.log[-2]
    assert before_chord[2] == "unflag"
    assert b.log[-1][1:] == ("double", "chord", 0, True)
    assert b.cells[1 * 4 + 1] == 0                       # (1, 1) opened by the chord


def test_a_chord_begun_with_right_on_an_open_cell_is_not_a_right_click() -> None:
    mines = ["...*", "....", "...*"]
    chord = [(K.RIGHT_DOWN, 1, 0), (K.LEFT_DOWN, 1, 0), (K.LEFT_UP, 1, 0), (K.RIGHT_UP, 1, 0)]
    steps = _click(*LEFT, 0, 0) + chord
    b = _play(mines, steps)
    assert (b.right, b.double) == (0, 1)
    assert [m[1] for m in b.log] == ["left", "double"]
    clone = _play(mines, steps, count_chord_right_press=True)
    assert (clone.right, clone.double) == (1, 1)


def test_clicks_off_the_board_count_once_the_game_runs() -> None:
    steps = _click(*LEFT, 0, 0) + _click(*LEFT, -1, -1) + _click(*RIGHT, -1, -1)
    b = _play(["...*", "....", "...*"], steps)
    assert (b.left, b.right) == (2, 1)
    assert [m[3] for m in b.log] == [0, -1, -1]


def test_before_the_game_a_release_off_the_board_cancels_it() -> None:
    # Press on the board, release off it: nothing is counted, the game is ready again.
    b = _play(["...*", "....", "...*"], [(K.LEFT_DOWN, 1, 1), (K.LEFT_UP, -1, -1)])
    assert b.status == GameStatus.READY and b.left == 0 and b.log == []


def test_taking_off_the_last_preflag_starts_over() -> None:
    steps = _click(*RIGHT, 0, 3) + _click(*RIGHT, 1, 1) + _click(*RIGHT, 1, 1)
    b = _play(["...*", "....", "...*"], steps)
    assert b.status == GameStatus.PREFLAGGING and b.right == 3 and b.flags == 1
    b.step(K.RIGHT_DOWN, 0, 3)
    assert b.status == GameStatus.READY
    assert (b.right, b.flags, b.log) == (0, 0, [])
    assert all(c == 10 for c in b.cells)


def test_preflag_events_flag_before_the_game() -> None:
    b = _play(["...*", "....", "...*"], [(K.PRE_FLAG, 0, 3), (K.PRE_FLAG, 2, 3)]
              + _click(*LEFT, 0, 0))
    assert (b.right, b.flags, b.rce) == (2, 2, 2)
    assert b.status == GameStatus.PLAYING and b.left == 1


def test_evf_press_or_release_events() -> None:
    # "l" twice is a left click, before the game and during it; "r" flags.
    b = _play(["...*", "....", "...*"], [(K.LEFT, 1, 0), (K.LEFT, 1, 0), (K.RIGHT, 0, 3),
                                         (K.RIGHT, 0, 3)])
    assert b.status == GameStatus.PLAYING
    assert (b.left, b.right, b.flags) == (1, 1, 1)
    b.step(K.MIDDLE, 2, 2)
    b.step(K.MIDDLE, 2, 2)                   # a middle click: a chord (nothing to open)
    assert b.double == 1


def test_question_marks_cycle_when_on() -> None:
    steps = _click(*LEFT, 0, 0) + _click(*RIGHT, 2, 3) * 3
    b = _play(["...*", "....", "...*"], steps, question_marks=True)
    assert [m[2] for m in b.log[1:]] == ["flag", "question", "unmark"]
    b.step(K.RIGHT_DOWN, 2, 3)
    b.step(K.RIGHT_UP, 2, 3)
    b.step(K.RIGHT_DOWN, 2, 3)
    assert b.view()[2, 3] == QUESTION
    off = _play(["...*", "....", "...*"], steps)
    assert [m[2] for m in off.log[1:]] == ["flag", "unflag", "flag"]
    assert off.view()[2, 3] == FLAG


def test_nothing_counts_after_the_game() -> None:
    b = _play([".*"], _click(*LEFT, 0, 1) + _click(*LEFT, 0, 0) + _click(*RIGHT, 0, 0))
    assert b.status == GameStatus.LOST
    assert (b.left, b.right) == (1, 0)
    assert b.view()[0, 0] == HIDDEN


def test_kernel_is_built_like_the_engine() -> None:
    from fastmine import _kernels
    from fastmine.videos import _clicks

    assert _clicks.BOUNDS_CHECKED == _kernels.BOUNDS_CHECKED
