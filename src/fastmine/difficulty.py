"""Difficulty presets: the classic three and five square boards by mine ratio."""

from __future__ import annotations

from typing import NamedTuple


class Difficulty(NamedTuple):
    """A board size and mine count.

    Parameters
    ----------
    rows, cols : int
        The size.
    mines : int
        How many mines.

    Examples
    --------
    >>> DIFFICULTIES["expert"]
    Difficulty(rows=16, cols=30, mines=99)
    >>> DIFFICULTIES["expert"].density
    0.20625
    """

    rows: int
    cols: int
    mines: int

    @property
    def density(self) -> float:
        """Mines per cell."""
        return self.mines / (self.rows * self.cols)


def _ratio(n: int, ratio: float) -> Difficulty:
    # These are defined as a size and a mine ratio; round half up.
    return Difficulty(n, n, int(n * n * ratio + 0.5))


DIFFICULTIES: dict[str, Difficulty] = {
    "beginner": Difficulty(9, 9, 10),
    "intermediate": Difficulty(16, 16, 40),
    "expert": Difficulty(16, 30, 99),
    "toy": _ratio(5, 0.15),
    "easy": _ratio(10, 0.15),
    "medium": _ratio(15, 0.16),
    "hard": _ratio(20, 0.20),
    "hell": _ratio(25, 0.30),
}
"""Preset name -> :class:`Difficulty`, in menu order."""

CLASSIC_BEGINNER = Difficulty(8, 8, 10)
"""Beginner as Arbiter, Vienna, Metasweeper and the ranking sites play it: 8x8 with
10 mines (fastmine's own Beginner is 9x9 with 10, as in Windows XP on)."""

NAMED_BOARDS: dict[str, Difficulty] = {**DIFFICULTIES, "classic beginner": CLASSIC_BEGINNER}
"""Every board size with a name: the presets of :data:`DIFFICULTIES`, then the
classic Beginner, which the records, their Progress and the replays name
(``"classic beginner"``) and keep apart from fastmine's Beginner, but which is
not a preset of the menus."""

#: Sizes a UI offers for custom games (the engine itself takes any size).
CUSTOM_MIN_SIDE = 5
CUSTOM_MAX_SIDE = 50


def difficulty_name(rows: int, cols: int, mines: int) -> str:
    """The name of a size: a preset's, ``"classic beginner"`` (8x8 with 10 mines:
    :data:`NAMED_BOARDS`), or ``"custom"``.

    Parameters
    ----------
    rows, cols : int
        The size.
    mines : int
        How many mines.

    Returns
    -------
    str
        A key of :data:`NAMED_BOARDS` (``"beginner"``, ..., ``"classic beginner"``),
        or ``"custom"``.

    Examples
    --------
    >>> difficulty_name(9, 9, 10)
    'beginner'
    >>> difficulty_name(9, 9, 11)
    'custom'
    >>> difficulty_name(8, 8, 10)
    'classic beginner'
    """
    for name, d in NAMED_BOARDS.items():
        if d == (rows, cols, mines):
            return name
    return "custom"
