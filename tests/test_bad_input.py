"""Bad input: a clear ValueError/TypeError, and the game exactly as it was before."""

from __future__ import annotations

import numpy as np
import pytest

import fastmine
from fastmine import Board, Game, GameOverError, GamePausedError, GameState

BAD_SIZE_VALUES = [0, -1, -10]
BAD_SIZE_TYPES = [True, False, 3.0, "5", None, [5], np.float64(4.0), np.bool_(True)]


def snapshot(game: Game):
    """Everything observable about a game, to compare before and after a bad call."""
    return (game.view.copy(), game.state, game.mines_left, game.paused, game.elapsed,
            game.stats(), game.to_dict(), game.board)


def assert_unchanged(game: Game, before) -> None:
    after = snapshot(game)
    assert np.array_equal(after[0], before[0])
    assert after[1:] == before[1:]


@pytest.fixture(params=["ready", "playing", "flagged"])
def game(request, clock):
    """A game in several states (all with a frozen fake clock)."""
    g = Game(6, 7, 8, seed=5, clock=clock)
    if request.param != "ready":
        g.reveal(3, 3)
    if request.param == "flagged":
        r, c = np.argwhere(g.view == fastmine.HIDDEN)[0]
        g.toggle_mark(int(r), int(c))
    return g


# ---------------------------------------------------------------- sizes, mines


@pytest.mark.parametrize("make", [
    lambda r, c, m: Game(r, c, m),
    lambda r, c, m: Board.generate(r, c, m, first_click=(0, 0)),
])
def test_bad_sizes(make):
    for bad in BAD_SIZE_VALUES:
        with pytest.raises(ValueError, match="at least 1 row"):
            make(bad, 5, 1)
        with pytest.raises(ValueError, match="at least 1 row"):
            make(5, bad, 1)
    for bad in BAD_SIZE_TYPES:
        with pytest.raises(TypeError, match="rows must be an integer"):
            make(bad, 5, 1)
        with pytest.raises(TypeError, match="cols must be an integer"):
            make(5, bad, 1)
    with pytest.raises(ValueError, match="too large"):
        make(100_000, 100_000, 1)


@pytest.mark.parametrize("make", [
    lambda r, c, m: Game(r, c, m),
    lambda r, c, m: Board.generate(r, c, m, first_click=(0, 0), rule="cell"),
])
def test_bad_mine_counts(make):
    for bad in (0, -1, 20, 21, 10**30):
        with pytest.raises(ValueError, match="between 1 and 19"):
            make(4, 5, bad)
    with pytest.raises(ValueError, match="no room"):
        make(1, 1, 1)
    for bad in (True, 2.0, "3", None):
        with pytest.raises(TypeError, match="mines must be an integer"):
            make(4, 5, bad)


def test_numpy_integers_are_accepted():
    g = Game(np.int64(4), np.uint8(5), np.int32(3), seed=np.uint64(2))
    assert (g.rows, g.cols, g.mine_count) == (4, 5, 3)
    assert type(g.rows) is int
    g.reveal(np.int64(1), np.int16(1))
    b = Board.generate(np.int64(4), 5, 3, first_click=np.array([0, 0]))
    assert b.shape == (4, 5)


# ---------------------------------------------------------------- coordinates

BAD_CELLS_VALUE = [(-1, 0), (0, -1), (6, 0), (0, 7), (100, 100), (-6, -7)]
BAD_CELLS_TYPE = [(1.0, 0), (0, 2.5), ("1", 0), (True, 0), (0, False), (None, 0),
                  (np.float64(1), 0), ((1,), 0)]


@pytest.mark.parametrize("move", ["reveal", "toggle_mark", "chord"])
def test_bad_coordinates_leave_the_game_unchanged(game, move):
    before = snapshot(game)
    for r, c in BAD_CELLS_VALUE:
        with pytest.raises(ValueError, match="outside the 6x7 board"):
            getattr(game, move)(r, c)
        assert_unchanged(game, before)
    for r, c in BAD_CELLS_TYPE:
        with pytest.raises(TypeError, match="must be an integer"):
            getattr(game, move)(r, c)
        assert_unchanged(game, before)


