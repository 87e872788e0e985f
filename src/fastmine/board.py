"""Boards: where the mines are and the numbers they make.

A :class:`Board` is immutable.  It is made by :meth:`Board.generate` (random,
seeded, honouring a first-click rule) or :meth:`Board.from_mines` (a given mask).
Internally it keeps *padded* arrays -- one ring of sentinel cells around the
board -- so the Cython kernels never bounds-check a neighbour.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from . import _kernels
from ._validate import check_mines, check_point, check_seed, check_size, integer_dtype

Rule = Literal["cell", "opening", "no_guess", "none"]
"""A first-click rule's name, as type checkers see it (a misspelt rule fails them)."""

RULES: tuple[Rule, ...] = ("cell", "opening", "no_guess", "none")
"""First-click rules: see :meth:`Board.generate`."""

_RADIUS = {"none": -1, "cell": 0, "opening": 1}
_RADIUS_OR_NG = frozenset(RULES)


def _check_rule(rule: object) -> Rule:
    try:
        if rule in _RADIUS_OR_NG:
            return rule
    except TypeError:  # unhashable: not a rule name; report it below
        pass
    if not isinstance(rule, str):
        raise TypeError(f"rule must be a string, one of {RULES}, got {type(rule).__name__}")
    if rule not in RULES:
        raise ValueError(f"unknown first-click rule {rule!r}; choose one of {RULES}")
    return rule


class _RuleMaker(Protocol):
    """How boards of a rule the core cannot lay itself are made and checked (a module)."""

    def generate(self, rows: int, cols: int, mines: int, first_click: tuple[int, int],
                 seed: int | None = None) -> Board:
        """A board of the rule; the arguments are validated."""

    def check_possible(self, rows: int, cols: int, mines: int) -> None:
        """Raise ValueError when no board of that size can follow the rule."""


_RULE_MAKERS: dict[str, _RuleMaker] = {}
"""Makers of the rules that need more than the core, by rule name.

``"no_guess"`` needs the solver (a candidate board is kept only once the solver
has cleared it without a guess), and the solver builds on boards and games, so
the board cannot import it: :mod:`fastmine.solver.no_guess` registers itself
here (:func:`_register_rule`) when imported, which :func:`_rule_maker` does on
first use of the rule.
Its functions are looked up at each call, so a test may replace them.
"""


def _register_rule(rule: Rule, maker: _RuleMaker) -> None:
    """Make ``rule`` generate and check its boards with ``maker`` (see :data:`_RULE_MAKERS`)."""
    _RULE_MAKERS[rule] = maker


def _rule_maker(rule: Rule) -> _RuleMaker | None:
    """The maker of ``rule`` if the core cannot lay its boards itself, else None."""
    if rule in _RADIUS:
        return None
    if rule not in _RULE_MAKERS:
        # The solver's generator registers itself when imported (the board
        # cannot import the solver at its own import: the solver builds on it).
        from importlib import import_module

        import_module("fastmine.solver.no_guess")
    return _RULE_MAKERS[rule]


def opening_fits(rows: int, cols: int, mines: int, r: int, c: int) -> bool:
    """True when ``mines`` fit outside the 3x3 block around (r, c)."""
    block = (min(r + 1, rows - 1) - max(r - 1, 0) + 1) * (min(c + 1, cols - 1) - max(c - 1, 0) + 1)
    return mines <= rows * cols - block


