"""The curses game driven in a pseudo terminal: keys and clicks in, the screen read back."""

from __future__ import annotations

import json
import sys

import pytest

import fastmine
from fastmine.cli.tui.layout import fit
from fastmine.cli.tui.text import GLYPHS
from fastmine.records import RecordsStore

from .boards import a_mine, played, saved_game_in, winning_moves
from .ptyscreen import PtyScreen

pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="drives the game in a POSIX pseudo terminal")

SEED = 7


def start(tmp_path, *args: str, rows: int = 24, cols: int = 80) -> PtyScreen:
    return PtyScreen(["play", *args], rows=rows, cols=cols,
                     env={"FASTMINE_DATA_DIR": str(tmp_path)})


class Board:
    """Reads cells off the screen using the game's own layout arithmetic."""

    def __init__(self, t: PtyScreen, rows: int, cols: int, cursor=(0, 0)) -> None:
        self.t = t
        self.layout = fit(t.screen.lines, t.screen.columns, rows, cols, cursor)

    def pos(self, r: int, c: int) -> tuple[int, int]:
        return self.layout.screen_of(r, c)

    def char(self, r: int, c: int) -> str:
        y, x = self.pos(r, c)
        return self.t.screen.buffer[y][x].data

    def cell(self, r: int, c: int):
        y, x = self.pos(r, c)
        return self.t.screen.buffer[y][x]


def keys_to(cursor: tuple[int, int], target: tuple[int, int]) -> str:
    dr, dc = target[0] - cursor[0], target[1] - cursor[1]
    return ("j" * dr if dr > 0 else "k" * -dr) + ("l" * dc if dc > 0 else "h" * -dc)


def test_reveal_mark_colours_and_quit_saves(tmp_path):
    g = played(9, 9, 10, SEED, (4, 4))
    with start(tmp_path, "--seed", str(SEED)) as t:
        t.wait_for("Mines 10")
        b = Board(t, 9, 9)
        t.wait_for(lambda: all(b.char(r, c) == "#" for r in range(9) for c in range(9))
                   and b.cell(4, 4).reverse)  # the cursor
        assert "(5,5)" in t.lines[0] and "ready" in t.lines[0]
        t.send(" ")
        t.wait_for("playing")
        t.wait_for(lambda: all(b.char(r, c) == GLYPHS[int(g.view[r, c])]
                               for r in range(9) for c in range(9)))
        # Numbers are coloured: every 1 blue, every 2 green.
        for r in range(9):
            for c in range(9):
                if g.view[r, c] == 1:
                    assert b.cell(r, c).fg == "blue"
                elif g.view[r, c] == 2:
                    assert b.cell(r, c).fg == "green"
        hidden = next((r, c) for r in range(9) for c in range(9) if g.view[r, c] < 0)
        t.send(keys_to((4, 4), hidden) + "f")
        t.wait_for(lambda: "Mines 9" in t.text and b.char(*hidden) == "F")
        assert b.cell(*hidden).fg == "red"
        t.send("f")
        t.wait_for(lambda: b.char(*hidden) == "?")
        t.send("f")
        t.wait_for(lambda: b.char(*hidden) == "#" and "Mines 10" in t.lines[0])
        t.send("f")  # flag it again, then quit: the game is saved
        t.wait_for("Mines 9")
        t.send("q")
        assert t.wait_exit() == 0
        t.wait_for("Game saved to")
    saved = json.loads((tmp_path / "saved-game.json").read_text())
    assert saved["state"] == "playing" and saved["cells"].count("f") == 1

    # The next game offers to resume it.
    with start(tmp_path) as t:
        t.wait_for("Resume saved game (beginner 9x9/10")
        t.send("y")
        t.wait_for("Resumed")
        b = Board(t, 9, 9)
        assert b.char(*hidden) == "F" and "Mines 9" in t.lines[0]
        t.send("q")
        assert t.wait_exit() == 0


def test_a_kill_or_hangup_saves_the_game(tmp_path):
    import signal

    with start(tmp_path, "--seed", "3", "--new") as t:
        t.wait_for("Mines 10")
        t.send(" ")
        t.wait_for("playing")
        t.proc.send_signal(signal.SIGHUP)
        assert t.wait_exit() == 0
    assert json.loads((tmp_path / "saved-game.json").read_text())["state"] == "playing"