@pytest.mark.parametrize("point, exc, match", [
    ((0,), ValueError, "pair"),
    ((0, 0, 0), ValueError, "pair"),
    ([], ValueError, "pair"),
    (np.array([[0, 0]]), ValueError, "pair"),
    ("ab", TypeError, "pair"),
    (b"ab", TypeError, "pair"),
    (5, TypeError, "pair"),
    ({0, 1}, TypeError, "pair"),
    ({"r": 0, "c": 1}, TypeError, "pair"),
    ((0, 9), ValueError, "outside"),
    ((-1, 0), ValueError, "outside"),
    ((0.5, 0), TypeError, "integer"),
    ((True, 0), TypeError, "integer"),
    (np.array([0.0, 1.0]), TypeError, "integer"),
])
def test_bad_first_click(point, exc, match):
    with pytest.raises(exc, match=match):
        Board.generate(5, 5, 3, first_click=point)


def test_first_click_is_required_unless_rule_none():
    for rule in ("cell", "opening"):
        with pytest.raises(ValueError, match="needs first_click"):
            Board.generate(5, 5, 3, rule=rule)


@pytest.mark.parametrize("rule, exc", [
    ("Opening", ValueError), ("", ValueError), ("safe", ValueError),
    (1, TypeError), (None, TypeError), (["cell"], TypeError), ({"cell": 1}, TypeError),
    (b"cell", TypeError),
])
def test_unknown_rule(rule, exc):
    with pytest.raises(exc, match="rule"):
        Board.generate(5, 5, 3, first_click=(0, 0), rule=rule)
    with pytest.raises(exc, match="rule"):
        Game(5, 5, 3, rule=rule)


@pytest.mark.parametrize("seed, exc", [
    (-1, ValueError), (1.5, TypeError), ("7", TypeError), (True, TypeError),
    ([1], TypeError), (np.random.RandomState(1), TypeError),
])
def test_bad_seed(seed, exc):
    with pytest.raises(exc, match="seed"):
        Board.generate(5, 5, 3, first_click=(0, 0), seed=seed)
    with pytest.raises(exc, match="seed"):
        Game(5, 5, 3, seed=seed)


def test_bad_game_options():
    with pytest.raises(TypeError, match="question_marks"):
        Game(5, 5, 3, question_marks="yes")
    with pytest.raises(TypeError, match="question_marks"):
        Game(5, 5, 3, question_marks=1)
    with pytest.raises(TypeError, match="clock"):
        Game(5, 5, 3, clock=3.0)


# ---------------------------------------------------------------- masks


@pytest.mark.parametrize("mask, exc, match", [
    ([1, 0, 0], ValueError, "2-D"),
    (np.zeros((2, 2, 2), bool), ValueError, "2-D"),
    (np.zeros((0, 0), bool), ValueError, "at least 1 row"),
    (np.zeros((0, 3), bool), ValueError, "at least 1 row"),
    ([[]], ValueError, "at least 1 row"),
    ([[0, 1], [1]], ValueError, "rectangular"),
    ([[0.0, 1.0]], TypeError, "dtype"),
    ([[0, None]], TypeError, "dtype"),
    ([["0", "1"]], TypeError, "dtype"),
    # NumPy counts timedelta64 among its integers (np.issubdtype): still not a mask.
    (np.array([[0, 1], [0, 0]], "m8[s]"), TypeError, "dtype"),
    (np.array([[0, 1], [0, 0]], "M8[s]"), TypeError, "dtype"),
    (np.array([[0, 1], [0, 0]], complex), TypeError, "dtype"),
    ("0110", TypeError, "string"),
    ([[0, 2]], ValueError, "0 and 1"),
    ([[0, -1, 1]], ValueError, "0 and 1"),
    ([[0, 0], [0, 0]], ValueError, "between 1 and 3"),
    ([[1, 1], [1, 1]], ValueError, "between 1 and 3"),
    ([[True]], ValueError, "no room"),
    ([[False]], ValueError, "no room"),
    (True, ValueError, "2-D"),
    (None, TypeError, "dtype"),
])
def test_bad_masks(mask, exc, match):
    with pytest.raises(exc, match=match):
        Board.from_mines(mask)


