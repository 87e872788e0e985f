"""Taking back the move that lost a game (:meth:`fastmine.Game.take_back_loss`).

The position before the losing move is rebuilt from what the game already
keeps: its board and its move log without the last move.  Nothing is saved on
the way, so a normal move pays nothing for this.  Kept apart from
:mod:`fastmine.game` so the game and its rules of play
(:mod:`fastmine.gameplay`) stay short modules.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from . import _kernels
from .viewcodes import FLAG, HIDDEN, QUESTION, GameState

if TYPE_CHECKING:
    from .game import Game

_REVEALED = _kernels.STATE_REVEALED
# View code of each unrevealed cell state (indexed by the state).
_UNREVEALED_VIEW = np.zeros(4, np.int8)
_UNREVEALED_VIEW[_kernels.STATE_HIDDEN] = HIDDEN
_UNREVEALED_VIEW[_kernels.STATE_QUESTION] = QUESTION
_UNREVEALED_VIEW[_kernels.STATE_FLAG] = FLAG


def why_not(game: Game) -> str | None:
    """Why ``game``'s losing move cannot be taken back, or None if it can."""
    if game.state is not GameState.LOST:
        return f"the game is {game.state.value}, not lost"
    if not game.moves_complete:
        return ("the game was resumed from a save without its moves, so the position "
                "before the losing move is not known")
    if game.board is None or game._core.log_count() == 0:   # a lost game has both
        return "the game has no recorded moves"
    return None


def _stopped_clock() -> float:
    return 0.0


def take_back_loss(game: Game) -> NDArray[np.intp]:
    """Put ``game`` back as it was before its losing move (see
    :meth:`fastmine.Game.take_back_loss`); returns the cells that changed."""
    reason = why_not(game)
    if reason is not None:
        raise ValueError(f"the losing move cannot be taken back: {reason}")
    assert game.board is not None
    log = np.frombuffer(game._core.log_bytes(), np.int64)
    moves = game.moves
    kept, last_kind = log[:-2].copy(), int(moves[-1, 0]) & 3
    # Everything that can fail comes first, on a new game: ``game`` is not
    # touched until the position before the move is known.
    # type(game): this module is part of the game's, which imports it.
    before = type(game).from_board(game.board, question_marks=game.question_marks,
                             clock=_stopped_clock)
    inconsistent = ValueError("the losing move cannot be taken back: the game's "
                              "moves do not lead to it")
    try:
        for kind, r, c, _ms in moves[:-1].tolist():
            before._play_logged(kind, r, c)
    except ValueError:
        raise inconsistent from None
    st, old = before._st, game._st
    # The cells the losing move opened: revealed now, not before it.
    opened = (old == _REVEALED) & (st != _REVEALED)
    if (before.state.is_over or not opened.any()
            or ((st == _REVEALED) & (old != _REVEALED)).any()):
        raise inconsistent
    # The losing move made on the rebuilt position must lose the game as it
    # is: a log that does not say how each mark cycled (loaded from a save
    # written before it did, question marks switched since) can rebuild a
    # chord that did not open what it did, and those cells would be hidden
    # again without a word.
    again = copy.copy(before)
    try:
        again._play_logged(*(int(x) for x in moves[-1, :3]))
    except ValueError:
        raise inconsistent from None
    if again.state is not GameState.LOST or not np.array_equal(again._st == _REVEALED,
                                                                 old == _REVEALED):
        raise inconsistent
    now = game._clock() if before.state is GameState.PLAYING else None

    # Every cell the losing move did not open keeps its state as it is now
    # (it differs from the rebuilt one only for such an old log); the opened
    # cells get their state from before.
    old_view = game.view.copy()
    kept_st = ~opened & (st != old)
    new_st = np.where(opened, st, old)
    new_pv = before._pv.copy()
    new_pv[kept_st] = _UNREVEALED_VIEW[new_st[kept_st]]
    game._st[...] = new_st      # in place: the core and the view hold these arrays
    game._pv[...] = new_pv
    core = game._core
    core.recount()
    core.take_changes()
    core.log_set(kept)
    game._state = before.state
    if now is None:             # lost on the first reveal: the clock never ran
        game._elapsed = 0.0
        game._started = None
    else:
        game._started = now
        core.base = now - game._elapsed
    if last_kind == 0:
        game.left_clicks = max(0, game.left_clicks - 1)
    else:
        game.chord_clicks = max(0, game.chord_clicks - 1)
    game.assisted = True
    changed: NDArray[np.intp] = np.argwhere(old_view != game.view).astype(np.intp)
    return changed
