"""One reader of a video's binary fields and records, shared by the four formats.

Every reader (``.avf``, ``.rmv``, ``.mvf``, ``.evf``) reads through a
:class:`Cursor`, so that a check, an error's words or a cap is written once
for all of them:

- a field is read only once its bytes are there: a truncated or lying file
  raises :class:`~fastmine.errors.VideoFormatError` naming the file, what was
  being read and the byte offset, never an ``IndexError`` deep in a reader;
- a run of records is taken whole as a NumPy view of the file's bytes (no
  copy): counted records (:meth:`Cursor.records`), every whole record to the
  file's end (:meth:`Cursor.rest`), or records of varying size told by their
  first byte (:meth:`Cursor.scan`);
- the mines, as cell pairs, are checked on the board (:meth:`Cursor.mines`);
- before a reader decodes records into arrays it states what they will cost
  (:meth:`Cursor.budget`), and reading stops there if that is more than
  :data:`MAX_READ_BYTES`: no file, however it lies, makes a reader allocate
  more.

Integers are big-endian in all four formats (:func:`be`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..errors import VideoFormatError
from ..limits import fits
from ._records import mine_layout, scan

__all__ = ["END", "MAX_READ_BYTES", "MAX_TEXT", "TEXT", "Cursor", "be", "check_board", "kinds"]

MAX_READ_BYTES = 256 * 2**20
"""The most memory a video reader allocates for one file (256 MiB), checked
before it allocates.

Each reader knows what a record costs it to decode (the arrays made from it,
measured on real files with margin: 96 to 480 bytes a record), and refuses a
file whose records would cost more, before decoding them.  Real videos cost
well under 1 MiB (a 20-minute marathon about 20 MiB); 256 MiB is about a
million mouse events, hours of play.  A 16 MiB Clone video claiming 3.3
million events was decoded to ~710 MB before the event-rate check refused it;
now it is refused with the first few kilobytes allocated.
"""

MAX_TEXT = 4096
"""Longest text field (a name, a version string) a reader accepts, in bytes.

