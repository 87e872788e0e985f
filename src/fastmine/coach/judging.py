"""The coach's judging: was each click of a game skill or luck?

:func:`analyze` replays a game's moves on its board and asks the exact solver
(:mod:`fastmine.solver`), before every click, what the player could know: the
chance that the clicked cell holds a mine, whether a certainly safe cell
existed anywhere, and the lowest risk on offer.  A guess taken while a safe
cell existed is judged by what safe play would have done to it
(:mod:`.safeplay`): needless when safe play settles the cell, early when it
changes its odds or offers a safer cell, early but fair (a forced guess taken
early) otherwise.  Each move gets a :class:`Verdict`; :func:`fatal` finds the
move that lost.  The words said about them are :mod:`fastmine.coach.words`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._validate import is_integer
from ..board import Board, Rule, _check_rule
from ..errors import PositionTooLargeError
from ..game import MOVE_ASSIST, MOVE_MARK, Game
from ..movelog import KIND_BITS
from ..solver import _kept, _workspace
from ..solver import probability as _probability
from ..solver.incremental import IncrementalAnalyzer
from ..solver.probability import _POOL_KEEP_BYTES, DEFAULT_MAX_ENTRIES, _pool
from ..viewcodes import FLAG, HIDDEN, QUESTION, GameState
from . import _replay
from .safeplay import AfterSafePlay, SafePlayer
from .verdicts import KINDS, MARGIN, Category, Verdict, _move, fatal, is_risky

# The verdict's types live in .verdicts; named here too, where they were first.
__all__ = ["Category", "KINDS", "MARGIN", "Verdict", "analyze", "fatal", "is_risky", "judge",
           "live", "tally"]

_READY = GameState.READY   # a module constant: a member lookup on the enum class costs


def _opened(view: NDArray[np.int8], kind: str, r: int, c: int) -> list[tuple[int, int]]:
    """The cells a reveal or chord at (r, c) opens directly in ``view`` (not the flood)."""
    v = int(view[r, c])
    if kind == "reveal":
        return [(r, c)] if v in (HIDDEN, QUESTION) else []
    if v < 0:                                   # a chord on an unrevealed cell does nothing
        return []
    # The 3x3 block as plain ints (one call instead of a NumPy lookup per
    # neighbour); the centre is a number, so it is neither a flag nor unknown.
    r0, c0 = max(r - 1, 0), max(c - 1, 0)
    block = view[r0:r + 2, c0:c + 2].tolist()
    if sum(row.count(FLAG) for row in block) != v:
        return []
    return [(r0 + i, c0 + j) for i, row in enumerate(block) for j, x in enumerate(row)
            if x in (HIDDEN, QUESTION)]


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
    cycles as its kind says.

    ``budget``: seconds the solver may spend on the whole game (None: no
    limit).  Once they are spent, every later move that needs the solver is
    :attr:`Category.NOT_ANALYSED`, so a game on a huge board never stalls a
    caller that waits for it (an Expert game takes a few milliseconds; a
    200x200 game of 8,000 moves some seconds).

    Parameters
    ----------
    board : Board
        The game's mines.
    moves : iterable
        The moves in the order played (see above).
    rule : {"opening", "cell", "no_guess", "none"}
        The first-click rule the board was made under.
    question_marks : bool
        Whether a ``"mark"`` cycles through the question mark.
    budget : float, optional
        Seconds for the whole game, 0 or more; None for no limit.

    Returns
    -------
    list of Verdict
        One verdict per move, in order.

    Raises
    ------
    TypeError
        ``board`` is not a :class:`fastmine.Board`, or a budget that is not a
        number.
    ValueError
        An unknown kind, a cell off the board, a move after the game ended, a
        first click the rule would have made safe that is a mine on this
        board, or a negative budget.
    """
    return _verdicts(*_judged(board, moves, rule, question_marks, budget, "analyze"))


