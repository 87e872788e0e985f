"""Known boards for scripted games: the moves that win or lose a seeded game, and a
saved game to resume."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

import fastmine


def played(rows: int, cols: int, mines: int, seed: int, first: tuple[int, int],
           rule: str = "opening") -> fastmine.Game:
    """The game ``fastmine play --seed`` makes, after its first reveal at ``first``."""
    g = fastmine.Game(rows, cols, mines, rule=rule, seed=seed)
    g.reveal(*first)
    return g


def winning_moves(rows: int, cols: int, mines: int, seed: int,
                  first: tuple[int, int]) -> list[tuple[int, int]]:
    """0-based reveals that win: the first click, then each safe cell still hidden."""
    g = played(rows, cols, mines, seed, first)
    moves = [first]
    for r, c in np.argwhere(~g.board.mines):
        if g.state.is_over:
            break
        if g.view[r, c] < 0:
            moves.append((int(r), int(c)))
            g.reveal(int(r), int(c))
    assert g.state is fastmine.GameState.WON
    return moves


def a_mine(rows: int, cols: int, mines: int, seed: int, first: tuple[int, int]) -> tuple[int, int]:
    """A mine of the seeded board (0-based)."""
    g = played(rows, cols, mines, seed, first)
    r, c = np.argwhere(g.board.mines)[0]
    return int(r), int(c)


def saved_game_in(folder: Path) -> fastmine.Game:
    """Leave a beginner game in progress (one reveal) in ``folder``'s saved-game.json,
    as the terminal game saves one; returns the game."""
    g = played(9, 9, 10, 1, (4, 4))
    (folder / "saved-game.json").write_text(json.dumps(g.to_dict()))
    return g
