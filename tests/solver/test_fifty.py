"""The long-term 50/50 risk (fastmine.solver.fifty): exact shares, shapes, and the player option."""

from __future__ import annotations

import brute_force
import numpy as np
import pytest
from fifty_reference import ReferenceRisk
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from solver_fixtures import needs_exact, small_games

import fastmine
from fastmine.solver import _workspace, analyze, paired, safe_cells
from fastmine.solver.fifty import WEIGHT, FiftyRisk
from fastmine.solver.runs import Config, run_configs


def risk_of(view, mines):
    return FiftyRisk(_workspace.Workspace(), view, mines, analyze(view, mines))


@needs_exact
@settings(max_examples=80, deadline=None)
@given(small_games(max_mines=5), st.data())
def test_layouts_with_known_cells_match_brute_force(case, data):
    view, mines, state = case
    assume(state is fastmine.GameState.PLAYING)
    hidden = [tuple(int(x) for x in rc) for rc in np.argwhere(view < 0)]
    chosen = data.draw(st.lists(st.sampled_from(hidden), unique=True, max_size=min(4, len(hidden))))
    k = data.draw(st.integers(0, len(chosen)))
    mines_at, safe_at = chosen[:k], chosen[k:]
    lays = brute_force.layouts(view, mines)
    want = np.mean([all(L[x] for x in mines_at) and not any(L[x] for x in safe_at)
                    for L in lays])
    before = view.copy()
    assert risk_of(view, mines).layouts_with(mines_at, safe_at) == pytest.approx(want, abs=1e-9)
    assert np.array_equal(view, before)


@needs_exact
def test_a_closed_block_raises_every_cell_by_the_rule():
    """2x2, two mines, nothing revealed: each cell is in two pairs whose ends are
    off the board (share 1/3 each: it a mine, its neighbour safe) and in the block
    (mines on a diagonal: 1/6); capped at P(mine) = 1/2, so 1 + 0.9 * 1/2 / 1/2."""
    view = np.full((2, 2), -1, np.int8)
    risk = risk_of(view, 2)
    assert risk.pseudo() is None
    assert risk.layouts_with([(0, 0)], [(0, 1)]) == pytest.approx(1 / 3)
    assert risk.layouts_with([(0, 0), (1, 1)], [(0, 1), (1, 0)]) == pytest.approx(1 / 6)
    for r in range(2):
        for c in range(2):
            assert risk.factor(r, c) == pytest.approx(1 + WEIGHT)


@needs_exact
def test_the_cells_a_shape_needs_as_mines_share_its_chance():
    """1x4, two mines: (0,0)-(0,1) closes when (0,2) is a mine too (share 1/6),
    and (0,2)-(0,3) when (0,1) is.  (0,1) is in the first shape and is the
    needed mine ("enabler") of the second: 1/3 of the layouts, against its
    P(mine) = 1/2; (0,0) is in the first only."""
    view = np.full((1, 4), -1, np.int8)
    risk = risk_of(view, 2)
    assert risk.pseudo() is None
    assert risk.factor(0, 1) == pytest.approx(1 + WEIGHT * (1 / 3) / (1 / 2))
    assert risk.factor(0, 0) == pytest.approx(1 + WEIGHT * (1 / 6) / (1 / 2))


@needs_exact
def test_a_pair_that_is_always_the_mine_is_a_pseudo_fifty():
    view = np.full((1, 2), -1, np.int8)            # one mine in two cells, nothing else
    assert risk_of(view, 1).pseudo() == (0, 0)
    # a revealed number at an end means the shape cannot form
    view = np.array([[-1, -1, 1, 0]], np.int8)
    risk = risk_of(view, 1)
    assert risk.pseudo() is None
    assert risk.factor(0, 0) == 1.0


