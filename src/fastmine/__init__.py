"""fastmine: Minesweeper with a Cython engine, an exact solver and two UIs.

>>> import fastmine
>>> g = fastmine.Game(*fastmine.DIFFICULTIES["beginner"], seed=1)
>>> _ = g.reveal(0, 0)
>>> g.state.name
'PLAYING'
"""

from importlib.metadata import PackageNotFoundError, version

from .board import RULES, Board
from .codes import EXPLODED, FLAG, HIDDEN, MINE, QUESTION, WRONG_FLAG, GameState
from .difficulty import DIFFICULTIES, Difficulty, difficulty_name
from .errors import (
    FutureVersionError,
    GameOverError,
    GamePausedError,
    NoGuessTimeoutError,
    SaveFormatError,
)
from .game import Game, GameStats

try:
    __version__ = version("fastmine")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

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
    "SaveFormatError",
    "WRONG_FLAG",
    "__version__",
    "difficulty_name",
]
