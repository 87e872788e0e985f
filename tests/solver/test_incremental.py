"""IncrementalAnalyzer against a from-scratch analysis of every position.

A game's positions are analysed one after the other, each reusing the cells
the last one proved; every answer must be the one ``solver.analyze`` gives
for the same view: the same certain cells and interior, the probabilities
within 1e-12.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fastmine
from fastmine import solver
from fastmine.solver.incremental import IncrementalAnalyzer

VIDEOS = Path(__file__).resolve().parents[1] / "data" / "videos"


def assert_same(a: solver.Analysis, b: solver.Analysis) -> None:
    """``b`` (incremental) is ``a`` (from scratch) up to the floats' rounding."""
    assert np.array_equal(a.safe, b.safe)
    assert np.array_equal(a.mine, b.mine)
    assert np.array_equal(a.interior, b.interior)
    pa, pb = a.probabilities, b.probabilities
    assert np.array_equal(np.isnan(pa), np.isnan(pb))
    known = ~np.isnan(pa)
    assert np.abs(pa[known] - pb[known]).max(initial=0.0) <= 1e-12
    # certain exactly where P is exactly 0 or 1, as from scratch
    assert np.array_equal(pb[known] == 0.0, b.safe[known])
    assert np.array_equal(pb[known] == 1.0, b.mine[known])
    assert a.exact == b.exact and a.mines == b.mines
    assert a.frontier_cells == b.frontier_cells
    assert b.log_solutions == pytest.approx(a.log_solutions, rel=1e-12, abs=1e-9)
    if np.isnan(a.interior_probability):
        assert np.isnan(b.interior_probability)
    else:
        assert abs(a.interior_probability - b.interior_probability) <= 1e-12


def progress(rng: np.random.Generator, game: fastmine.Game, board: fastmine.Board) -> None:
    """One move a player could make: open a safe cell (now and then one the
    solver proved safe, as players mostly do), or flag, question or clear a
    cell."""
    view = game.view
    hidden = np.argwhere((view < 0) & ~board.mines)
    if rng.random() < 0.2:
        r, c = (int(x) for x in np.argwhere(view < 0)[rng.integers(int((view < 0).sum()))])
        game.toggle_mark(r, c)
        return
    if rng.random() < 0.5:
        safe = np.argwhere(solver.analyze(view, game.mine_count).safe)
        if len(safe):
            hidden = safe
    r, c = (int(x) for x in hidden[rng.integers(len(hidden))])
    if view[r, c] == fastmine.FLAG:
        game.toggle_mark(r, c)
    game.reveal(r, c)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.integers(2, 16), st.floats(0.05, 0.35), st.integers(0, 2**31 - 1))
def test_a_game_s_positions_equal_from_scratch(rows, cols, density, seed):
    rng = np.random.default_rng(seed)
    mines = min(max(1, round(rows * cols * density)), rows * cols - 1)
    board = fastmine.Board.generate(rows, cols, mines, seed=seed, first_click=(0, 0),
                                    rule="cell")
    game = fastmine.Game.from_board(board)
    chain = IncrementalAnalyzer(mines)
    game.reveal(0, 0)
    while game.state is fastmine.GameState.PLAYING:
        assert_same(solver.analyze(game.view, mines), chain.analyze(game.view))
        progress(rng, game, board)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from(["beginner", "intermediate", "expert"]))
