"""Strategies that play a :class:`fastmine.Game`: one move, or a whole game.

Six strategies.  Five are the classic auto-sweep moves of Minesweeper helpers,
kept as simple as they are described -- as baselines and as assist buttons:

``"random"``
    Reveal a cell chosen uniformly among the unrevealed, unflagged cells.
``"deterministic"``
    Single-cell rules, trusting the player's flags, on the first number (row
    by row) where one applies: if the flags around it equal its number, chord
    it (reveal the rest); if its hidden cells plus flags equal its number, flag
    one of those hidden cells.  No move when no rule applies.
``"inference"``
    Multi-cell inference -- ours is exact: reveal the first cell the exact
    engine proves safe, else flag the first cell it proves a mine (flags are
    not trusted).  No move when nothing is certain.
``"probability"``
    Reveal the frontier cell (hidden, next to a revealed number) with the
    lowest exact mine probability, ties at random; like the seed it looks only
    at the frontier (all hidden cells when there is no frontier).
``"auto"``
    Deterministic, else inference, else random.

``"best"`` plays to win: every certain-safe cell first (no flags: flagging
costs nothing in win rate, it is never needed); an exhaustive search once few
mine layouts remain; an unavoidable 50/50 at once; otherwise the guess with the
best exact secondary safety -- the chance of surviving it times how safe the
next move will be (see :mod:`fastmine.solver.best`).  It uses no randomness.

The first move of a fresh game goes where the game's first-click rule makes it
best (:func:`first_click_for`): a corner for ``cell`` and ``none``; for
``opening`` (2, 2), or (3, 3) on boards at least 16 wide and tall as dense as
Expert (:data:`OPENING_DENSITY`); the centre for ``no_guess``.  Moves go
through the public :class:`~fastmine.Game` API; each :func:`step` sets
``game.assisted``.

>>> import fastmine
>>> from fastmine.solver.strategies import play
>>> g = fastmine.Game(9, 9, 10, seed=4)
>>> play(g, "deterministic", rng=1).name in ("PLAYING", "WON", "LOST")
True
>>> g.assisted
True
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import NDArray

from .. import viewcodes
from .._validate import check_size, is_integer
from ..board import Rule
from ..errors import GameOverError, GamePausedError
from ..game import Game
from . import _exact
from .best import Planner, planner_for

__all__ = ["STRATEGIES", "Strategy", "step", "play", "first_click_for", "OPENING_DENSITY"]

Strategy = Literal["best", "auto", "deterministic", "inference", "probability", "random"]
"""A strategy's name, as type checkers see it (a misspelt strategy fails them)."""

STRATEGIES: tuple[Strategy, ...] = ("best", "auto", "deterministic", "inference", "probability",
                                    "random")
"""Names accepted by :func:`step` and :func:`play`."""

_NO_MOVE = np.empty((0, 2), np.intp)
_NO_MOVE.flags.writeable = False


OPENING_DENSITY = 0.18
"""With an opening first click, boards at least 16 cells in both directions
open at (3, 3) from this mine density on, and at (2, 2) below it (measured,
docs/solver.md: at Intermediate's density, 15.6%, (2, 2) wins 89.17% of
300,000 16x16 games against 88.89% at (3, 3), and 86.21% against 85.61% of
100,000 16x30 games; at about Expert's, 20.3-20.6%, (3, 3) wins on 16x16 and
on 16x30)."""


def first_click_for(rows: int, cols: int, rule: Rule, mines: int) -> tuple[int, int]:
    """Where a solver clicks first under a first-click rule, on a board of
    ``rows`` x ``cols`` with ``mines`` mines.

    ``opening``: (2, 2), or (3, 3) on boards at least 16 in both directions
    with a mine density of :data:`OPENING_DENSITY` or more (Expert) -- far
    enough from the edges that the opening is big, close enough that its
    border is short; the denser the board, the further in pays.  ``cell``
    and ``none``: a corner (most likely a zero).  ``no_guess``: the centre.

    Parameters
    ----------
    rows, cols : int
        The size.
    rule : {"opening", "cell", "no_guess", "none"}
        The game's first-click rule.
    mines : int
        How many mines.

    Returns
    -------
    (int, int)
        The cell's ``(row, col)``.

    Raises
    ------
    TypeError, ValueError
        A size or mine count of the wrong type or out of range.

    Examples
    --------
    >>> first_click_for(16, 30, "opening", 99), first_click_for(16, 16, "opening", 40)
    ((3, 3), (2, 2))
    >>> first_click_for(16, 30, "cell", 99)
    (0, 0)
    """
    rows, cols = check_size(rows, cols)
    if not is_integer(mines):
        raise TypeError(f"mines must be an integer, got {type(mines).__name__}")
    mines = int(mines)
    if not 1 <= mines <= rows * cols - 1:
        raise ValueError(f"a {rows}x{cols} board holds 1 to {rows * cols - 1} mines, got {mines}")
    if rule == "opening":
        dense = mines >= OPENING_DENSITY * rows * cols
        k = 3 if min(rows, cols) >= 16 and dense else 2
        return min(k, rows - 1), min(k, cols - 1)
    if rule == "no_guess":
        return rows // 2, cols // 2
    return 0, 0