class Board:
    """Mine positions and neighbour counts of one board.

    A board is not made with ``Board(...)``: :meth:`generate` lays a random
    one and :meth:`from_mines` takes a mask.  It is immutable: its arrays are
    read-only, so one board can back any number of games.

    Parameters
    ----------
    *args, **kwargs
        Not accepted.

    Raises
    ------
    TypeError
        Always, naming :meth:`generate` and :meth:`from_mines`.

    Examples
    --------
    >>> b = Board.from_mines([[0, 1, 0], [0, 0, 0]])
    >>> b.counts.tolist()   # at the mine itself: its own neighbour count
    [[1, 0, 1], [1, 1, 1]]
    >>> b.bbbv()
    5
    """

    # The size is read-only (properties over private slots): the kernels index
    # the padded arrays with it, so a caller writing ``board.rows`` must not be
    # able to make them read past the end.
    __slots__ = ("_rows", "_cols", "_mines", "_pm", "_pc", "_bbbv")
    _rows: int
    _cols: int
    _mines: int
    _pm: NDArray[np.uint8]
    _pc: NDArray[np.int8]
    _bbbv: tuple[int, int] | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("use Board.generate(...) or Board.from_mines(mask) to make a Board")

    @classmethod
    def _from_padded(cls, pm: np.ndarray, pc: np.ndarray, rows: int, cols: int, mines: int) -> Board:
        self = object.__new__(cls)
        self._rows = rows
        self._cols = cols
        self._mines = mines
        self._pm = pm
        self._pc = pc
        self._bbbv = None
        return self

    @classmethod
    def generate(
        cls,
        rows: int,
        cols: int,
        mines: int,
        first_click: tuple[int, int] | None = None,
        rule: Rule = "opening",
        seed: int | np.random.Generator | None = None,
    ) -> Board:
        """Lay ``mines`` mines at random, uniformly over the cells ``rule`` allows.

        ``rule``: ``"cell"`` keeps ``first_click`` safe; ``"opening"`` keeps it
        and its neighbours safe (falling back to ``"cell"`` when the board is too
        dense for that); ``"no_guess"`` makes a board solvable from ``first_click``
        by logic alone (see :mod:`fastmine.solver`); ``"none"`` ignores
        ``first_click``.  The same ``seed`` gives the same board.

        Parameters
        ----------
        rows, cols : int
            The size, at least one cell (see :mod:`fastmine.limits` for the
            largest).
        mines : int
            How many mines; the board must keep at least one safe cell.
        first_click : (int, int), optional
            The ``(row, col)`` of the first click; needed by every rule but
            ``"none"``.
        rule : {"opening", "cell", "no_guess", "none"}
            Where mines may not go (see above).
        seed : int or numpy.random.Generator, optional
            An integer from 0 to 2**64 - 1 (or a generator to draw one from);
            None draws fresh randomness.

        Returns
        -------
        Board
            The new board.

        Raises
        ------
        TypeError
            A size, count or seed that is not an integer, or a ``first_click``
            that is not a pair.
        ValueError
            A size out of range, more mines than the board holds, a
            ``first_click`` off the board or missing, an unknown ``rule``, or
            a seed out of range.
        fastmine.NoGuessTimeoutError
            ``rule="no_guess"`` found no solvable board within its time limit.

        Examples
        --------
        >>> b = Board.generate(9, 9, 10, first_click=(4, 4), seed=1)
        >>> b.mine_count, int(b.counts[4, 4]), bool(b.mines[4, 4])
        (10, 0, False)
        """
        rows, cols = check_size(rows, cols)
        mines = check_mines(mines, rows, cols)
        rule = _check_rule(rule)
        seed = check_seed(seed)
        if first_click is None:
            if rule != "none":
                raise ValueError(f"rule {rule!r} needs first_click=(row, col); use rule='none' for none")
            fr = fc = 0
        else:
            fr, fc = check_point(rows, cols, first_click)
        if rule == "opening" and mines <= rows * cols - 9:
            # Common case, checked cheaply: the 3x3 block always fits.
            return cls._lay(rows, cols, mines, fr, fc, 1, seed)
        maker = _rule_maker(rule)
        if maker is not None:  # "no_guess": the solver's generator
            return maker.generate(rows, cols, mines, (fr, fc), seed=seed)
        if rule == "opening" and not opening_fits(rows, cols, mines, fr, fc):
            rule = "cell"
        return cls._lay(rows, cols, mines, fr, fc, _RADIUS[rule], seed)

    @classmethod
    def _lay(cls, rows: int, cols: int, mines: int, fr: int, fc: int, radius: int,
             seed: int | None) -> Board:
        """Validated-argument generation (used by the solver's no-guess search)."""
        if seed is None:
            import random  # only for an unseeded board: not on a video's path

            seed = random.getrandbits(64)
        pm, pc = _kernels.lay_mines(rows, cols, mines, fr, fc, radius, seed & 0xFFFFFFFFFFFFFFFF)
        return cls._from_padded(pm, pc, rows, cols, mines)

    @classmethod
    def from_mines(cls, mask: ArrayLike) -> Board:
        """Make a board from a 2-D mask, true where a mine is.

        Parameters
        ----------
        mask : array_like
            Any 2-D array-like of bools or 0/1 integers (any NumPy integer
            dtype); it is copied.

        Returns
        -------
        Board
            The board with those mines and their neighbour counts.

        Raises
        ------
        TypeError
            For any other dtype: floats, strings, objects, and also NumPy's
            ``timedelta64``, which NumPy counts among its integers.
        ValueError
            For a shape that is not a 2-D board, a value other than 0 and 1, or
            a mine count the board cannot hold.
        """
        if (type(mask) is np.ndarray and mask.dtype == np.bool_ and mask.ndim == 2
                and mask.flags.c_contiguous and mask.size):
            # Fast path (the common case, e.g. a solver or a benchmark building
            # boards in a loop): one kernel pads, counts and totals the mines.
            rows, cols = check_size(*mask.shape)
            pm, pc, mines = _kernels.from_mask(mask.view(np.uint8))
            return cls._from_padded(pm, pc, rows, cols, check_mines(mines, rows, cols))
        if isinstance(mask, (str, bytes)):
            raise TypeError("mask must be a 2-D array of bools, not a string")
        try:
            arr = np.asarray(mask)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"mask must be a rectangular 2-D array: {exc}") from None
        if arr.size and not (arr.dtype == np.bool_ or integer_dtype(arr.dtype)):
            raise TypeError(f"mask must hold bools or 0/1 integers, got dtype {arr.dtype}")
        if arr.ndim != 2:
            raise ValueError(f"mask must be 2-D, got shape {arr.shape}")
        rows, cols = check_size(*arr.shape)   # before min/max read a huge (broadcast) mask
        if arr.dtype != np.bool_ and arr.size and (arr.min() < 0 or arr.max() > 1):
            raise ValueError("mask must hold only 0 and 1 (or bools)")
        mines = check_mines(int(np.count_nonzero(arr)), rows, cols)
        pm = np.zeros((rows + 2) * (cols + 2), np.uint8)  # owns its data: see below
        pm.reshape(rows + 2, cols + 2)[1:-1, 1:-1] = arr
        pc = np.zeros_like(pm, dtype=np.int8)
        _kernels.count_neighbours(pm, pc, rows, cols)
        # Read-only at the source: no view of a Board can be made writeable.
        pm.flags.writeable = False
        pc.flags.writeable = False
        return cls._from_padded(pm, pc, rows, cols, mines)

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """Number of columns."""
        return self._cols

    @property
    def mine_count(self) -> int:
        """Number of mines."""
        return self._mines

    def _interior(self, padded: np.ndarray) -> np.ndarray:
        v = padded.reshape(self._rows + 2, self._cols + 2)[1:-1, 1:-1]
        v.flags.writeable = False
        return v

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        return (self._rows, self._cols)

    @property
    def mines(self) -> np.ndarray:
        """Read-only bool array (rows, cols), True at a mine."""
        return self._interior(self._pm.view(np.bool_))

    @property
    def counts(self) -> np.ndarray:
        """Read-only int8 array (rows, cols): adjacent mines, 0..8.

        The value at a mine is its own neighbour count (not meaningful in play).
        """
        return self._interior(self._pc)

    def _stats(self) -> tuple[int, int]:
        if self._bbbv is None:
            self._bbbv = _kernels.bbbv_openings(self._pm, self._pc, self._rows, self._cols)
        return self._bbbv

    def bbbv(self) -> int:
        """3BV: the fewest left clicks that clear the board (no flags, no chords).

        Returns
        -------
        int
            One click per opening plus one per safe non-zero cell that no
            opening reveals (computed once, then kept).
        """
        return self._stats()[0]

    def openings(self) -> int:
        """Number of openings: connected regions of safe zero cells.

        Returns
        -------
        int
            Regions of zeros connected through their eight neighbours.
        """
        return self._stats()[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.shape == other.shape and np.array_equal(self._pm, other._pm)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self._pm.tobytes()))

    def __repr__(self) -> str:
        return f"<Board {self.rows}x{self.cols}, {self.mine_count} mines>"

    def __str__(self) -> str:
        """The board as text: ``*`` for a mine, ``.`` for 0, digits otherwise."""
        m, c = self.mines, self.counts
        return "\n".join(
            "".join("*" if m[r, k] else ("." if c[r, k] == 0 else str(c[r, k])) for k in range(self.cols))
            for r in range(self.rows)
        )