def test_standard_boards(seed, level):
    rng = np.random.default_rng(seed)
    rows, cols, mines = fastmine.DIFFICULTIES[level]
    board = fastmine.Board.generate(rows, cols, mines, seed=seed, first_click=(rows // 2, 0),
                                    rule="opening")
    game = fastmine.Game.from_board(board)
    game.reveal(rows // 2, 0)
    chain = IncrementalAnalyzer(mines)
    for _ in range(40):
        if game.state is not fastmine.GameState.PLAYING:
            break
        assert_same(solver.analyze(game.view, mines), chain.analyze(game.view))
        progress(rng, game, board)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_a_view_that_does_not_follow_is_analysed_from_scratch(seed):
    """Take-backs, another game, a view from earlier: still the from-scratch answer."""
    rng = np.random.default_rng(seed)
    board = fastmine.Board.generate(9, 9, 14, seed=seed, first_click=(4, 4), rule="opening")
    game = fastmine.Game.from_board(board)
    game.reveal(4, 4)
    views = []
    for _ in range(12):
        if game.state is not fastmine.GameState.PLAYING:
            break
        views.append(np.array(game.view))
        progress(rng, game, board)
    chain = IncrementalAnalyzer(14)
    for i in rng.permutation(len(views)).tolist() + list(range(len(views))):
        assert_same(solver.analyze(views[i], 14), chain.analyze(views[i]))


def test_known_mine_shown_open_is_a_new_start():
    view = np.array([[-1, -1, -1], [1, 2, 1]])
    chain = IncrementalAnalyzer(2)
    assert chain.analyze(view).mine[0, 0]
    # another position on which (0, 0) is open: not a successor, counted afresh
    other = np.array([[0, 1, -1], [0, 1, -1]])
    with pytest.raises(solver.InconsistentViewError):
        solver.analyze(other, 2)
    other1 = np.array([[0, 1, -1], [0, 1, -1]])
    assert_same(solver.analyze(other1, 1), IncrementalAnalyzer(1).analyze(other1))
    with pytest.raises(solver.InconsistentViewError):
        chain.analyze(other)


def test_errors_are_analyze_s_own():
    chain = IncrementalAnalyzer(2)
    chain.analyze(np.array([[-1, -1, -1], [1, 2, 1]]))
    bad = np.array([[-1, -1, -1], [3, 2, 1]])
    with pytest.raises(solver.InconsistentViewError) as theirs:
        solver.analyze(bad, 2)
    with pytest.raises(solver.InconsistentViewError) as ours:
        chain.analyze(bad)
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="view values must be"):
        chain.analyze(np.array([[-1, 9]]))
    with pytest.raises(ValueError, match="finished game"):
        chain.analyze(np.array([[-1, -4]]))
    with pytest.raises(ValueError, match="2-D"):
        chain.analyze(np.zeros(3, np.int8))
    with pytest.raises(ValueError, match="mines"):
        IncrementalAnalyzer(-1)
    with pytest.raises(ValueError, match="max_entries"):
        IncrementalAnalyzer(3, max_entries=0)
    # after the errors, a good view still gets the right answer
    view = np.array([[-1, -1, -1], [1, 2, 1]])
    assert_same(solver.analyze(view, 2), chain.analyze(view))


def test_a_game_passed_whole():
    g = fastmine.Game(16, 30, 99, seed=5)
    g.reveal(8, 15)
    assert_same(solver.analyze(g), IncrementalAnalyzer(99).analyze(g))
    with pytest.raises(ValueError, match="counts 98 mines"):
        IncrementalAnalyzer(98).analyze(g)


def test_a_board_of_another_shape_starts_afresh():
    chain = IncrementalAnalyzer(2)
    v1 = np.array([[-1, -1, -1], [1, 2, 1]])
    v2 = np.array([[-1, 1], [-1, 2], [-1, 1]])
    for v in (v1, v2, v1):
        assert_same(solver.analyze(v, 2), chain.analyze(v))


def test_every_interior_cell_known():
    """All unknown cells proven: the interior's odds are still given (0 or 1)."""
    # (1, 0) is a mine, (1, 1..3) safe, and the 4 mines left fill the top row
    view = np.array([[-1, -1, -1, -1], [-1, -1, -1, -1], [1, 1, 0, 0]])
    chain = IncrementalAnalyzer(5)
    a = chain.analyze(view)
    assert_same(solver.analyze(view, 5), a)
    assert a.interior_probability == 1.0 and a.interior[0].all()
    b = chain.analyze(view)         # now every interior cell is a known mine
    assert_same(solver.analyze(view, 5), b)
    assert b.interior_probability == 1.0 and b.variables == 0


def _expert_games():
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    for path in sorted(VIDEOS.glob("*")):
        if path.suffix not in (".avf", ".rmv", ".mvf", ".evf") or "invalid" in path.name:
            continue
        video = read_video(path)
        if (video.rows, video.cols) == (16, 30):
            yield path.name, rebuild(video, play_video(video))


@pytest.mark.parametrize("name,game", list(_expert_games()), ids=lambda x: x if isinstance(x, str) else "")
def test_real_expert_games(name, game):
    """Every position of the real Expert games in tests/data/videos."""
    board = game.board
    replay = fastmine.Game.from_board(board, question_marks=game.question_marks)
    chain = IncrementalAnalyzer(board.mine_count)
    for kind, r, c, _ms in game.moves.tolist():
        if replay.state.is_over:
            break
        if replay.state is fastmine.GameState.PLAYING:
            assert_same(solver.analyze(replay.view, board.mine_count), chain.analyze(replay.view))
        code = kind & 3
        if code in (1, 3):
            replay.question_marks = code == 1
            replay.toggle_mark(r, c)
        elif code == 2:
            replay.chord(r, c)
        else:
            replay.reveal(r, c)


def test_workspaces_come_from_analyze_s_pool_and_go_back():
    """An analyzer borrows a workspace for its life (a new one grows some forty
    buffers), never one another caller holds, and gives it back when it goes."""
    from fastmine.solver import probability

    view = np.array([[-1, -1, -1], [1, 2, 1]])
    solver.analyze(view, 2)                      # leaves a workspace in the pool
    pooled = list(probability._pool)
    a = IncrementalAnalyzer(2)
    b = IncrementalAnalyzer(2)
    assert a._ws is not b._ws and a._ws in pooled
    assert a._ws not in probability._pool and b._ws not in probability._pool
    for chain in (a, b):
        assert_same(solver.analyze(view, 2), chain.analyze(view))   # analyze takes a third
    ws = a._ws
    del a
    assert ws in probability._pool


@pytest.mark.parametrize("how", ["analyze", "incremental"])
def test_every_field_lands_in_its_place(how):
    """Both build their Analysis by position: each field holds what it names."""
    g = fastmine.Game(16, 30, 99, seed=5)
    g.reveal(8, 15)
    view = np.array(g.view)
    a = solver.analyze(view, 99) if how == "analyze" else IncrementalAnalyzer(99).analyze(view)
    assert a.probabilities.shape == a.safe.shape == a.mine.shape == a.interior.shape == (16, 30)
    assert a.probabilities.dtype == np.float64 and a.safe.dtype == a.mine.dtype == np.bool_
    assert a.mines == 99 and a.exact is True
    unknown = view < 0
    padded = np.pad(view >= 0, 1)
    by_number = sum(padded[1 + dr:17 + dr, 1 + dc:31 + dc] for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1) if (dr, dc) != (0, 0)) > 0
    assert np.array_equal(a.interior, unknown & ~by_number) and a.interior.any()
    assert a.frontier_cells == int((unknown & by_number).sum()) > 0
    assert np.allclose(a.probabilities[a.interior], a.interior_probability)
    assert type(a.log_solutions) is float and np.isfinite(a.log_solutions)
    assert a.variables >= 1 and a.blocks >= a.components >= 1


def test_a_position_that_rules_nothing_out_keeps_the_last_count(monkeypatch):
    """Opening a proven-safe cell whose number touches only proven cells rules
    out no layout: the last count stands (no recount), and it equals a count
    from scratch.  It happens on real games (about a fifth of the coach's counts)."""
    from fastmine.solver import _prob

    kept = []
    real = _prob.analyze_known

    def spy(*args):
        res = real(*args)
        kept.append(type(res) is tuple and res[0] is None)
        return res

    monkeypatch.setattr(_prob, "analyze_known", spy)
    name, game = next(x for x in _expert_games() if x[0] == "meta_v3_exp.evf")
    test_real_expert_games(name, game)
    assert any(kept) and not all(kept)
