"""The live coach: a word after a risky move (the setting "Coach while playing").

Before each move the player makes, the controller asks :func:`judge` for the
exact solver's verdict (:func:`fastmine.coach.judge`); after the move it
shows :func:`message` as a toast when the move was a risk (a guess, or a
risk taken while a safe cell was open) or a wrong flag, and nothing when it
was safe.  The coach tells what the solver knows (whether a safe cell
existed, the odds of a flagged cell), so a game it weighs counts as assisted,
like one where a hint was shown; it never tells what only the hidden board
knows (a flag on a guess gets the same words whether it is right or wrong).

>>> from fastmine.coach import Category, Verdict
>>> message(Verdict(3, "reveal", (2, 4), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
'Risky: 20% — 3 safe cells were open to you.'
>>> message(Verdict(5, "reveal", (0, 0), Category.SAFE, 0.0, 0.0, 7))
''
>>> message(Verdict(6, "mark", (1, 1), Category.WRONG_FLAG, 0.4, None, 0))
'Flag on a guess: 40% chance of a mine there.'
>>> message(Verdict(6, "mark", (1, 1), Category.FLAG, 0.4, None, 0))
'Flag on a guess: 40% chance of a mine there.'
"""

from __future__ import annotations

from kivy.logger import Logger

from fastmine import Game, GameState


def percent(p: float) -> str:
    """A risk as the toast says it: whole percents, finer below 10%.

    >>> percent(0.2), percent(1 / 3), percent(0.0625), percent(0.004)
    ('20%', '33%', '6.2%', 'under 1%')
    """
    v = p * 100
    if v >= 10 or v == 0:
        return f"{v:.0f}%"
    if v < 1:
        return "under 1%"
    return f"{v:.1f}".rstrip("0").rstrip(".") + "%"


def judge(game: Game | None, kind: str, row: int, col: int):
    """The coach's :class:`fastmine.coach.Verdict` on a move about to be made on
    ``game``, or None when there is nothing to weigh: before the first reveal
    (no mines laid yet; that click is free), after the end, or without the solver."""
    if game is None or game.state is not GameState.PLAYING or game.paused or game.board is None:
        return None
    try:
        from fastmine.coach import judge as coach_judge
    except ImportError:  # the solver is another package: no coach without it
        return None
    try:
        return coach_judge(game, kind, row, col)
    except Exception:  # never let the coach stop a move
        Logger.exception(f"fastmine: the coach could not weigh {kind} at {row}, {col}")
        return None


def message(verdict) -> str:
    """What the toast says after the move ``verdict`` weighed ("" for a safe move,
    and for a position too large to count: the coach says nothing it cannot back)."""
    from fastmine.coach import Category

    v = verdict
    cat = v.category
    if cat is Category.AVOIDABLE_RISK and v.risk is not None:
        n = v.safe_cells_available or 0
        cells = "1 safe cell was" if n == 1 else f"{n} safe cells were"
        return f"Risky: {percent(v.risk)} — {cells} open to you."
    if cat is Category.FORCED_GUESS and v.risk is not None:
        luck = " Bad luck." if not v.survived else ""
        return f"Forced guess at {percent(v.risk)}: no safe cell existed.{luck}"
    if cat is Category.WORSE_GUESS and v.risk is not None:
        return (f"Guess at {percent(v.risk)}: a cell at {percent(v.best_risk or 0.0)} "
                "was the safer guess.")
    if cat in (Category.FLAG, Category.WRONG_FLAG):
        # Said from the odds on screen only, never from the hidden board: told
        # "no mine there" for a wrong guess and nothing for a right one, a
        # player could flag any cell to learn whether it holds a mine.
        if v.risk == 0.0:
            return "Wrong flag: that cell was certainly safe."
        if v.risk is not None and v.risk < 1.0:
            return f"Flag on a guess: {percent(v.risk)} chance of a mine there."
    return ""
