"""``fastmine play --plain``: whole games scripted through standard input, and the grammar."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

import fastmine
from fastmine.cli.tui.plain import Command, CommandError, PlainGame, parse
from fastmine.cli.tui.session import GameOptions, Session
from fastmine.records import RecordsStore

from .boards import a_mine, winning_moves
from .ptyscreen import SRC

SEED = 7


def run_plain(script: str, *args: str, data_dir) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(SRC), FASTMINE_DATA_DIR=str(data_dir))
    return subprocess.run([sys.executable, "-m", "fastmine", "play", "--plain", *args],
                          input=script, capture_output=True, text=True, env=env, timeout=60)


def test_a_whole_game_won_through_a_pipe(tmp_path):
    moves = winning_moves(9, 9, 10, SEED, (4, 4))
    script = "".join(f"r {r + 1} {c + 1}\n" for r, c in moves)
    res = run_plain(script, "--seed", str(SEED), "--name", "Piper", data_dir=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "You won in" in res.stdout and "New best time" in res.stdout
    assert res.stderr == ""
    last_board = res.stdout.split("You won")[0].strip().splitlines()[-10:-1]
    assert "#" not in "".join(line[3:] for line in last_board)  # every safe cell open
    assert "F" in "".join(last_board)  # mines shown flagged on a win
    with RecordsStore(data_dir=tmp_path) as s:
        (rec,) = s.games()
    assert rec.won and rec.name == "Piper" and rec.difficulty == "beginner"
    assert rec.left_clicks == len(moves) and not rec.assisted


def test_a_whole_game_lost_through_a_pipe_in_seed_002_style(tmp_path):
    mr, mc = a_mine(9, 9, 10, SEED, (4, 4))
    # Seed 002: the command letter, then the row and the column on their own lines.
    script = f"m\n5\n5\nm\n{mr + 1}\n{mc + 1}\n"
    res = run_plain(script, "--seed", str(SEED), data_dir=tmp_path)
    assert res.returncode == 1, res.stderr
    assert "Boom! You lost" in res.stdout
    board = res.stdout.split("Boom!")[0].strip().splitlines()[-10:-1]
    row = board[mr + 1 - 1]
    assert row.split()[1 + mc] == "X"
    with RecordsStore(data_dir=tmp_path) as s:
        (rec,) = s.games()
    assert not rec.won and rec.name is None


def test_bad_input_gets_clear_messages_and_strict_stops(tmp_path):
    script = "dance\nr 99 1\nr 1\nf x 2\nauto 0\n\n# a comment\nq\n"
    res = run_plain(script, "--seed", "1", data_dir=tmp_path)
    assert res.returncode == 3  # quit with the game unfinished
    err = res.stderr.splitlines()
    assert err == [
        "error: unknown command 'dance' (type help for the list)",
        "error: row must be 1 to 9, got 99",
        "error: r needs ROW COL (two numbers), got '1'",
        "error: row must be a whole number, got 'x'",
        "error: the repeat count must be 1 to 100000, got 0",
    ]
    res = run_plain("dance\nr 5 5\n", "--strict", data_dir=tmp_path)
    assert res.returncode == 2 and "unknown command" in res.stderr
    assert "playing" not in res.stdout  # stopped before the reveal


def test_bad_options_exit_2(tmp_path):
    res = run_plain("", "--rows", "3", "--cols", "3", "--mines", "9", data_dir=tmp_path)
    assert res.returncode == 2 and "fastmine play:" in res.stderr and "mines" in res.stderr


def test_custom_board_no_question_marks_and_save_resume(tmp_path):
    opts = ["--rows", "12", "--cols", "20", "--mines", "30", "--seed", "4",
            "--no-question-marks", "--rule", "cell"]
    res = run_plain("r 6 10\nf 1 1\nf 1 1\nf 1 1\nsave\n", *opts, data_dir=tmp_path)
    assert res.returncode == 3
    assert "custom 12x20, 30 mines" in res.stdout
    assert "Mines left: 29" in res.stdout and "?" not in res.stdout.split("Type help")[1]
    assert (tmp_path / "saved-game.json").exists()
    res = run_plain("v\nq\n", "--resume", data_dir=tmp_path)
    assert "Resumed: custom 12x20/30" in res.stdout and "Mines left: 29" in res.stdout


def test_parse_grammar():
    assert parse("R 1 2", 9, 9) == Command("reveal", (0, 1))
    assert parse("reveal 9,9", 9, 9) == Command("reveal", (8, 8))
    assert parse("  4 5  ", 9, 9) == Command("reveal", (3, 4))
    assert parse("mine 1 1", 9, 9).verb == "reveal"
    assert parse("flag 2 3", 9, 9) == Command("flag", (1, 2))
    assert parse("u 2 3", 9, 9).verb == "unflag"
    assert parse("c 2 3", 9, 9).verb == "chord"
    assert parse("f", 9, 9) == Command("flag", None)  # asks for the cell
    for word, strategy in [("a", "auto"), ("d", "deterministic"), ("i", "inference"),
                           ("p", "probability"), ("x", "random"), ("b", "best")]:
        assert parse(word, 9, 9) == Command(strategy, count=1, assist=True)
    assert parse("best 30", 9, 9).count == 30
    for word, verb in [("h", "hint"), ("?", "hint"), ("n", "new"), ("v", "view"),
                       ("board", "view"), ("s", "save"), ("help", "help"), ("q", "quit"),
                       ("e", "quit"), ("EXIT", "quit")]:
        assert parse(word, 9, 9) == Command(verb)
    assert parse("# only a comment", 9, 9) is None and parse("   ", 9, 9) is None
    for bad in ["r 0 1", "r 1 10", "r 1 2 3", "q now", "zzz", "a 1 2", "r a b"]:
        with pytest.raises(CommandError):
            parse(bad, 9, 9)


def _plain(script: str, session: Session, **kw) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = PlainGame(session, stdin=io.StringIO(script), stdout=out, stderr=err, **kw).run()
    return status, out.getvalue(), err.getvalue()


def test_flag_question_unflag_and_chord_in_process(tmp_path):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path, use_records=False)
    status, out, _ = _plain("r 5 5\n", s)
    g = s.game
    # Pick a revealed number with hidden neighbours, flag its mines, then chord it.
    import numpy as np
    for r, c in np.argwhere(g.view > 0):
        nb = [(rr, cc) for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
              if 0 <= rr < 9 and 0 <= cc < 9 and g.view[rr, cc] == fastmine.HIDDEN]
        safe_hidden = [p for p in nb if not g.board.mines[p]]
        if nb and safe_hidden:
            break
    mines = [p for p in nb if g.board.mines[p]]
    lines = [f"f {a + 1} {b + 1}" for a, b in mines]
    lines += [f"f {safe_hidden[0][0] + 1} {safe_hidden[0][1] + 1}"] * 2  # flag, then ?
    lines += [f"u {safe_hidden[0][0] + 1} {safe_hidden[0][1] + 1}"]   # back to hidden
    lines += [f"c {r + 1} {c + 1}", "q"]
    status, out, err = _plain("\n".join(lines) + "\n", s)
    assert err == "" and status in (0, 3)
    for p in safe_hidden:
        assert g.view[p] >= 0  # the chord opened them
    for p in mines:
        assert g.view[p] == fastmine.FLAG


def test_reveal_on_a_revealed_zero_chords_it(tmp_path):
    # A flag stops the flood of a 0 and is taken off: space (or r) on the 0
    # opens the cell it left hidden, as a chord on a 0 does in the clients.
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path, use_records=False)
    s.game = fastmine.Game.from_board(fastmine.Board.from_mines(
        [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 1]]), question_marks=False)
    status, out, err = _plain("f 2 2\nr 1 1\nu 2 2\nr 1 1\nq\n", s)
    assert err == "" and s.game.view[1, 1] == 0
    assert s.game.chord_clicks == 1 and s.game.left_clicks == 1


def test_assists_and_hint_without_or_with_the_solver(tmp_path):
    s = Session(GameOptions(seed=SEED), data_dir=tmp_path, use_records=False)
    status, out, err = _plain("h\nr 5 5\nh\na\n", s)
    assert "first click is always safe" in out
    if s.solver() is None:
        assert out.count("solver not available") == 2
        assert not s.game.assisted
    else:
        assert "Hint:" in out.split("first click")[1]
        assert s.game.assisted
