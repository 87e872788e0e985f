"""Property-based fuzzing of the public API with hostile arguments.

Every call either works or raises ValueError/TypeError (the engine's promise: bad
input gets a clear error and changes nothing), and an object an error was raised from is unchanged.  Runs in a
few seconds, in the bounds-checked CI pass too, where an index the Python
layer let through would stop the run.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fastmine import Board, Game, GameState, solver
from fastmine.solver import endgame, logic

# FASTMINE_FUZZ_EXAMPLES=5000 for a deeper run by hand.
FUZZ = settings(max_examples=int(os.environ.get("FASTMINE_FUZZ_EXAMPLES", "120")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# Scalars a caller might pass where an int, a size or a coordinate is expected.
HOSTILE_SCALARS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([-1, -(2**31), 2**31, 2**32 + 1, 2**63, 2**64, 2**64 + 3, -(2**64), 10**6,
                     10**30]),
    st.booleans(),
    st.sampled_from([np.bool_(True), np.int8(3), np.int64(-2), np.uint64(2**64 - 1),
                     np.uint8(200), np.int32(7)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([None, "3", b"3", "", 3 + 0j, [1], (1, 2), object(), 2.0]),
)

OK = (ValueError, TypeError)


def array_variants(base: np.ndarray) -> st.SearchStrategy:
    """The same numbers in hostile layouts and types."""
    def make(kind: str) -> object:
        if kind == "same":
            return base
        if kind == "float":
            return base.astype(float)
        if kind == "nan":
            a = base.astype(float)
            a.flat[0] = np.nan
            return a
        if kind == "bool":
            return base.astype(bool)
        if kind == "object":
            return base.astype(object)
        if kind == "uint64":
            return base.astype(np.uint64)
        if kind == "int64":
            return base.astype(np.int64)
        if kind == "list":
            return base.tolist()
        if kind == "strided":
            big = np.repeat(np.repeat(base, 2, axis=0), 2, axis=1)
            return big[::2, ::2]
        if kind == "transposed":
            return np.ascontiguousarray(base.T).T
        if kind == "fortran":
            return np.asfortranarray(base)
        if kind == "readonly":
            a = base.copy()
            a.flags.writeable = False
            return a
        if kind == "broadcast":
            return np.broadcast_to(base[:1], base.shape)
        if kind == "1d":
            return base.ravel()
        if kind == "3d":
            return base[None]
        if kind == "empty":
            return base[:0]
        if kind == "huge":
            return np.broadcast_to(base.ravel()[:1], (2, 2**21))
        if kind == "string":
            return "not an array"
        raise AssertionError(kind)

    kinds = ["same", "float", "nan", "bool", "object", "uint64", "int64", "list", "strided",
             "transposed", "fortran", "readonly", "broadcast", "1d", "3d", "empty", "huge",
             "string"]
    return st.sampled_from(kinds).map(make)


@st.composite
def views(draw) -> np.ndarray:
    """A small view: mostly plausible codes, sometimes anything an int8 holds."""
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 5))
    codes = st.one_of(st.sampled_from([-1, -1, -1, -2, -3, 0, 1, 2, 3]),
                      st.integers(-128, 127))
    cells = draw(st.lists(codes, min_size=rows * cols, max_size=rows * cols))
    return np.array(cells, np.int64).reshape(rows, cols)


def snapshot(g: Game) -> tuple:
    return (g.state, g.view.tobytes(), g.view.shape, g.left_clicks, g.right_clicks,
            g.chord_clicks, g.mines_left, g.revealed_count, g.paused,
            None if g.board is None else g.board.mines.tobytes())


# ---------------------------------------------------------------- construction

@FUZZ
@given(HOSTILE_SCALARS, HOSTILE_SCALARS, HOSTILE_SCALARS,
       st.sampled_from(["cell", "opening", "none", "no_guess", "bad", 3, None]),
       HOSTILE_SCALARS)
def test_constructors_work_or_refuse(rows, cols, mines, rule, seed):
    for make in (lambda: Game(rows, cols, mines, rule=rule, seed=seed),
                 lambda: Board.generate(rows, cols, mines, first_click=(0, 0), rule=rule,
                                        seed=seed)):
        try:
            obj = make()
        except OK:
            continue
        except Exception as exc:  # noqa: BLE001 - the point of the test
            if type(exc).__name__ == "NoGuessTimeoutError":
                continue            # a documented outcome of rule="no_guess"
            raise
        assert obj.rows == rows and obj.cols == cols and obj.mine_count == mines


@FUZZ
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_from_mines_works_or_refuses(rows, cols, data):
    base = data.draw(st.lists(st.integers(0, 1), min_size=rows * cols,
                              max_size=rows * cols)).copy()
    base = np.array(base, np.int8).reshape(rows, cols)
    mask = data.draw(array_variants(base))
    try:
        b = Board.from_mines(mask)
    except OK:
        return
    assert b.mines.sum() == b.mine_count and b.mines.shape == (b.rows, b.cols)


# ---------------------------------------------------------------- moves

MOVES = ("reveal", "toggle_mark", "chord", "reveal_cells", "pause", "resume", "set_qm",
         "set_size")


@FUZZ
@given(st.integers(0, 2**32), st.lists(
    st.tuples(st.sampled_from(MOVES), HOSTILE_SCALARS, HOSTILE_SCALARS), max_size=25),
    st.data())
def test_moves_work_or_leave_the_game_unchanged(seed, script, data):
    g = Game(5, 6, 6, seed=seed)
    for name, a, b in script:
        before = snapshot(g)
        try:
            if name == "reveal_cells":
                base = np.array([[1, 2], [4, 5], [0, 0]], np.int64)
                cells = data.draw(st.one_of(array_variants(base),
                                            st.just([[a, b]]), st.just([(a, b), (0, 0)])))
                g.reveal_cells(cells)
            elif name == "pause":
                g.pause()
            elif name == "resume":
                g.resume()
            elif name == "set_qm":
                g.question_marks = a
            elif name == "set_size":
                with pytest.raises(AttributeError):
                    g.rows = a
                assert snapshot(g) == before
            else:
                getattr(g, name)(a, b)
        except OK:
            assert snapshot(g) == before, name
        assert g.view.shape == (5, 6)
        assert g.view.min() >= -6 and g.view.max() <= 8
        assert g.state in GameState


# ---------------------------------------------------------------- solver

@FUZZ
@given(views(), HOSTILE_SCALARS, st.data())
def test_solver_calls_work_or_refuse(view, mines, data):
    arg = data.draw(array_variants(view))
    keep = pickle.dumps(arg) if np.size(arg) < 1000 else None
    for f in (solver.probabilities, solver.safe_cells, solver.mine_cells, solver.analyze,
              solver.log_solutions, logic.local_deductions):
        try:
            out = f(arg, mines)
        except OK:
            continue
        if f is solver.probabilities:
            assert out.shape == np.shape(arg)
            unknown = ~np.isnan(out)
            assert ((out[unknown] >= 0) & (out[unknown] <= 1)).all()
    # the caller's array is never changed
    if keep is not None:
        assert pickle.dumps(arg) == keep


@FUZZ
@given(views(), st.one_of(st.integers(-1, 6), HOSTILE_SCALARS),
       st.one_of(st.none(), st.integers(-2, 50), HOSTILE_SCALARS),
       st.one_of(st.none(), st.integers(-2, 500), HOSTILE_SCALARS))
def test_endgame_calls_work_or_refuse(view, mines, limit, max_nodes):
    try:
        res = endgame.solutions(view, mines, limit=limit)
    except OK:
        res = None
    if res is not None:
        cells, boards = res
        assert boards.ndim == 2 and boards.shape[1] == len(cells)
        assert (view.ravel()[cells] < 0).all()
    try:
        move = endgame.best_move(view, mines, max_nodes=max_nodes, limit=limit)
    except OK:
        return
    if move is not None:
        (r, c), chance = move
        assert view[r, c] < 0 and 0.0 <= chance <= 1.0


@FUZZ
@given(views(), st.integers(0, 8), st.data())
def test_endgame_known_mask_works_or_refuses(view, mines, data):
    known = data.draw(array_variants((view < -1).astype(np.int8)))
    try:
        res = endgame.solutions(view, mines, known=known)
    except OK:
        return
    assert res is None or res[1].shape[1] == len(res[0])


@pytest.mark.parametrize("code", [9, 127, -4, -7, -128])
def test_endgame_refuses_codes_no_view_holds(code):
    view = np.array([[1, -1], [code, -1]])
    with pytest.raises(ValueError, match="view"):
        endgame.solutions(view, 1)
    with pytest.raises(ValueError, match="view"):
        endgame.best_move(view, 1)


@FUZZ
@given(views(), st.integers(0, 6), HOSTILE_SCALARS)
def test_analyze_budget_works_or_refuses(view, mines, max_entries):
    try:
        a = solver.analyze(view, mines, max_entries=max_entries)
    except OK:
        return
    assert a.probabilities.shape == view.shape


@FUZZ
@given(st.integers(0, 2**32), st.sampled_from(["best", "auto", "random", "nope", 3, None]),
       st.one_of(st.none(), st.integers(0, 2**64 - 1), HOSTILE_SCALARS))
def test_solver_moves_work_or_leave_the_game_unchanged(seed, strategy, rng):
    g = Game(6, 6, 5, seed=seed)
    before = snapshot(g)
    try:
        solver.step(g, strategy=strategy, rng=rng)
    except OK:
        assert snapshot(g) == before
        return
    try:
        state = solver.play(g, strategy=strategy, rng=rng)
    except OK:
        return
    assert state in (GameState.WON, GameState.LOST)


@FUZZ
@given(HOSTILE_SCALARS, HOSTILE_SCALARS, st.sampled_from(["cell", "opening", "none", 1]),
       HOSTILE_SCALARS)
def test_first_click_for_works_or_refuses(rows, cols, rule, mines):
    try:
        r, c = solver.first_click_for(rows, cols, rule, mines)
    except OK:
        return
    assert 0 <= r < rows and 0 <= c < cols
