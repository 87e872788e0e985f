"""to_dict / from_dict: round trips over random histories, and corrupt saves."""

from __future__ import annotations

import base64
import copy
import json

import numpy as np
import pytest
from engine_strategies import FakeClock, changed_set, masks, moves, pick_move, play_both, ref_of
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import RefBoard, RefGame

import fastmine
from fastmine import Board, FutureVersionError, Game, GameState, SaveFormatError


def assert_same_game(a: Game, b: Game) -> None:
    assert np.array_equal(a.view, b.view)
    assert a.state is b.state
    assert a.mines_left == b.mines_left
    assert a.stats() == b.stats()
    assert a.paused == b.paused and a.assisted == b.assisted
    assert a.board == b.board
    assert (a.rows, a.cols, a.mine_count, a.rule, a.seed, a.question_marks) == (
        b.rows, b.cols, b.mine_count, b.rule, b.seed, b.question_marks)


def round_trip(game: Game, clock) -> Game:
    """Save through real JSON text and load again."""
    text = json.dumps(game.to_dict())
    loaded = Game.from_dict(json.loads(text), clock=clock)
    assert loaded.to_dict() == game.to_dict()
    return loaded


def continue_both(a: Game, b: Game, script) -> None:
    """The loaded game plays on exactly like the original."""
    for g in (a, b):
        g.resume()
    ref = RefGame(ref_of(a.board)) if a.board is not None else None
    for kind, k in script:
        if a.state.is_over:
            for g in (a, b):
                with pytest.raises(fastmine.GameOverError):
                    g.reveal(0, 0)
            return
        if ref is None:  # not laid yet: any cell
            op, r, c = "reveal", *divmod(k % (a.rows * a.cols), a.cols)
        else:
            # Let the reference pick a cell from the current position.
            ref.view = a.view.tolist()
            ref.state = a.state.value
            op, r, c = pick_move(ref, kind, k)
        assert changed_set(getattr(a, op)(r, c)) == changed_set(getattr(b, op)(r, c))
        assert_same_game(a, b)
        if ref is None and a.board is not None:
            ref = RefGame(ref_of(a.board))


@settings(max_examples=150)
@given(masks(max_side=8), moves, moves, st.booleans(), st.booleans(), st.booleans())
def test_round_trip_fixed_board(mask, history, future, question_marks, pause, assisted):
    clock = FakeClock()
    game = Game.from_board(Board.from_mines(mask), question_marks=question_marks, clock=clock)
    ref = RefGame(RefBoard(mask), question_marks=question_marks)
    play_both(game, ref, history)
    clock.advance(3.25)
    if pause:
        game.pause()
    game.assisted = assisted
    loaded = round_trip(game, clock)
    assert_same_game(game, loaded)
    continue_both(game, loaded, future)


@settings(max_examples=100)
@given(
    st.sampled_from([(9, 9, 10), (5, 6, 12), (1, 10, 3), (8, 8, 63)]),
    st.sampled_from(["cell", "opening", "none", "no_guess"]),
    st.integers(0, 2**64 - 1), st.integers(0, 10**6), moves, moves, st.booleans(),
)
def test_round_trip_generated(size, rule, seed, first, history, future, pause):
    """Generated games, including ones saved before mines are laid (READY)."""
    clock = FakeClock()
    rows, cols, mines = size
    game = Game(rows, cols, mines, rule=rule, seed=seed, clock=clock)
    fr, fc = divmod(first % (rows * cols), cols)
    if first % 3 and rule != "no_guess":  # sometimes save before the first reveal
        game.reveal(fr, fc)
        ref = RefGame(ref_of(game.board))
        ref.reveal(fr, fc)
        play_both(game, ref, history)
    else:
        game.toggle_mark(fr, fc)
    clock.advance(1.5)
    if pause:
        game.pause()
    loaded = round_trip(game, clock)
    assert_same_game(game, loaded)
    if rule != "no_guess":
        continue_both(game, loaded, future)