def tally(board: Board, moves: Iterable[Any], *, rule: Rule = "opening",
          question_marks: bool = True, budget: float | None = None
          ) -> tuple[Counter[Category], list[Verdict]]:
    """How many moves of each :class:`Category` a game has, and the verdicts
    worth a word: :func:`analyze`'s, for a collection's statistics.

    The moves are judged as :func:`analyze` judges them, with the same
    arguments and errors, but a :class:`Verdict` is made only for the moves a
    summary speaks of: the guesses, the wrong flags, the moves not analysed
    and the move that lost.  :func:`~fastmine.coach.summary` of them is the
    summary of the whole game; a verdict a move costs several times what
    judging it does on a long game of certainly safe clicks.

    Parameters
    ----------
    board, moves, rule, question_marks, budget
        As for :func:`analyze`.

    Returns
    -------
    counts : Counter
        Moves by category (every move is counted).
    verdicts : list of Verdict
        The verdicts worth a word, in order.

    Examples
    --------
    >>> from fastmine import Board
    >>> board = Board.from_mines([[1, 0, 0], [0, 0, 0], [0, 0, 1]])
    >>> counts, said = tally(board, [("reveal", 1, 1), ("reveal", 0, 2)], rule="cell")
    >>> counts[Category.FIRST_CLICK], counts[Category.FORCED_GUESS], [v.index for v in said]
    (1, 1, [1])
    """
    codes, replay, extra = _judged(board, moves, rule, question_marks, budget, "tally")
    cats = replay.category
    counts = Counter({_CATEGORIES[c]: int(n) for c, n in enumerate(np.bincount(cats)) if n})
    keep = np.flatnonzero(_WORTH_A_WORD[cats] | (replay.survived == 0))
    return counts, _verdicts(codes, replay, extra, keep.tolist())


def _judged(board: Board, moves: Iterable[Any], rule: Rule, question_marks: bool,
            budget: float | None, caller: str
            ) -> tuple[NDArray[np.int64], _replay.Replay, dict[int, tuple[int | None, float,
                                                                          float | None]]]:
    """The moves judged by the compiled replay (see :func:`analyze`)."""
    if not isinstance(board, Board):
        raise TypeError(f"{caller} needs a fastmine.Board, got {type(board).__name__}")
    rule = _check_rule(rule)
    deadline = None if budget is None else time.monotonic() + _seconds(budget)
    rows, cols = board.shape
    codes, error, ended = _move_codes(moves, question_marks, rows, cols)
    ws = _pool.pop() if _pool else _workspace.Workspace()
    kept = _kept_counter(rows, cols, board.mine_count)
    try:
        replay = _replay.Replay(ws, board._pm, board._pc, rows, cols, board.mine_count, codes,
                                rule != "none", _INF if deadline is None else deadline,
                                DEFAULT_MAX_ENTRIES, time.monotonic, MARGIN, _FAULT, kept)
        extra = _run(replay, board, deadline)
    finally:
        if len(_pool) < 4 and ws.nbytes() <= _POOL_KEEP_BYTES:
            _pool.append(ws)
        if not _KEPT_BUDGET and rows * cols <= _KEPT_CELLS:
            _kept_pool.append(kept)     # taken out of the pool, or new: in it once
            del _kept_pool[:-4]
    if replay.status != _replay.DONE:
        _raise(replay.status, replay.at, codes, replay, board, rule)
    if error is not None:
        raise ended if ended is not None and replay.over else error
    return codes, replay, extra


_INF = float("inf")
def _kept_counter(rows: int, cols: int, mines: int) -> tuple[_kept.Counter, NDArray[np.float64]]:
    """A label counter for a game of this board, with its labels row: one kept
    from an earlier game of the same board if there is one (making one costs
    some 40 µs, a twentieth of judging an Expert game).  A counter carries on
    from any earlier view: a new game's view makes it read the board afresh."""
    if _KEPT_BUDGET:
        return (_kept.Counter(1, rows, cols, mines, _KEPT_BUDGET),
                np.zeros((1, rows * cols), np.float64))
    for i, k in enumerate(_kept_pool):
        c = k[0]
        if (c.rows, c.cols, c.mines) == (rows, cols, mines):
            return _kept_pool.pop(i)
    return _kept.Counter(1, rows, cols, mines), np.zeros((1, rows * cols), np.float64)