@needs_exact
def test_cells_away_from_any_shape_keep_their_score():
    g = fastmine.Game(16, 30, 99, seed=3)
    g.reveal(8, 15)
    risk = risk_of(g.view, 99)
    risk.pseudo()
    a = analyze(g.view, 99)
    open_ground = (g.view < 0) & ~a.mine
    cells = [(r, c) for r in range(16) for c in range(30) if g.view[r, c] < 0]
    factors = {x: risk.factor(*x) for x in cells}
    assert all(f >= 1.0 for f in factors.values())
    assert any(f > 1.0 for f in factors.values())   # near the opening's known mines
    # with nothing but unknown ground three cells around, no shape can close
    far = [(r, c) for r, c in cells if 3 <= r < 13 and 3 <= c < 27
           and open_ground[r - 3:r + 4, c - 3:c + 4].all()]
    assert far and all(factors[x] == 1.0 for x in far)


@needs_exact
def test_the_option_plays_the_same_games_and_pairs_with_the_default():
    base = Config("beginner", 9, 9, 10, "cell", (0, 0), "best", long_term=False)
    risk = Config("beginner", 9, 9, 10, "cell", (0, 0), "best")
    assert risk.long_term                           # on by default
    assert base.key == risk.key                     # the same boards
    a = run_configs([base], games=60, seed=2, jobs=1, progress=False)
    b = run_configs([risk], games=60, seed=2, jobs=1, progress=False)
    assert a.results[0].won + a.results[0].lost == b.results[0].won + b.results[0].lost == 60


@needs_exact
def test_compare_pairs_a_run_without_the_option_with_a_default_run(tmp_path):
    from fastmine.cli import main

    common = ["solve", "-n", "30", "-d", "beginner", "-r", "cell", "-p", "corner", "-j", "1", "-q"]
    assert main(common + ["--no-long-term-risk", "--outcomes", str(tmp_path / "a.npz")]) == 0
    assert main(common + ["--outcomes", str(tmp_path / "b.npz")]) == 0
    rows = paired.compare(str(tmp_path / "a.npz"), str(tmp_path / "b.npz"))
    assert len(rows) == 1 and rows[0][1].games == 30


@needs_exact
def test_a_count_leaves_the_engine_strict():
    """Counting fixes cells on a prepared position, not through a view: after a
    count, a view showing a value outside -3..8 (9, say) is still refused."""
    view = np.full((1, 4), -1, np.int8)
    risk_of(view, 2).layouts_with([(0, 0)], [(0, 1)])
    bad = view.copy()
    bad[0, 0] = 9
    with pytest.raises(ValueError):
        analyze(bad, 2)


@needs_exact
def test_a_shared_workspace_is_refused_not_miscounted():
    """Each FiftyRisk keeps its position prepared in its workspace; once another
    position is prepared there, counting on the first raises instead of
    counting the wrong position."""
    ws = _workspace.Workspace()
    view = np.array([[1, -1, -1], [-1, -1, -1]], np.int8)
    first = FiftyRisk(ws, view, 2, analyze(view, 2))
    want = first.layouts_with([(0, 1)], [])
    other = np.array([[-1, -1, -1], [-1, -1, 0]], np.int8)
    FiftyRisk(ws, other, 1, analyze(other, 1))
    with pytest.raises(RuntimeError, match="workspace of its own"):
        first.layouts_with([(0, 1)], [])
    assert FiftyRisk(_workspace.Workspace(), view, 2, analyze(view, 2)).layouts_with(
        [(0, 1)], []) == pytest.approx(want)


