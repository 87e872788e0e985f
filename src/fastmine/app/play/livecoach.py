"""The live coach in the app: a word after a risky move (the setting "Coach while playing").

Before each move the player makes, the controller asks :func:`judge` for the
exact solver's verdict (:func:`fastmine.coach.live`, which marks a game it
weighs as assisted, as a hint does); after the move it shows :func:`message`
(:func:`fastmine.coach.remark`, the words the terminal's live coach says too)
as a toast, and nothing after a safe move.  The coach never tells what only
the hidden board knows: a flag on a guess gets the same words whether it is
right or wrong.

>>> from fastmine.coach import Category, Verdict
>>> message(Verdict(3, "reveal", (2, 4), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
'That was a 20% risk you did not need: 3 safe cells were there.'
>>> message(Verdict(4, "reveal", (3, 1), Category.EARLY_GUESS, 0.3, 0.0, 2, True, 9, 0.3, 0.1))
'Guessed early at 30%: after the 9 safe cells a 10% cell would have been there.'
>>> message(Verdict(5, "reveal", (0, 0), Category.SAFE, 0.0, 0.0, 7))
''
>>> message(Verdict(6, "mark", (1, 1), Category.WRONG_FLAG, 0.4, None, 0))
'A flag on a guess: a 40% chance of a mine there.'
>>> message(Verdict(6, "mark", (1, 1), Category.FLAG, 0.4, None, 0))
'A flag on a guess: a 40% chance of a mine there.'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.logger import Logger

from fastmine import Game

if TYPE_CHECKING:
    from fastmine.coach import Verdict


def judge(game: Game | None, kind: str, row: int, col: int) -> Verdict | None:
    """The coach's :class:`fastmine.coach.Verdict` on a move about to be made on
    ``game`` (which it marks assisted), or None when there is nothing to weigh:
    before the first reveal (that click is free), after the end, while paused,
    or without the solver.  Never raises: the coach must not stop a move."""
    if game is None:
        return None
    try:
        from fastmine import coach
    except ImportError:  # the solver is a compiled part that may be missing
        return None
    try:
        return coach.live(game, kind, row, col)
    except Exception:
        Logger.exception(f"fastmine: the coach could not weigh {kind} at {row}, {col}")
        return None


def message(verdict: Verdict) -> str:
    """What the toast says after the move ``verdict`` weighed ("" when the coach
    stays silent: a safe move, a position too large to count)."""
    from fastmine import coach

    from ..text.i18n import coach_words

    return coach.remark(verdict, coach_words()) or ""
