"""What the coach says of a move: :class:`Verdict`, its :class:`Category`, and
the moves it is said of.

The judging that makes verdicts is :mod:`.judging`; the words said about them
are :mod:`.words`.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validate import is_integer
from ..game import MOVE_ASSIST, MOVE_MARK
from ..movelog import KIND_BITS, KIND_NAMES

__all__ = ["KINDS", "MARGIN", "Category", "Verdict", "fatal", "is_risky"]

MARGIN = 1e-9
"""How much riskier than the best cell a guess must be to count as a worse
guess, and how far apart two risks must be to count as different (a guess's
risk before and after safe play): the counts are exact, but the probabilities
are floats, and two cells with the same odds may differ in the last bits."""

KINDS = ("reveal", "mark", "chord")
"""Move kinds :func:`analyze` accepts (a mark is one right click: flag, ?, clear)."""


class Category(str, enum.Enum):
    """What a move was, as the exact solver sees it."""

    FIRST_CLICK = "first_click"
    """The first reveal: the first-click rule makes it safe (free)."""
    SAFE = "safe"
    """Every cell it opened was proven safe."""
    FORCED_GUESS = "forced_guess"
    """No safe cell existed anywhere, and no cell was safer than this one."""
    AVOIDABLE_RISK = "avoidable_risk"
    """A needless guess: taken while a proven-safe cell existed, on a cell
    that safe play (opening every provably safe cell, again and again) would
    have opened or proven a mine."""
    EARLY_GUESS = "early_guess"
    """A guess taken early: a proven-safe cell existed, safe play would have
    left the cell uncertain, but with another risk, or with a safer cell on
    offer (``safe_play_risk``, ``safe_play_best``)."""
    FORCED_EARLY = "forced_early"
    """Early but fair: a forced guess taken before the safe cells.  Safe play
    would have left the cell uncertain with the same risk, and no cell safer:
    no fault (counted with the forced guesses)."""
    WORSE_GUESS = "worse_guess"
    """No safe cell existed, but another cell was strictly safer."""
    FLAG = "flag"
    """A flag on a mine."""
    WRONG_FLAG = "wrong_flag"
    """A flag on a cell that holds no mine (it may even have been proven safe)."""
    MARK = "mark"
    """A flag taken off, or a question mark changed: no claim made."""
    NO_EFFECT = "no_effect"
    """The move changed nothing (a click on a revealed or flagged cell, a chord
    whose flags do not match its number)."""
    NOT_ANALYSED = "not_analysed"
    """A move the solver could not weigh: a position too large for its exact
    count, or the time budget of :func:`analyze` spent."""


_RISKY = (Category.FORCED_GUESS, Category.FORCED_EARLY, Category.AVOIDABLE_RISK,
          Category.EARLY_GUESS, Category.WORSE_GUESS)


@dataclass(frozen=True, init=False)
class Verdict:
    """The coach's verdict on one move.

    Parameters
    ----------
    index : int
        The move's place in the game, 0-based.
    kind : {"reveal", "mark", "chord"}
        What the move was.
    cell : (int, int)
        Its ``(row, col)``.
    category : Category
        What it was, as the exact solver sees it.
    risk : float or None
        The chance that the move hits a mine (for a chord, the risk of the
        riskiest cell it opens, a lower bound of its chance to lose); for a
        flag, the chance the flagged cell holds a mine; None when not analysed.
    best_risk : float or None
        The lowest risk of any unknown cell at that moment (0.0 when a safe
        cell existed).
    safe_cells_available : int or None
        Proven-safe cells at that moment (None when not analysed).
    survived : bool
        False only for the move that lost the game.
    safe_play_cells : int or None
        For a guess taken early (fair or not): the cells safe play opens,
        cascades included, until no proven-safe cell is left; None otherwise.
    safe_play_risk : float or None
        The move's risk after that safe play: 0.0 when it opened the cells,
        1.0 when it proved one a mine (needless), else the risk the guess
        would have had; None when no safe cell existed.
    safe_play_best : float or None
        The lowest risk on offer once no proven-safe cell is left; None when
        safe play settled the move, or no safe cell existed.
    """

    index: int
    kind: str
    cell: tuple[int, int]
    category: Category
    risk: float | None
    best_risk: float | None
    safe_cells_available: int | None
    survived: bool = True
    safe_play_cells: int | None = None
    safe_play_risk: float | None = None
    safe_play_best: float | None = None

    def __init__(self, index: int, kind: str, cell: tuple[int, int], category: Category,
                 risk: float | None, best_risk: float | None,
                 safe_cells_available: int | None, survived: bool = True,
                 safe_play_cells: int | None = None, safe_play_risk: float | None = None,
                 safe_play_best: float | None = None) -> None:
        # The fields in one update: a frozen dataclass's own __init__ sets each
        # through object.__setattr__ (11 calls, ~2 us), and the coach makes one
        # verdict a move.  Frozen still: the dataclass's __setattr__ refuses.
        self.__dict__.update(
            index=index, kind=kind, cell=cell, category=category, risk=risk,
            best_risk=best_risk, safe_cells_available=safe_cells_available,
            survived=survived, safe_play_cells=safe_play_cells,
            safe_play_risk=safe_play_risk, safe_play_best=safe_play_best)


def _move(m: Any, index: int) -> tuple[str, int, int, bool | None]:
    """(kind, row, col, question marks) of one move: a ``(kind, row, col[, time])``
    tuple or array row, or an object with ``kind``, ``row`` and ``col``; the
    last is whether a mark cycled through "?", None when the kind does not say
    (a name, not a move log's number)."""
    # The common case first (a move log's rows as lists, by analyze): plain ints.
    if (type(m) is list or type(m) is tuple) and len(m) in (3, 4):
        kind, r, c = m[0], m[1], m[2]
        if type(kind) is int and type(r) is int and type(c) is int \
                and 0 <= kind < 2 * MOVE_ASSIST:
            code = kind & KIND_BITS
            return KIND_NAMES[code], r, c, code == MOVE_MARK
    if isinstance(m, (tuple, list, np.ndarray)) and len(m) in (3, 4):
        kind, r, c = m[0], m[1], m[2]
    elif all(hasattr(m, a) for a in ("kind", "row", "col")):
        kind, r, c = m.kind, m.row, m.col
    else:
        raise TypeError(f"move {index} must be (kind, row, col) or have kind, row and col, got {m!r}")
    kind = getattr(kind, "value", kind)         # an enum of kinds is fine too
    cycle: bool | None = None
    if is_integer(kind):
        # A move log's number: 0 reveal, 1 mark, 2 chord, 3 mark without "?"
        # (+4 when a solver made it).
        code = int(kind)
        if 0 <= code < 2 * MOVE_ASSIST:
            kind = KIND_NAMES[code & KIND_BITS]
            cycle = code & KIND_BITS == MOVE_MARK
    if kind not in KINDS:
        raise ValueError(f"move {index} has an unknown kind {kind!r}; choose one of {KINDS}")
    try:
        if isinstance(r, (bool, np.bool_)) or isinstance(c, (bool, np.bool_)):
            raise TypeError
        r, c = operator.index(r), operator.index(c)
    except TypeError:
        raise TypeError(f"move {index} must give its row and column as integers, got {r!r}, {c!r}") from None
    return str(kind), r, c, cycle


def is_risky(v: Verdict) -> bool:
    """Whether a move is one a reader of the game looks at.

    Parameters
    ----------
    v : Verdict
        The move's verdict.

    Returns
    -------
    bool
        True for a guess of any kind (forced, early, needless, worse), or the
        move that lost.
    """
    return v.category in _RISKY or not v.survived


def fatal(verdicts: Iterable[Verdict]) -> Verdict | None:
    """The move that lost the game.

    Parameters
    ----------
    verdicts : iterable of Verdict
        A game's verdicts (:func:`analyze`).

    Returns
    -------
    Verdict or None
        The losing move's verdict (its risk and the best risk are the odds the
        player had), or None when no move lost.
    """
    return next((v for v in verdicts if not v.survived), None)