def _check(game: object, strategy: object) -> None:
    if not isinstance(game, Game):
        raise TypeError(f"expected a fastmine.Game, got {type(game).__name__}")
    if strategy not in STRATEGIES:
        if not isinstance(strategy, str):
            raise TypeError(f"strategy must be a string, one of {', '.join(STRATEGIES)}")
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    if game.state.is_over:
        raise GameOverError(f"the game is over ({game.state.value}); start a new game")
    if game.paused:
        raise GamePausedError("the game is paused; call resume() first")


def _rng(rng: object) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be None, an int seed or a numpy Generator, got {type(rng).__name__}")


# ---------------------------------------------------------------------- helpers

def _nsum(mask: np.ndarray) -> np.ndarray:
    """For each cell, how many of its 8 neighbours are set in ``mask``."""
    rows, cols = mask.shape
    p = np.zeros((rows + 2, cols + 2), np.int8)
    p[1:-1, 1:-1] = mask
    return (p[:-2, :-2] + p[:-2, 1:-1] + p[:-2, 2:] + p[1:-1, :-2] + p[1:-1, 2:]
            + p[2:, :-2] + p[2:, 1:-1] + p[2:, 2:])


def _first(mask: np.ndarray) -> tuple[int, int] | None:
    idx = np.flatnonzero(mask)
    if len(idx) == 0:
        return None
    r, c = divmod(int(idx[0]), int(mask.shape[1]))
    return r, c


def _reveal_or_unflag(game: Game, r: int, c: int) -> np.ndarray:
    """Reveal (r, c); a flagged cell is un-flagged first (that is the move)."""
    if game.view[r, c] == viewcodes.FLAG:
        return game.toggle_mark(r, c)
    return game.reveal(r, c)


def _toward_flag(game: Game, r: int, c: int) -> np.ndarray:
    """One mark toggle moving (r, c) toward a flag (a question mark first clears)."""
    return game.toggle_mark(r, c)


# ---------------------------------------------------------------- the classic auto-sweep moves

def _random(game: Game, rng: np.random.Generator) -> np.ndarray:
    v = game.view
    cells = np.flatnonzero((v == viewcodes.HIDDEN) | (v == viewcodes.QUESTION))
    if len(cells) == 0:
        return _NO_MOVE
    r, c = divmod(int(cells[rng.integers(len(cells))]), game.cols)
    return game.reveal(r, c)


def _deterministic(game: Game) -> np.ndarray:
    v = game.view
    hidden = (v == viewcodes.HIDDEN) | (v == viewcodes.QUESTION)
    flags = _nsum(v == viewcodes.FLAG)
    nh = _nsum(hidden)
    number = (v >= 0) & (nh > 0)
    chord = number & (flags == v)
    flag = number & (flags < v) & (nh + flags == v)
    # The first number (row-major) where either rule applies.
    idx = np.flatnonzero(chord | flag)
    if len(idx) == 0:
        return _NO_MOVE
    r, c = divmod(int(idx[0]), game.cols)
    if chord[r, c]:
        return game.chord(r, c)
    r0, c0 = max(r - 1, 0), max(c - 1, 0)
    block = hidden[r0:r + 2, c0:c + 2]
    plain = block & (v[r0:r + 2, c0:c + 2] == viewcodes.HIDDEN)
    first = _first(plain if plain.any() else block)
    assert first is not None  # the flag rule found a hidden cell in this block
    dr, dc = first
    return _toward_flag(game, r0 + dr, c0 + dc)


def _certain(game: Game, planner: Planner) -> tuple[np.ndarray, np.ndarray]:
    """Bool masks of the cells proven safe / mined (local rules, else exact)."""
    safe, mines = planner.local(game.view)
    if safe.any():
        return safe, mines
    return _exact.certain(game.view, game.mine_count)


def _inference(game: Game, planner: Planner) -> np.ndarray:
    v = game.view
    safe, mines = _certain(game, planner)
    openable = safe & ((v == viewcodes.HIDDEN) | (v == viewcodes.QUESTION))
    cell = _first(openable)
    if cell is not None:
        return game.reveal(*cell)
    cell = _first(safe & (v == viewcodes.FLAG))
    if cell is not None:
        return game.toggle_mark(*cell)
    if not mines.any():
        return _NO_MOVE
    cell = _first(mines & (v == viewcodes.HIDDEN))
    if cell is None:
        cell = _first(mines & (v == viewcodes.QUESTION))
    if cell is None:
        return _NO_MOVE
    return _toward_flag(game, *cell)


