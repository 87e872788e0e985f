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
    for name in ("MOVE_REVEAL", "MOVE_MARK", "MOVE_CHORD", "MOVE_MARK_PLAIN", "MOVE_ASSIST"):
        assert getattr(game, name) == getattr(movelog, name) == getattr(_kernels, name)
    assert replay.KIND_NAMES is movelog.KIND_NAMES
    assert movelog.KIND_NAMES[movelog.MOVE_CHORD] == "chord"
    assert movelog.KIND_NAMES[movelog.MOVE_MARK_PLAIN] == movelog.KIND_NAMES[movelog.MOVE_MARK]


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


def _reference_problem(pairs, rows, cols, padded, max_ms, ordered, version=2):
    """The first bad move (1-based) and what is wrong with it, the slow obvious way
    (kind 3, a mark without "?", is unknown only in a version 1 log)."""
    w, off = (cols + 2, 1) if padded else (cols, 0)
    checks = []
    for i, (code, ms) in enumerate(pairs, 1):
        cell = code // 8 if code >= 0 else -1
        r, c = (cell // w - off, cell % w - off) if cell >= 0 else (-1, -1)
        if not (0 <= r < rows and 0 <= c < cols):
            checks.append((0, i))
        elif version == 1 and code % 8 in (3, 7):
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
       st.lists(st.tuples(st.integers(-20, 400), st.integers(-5, 1100)), max_size=8),
       st.sampled_from((1, 2)))
def test_check_finds_the_first_bad_move_as_the_reference_does(rows, cols, padded, ordered, pairs,
                                                              version):
    want = _reference_problem(pairs, rows, cols, padded, 1000, ordered, version)
    arr = np.array(pairs, np.int64).reshape(-1, 2)
    if want is None:
        moves = movelog.check(arr, rows, cols, padded=padded, max_ms=1000, times_ordered=ordered,
                              version=version)
        assert np.array_equal(movelog.encode(moves, cols, padded=padded), arr)
        return
    kind, i = want
    with pytest.raises(ValueError, match=f"{WORDS[kind]}.*" if kind != 3 else WORDS[kind]) as exc:
        movelog.check(arr, rows, cols, padded=padded, max_ms=1000, times_ordered=ordered,
                      version=version)
    assert f"move {i} " in str(exc.value)


def _save_with_log(pairs, old: bool = False) -> dict:
    g = fastmine.Game(4, 5, 3, seed=1, clock=FakeClock())
    g.reveal(0, 0)
    d = g.to_dict()
    d["moves"] = base64.b64encode(np.array(pairs, "<i8").tobytes()).decode()
    if old:                     # a save written before marks logged their cycle
        del d["moves_version"]
    return d


W = 5 + 2   # the padded width of a 4x5 game


@pytest.mark.parametrize("pairs, words, old", [
    ([[0, 0]], "move 1 names a cell off the board", False),                       # the ring
    ([[((1 + 1) * W + 6) * 8, 0]], "move 1 names a cell off the board", False),  # col 5 of 5
    ([[(W + 1) * 8, 0], [(W + 1) * 8 + 3, 5]], "unknown kinds: move 2 is of kind 3", True),
    ([[(W + 1) * 8 + 7, 0]], "unknown kinds: move 1 is of kind 7", True),
    ([[(W + 1) * 8, -1]], "move 1 has a bad time of -1 ms", False),
    ([[(W + 1) * 8, 10**13]], "move 1 has a bad time", False),
    ([[-8, 0]], "move 1 names a cell off the board", False),
])
def test_a_saved_game_with_bad_moves_is_refused_naming_the_move(pairs, words, old):
    with pytest.raises(SaveFormatError, match=f"saved game's moves cannot be read: {words}"):
        fastmine.Game.from_dict(_save_with_log(pairs, old))


def test_marks_log_their_cycle_and_saves_keep_it():
    # The setting switched mid-game: each mark says which cycle it used
    # (kind 1 through "?", kind 3 without), so it is played back as it was.
    g = fastmine.Game.from_board(fastmine.Board.from_mines(np.eye(4, dtype=bool)),
                                 clock=FakeClock())
    g.reveal(0, 3)
    g.toggle_mark(0, 0)
    g.question_marks = False
    g.toggle_mark(0, 0)             # flag -> hidden
    with g.assisting():
        g.toggle_mark(1, 1)
    g.question_marks = True
    g.toggle_mark(1, 1)             # flag -> ?
    assert g.moves[:, 0].tolist() == [0, 1, 3, 3 + 4, 1]
    assert g.view[0, 0] == fastmine.HIDDEN and g.view[1, 1] == fastmine.QUESTION
    d = g.to_dict()
    assert d["moves_version"] == movelog.LOG_VERSION == 2
    loaded = fastmine.Game.from_dict(d)
    assert loaded.moves.tolist() == g.moves.tolist()
    assert np.array_equal(Replay.from_game(loaded).play().view, g.view)


