"""Shared helpers for the solver tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fastmine  # noqa: E402

HAS_EXACT = importlib.util.find_spec("fastmine.solver.probability") is not None
needs_exact = pytest.mark.skipif(not HAS_EXACT, reason="exact engine not built")


def game_at(mask, reveals=(), flags=()) -> fastmine.Game:
    """A game on the board ``mask`` (rows of 0/1 or '.'/'*') after some moves."""
    if isinstance(mask, str):
        mask = mask.strip().splitlines()
    if isinstance(mask[0], str):
        mask = [[ch == "*" for ch in line.strip()] for line in mask]
    game = fastmine.Game.from_board(fastmine.Board.from_mines(np.array(mask, bool)))
    for r, c in reveals:
        game.reveal(r, c)
    for r, c in flags:
        game.toggle_mark(r, c)
    return game
