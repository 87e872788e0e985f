"""The game clock (with an injected fake clock) and the statistics of a game."""

from __future__ import annotations

import pytest

from fastmine import Board, Game, GameState

# 1x5 with a mine at the left end: (0,2)..(0,4) are zeros, (0,1) is a 1.
LINE = [[1, 0, 0, 0, 0]]


def line_game(clock, **kw):
    return Game.from_board(Board.from_mines(LINE), clock=clock, **kw)


def test_clock_starts_at_the_first_reveal_not_at_marks(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    clock.advance(50)
    assert game.elapsed == 0
    game.toggle_mark(0, 0)
    game.chord(0, 0)
    clock.advance(5)
    assert game.elapsed == 0
    assert game.reveal(0, 0).size == 0  # a flagged cell: refused, clock still off
    clock.advance(5)
    assert game.elapsed == 0 and game.state is GameState.READY
    game.reveal(4, 4)
    assert game.elapsed == 0
    clock.advance(2.5)
    assert game.elapsed == 2.5
    clock.advance(1)
    assert game.elapsed == 3.5


def test_pause_and_resume_exclude_paused_time(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    game.reveal(4, 4)
    clock.advance(4)
    assert game.pause() and game.paused
    clock.advance(100)
    assert game.elapsed == 4
    assert game.pause()  # pausing twice is harmless
    clock.advance(100)
    assert game.resume() and not game.paused
    assert not game.resume()
    clock.advance(1)
    assert game.elapsed == 5


def test_pause_before_the_first_reveal(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    assert game.pause()
    clock.advance(30)
    assert game.resume()
    clock.advance(30)
    assert game.elapsed == 0
    game.reveal(4, 4)
    clock.advance(1)
    assert game.elapsed == 1


@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_clock_stops_at_the_end(clock, outcome):
    game = line_game(clock)
    game.toggle_mark(0, 1)
    clock.advance(10)
    game.reveal(0, 3)
    clock.advance(7)
    game.toggle_mark(0, 1)
    game.toggle_mark(0, 1)  # flag -> question -> hidden
    clock.advance(1)
    if outcome == "won":
        game.reveal(0, 1)
    else:
        game.reveal(0, 0)
    assert game.state.value == outcome
    assert game.elapsed == 8
    clock.advance(1000)
    assert game.elapsed == 8
    assert not game.pause()
    assert game.elapsed == 8


def test_a_clock_that_goes_backwards_never_gives_negative_time(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    game.reveal(4, 4)
    clock.advance(-5)
    assert game.elapsed == 0
    game.pause()
    assert game.elapsed == 0


def test_elapsed_survives_a_save(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    game.reveal(4, 4)
    clock.advance(7)
    d = game.to_dict()
    assert d["elapsed"] == 7
    later = type(clock)(start=99_999.0)  # another process, another clock origin
    loaded = Game.from_dict(d, clock=later)
    assert loaded.elapsed == 7 and not loaded.paused
    later.advance(3)
    assert loaded.elapsed == 10


def test_paused_game_loads_paused(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    game.reveal(4, 4)
    clock.advance(7)
    game.pause()
    clock.advance(50)
    loaded = Game.from_dict(game.to_dict(), clock=clock)
    assert loaded.paused and loaded.elapsed == 7
    clock.advance(50)
    assert loaded.elapsed == 7
    loaded.resume()
    clock.advance(1)
    assert loaded.elapsed == 8


def test_stats_of_a_finished_game(clock):
    # bbbv: the opening (0,2..4 with border (0,1)) is one click; no singles.
    game = line_game(clock)
    s = game.stats()
    assert (s.time, s.bbbv, s.bbbv_per_second, s.clicks, s.efficiency) == (0, 1, None, 0, None)
    game.toggle_mark(0, 0)
    game.toggle_mark(0, 0)  # flag -> question
    game.chord(0, 4)  # refused: before any reveal
    clock.advance(1)
    game.reveal(0, 3)
    clock.advance(4)
    assert game.state is GameState.WON
    s = game.stats()
    assert s.time == 0  # won by the first reveal: no time passed while playing
    assert (s.left_clicks, s.right_clicks, s.chord_clicks, s.clicks) == (1, 2, 1, 4)
    assert s.bbbv == 1 and s.efficiency == 0.25 and s.bbbv_per_second is None


def test_stats_rate_and_efficiency(clock):
    board = Board.from_mines([[0, 1, 0, 0, 0, 1, 0]])
    assert board.bbbv() == 3  # (0,0), the opening at (0,3) with (0,2) and (0,4), (0,6)
    game = Game.from_board(board, clock=clock)
    game.reveal(0, 0)
    clock.advance(2)
    game.toggle_mark(0, 1)
    game.chord(0, 0)  # nothing left to open around (0,0)
    game.reveal(0, 3)
    clock.advance(3)
    game.reveal(0, 6)
    assert game.state is GameState.WON
    s = game.stats()
    assert s.time == 5 and s.bbbv == 3
    assert s.bbbv_per_second == pytest.approx(0.6)
    assert (s.left_clicks, s.right_clicks, s.chord_clicks) == (3, 1, 1)
    assert s.clicks == 5 and s.efficiency == pytest.approx(3 / 5)


def test_stats_before_mines_are_laid(clock):
    game = Game(9, 9, 10, seed=2, clock=clock)
    game.toggle_mark(1, 1)
    s = game.stats()
    assert s.bbbv is None and s.bbbv_per_second is None and s.efficiency is None
    assert s.right_clicks == 1 and s.time == 0
    game.reveal(4, 4)
    assert game.stats().bbbv == game.board.bbbv()


class _CountingClock:
    """A clock that counts its readings (each costs ~100 ns on a real one)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now


@pytest.mark.parametrize("outcome", ["win", "loss"])
def test_every_move_reads_the_clock_at_most_once(outcome):
    # One reading serves both the move log's time and the elapsed/start
    # bookkeeping (a move that ends the game stops the clock with it too).
    # Mines at (0, 0) and (0, 2): (0, 1) is a 2, (0, 3) a 1, (0, 4) a 0.
    clock = _CountingClock()
    game = Game.from_board(Board.from_mines([[1, 0, 1, 0, 0]]), clock=clock)
    moves = [
        lambda: game.toggle_mark(0, 0),     # before the start: no reading needed
        lambda: game.toggle_mark(0, 0),     # (0, 0) question-marked
        lambda: game.chord(0, 3),
        lambda: game.reveal(0, 4),          # starts the clock, opens (0, 3) too
        lambda: game.toggle_mark(0, 2),
        lambda: game.chord(0, 3),
        lambda: game.reveal_cells([(0, 4), (0, 3)]),
        (lambda: game.reveal(0, 1)) if outcome == "win" else (lambda: game.reveal(0, 0)),
    ]
    for move in moves:
        before = clock.reads
        clock.now += 1.0
        move()
        assert clock.reads - before <= 1
    assert game.state is (GameState.WON if outcome == "win" else GameState.LOST)
    assert game.elapsed == 4.0
    assert [int(ms) for ms in game.moves[:, 3]] == [0, 0, 0, 0, 1000, 2000, 3000, 3000, 4000]
