"""A user's script: the public API as a library user calls it (mypy --strict checks it;
tests/test_packaging.py runs that and runs the script)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import fastmine
from fastmine import solver

board = fastmine.Board.generate(9, 9, 10, first_click=(4, 4), rule="opening", seed=7)
mines: int = board.mine_count
counts: npt.NDArray[np.int8] = board.counts
bbbv: int = board.bbbv()

game = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], rule="opening", seed=7)
changed: npt.NDArray[np.intp] = game.reveal(4, 4)
state: fastmine.GameState = solver.play(game, "best", rng=1)
left: int = game.mines_left
p = solver.probabilities(game.view, game.mine_count)
moved = solver.step(fastmine.Game(9, 9, 10, seed=2), "auto")
stats: fastmine.GameStats = game.stats()
print(mines, counts.shape, bbbv, changed.shape, state, left, p.shape, moved, stats)
