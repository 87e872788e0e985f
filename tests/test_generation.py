"""Board.generate: seeds, first-click rules, exact mine counts, uniformity, density."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import RefBoard

from fastmine import Board, Game, GameState

#: Reject uniformity only below this p-value.  Every sample below comes from a
#: fixed seed, so a pass is a pass for good; the threshold only guards against
#: having picked an unlucky seed.
P_MIN = 1e-4


def chi2_sf(x: float, df: int) -> float:
    """Upper tail of the chi-square distribution with ``df`` degrees of freedom.

    1 - P(df/2, x/2), with the regularized lower incomplete gamma function P
    from its power series (fine for the p-values that matter here; no scipy).
    """
    a, y = df / 2, x / 2
    term = total = 1 / a
    n = 0
    while term > 1e-17 * total:
        n += 1
        term *= y / (a + n)
        total += term
    return max(0.0, 1 - math.exp(a * math.log(y) - y - math.lgamma(a)) * total)


def test_chi2_sf_sanity():
    # Known quantiles (from tables / scipy.stats.chi2.isf).
    assert chi2_sf(18.307038, 10) == pytest.approx(0.05, rel=1e-5)
    assert chi2_sf(95.968748, 50) == pytest.approx(1e-4, rel=1e-4)
    assert chi2_sf(3.841459, 1) == pytest.approx(0.05, rel=1e-5)


def mine_sets(n, rows, cols, mines, first_click, rule, seed):
    """The mine positions (as sorted flat-index tuples) of n boards from one seed."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = Board.generate(rows, cols, mines, first_click=first_click, rule=rule, seed=rng)
        assert b.mine_count == mines == int(b.mines.sum())
        out.append(tuple(np.flatnonzero(b.mines).tolist()))
    return out


def allowed_cells(rows, cols, first_click, radius):
    fr, fc = first_click
    return [r * cols + c for r in range(rows) for c in range(cols)
            if not (radius >= 0 and abs(r - fr) <= radius and abs(c - fc) <= radius)]


@pytest.mark.parametrize("rows, cols, mines, click, rule, radius, seed", [
    (2, 3, 2, (0, 0), "none", -1, 11),       # C(6, 2) = 15 layouts
    (3, 3, 3, (1, 1), "cell", 0, 12),        # C(8, 3) = 56
    (4, 4, 2, (0, 0), "opening", 1, 13),     # C(12, 2) = 66
    (3, 4, 9, (1, 2), "cell", 0, 14),        # dense: C(11, 9) = 55, safe side chosen
    (4, 4, 11, (0, 3), "opening", 1, 15),    # dense: C(12, 11) = 12
])
def test_every_layout_equally_likely(rows, cols, mines, click, rule, radius, seed):
    """Chi-square over every possible layout: the whole distribution is uniform."""
    layouts = list(combinations(allowed_cells(rows, cols, click, radius), mines))
    n = 200 * len(layouts)
    seen = Counter(mine_sets(n, rows, cols, mines, click, rule, seed))
    assert set(seen) <= set(layouts)  # nothing outside the allowed cells
    expected = n / len(layouts)
    x = sum((seen[lay] - expected) ** 2 / expected for lay in layouts)
    assert chi2_sf(x, len(layouts) - 1) > P_MIN


@pytest.mark.parametrize("rows, cols, mines, click, rule, radius, seed", [
    (9, 9, 10, (4, 4), "opening", 1, 21),
    (9, 9, 10, (0, 0), "cell", 0, 22),
    (16, 30, 99, (0, 29), "opening", 1, 23),
    (6, 5, 27, (2, 2), "cell", 0, 24),
    (1, 40, 20, (0, 5), "opening", 1, 25),
])
def test_each_allowed_cell_equally_likely(rows, cols, mines, click, rule, radius, seed):
    """Chi-square over cells for boards too big to list every layout."""
    allowed = allowed_cells(rows, cols, click, radius)
    n_allowed = len(allowed)
    n = 3000
    hits = np.zeros(rows * cols, np.int64)
    for lay in mine_sets(n, rows, cols, mines, click, rule, seed):
        hits[list(lay)] += 1
    assert hits.sum() == n * mines
    assert hits[np.setdiff1d(np.arange(rows * cols), allowed)].sum() == 0
    # Each cell is mined with probability p on every board, and the cells of one
    # board are negatively correlated (sampling without replacement); with that
    # correction the statistic is chi-square with n_allowed - 1 degrees of freedom.
    p = mines / n_allowed
    var = n * p * (1 - p) * n_allowed / (n_allowed - 1)
    x = float(((hits[allowed] - n * p) ** 2).sum() / var)
    assert chi2_sf(x, n_allowed - 1) > P_MIN