def test_declining_resume_discards_the_save(tmp_path):
    saved_game_in(tmp_path)
    with start(tmp_path) as t:
        t.wait_for("Resume saved game")
        t.send("n")
        t.wait_for("Saved game discarded")
        assert "ready" in t.lines[0]
        t.send("q")
        assert t.wait_exit() == 0
    assert not (tmp_path / "saved-game.json").exists()


def test_corrupt_save_is_moved_aside_with_a_message(tmp_path):
    (tmp_path / "saved-game.json").write_bytes(b"{oops")
    with start(tmp_path) as t:
        t.wait_for("Saved game was unreadable; kept it as saved-game.json.corrupt-")
        t.send("q")
        assert t.wait_exit() == 0
        t.wait_for("is corrupt (not JSON")  # the details, after the screen is restored
    (aside,) = tmp_path.glob("saved-game.json.corrupt-*")
    assert aside.read_bytes() == b"{oops"


def test_mouse_left_reveals_and_right_marks(tmp_path):
    g = played(9, 9, 10, SEED, (0, 0))
    with start(tmp_path, "--seed", str(SEED), "--new") as t:
        t.wait_for("Mines 10")
        b = Board(t, 9, 9)
        t.click(*b.pos(0, 0))
        t.wait_for("playing")
        t.wait_for(lambda: b.char(0, 0) == GLYPHS[int(g.view[0, 0])])
        assert "(1,1)" in t.lines[0]
        hidden = next((r, c) for r in range(9) for c in range(9) if g.view[r, c] < 0)
        t.click(*b.pos(*hidden), button=2)
        t.wait_for(lambda: b.char(*hidden) == "F")
        assert "Mines 9" in t.lines[0]
        t.click(0, 0)  # off the board: nothing happens
        t.click(*b.pos(*hidden))  # left click on a flag does nothing either
        t.wait_for("is flagged: f to unmark it first")
        assert b.char(*hidden) == "F"
        t.send("q")
        assert t.wait_exit() == 0


def test_pause_hides_the_board(tmp_path):
    with start(tmp_path, "--seed", "2", "--new") as t:
        t.wait_for("Mines 10")
        t.send("p")
        t.wait_for("Nothing to pause yet")
        t.send(" ")
        t.wait_for("playing")
        t.send("p")
        t.wait_for("Paused - press p to resume")
        board_area = "\n".join(t.lines[2:11])
        assert "#" not in board_area and "PAUSED" in t.lines[0]
        t.send(" ")  # moves are refused while paused
        t.wait_for("Paused: resume first")
        t.send("p")
        t.wait_for(lambda: "#" in "\n".join(t.lines[2:11]) and "playing" in t.lines[0])
        t.send("q")
        assert t.wait_exit() == 0


