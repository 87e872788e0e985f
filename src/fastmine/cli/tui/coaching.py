"""The coach in the terminal game: the skill/luck lines of a finished game and
the live coach that names a risky click right after it.

Both use :mod:`fastmine.coach` (the exact solver).  Nothing here prints; the
front ends show the lines it returns.  The end-of-game analysis has a time
budget (:data:`BUDGET`), so a game on a huge board is "not analysed" in part
instead of holding up the result.
"""

from __future__ import annotations

from ...game import Game

BUDGET = 1.0
"""Seconds of solver time the end-of-game summary may take (an Expert game
needs about 5 ms, a 50x50 one some 60 ms)."""


def review(game: Game, *, budget: float | None = BUDGET) -> tuple[str, ...]:
    """The coach's lines on a finished ``game``: ``"Coach: <skill/luck line>"``,
    and after a loss the losing move with the odds the player had.

    Never raises for a game it cannot analyse: it says why in one line.
    """
    try:
        from ... import coach
    except ImportError:        # a build without the solver
        return ("Coach: not available (the solver is not installed)",)
    if game.board is None:
        return ()
    if not game.moves_complete:
        return ("Coach: not analysed (this game was resumed from a save without its moves)",)
    try:
        verdicts = coach.analyze(game.board, game.moves, rule=game.rule,
                                 question_marks=game.question_marks, budget=budget)
    except (ValueError, TypeError) as exc:
        return (f"Coach: not analysed ({exc})",)
    lines = [f"Coach: {coach.summary(verdicts)}"]
    lost = coach.fatal(verdicts)
    if lost is not None:
        lines.append(coach.describe(lost))
    return tuple(lines)


def judge(game: Game, kind: str, row: int, col: int) -> str | None:
    """The live coach's word on a move about to be made on ``game``, to show
    after the move (:func:`fastmine.coach.remark`: ``"That was a 20% risk you
    did not need: 3 safe cells were there."``), or None when it stays silent.  Nothing is
    judged before the first reveal (the first click is free), when the game
    is over or paused, or without the solver.

    A judged move that does something marks the game assisted, like a hint
    (:func:`fastmine.coach.live`): the coach's word, and its silence, tell
    whether a proven-safe cell existed.
    """
    try:
        from ... import coach
        verdict = coach.live(game, kind, row, col)
    except (ImportError, ValueError, TypeError):
        return None
    return None if verdict is None else coach.remark(verdict)
