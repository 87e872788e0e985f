"""A slow, obviously correct Minesweeper environment for the tests: every move
is fastmine.Game's, and the rewards, masks and ends are worked out in plain
Python from its view, as docs/env.md defines them.

Also the agents the tests play with: they choose among valid and invalid
actions, flag real mines (so chords become possible) and chord.
"""

from __future__ import annotations

import numpy as np

import fastmine
from fastmine import FLAG, HIDDEN

KINDS = ("reveal", "flag", "chord")


def neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    """The cells around (r, c), in the order fastmine's chord opens them."""
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols]


def chord_ok(view: np.ndarray, r: int, c: int) -> bool:
    """A chord at (r, c) would open something (on a revealed 0 too: a neighbour
    a flag kept closed, the flag taken off since)."""
    v = int(view[r, c])
    if v < 0:
        return False
    around = [int(view[p]) for p in neighbours(*view.shape, r, c)]
    return around.count(FLAG) == v and HIDDEN in around


class ReferenceEnv:
    """The environment's definition, one Game move per step."""

    def __init__(self, rows, cols, mines, rule="opening", flags=False, chord=False,
                 invalid="end", progress=1.0, win=1.0, loss=-1.0, bad=-1.0, max_steps=None):
        self.rows, self.cols, self.mines, self.rule = rows, cols, mines, rule
        self.kinds = KINDS[: 1 + flags + chord]
        self.invalid, self.max_steps = invalid, max_steps
        self.progress, self.win, self.loss, self.bad = progress, win, loss, bad
        self.game = None

    def reset(self, board_seed: int):
        self.game = fastmine.Game(self.rows, self.cols, self.mines, rule=self.rule,
                                  seed=board_seed, question_marks=False)
        self.steps = 0
        self.done = False
        return self.observation()

    def observation(self):
        return self.game.view.copy(), self.game.mines_left

    def mask(self) -> np.ndarray:
        n = self.rows * self.cols
        if self.done:
            return np.ones(n * len(self.kinds), bool)
        v = self.game.view
        parts = [(v == HIDDEN).ravel()]
        if "flag" in self.kinds:
            parts.append(((v == HIDDEN) | (v == FLAG)).ravel())
        if "chord" in self.kinds:
            parts.append(np.array([chord_ok(v, r, c) for r in range(self.rows)
                                   for c in range(self.cols)]))
        return np.concatenate(parts)

    def step(self, action: int):
        g = self.game
        kind, cell = divmod(action, self.rows * self.cols)
        r, c = divmod(cell, self.cols)
        v = g.view
        name = self.kinds[kind]
        before = int((v >= 0).sum())
        if name == "reveal":
            valid = v[r, c] == HIDDEN
            if valid:
                g.reveal(r, c)
        elif name == "flag":
            valid = v[r, c] in (HIDDEN, FLAG)
            if valid:
                g.toggle_mark(r, c)
        else:
            valid = chord_ok(v, r, c)
            if valid:
                g.chord(r, c)
        self.steps += 1
        terminated = truncated = won = False
        if not valid:
            reward = self.bad
            terminated = self.invalid == "end"
        else:
            opened = int((g.view >= 0).sum()) - before
            reward = self.progress / (self.rows * self.cols - self.mines) * opened
            if g.state is fastmine.GameState.LOST:
                reward += self.loss
                terminated = True
            elif g.state is fastmine.GameState.WON:
                reward += self.win
                terminated = won = True
        if not terminated and self.max_steps and self.steps >= self.max_steps:
            truncated = True
        self.done = terminated or truncated
        return reward, terminated, truncated, won


def choose(rng: np.random.Generator, mask: np.ndarray, mines: np.ndarray | None,
           view: np.ndarray, kinds: tuple[str, ...], invalid_rate: float = 0.05,
           safe_rate: float = 0.8) -> int:
    """An action for the tests: now and then any action at all (often invalid),
    with flag actions a flag on a real mine (or a wrong one), a chord when one
    is possible, else a valid reveal, most often of a safe cell (so that games
    last and are won too)."""
    n = view.size
    total = n * len(kinds)
    if rng.random() < invalid_rate:
        return int(rng.integers(total))
    if "chord" in kinds and rng.random() < 0.5:
        chords = np.flatnonzero(mask[2 * n:])
        if len(chords):
            return 2 * n + int(rng.choice(chords))
    if "flag" in kinds and rng.random() < 0.3:
        hidden = (view == HIDDEN).ravel()
        target = hidden & mines.ravel() if mines is not None and rng.random() < 0.95 else hidden
        cells = np.flatnonzero(target)
        if len(cells):
            return n + int(rng.choice(cells))
    reveals = np.flatnonzero(mask[:n])
    if mines is not None and rng.random() < safe_rate:
        safe = np.flatnonzero(mask[:n] & ~mines.ravel())
        if len(safe):
            return int(rng.choice(safe))
    if len(reveals) == 0:
        return int(rng.integers(total))
    return int(rng.choice(reveals))


#: How far the batched environment's labels may be from fastmine.env.labels':
#: the batch keeps each game's count from step to step and combines it in
#: another order than the solver, so they agree up to float rounding.
LABELS_ATOL = 1e-12


def assert_labels_close(got: np.ndarray, want: np.ndarray, where: object = "") -> None:
    """Labels within LABELS_ATOL, and exactly 0 and exactly 1 on the same cells
    (a certain cell is certain in both, never up to rounding)."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, where
    assert np.isfinite(got).all(), where
    assert np.abs(got - want).max(initial=0.0) <= LABELS_ATOL, (where, got, want)
    assert np.array_equal(got == 0.0, want == 0.0), (where, got, want)
    assert np.array_equal(got == 1.0, want == 1.0), (where, got, want)
