"""The move log's layout (fastmine.movelog): kinds, packing, and the one check that
both the save and the replay file go through."""

from __future__ import annotations

import base64
import json
import zlib

import numpy as np
import pytest
from engine_strategies import FakeClock
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import _kernels, game, movelog, replay
from fastmine.errors import SaveFormatError
from fastmine.replay import Replay


def test_the_kinds_have_one_owner():
    # the kernels write the codes; every Python name is theirs
    for name in ("MOVE_REVEAL", "MOVE_MARK", "MOVE_CHORD", "MOVE_ASSIST"):
        assert getattr(game, name) == getattr(movelog, name) == getattr(_kernels, name)
    assert replay.KIND_NAMES is movelog.KIND_NAMES
    assert movelog.KIND_NAMES[movelog.MOVE_CHORD] == "chord"


@pytest.mark.parametrize("assisted", [False, True])
def test_a_chord_before_the_first_reveal_is_logged_and_changes_nothing(assisted):
    clock = FakeClock()
    g = fastmine.Game(9, 9, 10, seed=4, clock=clock)
    clock.advance(2.0)
    if assisted:
        with g.assisting():
            changed = g.chord(3, 5)
    else:
        changed = g.chord(3, 5)
    assert changed.shape == (0, 2) and g.state is fastmine.GameState.READY
    assert (g.view == fastmine.HIDDEN).all() and g.board is None and g.chord_clicks == 1
    kind = movelog.MOVE_CHORD | (movelog.MOVE_ASSIST if assisted else 0)
    assert g.moves.tolist() == [[kind, 3, 5, 0]]
    g.reveal(4, 4)
    rep = Replay.from_game(g)                     # it replays, and through the file
    again = Replay.from_bytes(rep.to_bytes())
    assert again == rep and np.array_equal(again.play().view, g.view)
    assert fastmine.Game.from_dict(g.to_dict()).moves.tolist() == g.moves.tolist()


def _reference_problem(pairs, rows, cols, padded, max_ms, ordered):
    """The first bad move (1-based) and what is wrong with it, the slow obvious way."""
    w, off = (cols + 2, 1) if padded else (cols, 0)
    checks = []
    for i, (code, ms) in enumerate(pairs, 1):
        cell = code // 8 if code >= 0 else -1
        r, c = (cell // w - off, cell % w - off) if cell >= 0 else (-1, -1)
        if not (0 <= r < rows and 0 <= c < cols):
            checks.append((0, i))
        elif code % 8 in (3, 7):
            checks.append((1, i))
        elif not 0 <= ms <= max_ms:
            checks.append((2, i))
    # the check is done kind by kind: the first kind of problem found wins
    if checks:
        kind = min(k for k, _ in checks)
        return kind, min(i for k, i in checks if k == kind)
    if ordered:
        for i in range(1, len(pairs)):
            if pairs[i][1] < pairs[i - 1][1]:
                return 3, i + 1
    return None


WORDS = ("names a cell off the board", "unknown kinds", "has a bad time", "times go backwards")


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.booleans(), st.booleans(),
       st.lists(st.tuples(st.integers(-20, 400), st.integers(-5, 1100)), max_size=8))
def test_check_finds_the_first_bad_move_as_the_reference_does(rows, cols, padded, ordered, pairs):
    want = _reference_problem(pairs, rows, cols, padded, 1000, ordered)
    arr = np.array(pairs, np.int64).reshape(-1, 2)
    if want is None:
        moves = movelog.check(arr, rows, cols, padded=padded, max_ms=1000, times_ordered=ordered)
        assert np.array_equal(movelog.encode(moves, cols, padded=padded), arr)
        return
    kind, i = want
    with pytest.raises(ValueError, match=f"{WORDS[kind]}.*" if kind != 3 else WORDS[kind]) as exc:
        movelog.check(arr, rows, cols, padded=padded, max_ms=1000, times_ordered=ordered)
    assert f"move {i} " in str(exc.value)


def _save_with_log(pairs) -> dict:
    g = fastmine.Game(4, 5, 3, seed=1, clock=FakeClock())
    g.reveal(0, 0)
    d = g.to_dict()
    d["moves"] = base64.b64encode(np.array(pairs, "<i8").tobytes()).decode()
    return d


W = 5 + 2   # the padded width of a 4x5 game


@pytest.mark.parametrize("pairs, words", [
    ([[0, 0]], "move 1 names a cell off the board"),                       # the padding ring
    ([[((1 + 1) * W + 6) * 8, 0]], "move 1 names a cell off the board"),  # col 5 of 5
    ([[(W + 1) * 8, 0], [(W + 1) * 8 + 3, 5]], "unknown kinds: move 2 is of kind 3"),
    ([[(W + 1) * 8 + 7, 0]], "unknown kinds: move 1 is of kind 7"),
    ([[(W + 1) * 8, -1]], "move 1 has a bad time of -1 ms"),
    ([[(W + 1) * 8, 10**13]], "move 1 has a bad time"),
    ([[-8, 0]], "move 1 names a cell off the board"),
])
def test_a_saved_game_with_bad_moves_is_refused_naming_the_move(pairs, words):
    with pytest.raises(SaveFormatError, match=f"saved game's moves cannot be read: {words}"):
        fastmine.Game.from_dict(_save_with_log(pairs))


def test_a_saved_game_with_times_that_go_back_loads_them_in_order():
    # (saved before the log kept times in order, with a clock that went back:
    # the game loads, each move at the previous move's time at least, as the
    # log now records them, so a replay made from it reads back)
    pairs = [[(W + 1) * 8, 500], [(W + 2) * 8 + 1, 20]]
    g = fastmine.Game.from_dict(_save_with_log(pairs))
    assert g.moves.tolist() == [[0, 0, 0, 500], [1, 0, 1, 500]]


def _replay_file(moves_pairs) -> bytes:
    g = fastmine.Game.from_board(fastmine.Board.from_mines(np.eye(3, dtype=bool)))
    g.reveal(0, 1)
    d = Replay.from_game(g).to_dict()
    d["moves"] = base64.b64encode(zlib.compress(np.array(moves_pairs, "<i8").tobytes())).decode()
    d["move_count"] = len(moves_pairs)
    return json.dumps(d).encode()


@pytest.mark.parametrize("pairs, words", [
    ([[8, 100], [16, 50]], "times go backwards: move 2 is at 50 ms, after 100 ms"),
    ([[8, 0], [9 * 8, 0]], "move 2 names a cell off the board"),
    ([[8, -3]], "move 1 has a bad time of -3 ms"),
    ([[8 + 7, 0]], "unknown kinds: move 1 is of kind 7"),
])
def test_a_replay_file_with_bad_moves_is_refused_naming_the_move(pairs, words):
    with pytest.raises(SaveFormatError, match=f"the moves cannot be played back: {words}"):
        Replay.from_bytes(_replay_file(pairs))