_kept_pool: list[tuple[_kept.Counter, NDArray[np.float64]]] = []
"""The label counters of the last boards judged (at most four)."""
_KEPT_CELLS = 10_000
"""Cells of the largest board whose counter is kept (its buffers grow with the board)."""
_KEPT_BUDGET = 0
"""For tests only: the label counter's enumeration budget (0: its own); a tiny
one hands every position to the solver's count, the path of a component too
large for the counter."""
_FAULT: BaseException | str | None = None
"""For tests only: ``"approximate"`` makes :func:`analyze` take every count as
approximate, an exception is raised in place of every count (as
:class:`~fastmine.errors.PositionTooLargeError` is for a position too large)."""
_CATEGORIES = (Category.FIRST_CLICK, Category.SAFE, Category.FORCED_GUESS,
               Category.AVOIDABLE_RISK, Category.EARLY_GUESS, Category.FORCED_EARLY,
               Category.WORSE_GUESS, Category.FLAG, Category.WRONG_FLAG, Category.MARK,
               Category.NO_EFFECT, Category.NOT_ANALYSED)
"""Each category's code in the compiled replay (:mod:`._replay`)."""
_CODE = {c: i for i, c in enumerate(_CATEGORIES)}
_WORTH_A_WORD = np.array([c in (Category.FORCED_GUESS, Category.AVOIDABLE_RISK,
                                Category.EARLY_GUESS, Category.FORCED_EARLY, Category.WORSE_GUESS,
                                Category.WRONG_FLAG, Category.NOT_ANALYSED)
                          for c in _CATEGORIES])
"""By category code: whether :func:`tally` makes the verdict (a summary speaks of
it); the move that lost is made too, whatever its category."""
_CODE_KINDS = ("reveal", "mark", "chord", "mark")
"""The kind of each move code (a move log's kind without its assist bit)."""
_INT64 = 1 << 62        # rows and columns beyond this are off any board


def _move_codes(moves: Iterable[Any], question_marks: bool, rows: int, cols: int
                ) -> tuple[NDArray[np.int64], BaseException | None, ValueError | None]:
    """The moves as ``(code, row, col)`` int64 rows for the compiled replay.

    Reading stops at the first move that is not one (a bad kind, a cell
    that is not a pair of integers); its error is returned beside the rows,
    to be raised once the moves before it are judged (one of those may
    raise first, as when the moves are judged one by one).  For a cell too
    far off the board to be stored, the third item is the error to raise
    instead when the game had ended before it (as that check comes first).
    """
    if (isinstance(moves, np.ndarray) and moves.ndim == 2 and moves.shape[1] in (3, 4)
            and (moves.dtype.kind == "i" or (moves.dtype.kind == "u" and moves.itemsize < 8))):
        # A move log: checked as a whole (its kinds; its cells by the replay).
        kinds = moves[:, 0]
        bad = (kinds < 0) | (kinds >= 2 * MOVE_ASSIST)
        n = int(np.argmax(bad)) if bad.any() else len(moves)
        codes = np.empty((n, 3), np.int64)
        codes[:, 0] = kinds[:n] & KIND_BITS
        codes[:, 1:] = moves[:n, 1:3]
        error: BaseException | None = None
        if n < len(moves):
            try:
                _move(moves[n].tolist(), n)
            except (TypeError, ValueError) as e:
                error = e
        return codes, error, None
    out: list[tuple[int, int, int]] = []
    error = None
    ended = None
    it = iter(moves)
    while True:
        i = len(out)
        try:
            m = next(it)
        except StopIteration:
            break
        except Exception as e:          # raised when the judging reaches move i
            error = e
            break
        try:
            kind, r, c, cycle = _move(m, i)
        except (TypeError, ValueError) as e:
            error = e
            break
        if not (-_INT64 < r < _INT64 and -_INT64 < c < _INT64):
            error = ValueError(f"move {i} is at ({r!r}, {c!r}), off the {rows}x{cols} board")
            ended = ValueError(f"move {i} ({kind} at {r}, {c}) comes after the game ended")
            break
        if kind == "mark":
            code = MOVE_MARK if (question_marks if cycle is None else cycle) else MOVE_MARK + 2
        else:
            code = 0 if kind == "reveal" else 2
        out.append((code, r, c))
    return np.array(out, np.int64).reshape(-1, 3), error, ended


def _run(replay: _replay.Replay, board: Board, deadline: float | None
         ) -> dict[int, tuple[int | None, float, float | None]]:
    """Run the replay to its end, judging by safe play each guess it stops at;
    returns those guesses' safe-play figures by move."""
    extra: dict[int, tuple[int | None, float, float | None]] = {}
    player: SafePlayer | None = None
    status = replay.run(0)
    while status == _replay.SAFE_PLAY:
        i = replay.at
        if player is None:
            player = SafePlayer(board)
        sp = player.play_flags(replay.view, replay.safe, replay.mine, replay.cells(), deadline)
        if sp is None:
            replay.category[i] = _CODE[Category.NOT_ANALYSED]
            replay.risk[i] = replay.best[i] = np.nan
        else:
            replay.category[i] = _CODE[_early(sp, float(replay.risk[i]))]
            extra[i] = (sp.opened, sp.risk, sp.best_risk)
        status = replay.run(i, True)
    return extra


