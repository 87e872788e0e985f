"""Argument checks shared by the public classes (kernels trust their callers)."""

from __future__ import annotations

import argparse
import operator
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeGuard

import numpy as np

from .errors import FutureVersionError, SaveFormatError
from .limits import MAX_CELLS, check_board_size

__all__ = ["MAX_CELLS", "as_int", "check_cell", "check_mines", "check_point", "check_seed",
           "check_size", "check_view_shape", "integer_dtype", "is_integer", "SEED_LIMIT",
           "whole_number"]


def integer_dtype(dtype: np.dtype[Any]) -> bool:
    """True for a NumPy integer dtype (signed or unsigned), False for anything else.

    Not ``np.issubdtype(dtype, np.integer)``: NumPy files ``timedelta64`` under
    its integers, and a mask or view of durations is not a board.
    """
    return dtype.kind in "iu"


def is_integer(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True for a Python or NumPy integer; False for bools and for NumPy's
    ``timedelta64``, which NumPy files under its integers (a duration is not a
    count or an index).

    >>> [is_integer(v) for v in (3, np.int8(3), True, np.bool_(True), np.timedelta64(3), 3.0)]
    [True, True, False, False, False, False]
    """
    return (isinstance(value, (int, np.integer))
            and not isinstance(value, (bool, np.bool_, np.timedelta64)))


# ASCII digits only (int() takes any script's digits), with Python's underscores
# or thousands commas between them: "1_000", "100,000".
_WHOLE = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*)", re.ASCII)

# More digits than any bound a command takes (seeds are 2**64, 20 digits); a
# longer string is refused before int() (which stops at 4300 digits with its own words).
_MAX_DIGITS = 40


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``minimum`` (and at most
    ``maximum`` when given), the one check of every count or index a command takes.

    Parameters
    ----------
    minimum : int
        The smallest number taken.
    maximum : int, optional
        The largest number taken; None for no bound but the length of the text.

    Returns
    -------
    Callable[[str], int]
        A function of the argument's text that returns the number or raises
        :class:`argparse.ArgumentTypeError` with one wording, which argparse
        prints after the option's name.

    >>> games = whole_number(1)
    >>> games("1,000"), games(" 25 "), games("1_000")
    (1000, 25, 1000)
    >>> games("1.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number of at least 1, got '1.5'
    >>> whole_number(1, 10**6)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 1 to 1,000,000, got '0'
    """
    wanted = (f"a whole number of at least {minimum:,}" if maximum is None
              else f"a whole number from {minimum:,} to {maximum:,}")

    def parse(text: str) -> int:
        digits = text.strip()
        if not _WHOLE.fullmatch(digits):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r:.40}")
        digits = digits.replace(",", "").replace("_", "")
        if len(digits.lstrip("+-")) > _MAX_DIGITS:
            raise argparse.ArgumentTypeError(
                f"expected {wanted}, got a {len(digits.lstrip('+-')):,}-digit number")
        n = int(digits)
        if n < minimum or (maximum is not None and n > maximum):
            raise argparse.ArgumentTypeError(f"expected {wanted}, got {text!r:.40}")
        return n

    parse.__name__ = "whole number"     # argparse's fallback words name the type
    return parse


