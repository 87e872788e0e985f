"""Exceptions raised by fastmine.

Every error a caller can trigger is a ``ValueError`` or ``TypeError`` (or a
subclass), carries a message that says what was wrong and what is allowed, and
leaves the object it was raised from unchanged.
"""

from __future__ import annotations


class GameOverError(ValueError):
    """A move was made on a game that is already won or lost."""


class GamePausedError(ValueError):
    """A move was made while the game's clock is paused; call ``resume()`` first."""


class SaveFormatError(ValueError):
    """A saved game (or other fastmine file) is corrupt or not a fastmine save."""


class FutureVersionError(SaveFormatError):
    """A saved file was written by a newer fastmine than this one."""


class NoGuessTimeoutError(RuntimeError):
    """No board solvable without guessing was found within the time limit."""


class PositionTooLargeError(ValueError):
    """A position is too large for the solver's exact count within its budget.

    Raised before the memory is allocated; the message names the budget
    (``max_entries`` of :func:`fastmine.solver.analyze`).
    """