def test_ready_seeded_game_lays_the_same_mines_after_loading(clock):
    game = Game(16, 30, 99, seed=42, clock=clock)
    loaded = round_trip(game, clock)
    assert loaded.board is None
    game.reveal(5, 5)
    loaded.reveal(5, 5)
    assert game.board == loaded.board
    assert np.array_equal(game.view, loaded.view)


def test_saved_dict_shape(clock):
    game = Game.from_board(Board.from_mines([[1, 0, 0], [0, 0, 1]]), clock=clock)
    game.reveal(1, 0)
    game.toggle_mark(0, 0)
    clock.advance(2)
    d = game.to_dict()
    # The move log for replays: (padded cell * 8 + kind, ms) as little-endian int64.
    log = np.frombuffer(base64.b64decode(d.pop("moves")), "<i8")
    assert log.tolist() == [(2 * 5 + 1) * 8 + 0, 0, (1 * 5 + 1) * 8 + 1, 0]
    assert d == {
        "format": "fastmine-game", "version": 1, "rows": 2, "cols": 3, "mines": 2,
        "rule": "none", "seed": None, "question_marks": True, "state": "playing",
        "mine_cells": [0, 5], "cells": "fhhrhh", "elapsed": 2.0, "paused": False,
        "assisted": False, "clicks": {"left": 1, "right": 1, "chord": 0}, "moves_version": 2,
    }


# ---------------------------------------------------------------- corrupt saves


def valid_save() -> dict:
    game = Game.from_board(Board.from_mines([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0]]),
                           clock=FakeClock())
    game.reveal(0, 3)
    game.toggle_mark(0, 0)
    return game.to_dict()


def test_valid_save_loads():
    game = Game.from_dict(valid_save(), clock=FakeClock())
    assert game.state is GameState.PLAYING


REQUIRED = ["format", "version", "rows", "cols", "mines", "rule", "question_marks",
            "state", "cells", "elapsed", "clicks", "mine_cells"]


@pytest.mark.parametrize("key", REQUIRED)
def test_missing_fields(key):
    d = valid_save()
    del d[key]
    with pytest.raises(SaveFormatError):
        Game.from_dict(d)


BAD_FIELDS = [
    ("format", "other"), ("format", None),
    ("version", "1"), ("version", 1.0), ("version", True), ("version", 0), ("version", -3),
    ("rows", "3"), ("rows", 3.0), ("rows", True), ("rows", 0), ("rows", -3), ("rows", 4),
    ("cols", None), ("cols", 0),
    ("mines", "2"), ("mines", 0), ("mines", 12), ("mines", 3), ("mines", 1),
    ("rule", 5), ("rule", "sometimes"),
    ("seed", -1), ("seed", "x"), ("seed", 1.5),
    ("question_marks", 1), ("question_marks", "yes"),
    ("state", 3), ("state", "paused"), ("state", "won"), ("state", "lost"), ("state", "ready"),
    ("cells", ["r"] * 12), ("cells", "rrrr"), ("cells", "x" * 12), ("cells", "RRRRRRRRRRRR"),
    ("cells", "r" * 12), ("cells", "h" * 12 + "h"),
    ("elapsed", "1"), ("elapsed", True), ("elapsed", -1.0), ("elapsed", float("nan")),
    ("elapsed", float("inf")), ("elapsed", None),
    ("clicks", [1, 2, 3]), ("clicks", {"left": 1, "right": 1}),
    ("clicks", {"left": "1", "right": 1, "chord": 0}),
    ("clicks", {"left": 1.5, "right": 1, "chord": 0}),
    ("clicks", {"left": True, "right": 1, "chord": 0}),
    ("clicks", {"left": -1, "right": 1, "chord": 0}),
    ("mine_cells", "0,10"), ("mine_cells", [0]), ("mine_cells", [0, 0]),
    ("mine_cells", [0, 12]), ("mine_cells", [-1, 10]), ("mine_cells", [0.0, 10.0]),
    ("mine_cells", [True, 10]), ("mine_cells", [0, 2**70]), ("mine_cells", [0, -(2**70)]),
    ("mine_cells", [0, 1, 10]), ("mine_cells", None), ("mine_cells", (0, 10)),
    ("mine_cells", [3, 10]),  # (0,3) is revealed: a mine there contradicts "playing"
    ("paused", "no"), ("paused", 0), ("assisted", "false"), ("assisted", None),
]


