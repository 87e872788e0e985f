"""No-guess boards: solvable from the first click by certain moves only."""

from __future__ import annotations

import numpy as np
import pytest
from solver_fixtures import HAS_EXACT, needs_exact

import fastmine
from fastmine.solver import no_guess
from fastmine.solver.logic import solves
from fastmine.solver.strategies import play


def win_by_certain_moves(board: fastmine.Board, first, certain) -> fastmine.GameState:
    """Play the board revealing only cells ``certain(view, mines)`` proves safe."""
    game = fastmine.Game.from_board(board)
    game.reveal(*first)
    while not game.state.is_over:
        safe = np.argwhere(certain(np.array(game.view), board.mine_count) & (game.view < 0))
        if len(safe) == 0:
            break
        for r, c in safe:
            if game.state.is_over:
                break
            game.reveal(int(r), int(c))
    return game.state


def local_safe(view, mines):
    from fastmine.solver.logic import local_deductions

    return local_deductions(view, mines)[0]


def exact_safe(view, mines):
    from fastmine.solver.probability import safe_cells

    safe = np.asarray(safe_cells(view, mines))
    if safe.dtype != np.bool_:
        mask = np.zeros(view.shape, bool)
        mask[tuple(safe.reshape(-1, 2).T)] = True
        safe = mask
    return safe


CASES = [
    ("beginner", (4, 4)), ("beginner", (0, 0)), ("intermediate", (3, 3)),
    ("expert", (7, 14)), ("expert", (0, 29)), ("hell", (12, 12)),
]


@pytest.mark.parametrize("name, first", CASES)
@pytest.mark.parametrize("seed", range(3))
def test_boards_are_won_by_certain_moves(name, first, seed):
    d = fastmine.DIFFICULTIES[name]
    board = no_guess.generate(d.rows, d.cols, d.mines, first, seed=seed)
    assert board.mine_count == d.mines == int(board.mines.sum())
    assert not board.mines[first]
    if name != "hell":   # dense boards cannot always open at the first click
        assert board.counts[first] == 0
    if HAS_EXACT:
        assert win_by_certain_moves(board, first, exact_safe) is fastmine.GameState.WON
    assert solves(board, first)


@pytest.mark.parametrize("method", ["rejection", "adjust"])
def test_methods_give_solvable_boards(method):
    for seed in range(5):
        board = no_guess.generate(16, 30, 99, (8, 15), seed=seed, method=method)
        assert solves(board, (8, 15), complete=False) or solves(board, (8, 15))


def test_adjust_boards_are_won_by_local_rules_alone():
    board = no_guess.generate(25, 25, 188, (12, 12), seed=3, method="adjust")
    assert win_by_certain_moves(board, (12, 12), local_safe) is fastmine.GameState.WON


def test_big_board():
    board = no_guess.generate(50, 50, 500, (25, 25), seed=1)
    assert solves(board, (25, 25))


@needs_exact
def test_best_strategy_never_guesses_on_a_no_guess_board():
    for seed in range(5):
        game = fastmine.Game(16, 30, 99, rule="no_guess", seed=seed)
        assert play(game, "best", rng=seed) is fastmine.GameState.WON


def test_same_seed_same_board():
    a = no_guess.generate(16, 30, 99, (3, 3), seed=42)
    b = fastmine.Board.generate(16, 30, 99, first_click=(3, 3), rule="no_guess", seed=42)
    assert a == b
    assert a != no_guess.generate(16, 30, 99, (3, 3), seed=43)


def test_tiny_boards():
    assert solves(no_guess.generate(1, 2, 1, (0, 0), seed=0), (0, 0))
    board = no_guess.generate(3, 3, 8, (1, 1), seed=0)    # one safe cell: the click
    assert board.mine_count == 8 and not board.mines[1, 1]


def test_time_bound():
    # 30x30 with 800 mines: no board can be cleared without guessing.
    with pytest.raises(fastmine.NoGuessTimeoutError, match="time_limit"):
        no_guess.generate(30, 30, 800, (15, 15), seed=0, time_limit=0.2)


