"""fastmine: Minesweeper with a Cython engine, an exact solver and two UIs.

>>> import fastmine
>>> g = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], seed=1)
>>> _ = g.reveal(0, 0)
>>> g.state.name
'PLAYING'
"""

from typing import TYPE_CHECKING

try:
    from . import _kernels  # noqa: F401 - the compiled engine, built by the install
except ImportError as e:  # a source tree nobody built: say so, as NumPy does
    from ._unbuilt import unbuilt_error

    raise unbuilt_error(e) from None  # the message names the cause
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
from .solver import no_guess as _no_guess  # noqa: F401 - gives Board.generate rule="no_guess"
from .viewcodes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, GameState

__version__: str
"""The installed distribution's version ("0+unknown" from a source tree never
installed), looked up on first use: importing ``importlib.metadata`` and
scanning the installed distributions cost every start of the app tens of
milliseconds for a number only the About screen shows."""

if not TYPE_CHECKING:  # a module __getattr__ would type every unknown name for mypy

    def __getattr__(name: str) -> str:
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
