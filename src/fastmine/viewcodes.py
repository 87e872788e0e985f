"""View codes and game states shared by the engine, the solver and every UI.

A game's ``view`` is an ``int8`` array: ``0..8`` for a revealed safe cell (its
number) and one of the negative codes below for everything else.  Negative codes
keep the test "is this a revealed number?" a single comparison: ``view >= 0``.
"""

from __future__ import annotations

import enum

HIDDEN = -1
"""A cell not yet revealed and not marked."""
FLAG = -2
"""A flagged cell (the player's claim that it holds a mine)."""
QUESTION = -3
"""A question-marked cell (can still be revealed)."""
MINE = -4
"""A mine shown after a loss."""
EXPLODED = -5
"""The mine that was revealed and lost the game."""
WRONG_FLAG = -6
"""A flag on a safe cell, shown after a loss."""

VIEW_CODES = {
    HIDDEN: "HIDDEN",
    FLAG: "FLAG",
    QUESTION: "QUESTION",
    MINE: "MINE",
    EXPLODED: "EXPLODED",
    WRONG_FLAG: "WRONG_FLAG",
}


class GameState(enum.Enum):
    """Where a game is in its life.

    ``READY``: no cell revealed yet (mines are laid at the first reveal).
    ``PLAYING``: at least one safe cell revealed, not over.
    ``WON`` / ``LOST``: over; further moves raise :class:`GameOverError`.
    """

    READY = "ready"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"

    @property
    def is_over(self) -> bool:
        """True for ``WON`` and ``LOST``."""
        # by value: two lookups of members on the class cost more (every move asks)
        return self._value_ in ("won", "lost")