def test_timeout_error_is_a_runtime_error():
    assert issubclass(fastmine.NoGuessTimeoutError, RuntimeError)


@pytest.mark.parametrize("kwargs, exc", [
    (dict(rows=0), ValueError),
    (dict(mines=81), ValueError),
    (dict(first_click=(9, 0)), ValueError),
    (dict(first_click="a1"), TypeError),
    (dict(seed=-1), ValueError),
    (dict(seed="x"), TypeError),
    (dict(time_limit=0), ValueError),
    (dict(time_limit="1"), TypeError),
    (dict(time_limit=float("nan")), ValueError),
    (dict(method="magic"), ValueError),
    (dict(method=3), TypeError),
])
def test_bad_arguments(kwargs, exc):
    args = dict(rows=9, cols=9, mines=10, first_click=(4, 4))
    args.update(kwargs)
    with pytest.raises(exc):
        no_guess.generate(**args)


@needs_exact
def test_rejection_is_complete():
    # A board only the exact engine (global reasoning) can finish is still accepted:
    # rejection sampling keeps every board `solves` accepts, never only the local ones.
    found = 0
    for seed in range(400):
        board = fastmine.Board.generate(5, 5, 5, first_click=(0, 0), rule="opening", seed=seed)
        if solves(board, (0, 0)) and not solves(board, (0, 0), complete=False):
            found += 1
    assert found > 0


def brute_force_no_guess_exists(rows: int, cols: int, mines: int, first) -> bool:
    """Whether any layout (first click safe, opening when it fits) is solvable."""
    from itertools import combinations

    from fastmine.board import opening_fits

    fr, fc = first
    radius = 1 if opening_fits(rows, cols, mines, fr, fc) else 0
    allowed = [(r, c) for r in range(rows) for c in range(cols)
               if not (abs(r - fr) <= radius and abs(c - fc) <= radius)]
    for cells in combinations(allowed, mines):
        mask = np.zeros((rows, cols), bool)
        for rc in cells:
            mask[rc] = True
        if solves(fastmine.Board.from_mines(mask), first):
            return True
    return False


@pytest.mark.parametrize("rows, cols", [(2, 2), (1, 2), (2, 3), (2, 5), (3, 2), (5, 2), (2, 6)])
def test_impossible_agrees_with_brute_force_on_thin_boards(rows, cols):
    # Where impossible() names a reason, no layout at all is solvable.
    for mines in range(1, rows * cols):
        for first in [(r, c) for r in range(rows) for c in range(cols)]:
            reason = no_guess.impossible(rows, cols, mines, first)
            if reason is not None:
                assert not brute_force_no_guess_exists(rows, cols, mines, first), \
                    (rows, cols, mines, first)
        anywhere = no_guess.impossible(rows, cols, mines)
        each = [no_guess.impossible(rows, cols, mines, (r, c))
                for r in range(rows) for c in range(cols)]
        assert (anywhere is None) == any(x is None for x in each)


def test_an_impossible_no_guess_game_is_refused_up_front():
    # 2x10 with one mine: the mine's column pair can never be told apart.
    with pytest.raises(ValueError, match="cell pairs across the narrow side"):
        fastmine.Game(2, 10, 1, rule="no_guess")
    with pytest.raises(ValueError, match="without guessing"):
        no_guess.check_possible(2, 10, 1)
    with pytest.raises(ValueError, match="1 mine cannot"):
        no_guess.generate(2, 10, 1, (0, 0), seed=1)
    with pytest.raises(ValueError, match="without guessing"):
        fastmine.Board.generate(2, 10, 1, first_click=(0, 4), rule="no_guess", seed=1)
    no_guess.check_possible(2, 10, 2)
    no_guess.check_possible(9, 9, 10)
    assert no_guess.impossible(16, 30, 99) is None
    # 2x10 with 15 mines: possible from the middle (too dense to open there),
    # not from the end (it opens, so the pairs left must hold an even count).
    g = fastmine.Game(2, 10, 15, rule="no_guess", seed=1)
    with pytest.raises(ValueError, match="15 mines cannot"):
        g.reveal(0, 0)
    assert g.state is fastmine.GameState.READY and g.left_clicks == 0


