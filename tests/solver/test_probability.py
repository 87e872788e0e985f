"""Exact probabilities: against brute-force enumeration and a golden file of textbook positions."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from prob_reference import brute_force, play_random_position

import fastmine
from fastmine import solver

GOLDEN = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "golden_positions.json").read_text()
)
CHARS = {".": fastmine.HIDDEN, "F": fastmine.FLAG, "?": fastmine.QUESTION}


def parse(rows: list[str]) -> np.ndarray:
    return np.array([[CHARS[ch] if ch in CHARS else int(ch) for ch in row]
                     for row in rows], np.int8)


def assert_matches(view: np.ndarray, mines: int, total: int, exact: dict) -> None:
    """The engine agrees with exact fractions: values, certainty, counts."""
    a = solver.analyze(view, mines)
    assert a.exact
    assert a.log_solutions == pytest.approx(math.log(total), abs=1e-9)
    for (r, c), f in exact.items():
        p = a.probabilities[r, c]
        assert p == pytest.approx(float(f), abs=1e-12), ((r, c), p, f)
        # certainty is decided exactly, and P is 0/1 exactly when certain
        assert a.safe[r, c] == (f == 0) == (p == 0.0), ((r, c), p, f)
        assert a.mine[r, c] == (f == 1) == (p == 1.0), ((r, c), p, f)
    assert np.isnan(a.probabilities[view >= 0]).all()
    assert not (a.safe | a.mine)[view >= 0].any()


@pytest.mark.parametrize("entry", GOLDEN, ids=[e["name"] for e in GOLDEN])
def test_golden_positions(entry):
    view = parse(entry["view"])
    exact = {(r, c): Fraction(x) for r, row in enumerate(entry["expect"])
             for c, x in enumerate(row) if x is not None}
    assert_matches(view, entry["mines"], entry["layouts"], exact)


@pytest.mark.parametrize("entry", GOLDEN, ids=[e["name"] for e in GOLDEN])
def test_golden_file_agrees_with_brute_force(entry):
    view = parse(entry["view"])
    total, probs = brute_force(view, entry["mines"])
    assert total == entry["layouts"]
    for (r, c), f in probs.items():
        assert Fraction(entry["expect"][r][c]) == f


@pytest.mark.parametrize("seed", range(12))
def test_random_played_positions_match_brute_force(seed):
    """~25 positions per seed from real games (flags and question marks included)."""
    rng = np.random.default_rng(seed)
    checked = 0
    while checked < 25:
        rows, cols = int(rng.integers(2, 8)), int(rng.integers(2, 8))
        mines = int(rng.integers(1, max(2, rows * cols // 3)))
        if mines >= rows * cols:
            continue
        view, mines = play_random_position(rng, rows, cols, mines)
        if (view < fastmine.QUESTION).any() or (view >= 0).all():
            continue  # lost on the first click, or nothing left to ask
        res = brute_force(view, mines)
        if res is None:
            continue
        assert_matches(view, mines, *res)
        checked += 1


@st.composite
def partial_views(draw):
    """Any mine layout with any set of its safe cells revealed (so it is consistent)."""
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(2, 5))
    n = rows * cols
    mines = draw(st.integers(0, n))
    layout = np.zeros(n, bool)
    layout[draw(st.permutations(range(n)))[:mines]] = True
    layout = layout.reshape(rows, cols)
    safe = np.argwhere(~layout)
    shown = draw(st.lists(st.booleans(), min_size=len(safe), max_size=len(safe)))
    view = np.full((rows, cols), fastmine.HIDDEN, np.int8)
    padded = np.pad(layout, 1).astype(np.int8)
    counts = sum(padded[1 + dr:1 + dr + rows, 1 + dc:1 + dc + cols]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    for (r, c), s in zip(safe, shown, strict=True):
        if s:
            view[r, c] = counts[r, c]
    return view, mines


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(partial_views())
def test_arbitrary_partial_views_match_brute_force(case):
    # includes views where only the total mine count decides (scattered isolated cells)
    view, mines = case
    res = brute_force(view, mines)
    if res is None:
        return
    if (view >= 0).all():
        assert mines == 0
        assert np.isnan(solver.probabilities(view, 0)).all()
        return
    assert_matches(view, mines, *res)


def test_only_the_mine_count_decides():
    # a 1 between two cells, and a far cell no number sees: the count settles it
    view = parse([".1.."])
    assert solver.probabilities(view, 1)[0, 3] == 0.0
    assert solver.probabilities(view, 2)[0, 3] == 1.0
    assert solver.safe_cells(view, 1).tolist() == [[0, 3]]
    assert solver.mine_cells(view, 2).tolist() == [[0, 3]]
    # the count weighs the frontier's layouts: b alone (4 ways) vs a and c (1 way)
    p = solver.probabilities(parse([".1.1....."]), 2)[0]
    assert p[[0, 2, 4]] == pytest.approx([0.2, 0.8, 0.2])
    assert p[5:] == pytest.approx([0.2] * 4)


def test_cells_api_agrees_with_masks_and_probabilities():
    rng = np.random.default_rng(99)
    for _ in range(30):
        view, mines = play_random_position(rng, 6, 7, 8, max_unknown=30)
        if (view < fastmine.QUESTION).any() or (view >= 0).all():
            continue
        a = solver.analyze(view, mines)
        p = a.probabilities
        for cells, mask, value, fn in ((a.safe_cells, a.safe, 0.0, solver.safe_cells),
                                       (a.mine_cells, a.mine, 1.0, solver.mine_cells)):
            assert cells.dtype == np.intp and cells.ndim == 2 and cells.shape[1] == 2
            assert cells.tolist() == np.argwhere(p == value).tolist() == np.argwhere(mask).tolist()
            assert fn(view, mines).tolist() == cells.tolist()
        assert np.nansum(p) == pytest.approx(mines)
        unknown = ~np.isnan(p)
        assert ((p[unknown] >= 0) & (p[unknown] <= 1)).all()
        assert a.unknown.tolist() == unknown.tolist()
        if a.interior.any():
            assert (p[a.interior] == a.interior_probability).all()


def test_grouping_and_components_are_reported():
    a = solver.analyze(parse(["...", ".1.", "..."]), 1)   # 8 cells, one constraint set
    assert (a.frontier_cells, a.variables, a.components) == (8, 1, 1)
    assert a.probabilities[0, 0] == pytest.approx(1 / 8)
    a = solver.analyze(parse(["..", "11", "11", ".."]), 2)  # two separate pockets
    assert (a.variables, a.components) == (2, 2)


def test_game_can_be_passed_directly():
    board = fastmine.Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    game = fastmine.Game.from_board(board)
    game.reveal(0, 2)
    a = solver.analyze(game)
    assert a.mines == 2
    np.testing.assert_array_equal(solver.probabilities(game), solver.probabilities(game.view, 2))
    # a revealed game position is never "inconsistent"
    assert np.nansum(a.probabilities) == pytest.approx(2)


def test_log_solutions_counts_layouts_and_is_minus_inf_when_none():
    view = parse([".1.1....."])
    assert np.exp(solver.log_solutions(view, 2)) == pytest.approx(5)
    assert solver.log_solutions(parse(["..", "11"]), 2) == float("-inf")
    with pytest.raises(ValueError):
        solver.log_solutions(view, -1)
    # ratios of counts are probabilities: P(a 1 shows at (0,0)) = layouts(with) / layouts
    with_one = view.copy()
    with_one[0, 4] = 1  # reveal c (0,4) as a 1: c safe, exactly one of b and (0,5)
    p = np.exp(solver.log_solutions(with_one, 2) - solver.log_solutions(view, 2))
    total, _ = brute_force(with_one, 2)
    assert p == pytest.approx(total / 5)
