"""The coach: was each click of a game skill or luck?

:func:`analyze` replays a game's moves on its board and asks the exact solver
(:mod:`fastmine.solver`), before every click, what the player could know: the
chance that the clicked cell holds a mine, whether a certainly safe cell
existed anywhere, and the lowest risk on offer.  Each move gets a
:class:`Verdict` (:mod:`.judging`); :func:`summary` turns them into plain
sentences ("2 guesses you did not need (20/50%): a safe cell was there each
time.") and :func:`fatal` finds the move that lost, with the odds the player
had (:mod:`.words`, which a front end can have translated).

Probabilities are those of a player who knows the size, the total mine count
and the rule, and sees the numbers: every mine layout that agrees with the
numbers is equally likely (flags are the player's opinion, not evidence).  On
a "no guess" board the layouts are not all equally likely (the generator kept
only solvable ones), so there the risks are the uniform ones, as a player
reasons without that knowledge.

>>> from fastmine import Board
>>> from fastmine.coach import analyze, summary
>>> board = Board.from_mines([[1, 0, 0],
...                          [0, 0, 0],
...                          [0, 0, 1]])
>>> verdicts = analyze(board, [("reveal", 1, 1), ("reveal", 0, 2)], rule="cell")
>>> [v.category.value for v in verdicts]
['first_click', 'forced_guess']
>>> round(verdicts[1].risk, 3), verdicts[1].survived
(0.25, True)
>>> summary(verdicts)
'You survived 1 guess you had to make (25%).'
"""

from .judging import analyze, judge, live, tally
from .verdicts import KINDS, MARGIN, Category, Verdict, fatal, is_risky
from .words import ENGLISH, MAX_LISTED, Words, describe, remark, summary, summary_lines, tag

__all__ = ["ENGLISH", "KINDS", "MARGIN", "MAX_LISTED", "Category", "Verdict", "Words", "analyze",
           "describe", "fatal", "is_risky", "judge", "live", "remark", "summary", "summary_lines",
           "tag", "tally"]

