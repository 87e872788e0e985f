"""fastmine: Minesweeper with a Cython engine, an exact solver and two UIs.

>>> import fastmine
>>> g = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], seed=1)
>>> _ = g.reveal(0, 0)
>>> g.state.name
'PLAYING'
"""

import os as _os
from typing import TYPE_CHECKING

# The kernels' presence is checked here, without loading them: loading them
# loads NumPy (and with it OpenBLAS, whose threads cost every process start
# ~50 ms of CPU until told otherwise), and the names below load on first use,
# so that a command which never needs them (or first sets how many threads
# OpenBLAS starts: the ``fastmine`` command) does not pay for them.
if not any(name.startswith("_kernels.") for name in _os.listdir(_os.path.dirname(__file__))
           if not name.endswith((".pyx", ".pyi", ".c"))):
    from ._unbuilt import unbuilt_error

    raise unbuilt_error(ImportError("No module named 'fastmine._kernels'")) from None

if TYPE_CHECKING:
    from .board import RULES, Board, Rule
    from .difficulty import DIFFICULTIES, Difficulty, difficulty_name
    from .errors import (
        FutureVersionError,
        GameOverError,
        GamePausedError,
        NoGuessTimeoutError,
        SaveFormatError,
        VideoFormatError,
    )
    from .game import Game, GameStats
    from .viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, GameState

__version__: str
"""The installed distribution's version ("0+unknown" from a source tree never
installed), looked up on first use: importing ``importlib.metadata`` and
scanning the installed distributions cost every start of the app tens of
milliseconds for a number only the About screen shows."""

_SUBMODULES = ("_frozen", "_kernels", "_metrics", "_validate", "board", "difficulty", "errors",
               "game", "gameformat", "gameplay", "limits", "metrics", "movelog", "solver",
               "takeback", "timedmoves", "viewcodes")
"""The submodules ``import fastmine`` once loaded, and so names as ``fastmine.X``
without an import of their own: loaded when first named."""


_HOME = {name: f"fastmine.{module}" for module, names in (
    ("board", ("RULES", "Board", "Rule")),
    ("difficulty", ("DIFFICULTIES", "Difficulty", "difficulty_name")),
    ("errors", ("FutureVersionError", "GameOverError", "GamePausedError", "NoGuessTimeoutError",
                "SaveFormatError", "VideoFormatError")),
    ("game", ("Game", "GameStats")),
    ("viewcodes", ("EXPLODED", "FLAG", "HIDDEN", "MINE", "QUESTION", "WRONG_FLAG", "GameState")),
) for name in names}
"""The module each public name comes from."""


if not TYPE_CHECKING:  # a module __getattr__ would type every unknown name for mypy

    def __getattr__(name: str) -> object:
        home = _HOME.get(name)
        if home is not None:
            from importlib import import_module

            value = getattr(import_module(home), name)
            globals()[name] = value     # asked once
            return value
        if name in _SUBMODULES:
            from importlib import import_module

            return import_module(f"fastmine.{name}")
        if name != "__version__":
            raise AttributeError(f"module 'fastmine' has no attribute {name!r}")
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("fastmine")
        except PackageNotFoundError:  # running from a source tree that was never installed
            found = "0+unknown"
        globals()["__version__"] = found
        return found

__all__ = [
    "Board",
    "DIFFICULTIES",
    "Difficulty",
    "EXPLODED",
    "FLAG",
    "FutureVersionError",
    "Game",
    "GameOverError",
    "GamePausedError",
    "GameState",
    "GameStats",
    "HIDDEN",
    "MINE",
    "NoGuessTimeoutError",
    "QUESTION",
    "RULES",
    "Rule",
    "SaveFormatError",
    "VideoFormatError",
    "WRONG_FLAG",
    "__version__",
    "difficulty_name",
]


def __dir__() -> list[str]:
    """``dir(fastmine)`` lists the public API (submodules stay importable by name)."""
    return sorted(__all__)