def _early(sp: AfterSafePlay, risk: float) -> Category:
    """A guess taken while a safe cell existed (at ``risk``), by what safe play did to it."""
    if sp.settled:
        return Category.AVOIDABLE_RISK
    if (abs(sp.risk - risk) <= MARGIN and sp.best_risk is not None
            and sp.risk <= sp.best_risk + MARGIN):
        return Category.FORCED_EARLY
    return Category.EARLY_GUESS


def _raise(status: int, at: int, codes: NDArray[np.int64], replay: _replay.Replay,
           board: Board, rule: Rule) -> None:
    """Raise the error the replay stopped at move ``at`` for."""
    code, r, c = (int(x) for x in codes[at])
    if status == _replay.AFTER_END:
        raise ValueError(f"move {at} ({_CODE_KINDS[code]} at {r}, {c}) comes after the game ended")
    if status == _replay.OFF_BOARD:
        raise ValueError(f"move {at} is at ({r!r}, {c!r}), off the {board.rows}x{board.cols} board")
    if status == _replay.FIRST_MINE:
        raise ValueError(
            f"the first click at ({r}, {c}) is a mine on this board: "
            f"the board was not made under the {rule!r} rule")
    # No layout fits the view: the solver's own error says why.
    _probability.analyze(np.array(replay.view), board.mine_count)
    raise _probability.InconsistentViewError("inconsistent view")     # pragma: no cover


def _verdicts(codes: NDArray[np.int64], replay: _replay.Replay,
              extra: dict[int, tuple[int | None, float, float | None]],
              which: list[int] | None = None) -> list[Verdict]:
    """The replay's verdicts as :class:`Verdict` objects (of the moves
    ``which``, increasing; None: all)."""
    kinds, rs, cs = codes.T.tolist()
    out = []
    none3 = (None, None, None)
    cats = _CATEGORIES
    names = _CODE_KINDS
    columns: tuple[NDArray[Any], ...] = (replay.category, replay.risk, replay.best,
                                         replay.n_safe, replay.survived)
    if which is None:
        which = list(range(len(codes)))
    else:
        columns = tuple(c[which] for c in columns)
    for i, cat, risk, best, n_safe, survived in zip(
            which, *(c.tolist() for c in columns), strict=True):
        sp = extra.get(i, none3)
        out.append(Verdict(i, names[kinds[i]], (rs[i], cs[i]), cats[cat],
                           None if risk != risk else risk, None if best != best else best,
                           None if n_safe < 0 else n_safe, survived == 1, *sp))
    return out


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

    Parameters
    ----------
    game : Game
        The game, before the move.
    kind : {"reveal", "mark", "chord"}
        The move.
    row, col : int
        Its cell.
    rule : {"opening", "cell", "no_guess", "none"}, optional
        The first-click rule the board was made under (the game's by default).
    index : int
        Copied into the verdict.

    Returns
    -------
    Verdict
        The verdict on that move.

    Raises
    ------
    TypeError
        ``game`` is not a :class:`fastmine.Game`, or ``index`` is not a whole
        number.
    ValueError
        The mines are not laid yet, an unknown kind, a cell off the board, or
        a negative ``index``.

    Examples
    --------
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
    if not is_integer(index):
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
        self.analyzer: IncrementalAnalyzer | None = None
        self.board = game.board
        self.shape = game.shape
        self.mines = None if game.board is None else game.board.mines   # read once
        self._safe_player: SafePlayer | None = None

    def safe_player(self) -> SafePlayer:
        """Safe play on the game's board, kept from one guess to the next."""
        if self._safe_player is None:
            assert self.game.board is not None
            self._safe_player = SafePlayer(self.game.board)
        return self._safe_player

    def get(self) -> _probability.Analysis | None:
        game = self.game
        # Marks do not change what the solver knows: reuse until a cell opens.
        if self.revealed != game.revealed_count:
            if self.deadline is not None and time.monotonic() > self.deadline:
                self.analysis = None            # out of time: the rest is not analysed
                self.revealed = game.revealed_count
                return None
            if self.analyzer is None:
                self.analyzer = IncrementalAnalyzer(game.mine_count)
            try:
                # the game's positions follow one another: each analysis
                # starts from the cells the last one proved
                self.analysis = self.analyzer.analyze(game.view)
            except PositionTooLargeError:
                self.analysis = None
            self.revealed = game.revealed_count
        return self.analysis


def _verdict(game: Game, board: Board, rule: Rule, cache: _Cache, i: int, kind: str,
             r: int, c: int) -> Verdict:
    """The verdict on move ``i`` about to be made on ``game`` (whose mines are ``board``'s)."""
    state = game.state
    if state.is_over:
        raise ValueError(f"move {i} ({kind} at {r}, {c}) comes after the game ended")
    rows, cols = cache.shape
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"move {i} is at ({r!r}, {c!r}), off the {rows}x{cols} board")
    view = game.view
    mines = cache.mines
    if mines is None or cache.board is not board:
        mines = board.mines
    risk = best = None
    n_safe: int | None = None
    category: Category | None = None          # None: a reveal or chord the solver weighs
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
    first = state is _READY
    cells = [] if first and kind == "chord" else _opened(view, kind, r, c)
    if not cells:
        category = Category.NO_EFFECT
    elif first and rule != "none":
        if mines[r, c]:
            raise ValueError(
                f"the first click at ({r}, {c}) is a mine on this board: "
                f"the board was not made under the {rule!r} rule")
        category, risk, best = Category.FIRST_CLICK, 0.0, 0.0
    survived = not any(mines[p] for p in cells)
    if category is None:
        return _judge(cache, i, kind, (r, c), cells, survived)
    return Verdict(i, kind, (r, c), category, risk, best, n_safe, survived)


