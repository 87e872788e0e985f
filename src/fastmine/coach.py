"""The coach: was each click of a game skill or luck?

:func:`analyze` replays a game's moves on its board and asks the exact solver
(:mod:`fastmine.solver`), before every click, what the player could know: the
chance that the clicked cell holds a mine, whether a certainly safe cell
existed anywhere, and the lowest risk on offer.  Each move gets a
:class:`Verdict`; :func:`summary` turns them into one line ("2 forced guesses
survived at 50/33%, 1 avoidable risk of 20%") and :func:`fatal` finds the
move that lost, with the odds the player had.

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
'1 forced guess survived at 25%'
"""

from __future__ import annotations

import enum
import operator
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .board import Board, Rule, _check_rule
from .errors import PositionTooLargeError
from .game import MOVE_ASSIST, MOVE_MARK, Game
from .movelog import KIND_BITS, KIND_NAMES
from .solver import probability as _probability
from .viewcodes import FLAG, HIDDEN, QUESTION, GameState

__all__ = ["Category", "KINDS", "MARGIN", "Verdict", "analyze", "describe", "fatal", "is_risky",
           "judge", "live", "remark", "summary", "tag"]

MARGIN = 1e-9
"""How much riskier than the best cell a guess must be to count as a worse
guess: the counts are exact, but the probabilities are floats, and two cells
with the same odds may differ in the last bits."""

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
    """A risk taken while a proven-safe cell existed elsewhere."""
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


_RISKY = (Category.FORCED_GUESS, Category.AVOIDABLE_RISK, Category.WORSE_GUESS)


@dataclass(frozen=True)
class Verdict:
    """The coach's verdict on one move.

    ``risk``: the chance that the move hits a mine (for a chord, the risk of the
    riskiest cell it opens, a lower bound of its chance to lose); for a flag,
    the chance the flagged cell holds a mine; None when not analysed.
    ``best_risk``: the lowest risk of any unknown cell at that moment (0.0 when a
    safe cell existed).  ``safe_cells_available``: proven-safe cells at that
    moment (None when not analysed).  ``survived``: False only for the move that
    lost the game.
    """

    index: int
    kind: str
    cell: tuple[int, int]
    category: Category
    risk: float | None
    best_risk: float | None
    safe_cells_available: int | None
    survived: bool = True


def _move(m: Any, index: int) -> tuple[str, int, int, bool | None]:
    """(kind, row, col, question marks) of one move: a ``(kind, row, col[, time])``
    tuple or array row, or an object with ``kind``, ``row`` and ``col``; the
    last is whether a mark cycled through "?", None when the kind does not say
    (a name, not a move log's number)."""
    if isinstance(m, (tuple, list, np.ndarray)) and len(m) in (3, 4):
        kind, r, c = m[0], m[1], m[2]
    elif all(hasattr(m, a) for a in ("kind", "row", "col")):
        kind, r, c = m.kind, m.row, m.col
    else:
        raise TypeError(f"move {index} must be (kind, row, col) or have kind, row and col, got {m!r}")
    kind = getattr(kind, "value", kind)         # an enum of kinds is fine too
    cycle: bool | None = None
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, (bool, np.bool_)):
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


def _neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(rr, cc) for rr in range(max(r - 1, 0), min(r + 2, rows))
            for cc in range(max(c - 1, 0), min(c + 2, cols)) if (rr, cc) != (r, c)]


def _opened(view: NDArray[np.int8], kind: str, r: int, c: int) -> list[tuple[int, int]]:
    """The cells a reveal or chord at (r, c) opens directly in ``view`` (not the flood)."""
    v = int(view[r, c])
    if kind == "reveal":
        return [(r, c)] if v in (HIDDEN, QUESTION) else []
    if v < 0:                                   # a chord on an unrevealed cell does nothing
        return []
    nb = _neighbours(view.shape[0], view.shape[1], r, c)
    if sum(1 for p in nb if view[p] == FLAG) != v:
        return []
    return [p for p in nb if view[p] in (HIDDEN, QUESTION)]


