"""Nothing a caller does reaches a kernel with a size or an index it cannot handle.

The kernels run without bounds checks, so every test here would write or read
out of bounds (or overflow the C stack) without its fix; the ones that could
crash run in a subprocess, so a crash fails the test instead of killing pytest.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

from fastmine import Board, Game, GameState, _kernels, limits, solver


def run_isolated(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter; a segfault shows as a negative return code."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout)


def test_solver_refuses_a_view_wider_than_the_limit_instead_of_crashing():
    # A broadcast view costs no memory, so 2**31 + 5 columns reach the solver
    # at once; its kernels keep the shape in C ints.
    proc = run_isolated("""
        import numpy as np
        from fastmine import solver
        from fastmine.solver import endgame, logic
        v = np.broadcast_to(np.int8(-1), (1, 2**31 + 5))
        calls = [solver.probabilities, solver.analyze, solver.safe_cells, solver.mine_cells,
                 solver.log_solutions, logic.local_deductions, endgame.solutions,
                 endgame.best_move]
        for f in calls:
            try:
                f(v, 10)
            except ValueError as e:
                assert "MAX_COLS" in str(e), (f.__name__, e)
                print("refused", f.__name__)
            else:
                raise SystemExit(f"{f.__name__} accepted it")
    """)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.count("refused") == 8


@pytest.mark.parametrize("shape", [(2**13, 2**13), (1, limits.MAX_COLS + 1), (limits.MAX_ROWS + 1, 1)])
def test_the_solver_and_the_engine_share_one_limit(shape):
    view = np.broadcast_to(np.int8(-1), shape)
    with pytest.raises(ValueError, match="fastmine.limits.MAX_"):
        solver.probabilities(view, 1)
    with pytest.raises(ValueError, match="fastmine.limits.MAX_"):
        Game(*shape, 1)
    with pytest.raises(ValueError, match="fastmine.limits.MAX_"):
        Board.from_mines(np.broadcast_to(False, shape))
    assert not limits.fits(*shape)


def test_limits_accept_what_the_engine_plays():
    assert limits.check_board_size(5000, 5000) == (5000, 5000)
    assert limits.fits(1, limits.MAX_COLS) and limits.fits(limits.MAX_ROWS, 1)
    with pytest.raises(ValueError, match="50000x40000 board is too large.*MAX_CELLS"):
        limits.check_board_size(50000, 40000)
    with pytest.raises(ValueError, match="at least 1 row"):
        limits.check_board_size(0, 5)
    # The padded board and the kernels' products stay far from 2**31.
    side = limits.MAX_CELLS // limits.MAX_ROWS
    assert (limits.MAX_ROWS + 2) * (side + 2) * 9 < 2**31
    assert (limits.MAX_CELLS + 2 * limits.MAX_ROWS + 2 * limits.MAX_COLS + 4) * 9 < 2**31


def test_endgame_listing_does_not_recurse_per_cell():
    # 90,000 undecided cells: the lister recursed once per cell and overflowed
    # the C stack.
    proc = run_isolated("""
        import numpy as np
        from fastmine.solver import endgame
        cells, boards = endgame.solutions(np.full((300, 300), -1, np.int8), 0)
        assert boards.shape == (1, 90000) and not boards.any(), boards.shape
        assert endgame.solutions(np.full((300, 300), -1, np.int8), 1) is None
        print("ok")
    """)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.strip() == "ok"


@pytest.mark.parametrize("name", ["rows", "cols", "mine_count"])
def test_board_size_is_read_only(name):
    b = Board.generate(9, 9, 10, first_click=(0, 0), seed=1)
    before = b.bbbv(), b.shape
    with pytest.raises(AttributeError):
        setattr(b, name, 100000)
    b2 = Board.generate(9, 9, 10, first_click=(0, 0), seed=1)
    assert (b2.bbbv(), b2.shape) == before


@pytest.mark.parametrize("name", ["rows", "cols", "mine_count", "rule", "seed"])
def test_game_size_and_settings_are_read_only(name):
    g = Game(9, 9, 10, seed=1)
    with pytest.raises(AttributeError):
        setattr(g, name, 10**6)
    g.reveal(4, 4)
    with pytest.raises(ValueError, match="outside the 9x9 board"):
        g.reveal(900000, 5)


def test_question_marks_stays_switchable_but_only_to_a_bool():
    g = Game(9, 9, 10, seed=1)
    g.question_marks = False
    assert g.question_marks is False
    with pytest.raises(TypeError):
        g.question_marks = "no"
    assert g.question_marks is False


def test_kernels_take_the_size_from_their_buffers():
    st = np.zeros(11 * 11, np.uint8)
    pv = np.zeros(11 * 11, np.int8)
    with pytest.raises(ValueError, match="does not match"):
        _kernels.GameCore(st, pv, 100000, 9)
    core = _kernels.GameCore(st, pv, 9, 9)
    b = Board.generate(9, 9, 10, first_click=(0, 0), seed=1)
    with pytest.raises(ValueError, match="does not match"):
        _kernels.bbbv_openings(b._pm, b._pc, 100000, 9)
    big = Board.generate(20, 20, 10, first_click=(0, 0), seed=1)
    with pytest.raises(ValueError, match="does not match"):
        core.attach(big._pm, big._pc)
    core.attach(b._pm, b._pc)
    for p in (-1, 0, 11, 11 * 11 - 12, 11 * 11, 10**9):
        with pytest.raises(ValueError, match="not on the"):
            core.reveal(p)
        with pytest.raises(ValueError, match="not on the"):
            core.toggle_mark(p, True)
        with pytest.raises(ValueError, match="not on the"):
            core.chord(p)


def test_reveal_cells_uses_a_snapshot_of_the_callers_array():
    """A thread rewriting the caller's array while the move runs changes nothing.

    The array is checked on the board, then the kernel ran on the caller's
    memory without the GIL: a value changed in between was an out-of-bounds
    write.  Here the array is changed by numpy's own conversion hook, at the
    point the old code read it again, deterministically.
    """
    proc = run_isolated("""
        import numpy as np
        from fastmine import Game

        class Sneaky(np.ndarray):
            def astype(self, *args, **kwargs):          # the old code's second read
                np.ndarray.__setitem__(self, (1, 0), 10**9)
                return np.ndarray.astype(self, *args, **kwargs)

        g = Game(9, 9, 10, seed=1)
        cells = np.array([[4, 4], [0, 0]], np.int32).view(Sneaky)
        try:
            g.reveal_cells(cells)
        except ValueError as e:
            print("refused", e)
        else:
            print("revealed", g.left_clicks)
    """)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert proc.stdout.split()[0] in ("revealed", "refused")
    # and with a real thread hammering the array: never a cell off the board
    arr = np.tile(np.array([[1, 1]], np.int64), (20000, 1))
    stop = threading.Event()

    def hammer():
        while not stop.is_set():
            arr[:, 0] = 10**9
            arr[:, 0] = 1

    t = threading.Thread(target=hammer)
    t.start()
    try:
        for _ in range(50):
            g2 = Game(9, 9, 10, seed=2)
            # a snapshot that caught the other thread's value is refused
            with contextlib.suppress(ValueError):
                g2.reveal_cells(arr)
            assert g2.view.min() >= -6 and g2.view.max() <= 8
    finally:
        stop.set()
        t.join()


@pytest.mark.parametrize("cells", [[[0, False]], [(True, 1)], [[np.bool_(True), 2]],
                                   ((1, 2), (3, False))])
def test_reveal_cells_refuses_bools_as_reveal_does(cells):
    g = Game(9, 9, 10, seed=1)
    with pytest.raises(TypeError, match="not a bool|bools"):
        g.reveal(0, False)
    with pytest.raises(TypeError, match="bools"):
        g.reveal_cells(cells)
    assert g.state is GameState.READY and g.left_clicks == 0


class FailingClock:
    """Seconds that advance by one a call, failing from call number ``fail_at`` on."""

    def __init__(self, fail_at: int) -> None:
        self.calls = 0
        self.fail_at = fail_at

    def __call__(self) -> float:
        self.calls += 1
        if self.calls >= self.fail_at:
            raise OSError("clock unavailable")
        return float(self.calls)


def _snapshot(g: Game):
    return (g.state, g.view.copy(), g.left_clicks, g.chord_clicks, g.revealed_count,
            g.mines_left)


@pytest.mark.parametrize("move", ["reveal", "reveal_cells", "chord"])
def test_a_clock_failing_on_the_final_move_leaves_the_game_unchanged(move):
    # One mine at (0, 2); revealing (1, 0) opens all but the mine and (1, 2).
    board = Board.from_mines(np.array([[0, 0, 1], [0, 0, 0]], bool))
    clock = FailingClock(fail_at=10**9)
    g = Game.from_board(board, clock=clock)
    g.reveal(1, 0)
    g.toggle_mark(0, 2)
    assert g.state is GameState.PLAYING and g.view[1, 2] < 0 and g.view[1, 1] == 1

    def final_move():
        if move == "reveal":
            return g.reveal(1, 2)
        if move == "reveal_cells":
            return g.reveal_cells([(1, 2)])
        return g.chord(1, 1)

    clock.fail_at = clock.calls + 1
    before = _snapshot(g)
    with pytest.raises(OSError):
        final_move()
    after = _snapshot(g)
    assert after[0] is before[0] is GameState.PLAYING
    assert np.array_equal(after[1], before[1]) and after[2:] == before[2:]
    # With the clock back, the same move wins, fully.
    clock.fail_at = 10**9
    changed = final_move()
    assert g.state is GameState.WON and g.mines_left == 0
    assert [1, 2] in changed.tolist()


def test_solver_kernels_take_the_size_from_their_buffers():
    from fastmine.solver import _prob, _workspace
    from fastmine.solver._logic import Logic

    small = Board.generate(5, 5, 3, first_click=(0, 0), seed=1)
    big = Board.generate(9, 9, 10, first_click=(0, 0), seed=1)
    solver_ = Logic(5, 5)
    with pytest.raises(ValueError, match="does not fit"):
        solver_.load_board(big._pm, big._pc, 10)
    solver_.load_board(small._pm, small._pc, 3)
    with pytest.raises(ValueError, match="do not fit"):
        solver_.set_counts(big._pc)
    with pytest.raises(ValueError, match="does not fit"):
        solver_.load_view(np.full((9, 9), -1, np.int8), 10)
    # the probability kernel checks the limits itself, not only its Python front
    view = np.broadcast_to(np.int8(-1), (1, 2**31 + 5))
    n = 4
    with pytest.raises(ValueError, match="fastmine.limits"):
        _prob.analyze(_workspace.Workspace(), view, 1, np.empty(n), np.zeros(n, np.uint8),
                      np.zeros(n, np.uint8), np.zeros(n, np.uint8), 100)
