"""The records database as a file: reading its header safely and naming what went wrong.

:mod:`fastmine.records` keeps the games; this module knows about the disk
under them.  SQLite reports a full disk while opening as a "disk I/O error",
and a failed COMMIT leaves nothing to roll back, so the error a user sees
would otherwise be about a symptom ("cannot rollback", "corrupt") instead of
the cause ("the disk is full", "read-only").
"""

from __future__ import annotations

import contextlib
import functools
import os
import sqlite3
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ..files.reading import describe_kind

_T = TypeVar("_T")


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


def one_line(text: object) -> str:
    """SQLite's words for a problem, on one line: ``PRAGMA quick_check`` lists
    every problem it finds, one a line, under a ``*** in database main ***``
    heading; the first is kept and the rest counted."""
    lines = [ln.strip() for ln in str(text).splitlines()
             if ln.strip() and not ln.strip().startswith("***")]
    if not lines:
        return str(text).strip() or "unknown damage"
    more = len(lines) - 1
    return lines[0] + (f", and {more} more problem{'s' if more != 1 else ''}" if more else "")


def reads_records(method: Callable[..., _T]) -> Callable[..., _T]:
    """A :class:`fastmine.records.RecordsStore` read whose SQLite error -- a damaged
    page that the check at opening did not reach -- becomes the store's one-line
    :class:`fastmine.records.RecordsError` (the file is left as it is)."""

    @functools.wraps(method)
    def read(self: Any, *args: Any, **kwargs: Any) -> _T:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise self._trouble(exc, "cannot read the records") from None
        except UnicodeDecodeError:         # SQLite's own text (a damaged schema) is not UTF-8
            raise self._corrupt("damaged text in its structure") from None

    return read


def explain(exc: sqlite3.Error, path: Path) -> str | None:
    """The cause of an SQLite error on the database ``path``, in words, or None if unknown.

    ``"corrupt"`` (the caller has its own words for it), or a sentence about a
    folder (or other non-file) where SQLite keeps the database's log, a full
    disk, a read-only disk or a file that cannot be opened.
    """
    name = getattr(exc, "sqlite_errorname", "") or ""
    companion = odd_companion(path)
    if companion is not None:
        return companion
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


# The files SQLite keeps beside the database, under the database's name.
_COMPANIONS = (("-wal", "write-ahead log"), ("-shm", "shared-memory file"),
               ("-journal", "journal"))


def _link_target(link: Path) -> Path:
    """Where the symbolic link ``link`` points, as a path from here."""
    target = Path(os.readlink(link))
    return target if target.is_absolute() else link.parent / target


def dangling_link(path: Path) -> str | None:
    """Words for a records database ``path`` that is a link to a missing file, or None.

    Checked before SQLite sees the path: SQLite would make a new, empty database
    at the link's target, and a command that only reads would say "no games
    recorded yet".
    """
    if not (path.is_symlink() and not path.exists()):
        return None
    target = _link_target(path)
    return (f"the records file {path} is a link to {target}, which does not exist "
            f"(a moved file, or a disk that is not there?); bring that file back, or "
            f"remove the link to start new records. Nothing was made at {target}")


def odd_companion(path: Path) -> str | None:
    """Words for something other than a file where SQLite keeps the log, shared
    memory or journal of the database ``path`` (a folder named
    ``records.sqlite3-wal``), or None.

    SQLite only says "unable to open database file" (a folder for the log),
    "disk I/O error" (for the journal) or "attempt to write a readonly
    database" (for the shared memory: it still reads).
    """
    for suffix, what in _COMPANIONS:
        companion = path.with_name(path.name + suffix)
        if not os.path.lexists(companion):
            continue
        try:
            mode = os.stat(companion).st_mode
        except OSError:
            return (f"{companion} is a link to a missing file, where SQLite keeps the {what} "
                    f"of the records database {path}; remove that link and try again "
                    "(the records were not touched)")
        if not stat.S_ISREG(mode):
            return (f"{companion} is {describe_kind(mode)}, but SQLite needs that name for the "
                    f"{what} of the records database {path}; move it out of the way and "
                    "try again (the records were not touched)")
    return None


# SQLite's lock bytes on the database file (os_unix.c).  Every reader holds a
# read lock in the SHARED range; a WAL writer closing the database copies its
# log into the file only after taking a write lock on the whole range.
_SHARED_FIRST = 0x40000000 + 2
_SHARED_SIZE = 510


def _wal_path(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _hold_shared_lock(path: Path, timeout: float) -> int | None:
    """A descriptor of ``path`` holding SQLite's shared lock (None where there are no
    POSIX locks); raises ``sqlite3.OperationalError("database is locked")`` after
    ``timeout`` seconds of a writer holding the file.

    POSIX lets go of a process's locks on a file when any descriptor of it
    closes: the store reads the file's header before taking this lock and
    opens it no other way while it holds it.
    """
    try:
        import fcntl
    except ImportError:         # Windows: nothing to hold; the window stays tiny
        return None
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB, _SHARED_SIZE, _SHARED_FIRST)
                return fd
            except OSError:
                if time.monotonic() >= deadline:
                    raise sqlite3.OperationalError("database is locked") from None
                time.sleep(0.01)
    except BaseException:
        os.close(fd)
        raise


def open_read_only(path: Path, timeout: float) -> tuple[sqlite3.Connection, int | None]:
    """A connection that only reads the database ``path``, in a place fastmine cannot write.

    First SQLite's own read-only mode, which locks like any reader: it opens a
    database whose ``-wal`` and ``-shm`` files exist or can be made, and one
    not in WAL mode.  A WAL database in a folder that cannot take those files
    (a read-only disk) opens only as ``immutable``, which takes no locks and
    ignores a ``-wal`` file.  That is correct only while no ``-wal`` file
    exists (every committed game is then in the database file itself) and no
    writer copies a log into the file while it is read, which a writer
    elsewhere could (the same folder mounted read-write for another program):
    so the shared lock every SQLite reader takes is held here by hand for as
    long as the connection lives, and such a writer leaves its log beside the
    file instead.

    Returns the connection and the descriptor holding that lock (None if
    none is held): close the descriptor after the connection.  Raises
    ``sqlite3.OperationalError`` when the database cannot be read without
    writing (a ``-wal`` file that SQLite cannot open read-only).
    """
    uri = path.absolute().as_uri()
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=timeout, isolation_level=None)
    try:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn, None
    except sqlite3.OperationalError as exc:
        conn.close()
        if not (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_CANTOPEN"):
            raise
        cannot_open = exc
    fd = _hold_shared_lock(path, timeout)
    try:
        # Checked under the lock: a writer that starts now writes to a new log
        # and cannot copy it into the file until the lock is let go.
        if _wal_path(path).exists():
            raise cannot_open
        conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, timeout=timeout,
                               isolation_level=None)
        return conn, fd
    except BaseException:
        if fd is not None:
            os.close(fd)
        raise
