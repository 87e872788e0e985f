"""Large boards: finite probabilities that sum to the mine count, sound certain cells,
and a bounded, flagged approximation when a component is too big to count."""

from __future__ import annotations

import numpy as np
import pytest

import fastmine
from fastmine import solver


def check(a: solver.Analysis, board: fastmine.Board, view: np.ndarray) -> None:
    """Invariants that hold for any position of a real board, exact or not."""
    p = a.probabilities
    unknown = view < 0
    assert np.isnan(p[~unknown]).all()
    assert np.isfinite(p[unknown]).all()
    assert ((p[unknown] >= 0) & (p[unknown] <= 1)).all()
    # every layout has exactly `mines` mines, so the expected count is the mine count
    assert p[unknown].sum() == pytest.approx(board.mine_count, rel=1e-9)
    # certain means certain: never a mine among the safe cells, never a safe mine
    assert not (a.safe & board.mines).any()
    assert not (a.mine & ~board.mines).any()
    assert (p[a.safe] == 0).all() and (p[a.mine] == 1).all()
    assert np.isfinite(a.log_solutions)


def play(board: fastmine.Board, moves: int, rng) -> fastmine.Game:
    """Play by the engine: reveal certain cells, else the least likely mine (may lose)."""
    game = fastmine.Game.from_board(board)
    safe = np.argwhere(~board.mines)
    r, c = safe[rng.integers(len(safe))]
    game.reveal(int(r), int(c))
    for _ in range(moves):
        if game.state is not fastmine.GameState.PLAYING:
            break
        a = solver.analyze(game)
        check(a, board, game.view)
        if len(a.safe_cells):
            for r, c in a.safe_cells:
                game.reveal(int(r), int(c))
        else:
            p = np.where(np.isnan(a.probabilities), 2.0, a.probabilities)
            game.reveal(*map(int, np.unravel_index(int(np.argmin(p)), p.shape)))
    return game


def scattered(board: fastmine.Board, fraction: float, rng) -> fastmine.Game:
    """Reveal a random share of the safe cells: islands of numbers everywhere."""
    game = fastmine.Game.from_board(board)
    safe = np.argwhere(~board.mines)
    rng.shuffle(safe)
    for r, c in safe[: int(fraction * len(safe))]:
        if game.view[r, c] < 0:
            game.reveal(int(r), int(c))
    return game


@pytest.mark.parametrize("rows, cols, mines, moves", [
    (50, 50, 500, 40),
    (100, 100, 2000, 25),
    (100, 100, 1200, 25),
])
def test_played_big_boards(rows, cols, mines, moves):
    rng = np.random.default_rng(rows + mines)
    board = fastmine.Board.generate(rows, cols, mines, first_click=(rows // 2, cols // 2),
                                    seed=int(rng.integers(2**31)))
    game = play(board, moves, rng)
    if game.state is fastmine.GameState.PLAYING:
        a = solver.analyze(game)
        check(a, board, game.view)
        assert a.exact  # ordinary play stays exact


@pytest.mark.parametrize("fraction", [0.05, 0.3, 0.6])
def test_scattered_100x100(fraction):
    rng = np.random.default_rng(7)
    board = fastmine.Board.generate(100, 100, 2000, first_click=(0, 0), rule="none", seed=3)
    game = scattered(board, fraction, rng)
    check(solver.analyze(game), board, game.view)


def test_tiny_budget_degrades_to_a_flagged_sound_approximation():
    rng = np.random.default_rng(11)
    board = fastmine.Board.generate(50, 50, 500, first_click=(25, 25), seed=5)
    game = play(board, 15, rng)
    assert game.state is fastmine.GameState.PLAYING
    exact = solver.analyze(game)
    rough = solver.analyze(game, max_entries=50)
    assert exact.exact and not rough.exact
    assert rough.blocks > rough.components
    check(rough, board, game.view)
    # a relaxation can only lose certainty, never invent it
    assert not (rough.safe & ~exact.safe).any()
    assert not (rough.mine & ~exact.mine).any()


def test_huge_counts_do_not_overflow():
    # C(10000, 5000) ~ 1e3008: far beyond float range, fine in log space
    view = np.full((100, 100), fastmine.HIDDEN)
    a = solver.analyze(view, 5000)
    assert (a.probabilities == 0.5).all()
    assert a.log_solutions == pytest.approx(6926.6, abs=0.1)
    view[50, 50] = 3
    p = solver.probabilities(view, 5000)
    assert p[49, 49] == pytest.approx(3 / 8)
    assert np.nansum(p) == pytest.approx(5000)


def scattered_view(n: int, density: float, revealed: float, seed: int = 1):
    """A board with a share of its safe cells revealed at random: thousands of
    independent regions, the worst case for combining them."""
    board = fastmine.Board.generate(n, n, int(n * n * density), rule="none", seed=seed)
    pick = ~board.mines & (np.random.default_rng(seed).random((n, n)) < revealed)
    view = np.full((n, n), fastmine.HIDDEN, np.int8)
    view[pick] = board.counts[pick]
    return view, board


def test_a_position_too_large_to_combine_is_refused_before_allocating():
    # 300x300, 30% mines, half the safe cells revealed: the combination step
    # took 191 s and 5.7 GB (1000x1000 tried 99 GiB).  Run under a 3 GB
    # address-space limit, so the old behaviour fails fast instead of
    # filling the machine.
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        sys.path.insert(0, sys.argv[1])
        from test_probability_big import scattered_view
        from fastmine import solver
        for n, d in ((300, 0.3), (1000, 0.2)):
            view, board = scattered_view(n, d, 0.5)
            try:
                solver.analyze(view, board.mine_count)
            except solver.PositionTooLargeError as e:
                assert isinstance(e, ValueError) and "max_entries" in str(e), e
                print("refused", n)
    """)
    import os

    here = os.path.dirname(__file__)
    proc = subprocess.run([sys.executable, "-c", code, here], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["refused", "300", "refused", "1000"]


def test_scattered_positions_below_the_budget_still_work():
    # Many independent regions, but within the combination's budget.
    for n, density, revealed in ((100, 0.2, 0.1), (200, 0.2, 0.05), (60, 0.3, 0.5)):
        view, board = scattered_view(n, density, revealed)
        a = solver.analyze(view, board.mine_count)
        assert a.blocks > 100 or n == 60
        check(a, board, view)