def _probability(game: Game, rng: np.random.Generator) -> np.ndarray:
    v = game.view
    openable = (v == viewcodes.HIDDEN) | (v == viewcodes.QUESTION)
    if not openable.any():
        return _NO_MOVE
    frontier = openable & (_nsum(v >= 0) > 0)
    cand = frontier if frontier.any() else openable
    p = _exact.probabilities(v, game.mine_count)
    pc = np.where(cand, p, np.inf)
    best = np.flatnonzero(pc <= pc.min() + 1e-12)
    r, c = divmod(int(best[rng.integers(len(best))]), game.cols)
    return game.reveal(r, c)


def _auto(game: Game, planner: Planner, rng: np.random.Generator) -> np.ndarray:
    changed = _deterministic(game)
    if len(changed) == 0:
        changed = _inference(game, planner)
    if len(changed) == 0:
        changed = _random(game, rng)
    return changed


# --------------------------------------------------------------------- public

def step(game: Game, strategy: Strategy = "best", *, rng: object = None) -> NDArray[np.intp]:
    """Make one move of ``strategy`` on ``game``.

    One move is one call of :meth:`~fastmine.Game.reveal`,
    :meth:`~fastmine.Game.chord` or :meth:`~fastmine.Game.toggle_mark`, logged
    as the solver's; sets ``game.assisted``.  On a fresh game the move is the
    first click (:func:`first_click_for`).

    Parameters
    ----------
    game : Game
        The game to move in.
    strategy : str
        One of :data:`STRATEGIES`.
    rng : None, int or numpy.random.Generator
        Drives the random choices (None: fresh randomness).

    Returns
    -------
    numpy.ndarray
        What the move returned: the changed cells as ``(row, col)`` pairs; an
        empty ``(0, 2)`` array when the strategy has no move (e.g.
        ``deterministic`` with no rule applying).

    Raises
    ------
    ValueError
        An unknown strategy.
    TypeError
        ``game`` is not a :class:`fastmine.Game`.
    fastmine.GameOverError, fastmine.GamePausedError
        The game is finished or paused.
    """
    _check(game, strategy)
    gen = _rng(rng)
    with game.assisting():     # logs these moves as the solver's (replays)
        if game.state.name == "READY":
            return game.reveal(*first_click_for(game.rows, game.cols, game.rule, game.mine_count))
        planner = planner_for(game)
        if strategy == "best":
            return planner.step(game)
        if strategy == "random":
            return _random(game, gen)
        if strategy == "deterministic":
            return _deterministic(game)
        if strategy == "inference":
            return _inference(game, planner)
        if strategy == "probability":
            return _probability(game, gen)
        return _auto(game, planner, gen)


def play(
    game: Game,
    strategy: Strategy = "best",
    *,
    first_click: tuple[int, int] | None = None,
    rng: object = None,
    endgame: bool = True,
    lookahead: bool = True,
    long_term: bool = True,
) -> viewcodes.GameState:
    """Play ``game`` with ``strategy`` until it is won or lost; return its GameState.

    ``first_click`` overrides where a fresh game is opened (default:
    :func:`first_click_for` the game's rule).  A strategy that runs out of
    moves (``deterministic`` or ``inference`` when nothing is certain) stops
    there and the state is still ``PLAYING``.  ``endgame=False`` turns off the
    exhaustive endgame search of ``best``, ``lookahead=False`` its one-move
    lookahead on close calls, ``long_term=False`` its weighing of the
    long-term 50/50 risk (:mod:`fastmine.solver.fifty`): each is a little
    faster and a little weaker.

    Parameters
    ----------
    game : Game
        The game to play (a fresh one or one in progress).
    strategy : str
        One of :data:`STRATEGIES`.
    first_click : (int, int), optional
        Where to open a fresh game.
    rng : None, int or numpy.random.Generator
        Drives the random choices.
    endgame, lookahead, long_term : bool
        The parts of ``best`` to use (see above).

    Returns
    -------
    GameState
        ``WON`` or ``LOST``, or ``PLAYING`` when the strategy ran out of moves.

    Raises
    ------
    ValueError
        An unknown strategy.
    TypeError
        ``game`` is not a :class:`fastmine.Game`, a flag is not a bool, or
        ``first_click`` is not a pair.
    fastmine.GameOverError, fastmine.GamePausedError
        The game is finished or paused.
    """
    _check(game, strategy)
    for name, flag in (("endgame", endgame), ("lookahead", lookahead), ("long_term", long_term)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    gen = _rng(rng)
    with game.assisting():     # logs these moves as the solver's (replays)
        if game.state.name == "READY":
            if first_click is None:
                first_click = first_click_for(game.rows, game.cols, game.rule, game.mine_count)
            elif not (isinstance(first_click, tuple) and len(first_click) == 2):
                raise TypeError(f"first_click must be a (row, col) tuple, got {first_click!r}")
            game.reveal(*first_click)
        if strategy == "best":
            planner = planner_for(game, endgame=endgame, lookahead=lookahead, long_term=long_term)
            return planner.play(game)
        while not game.state.is_over:
            if len(step(game, strategy, rng=gen)) == 0:
                break
        return game.state
