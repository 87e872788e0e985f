"""The coach's judging done move by move in Python: the reference the
compiled replay of :func:`fastmine.coach.analyze` is checked against.

Each move is judged by ``judging._verdict`` (the live coach's own path, one
:class:`fastmine.Game` and one :class:`IncrementalAnalyzer`) before it is
made on the game, exactly as ``analyze`` did before its loop was compiled.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import numpy as np

from fastmine.board import Board, Rule, _check_rule
from fastmine.coach import judging
from fastmine.game import Game


def analyze_reference(board: Board, moves: Iterable[Any], *, rule: Rule = "opening",
                      question_marks: bool = True,
                      budget: float | None = None) -> list[judging.Verdict]:
    """What :func:`fastmine.coach.analyze` gives, one move at a time."""
    if not isinstance(board, Board):
        raise TypeError(f"analyze needs a fastmine.Board, got {type(board).__name__}")
    rule = _check_rule(rule)
    deadline = None if budget is None else time.monotonic() + judging._seconds(budget)
    game = Game.from_board(board, question_marks=question_marks, clock=lambda: 0.0)
    cache = judging._Cache(game, deadline)
    verdicts: list[judging.Verdict] = []
    if isinstance(moves, np.ndarray) and moves.ndim == 2 and moves.dtype.kind in "iu":
        moves = moves.tolist()
    for i, m in enumerate(moves):
        kind, r, c, cycle = judging._move(m, i)
        v = judging._verdict(game, board, rule, cache, i, kind, r, c)
        if kind == "mark":
            game.question_marks = question_marks if cycle is None else cycle
            game.toggle_mark(r, c)
        elif kind == "chord":
            game.chord(r, c)
        else:
            game.reveal(r, c)
        verdicts.append(v)
    return verdicts


def same_verdicts(a: list[judging.Verdict], b: list[judging.Verdict]) -> None:
    """Assert two verdict lists agree: every field equal, floats to 1e-12 (two
    ways of counting the same layouts may add them in another order, which
    moves the last bit of a probability)."""
    import pytest

    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.__dict__.keys() == y.__dict__.keys()
        for key, vx in x.__dict__.items():
            vy = y.__dict__[key]
            assert type(vx) is type(vy), (key, x, y)
            if isinstance(vx, float):
                assert vx == pytest.approx(vy, abs=1e-12), (key, x, y)
            else:
                assert vx == vy, (key, x, y)