The formats store names in at most 255 bytes (one-byte lengths) or as
NUL-terminated strings; a "name" running on for kilobytes is a corrupt file.
"""

END = -1
"""In a :meth:`Cursor.scan` size table: the code that ends the records."""

TEXT = -2
"""In a :meth:`Cursor.scan` size table: a record of 4 bytes, then NUL-terminated text."""

_START_COST = 8         # bytes a record's start takes while scanning (an int64)

_TABLES: dict[tuple[int, ...], tuple[NDArray[np.int64], int]] = {}


def _size_table(sizes: Sequence[int]) -> tuple[NDArray[np.int64], int]:
    """``sizes`` as the kernel's table, and the shortest record; made once for
    each table a reader uses."""
    key = tuple(sizes)
    known = _TABLES.get(key)
    if known is None:
        if len(key) != 256:
            raise ValueError(f"a record size table has 256 entries, not {len(key)}")
        known = np.array(key, dtype=np.int64), min(s for s in key if s > 0)
        if len(_TABLES) < 16:        # the readers' few tables; a caller's own are not kept
            _TABLES[key] = known
    return known


class Cursor:
    """A read position in a video's bytes; every read is bounds-checked.

    Parameters
    ----------
    data : bytes
        The whole file.
    source : str
        The file's name, for error messages.
    pos : int
        Where reading starts.
    """

    __slots__ = ("data", "pos", "source")

    def __init__(self, data: bytes, source: str, pos: int = 0) -> None:
        self.data = data
        self.source = source
        self.pos = pos

    def fail(self, problem: str, offset: int | None = None) -> VideoFormatError:
        """The error to raise for ``problem`` at ``offset``.

        Parameters
        ----------
        problem : str
            What is wrong, in words.
        offset : int, optional
            The byte it is at (by default the read position).

        Returns
        -------
        VideoFormatError
            Naming the file, the problem and the offset.
        """
        return VideoFormatError(self.source, problem, self.pos if offset is None else offset)

    @property
    def remaining(self) -> int:
        """Bytes left after the read position."""
        return len(self.data) - self.pos

    def need(self, n: int, what: str) -> None:
        """Raise unless ``n`` more bytes are there.

        Parameters
        ----------
        n : int
            The bytes needed from the read position.
        what : str
            What they are, for the message.

        Raises
        ------
        VideoFormatError
            The file ends first.
        """
        if n < 0 or self.pos + n > len(self.data):
            raise self.fail(f"the file ends inside {what} ({n} bytes needed, "
                            f"{max(self.remaining, 0)} left): it is truncated or corrupt")

    def budget(self, count: int, cost: int, what: str) -> None:
        """Raise unless ``count`` records at ``cost`` bytes each fit in :data:`MAX_READ_BYTES`.

        Called before the records are decoded, so a file claiming more than a
        reader allocates is refused with nothing large allocated.

        Parameters
        ----------
        count : int
            How many records.
        cost : int
            The bytes decoding one costs the reader.
        what : str
            What they are, for the message.

        Raises
        ------
        VideoFormatError
            They would cost more than :data:`MAX_READ_BYTES`.
        """
        if count * cost > MAX_READ_BYTES:
            raise self.fail(f"{count:,} {what} would take {count * cost:,} bytes of memory to "
                            f"read, more than a video reader allocates ({MAX_READ_BYTES:,})")

    def skip(self, n: int, what: str) -> None:
        """Move on ``n`` bytes, which must be in the file.

        Parameters
        ----------
        n : int
            How many.
        what : str
            What they are, for the message of a file that ends first.
        """
        self.need(n, what)
        self.pos += n

    def take(self, n: int, what: str) -> bytes:
        """The next ``n`` bytes.

        Parameters
        ----------
        n : int
            How many.
        what : str
            What they are, for the message of a file that ends first.

        Returns
        -------
        bytes
        """
        self.need(n, what)
        p = self.pos
        self.pos = p + n
        return self.data[p:p + n]

    def u8(self, what: str) -> int:
        """An unsigned byte.

        Parameters
        ----------
        what : str
            What the field is, for the message of a file that ends inside it.

        Returns
        -------
        int
        """
        self.need(1, what)
        v = self.data[self.pos]
        self.pos += 1
        return v

    def _int(self, n: int, what: str) -> int:
        self.need(n, what)
        p = self.pos
        self.pos = p + n
        return int.from_bytes(self.data[p:p + n], "big")

    def u16(self, what: str) -> int:
        """A big-endian unsigned 16-bit integer.

        Parameters
        ----------
        what : str
            What the field is, for the message of a file that ends inside it.

        Returns
        -------
        int
        """
        return self._int(2, what)

    def u24(self, what: str) -> int:
        """A big-endian unsigned 24-bit integer.

        Parameters
        ----------
        what : str
            What the field is, for the message of a file that ends inside it.

        Returns
        -------
        int
        """
        return self._int(3, what)

    def u32(self, what: str) -> int:
        """A big-endian unsigned 32-bit integer.

        Parameters
        ----------
        what : str
            What the field is, for the message of a file that ends inside it.

        Returns
        -------
        int
        """
        return self._int(4, what)

    def u64(self, what: str) -> int:
        """A big-endian unsigned 64-bit integer.

        Parameters
        ----------
        what : str
            What the field is, for the message of a file that ends inside it.

        Returns
        -------
        int
        """
        return self._int(8, what)

    def cstring(self, what: str, limit: int = MAX_TEXT) -> bytes:
        """Bytes up to (not including) the next NUL, which is consumed.

        Parameters
        ----------
        what : str
            What the text is, for the message.
        limit : int
            At most this many bytes: a longer field means a corrupt file.

        Returns
        -------
        bytes
        """
        end = self.data.find(b"\0", self.pos, self.pos + limit + 1)
        if end < 0:
            if len(self.data) - self.pos <= limit:
                raise self.fail(f"the file ends inside {what} (no terminating NUL): "
                                "it is truncated or corrupt")
            raise self.fail(f"{what} runs on for more than {limit} bytes")
        raw = self.data[self.pos:end]
        self.pos = end + 1
        return raw

    # ------------------------------------------------------------ records

    def records(self, count: int, size: int, what: str, cost: int = 0) -> NDArray[np.uint8]:
        """The next ``count`` records of ``size`` bytes, as a read-only view of
        the file (no copy).

        Parameters
        ----------
        count, size : int
            How many records, of how many bytes.
        what : str
            What they are, for the messages.
        cost : int
            The bytes each will cost the reader to decode, checked against
            :data:`MAX_READ_BYTES` (:meth:`budget`) once they are known to be there.

        Returns
        -------
        ndarray of uint8, (count, size)
        """
        if count * size > self.remaining:
            raise self.fail(f"{count} {what} of {size} bytes do not fit in the "
                            f"{self.remaining} bytes left: the file is truncated or corrupt")
        self.budget(count, cost, what)
        rec = np.frombuffer(self.data, np.uint8, count * size, self.pos).reshape(count, size)
        self.pos += count * size
        return rec

    def rest(self, size: int, what: str, cost: int = 0) -> NDArray[np.uint8]:
        """Every whole ``size``-byte record from the read position to the file's
        end, as a read-only view (the position does not move).

        Parameters
        ----------
        size : int
            A record's bytes.
        what : str
            What they are, for the message.
        cost : int
            As in :meth:`records`.

        Returns
        -------
        ndarray of uint8, (n, size)
        """
        n = max(self.remaining, 0) // size
        self.budget(n, cost, what)
        return np.frombuffer(self.data, np.uint8, n * size, self.pos).reshape(n, size)

    def scan(self, sizes: Sequence[int], end_of: str,
             text_limit: int = MAX_TEXT) -> NDArray[np.int64]:
        """Where each record of varying size starts, from the read position to
        the record that ends them; the position is left on that record.

        Parameters
        ----------
        sizes : sequence of 256 ints
            By a record's first byte: its size in bytes (> 0), :data:`END` for
            the code that ends the records, :data:`TEXT` for a record of 4
            bytes and NUL-terminated text, 0 for a code no record has.
        end_of : str
            What the ending record ends, for the message of a file that stops
            before it ("the game's end event").
        text_limit : int
            The longest text a :data:`TEXT` record holds (:data:`MAX_TEXT`).

        Returns
        -------
        ndarray of int64
            The records' offsets in the file.

        Raises
        ------
        VideoFormatError
            The file ends first, or a code no record has comes first.
        """
        data = self.data
        n = len(data)
        table, shortest = _size_table(sizes)
        self.budget(max(self.remaining, 0) // shortest, _START_COST, "records")
        # Walked in compiled code (_records.scan); the errors are raised here.
        status, p, starts = scan(data, self.pos, table, text_limit)
        if status == 2:
            self.pos = p + 4
            self.cstring("a metric's text", text_limit)     # raises: no NUL within the limit
        if status != 0:
            self.pos = n
            raise self.fail(f"the file ends before {end_of}: it is truncated")
        if table[data[p]] == 0:
            raise self.fail(f"unknown event code {data[p]}", p)
        self.pos = p
        return starts

    def mines(self, rows: int, cols: int, mines: int, *, col_first: bool, base: int,
              board_at: int | None = None) -> NDArray[np.bool_]:
        """The mine layout from the next ``mines`` cell pairs, checked.

        Parameters
        ----------
        rows, cols, mines : int
            The board the header states (checked first: :func:`check_board`).
        col_first : bool
            Whether a pair is ``(col, row)`` (RMV, Clone) rather than ``(row, col)``.
        base : int
            The first row's and column's number (1 in Arbiter's and Clone 0.97's
            pairs, 0 in the others').
        board_at : int, optional
            Where the board's header starts, for a message about the board
            (by default where the pairs start).

        Returns
        -------
        ndarray of bool, (rows, cols)
        """
        at = self.pos
        check_board(rows, cols, mines, self, at if board_at is None else board_at)
        self.need(2 * mines, f"the {mines} mines")
        # One compiled pass (_records.mine_layout): every mine on the board, none twice.
        bad, r, c, distinct, layout = mine_layout(self.data, at, mines, col_first, base,
                                                  rows, cols)
        if layout is None:
            if bad >= 0:
                raise self.fail(f"mine {bad + 1} at (row {r}, col {c}) is outside the "
                                f"{rows}x{cols} board", at)
            raise self.fail(f"the mine list names a cell twice ({mines} mines on "
                            f"{distinct} cells)", at)
        self.pos = at + 2 * mines
        return layout


def be(rec: NDArray[np.uint8], *columns: int) -> NDArray[np.int64]:
    """Big-endian unsigned integers from byte columns of records.

    Parameters
    ----------
    rec : ndarray of uint8, (n, size)
        The records.
    *columns : int
        The columns, most significant first: ``be(rec, 1, 2, 3)`` is
        ``rec[:, 1] << 16 | rec[:, 2] << 8 | rec[:, 3]``.

    Returns
    -------
    ndarray of int64, (n,)
    """
    out = rec[:, columns[0]].astype(np.int64)
    for c in columns[1:]:
        out <<= 8
        out |= rec[:, c]
    return out


def kinds(table: NDArray[np.uint8], codes: NDArray[np.uint8], cur: Cursor, first_at: int,
          stride: int) -> NDArray[np.uint8]:
    """The event kinds of ``codes`` by ``table``, refusing an unknown code.

    Parameters
    ----------
    table : ndarray of uint8, (256,)
        The kind of each code, 255 for a code no event has.
    codes : ndarray of uint8
        One code a record.
    cur : Cursor
        The file's reader, for the error.
    first_at, stride : int
        Where the first record is and how far apart they are, for the
        offset of an unknown code.

    Returns
    -------
    ndarray of uint8
    """
    out: NDArray[np.uint8] = table[codes]
    bad = out == 255
    if bad.any():
        i = int(np.argmax(bad))
        raise cur.fail(f"unknown event code {int(codes[i])}", first_at + stride * i)
    return out


def check_board(rows: int, cols: int, mines: int, cur: Cursor, offset: int) -> None:
    """Refuse a board no game is played on: no cells, too many, or more mines than cells.

    Parameters
    ----------
    rows, cols, mines : int
        The board the file states.
    cur : Cursor
        The file's reader, for the error.
    offset : int
        Where the board's header is in the file.
    """
    if rows < 1 or cols < 1:
        raise cur.fail(f"the board is {rows}x{cols}: a board needs at least one row and column",
                       offset)
    if not fits(rows, cols):
        raise cur.fail(f"a {rows}x{cols} board is larger than fastmine handles", offset)
    if mines > rows * cols:
        raise cur.fail(f"{mines} mines do not fit on a {rows}x{cols} board", offset)
