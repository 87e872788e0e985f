"""Where a line is due, not a traceback: the replay player without a terminal, no-guess
games that have no board, a run whose games cannot be made.  Each was a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import fastmine
from fastmine import gamecode
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.records import RecordsStore
from fastmine.solver import no_guess
from fastmine.solver.runs import Config, RunFailed, run_configs

SRC = Path(fastmine.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(SRC)}


def fastmine_cmd(*args: str, stdin=subprocess.DEVNULL, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastmine", *args], capture_output=True,
                          text=True, env=ENV, stdin=stdin, timeout=120, **kw)


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------- the replay player

@pytest.fixture
def recorded(tmp_path):
    game = fastmine.Game.from_board(fastmine.Board.from_mines([[1, 0, 0], [0, 0, 0],
                                                              [0, 0, 0]]))
    game.reveal(2, 2)
    with RecordsStore(data_dir=tmp_path) as store:
        store.record_game(game)
    return tmp_path


@pytest.mark.parametrize("argv", [["1"], [], ["last"], ["--no-coach", "1"]])
def test_the_full_screen_replay_without_a_terminal_says_use_plain(recorded, argv):
    # Two _curses.error tracebacks before.
    r = fastmine_cmd("replay", *argv, "--data-dir", str(recorded))
    assert r.returncode == 2 and one_line(r.stderr), r.stderr
    assert "needs a terminal" in r.stderr and "--plain" in r.stderr
    # --plain and --timeline print it there
    for text in ("--plain", "--timeline"):
        r = fastmine_cmd("replay", *argv, text, "--data-dir", str(recorded))
        assert r.returncode == 0 and "won at" in r.stdout, r.stderr


def test_an_imported_replay_without_a_terminal_too(recorded, tmp_path):
    with RecordsStore(data_dir=recorded) as store:
        path = store.replay(1).save(tmp_path / "game.fmr")
    r = fastmine_cmd("replay", "--import", str(path))
    assert r.returncode == 2 and one_line(r.stderr) and "needs a terminal" in r.stderr


# ---------------------------------------------------------------- no-guess games without a board

@pytest.mark.parametrize("size", [("3", "3", "7"), ("4", "4", "14"), ("2", "10", "1")])
def test_play_refuses_a_no_guess_game_without_a_board_at_once(tmp_path, size):
    # 3x3/7 froze 10 s at 'r 1 1' and died with a NoGuessTimeoutError traceback.
    rows, cols, mines = size
    r = fastmine_cmd("play", "--plain", "--rows", rows, "--cols", cols, "--mines", mines,
                     "--rule", "no_guess", "--data-dir", str(tmp_path), stdin=None,
                     input="r 1 1\nq\n")
    assert r.returncode == 2 and one_line(r.stderr) and "without guessing" in r.stderr, r.stderr


def test_a_seed_code_of_such_a_game_is_refused_at_once(tmp_path):
    code = gamecode.seed_code(3, 3, 7, rule="no_guess", seed=5)
    r = fastmine_cmd("play", "--plain", "--code", code, "--data-dir", str(tmp_path),
                     stdin=None, input="r 1 1\nq\n")
    assert r.returncode == 2 and one_line(r.stderr) and "without guessing" in r.stderr, r.stderr


def test_a_first_click_without_a_board_is_one_line_in_the_game(tmp_path):
    # 6x6/33: possible from some first clicks, not from the corner (all 595 ways tried).
    s = Session(GameOptions(6, 6, 33, rule="no_guess"), data_dir=tmp_path)
    msg = s.reveal(0, 0)
    assert msg.startswith("No board that logic alone clears starts at row 1, col 1 (none of")
    assert s.game.state is fastmine.GameState.READY       # the game waits for another click


def test_a_no_guess_search_out_of_time_is_one_line_in_the_game(tmp_path, monkeypatch):
    # A size the up-front check cannot rule out (too many layouts to try): the
    # generator's time limit ends the search; the game says so and goes on.
    assert no_guess.impossible(7, 7, 46) is None
    clock = iter(range(0, 10**9, 100))          # each look at the clock: 100 s later
    monkeypatch.setattr(no_guess, "_clock", lambda: float(next(clock)))
    s = Session(GameOptions(7, 7, 46, rule="no_guess"), data_dir=tmp_path)
    msg = s.reveal(3, 3)
    assert msg.startswith("No 7x7 board with 46 mines that logic alone clears from that "
                          "first click was found in time")
    assert s.game.state is fastmine.GameState.READY


# ---------------------------------------------------------------- runs

@pytest.mark.parametrize("size", ["2x10/1", "3x3/7"])
def test_solve_refuses_a_no_guess_size_without_a_board(size):
    r = fastmine_cmd("solve", "-d", size, "-r", "no_guess", "-j", "1", "-q")
    assert r.returncode == 2 and one_line(r.stderr) and "without guessing" in r.stderr, r.stderr


def test_a_configuration_no_game_can_be_played_of_is_refused_when_made():
    with pytest.raises(ValueError, match="1 mine cannot"):
        Config("2x10/1", 2, 10, 1, "no_guess", (1, 5))
    with pytest.raises(ValueError, match="none of the 8 ways"):
        Config("3x3/7", 3, 3, 7, "no_guess", (1, 1))
    with pytest.raises(ValueError, match="outside"):
        Config("beginner", 9, 9, 10, "opening", (9, 0))
    with pytest.raises(ValueError, match="mines"):
        Config("x", 9, 9, 81, "opening", (0, 0))
    with pytest.raises(ValueError, match="rule"):
        Config("x", 9, 9, 10, "nonsense", (0, 0))
    Config("2x10/2", 2, 10, 2, "no_guess", (1, 5))


def _fails(config, start, count, seed):
    raise fastmine.NoGuessTimeoutError("no board in time")


def test_a_game_that_cannot_be_made_stops_a_one_worker_run_as_on_a_pool():
    # With -j 1 the error was a traceback; a pool reported it as a failed task.
    config = Config("beginner", 9, 9, 10, "opening", (4, 4))
    with pytest.raises(RunFailed, match="NoGuessTimeoutError: no board in time") as info:
        run_configs([config], 10, jobs=1, progress=False, task=_fails)
    assert info.value.run.partial and info.value.run.results[0].games == 0