def analyze(board: Board, moves: Iterable[Any], *, rule: Rule = "opening",
            question_marks: bool = True, budget: float | None = None) -> list[Verdict]:
    """Replay ``moves`` on ``board`` and judge each one with the exact solver.

    ``moves``: ``(kind, row, col)`` tuples (or objects with ``kind``, ``row``
    and ``col``), kind one of :data:`KINDS`, in the order played; rows of a
    move log array ``(kind, row, col, ms)`` with kind 0 reveal, 1 mark, 2 chord,
    3 mark without "?" (plus 4 for a solver's move) are read too.  ``rule`` is
    the first-click rule the board was made under: with any rule but ``"none"``
    the first reveal is free (:attr:`Category.FIRST_CLICK`); with ``"none"`` it
    is judged like any other click.  ``question_marks``: whether a mark named
    ``"mark"`` cycles through "?" (as the game was set); a move log's mark
    cycles as its kind says.  Raises ``ValueError`` for an unknown
    kind, a cell off the board, a move after the game ended, or a first click
    the rule would have made safe that is a mine on this board.

    ``budget``: seconds the solver may spend on the whole game (None: no
    limit).  Once they are spent, every later move that needs the solver is
    :attr:`Category.NOT_ANALYSED`, so a game on a huge board never stalls a
    caller that waits for it (an Expert game takes a few milliseconds; a
    200x200 game of 8,000 moves some seconds).
    """
    if not isinstance(board, Board):
        raise TypeError(f"analyze needs a fastmine.Board, got {type(board).__name__}")
    rule = _check_rule(rule)
    deadline = None if budget is None else time.monotonic() + _seconds(budget)
    game = Game.from_board(board, question_marks=question_marks, clock=lambda: 0.0)
    cache = _Cache(game, deadline)
    verdicts: list[Verdict] = []
    for i, m in enumerate(moves):
        kind, r, c, cycle = _move(m, i)
        v = _verdict(game, board, rule, cache, i, kind, r, c)
        if kind == "mark":
            game.question_marks = question_marks if cycle is None else cycle
            game.toggle_mark(r, c)
        elif kind == "chord":
            game.chord(r, c)
        else:
            game.reveal(r, c)
        verdicts.append(v)
    return verdicts


def _seconds(budget: object) -> float:
    """``analyze``'s budget as float seconds (an int too large for a float is no limit)."""
    if isinstance(budget, (bool, np.bool_)) or not isinstance(budget, (int, float, np.integer,
                                                                       np.floating)):
        raise TypeError(f"budget must be a number of seconds or None, got {budget!r:.40}")
    try:
        seconds = float(budget)
    except OverflowError:           # 10**400 seconds: no limit worth the name
        seconds = float("inf")
    if not seconds >= 0:
        raise ValueError(f"budget must be a number of seconds, 0 or more, got {budget!r:.40}")
    return seconds


def judge(game: Game, kind: str, row: int, col: int, *, rule: Rule | None = None,
          index: int = 0) -> Verdict:
    """The verdict on a move about to be made on a live ``game`` (left unchanged).

    For a coach that speaks during play: call it before making the move.
    ``rule`` defaults to the game's own (a game made by ``Game.from_board``
    says ``"none"``: pass the rule its board was made under).  ``survived`` is
    read from the board, so the game's mines must be laid: it raises
    ``ValueError`` before the first reveal of a game that lays them then.
    ``index`` is copied into the verdict.

    >>> import fastmine
    >>> g = fastmine.Game(9, 9, 10, seed=3)
    >>> _ = g.reveal(4, 4)
    >>> judge(g, "reveal", 4, 4).category.value
    'no_effect'
    """
    if not isinstance(game, Game):
        raise TypeError(f"judge needs a fastmine.Game, got {type(game).__name__}")
    board = game.board
    if board is None:
        raise ValueError("the mines are laid at the first reveal: there is nothing to judge "
                         "against yet (the first click is free under the game's rule)")
    if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
        raise TypeError(f"index must be a whole number of moves, got {index!r:.40}")
    if index < 0:
        raise ValueError(f"index must be 0 or more, got {index}")
    kind, r, c, _cycle = _move((kind, row, col), int(index))
    rule = _check_rule(game.rule if rule is None else rule)
    return _verdict(game, board, rule, _Cache(game), int(index), kind, r, c)