def agrees_with_reference(view, mines):
    """The kernel's shapes, pseudo 50/50, enabler shares, factors and ceilings
    against the slow reference (tests/solver/fifty_reference.py)."""
    fast = risk_of(view, mines)
    slow = ReferenceRisk(risk_of(view, mines))
    rows, cols = view.shape
    miss = fast._miss
    left, slow.left = slow.left, 10**9       # the kernel's shapes: whatever they need
    for r in range(rows):
        for c in range(cols):
            for k, found in enumerate((slow.pair(r, c, 0, 1, 99), slow.pair(r, c, 1, 0, 99),
                                       slow.box(r, c, 99))):
                assert miss[k, r, c] == (-1 if found is None else len(found[1])), (k, r, c)
    slow.left = left
    assert fast.pseudo() == slow.pseudo()
    got = {(int(r), int(c)): float(fast._enablers[r, c]) for r, c in np.argwhere(fast._enablers)}
    assert got.keys() <= slow.enablers.keys()
    for x, share in slow.enablers.items():
        assert got.get(x, 0.0) == pytest.approx(share, rel=1e-12, abs=1e-300)
    a = fast.a
    checked = 0
    for r, c in np.argwhere((view < 0) & ~a.mine & (a.probabilities < 1.0)).tolist():
        f = fast.factor(r, c)
        assert f == pytest.approx(slow.factor(r, c), rel=1e-12)
        ceiling = fast.ceiling(r, c)
        assert ceiling >= f * (1 - 1e-12)
        assert (ceiling > 1.0) == (slow.near(r, c) or slow.enablers.get((r, c), 0.0) > 0.0)
        checked += f > 1.0
    return checked


@needs_exact
@settings(max_examples=60, deadline=None)
@given(small_games(max_side=7, max_mines=12, to_guess=True))
def test_the_kernel_matches_the_reference_on_small_positions(case):
    view, mines, state = case
    assume(state is fastmine.GameState.PLAYING)
    agrees_with_reference(view, mines)


@needs_exact
@pytest.mark.parametrize("rows, cols, mines, seeds", [(16, 30, 99, range(4)),
                                                      (16, 16, 40, range(4, 8))])
def test_the_kernel_matches_the_reference_in_real_games(rows, cols, mines, seeds):
    """Positions of real games: certain moves made, then the safest cell guessed."""
    raised = 0
    for seed in seeds:
        g = fastmine.Game(rows, cols, mines, seed=seed)
        g.reveal(0, 0)
        rng = np.random.default_rng(seed)
        for _ in range(6):
            while g.state is fastmine.GameState.PLAYING and len(cells := safe_cells(g.view, mines)):
                for r, c in cells:
                    if g.view[r, c] < 0:
                        g.reveal(int(r), int(c))
            if g.state is not fastmine.GameState.PLAYING:
                break
            raised += agrees_with_reference(g.view, mines)
            a = analyze(g.view, mines)
            p = np.where((g.view < 0) & ~a.mine, a.probabilities, 2.0)
            best = np.argwhere(p <= p.min() + 1e-9)
            g.reveal(*(int(x) for x in best[rng.integers(len(best))]))
    assert raised > 0       # the positions did have shapes that raise a factor


def test_an_analysis_of_another_board_is_refused():
    view = np.full((4, 4), -1, np.int8)
    with pytest.raises(ValueError, match="not of this view"):
        FiftyRisk(_workspace.Workspace(), view, 3, analyze(np.full((4, 5), -1, np.int8), 3))


@needs_exact
def test_layouts_with_refuses_cells_it_cannot_fix():
    g = fastmine.Game(9, 9, 10, seed=1)
    g.reveal(4, 4)
    risk = risk_of(g.view, 10)
    shown = tuple(int(x) for x in np.argwhere(g.view >= 0)[0])
    hidden = tuple(int(x) for x in np.argwhere(g.view < 0)[0])
    for mines, safes in (([(9, 0)], []), ([(-1, 2)], []), ([], [shown]),
                         ([hidden], [hidden]), ([(1, 2, 3), (4, 5, 6)], [])):
        with pytest.raises(ValueError):
            risk.layouts_with(mines, safes)
    probs = risk.a.probabilities
    for x in [tuple(int(v) for v in rc) for rc in np.argwhere(g.view < 0)[:20]]:
        assert risk.layouts_with([x], []) == pytest.approx(probs[x], abs=1e-12)
        assert risk.layouts_with([], [x]) == pytest.approx(1.0 - probs[x], abs=1e-12)
    assert risk.layouts_with([], []) == pytest.approx(1.0)