class SteppingClock:
    """A fake clock for the generator: each read advances a little; an exact
    step (the costly one on a huge board) advances it by ``exact_cost``."""

    def __init__(self, exact_cost: float) -> None:
        self.now = 0.0
        self.exact_cost = exact_cost
        self.exact_steps = 0

    def __call__(self) -> float:
        self.now += 0.001
        return self.now


def test_the_time_limit_holds_when_single_steps_are_slow(monkeypatch):
    # On 5000x5000 one exact step took seconds and the limit was checked only
    # between boards: 71 s against 10.  Simulated here with a fake clock.
    from fastmine.solver import logic

    clock = SteppingClock(exact_cost=3.0)
    real = logic.exact_safe

    def slow_exact(view, mines):
        clock.now += clock.exact_cost
        clock.exact_steps += 1
        return real(view, mines)

    monkeypatch.setattr(no_guess, "_clock", clock)
    monkeypatch.setattr(logic, "exact_safe", slow_exact)
    with pytest.raises(fastmine.NoGuessTimeoutError):
        no_guess.generate(16, 30, 130, (8, 15), seed=3, time_limit=10.0)
    assert clock.exact_steps >= 2
    # Never more than one exact step past the limit (the first one, unmeasured).
    assert clock.now <= 10.0 + clock.exact_cost + 0.1


def _reference_layouts(rows, cols, mines, first):
    """Every layout the generator may lay for this first click (its 3x3 block clear
    when the mines fit outside it), as bool masks: plain Python."""
    from itertools import combinations

    fr, fc = first
    radius = 1 if mines <= rows * cols - len(
        [(r, c) for r in range(rows) for c in range(cols)
         if abs(r - fr) <= 1 and abs(c - fc) <= 1]) else 0
    allowed = [(r, c) for r in range(rows) for c in range(cols)
               if abs(r - fr) > radius or abs(c - fc) > radius]
    for cells in combinations(allowed, mines):
        mask = np.zeros((rows, cols), bool)
        mask[tuple(np.array(cells).T)] = True
        yield mask


SMALL = [(1, 2), (1, 5), (1, 7), (2, 2), (2, 4), (3, 3), (3, 2), (4, 2)]


@pytest.mark.parametrize("rows, cols", SMALL)
def test_impossible_is_exactly_no_layout_solvable_by_brute_force(rows, cols):
    # Small boards have few layouts: impossible() tries them all, so it must say a
    # game is impossible exactly when the slow reference finds no layout it clears.
    from brute_force import solvable

    for mines in range(1, rows * cols):
        possible_somewhere = False
        for first in [(r, c) for r in range(rows) for c in range(cols)]:
            expected = any(solvable(m, first)
                           for m in _reference_layouts(rows, cols, mines, first))
            possible_somewhere |= expected
            assert (no_guess.impossible(rows, cols, mines, first) is None) == expected, \
                (rows, cols, mines, first)
        assert (no_guess.impossible(rows, cols, mines) is None) == possible_somewhere, \
            (rows, cols, mines)


@pytest.mark.parametrize("rows, cols, mines", [(3, 3, 7), (4, 4, 14), (3, 5, 13), (5, 5, 23)])
def test_dense_games_without_a_no_guess_board_are_refused_up_front(rows, cols, mines):
    # Each froze for the generator's 10 s and raised NoGuessTimeoutError at the
    # first click: no first click has a layout that logic clears.
    with pytest.raises(ValueError, match="from any first click: none of its"):
        fastmine.Game(rows, cols, mines, rule="no_guess")
    with pytest.raises(ValueError, match="none of the"):
        no_guess.generate(rows, cols, mines, (0, 0), seed=1)


def test_many_layouts_are_left_to_the_time_limit():
    # Past EXHAUSTIVE_LAYOUTS nothing is tried: a dense big board is not known to
    # be impossible up front (the generator's time limit says so).
    assert no_guess.impossible(7, 7, 46) is None
    assert no_guess.impossible(30, 30, 800) is None