@given(
    st.integers(1, 30), st.integers(1, 30), st.data(),
    st.sampled_from(["cell", "opening", "none"]), st.integers(0, 2**64 - 1),
)
@settings(max_examples=300)
def test_first_click_rules(rows, cols, data, rule, seed):
    cells = rows * cols
    if cells < 2:
        cols = 2
        cells = rows * cols
    mines = data.draw(st.one_of(st.integers(1, cells - 1), st.sampled_from([1, cells - 1])))
    fr = data.draw(st.integers(0, rows - 1))
    fc = data.draw(st.integers(0, cols - 1))
    b = Board.generate(rows, cols, mines, first_click=(fr, fc), rule=rule, seed=seed)
    assert b.mine_count == mines == int(b.mines.sum())
    assert b.counts.tolist() == RefBoard(b.mines.tolist()).counts
    block = b.mines[max(fr - 1, 0):fr + 2, max(fc - 1, 0):fc + 2]
    fits = mines <= cells - block.size
    if rule == "cell" or (rule == "opening" and not fits):
        assert not b.mines[fr, fc]
    elif rule == "opening":
        assert not block.any()
        assert b.counts[fr, fc] == 0
        game = Game.from_board(b)
        game.reveal(fr, fc)
        assert (game.view[max(fr - 1, 0):fr + 2, max(fc - 1, 0):fc + 2] >= 0).all()
    # Reproducible: the same seed gives the same board.
    assert Board.generate(rows, cols, mines, first_click=(fr, fc), rule=rule, seed=seed) == b


def test_opening_falls_back_to_cell_when_too_dense():
    # 3x3 with 8 mines: only the clicked cell can be safe.
    for seed in range(5):
        b = Board.generate(3, 3, 8, first_click=(1, 1), rule="opening", seed=seed)
        assert b.mines.sum() == 8 and not b.mines[1, 1]
    # A corner click has a 2x2 block: 5 mines fit outside it, 6 do not.
    b = Board.generate(3, 3, 5, first_click=(0, 0), rule="opening", seed=1)
    assert not b.mines[:2, :2].any()
    b = Board.generate(3, 3, 6, first_click=(0, 0), rule="opening", seed=1)
    assert not b.mines[0, 0] and b.mines.sum() == 6


def test_rule_none_can_put_a_mine_under_the_click():
    hit = sum(Board.generate(2, 2, 3, first_click=(0, 0), rule="none", seed=s).mines[0, 0]
              for s in range(40))
    assert 0 < hit < 40
    b = Board.generate(2, 2, 3, rule="none", seed=1)  # no first click needed
    assert b.mine_count == 3


@pytest.mark.parametrize("rows, cols", [(1, 2), (2, 1), (3, 3), (5, 7), (40, 40)])
@pytest.mark.parametrize("rule", ["cell", "opening"])
def test_highest_densities(rows, cols, rule):
    cells = rows * cols
    for mines in (cells - 1, cells - 2):
        if mines < 1:
            continue
        click = (rows - 1, cols // 2)
        b = Board.generate(rows, cols, mines, first_click=click, rule=rule, seed=5)
        assert b.mines.sum() == mines and not b.mines[click]
        game = Game(rows, cols, mines, rule=rule, seed=5)
        game.reveal(*click)
        assert game.state is not GameState.LOST
        if mines == cells - 1:
            assert game.state is GameState.WON


def test_seeds():
    a = Board.generate(16, 30, 99, first_click=(3, 3), seed=123)
    assert a == Board.generate(16, 30, 99, first_click=(3, 3), seed=123)
    assert a == Board.generate(16, 30, 99, first_click=(3, 3), seed=np.int64(123))
    assert a != Board.generate(16, 30, 99, first_click=(3, 3), seed=124)
    # Seeds are 64-bit; a bigger one is refused, not cut (2**64 was seed 0's board).
    assert a == Board.generate(16, 30, 99, first_click=(3, 3), seed=123)
    top = Board.generate(16, 30, 99, first_click=(3, 3), seed=2**64 - 1)
    assert top != Board.generate(16, 30, 99, first_click=(3, 3), seed=0)
    for big in (2**64, 123 + 2**64, 2**100):
        with pytest.raises(ValueError, match="2\\*\\*64"):
            Board.generate(16, 30, 99, first_click=(3, 3), seed=big)
        with pytest.raises(ValueError, match="2\\*\\*64"):
            Game(16, 30, 99, seed=big)
    # A numpy Generator is consumed: reproducible as a sequence.
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    seq1 = [Board.generate(9, 9, 10, first_click=(0, 0), seed=g1) for _ in range(3)]
    seq2 = [Board.generate(9, 9, 10, first_click=(0, 0), seed=g2) for _ in range(3)]
    assert seq1 == seq2 and seq1[0] != seq1[1]
    # No seed: fresh randomness each time.
    boards = {Board.generate(16, 30, 99, first_click=(0, 0)) for _ in range(5)}
    assert len(boards) == 5


def test_game_seed_reproduces_the_game():
    def play(seed):
        g = Game(16, 16, 40, seed=seed)
        g.reveal(7, 7)
        return g.board, g.view.copy()

    (b1, v1), (b2, v2) = play(77), play(77)
    assert b1 == b2 and np.array_equal(v1, v2)
    assert play(78)[0] != b1


def test_game_lays_mines_at_first_reveal():
    g = Game(9, 9, 10, rule="opening", seed=3)
    assert g.board is None
    g.toggle_mark(4, 4)  # marks do not lay mines
    assert g.board is None
    g.toggle_mark(4, 4)
    g.toggle_mark(4, 4)
    g.reveal(4, 4)
    assert g.board is not None and g.board.mine_count == 10
    assert g.board == Board.generate(9, 9, 10, first_click=(4, 4), rule="opening", seed=3)
    assert g.view[4, 4] == 0


def test_generate_doc_example_counts():
    b = Board.generate(9, 9, 10, first_click=(4, 4), seed=1)
    assert b.counts.tolist() == RefBoard(b.mines.tolist()).counts
    assert b.bbbv() == RefBoard(b.mines.tolist()).bbbv()
