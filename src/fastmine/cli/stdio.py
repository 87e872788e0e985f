"""The command line's standard streams: a closed one is made safe, a failed write is one line.

Two things can go wrong with standard output that no command should have to
think about:

- it may be **closed** (``fastmine records --json >&-``).  Python then leaves
  ``sys.stdout`` None, so ``print`` drops everything silently (the command
  seems to work) and ``sys.stdout.write`` is an AttributeError traceback.
  Worse, the next file opened -- the records database -- gets descriptor 1,
  where a stray write would land in it.  So every closed standard descriptor
  is pointed at the null device first, and a closed standard output raises
  :class:`OutputError` as soon as a command writes to it.
- a write may **fail** (a full disk: ``> /dev/full``; an I/O error).  The
  error surfaces at some flush, often the interpreter's own at exit, as a
  traceback or "Exception ignored" text.

:func:`guarded_stdout` wraps ``sys.stdout`` for the time a command runs so
that any failure of it is an :class:`OutputError` ("cannot write to standard
output: No space left on device"); the entry point reports it in one line on
standard error and exits non-zero, then points descriptor 1 at the null
device so the flush at exit stays quiet.  A reader that went away
(BrokenPipeError, ``fastmine solve | head``) is left to the entry point as before.

A third thing is not a failure at all: a character the output's encoding
cannot hold (a player's Chinese name on a cp1252 console, ``> out.txt`` on
Windows) is written as the encoding's replacement character (``?``), and the
command goes on.

Text read from a file (a video's player and software names, a file name
found in a folder) is data, not terminal control: :func:`printable` escapes
whatever a terminal would act on before such a line is printed.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import re
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["OutputError", "guarded_stdout", "json_printable", "open_standard_descriptors",
           "printable", "silence_stdout"]

# What a terminal acts on instead of showing: C0 controls (ESC starts every
# escape sequence; CR and BS overwrite a line; LF forges a new one), DEL, C1
# controls (0x9b is a one-byte CSI on some terminals), and the marks that
# reorder or hide text: bidi embeddings, overrides and isolates, the
# direction marks, the line and paragraph separators.
# Every one of them is a character str.isprintable() refuses (Unicode's
# "Other" and "Separator" categories), so text it accepts -- nearly every line
# -- needs no search, and the patterns compile only for a line that does
# (compiling them cost every start of a command a millisecond).
_CONTROL = (r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029"
            r"\u202a-\u202e\u2066-\u2069]")
# The same but JSON's whitespace between values (json.dumps escapes those in strings).
_JSON_CONTROL = (r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f"
                 r"\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    return re.compile(source)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    r"""``text`` with every character a terminal would act on escaped.

    Every line printed from a file goes through this: a name in a video cannot
    set the terminal's title, clear the screen, move the cursor or start a
    line of its own.

    Parameters
    ----------
    text : str
        Text read from a file (or a line holding some).

    Returns
    -------
    str
        The same text, with C0 and C1 controls and DEL written ``\xNN`` and the
        bidirectional and line-separating marks ``\uNNNN``.

    Examples
    --------
    >>> printable("Tommy\x1b]0;pwned\x07")
    'Tommy\\x1b]0;pwned\\x07'
    >>> printable("abc\u202edef")
    'abc\\u202edef'
    """
    if text.isprintable():
        return text
    return _pattern(_CONTROL).sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_printable(text: str) -> str:
    """A JSON document's text with the same characters as :func:`printable`
    written as JSON escapes (``\\u009b``): the same document, safe on a terminal.

    Valid only on JSON text (``json.dumps`` output): there such characters can
    only be inside strings, where the escape stands for the same character.
    """
    if text.isprintable():
        return text
    return _pattern(_JSON_CONTROL).sub(_json_escape, text)


class OutputError(OSError):
    """Standard output cannot be written: closed, a full disk, an I/O error."""

    def __str__(self) -> str:
        return f"cannot write to standard output: {self.strerror or 'error'}"


def open_standard_descriptors() -> set[int]:
    """Point each closed descriptor 0, 1, 2 at the null device; returns those that were closed.

    So no file the command opens (the records database ...) becomes its
    standard input, output or error by accident.
    """
    closed = set()
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            closed.add(fd)
    for fd in sorted(closed):
        null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    return closed


class _Guarded(io.TextIOBase):
    """A text stream over another that turns any failure to write into OutputError."""

    def __init__(self, stream: TextIO | None) -> None:
        super().__init__()
        self._stream = stream
        self.failed: OutputError | None = None

    def _fail(self, exc: BaseException | None) -> OutputError:
        if isinstance(exc, OSError) and exc.errno is not None:
            err = OutputError(exc.errno, os.strerror(exc.errno))
        else:                               # closed (None), or a stream already closed
            err = OutputError(errno.EBADF, "it is closed")
        self.failed = self.failed or err
        return err

    def write(self, text: str) -> int:
        if self._stream is None:
            raise self._fail(None)
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:
                # A character the output's encoding lacks: its replacement
                # character instead, never the end of the command.
                enc = self.encoding
                return self._stream.write(text.encode(enc, "replace").decode(enc))
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise self._fail(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:
            raise self._fail(exc) from None

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def fileno(self) -> int:
        if self._stream is None:
            raise io.UnsupportedOperation("standard output is closed")
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._stream, "encoding", None) or "utf-8"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[_Guarded]:
    """``sys.stdout`` wrapped (see the module docstring) while the block runs."""
    real = sys.stdout
    guarded = _Guarded(real)
    sys.stdout = guarded
    try:
        yield guarded
    finally:
        sys.stdout = real


def silence_stdout() -> None:
    """Point descriptor 1 at the null device: whatever is still buffered for
    standard output goes nowhere, and the flush at exit succeeds."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
    finally:
        os.close(null)
