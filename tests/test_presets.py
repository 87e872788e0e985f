"""Difficulty presets, the public names, and the package's doctests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import fastmine
from fastmine import DIFFICULTIES, Difficulty, difficulty_name

EXPECTED = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (16, 30, 99),
    "toy": (5, 5, 4),
    "easy": (10, 10, 15),
    "medium": (15, 15, 36),
    "hard": (20, 20, 80),
    "hell": (25, 25, 188),
}


def test_presets():
    assert {k: tuple(v) for k, v in DIFFICULTIES.items()} == EXPECTED
    for name, d in DIFFICULTIES.items():
        assert isinstance(d, Difficulty)
        assert (d.rows, d.cols, d.mines) == EXPECTED[name]
        assert difficulty_name(*d) == name
        assert 0 < d.density < 1
        game = fastmine.Game(*d, seed=1)
        game.reveal(d.rows // 2, d.cols // 2)
        assert game.board.mine_count == d.mines
    assert difficulty_name(9, 9, 11) == "custom"
    assert difficulty_name(30, 16, 99) == "custom"  # rows and cols are not interchangeable


def test_public_api_names():
    for name in fastmine.__all__:
        assert hasattr(fastmine, name), name
    for name in ("Board", "Game", "GameState", "DIFFICULTIES", "HIDDEN", "FLAG", "QUESTION",
                 "MINE", "EXPLODED", "WRONG_FLAG", "GameOverError", "GamePausedError",
                 "SaveFormatError", "FutureVersionError", "__version__", "difficulty_name"):
        assert name in fastmine.__all__
    assert isinstance(fastmine.__version__, str) and fastmine.__version__
    assert set(fastmine.RULES) == {"cell", "opening", "no_guess", "none"}
    # The solver's public names.
    from fastmine import solver

    for name in ("probabilities", "safe_cells", "mine_cells", "step", "play"):
        assert callable(getattr(solver, name)), name
        assert name in solver.__all__
    assert set(solver.STRATEGIES) == {"best", "auto", "deterministic", "inference",
                                      "probability", "random"}


# What the extras bring, by import name: a module that needs one is skipped without it.
OPTIONAL = {"kivy": "app", "plyer": "app", "gymnasium": "env", "matplotlib": "plot",
            "dask": "dist", "distributed": "dist", "scipy": "bench", "ms_toollib": "bench"}


def _modules():
    """Every module of the installed or source-tree package, compiled ones included."""
    names = ["fastmine"]
    for info in pkgutil.walk_packages(fastmine.__path__, prefix="fastmine."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    """Run the docstring examples of each module (imported like any user would)."""
    if name.endswith("__main__"):
        pytest.skip("running __main__ would start the command line")
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        if exc.name in ("curses", "_curses"):   # Windows' Python has no curses
            pytest.skip(f"{name} needs curses, which this Python lacks")
        missing = (exc.name or getattr(exc.__cause__, "name", None) or "").split(".")[0]
        if missing in OPTIONAL:                 # e.g. the fast checks: no app or env extra
            pytest.skip(f"{name} needs {missing} (the {OPTIONAL[missing]} extra)")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
