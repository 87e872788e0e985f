"""``fastmine replay`` full screen: pause, step back and forth, quit."""

from __future__ import annotations

import sys

import pytest

import fastmine
from fastmine.records import RecordsStore

from .ptyscreen import PtyScreen

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


def test_curses_replay_steps_and_quits(tmp_path):
    g = fastmine.Game(9, 9, 10, seed=3)
    g.reveal(4, 4)
    g.toggle_mark(0, 0)
    g.toggle_mark(0, 0)
    mine = tuple(int(v) for v in next(iter(zip(*g.board.mines.nonzero(), strict=True))))
    g.reveal(*mine)
    with RecordsStore(data_dir=tmp_path) as s:
        s.record_game(g)
    t = PtyScreen(["replay", "--speed", "0"], env={"FASTMINE_DATA_DIR": str(tmp_path)})
    try:
        t.wait_for("move 0/4")            # speed 0 starts paused
        t.send("l")
        t.wait_for("move 1/4  0:00.000 reveal row 5, col 5")
        t.send("l")
        t.wait_for("mark row 1, col 1")
        # the board's first row, under the coach's sentence (one or two rows)
        assert any(line.startswith("F") for line in t.lines[3:5])
        t.send("h")
        t.wait_for("move 1/4")
        t.send("$")                       # to the end
        t.wait_for("move 4/4")
        assert "X" in t.text
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()