def _judge(cache: _Cache, i: int, kind: str, cell: tuple[int, int],
           cells: list[tuple[int, int]], survived: bool) -> Verdict:
    """The verdict on opening ``cells`` (move ``i``, a reveal or chord at ``cell``)."""
    a = cache.get()
    if a is None:
        return Verdict(i, kind, cell, Category.NOT_ANALYSED, None, None, None, survived)
    safe = a.safe
    n_safe = int(np.count_nonzero(safe))
    if all(safe[p] for p in cells):
        return Verdict(i, kind, cell, Category.SAFE, 0.0, 0.0, n_safe, survived)
    p = a.probabilities
    risk = float(max(p[q] for q in cells))
    if n_safe:
        # A guess while a safe cell existed: judged by what safe play does to it.
        sp = cache.safe_player().play(cache.game.view, a, cells, cache.deadline)
        if sp is None:
            return Verdict(i, kind, cell, Category.NOT_ANALYSED, None, None, n_safe, survived)
        return Verdict(i, kind, cell, _early(sp, risk), risk, 0.0, n_safe, survived, sp.opened,
                       sp.risk, sp.best_risk)
    if not a.exact:                 # certain cells stay certain, odds do not
        return Verdict(i, kind, cell, Category.NOT_ANALYSED, None, None, n_safe, survived)
    best = float(np.nanmin(a.probabilities))
    category = Category.WORSE_GUESS if risk > best + MARGIN else Category.FORCED_GUESS
    return Verdict(i, kind, cell, category, risk, best, 0, survived)


def live(game: Game, kind: str, row: int, col: int) -> Verdict | None:
    """The live coach's verdict on a move the player is about to make on
    ``game`` (say :func:`remark` of it after the move), or None when there is
    nothing to weigh: before the first reveal (that click is free under the
    rule), or when the game is over or paused.

    A verdict on a reveal, chord or flag marks the game assisted, as a
    hint does: the coach's word, and its silence, tell what only the solver
    knows (whether a proven-safe cell existed, the odds of a flagged cell).
    Bad moves raise as :func:`judge` does, the game unchanged.

    Parameters
    ----------
    game : Game
        The game, before the move.
    kind : {"reveal", "mark", "chord"}
        The move.
    row, col : int
        Its cell.

    Returns
    -------
    Verdict or None
        The verdict, or None when there is nothing to weigh.

    Raises
    ------
    TypeError, ValueError
        As :func:`judge`.

    Examples
    --------
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