class _Cache:
    """The solver's analysis of a game's view, redone only when a cell opened.

    ``deadline``: a :func:`time.monotonic` time after which no new analysis is
    started (the answer is then None, as for a position too large).
    """

    def __init__(self, game: Game, deadline: float | None = None) -> None:
        self.game = game
        self.deadline = deadline
        self.revealed = -1
        self.analysis: _probability.Analysis | None = None

    def get(self) -> _probability.Analysis | None:
        game = self.game
        # Marks do not change what the solver knows: reuse until a cell opens.
        if self.revealed != game.revealed_count:
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.analysis = None            # out of time: the rest is not analysed
                self.revealed = game.revealed_count
                return None
            try:
                self.analysis = _probability.analyze(game.view, game.mine_count)
            except PositionTooLargeError:
                self.analysis = None
            self.revealed = game.revealed_count
        return self.analysis


def _verdict(game: Game, board: Board, rule: Rule, cache: _Cache, i: int, kind: str,
             r: int, c: int) -> Verdict:
    """The verdict on move ``i`` about to be made on ``game`` (whose mines are ``board``'s)."""
    if game.state.is_over:
        raise ValueError(f"move {i} ({kind} at {r}, {c}) comes after the game ended")
    rows, cols = game.shape
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"move {i} is at ({r!r}, {c!r}), off the {rows}x{cols} board")
    view = game.view
    mines = board.mines
    risk = best = None
    n_safe: int | None = None
    if kind == "mark":
        before = int(view[r, c])
        if before == HIDDEN:
            a = cache.get()
            category = Category.FLAG if mines[r, c] else Category.WRONG_FLAG
            if a is not None:
                risk = float(a.probabilities[r, c])
        else:
            category = Category.MARK if before in (FLAG, QUESTION) else Category.NO_EFFECT
        return Verdict(i, kind, (r, c), category, risk, best, n_safe)
    first = game.state is GameState.READY
    cells = [] if first and kind == "chord" else _opened(view, kind, r, c)
    if not cells:
        category = Category.NO_EFFECT
    elif first and rule != "none":
        if mines[r, c]:
            raise ValueError(
                f"the first click at ({r}, {c}) is a mine on this board: "
                f"the board was not made under the {rule!r} rule")
        category, risk, best = Category.FIRST_CLICK, 0.0, 0.0
    else:
        category, risk, best, n_safe = _judge(cache.get(), cells)
    survived = not any(mines[p] for p in cells)
    return Verdict(i, kind, (r, c), category, risk, best, n_safe, survived)


def _judge(a: _probability.Analysis | None, cells: list[tuple[int, int]]
           ) -> tuple[Category, float | None, float | None, int | None]:
    """Category, risk, best risk and safe-cell count of opening ``cells``."""
    if a is None:
        return Category.NOT_ANALYSED, None, None, None
    idx = tuple(np.array(cells).T)
    n_safe = int(np.count_nonzero(a.safe))
    if a.safe[idx].all():
        return Category.SAFE, 0.0, 0.0, n_safe
    risk = float(a.probabilities[idx].max())
    if n_safe:
        return Category.AVOIDABLE_RISK, risk, 0.0, n_safe
    if not a.exact:                 # certain cells stay certain, odds do not
        return Category.NOT_ANALYSED, None, None, n_safe
    best = float(np.nanmin(a.probabilities))
    return (Category.WORSE_GUESS if risk > best + MARGIN else Category.FORCED_GUESS), risk, best, 0