def test_from_board_needs_a_board():
    for bad in ([[0, 1]], None, "board", Game(2, 2, 1)):
        with pytest.raises(TypeError, match="fastmine.Board"):
            Game.from_board(bad)


# ---------------------------------------------------------------- game over, paused


@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_moves_after_the_end(outcome, clock):
    game = Game.from_board(Board.from_mines([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
                           clock=clock)
    game.toggle_mark(1, 0)
    game.toggle_mark(1, 0)  # a question mark
    game.toggle_mark(1, 3)  # a flag: wrong, so the won game first removes it
    clock.advance(3)
    if outcome == "won":
        game.toggle_mark(1, 3)
        game.reveal(0, 3)
    else:
        game.reveal(0, 0)
    assert game.state.value == outcome
    clock.advance(5)
    before = snapshot(game)
    for move in ("reveal", "toggle_mark", "chord"):
        for cell in [(0, 0), (1, 1), (0, 2)]:
            with pytest.raises(GameOverError, match=f"over \\({outcome}\\)"):
                getattr(game, move)(*cell)
            assert_unchanged(game, before)
    assert not game.pause() and not game.paused
    assert_unchanged(game, before)


def test_moves_while_paused(game, clock):
    assert game.pause() and game.paused
    clock.advance(10)
    before = snapshot(game)
    for move in ("reveal", "toggle_mark", "chord"):
        with pytest.raises(GamePausedError, match="resume"):
            getattr(game, move)(0, 0)
        assert_unchanged(game, before)
    assert game.resume()
    game.toggle_mark(0, 1)


def test_error_classes():
    assert issubclass(GameOverError, ValueError)
    assert issubclass(GamePausedError, ValueError)
    assert issubclass(fastmine.SaveFormatError, ValueError)
    assert issubclass(fastmine.FutureVersionError, fastmine.SaveFormatError)


def test_failed_mine_laying_changes_nothing(monkeypatch, clock):
    """If laying mines fails (a no-guess timeout, say), the reveal never happened."""
    game = Game(9, 9, 10, rule="opening", seed=1, clock=clock)
    game.toggle_mark(0, 0)
    before = snapshot(game)

    def fail(*args, **kwargs):
        raise fastmine.NoGuessTimeoutError("no board in time")

    monkeypatch.setattr(Board, "generate", fail)
    with pytest.raises(fastmine.NoGuessTimeoutError):
        game.reveal(4, 4)
    assert_unchanged(game, before)
    assert game.left_clicks == 0
    monkeypatch.undo()
    game.reveal(4, 4)
    assert game.state is GameState.PLAYING and game.left_clicks == 1


def _durations():
    import fastmine
    from fastmine.coach import judge
    from fastmine.metrics import path_length
    from fastmine.replay import Replay
    from fastmine.solver.runs import Config, run_configs

    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    rep = Replay.from_game(g)
    cfg = Config("beginner", 9, 9, 10, "opening", (4, 4), "deterministic")
    d = np.timedelta64(1)
    return {
        # what the refusal names
        "the first game": lambda: run_configs([cfg], games=1, first=d, progress=False),
        "games": lambda: run_configs([cfg], games=d, progress=False),
        "index": lambda: judge(g, "reveal", 0, 0, index=d),
        "upto": lambda: rep.play(d),
        "cell_size": lambda: path_length([0, 1], [0, 1], d),
    }


@pytest.mark.parametrize("where", list(_durations()))
def test_a_numpy_duration_is_not_a_count_or_an_index(where):
    """NumPy files timedelta64 under its integers: a duration passed as a game
    count, a move index or a size was taken as that many games, moves or pixels."""
    with pytest.raises((TypeError, ValueError), match=f"^{where} must be"):
        _durations()[where]()
