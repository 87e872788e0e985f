"""Reading the user's files safely: regular files only, never more than a bound.

A path the user names may be anything: a FIFO that would block for ever, a
device without end, a folder.  :func:`read_regular_file` opens it without
waiting, checks it is a regular file of a sensible size, and only then reads.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["describe_kind", "read_regular_file"]


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Never blocks on a FIFO and never reads a device (``/dev/zero``) without
    bound: the file is opened without waiting for a writer and checked before
    reading.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    limit : int
        The most bytes a file of its kind holds.

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
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is {describe_kind(st.st_mode)}, not a regular file")
        if st.st_size > limit:
            raise OSError(f"{path} is too big ({st.st_size} bytes; at most {limit})")
        chunks = []
        left = limit + 1    # one more than allowed tells a file that grew while reading
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise OSError(f"{path} is too big (more than {limit} bytes)")
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
