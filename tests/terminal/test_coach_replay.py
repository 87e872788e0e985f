"""The coach's marks in ``fastmine replay``: the timeline and plain playback,
``--verdicts``, the curses player's jumps (n, N, f) and its screen."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

import fastmine
from fastmine import cli, coach
from fastmine.cli.replayplayer import Cursor, bar
from fastmine.records import RecordsStore
from fastmine.replay import Replay
from fastmine.replay.verdicts import verdicts_of
from fastmine.solver import play

from .ptyscreen import PtyScreen


def lost_expert() -> fastmine.Game:
    """An Expert game the best solver plays and loses on a forced guess."""
    g = fastmine.Game(16, 30, 99, seed=21)
    play(g, "best", rng=21)
    assert g.state is fastmine.GameState.LOST
    return g


@pytest.fixture(scope="module")
def game() -> fastmine.Game:
    return lost_expert()


@pytest.fixture()
def stored(tmp_path, game) -> str:
    with RecordsStore(data_dir=tmp_path) as s:
        s.record_game(game)
    return str(tmp_path)


def expected(game: fastmine.Game) -> list[coach.Verdict]:
    return coach.analyze(game.board, game.moves, rule=game.rule)


def test_timeline_marks_every_move_as_the_coach_judges_it(stored, game, capsys):
    assert cli.main(["replay", "--timeline", "--speed", "0", "--data-dir", stored]) == 0
    lines = capsys.readouterr().out.splitlines()
    verdicts = expected(game)
    moves = [line for line in lines if line.startswith("move ")]
    assert len(moves) == len(verdicts) == len(game.moves)
    for line, v in zip(moves, verdicts, strict=True):
        assert line.endswith(f"  [{coach.tag(v)}]"), line
    assert any("[guess " in line for line in moves)
    assert moves[-1].endswith(" LOST]") and moves[0].endswith("[first click]")
    # The end: the result, the losing move with its odds, the summary last.
    lost = coach.fatal(verdicts)
    assert lost is not None and lost.index == len(verdicts) - 1
    assert lines[-3] == f"lost at {game.elapsed:.3f} s"
    assert lines[-2] == coach.describe(lost)
    assert lines[-2].endswith("was safer. It hit a mine.")
    assert lines[-1] == "coach: " + coach.summary(verdicts)
    assert lines[-1].startswith("coach: ") and "You lost on a guess you had to make (21%)" in lines[-1]


def test_plain_playback_marks_each_move_and_no_coach_leaves_them_out(stored, game, capsys):
    assert cli.main(["replay", "last", "--plain", "--speed", "0", "--data-dir", stored]) == 0
    out = capsys.readouterr().out
    moves = [line for line in out.splitlines() if line.startswith("move ")]
    assert [m.rsplit("  [", 1)[1] for m in moves] == [coach.tag(v) + "]" for v in expected(game)]
    assert out.rstrip().splitlines()[-1].startswith("coach: ")
    assert cli.main(["replay", "--plain", "--no-coach", "--speed", "0", "--data-dir", stored]) == 0
    out = capsys.readouterr().out
    assert "[" not in out.replace("[assisted]", "") and "coach" not in out
    assert out.rstrip().splitlines()[-1].startswith("lost at")


def test_verdicts_json_to_a_file_and_to_standard_output(stored, game, tmp_path, capsys):
    path = tmp_path / "v.json"
    assert cli.main(["replay", "1", "--verdicts", str(path), "--data-dir", stored]) == 0
    assert f"verdicts written to {path}" in capsys.readouterr().out
    doc = json.loads(path.read_text())
    verdicts = expected(game)
    assert doc["format"] == "fastmine-verdicts" and doc["version"] == 1
    assert (doc["rows"], doc["cols"], doc["mines"], doc["state"]) == (16, 30, 99, "lost")
    assert doc["summary"] == coach.summary(verdicts)
    assert doc["fatal_move"] == len(verdicts)
    assert [m["category"] for m in doc["moves"]] == [v.category.value for v in verdicts]
    assert [(m["row"], m["col"]) for m in doc["moves"]] == [v.cell for v in verdicts]
    assert [m["risk"] for m in doc["moves"]] == [v.risk for v in verdicts]
    assert doc["moves"][-1]["survived"] is False and doc["moves"][-1]["tag"].endswith("LOST")
    assert cli.main(["replay", "--verdicts", "-", "--data-dir", stored]) == 0
    assert json.loads(capsys.readouterr().out) == doc


@pytest.mark.parametrize("argv, words", [
    (["replay", "999", "--verdicts", "-"], "game 999 has no replay"),
    (["replay", "abc", "--timeline"], "a game ID is a number"),
    (["replay", "--list", "--verdicts", "-"], "--verdicts goes with a game ID or --import FILE"),
    (["replay", "1", "--verdicts", "/nonexistent/v.json"], "the folder /nonexistent does not exist"),
])
def test_bad_input_is_one_clear_line(stored, capsys, argv, words):
    assert cli.main([*argv, "--data-dir", stored]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastmine replay: ") and words in err and "Traceback" not in err


def test_a_corrupt_file_is_refused_before_the_coach(tmp_path, capsys):
    f = tmp_path / "bad.fmreplay"
    f.write_text("{}")
    assert cli.main(["replay", "--import", str(f), "--verdicts", "-"]) == 1   # a bad file
    assert "not a fastmine replay" in capsys.readouterr().err
    assert not (tmp_path / "v.json").exists()


def test_imported_replay_gets_its_marks(game, tmp_path, capsys):
    f = tmp_path / "g.fmreplay"
    Replay.from_game(game).save(f)
    assert cli.main(["replay", "--import", str(f), "--timeline", "--speed", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "coach: " + coach.summary(expected(game))


def test_cursor_jumps_to_the_fatal_move_and_between_risky_moves(game):
    rep = Replay.from_game(game)
    verdicts, note = verdicts_of(rep)
    assert verdicts is not None and note == coach.summary(verdicts)
    cur = Cursor(rep, verdicts)
    risky = [v.index + 1 for v in verdicts if coach.is_risky(v)]
    assert len(risky) >= 2
    # f: the position just after the losing move, which shows it exploded.
    to = cur.fatal()
    assert to == len(rep)
    cur.goto(to)
    assert cur.game.state is fastmine.GameState.LOST
    assert cur.current() == coach.describe(verdicts[-1])
    # n / N walk the risky moves forward and back.
    cur.goto(0)
    seen = []
    while (k := cur.risky(1)) is not None:
        cur.goto(k)
        seen.append(k)
    assert seen == risky
    back = []
    while (k := cur.risky(-1)) is not None:
        cur.goto(k)
        back.append(k)
    assert back == risky[-2::-1]
    assert cur.current() == coach.describe(verdicts[risky[0] - 1])
    # Without verdicts there is nothing to jump to.
    plain = Cursor(rep)
    assert plain.risky(1) is None and plain.fatal() is None and plain.current() == ""


def test_the_bar_marks_risky_moves_and_the_loss(game):
    rep = Replay.from_game(game)
    verdicts, _ = verdicts_of(rep)
    cur = Cursor(rep, verdicts)
    line = bar(cur, 60)
    assert line.startswith("[") and line.endswith("X]") and "!" in line and len(line) == 62
    assert bar(Cursor(rep), 60) == "[" + " " * 60 + "]"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_curses_player_f_jumps_to_the_losing_move(stored, game):
    n = len(game.moves)
    t = PtyScreen(["replay", "--speed", "0"], env={"FASTMINE_DATA_DIR": stored})
    try:
        t.wait_for(f"move 0/{n}")
        t.wait_for("you had to make (21%): no cell was safer.")
        t.wait_for("q quit  n/N risky moves  f loss")
        t.send("f")
        t.wait_for(f"move {n}/{n}")
        assert t.lines[2].startswith(f"Move {n}, open at row ")
        assert "X" in t.text
        t.send("N")
        before = [v for v in expected(game) if coach.is_risky(v)][-2]
        t.wait_for(f"move {before.index + 1}/{n}")
        # the whole sentence, folded at a word end where it is wider than the screen
        assert " ".join(" ".join(t.lines[2:4]).split()).startswith(coach.describe(before))
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()


def test_a_replay_the_coach_cannot_analyse_still_plays(tmp_path, capsys):
    # A file whose first click is a mine under the "cell" rule (which forbids that):
    # the replay plays, the coach says why it has no marks, --verdicts refuses.
    mines = np.zeros((3, 3), bool)
    mines[0, 0] = True
    g = fastmine.Game.from_board(fastmine.Board.from_mines(mines))
    g.reveal(0, 0)
    r = Replay.from_game(g)
    f = tmp_path / "odd.fmreplay"
    Replay(r.mines.copy(), "cell", r.moves.copy(), r.state, r.time).save(f)
    assert cli.main(["replay", "--import", str(f), "--timeline", "--speed", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "move 1/1  0:00.000 reveal row 1, col 1"
    assert lines[-1].startswith("coach: not analysed (the first click at (0, 0) is a mine")
    assert cli.main(["replay", "--import", str(f), "--verdicts", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("fastmine replay: --verdicts: not analysed (the first click")
    assert err.count("analys") == 1


def test_verdicts_with_no_coach_is_refused(stored, tmp_path, capsys):
    out = tmp_path / "v.json"
    assert cli.main(["replay", "last", "--no-coach", "--verdicts", str(out),
                     "--data-dir", stored]) == 2
    assert "--no-coach" in capsys.readouterr().err and not out.exists()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_curses_player_folds_the_coachs_words_instead_of_cutting_them(tmp_path):
    # A beginner game lost on a proven mine: an 87-character summary and a
    # 97-character sentence on the losing move, on an 80-column terminal.
    mines = np.zeros((9, 9), bool)
    mines[[0, 0, 0, 2, 3, 4, 5, 7, 7, 8], [7, 8, 6, 8, 1, 7, 2, 1, 4, 3]] = True
    g = fastmine.Game.from_board(fastmine.Board.from_mines(mines))
    g.reveal(8, 8)
    g.reveal(0, 6)                           # a proven mine, safe cells elsewhere
    assert g.state is fastmine.GameState.LOST
    f = tmp_path / "lost.fmreplay"
    Replay.from_game(g).save(f)
    verdicts, note = verdicts_of(Replay.load(f))
    sentence = coach.describe(verdicts[-1])
    assert len(sentence) > 80 and len(note) > 70
    t = PtyScreen(["replay", "--import", str(f), "--speed", "0"],
                  env={"FASTMINE_DATA_DIR": str(tmp_path)})
    try:
        t.wait_for("q quit  n/N risky moves  f loss")
        t.send("f")
        t.wait_for("move 2/2")
        t.settle()
        words = t.words
        assert sentence in words and f"coach: {note}" in words
        assert all(len(line.rstrip()) <= 80 for line in t.lines)
        t.send("q")
        assert t.wait_exit() == 0
    finally:
        if t.proc.poll() is None:
            t.proc.kill()