def test_big_board_scrolls_with_the_cursor(tmp_path):
    with start(tmp_path, "--rows", "40", "--cols", "60", "--mines", "300", "--seed", "1",
               "--new") as t:
        t.wait_for("Mines 300")
        assert "scroll" in t.lines[0]
        t.send("g")  # to the top-left corner
        t.wait_for("(1,1)")
        assert t.lines[2][1] == "#"
        t.send("G")  # to the bottom-right corner: the view follows
        t.wait_for("(40,60)")
        lay = fit(24, 80, 40, 60, (39, 59), fit(24, 80, 40, 60, (0, 0)))
        y, x = lay.screen_of(39, 59)
        t.wait_for(lambda: t.screen.buffer[y][x].reverse)
        assert (lay.top, lay.left) == (40 - lay.vis_rows, 60 - lay.vis_cols)
        assert t.lines[2][79] == "^"  # more board above
        assert t.lines[2 + lay.vis_rows // 2][0] == "<"  # and to the left
        assert t.lines[y][x] == GLYPHS[fastmine.HIDDEN]
        t.send("q")
        assert t.wait_exit() == 0


def test_too_small_terminal_then_resize_redraws(tmp_path):
    with start(tmp_path, "--seed", "1", rows=4, cols=20) as t:
        t.wait_for("Terminal too small")
        t.resize(24, 80)
        t.wait_for("Mines 10")
        assert "ready" in t.lines[0]
        t.resize(13, 40)  # smaller but usable: the board still shows whole
        t.wait_for(lambda: "Terminal too small" not in t.text and "Mines 10" in t.lines[0]
                   and t.lines[10].strip() == "# " * 8 + "#")
        t.resize(5, 30)
        t.wait_for("Terminal too small (30x5)")
        t.send("q")
        assert t.wait_exit() == 0


def test_winning_asks_for_a_name_and_stores_the_best_time(tmp_path):
    moves = winning_moves(9, 9, 10, SEED, (4, 4))
    keys, cur = "", (4, 4)
    for m in moves:
        keys += keys_to(cur, m) + " "
        cur = m
    with start(tmp_path, "--seed", str(SEED), "--new") as t:
        t.wait_for("Mines 10")
        t.send(keys)
        t.wait_for("New best time")
        t.send("\x15Zoe\r")  # ctrl-u clears the offered name
        t.wait_for("You won in")
        assert "WON" in t.lines[0]
        t.send("q")
        assert t.wait_exit() == 0
    with RecordsStore(data_dir=tmp_path) as s:
        (rec,) = s.games()
    assert rec.won and rec.name == "Zoe" and rec.left_clicks == len(moves)
    assert not (tmp_path / "saved-game.json").exists()  # nothing to save after a win


def test_losing_shows_the_mines_then_new_game(tmp_path):
    mine = a_mine(9, 9, 10, SEED, (4, 4))
    with start(tmp_path, "--seed", str(SEED), "--new") as t:
        t.wait_for("Mines 10")
        t.send(" " + keys_to((4, 4), mine) + " ")
        t.wait_for("Boom! You lost")
        b = Board(t, 9, 9)
        assert b.char(*mine) == "X" and "LOST" in t.lines[0]
        assert sum(line.count("*") for line in t.lines[2:11]) == 9
        t.send("n")  # the game is over: no confirmation needed
        t.wait_for("New game: beginner")
        assert "ready" in t.lines[0]
        t.send(" ")
        t.wait_for("playing")
        t.send("n")
        t.wait_for("Abandon this game")
        t.send("n")
        t.wait_for(lambda: "playing" in t.lines[0] and "Abandon" not in t.text)
        t.send("q")
        assert t.wait_exit() == 0
    with RecordsStore(data_dir=tmp_path) as s:
        (rec,) = s.games()
    assert not rec.won


@pytest.mark.parametrize("key", ["a", "d", "i", "o", "r", "b"])
def test_assist_keys(tmp_path, key):
    from fastmine.cli.tui.session import GameOptions, Session

    solver = Session(GameOptions(), use_records=False).solver()
    with start(tmp_path, "--seed", str(SEED), "--new", "--no-records") as t:
        t.wait_for("Mines 10")
        t.send(" ")
        t.wait_for("playing")
        t.send(key)
        if solver is None:
            t.wait_for("solver not available")
        else:
            t.wait_for(lambda: "assisted" in t.lines[0] or "no move" in t.text)
        t.send("q")
        assert t.wait_exit() == 0


def test_hint_key(tmp_path):
    from fastmine.cli.tui.session import GameOptions, Session

    solver = Session(GameOptions(), use_records=False).solver()
    with start(tmp_path, "--seed", str(SEED), "--new") as t:
        t.wait_for("Mines 10")
        t.send("t")
        t.wait_for("first click is always safe")
        t.send(" t")
        t.wait_for("solver not available" if solver is None else "Hint:")
        t.send("q")
        assert t.wait_exit() == 0


@pytest.mark.parametrize("cols", [80, 100, 132])
def test_the_keys_line_names_every_key_at_common_widths(tmp_path, cols):
    """At 80 columns the keys line was cut before its assist keys (a d i o r b)."""
    with start(tmp_path, "--seed", "1", cols=cols) as t:
        t.wait_for("pause")
        t.settle()
        last = t.lines[-1]
        for word in ("mark", "pause", "new", "quit", "hint", "code", "coach", "assist"):
            assert word in last, (word, last)
        assert "adiorb" in last.replace(" ", "") or "a d i o r b" in last