def is_risky(v: Verdict) -> bool:
    """Whether a move is one a reader of the game looks at: a guess of any kind,
    an avoidable risk, or the move that lost."""
    return v.category in _RISKY or not v.survived


def fatal(verdicts: Iterable[Verdict]) -> Verdict | None:
    """The move that lost the game (its risk and the best risk are the odds the
    player had), or None when no move lost."""
    return next((v for v in verdicts if not v.survived), None)


def _short(v: float) -> str:
    """A percentage ``v`` in two significant digits at most (whole from 10 up)."""
    if v >= 10 or v == 0:
        return f"{v:.0f}"
    return f"{v:.2g}" if v < 1 else f"{v:.1f}".rstrip("0").rstrip(".")


def _pct(p: float, other: float | None = None) -> str:
    """``p`` in percent, as short as it reads well, but never "100" for a risk
    short of certain (nor "0" above nothing), and, given ``other`` (the best
    risk a worse guess is set against), with the digits that tell them apart."""
    v = p * 100
    text = _short(v)
    if text not in ("100", "0") and (other is None or text != _short(other * 100)):
        return text
    if abs(v - 100) <= 100 * MARGIN or v == 0:
        return text                 # certain (the counts are exact; the floats nearly)
    for digits in range(1, 7):      # 99.6, 99.96, ...; 20.4 against 20.2
        text = f"{v:.{digits}f}"
        if text != f"{100:.{digits}f}" and (other is None or text != f"{other * 100:.{digits}f}"):
            break
    return text.rstrip("0").rstrip(".")


MAX_LISTED = 4
"""Risks of one kind the summary lists one by one ("50/33/25%"); more are
given as their range ("6-50%"), so a long game's line stays a line."""


def _risks(texts: list[str], values: list[float]) -> str:
    """Risks as the summary writes them: each (``texts``), or their range."""
    if len(texts) <= MAX_LISTED:
        return "/".join(texts)
    lo, hi = texts[values.index(min(values))], texts[values.index(max(values))]
    return lo if lo == hi else f"{lo}-{hi}"


def _plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}es" if word.endswith("ss") else f"{n} {word}s"


def summary(verdicts: Iterable[Verdict]) -> str:
    """One line on skill and luck: the risks taken and survived, mistakes, the loss.

    >>> v = [Verdict(0, "reveal", (0, 0), Category.FIRST_CLICK, 0.0, 0.0, None),
    ...      Verdict(1, "reveal", (2, 2), Category.FORCED_GUESS, 0.5, 0.5, 0),
    ...      Verdict(2, "reveal", (4, 1), Category.AVOIDABLE_RISK, 0.2, 0.0, 3, False)]
    >>> summary(v)
    '1 forced guess survived at 50%, lost on an avoidable risk of 20% (a safe cell existed)'
    """
    vs = list(verdicts)
    parts = []
    for cat, word in ((Category.FORCED_GUESS, "forced guess"),
                      (Category.AVOIDABLE_RISK, "avoidable risk"),
                      (Category.WORSE_GUESS, "worse guess")):
        risks = [v.risk for v in vs if v.category is cat and v.survived and v.risk is not None]
        if risks:
            # The mistakes survived too (the loss is named apart); only the
            # forced guesses say so, as their survival is the luck.
            at = {Category.FORCED_GUESS: "survived at", Category.AVOIDABLE_RISK: "of"}.get(cat, "at")
            text = f"{_plural(len(risks), word)} {at} {_risks([_pct(p) for p in risks], risks)}%"
            if cat is Category.WORSE_GUESS:
                pairs = [(v.risk or 0.0, v.best_risk or 0.0) for v in vs
                         if v.category is cat and v.survived and v.risk is not None]
                took = _risks([_pct(p, b) for p, b in pairs], [p for p, _ in pairs])
                best = _risks([_pct(b, p) for p, b in pairs], [b for _, b in pairs])
                text = f"{_plural(len(pairs), word)} {at} {took}% (best {best}%)"
            parts.append(text)
    wrong = sum(v.category is Category.WRONG_FLAG for v in vs)
    if wrong:
        parts.append(_plural(wrong, "wrong flag"))
    # The losing move is named apart, as for the risks above.
    skipped = sum(v.category is Category.NOT_ANALYSED and v.survived for v in vs)
    if skipped:
        parts.append(f"{skipped} not analysed (too large to count)")
    lost = fatal(vs)
    if lost is not None:
        parts.append("lost on " + _loss(lost))
    if not parts:
        return "no guesses: every click was proven safe"
    return ", ".join(parts)


