"""fastmine.metrics: against slow references (tests/metrics_reference.py), against
ms-toollib (Metasweeper's library) on real videos and random boards, and
Game.stats() of lost, unfinished and instant games."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from engine_strategies import FakeClock, expand, masks, moves
from hypothesis import given, settings
from hypothesis import strategies as st
from metrics_reference import bbbv_solved as ref_bbbv_solved
from metrics_reference import islands as ref_islands
from metrics_reference import zini as ref_zini
from reference import FLAG, HIDDEN, QUESTION, RefBoard, RefGame

import fastmine
from fastmine import Board, Game, GameState
from fastmine import metrics as M
from fastmine.metrics import TIME_FLOOR, GameStats

sys.path.insert(0, str(Path(__file__).parent / "videos"))
from video_files import ORACLE_READS, PLAYED, path  # noqa: E402

from fastmine.videos import play_video, read_video  # noqa: E402
from fastmine.videos.rebuild import mouse_path, rebuild, video_stats  # noqa: E402

try:
    import ms_toollib as ms
except ImportError:       # the bench extra: the oracle tests are skipped without it
    ms = None
needs_oracle = pytest.mark.skipif(ms is None, reason="ms-toollib (the bench extra) is not installed")


def _ms_board(mask: list[list[bool]]) -> list[list[int]]:
    b = RefBoard(mask)
    return [[-1 if b.mines[r][c] else b.counts[r][c] for c in range(b.cols)] for r in range(b.rows)]


# ----------------------------------------------------------------- board metrics

@settings(max_examples=300)
@given(masks(max_side=10))
def test_board_metrics_match_the_slow_reference(mask) -> None:
    board, ref = Board.from_mines(mask), RefBoard(mask)
    assert M.zini(board) == ref_zini(ref)
    assert M.hzini(board) == ref_zini(ref, human=True)
    assert M.islands(board) == ref_islands(ref)
    assert M.openings(board) == len(ref.openings())
    # ZiNi counts flags and chords: never more than opening every safe cell.
    assert 1 <= M.zini(board) <= board.rows * board.cols - board.mine_count


@needs_oracle
@settings(max_examples=300)
@given(masks(max_side=16))
def test_zini_and_islands_match_ms_toollib(mask) -> None:
    board, raw = Board.from_mines(mask), _ms_board(mask)
    assert M.zini(board) == ms.cal_zini(raw)
    assert M.hzini(board) == ms.cal_hzini(raw)
    assert M.openings(board) == ms.cal_op(raw)


def test_zini_known_boards() -> None:
    # No mine: one click.  One mine in a corner of 3x3: open the opening (1).
    assert M.zini(Board.from_mines([[0, 0, 0], [0, 0, 0], [0, 0, 1]])) == 1
    # 1x3 with the mine in the middle: two isolated 1s, two clicks (a chord
    # would cost a flag and a chord for one 3BV).
    assert M.zini(Board.from_mines([[0, 1, 0]])) == 2
    assert M.islands(Board.from_mines([[0, 1, 0]])) == 2
    assert M.islands(Board.from_mines([[0, 0, 0], [0, 0, 0], [0, 0, 1]])) == 0


def test_expert_zini_is_fast_enough_to_be_linear() -> None:
    # Not a timing test: a 300x300 board must finish (the kernel picks its
    # next cell from a segment tree; a scan per step would take minutes).
    b = Board.generate(300, 300, 18000, first_click=(0, 0), rule="none", seed=3)
    assert 0 < M.zini(b) <= 300 * 300 - 18000
    assert M.hzini(b) >= M.islands(b)


# --------------------------------------------------------------------- 3BV solved

def _ref_game(mask, script, qm):
    game = Game.from_board(Board.from_mines(mask), question_marks=qm)
    ref = RefGame(RefBoard(mask), question_marks=qm)
    seen = [M.bbbv_solved(game.board, game.view)]
    for kind, k in script:
        for op, r, c in expand(ref, kind, k):
            if ref.state in ("won", "lost"):
                break
            getattr(ref, op)(r, c)
            getattr(game, op)(r, c)
            seen.append(M.bbbv_solved(game.board, game.view))
            assert seen[-1] == ref_bbbv_solved(ref.board, ref.view)
    return game, ref, seen


@settings(max_examples=300)
@given(masks(), moves, st.booleans())
def test_bbbv_solved_matches_the_definition_after_every_move(mask, script, qm) -> None:
    game, ref, seen = _ref_game(mask, script, qm)
    assert seen == sorted(seen)                   # what is solved stays solved
    if game.state is GameState.WON:
        assert seen[-1] == game.board.bbbv() == game.stats().bbbv_solved


@settings(max_examples=200)
@given(masks(), moves, st.booleans())
def test_effective_clicks_are_those_that_changed_the_board(mask, script, qm) -> None:
    """A reveal that opened a cell, the first flag on each mine, a chord that
    opened cells (or hit a mine): counted on the reference move by move."""
    game = Game.from_board(Board.from_mines(mask), question_marks=qm)
    ref = RefGame(RefBoard(mask), question_marks=qm)
    left = right = chord = 0
    flagged: set[tuple[int, int]] = set()
    for kind, k in script:
        for op, r, c in expand(ref, kind, k):
            if ref.state in ("won", "lost"):
                break
            before = [row[:] for row in ref.view]
            changed = getattr(ref, op)(r, c)
            getattr(game, op)(r, c)
            opened = any(before[a][b] in (HIDDEN, QUESTION) and ref.view[a][b] != FLAG
                         and ref.view[a][b] not in (HIDDEN, QUESTION) for a, b in changed)
            if op == "reveal":
                left += opened and ref.state != "lost"
            elif op == "chord":
                chord += opened
            elif ref.view[r][c] == FLAG and ref.board.mines[r][c] and (r, c) not in flagged:
                flagged.add((r, c))
                right += 1
    assert M.effective_clicks(game) == (left, right, chord)
    s = game.stats()
    assert (s.effective_left, s.effective_right, s.effective_chord) == (left, right, chord)
    assert s.effective_clicks is not None and s.effective_clicks <= s.clicks


def test_bbbv_solved_refuses_a_bad_view() -> None:
    b = Board.from_mines([[0, 1, 0]])
    with pytest.raises(ValueError, match="shape"):
        M.bbbv_solved(b, np.zeros((2, 3), np.int8))
    with pytest.raises(TypeError, match="integer"):
        M.bbbv_solved(b, np.zeros((1, 3), float))
    with pytest.raises(TypeError, match="fastmine.Board"):
        M.bbbv_solved([[0, 1, 0]], np.zeros((1, 3), np.int8))  # type: ignore[arg-type]
    for fn in (M.zini, M.hzini, M.islands, M.openings):
        with pytest.raises(TypeError, match="fastmine.Board"):
            fn(np.zeros((3, 3), bool))  # type: ignore[arg-type]


# -------------------------------------------------------------- Game.stats()

LOST = Board.from_mines([[0, 0, 0, 0, 0, 0],
                         [0, 0, 0, 0, 0, 0],
                         [0, 0, 0, 0, 1, 0],
                         [1, 0, 1, 0, 0, 1]])


def test_a_lost_game_counts_the_3bv_it_solved(clock: FakeClock) -> None:
    g = Game.from_board(LOST, clock=clock, rule="opening")
    g.reveal(0, 0)                      # the opening: 1 of the board's 3BV
    clock.advance(4.0)
    g.reveal(3, 5)                      # a mine
    s = g.stats()
    assert g.state is GameState.LOST
    assert (s.bbbv, s.bbbv_solved) == (LOST.bbbv(), 1) and LOST.bbbv() > 1
    assert s.bbbv_per_second == pytest.approx(1 / 4)
    assert s.efficiency == s.ioe == pytest.approx(1 / 2)      # 1 solved over 2 clicks
    assert s.rqp == pytest.approx(4 / (1 / 4))
    assert s.stnb is None and s.level == "custom"


def test_three_clicks_cannot_read_above_what_they_solved(clock: FakeClock) -> None:
    # The issue's 467%: a 3-click loss read the whole board's 3BV over 3 clicks.
    b = Board.generate(9, 9, 10, first_click=(4, 4), rule="opening", seed=11)
    g = Game.from_board(b, clock=clock, rule="opening")
    g.reveal(4, 4)
    clock.advance(1.0)
    g.toggle_mark(0, 0)
    mine = tuple(int(x) for x in np.argwhere(b.mines)[0])
    g.reveal(*mine)
    s = g.stats()
    assert s.clicks == 3 and s.bbbv_solved is not None
    assert s.efficiency == s.bbbv_solved / 3 <= 1
    assert s.bbbv_solved < b.bbbv()


@pytest.mark.parametrize("seconds, has_rate", [(0.0, False), (0.0001, False),
                                               (TIME_FLOOR * 0.999, False), (TIME_FLOOR, True),
                                               (0.5, True)])
def test_a_game_shorter_than_the_floor_has_no_rates(clock: FakeClock, seconds: float,
                                                   has_rate: bool) -> None:
    # A loss 0.1 ms after the first reveal read 3BV/s 149110 before.
    g = Game.from_board(LOST, clock=clock, rule="opening")
    g.reveal(0, 0)
    clock.advance(seconds)
    g.reveal(3, 5)
    s = g.stats()
    for value in (s.bbbv_per_second, s.clicks_per_second, s.rqp, s.left_per_second):
        assert (value is not None) is has_rate
    if has_rate:
        assert s.bbbv_per_second == pytest.approx(1 / seconds)


def test_stnb_on_the_standard_levels(clock: FakeClock) -> None:
    b = Board.generate(16, 30, 99, first_click=(8, 8), rule="opening", seed=5)
    g = Game.from_board(b, clock=clock)
    g.reveal(8, 8)
    clock.advance(60.0)
    while not g.state.is_over:
        fastmine.solver.step(g)
    s = g.stats()
    assert s.level == "expert"
    solved = s.bbbv_solved
    assert solved is not None and s.bbbv is not None
    assert s.stnb == pytest.approx(435 * solved / 60 ** 1.7 * math.sqrt(solved / s.bbbv))
    # fastmine's 9x9 Beginner is not the community's level: no STNB.
    g = Game(9, 9, 10, seed=1, clock=clock)
    g.reveal(4, 4)
    clock.advance(2.0)
    assert g.stats().level == "custom" and g.stats().stnb is None


def test_stats_without_a_board_or_a_move_log() -> None:
    g = Game(9, 9, 10, seed=2)
    s = g.stats()
    assert (s.bbbv, s.bbbv_solved, s.effective_clicks, s.ioe, s.correctness, s.throughput) == (
        None, None, None, None, None, None)
    g.reveal(4, 4)
    d = g.to_dict()
    d["moves"] = None                  # a save without its moves
    again = Game.from_dict(d)
    assert again.stats().effective_clicks is None and again.stats().bbbv_solved is not None


def test_game_stats_of_builds_the_rate() -> None:
    s = GameStats.of(10.0, 20, 5, (4, 3, 2), (3, 1, 1), "beginner", 123.5)
    assert s.bbbv_per_second == 0.5 and s.clicks == 9 and s.effective_clicks == 5
    assert s.correctness == pytest.approx(5 / 9) and s.throughput == 1.0
    assert s.path == 123.5 and s.clicks_per_second == pytest.approx(0.9)
    assert GameStats.of(10.0, 20, 0, (1, 0, 0)).rqp is None      # nothing solved: no RQP


def test_path_length_refuses_bad_input() -> None:
    assert M.path_length([0, 3], [0, 4], 16) == 5.0
    assert M.path_length([0, 3], [0, 4], 32) == 2.5
    assert M.path_length([], [], 16) == 0.0
    with pytest.raises(ValueError, match="one length"):
        M.path_length([0, 1], [0], 16)
    with pytest.raises(ValueError, match="at least 1"):
        M.path_length([0, 1], [0, 1], 0)
    with pytest.raises(TypeError, match="whole number"):
        M.path_length([0, 1], [0, 1], 16.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one entry a point"):
        M.path_length([0, 1], [0, 1], 16, keep=[True])
    for keep in (["a", "b"], [1, 0], 5):
        with pytest.raises(TypeError, match="keep must be booleans"):
            M.path_length([0, 1], [0, 1], 16, keep=keep)  # type: ignore[arg-type]


def _path_reference(x: list[float], y: list[float], keep: list[bool], cell: int) -> float:
    """The path written out: the kept points joined in order, in 16-pixel cells."""
    pts = [(a, b) for a, b, k in zip(x, y, keep, strict=True) if k]
    return sum(math.dist(p, q) for p, q in zip(pts, pts[1:], strict=False)) * 16 / cell


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-2**20, 2**20), st.integers(-2**20, 2**20), st.booleans()),
                max_size=60), st.integers(1, 64), st.booleans())
def test_path_length_is_the_kept_points_joined(points: list[tuple[int, int, bool]], cell: int,
                                              as_int32: bool) -> None:
    x = [p[0] for p in points]
    y = [p[1] for p in points]
    keep = [p[2] for p in points]
    xs, ys = (np.array(v, np.int32 if as_int32 else np.float64) for v in (x, y))
    want = _path_reference(x, y, keep, cell)
    assert M.path_length(xs, ys, cell, keep=np.array(keep, bool)) == pytest.approx(want, rel=1e-12)
    assert M.path_length(xs, ys, cell) == pytest.approx(
        _path_reference(x, y, [True] * len(x), cell), rel=1e-12)


_STEPS = st.one_of(st.integers(-50, 50), st.integers(-2**31, 2**31 - 1))
"""Pixel positions: mostly a few pixels apart, as a mouse moves (the compiled
path reads such steps from a table), some as far apart as int32 goes."""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_STEPS, _STEPS, st.integers(-1, 3)), max_size=80),
       st.integers(0, 90), st.integers(0, 90), st.integers(1, 40))
def test_a_video_path_is_the_float_path_to_the_last_bit(
        points: list[tuple[int, int, int]], a: int, b: int, cell: int) -> None:
    """Whole-pixel steps, from the table or computed, sum to exactly what the
    float formula gives; a video's events on the board (row >= 0) between two
    events give exactly path_length of those points."""
    x = np.array([p[0] for p in points], np.int32)
    y = np.array([p[1] for p in points], np.int32)
    row = np.array([p[2] for p in points], np.int32)
    start, stop = sorted((min(a, len(points)), min(b, len(points))))
    on = row[start:stop] >= 0
    want = M.path_length(x[start:stop].astype(float), y[start:stop].astype(float), cell, keep=on)
    assert M.path_length(x[start:stop], y[start:stop], cell, keep=on) == want
    assert M._events_path(x, y, row, start, stop, cell) == want


def test_a_video_path_refuses_what_is_not_a_video_s_events() -> None:
    x = np.zeros(3, np.int32)
    with pytest.raises(ValueError, match="one length"):
        M._events_path(x, x[:2], x, 0, 2, 16)
    with pytest.raises(ValueError, match="not within"):
        M._events_path(x, x, x, 1, 4, 16)
    with pytest.raises(ValueError, match="not within"):
        M._events_path(x, x, x, 2, 1, 16)
    with pytest.raises(ValueError, match="at least 1 pixel"):
        M._events_path(x, x, x, 0, 3, 0)


# ------------------------------------------------------------------ real videos

@pytest.mark.parametrize("name", sorted(PLAYED))
def test_video_stats_agree_with_the_rebuilt_game(name: str) -> None:
    v = read_video(path(name))
    p = play_video(v)
    s = video_stats(v, p)
    g = rebuild(v, p)
    gs = g.stats()
    assert round(gs.time * 1000) == round(s.time * 1000) == p.time_ms
    assert gs.bbbv_solved == s.bbbv_solved == p.bbbv_solved
    assert g.state.value == p.outcome
    assert s.clicks == p.clicks and s.path is not None and s.path >= 0


def test_the_issues_lost_game() -> None:
    # Lost after 65.62 s with 11 of 180 3BV solved: 3BV/s 0.168 and IOE 0.043,
    # as Arbiter and ms-toollib report (fastmine read 2.74 and 4.19 before).
    v = read_video(path("arbiter_exp_lost.avf"))
    s = video_stats(v, play_video(v))
    assert (s.bbbv, s.bbbv_solved, s.time) == (180, 11, 65.62)
    assert round(s.bbbv_per_second, 3) == 0.168 and round(s.ioe, 3) == 0.043
    assert rebuild(v, play_video(v)).stats().bbbv_per_second == pytest.approx(11 / 65.62)


@needs_oracle
@pytest.mark.parametrize("name", ORACLE_READS)
def test_every_metric_matches_ms_toollib(name: str) -> None:
    v = read_video(path(name))
    p = play_video(v, question_marks=False, count_chord_right_press=False)
    o = getattr(ms, {"avf": "AvfVideo", "rmv": "RmvVideo", "mvf": "MvfVideo",
                     "evf": "EvfVideo"}[name.rsplit(".", 1)[1]])(str(path(name)))
    o.parse()
    o.analyse()
    o.current_time = o.rtime + 1e-4      # the end of the game (its last event included)
    s = video_stats(v, p)
    b = Board.from_mines(v.mine_layout)
    assert (s.bbbv, s.bbbv_solved) == (o.bbbv, o.bbbv_solved)
    assert (s.left_clicks, s.right_clicks, s.chord_clicks, s.clicks) == (
        o.left, o.right, o.double, o.cl)
    assert s.effective_clicks == o.ce
    close = {"bbbv_per_second": o.bbbv_s, "clicks_per_second": o.cl_s, "ioe": o.ioe,
             "correctness": o.corr, "throughput": o.thrp, "rqp": o.rqp, "path": o.path,
             "effective_per_second": o.ce_s}
    for attr, want in close.items():
        assert getattr(s, attr) == pytest.approx(want, rel=1e-9), attr
    assert s.stnb == (pytest.approx(o.stnb, rel=1e-9) if s.level != "custom" else None)
    assert (M.openings(b), M.islands(b), M.zini(b), M.hzini(b)) == (o.op, o.isl, o.zini, o.hzini)
    assert mouse_path(v, p) == pytest.approx(o.path, rel=1e-9)


def test_the_terminal_loss_line_and_the_records_use_the_solved_3bv(clock: FakeClock,
                                                                   tmp_path: Path) -> None:
    from fastmine.cli.tui.session import Outcome
    from fastmine.records import GameRecord, RecordsStore

    g = Game.from_board(LOST, clock=clock, rule="opening")
    g.reveal(0, 0)
    clock.advance(4.0)
    g.reveal(3, 5)
    line = Outcome(False, g.stats(), False, False).summary()
    assert line == (f"Boom! You lost after 4.00 s: 3BV 1/{LOST.bbbv()}, 3BV/s 0.25, clicks 2, "
                    "efficiency 0.50")
    with RecordsStore(data_dir=tmp_path) as store:
        rec = store.record_game(g)
        assert (rec.bbbv, rec.bbbv_per_second, rec.efficiency) == (LOST.bbbv(), 0.25, 0.5)
        assert store.games()[0].bbbv_per_second == 0.25
    # A record made from plain values: a lost one needs its solved 3BV for rates.
    made = GameRecord.make(4, 6, 4, won=False, time=4.0, bbbv=5, clicks=2)
    assert (made.bbbv_per_second, made.efficiency) == (None, None)
    made = GameRecord.make(4, 6, 4, won=False, time=4.0, bbbv=5, clicks=2, bbbv_solved=1)
    assert (made.bbbv_per_second, made.efficiency) == (0.25, 0.5)
    won = GameRecord.make(4, 6, 4, won=True, time=0.0001, bbbv=5, clicks=2)
    assert (won.bbbv_per_second, won.efficiency) == (None, 2.5)