def _reference_first_clicks(rows, cols):
    """One first click per class of mirror images (turns too on a square board):
    the first of each class in row-major order, plain Python."""
    seen, out = set(), []
    for r in range(rows):
        for c in range(cols):
            images = {(r, c), (rows - 1 - r, c), (r, cols - 1 - c), (rows - 1 - r, cols - 1 - c)}
            if rows == cols:
                images |= {(b, a) for a, b in images}
            if not images & seen:
                out.append((r, c))
            seen |= images
    return out


@pytest.mark.parametrize("rows, cols", [(1, 1), (1, 6), (2, 7), (3, 3), (4, 4), (5, 8), (9, 9),
                                        (8, 5), (16, 30), (7, 7)])
def test_first_clicks_and_layout_counts_match_the_plain_reference(rows, cols):
    from math import comb

    assert list(no_guess._first_clicks(rows, cols)) == _reference_first_clicks(rows, cols)
    for mines in {0, 1, 2, rows * cols // 2, rows * cols - 9, rows * cols - 1} - {-1}:
        if not 0 <= mines < rows * cols:
            continue
        for r, c in _reference_first_clicks(rows, cols):
            n = sum(1 for _ in _reference_layouts_of(rows, cols, mines, (r, c)))
            exact = comb(n, mines)
            got = no_guess._layout_count(rows, cols, mines, r, c)
            assert got == (exact if exact <= no_guess.EXHAUSTIVE_LAYOUTS
                           else no_guess.EXHAUSTIVE_LAYOUTS + 1), (rows, cols, mines, r, c)


def _reference_layouts_of(rows, cols, mines, first):
    """The cells the generator may mine (see _reference_layouts)."""
    fr, fc = first
    block = [(r, c) for r in range(rows) for c in range(cols)
             if abs(r - fr) <= 1 and abs(c - fc) <= 1]
    radius = 1 if mines <= rows * cols - len(block) else 0
    return [(r, c) for r in range(rows) for c in range(cols)
            if abs(r - fr) > radius or abs(c - fc) > radius]


@pytest.mark.parametrize("rows, cols, mines", [(150, 150, 2000), (300, 300, 300 * 300 - 1),
                                               (1024, 1024, 5000), (400, 400, 400 * 400 - 9)])
def test_the_is_this_size_possible_check_is_bounded(rows, cols, mines, monkeypatch):
    """The check up front looks at no more first clicks than EXHAUSTIVE_LAYOUTS,
    whatever the size (it looked at a quarter of the cells, listing every cell
    for each: 150x150 took 16 s, 300x300 over a minute)."""
    calls = []
    real = no_guess.opening_fits

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(no_guess, "opening_fits", counted)
    assert no_guess.impossible(rows, cols, mines) is None
    assert len(calls) <= no_guess.EXHAUSTIVE_LAYOUTS + 1


def test_the_possible_check_has_a_time_limit(monkeypatch):
    """Trying the few layouts of a game stops at the time limit with a clear
    NoGuessTimeoutError (a clock that jumps 1 s a look stands in for a slow machine)."""
    from fastmine.solver import logic

    class Clock:
        now = 0.0

        def __call__(self):
            self.now += 1.0
            return self.now

    monkeypatch.setattr(no_guess, "_clock", Clock())
    monkeypatch.setattr(no_guess, "_solves_known", {})
    monkeypatch.setattr(logic, "solves", lambda board, first: False)
    with pytest.raises(fastmine.NoGuessTimeoutError, match="did not finish within its time"):
        no_guess.impossible(5, 5, 20, (0, 0), time_limit=3.0)
    with pytest.raises(fastmine.NoGuessTimeoutError):
        no_guess.generate(5, 5, 20, (0, 0), seed=1, time_limit=3.0)
    with pytest.raises(ValueError, match="positive"):
        no_guess.check_possible(5, 5, 20, time_limit=0)
    assert no_guess._solves_known == {}     # an answer cut short is not kept