def remark(v: Verdict) -> str | None:
    """What the live coach says after a move (the app's toast, the terminal's
    message line), or None when it stays silent: a proven-safe move, a mark
    changed, a position it could not weigh.

    A flag is told its odds from what the player sees only, never from the
    hidden board: "no mine there" for a wrong guess and silence for a right
    one would let any cell be tested by flagging it.

    >>> remark(Verdict(3, "reveal", (0, 0), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
    'Risky: 20% — 3 safe cells were open to you.'
    >>> remark(Verdict(4, "mark", (1, 1), Category.WRONG_FLAG, 0.4, None, None))
    'Flag on a guess: 40% chance of a mine there.'
    >>> remark(Verdict(4, "reveal", (1, 1), Category.SAFE, 0.0, 0.0, 5)) is None
    True
    """
    cat, risk = v.category, v.risk
    if risk is None:
        return None
    if cat is Category.AVOIDABLE_RISK:
        n = v.safe_cells_available or 0
        cells = "1 safe cell was" if n == 1 else f"{n} safe cells were"
        return f"Risky: {_pct(risk)}% — {cells} open to you."
    if cat is Category.FORCED_GUESS:
        luck = "" if v.survived else " Bad luck."
        return f"Forced guess at {_pct(risk)}%: no safe cell existed.{luck}"
    if cat is Category.WORSE_GUESS:
        best = v.best_risk or 0.0
        return f"Guess at {_pct(risk, best)}%: a cell at {_pct(best, risk)}% was the safer guess."
    if cat in (Category.FLAG, Category.WRONG_FLAG):
        if risk == 0.0:
            return "Wrong flag: that cell was certainly safe."
        if risk < 1.0:
            return f"Flag on a guess: {_pct(risk)}% chance of a mine there."
    return None


def live(game: Game, kind: str, row: int, col: int) -> Verdict | None:
    """The live coach's verdict on a move the player is about to make on
    ``game`` (say :func:`remark` of it after the move), or None when there is
    nothing to weigh: before the first reveal (that click is free under the
    rule), or when the game is over or paused.

    A verdict on a reveal, chord or flag marks the game assisted, as a
    hint does: the coach's word, and its silence, tell what only the solver
    knows (whether a proven-safe cell existed, the odds of a flagged cell).
    Bad moves raise as :func:`judge` does, the game unchanged.

    >>> import fastmine
    >>> g = fastmine.Game(9, 9, 10, seed=3)
    >>> live(g, "reveal", 4, 4) is None          # the first click is free
    True
    >>> _ = g.reveal(4, 4)
    >>> v = live(g, "reveal", 0, 0)
    >>> g.assisted
    True
    """
    if not isinstance(game, Game):
        raise TypeError(f"live needs a fastmine.Game, got {type(game).__name__}")
    if game.board is None or game.state is not GameState.PLAYING or game.paused:
        return None
    v = judge(game, kind, row, col)
    if v.category not in (Category.NO_EFFECT, Category.MARK):  # those tell nothing
        game.assisted = True
    return v


