"""The records database as a file: reading its header safely and naming what went wrong.

:mod:`fastmine.records` keeps the games; this module knows about the disk
under them.  SQLite reports a full disk while opening as a "disk I/O error",
and a failed COMMIT leaves nothing to roll back, so the error a user sees
would otherwise be about a symptom ("cannot rollback", "corrupt") instead of
the cause ("the disk is full", "read-only").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path

from .storage import describe_kind


def read_header(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of ``path``, which must be a regular file.

    Opened without waiting for a writer, so a FIFO in the database's place
    fails at once (OSError) instead of hanging the game.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(f"{path} is {describe_kind(mode)}, not a database file")
        return os.read(fd, size)
    finally:
        os.close(fd)


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if there still is one.

    A failed COMMIT (a full disk) may already have ended it: a second error
    from ROLLBACK must not hide the first, which says what happened.
    """
    if conn.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def disk_full(folder: Path) -> bool:
    """True when the file system holding ``folder`` has no free block left."""
    try:
        return os.statvfs(folder).f_bavail == 0
    except (OSError, AttributeError):     # no statvfs on Windows
        return False


def read_only(path: Path) -> bool:
    """True when ``path`` or its folder cannot be written (read-only disk or permissions)."""
    for p in (path, path.parent):
        try:
            if hasattr(os, "statvfs") and os.statvfs(p).f_flag & os.ST_RDONLY:
                return True
            if p.exists() and not os.access(p, os.W_OK):
                return True
        except OSError:
            continue
    return False


def explain(exc: sqlite3.Error, path: Path) -> str | None:
    """The cause of an SQLite error on the database ``path``, in words, or None if unknown.

    ``"corrupt"`` (the caller has its own words for it), or a sentence about a
    full disk, a read-only disk or a file that cannot be opened.
    """
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name.startswith("SQLITE_FULL") or (name.startswith("SQLITE_IOERR")
                                          and disk_full(path.parent)):
        return (f"the disk holding {path} is full; free some space and try again "
                "(the records already stored are kept)")
    if name.startswith("SQLITE_READONLY") or read_only(path):
        return (f"{path} is on a read-only disk or in a folder fastmine may not write to "
                f"({exc}); the records are unchanged")
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return "corrupt"
    if name.startswith("SQLITE_CANTOPEN"):
        return (f"cannot open {path} ({exc}); check that its folder exists and fastmine "
                "may write there")
    return None
