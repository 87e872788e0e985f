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
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

__all__ = ["OutputError", "guarded_stdout", "open_standard_descriptors", "silence_stdout"]


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
            return self._stream.write(text)
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
