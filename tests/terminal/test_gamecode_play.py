"""``fastmine play --code/--daily`` and showing the game code (plain and curses)."""

from __future__ import annotations

import datetime as dt
import sys

import numpy as np
import pytest

from fastmine import Board, gamecode

from .ptyscreen import PtyScreen
from .test_plain import run_plain

SEED = 7


def _boards(stdout: str, rows: int) -> list[list[str]]:
    """Every board printed in a plain session, as its rows of text."""
    lines = stdout.splitlines()
    return [lines[i + 1:i + 1 + rows] for i, line in enumerate(lines)
            if line.strip().startswith("1 2 3")]


def test_code_command_shows_the_seed_code_and_the_code_plays_the_same_board(tmp_path):
    res = run_plain("code\nr 5 5\nv\nq\n", "--seed", str(SEED), "--no-records",
                    data_dir=tmp_path)
    code = gamecode.seed_code(9, 9, 10, seed=SEED)
    assert f"Game code: {code}" in res.stdout
    again = run_plain("r 5 5\nv\nq\n", "--code", code.lower().replace("-", " "),
                      "--no-records", data_dir=tmp_path)
    assert again.returncode == 3, again.stderr
    assert _boards(res.stdout, 9)[-1] == _boards(again.stdout, 9)[-1]
    assert "." in "".join(_boards(again.stdout, 9)[-1])   # the first click opened


def test_a_board_code_plays_its_exact_board_to_a_win(tmp_path):
    rng = np.random.default_rng(5)
    mask = np.zeros(6 * 7, bool)
    mask[rng.choice(42, 8, replace=False)] = True
    board = Board.from_mines(mask.reshape(6, 7))
    code = gamecode.board_code(board)
    script = "".join(f"r {r + 1} {c + 1}\n" for r, c in zip(*np.nonzero(~board.mines), strict=True))
    res = run_plain("code\n" + script, "--code", code, "--no-records", data_dir=tmp_path)
    assert res.returncode == 0, res.stderr          # won: every safe cell of that board
    assert f"Game code: {code}" in res.stdout and "You won" in res.stdout


def test_unseeded_game_has_a_board_code_after_the_first_click(tmp_path):
    res = run_plain("code\nr 5 5\ncode\nq\n", "--no-records", data_dir=tmp_path)
    assert "No code yet: the mines are laid at the first click" in res.stdout
    (line,) = [x for x in res.stdout.splitlines() if x.startswith("Game code: ")]
    spec = gamecode.decode(line.removeprefix("Game code: "))
    assert spec.kind == "board" and (spec.rows, spec.cols, spec.mines) == (9, 9, 10)
    assert not spec.board.mines[4, 4]


def test_a_mistyped_code_is_refused_before_the_game(tmp_path):
    code = gamecode.seed_code(9, 9, 10, seed=SEED)
    bad = code[:-1] + ("X" if code[-1] != "X" else "Y")
    res = run_plain("", "--code", bad, data_dir=tmp_path)
    assert res.returncode == 2
    assert "this code has a typo: its check letters do not match" in res.stderr
    assert res.stdout == ""
    both = run_plain("", "--code", code, "--daily", data_dir=tmp_path)
    assert both.returncode == 2 and "not allowed with" in both.stderr
    mixed = run_plain("", "--code", code, "--rows", "20", "--seed", "3", data_dir=tmp_path)
    assert mixed.returncode == 2
    assert "--code sets the board: leave out --rows, --seed" in mixed.stderr


def test_daily_plays_todays_code(tmp_path):
    before = dt.datetime.now(dt.timezone.utc).date()
    res = run_plain("code\nq\n", "--daily", "--no-records", data_dir=tmp_path)
    after = dt.datetime.now(dt.timezone.utc).date()
    assert "expert 16x30, 99 mines" in res.stdout
    (line,) = [x for x in res.stdout.splitlines() if x.startswith("Game code: ")]
    assert line.removeprefix("Game code: ") in {gamecode.daily(before), gamecode.daily(after)}
    beginner = run_plain("code\nq\n", "--daily", "-d", "beginner", "--no-records",
                         data_dir=tmp_path)
    assert "beginner 9x9, 10 mines" in beginner.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="drives the game in a POSIX pseudo terminal")
def test_curses_s_key_shows_the_code(tmp_path):
    code = gamecode.seed_code(16, 30, 99, seed=99, rule="cell")
    with PtyScreen(["play", "--code", code, "--new"], rows=24, cols=80,
                   env={"FASTMINE_DATA_DIR": str(tmp_path)}) as t:
        t.wait_for("Mines 99")
        assert "t hint s code" in t.text       # the keys line shows it at 80 columns
        t.send("s")
        t.wait_for(f"Game code: {code}")
        t.send("q")
        assert t.wait_exit() == 0