@pytest.mark.parametrize("key, value", BAD_FIELDS)
def test_bad_fields(key, value):
    d = valid_save()
    d[key] = value
    pristine = copy.deepcopy(d)
    with pytest.raises(SaveFormatError):
        Game.from_dict(d)
    assert repr(d) == repr(pristine)  # the caller's dict is left alone


@pytest.mark.parametrize("bad", [None, [], "save", 3, json.dumps(valid_save())])
def test_not_a_dict(bad):
    with pytest.raises(SaveFormatError, match="dict"):
        Game.from_dict(bad)


def test_inconsistent_states():
    d = valid_save()
    won = Game.from_board(Board.from_mines([[1, 0]]))
    won.reveal(0, 1)
    w = won.to_dict()
    assert Game.from_dict(w).state is GameState.WON
    for state in ("playing", "lost", "ready"):
        with pytest.raises(SaveFormatError, match="cells say"):
            Game.from_dict({**w, "state": state})
    with pytest.raises(SaveFormatError, match="paused"):
        Game.from_dict({**w, "paused": True})
    lost = Game.from_board(Board.from_mines([[1, 0]]))
    lost.reveal(0, 0)
    lo = lost.to_dict()
    assert Game.from_dict(lo).state is GameState.LOST
    with pytest.raises(SaveFormatError, match="cells say"):
        Game.from_dict({**lo, "state": "won"})
    # A generated game that has not laid its mines cannot have revealed cells.
    ready = Game(3, 4, 2, seed=1).to_dict()
    assert ready["mine_cells"] is None
    with pytest.raises(SaveFormatError, match="no mines"):
        Game.from_dict({**ready, "cells": "r" + ready["cells"][1:]})
    with pytest.raises(SaveFormatError, match="no mines"):
        Game.from_dict({**ready, "state": "playing"})
    assert d["state"] == "playing"


def test_future_version():
    d = valid_save()
    d["version"] = 2
    with pytest.raises(FutureVersionError, match="newer fastmine"):
        Game.from_dict(d)
    d["version"] = 10**9
    d["cells"] = "anything the future wants"
    with pytest.raises(FutureVersionError):
        Game.from_dict(d)


# ---------------------------------------------------------------- copies


@settings(max_examples=50)
@given(masks(max_side=8), moves, moves)
def test_copies_are_independent(mask, history, future):
    import pickle

    clock = FakeClock()
    game = Game.from_board(Board.from_mines(mask), clock=clock)
    play_both(game, RefGame(RefBoard(mask)), history)
    saved = game.to_dict()
    for make in (copy.copy, copy.deepcopy, lambda g: pickle.loads(pickle.dumps(g))):
        twin = make(game)
        assert_same_game(game, twin)
        assert twin.to_dict() == saved
        # Playing on the twin leaves the original alone ...
        play_both(twin, _ref_at(twin), future)
        assert game.to_dict() == saved
    # ... and the original plays on exactly like a fresh copy of itself.
    continue_both(game, copy.copy(game), future)


def _ref_at(game: Game) -> RefGame:
    """A reference game in the same position as ``game``."""
    ref = RefGame(ref_of(game.board))
    ref.view = game.view.tolist()
    ref.state = game.state.value
    ref.left_clicks, ref.right_clicks, ref.chord_clicks = (
        game.left_clicks, game.right_clicks, game.chord_clicks)
    return ref
