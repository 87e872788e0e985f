"""Hypothesis strategies and helpers shared by the engine tests."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import event
from hypothesis import strategies as st
from reference import FLAG, HIDDEN, LOST, QUESTION, WON, RefBoard, RefGame, RefGameOver, neighbours

import fastmine

DENSITIES = (0.02, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9, 0.98)
ODD_SHAPES = ((1, 2), (2, 1), (1, 9), (9, 1), (1, 30), (30, 1), (2, 2), (3, 3), (2, 40))


@st.composite
def shapes(draw, max_side: int = 12) -> tuple[int, int]:
    """A board size with at least two cells, often a thin or tiny one."""
    shape = draw(st.one_of(
        st.sampled_from(ODD_SHAPES),
        st.tuples(st.integers(1, max_side), st.integers(1, max_side)),
    ))
    if shape[0] * shape[1] < 2:
        shape = (1, 2)
    return shape


@st.composite
def masks(draw, max_side: int = 12) -> list[list[bool]]:
    """A mine mask with 1 <= mines <= cells - 1 at a wide range of densities."""
    rows, cols = draw(shapes(max_side))
    cells = rows * cols
    rnd = draw(st.randoms(use_true_random=False))
    how = draw(st.sampled_from(("density", "density", "density", "one", "all_but_one")))
    if how == "one":
        chosen = {rnd.randrange(cells)}
    elif how == "all_but_one":
        chosen = set(range(cells)) - {rnd.randrange(cells)}
    else:
        p = draw(st.sampled_from(DENSITIES))
        chosen = {i for i in range(cells) if rnd.random() < p}
        if not chosen:
            chosen.add(rnd.randrange(cells))
        if len(chosen) == cells:
            chosen.discard(rnd.randrange(cells))
    return [[r * cols + c in chosen for c in range(cols)] for r in range(rows)]


# A move is (kind, k): kind says how to pick the cell, k which candidate.
MOVE_KINDS = (
    "reveal", "reveal", "mark", "chord",      # any cell at all
    "reveal_safe", "reveal_safe",             # progress towards a win
    "flag_mine", "flag_mine", "flag_safe",    # right and wrong flags
    "chord_number",                           # chords that may fire
    "setup_chord", "setup_chord",             # flag around a number, then chord
)

moves = st.lists(
    st.tuples(st.sampled_from(MOVE_KINDS), st.integers(0, 10**6)), min_size=1, max_size=60
)


def setup_chord(ref: RefGame, k: int) -> list[tuple[str, int, int]]:
    """Marks that make a revealed number's flag count match it, then the chord.

    Usually the flags go on the true mines (the chord opens safely); every third
    time on a random choice of its hidden neighbours (often a wrong flag: a loss).
    """
    b = ref.board
    cands = []
    for r, c in b.cells():
        if ref.view[r][c] > 0:
            hidden = [nb for nb in neighbours(b.rows, b.cols, r, c) if ref.view[nb[0]][nb[1]] < 0]
            if any(ref.is_hidden(*nb) for nb in hidden):
                cands.append((r, c, hidden))
    if not cands:
        return [pick_move(ref, "chord_number", k)]
    r, c, hidden = cands[k % len(cands)]
    number = ref.view[r][c]
    if k % 3:
        want = {nb for nb in hidden if b.mines[nb[0]][nb[1]]}
    else:
        want = set(random.Random(k).sample(hidden, min(number, len(hidden))))
    script = []
    for nr, nc in hidden:
        v = ref.view[nr][nc]
        if (nr, nc) in want:  # make it a flag (a question mark cycles via hidden)
            toggles = {HIDDEN: 1, QUESTION: 2, FLAG: 0}[v]
        else:  # anything but a flag
            toggles = 1 if v == FLAG else 0
        script += [("toggle_mark", nr, nc)] * toggles
    return script + [("chord", r, c)]


def expand(ref: RefGame, kind: str, k: int) -> list[tuple[str, int, int]]:
    """Turn an abstract move into concrete (method name, row, col) moves."""
    if kind == "setup_chord" and ref.state not in (WON, LOST):
        return setup_chord(ref, k)
    return [pick_move(ref, kind, k)]


def pick_move(ref: RefGame, kind: str, k: int) -> tuple[str, int, int]:
    """Turn an abstract move into (method name, row, col) for the current position."""
    b = ref.board
    cells = list(b.cells())
    if kind == "reveal_safe":
        cands = [(r, c) for r, c in cells if not b.mines[r][c] and ref.is_hidden(r, c)]
        op = "reveal"
    elif kind == "flag_mine":
        cands = [(r, c) for r, c in cells if b.mines[r][c] and ref.view[r][c] in (-1, -2, -3)]
        op = "toggle_mark"
    elif kind == "flag_safe":
        cands = [(r, c) for r, c in cells if not b.mines[r][c] and ref.view[r][c] in (-1, -2, -3)]
        op = "toggle_mark"
    elif kind in ("chord_number", "setup_chord"):
        cands = [(r, c) for r, c in cells if ref.view[r][c] > 0]
        op = "chord"
    else:
        cands = cells
        op = {"reveal": "reveal", "mark": "toggle_mark", "chord": "chord"}[kind]
    if not cands:
        cands = cells
    r, c = cands[k % len(cands)]
    return op, r, c


def changed_set(changed: np.ndarray) -> set[tuple[int, int]]:
    """The cells of a move's result, checking its type, shape and uniqueness."""
    assert isinstance(changed, np.ndarray)
    assert changed.dtype == np.intp
    assert changed.ndim == 2 and changed.shape[1] == 2
    cells = {(int(r), int(c)) for r, c in changed}
    assert len(cells) == len(changed), "a cell was reported twice"
    return cells


def assert_same(game: fastmine.Game, ref: RefGame) -> None:
    """fastmine's game and the reference agree on everything a player sees."""
    assert game.view.tolist() == ref.view
    assert game.state.value == ref.state
    assert game.mines_left == ref.mines_left
    assert (game.left_clicks, game.right_clicks, game.chord_clicks) == (
        ref.left_clicks, ref.right_clicks, ref.chord_clicks)


def play_both(game: fastmine.Game, ref: RefGame, script) -> None:
    """Apply each scripted move to both engines and compare after every move."""
    for kind, k in script:
        for op, r, c in expand(ref, kind, k):
            play_one(game, ref, op, r, c)
    event(f"final state {ref.state}")


def play_one(game: fastmine.Game, ref: RefGame, op: str, r: int, c: int) -> None:
    """One move on both engines, compared."""
    if ref.state in (WON, LOST):
        try:
            getattr(ref, op)(r, c)
        except RefGameOver:
            pass
        else:  # pragma: no cover - the reference is the spec
            raise AssertionError("reference accepted a move after the end")
        before = game.to_dict()
        try:
            getattr(game, op)(r, c)
        except fastmine.GameOverError:
            pass
        else:
            raise AssertionError(f"{op} after the end did not raise GameOverError")
        assert game.to_dict() == before
        return
    expected = getattr(ref, op)(r, c)
    got = changed_set(getattr(game, op)(r, c))
    assert got == expected, (op, r, c)
    assert_same(game, ref)
    if op == "chord" and got:
        event(f"chord fired ({ref.state})")


def ref_of(board: fastmine.Board) -> RefBoard:
    """The reference board with the same mines as a fastmine board."""
    return RefBoard(board.mines.tolist())


class FakeClock:
    """A clock for Game(clock=...): time moves only when a test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.now += seconds
