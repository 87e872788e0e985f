"""Game codes: a short, copy-pastable text that names one game, to share or race.

Two kinds of code, both versioned and checked:

``seed`` codes (short: at most 15 letters for Expert) carry the size, the mine
count, the first-click rule and the seed.  Mines are laid at the first click
(see :meth:`fastmine.Board.generate`), so two players get the same board when
they make the same first click; with the rule ``"none"`` the board does not
depend on the first click at all.

``board`` codes carry the mines themselves (enumerative coding: about 75
letters for Expert), so everyone plays exactly the same layout, whatever
their first click; the first click may then be a mine, as on any fixed board.

A code is Crockford base32 (digits and capital letters without I, L, O, U, so
nothing reads two ways), in groups of five joined by hyphens.  Reading one
ignores case, spaces and hyphens and takes ``I``/``L`` as ``1`` and ``O`` as
``0``; a code pasted from a chat or a word processor reads the same (its
no-break or full-width spaces, en dashes, zero-width spaces and full-width
letters are read as spaces, hyphens and letters: Unicode NFKC, then every
space, dash and invisible format character is ignored).  Text far longer than
any code (:data:`MAX_CODE_CHARS`) is refused before it is read.  The last three characters are check letters: any single mistyped or
swapped pair of characters is always caught, and a random error slips through
about once in 32,749 tries.  A typo gives a clear :class:`ValueError`, never a
different board.

>>> code = seed_code(16, 30, 99, seed=12345)
>>> code
'16H30-E889P'
>>> spec = decode(code.lower().replace("-", " "))
>>> spec.rows, spec.cols, spec.mines, spec.rule, spec.seed
(16, 30, 99, 'opening', 12345)
>>> decode("16H30-E889Q")
Traceback (most recent call last):
...
ValueError: this code has a typo: its check letters do not match
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ._validate import check_mines, check_seed, check_size
from .board import RULES, Board, Rule, _check_rule
from .difficulty import DIFFICULTIES
from .game import Game

__all__ = ["CODE_VERSION", "MAX_BOARD_CODE_CELLS", "MAX_CODE_CHARS", "MAX_CODE_SYMBOLS",
           "GameSpec", "board_code", "code_of", "daily", "decode", "encode", "new_game",
           "seed_code"]

CODE_VERSION = 1
"""The version this fastmine writes (the code's first character)."""

MAX_BOARD_CODE_CELLS = 2500
"""Largest board (rows x cols) a ``board`` code holds: 50 x 50.  Bigger boards
share a ``seed`` code, which stays short at any size."""

MAX_CODE_SYMBOLS = 520
"""Most letters and digits (separators not counted) of a code :func:`decode` reads.
The longest code there is, a board code of 2,500 cells with half of them mines,
has 514 (about 615 characters with its hyphens)."""

MAX_CODE_CHARS = 4 * MAX_CODE_SYMBOLS
"""Longest text :func:`decode` looks at (2,080 characters: room for a separator
or two between every letter); longer text is refused before it is read."""

Kind = Literal["seed", "board"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford base32: no I, L, O or U."""

_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
_VALUE.update({"I": 1, "L": 1, "O": 0})
_IGNORED = frozenset(" \t\r\n-_")
# Unicode's spaces (Zs), dashes (Pd), invisible format characters (Cf: zero-width
# space, soft hyphen, byte order mark ...) and the minus sign read as separators.
_IGNORED_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Pd", "Cf"})
_IGNORED_EXTRA = frozenset("\u2212\u2043\ufe63\uff0d")    # minus, hyphen bullet, small/wide
_DIGITS = "0123456789abcdefghijklmnopqrstuv"                  # int(text, 32)

# Sizes with a number of their own in version 1 (shorter codes).  Frozen: a new
# preset must not renumber these, or old codes would name other boards.
_PRESETS: tuple[tuple[int, int, int], ...] = (
    (9, 9, 10), (16, 16, 40), (16, 30, 99), (5, 5, 4),
    (10, 10, 15), (15, 15, 36), (20, 20, 80), (25, 25, 188))

_CHECK_PRIME = 32749          # largest prime below 32**3: fits three check letters
_CHECK_CHARS = 3
_GROUP = 5
_SEED_BYTES = 8
_DAILY_SEED_BITS = 40         # 5 bytes: short codes, 10**12 boards a day is plenty


@dataclass(frozen=True)
class GameSpec:
    """What a game code says: the board's size and mines, and how to make it.

    ``kind == "seed"``: ``seed`` and ``rule`` are set and ``board`` is None;
    the board is laid at the first click.  ``kind == "board"``: ``board`` holds
    the exact mines, ``seed`` is None and ``rule`` is ``"none"``.

    Parameters
    ----------
    kind : {"seed", "board"}
        Which kind of code.
    rows, cols : int
        The size.
    mines : int
        How many mines.
    rule : {"opening", "cell", "no_guess", "none"}
        The first-click rule.
    seed : int, optional
        The board's seed (seed codes).
    board : Board, optional
        The board (board codes).
    """

    kind: Kind
    rows: int
    cols: int
    mines: int
    rule: Rule
    seed: int | None = None
    board: Board | None = None

    @property
    def code(self) -> str:
        """This spec's game code (see :func:`encode`)."""
        return encode(self)

    def new_game(self, question_marks: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> Game:
        """A fresh :class:`~fastmine.Game` of this spec.

        Parameters
        ----------
        question_marks : bool
            Whether a right click cycles through the question mark.
        clock : callable
            The game's clock, returning seconds.

        Returns
        -------
        Game
            A game on the board, or laid from the seed at the first click.
        """
        if self.board is not None:
            return Game.from_board(self.board, question_marks=question_marks, clock=clock)
        return Game(self.rows, self.cols, self.mines, rule=self.rule, seed=self.seed,
                    question_marks=question_marks, clock=clock)


# ------------------------------------------------------------------ bits


class _Writer:
    def __init__(self) -> None:
        self.value = 0
        self.bits = 0

    def put(self, value: int, bits: int) -> None:
        self.value = (self.value << bits) | value
        self.bits += bits

    def put_number(self, value: int) -> None:
        """A positive number: 5 bits of length, then the bits (up to 31 bits)."""
        n = value.bit_length()
        self.put(n, 5)
        self.put(value, n)


class _Reader:
    def __init__(self, value: int, bits: int) -> None:
        self.value = value
        self.left = bits

    def get(self, bits: int) -> int:
        if bits > self.left:
            raise ValueError("this game code is damaged: it ends too early")
        self.left -= bits
        return (self.value >> self.left) & ((1 << bits) - 1)

    def get_number(self) -> int:
        return self.get(self.get(5))


def _check_value(symbols: list[int]) -> int:
    # Horner's rule mod a prime above 32, starting from 1 (so leading zeros
    # count): a change of one symbol alters the sum by d * 32**k with
    # 0 < |d| < 32, and a swap of neighbours by (a - b) * 31 * 32**k; neither is
    # ever a multiple of the prime, so both are always caught.
    h = 1
    for s in symbols:
        h = (h * 32 + s) % _CHECK_PRIME
    return h


def _to_code(w: _Writer) -> str:
    pad = -w.bits % 5
    value, n = w.value << pad, (w.bits + pad) // 5
    symbols = [(value >> (5 * (n - 1 - i))) & 31 for i in range(n)]
    h = _check_value(symbols)
    symbols += [(h >> (5 * (_CHECK_CHARS - 1 - i))) & 31 for i in range(_CHECK_CHARS)]
    text = "".join(ALPHABET[s] for s in symbols)
    return "-".join(text[i:i + _GROUP] for i in range(0, len(text), _GROUP))


def _ignored(ch: str) -> bool:
    return (ch in _IGNORED or ch in _IGNORED_EXTRA
            or unicodedata.category(ch) in _IGNORED_CATEGORIES)


def _symbols(code: object) -> list[int]:
    if not isinstance(code, str):
        raise TypeError(f"a game code is text, got {type(code).__name__}")
    if len(code) > MAX_CODE_CHARS:      # before anything else: the work is linear after
        raise ValueError(f"this is not a game code: {len(code):,} characters, and the "
                         f"longest code has about 615")
    out = []
    for ch in unicodedata.normalize("NFKC", code).upper():
        if _ignored(ch):
            continue
        v = _VALUE.get(ch)
        if v is None:
            raise ValueError(f"a game code has only digits and the letters A-Z except U; "
                             f"{ch!r} is not one of them")
        out.append(v)
    if len(out) > MAX_CODE_SYMBOLS:
        raise ValueError(f"this is not a game code: {len(out):,} letters and digits, and "
                         f"the longest code has {MAX_CODE_SYMBOLS}")
    if len(out) < 2 + _CHECK_CHARS:
        raise ValueError("this game code is too short: copy the whole code" if out
                         else "the game code is empty")
    return out


# ------------------------------------------------------------------ encode


def _rank(cells: np.ndarray) -> int:
    """Enumerative rank of a sorted set of cell indices: sum of C(cell, i + 1).

    Walked from the largest cell down with the binomial carried along (as
    :func:`_unrank`): O(n + k) products by small numbers, not k fresh binomials.
    """
    cs = [int(c) for c in cells]
    if not cs:
        return 0
    c, j = cs[-1], len(cs)
    b = math.comb(c, j)
    total = 0
    for target in reversed(cs):
        while c > target:           # C(c - 1, j) = C(c, j) (c - j) / c
            b = b * (c - j) // c
            c -= 1
        total += b
        if b == 0 or j == 1:        # 0: the cells below are 0 .. j-2, each adding 0
            return total
        b = b * j // c              # C(c - 1, j - 1) = C(c, j) j / c
        c, j = c - 1, j - 1
    return total


def _unrank(rank: int, k: int, n: int) -> list[int]:
    """Inverse of :func:`_rank` for k cells out of n (largest cell first)."""
    out: list[int] = []
    if k == 0:
        return out
    # The largest c with C(c, i) <= rank, walking down from the last pick.  The
    # binomial is carried along (C(c-1, i) = C(c, i) (c-i)/c and C(c-1, i-1) =
    # C(c, i) i/c, both exact), so each step is one product and one division by
    # a small number instead of a fresh math.comb: O(n + k) cheap steps.
    c, i = n - 1, k
    b = math.comb(c, i)
    while True:
        while b > rank:
            b = b * (c - i) // c
            c -= 1
        out.append(c)
        rank -= b
        if i == 1:
            return out
        b = b * i // c          # C(c - 1, i - 1)
        c, i = c - 1, i - 1


def _put_size(w: _Writer, rows: int, cols: int, mines: int) -> None:
    try:
        i = _PRESETS.index((rows, cols, mines))
    except ValueError:
        w.put(0, 1)
        w.put_number(rows)
        w.put_number(cols)
        w.put_number(mines)
    else:
        w.put(1, 1)
        w.put(i, 3)


def seed_code(rows: int, cols: int, mines: int, seed: int, rule: Rule = "opening") -> str:
    """The ``seed`` code of a game: same code, same seed; same first click, same board.

    Parameters
    ----------
    rows, cols : int
        The size.
    mines : int
        How many mines.
    seed : int
        The board's seed, 0 to 2**64 - 1.
    rule : {"opening", "cell", "no_guess", "none"}
        The first-click rule.

    Returns
    -------
    str
        The code, in groups of five letters.

    Raises
    ------
    TypeError, ValueError
        A size, mine count, rule or seed of the wrong type or out of range.

    Examples
    --------
    >>> seed_code(9, 9, 10, seed=7)
    '160GE-M70'
    >>> seed_code(9, 9, 10, seed=7, rule="no_guess")
    '1A0GE-M9C'
    """
    rows, cols = check_size(rows, cols)
    mines = check_mines(mines, rows, cols)
    rule = _check_rule(rule)
    if seed is None or isinstance(seed, np.random.Generator):
        raise TypeError("a seed code needs an integer seed (0 to 2**64 - 1)")
    checked = check_seed(seed)
    if checked is None:   # pragma: no cover - refused above; keeps the type exact
        raise TypeError("a seed code needs an integer seed")
    seed = checked
    w = _Writer()
    w.put(CODE_VERSION, 5)
    w.put(0, 1)                                   # kind: seed
    w.put(RULES.index(rule), 2)
    _put_size(w, rows, cols, mines)
    nbytes = (seed.bit_length() + 7) // 8
    w.put(nbytes, 4)
    w.put(seed, 8 * nbytes)
    return _to_code(w)


def board_code(board: Board) -> str:
    """The ``board`` code of a fixed board: the exact mines, whatever the first click.

    Parameters
    ----------
    board : Board
        At most :data:`MAX_BOARD_CODE_CELLS` cells.

    Returns
    -------
    str
        The code, in groups of five letters.

    Raises
    ------
    TypeError
        ``board`` is not a :class:`fastmine.Board`.
    ValueError
        The board is too big for a board code.

    Examples
    --------
    >>> board_code(Board.from_mines([[0, 1, 0], [0, 0, 1]]))
    '1GM5H-ARS3Y'
    """
    if not isinstance(board, Board):
        raise TypeError(f"board_code needs a fastmine.Board, got {type(board).__name__}")
    rows, cols, mines = board.rows, board.cols, board.mine_count
    n = rows * cols
    if n > MAX_BOARD_CODE_CELLS:
        raise ValueError(f"a board code holds at most {MAX_BOARD_CODE_CELLS} cells; this "
                         f"{rows}x{cols} board has {n}: share a seed code instead")
    w = _Writer()
    w.put(CODE_VERSION, 5)
    w.put(1, 1)                                   # kind: board
    _put_size(w, rows, cols, mines)
    width = (math.comb(n, mines) - 1).bit_length()
    w.put(_rank(np.flatnonzero(board.mines)), width)
    return _to_code(w)


def encode(spec: GameSpec) -> str:
    """The game code of a :class:`GameSpec` (a seed or a board code, by its kind).

    Parameters
    ----------
    spec : GameSpec
        What the code says.

    Returns
    -------
    str
        The code, as :func:`seed_code` or :func:`board_code` writes it.

    Raises
    ------
    TypeError
        ``spec`` is not a :class:`GameSpec`.
    ValueError
        A seed spec without its seed, a board spec without its board, or a
        board too big for a code.
    """
    if not isinstance(spec, GameSpec):
        raise TypeError(f"encode needs a GameSpec, got {type(spec).__name__}")
    if spec.kind == "board":
        if spec.board is None:
            raise ValueError("a board GameSpec needs its board")
        return board_code(spec.board)
    if spec.seed is None:
        raise ValueError("a seed GameSpec needs its seed")
    return seed_code(spec.rows, spec.cols, spec.mines, spec.seed, spec.rule)


def code_of(game: Game) -> str | None:
    """The code of a game: its seed code if it has a seed, else its board code once the
    mines are laid (after the first click, or from the start on a fixed board); None
    before the first click of a game laid from fresh randomness, or when the board is
    too big for a board code.

    Parameters
    ----------
    game : Game
        Any game, in any state.

    Returns
    -------
    str or None
        The code, or None (see above).

    Raises
    ------
    TypeError
        ``game`` is not a :class:`fastmine.Game`.
    """
    if not isinstance(game, Game):
        raise TypeError(f"code_of needs a fastmine.Game, got {type(game).__name__}")
    if game.seed is not None:
        return seed_code(game.rows, game.cols, game.mine_count, game.seed, game.rule)
    board = game.board
    if board is None or board.rows * board.cols > MAX_BOARD_CODE_CELLS:
        return None
    return board_code(board)


# ------------------------------------------------------------------ decode


def decode(code: str) -> GameSpec:
    """Read a game code.

    Letters are read without regard to case; spaces, dashes and underscores
    are ignored, and ``I``, ``L`` and ``O`` read as ``1``, ``1`` and ``0``.

    Parameters
    ----------
    code : str
        A code as :func:`encode` writes it.

    Returns
    -------
    GameSpec
        What the code says.

    Raises
    ------
    TypeError
        ``code`` is not text.
    ValueError
        A typo (the check letters do not match), a code from a newer
        fastmine, or a damaged or foreign code.

    Examples
    --------
    >>> decode("1GM5H-ARS3Y").board.mines.astype(int).tolist()
    [[0, 1, 0], [0, 0, 1]]
    """
    symbols = _symbols(code)
    body, check = symbols[:-_CHECK_CHARS], symbols[-_CHECK_CHARS:]
    h = 0
    for s in check:
        h = h * 32 + s
    if _check_value(body) != h:
        raise ValueError("this code has a typo: its check letters do not match")
    version = body[0]
    if version > CODE_VERSION:
        raise ValueError(f"this game code is from a newer fastmine (code version {version}, "
                         f"this one reads up to {CODE_VERSION}): update fastmine to play it")
    if version < 1:
        raise ValueError("this is not a fastmine game code (its version is 0)")
    value = int("".join(_DIGITS[s] for s in body), 32)     # linear, unlike value * 32 + s
    r = _Reader(value, 5 * len(body))
    r.get(5)
    try:
        spec = _read_body(r)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        if not msg.startswith("this game code is damaged"):
            msg = f"this game code is damaged: {msg}"
        raise ValueError(msg) from None
    # Only padding (under 5 bits, all zero) may follow: anything else is damage.
    if r.left >= 5 or r.get(r.left) != 0:
        raise ValueError("this game code is damaged: it has extra characters at its end")
    return spec


def _read_size(r: _Reader) -> tuple[int, int, int]:
    if r.get(1):
        i = r.get(3)
        return _PRESETS[i]
    rows, cols = check_size(r.get_number(), r.get_number())
    return rows, cols, check_mines(r.get_number(), rows, cols)


def _read_body(r: _Reader) -> GameSpec:
    if r.get(1) == 0:
        rule = RULES[r.get(2)]
        rows, cols, mines = _read_size(r)
        nbytes = r.get(4)
        if nbytes > _SEED_BYTES:
            raise ValueError("its seed is too long")
        seed = r.get(8 * nbytes)
        return GameSpec("seed", rows, cols, mines, rule, seed=seed)
    rows, cols, mines = _read_size(r)
    n = rows * cols
    if n > MAX_BOARD_CODE_CELLS:
        raise ValueError(f"its board has {n} cells, more than a board code holds")
    total = math.comb(n, mines)
    rank = r.get((total - 1).bit_length())
    if rank >= total:
        raise ValueError("its mines do not fit its board")
    mask = np.zeros(n, np.bool_)
    mask[_unrank(rank, mines, n)] = True
    board = Board.from_mines(mask.reshape(rows, cols))
    return GameSpec("board", rows, cols, mines, "none", board=board)


# ------------------------------------------------------------------ helpers


def new_game(code: str | GameSpec, question_marks: bool = True,
             clock: Callable[[], float] = time.monotonic) -> Game:
    """A fresh game from a game code (or a decoded :class:`GameSpec`).

    Parameters
    ----------
    code : str or GameSpec
        The code.
    question_marks : bool
        Whether a right click cycles through the question mark.
    clock : callable
        The game's clock, returning seconds.

    Returns
    -------
    Game
        A fresh game of the code's board.

    Raises
    ------
    ValueError
        As :func:`decode`.

    Examples
    --------
    >>> g = new_game("16H30-E889P")
    >>> g.shape, g.mine_count, g.seed
    ((16, 30), 99, 12345)
    """
    spec = code if isinstance(code, GameSpec) else decode(code)
    return spec.new_game(question_marks=question_marks, clock=clock)


def daily(date: _dt.date | str | None = None, difficulty: str = "expert") -> str:
    """The daily code: the same for everyone on ``date`` (default: today, UTC).

    The seed is a SHA-256 of the ISO date and the difficulty, so it does not
    depend on the machine or the Python version.  It is a seed code with the
    rule ``"opening"``: players who make the same first click race the same board.

    Parameters
    ----------
    date : datetime.date or str, optional
        The day, or its ISO form ``"2026-11-24"``; today (UTC) by default.
    difficulty : str
        A preset's name (a key of :data:`fastmine.DIFFICULTIES`).

    Returns
    -------
    str
        The day's seed code.

    Raises
    ------
    TypeError, ValueError
        A date that is not a date or an ISO date, or an unknown difficulty.

    Examples
    --------
    >>> daily("2026-11-24") == daily(_dt.date(2026, 11, 24))
    True
    >>> daily("2026-11-24") != daily("2026-11-25")
    True
    """
    if date is None:
        date = _dt.datetime.now(_dt.timezone.utc).date()
    elif isinstance(date, str):
        try:
            date = _dt.date.fromisoformat(date.strip())
        except ValueError:
            raise ValueError(f"a date looks like 2026-11-24, got {date!r:.40}") from None
    elif isinstance(date, _dt.datetime):
        date = date.date()
    elif not isinstance(date, _dt.date):
        raise TypeError(f"date must be a datetime.date or 'YYYY-MM-DD', got {type(date).__name__}")
    if not isinstance(difficulty, str):
        raise TypeError(f"difficulty must be a preset name, got {type(difficulty).__name__}")
    d = DIFFICULTIES.get(difficulty)
    if d is None:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {list(DIFFICULTIES)}")
    digest = hashlib.sha256(f"fastmine-daily:{date.isoformat()}:{difficulty}".encode()).digest()
    seed = int.from_bytes(digest[:8], "big") >> (64 - _DAILY_SEED_BITS)
    return seed_code(d.rows, d.cols, d.mines, seed=seed, rule="opening")
