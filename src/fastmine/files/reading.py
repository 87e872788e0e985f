"""Reading the user's files safely: regular files only, never more than a bound.

A path the user names may be anything: a FIFO that would block for ever, a
device without end, a folder.  :func:`read_regular_file` opens it without
waiting, checks it is a regular file of a sensible size, and only then reads.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable

__all__ = ["describe_kind", "read_regular_file"]


def read_regular_file(path: str | os.PathLike[str], limit: int, *, name: str | None = None,
                      too_big: Callable[[int, bool], Exception] | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Never blocks on a FIFO and never reads a device (``/dev/zero``) without
    bound: the file is opened without waiting for a writer and checked before
    reading.  A file that grows while it is read is read no further than one
    byte past ``limit``.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes a file of its kind holds.
    name : str, optional
        The file's name in messages (by default the path).
    too_big : callable, optional
        Makes the error for a file larger than ``limit``, given its size and
        whether it grew past ``limit`` while being read (the size is then
        ``limit + 1``); by default an OSError.

    Returns
    -------
    bytes
        The file's content.

    Raises
    ------
    FileNotFoundError
        Nothing is at ``path``.
    OSError
        Anything else that is wrong (not a regular file, too big, unreadable),
        with a message for the user.
    """
    if name is None:    # the path as given (pathlib would cost every start 7 ms of CPU)
        name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{name} is {describe_kind(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            if too_big is not None:
                raise too_big(st.st_size, False)
            raise OSError(f"{name} is too big ({st.st_size} bytes; at most {limit})")
        # One read of the whole file, and one byte more: a short read is its end
        # (confirmed by a read of 1 byte, with nothing large allocated), a full one
        # means it grew and is read on in 1 MiB chunks, to one byte past the limit.
        cap = limit + 1
        size = st.st_size + 1
        chunks = []
        total = 0
        while total < cap:
            want = min(size, cap - total)
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            size = 1 << 20 if len(chunk) == want else 1
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if len(data) > limit:
            if too_big is not None:
                raise too_big(len(data), True)
            raise OSError(f"{name} is too big (more than {limit} bytes)")
        return data
    finally:
        os.close(fd)


def describe_kind(mode: int) -> str:
    """Words for what a non-regular file is.

    Parameters
    ----------
    mode : int
        ``st_mode`` of the file's ``os.stat``.

    Returns
    -------
    str
        ``"a directory"``, ``"a FIFO"``, ``"a socket"`` or ``"a device or special file"``.
    """
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device or special file"
