"""fastmine: Minesweeper with a Cython engine, an exact solver and two UIs.

>>> import fastmine
>>> g = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], seed=1)
>>> _ = g.reveal(0, 0)
>>> g.state.name
'PLAYING'
"""

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


def _installed_version() -> str:
    """The installed distribution's version (helper imports stay out of the namespace)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fastmine")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"


__version__: str = _installed_version()
del _installed_version

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
