"""A board, a first-click rule and timed moves: Game.from_board(rule=...) and
Game.from_moves, against games played live with a fake clock and against the
real videos' own times and outcomes."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from engine_strategies import FakeClock, expand, masks, moves
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import RefBoard, RefGame

import fastmine
from fastmine import Board, Game, GameState
from fastmine.coach import Category, analyze, judge
from fastmine.replay import Replay
from fastmine.timedmoves import ManualClock

sys.path.insert(0, str(Path(__file__).parent / "videos"))
from video_files import PLAYED, path  # noqa: E402  (the real videos and what they hold)

BOARD = Board.from_mines([[0, 0, 1], [0, 0, 0]])


def test_from_board_keeps_the_rule_and_the_mines() -> None:
    g = Game.from_board(BOARD, rule="opening")
    assert g.rule == "opening" and g.board is BOARD
    g.reveal(0, 2)                     # the mines stay where they are
    assert g.state is GameState.LOST
    assert Game.from_board(BOARD).rule == "none"          # the default is unchanged
    # The coach reads the rule: the first reveal is free under it, judged under "none".
    g = Game.from_board(BOARD, rule="cell")
    assert judge(g, "reveal", 1, 0).category is Category.FIRST_CLICK
    g = Game.from_board(BOARD)
    assert judge(g, "reveal", 1, 0).category is not Category.FIRST_CLICK


def test_from_board_refuses_a_bad_rule() -> None:
    with pytest.raises(ValueError, match="rule"):
        Game.from_board(BOARD, rule="openning")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game.from_board(BOARD, rule=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game.from_board(BOARD, "none")  # type: ignore[arg-type,misc]  # rule is keyword-only


def test_from_moves_gives_the_player_time_and_logs_game_times() -> None:
    g = Game.from_moves(BOARD, [("mark", 0, 2, 500), ("reveal", 0, 0, 1200),
                                ("reveal", 1, 2, 3450)], rule="opening")
    assert (g.state, g.elapsed, g.rule) == (GameState.WON, 2.25, "opening")
    assert g.moves.tolist() == [[1, 0, 2, 0], [0, 0, 0, 0], [0, 1, 2, 2250]]
    assert (g.left_clicks, g.right_clicks, g.chord_clicks) == (2, 1, 0)
    # The same moves as the log's numbers, at game times, give the same game.
    again = Game.from_moves(BOARD, g.moves, rule="opening")
    assert np.array_equal(again.moves, g.moves) and again.elapsed == g.elapsed


def test_manual_clock_reads_what_it_was_set_to() -> None:
    clock = ManualClock(1.5)
    assert clock() == 1.5
    clock.now = 7.25
    g = Game.from_board(BOARD, clock=clock)
    g.reveal(1, 0)
    clock.now = 9.0
    assert g.elapsed == 1.75 and repr(clock) == "ManualClock(now=9.0)"


def test_an_unfinished_game_ends_at_end_ms() -> None:
    g = Game.from_moves(BOARD, [("reveal", 1, 0, 1000)], end_ms=4500)
    assert g.state is GameState.PLAYING and g.elapsed == 3.5
    g = Game.from_moves(BOARD, [("reveal", 1, 0, 1000)])
    assert g.elapsed == 0.0
    assert Game.from_moves(BOARD, [], end_ms=9).state is GameState.READY


def test_marks_cycle_as_question_marks_say() -> None:
    seq = [("mark", 0, 2, 0), ("mark", 0, 2, 1)]
    assert Game.from_moves(BOARD, seq).view[0, 2] == fastmine.QUESTION
    assert Game.from_moves(BOARD, seq, question_marks=False).view[0, 2] == fastmine.HIDDEN
    # A log's number says its own cycle (1 through "?", 3 without), whatever the setting.
    assert Game.from_moves(BOARD, [(1, 0, 2, 0), (1, 0, 2, 1)],
                           question_marks=False).view[0, 2] == fastmine.QUESTION


def test_a_solver_move_marks_the_game_assisted() -> None:
    assert Game.from_moves(BOARD, [(4, 1, 0, 0)]).assisted
    assert not Game.from_moves(BOARD, [(0, 1, 0, 0)]).assisted


@settings(max_examples=150)
@given(masks(), moves, st.lists(st.integers(0, 5000), min_size=60, max_size=60),
       st.sampled_from(["none", "cell", "opening"]), st.booleans())
def test_a_live_game_rebuilt_from_its_timed_moves(mask, script, gaps, rule, qm) -> None:
    """A game played with a clock that ticks between moves, rebuilt from its own
    move log, is the same game: cells, state, clicks, log and time."""
    clock = FakeClock()
    board = Board.from_mines(mask)
    live = Game.from_board(board, question_marks=qm, clock=clock, rule=rule)
    ref = RefGame(RefBoard(mask), question_marks=qm)
    for (kind, k), gap in zip(script, gaps, strict=False):
        for op, r, c in expand(ref, kind, k):
            if ref.state in ("won", "lost"):
                break
            clock.advance(gap / 1000)
            getattr(live, op)(r, c)
            getattr(ref, op)(r, c)
    again = Game.from_moves(board, live.moves, rule=rule, question_marks=qm,
                            end_ms=None if live.state.is_over else live.moves[-1, 3])
    assert again.view.tolist() == live.view.tolist()
    assert again.state is live.state and again.rule == rule
    assert np.array_equal(again.moves, live.moves)
    assert (again.left_clicks, again.right_clicks, again.chord_clicks) == (
        live.left_clicks, live.right_clicks, live.chord_clicks)
    if live.state.is_over:
        assert again.elapsed == pytest.approx(live.elapsed, abs=1e-3)
        assert Replay.from_game(again).play().view.tolist() == live.view.tolist()


def _video_moves(name: str):
    from fastmine.videos import play_video, read_video

    v = read_video(path(name))
    p = play_video(v)
    kinds = {"left": "reveal", "right": "mark", "double": "chord"}
    timed = [(kinds[m.button], m.row, m.col, m.time_ms) for m in p.moves if m.row >= 0]
    return v, p, timed


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_a_video_rebuilt_has_the_player_outcome_and_time(name: str) -> None:
    v, p, timed = _video_moves(name)
    g = Game.from_moves(Board.from_mines(v.mine_layout), timed,
                        question_marks=bool(v.question_marks), end_ms=p.end_ms)
    assert g.state.value == p.outcome
    assert round(g.elapsed * 1000) == p.time_ms
    assert np.array_equal(g.view, p.final_view)
    on_board = [m for m in p.moves if m.row >= 0]
    assert g.left_clicks == sum(m.button == "left" for m in on_board)
    assert g.right_clicks == sum(m.button == "right" for m in on_board)
    assert g.chord_clicks == sum(m.button == "double" for m in on_board)
    # The coach reads it like any game (a video's first click is judged: rule "none").
    verdicts = analyze(g.board, g.moves, rule="none", question_marks=bool(v.question_marks))
    assert len(verdicts) == len(on_board)
    assert (verdicts[-1].survived is False) == (p.outcome == "lost")


# ------------------------------------------------------------------ bad input

BAD = [
    ("not a board", [[0, 0, 0]], {}, TypeError, "fastmine.Board"),
    ("a string", "reveal", {}, TypeError, "moves must be"),
    ("a number", 3, {}, TypeError, "moves must be"),
    ("three fields", [("reveal", 0, 0)], {}, TypeError, "move 0 must be"),
    ("a string move", ["reveal 0 0 0"], {}, TypeError, "move 0 must be"),
    ("unknown kind", [("flagg", 0, 0, 0)], {}, ValueError, "unknown kind"),
    ("kind 8", [(8, 0, 0, 0)], {}, ValueError, "unknown kind"),
    ("kind -1", [(-1, 0, 0, 0)], {}, ValueError, "unknown kind"),
    ("bool kind", [(True, 0, 0, 0)], {}, ValueError, "unknown kind"),
    ("off the board", [("reveal", 2, 0, 0)], {}, ValueError, "off the 2x3 board"),
    ("negative col", [("reveal", 0, -1, 0)], {}, ValueError, "off the 2x3 board"),
    ("float row", [("reveal", 0.5, 0, 0)], {}, TypeError, "row as an integer"),
    ("bool col", [("reveal", 0, False, 0)], {}, TypeError, "not a bool"),
    ("huge row", [("reveal", 2**70, 0, 0)], {}, ValueError, "off the"),
    ("negative time", [("reveal", 1, 0, -1)], {}, ValueError, "0 to"),
    ("NaN time", [("reveal", 1, 0, math.nan)], {}, ValueError, "0 to"),
    ("infinite time", [("reveal", 1, 0, math.inf)], {}, ValueError, "0 to"),
    ("huge time", [("reveal", 1, 0, 10**30)], {}, ValueError, "0 to"),
    ("text time", [("reveal", 1, 0, "5")], {}, TypeError, "milliseconds"),
    ("bool time", [("reveal", 1, 0, True)], {}, TypeError, "milliseconds"),
    ("backwards", [("mark", 0, 2, 50), ("reveal", 1, 0, 40)], {}, ValueError, "backwards"),
    ("after the end", [("reveal", 0, 2, 0), ("reveal", 1, 0, 5)], {}, ValueError,
     "after the game ended"),
    ("end before last", [("reveal", 1, 0, 50)], {"end_ms": 10}, ValueError, "before the last"),
    ("end NaN", [("reveal", 1, 0, 50)], {"end_ms": math.nan}, ValueError, "0 to"),
    ("bad rule", [], {"rule": "safe"}, ValueError, "rule"),
    ("question_marks 1", [], {"question_marks": 1}, TypeError, "True or False"),
]


@pytest.mark.parametrize("what, moves_, kw, exc, match", BAD, ids=[b[0] for b in BAD])
def test_from_moves_refuses_bad_input(what, moves_, kw, exc, match) -> None:
    board = [[0, 0, 0]] if what == "not a board" else BOARD
    with pytest.raises(exc, match=match):
        Game.from_moves(board, moves_, **kw)

