"""timedmoves.parse takes plain-int tuples by a short path: the same answers, the same errors.

Lists of the same values go through the general checks, the reference here.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from fastmine import timedmoves

KINDS = st.one_of(st.sampled_from(["reveal", "mark", "chord", "flag", ""]), st.integers(-2, 10),
                  st.booleans(), st.just(np.int64(2)))
CELL = st.one_of(st.integers(-2, 9), st.booleans(), st.just(np.int32(1)), st.just(1.0))
MS = st.one_of(st.integers(-5, 3000), st.just(10**13), st.booleans(), st.floats(-1, 3000),
               st.just(np.int64(5)))


def outcome(moves, qm):
    try:
        return timedmoves.parse(moves, 7, 8, qm)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(KINDS, CELL, CELL, MS), max_size=8), st.booleans())
def test_tuples_as_lists(moves, qm):
    assert outcome(moves, qm) == outcome([list(m) for m in moves], qm)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["reveal", "mark", "chord", 0, 1, 2, 3, 4, 6]),
                          st.integers(0, 6), st.integers(0, 7), st.integers(0, 50)),
                max_size=30), st.booleans())
def test_good_moves(moves, qm):
    moves = sorted(moves, key=lambda m: m[3])
    assert outcome(moves, qm) == outcome([list(m) for m in moves], qm)
