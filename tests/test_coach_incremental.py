"""The coach's analyses, kept between moves, give the verdicts from-scratch ones give.

The compiled replay counts each position from what the last one proved (as
``fastmine.solver.incremental.IncrementalAnalyzer`` does); here the same
games are judged by the move-by-move reference (tests/coach_reference.py)
analysing every position from scratch, and every verdict must be the same
(the odds within rounding).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from coach_reference import analyze_reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fastmine
from fastmine.coach import judging
from fastmine.solver import probability

VIDEOS = Path(__file__).resolve().parent / "data" / "videos"


class _FromScratch:
    def __init__(self, mines: int) -> None:
        self.mines = mines
        self.calls = 0

    def analyze(self, view: np.ndarray) -> probability.Analysis:
        self.calls += 1
        return probability.analyze(view, self.mines)


def assert_same_verdicts(a: list[judging.Verdict], b: list[judging.Verdict]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        fx, fy = dataclasses.asdict(x), dataclasses.asdict(y)
        for key, vx in fx.items():
            vy = fy[key]
            if isinstance(vx, float) and isinstance(vy, float):
                assert vy == pytest.approx(vx, abs=1e-12), (key, x, y)
            else:
                assert vx == vy, (key, x, y)


def judge_both(monkeypatch, board, moves, **kw):
    """The compiled replay's verdicts, and the move-by-move reference's with
    every position analysed from scratch."""
    ours = judging.analyze(board, moves, **kw)
    with monkeypatch.context() as m:
        m.setattr(judging, "IncrementalAnalyzer", _FromScratch)
        theirs = analyze_reference(board, moves, **kw)
    return ours, theirs


def _videos():
    from fastmine.videos import play_video, read_video
    from fastmine.videos.rebuild import rebuild

    for path in sorted(VIDEOS.glob("*")):
        if path.suffix in (".avf", ".rmv", ".mvf", ".evf") and "invalid" not in path.name:
            video = read_video(path)
            yield path.name, rebuild(video, play_video(video))


@pytest.mark.parametrize("name,game", list(_videos()), ids=lambda x: x if isinstance(x, str) else "")
def test_real_games(monkeypatch, name, game):
    ours, theirs = judge_both(monkeypatch, game.board, game.moves, rule=game.rule,
                              question_marks=game.question_marks)
    assert_same_verdicts(theirs, ours)


# monkeypatch is only used inside its own context, undone within each example
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**31 - 1), st.sampled_from(["beginner", "intermediate", "expert"]))
def test_solver_played_games_with_guesses_and_marks(monkeypatch, seed, level):
    """Games a player could play: safe opens, chords, flags (right and wrong),
    question marks, and guesses taken while safe cells existed."""
    rng = np.random.default_rng(seed)
    rows, cols, mines = fastmine.DIFFICULTIES[level]
    board = fastmine.Board.generate(rows, cols, mines, seed=seed, first_click=(0, 0),
                                    rule="opening")
    game = fastmine.Game.from_board(board)
    moves = [("reveal", 0, 0)]
    game.reveal(0, 0)
    while game.state is fastmine.GameState.PLAYING and len(moves) < 150:
        view = game.view
        a = probability.analyze(view, mines)
        x = rng.random()
        if x < 0.15:
            r, c = (int(v) for v in np.argwhere(view < 0)[rng.integers(int((view < 0).sum()))])
            kind = "mark"
        elif x < 0.3 and (view >= 1).any():
            r, c = (int(v) for v in np.argwhere(view >= 1)[rng.integers(int((view >= 1).sum()))])
            kind = "chord"
        else:
            cells = np.argwhere(a.safe) if a.safe.any() and x < 0.9 else np.argwhere(view < 0)
            r, c = (int(v) for v in cells[rng.integers(len(cells))])
            kind = "reveal"
        moves.append((kind, r, c))
        {"mark": game.toggle_mark, "chord": game.chord, "reveal": game.reveal}[kind](r, c)
    ours, theirs = judge_both(monkeypatch, board, moves, rule="opening")
    assert_same_verdicts(theirs, ours)


def _five_safe_reveals(kept: object = None) -> object:
    """A replay of a 9x9 game's first click and five safe reveals, run to its end."""
    from fastmine.coach import _replay
    from fastmine.solver import _workspace

    board = fastmine.Board.generate(9, 9, 10, seed=4, first_click=(4, 4), rule="opening")
    game = fastmine.Game.from_board(board)
    game.reveal(4, 4)
    safe = [tuple(int(v) for v in p) for p in np.argwhere(~board.mines & (game.view < 0))][:5]
    moves = np.array([(0, 4, 4)] + [(0, r, c) for r, c in safe], np.int64)
    replay = _replay.Replay(_workspace.Workspace(), board._pm, board._pc, 9, 9, 10, moves,
                            True, float("inf"), probability.DEFAULT_MAX_ENTRIES, None,
                            judging.MARGIN, None, kept)
    while replay.run(replay.at, replay.status == _replay.SAFE_PLAY) == _replay.SAFE_PLAY:
        pass
    assert replay.status == _replay.DONE and replay.at == len(moves)
    return replay


def test_the_replay_counts_only_what_a_move_changed():
    """The whole view is read once for the game: each later position keeps the
    components a move did not touch, and none goes to the solver's count from
    scratch (the answers stay the reference's: see the other tests)."""
    replay: Any = _five_safe_reveals()
    assert replay.fresh == 0
    assert replay.counter.rebuilt == 1 and replay.counter.handed_back == 0


def test_a_replay_hands_a_large_component_to_the_solver():
    """With a one-step budget the label counter hands the position back: the
    solver counts it from scratch, then the next positions from what its last
    count proved, before the counter is tried again."""
    from fastmine.solver._kept import Counter

    replay: Any = _five_safe_reveals((Counter(1, 9, 9, 10, budget=1), np.zeros((1, 81))))
    assert replay.counter.handed_back == 1 and replay.fresh == 1


def test_verdict_s_own_init_takes_every_field_in_order():
    """Verdict writes its fields in one update (its dataclass __init__ is off):
    every field is a parameter, in order, with its default, and is set."""
    import inspect

    fields = dataclasses.fields(judging.Verdict)
    params = list(inspect.signature(judging.Verdict.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        want = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == want, f.name
    args = list(range(len(fields)))
    v = judging.Verdict(*args)
    assert [getattr(v, f.name) for f in fields] == args
    assert v == judging.Verdict(**{f.name: a for f, a in zip(fields, args, strict=True)})
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.risk = 0.5  # type: ignore[misc]
    assert dataclasses.replace(v, risk=0.25).risk == 0.25 and hash(v) == hash(judging.Verdict(*args))
