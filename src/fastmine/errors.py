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


class VideoFormatError(ValueError):
    """A Minesweeper video (``.avf``, ``.rmv``, ``.mvf``, ``.evf``) cannot be read.

    Raised by :mod:`fastmine.videos` for a truncated, corrupt or hostile file,
    or one not in the format it claims; nothing else is raised for bad bytes.
    The message names the file and what is wrong (and where, when a byte
    offset helps)::

        game.avf: the mine at (row 17, col 3) is outside the 16x16 board (byte 12)

    The parameters are kept as attributes of the same names.

    Parameters
    ----------
    source : str
        The file's name, or ``"<bytes>"`` for data given in memory.
    problem : str
        What is wrong.
    offset : int or None
        Byte offset in the file where the problem was found, when known.
    """

    def __init__(self, source: str, problem: str, offset: int | None = None) -> None:
        where = f" (byte {offset})" if offset is not None else ""
        super().__init__(f"{source}: {problem}{where}")
        self.source = source
        self.problem = problem
        self.offset = offset

    def __reduce__(self) -> tuple[type[VideoFormatError], tuple[str, str, int | None]]:
        # Pickle by the constructor's arguments (ValueError would pass the message only).
        return (type(self), (self.source, self.problem, self.offset))


class NoGuessTimeoutError(RuntimeError):
    """No board solvable without guessing was found within the time limit."""


class PositionTooLargeError(ValueError):
    """A position is too large for the solver's exact count within its budget.

    Raised before the memory is allocated; the message names the budget
    (``max_entries`` of :func:`fastmine.solver.analyze`).
    """