def as_int(name: str, value: object) -> int:
    """Return ``value`` as a Python int; bools and non-integers raise TypeError."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, not a bool")
    if isinstance(value, np.timedelta64):
        raise TypeError(f"{name} must be an integer, not a duration (timedelta64)")
    try:
        return operator.index(value)  # type: ignore[arg-type]  # anything else: TypeError below
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None


def check_size(rows: object, cols: object) -> tuple[int, int]:
    """Validate a board size."""
    if type(rows) is not int:
        rows = as_int("rows", rows)
    if type(cols) is not int:
        cols = as_int("cols", cols)
    return check_board_size(rows, cols)


def check_view_shape(shape: tuple[int, ...], what: str = "view") -> tuple[int, int]:
    """Validate the shape of a 2-D array standing for a board (a view, a mask).

    Checked before any kernel sees the array: a view of 2**31 columns (a
    broadcast one costs no memory) must be refused, not indexed.
    """
    if len(shape) != 2:
        raise ValueError(f"{what} must be 2-D (rows, cols), got shape {shape}")
    rows, cols = shape
    if rows < 1 or cols < 1:
        raise ValueError(f"{what} must have at least one cell, got shape {shape}")
    return check_board_size(rows, cols)


def check_mines(mines: object, rows: int, cols: int) -> int:
    """Validate a mine count: 1 <= mines <= rows*cols - 1."""
    if type(mines) is not int:
        mines = as_int("mines", mines)
    cells = rows * cols
    if cells < 2:
        raise ValueError(f"a {rows}x{cols} board has no room for a mine and a safe cell")
    if not 1 <= mines <= cells - 1:
        raise ValueError(
            f"mines must be between 1 and {cells - 1} on a {rows}x{cols} board, got {mines}"
        )
    return mines


def check_cell(rows: int, cols: int, r: object, c: object) -> tuple[int, int]:
    """Validate a (row, col) coordinate; negative indices are not allowed."""
    if type(r) is not int:
        r = as_int("row", r)
    if type(c) is not int:
        c = as_int("col", c)
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(
            f"cell ({r}, {c}) is outside the {rows}x{cols} board "
            f"(rows 0..{rows - 1}, cols 0..{cols - 1})"
        )
    return r, c


def check_point(rows: int, cols: int, point: object, name: str = "first_click") -> tuple[int, int]:
    """Validate a (row, col) pair given as one argument (a tuple, list or array)."""
    if type(point) is tuple and len(point) == 2:
        return check_cell(rows, cols, point[0], point[1])
    if isinstance(point, np.ndarray):
        if point.shape != (2,):
            raise ValueError(f"{name} must be a (row, col) pair, got an array of shape {point.shape}")
    elif not isinstance(point, Sequence) or isinstance(point, (str, bytes)):
        raise TypeError(f"{name} must be a (row, col) pair, got {point!r:.60}")
    elif len(point) != 2:
        raise ValueError(f"{name} must be a (row, col) pair, got {point!r:.60}")
    return check_cell(rows, cols, point[0], point[1])


#: Seeds are 64-bit: the generator is seeded with exactly these bits.
SEED_LIMIT = 2**64


def check_seed(seed: object) -> int | None:
    """Validate a seed: None, an int in 0 .. 2**64 - 1, or a numpy Generator.

    A bigger seed is refused rather than cut to 64 bits: 2**64 would silently
    give seed 0's board.
    """
    if seed is None or (type(seed) is int and 0 <= seed < SEED_LIMIT):
        return seed
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63))
    seed = as_int("seed", seed)
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"seed must be an integer from 0 to 2**64 - 1, got {seed}")
    return seed


def file_field(d: dict[str, Any], key: str, types: type | tuple[type, ...], what: str,
               label: str) -> Any:
    """``d[key]`` of a file fastmine reads (a save, a replay), checked to be of
    ``types`` (a bool is never taken for a number); else a SaveFormatError that
    names the ``label``ed file's field and what it must be."""
    if key not in d:
        raise SaveFormatError(f"{label} is missing {key!r}")
    v = d[key]
    allowed = types if isinstance(types, tuple) else (types,)
    if not isinstance(v, allowed) or (isinstance(v, bool) and bool not in allowed):
        raise SaveFormatError(f"{label} field {key!r} must be {what}, got {v!r:.60}")
    return v


def check_file_version(version: int, newest: int, label: str) -> None:
    """A file's format ``version`` this fastmine reads (1 to ``newest``):
    FutureVersionError for a newer one (upgrade to read it), SaveFormatError
    for one below 1."""
    if version > newest:
        raise FutureVersionError(
            f"this {label} was written by a newer fastmine ({label} version {version}, "
            f"this fastmine reads up to {newest}); upgrade fastmine to open it")
    if version < 1:
        raise SaveFormatError(f"unknown {label} version {version}")