# A save written before marks logged their cycle (by that fastmine): question
# marks off, reveal (1, 1), three marks on the mine at (0, 0) (flag, none, flag),
# one on the mine at (3, 3).
OLD_SAVE = (
    '{"format": "fastmine-game", "version": 1, "rows": 4, "cols": 4, "mines": 2, "rule": '
    '"none", "seed": null, "question_marks": false, "state": "playing", "mine_cells": [0, 15], '
    '"cells": "fhhhhrhhhhhhhhhf", "elapsed": 2.75, "paused": false, "assisted": false, '
    '"clicks": {"left": 1, "right": 4, "chord": 0}, "moves": "cAAAAAAAAAAAAAAAAAAAADkAAAAAAAAA3'
    'AUAAAAAAAA5AAAAAAAAANYGAAAAAAAAOQAAAAAAAADQBwAAAAAAAOEAAAAAAAAAyggAAAAAAAA="}')


def test_an_old_save_reads_its_marks_as_its_setting_says():
    d = json.loads(OLD_SAVE)
    g = fastmine.Game.from_dict(d)
    # every mark was made with question marks off, as the save says
    assert g.moves.tolist() == [[0, 1, 1, 0], [3, 0, 0, 1500], [3, 0, 0, 1750],
                                [3, 0, 0, 2000], [3, 3, 3, 2250]]
    assert np.array_equal(Replay.from_game(g).play().view, g.view)   # (0, 0) flagged
    assert g.view[0, 0] == fastmine.FLAG
    d["question_marks"] = True      # the same log with them on: flag, ?, none
    assert fastmine.Game.from_dict(d).moves[:, 0].tolist() == [0, 1, 1, 1, 1]


@pytest.mark.parametrize("version", [0, "2", True, 2.0, None])
def test_a_bad_moves_version_is_refused(version):
    d = json.loads(OLD_SAVE)
    d["moves_version"] = version
    with pytest.raises(SaveFormatError, match="moves_version must be a whole number"):
        fastmine.Game.from_dict(d)


def test_a_log_from_a_newer_fastmine_leaves_the_game_without_a_replay():
    d = json.loads(OLD_SAVE)
    d["moves_version"] = movelog.LOG_VERSION + 1
    g = fastmine.Game.from_dict(d)
    assert not g.moves_complete and g.view[0, 0] == fastmine.FLAG


def test_a_saved_game_with_times_that_go_back_loads_them_in_order():
    # (saved before the log kept times in order, with a clock that went back:
    # the game loads, each move at the previous move's time at least, as the
    # log now records them, so a replay made from it reads back)
    pairs = [[(W + 1) * 8, 500], [(W + 2) * 8 + 1, 20]]
    g = fastmine.Game.from_dict(_save_with_log(pairs))
    assert g.moves.tolist() == [[0, 0, 0, 500], [1, 0, 1, 500]]


def _replay_file(moves_pairs, version: int = 2) -> bytes:
    g = fastmine.Game.from_board(fastmine.Board.from_mines(np.eye(3, dtype=bool)))
    g.reveal(0, 1)
    d = Replay.from_game(g).to_dict()
    d["moves"] = base64.b64encode(zlib.compress(np.array(moves_pairs, "<i8").tobytes())).decode()
    d["move_count"] = len(moves_pairs)
    d["version"] = version
    return json.dumps(d).encode()


@pytest.mark.parametrize("pairs, words, version", [
    ([[8, 100], [16, 50]], "times go backwards: move 2 is at 50 ms, after 100 ms", 2),
    ([[8, 0], [9 * 8, 0]], "move 2 names a cell off the board", 2),
    ([[8, -3]], "move 1 has a bad time of -3 ms", 2),
    ([[8 + 7, 0]], "unknown kinds: move 1 is of kind 7", 1),
    ([[8, 0], [3, 5]], r"unknown kinds: move 2 is of kind 3 \(known: 0 reveal, 1 mark, 2 chord,", 1),
])
def test_a_replay_file_with_bad_moves_is_refused_naming_the_move(pairs, words, version):
    with pytest.raises(SaveFormatError, match=f"the moves cannot be played back: {words}"):
        Replay.from_bytes(_replay_file(pairs, version))


def test_a_version_2_replay_file_plays_each_mark_as_its_kind_says():
    # kind 7: a solver's mark without "?", in a file whose setting is "?" on
    rep = Replay.from_bytes(_replay_file([[8, 0], [0 * 8 + 7, 5], [0 * 8 + 7, 9]]))
    assert rep.question_marks and rep.moves[:, 0].tolist() == [0, 7, 7]
    end = rep.play()
    assert end.view[0, 0] == fastmine.HIDDEN and end.assisted   # flag, then none (not "?")
    assert end.question_marks                                   # the setting is the file's
    assert np.array_equal(end.moves, rep.moves)