def tag(v: Verdict) -> str:
    """A short mark of a move, for a replay's move list: ``safe``, ``guess 33%``,
    ``RISK 20% (3 safe)``, ``worse 40%>12%``, ``wrong flag``, ...; the move that
    lost ends in ``LOST``.

    >>> tag(Verdict(7, "reveal", (3, 5), Category.WORSE_GUESS, 0.4, 0.125, 0, False))
    'worse 40%>12% LOST'
    >>> tag(Verdict(2, "chord", (1, 1), Category.AVOIDABLE_RISK, 0.2, 0.0, 3))
    'RISK 20% (3 safe)'
    """
    risk = _pct(v.risk) if v.risk is not None else "?"
    text = {
        Category.FIRST_CLICK: "first click",
        Category.SAFE: "safe",
        Category.FORCED_GUESS: f"guess {risk}%",
        Category.AVOIDABLE_RISK: f"RISK {risk}% ({v.safe_cells_available} safe)",
        Category.WORSE_GUESS: f"worse {_pct(v.risk or 0.0, v.best_risk or 0.0)}%>{_pct(v.best_risk or 0.0, v.risk)}%",
        Category.FLAG: "flag",
        Category.WRONG_FLAG: "wrong flag",
        Category.MARK: "mark",
        Category.NO_EFFECT: "no effect",
        Category.NOT_ANALYSED: "not analysed",
    }[v.category]
    return text if v.survived else f"{text} LOST"


def _loss(v: Verdict) -> str:
    """How the losing move is named in the summary (and a risky move live)."""
    if v.category is Category.FORCED_GUESS and v.risk is not None:
        return f"a forced guess at {_pct(v.risk)}%"
    if v.category is Category.AVOIDABLE_RISK and v.risk is not None:
        return f"an avoidable risk of {_pct(v.risk)}% (a safe cell existed)"
    if v.category is Category.WORSE_GUESS and v.risk is not None:
        return (f"a guess at {_pct(v.risk, v.best_risk or 0.0)}% when "
                f"{_pct(v.best_risk or 0.0, v.risk)}% was on offer")
    return "a move the solver could not weigh (too large to count)"


def describe(v: Verdict) -> str:
    """One sentence on a move, for a replay's move list or "Why did I lose?".

    >>> describe(Verdict(7, "reveal", (3, 5), Category.WORSE_GUESS, 0.4, 0.125, 0, False))
    'Move 8, reveal at row 4, column 6: a 40% risk when the safest cell had 12%; it hit a mine.'
    """
    where = f"Move {v.index + 1}, {v.kind} at row {v.cell[0] + 1}, column {v.cell[1] + 1}: "
    risk = _pct(v.risk) if v.risk is not None else "?"
    text = {
        Category.FIRST_CLICK: "the first click, safe by the first-click rule",
        Category.SAFE: "proven safe",
        Category.FORCED_GUESS: f"a forced guess at {risk}% (no safe cell existed, none was safer)",
        Category.AVOIDABLE_RISK: (f"a {risk}% risk while {v.safe_cells_available} "
                                  f"proven-safe cell{'s' if v.safe_cells_available != 1 else ''}"
                                  " existed"),
        Category.WORSE_GUESS: (f"a {_pct(v.risk or 0.0, v.best_risk or 0.0)}% risk when the "
                               f"safest cell had {_pct(v.best_risk or 0.0, v.risk)}%"),
        Category.FLAG: "a flag on a mine",
        Category.WRONG_FLAG: "a flag on a cell with no mine",
        Category.MARK: "a mark changed",
        Category.NO_EFFECT: "changed nothing",
        Category.NOT_ANALYSED: "not analysed: the position or the game is too large to count exactly",
    }[v.category]
    return where + text + ("; it hit a mine." if not v.survived else ".")
