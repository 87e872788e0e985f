"""Writing the user's files safely: atomic replacement, and a damaged file kept aside.

Files are written atomically: the new content goes to a temporary file in the
same directory, is flushed to disk, and then replaces the old file with
``os.replace``, so a crash leaves either the old file or the new one, never a
half-written mix.  A file fastmine cannot read is never overwritten silently:
:func:`move_aside` keeps its bytes under a new name.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> p = atomic_write_text(d / "a.txt", "hello")
>>> p.read_text()
'hello'
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from pathlib import Path

from .kinds import KIND_WORDS, fastmine_kind
from .reading import describe_kind

__all__ = ["STALE_TEMP_SECONDS", "atomic_write_bytes", "atomic_write_text", "move_aside",
           "remove_stale_temp_files"]

STALE_TEMP_SECONDS = 3600.0
"""Where files cannot be locked (Windows), a temporary file of an interrupted write
older than this is removed by the next write; elsewhere the lock tells at once."""


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *,
                       replaces: str | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    The parent directory is created if needed.  Returns the path written.
    A symbolic link is kept: its target is the file replaced (atomically, in
    the target's directory).  Anything at ``path`` that is not a regular file
    (a directory, a FIFO, a device) is refused with an OSError, untouched.
    Temporary files left by an earlier write that was killed are removed on
    the way (:func:`remove_stale_temp_files`).

    A file that holds one of fastmine's own -- a records database, a saved
    game, settings, a replay (:func:`fastmine.files.kinds.fastmine_kind`, by
    its first bytes) -- is replaced only by a writer of that very kind
    (``replaces``): anything else is refused with FileExistsError, the file
    untouched, wherever it lies and whatever link leads there.

    The temporary file is locked (``flock``) from the moment it exists until
    it has replaced ``path``: a lock dies with its process, so a temporary file
    nobody locks is a killed writer's, and the next write removes it, while a
    writer at work in another process keeps its own.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    data : bytes
        The whole new content.
    replaces : str, optional
        The kind of fastmine file this writer writes (a key of
        :data:`fastmine.files.kinds.KIND_WORDS`: ``"save"``, ``"settings"``),
        which it may replace; None (outputs, caches) replaces none.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    FileExistsError
        ``path`` holds one of fastmine's files of another kind.
    OSError
        Something not a regular file is at ``path``, or the write failed (the
        old file is then whole).
    """
    path = Path(path)
    if path.is_symlink():
        # Replacing the link itself would turn the user's link into a plain file.
        path = Path(os.path.realpath(path))
        if not path.parent.is_dir():
            raise FileNotFoundError(f"{path.parent} (where the link points) does not exist")
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        st = path.stat()
    except FileNotFoundError:
        mode = _new_file_mode()
    else:
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is {describe_kind(st.st_mode)}, not a regular file; not replacing it")
        mode = st.st_mode & 0o777      # a rewrite keeps the file's permissions
        kind = fastmine_kind(path)
        if kind is not None and kind != replaces:
            raise FileExistsError(f"{path} is {KIND_WORDS[kind]}; fastmine does not write "
                                  "another file over it")
    remove_stale_temp_files(path)
    fd, tmp = _locked_temp(path)
    try:
        # mkstemp makes the file private (0600); give it what a plain open() would.
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        with os.fdopen(fd, "wb", closefd=False) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)       # under the lock: the name is never anybody's leftover
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    finally:
        os.close(fd)                # lets go of the lock
    _fsync_dir(path.parent)
    return path


def _flock(fd: int, wait: bool) -> bool | None:
    """Take the exclusive ``flock`` of ``fd``: True when held, False when another
    process holds it (only without ``wait``), None where files cannot be locked
    (no ``fcntl``, or a file system without ``flock``)."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError:
        return None
    return True


def _locked_temp(path: Path) -> tuple[int, str]:
    """A new temporary file for ``path`` in its folder, open and locked: ``(fd, name)``."""
    for _ in range(100):
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        _flock(fd, wait=True)
        # Between mkstemp and the lock another process's cleaning may have taken
        # the file for a leftover (it removes only files it can lock): then the
        # name is gone, and a new one is made.
        try:
            if os.path.samestat(os.fstat(fd), os.lstat(tmp)):
                return fd, tmp
        except OSError:
            pass
        os.close(fd)
    raise OSError(f"could not make a temporary file beside {path}")


def remove_stale_temp_files(path: str | os.PathLike[str],
                            max_age: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove temporary files an interrupted :func:`atomic_write_bytes` of ``path`` left.

    Only files that are certainly such leftovers go: named like the temporary
    files of this very file (``.<name>.XXXXXXXX.tmp``, nothing else), regular
    files (never a link), owned by this user, and not locked: a writer holds
    its temporary file's lock until it has replaced ``path``, and a killed
    writer's lock died with it, so a file another process is writing right now
    is kept.  Where files cannot be locked, only files not modified for
    ``max_age`` seconds go.  Returns what was removed; a file that cannot be
    removed is left alone.

    Parameters
    ----------
    path : str or os.PathLike
        The file whose leftovers to remove (``saved-game.json``); its folder is
        searched, nothing else.
    max_age : float
        Seconds, where files cannot be locked (see :data:`STALE_TEMP_SECONDS`).

    Returns
    -------
    list of Path
        The files removed.
    """
    path = Path(path)
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[A-Za-z0-9_]{{8}}\.tmp")
    removed: list[Path] = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    now = time.time()
    uid = os.getuid() if hasattr(os, "getuid") else None
    for entry in entries:
        if not pattern.fullmatch(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                         | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            continue
        try:
            if not os.path.samestat(os.fstat(fd), st):
                continue                        # replaced since it was looked at
            held = _flock(fd, wait=False)
            if held is False or (held is None and now - st.st_mtime < max_age):
                continue                        # a writer at work
            # Removed while locked: a writer that made it an instant ago waits
            # for the lock, then finds its name gone and makes another.
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path: str | os.PathLike[str], text: str, *,
                      replaces: str | None = None) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    text : str
        The whole new content.
    replaces : str, optional
        As :func:`atomic_write_bytes`.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    return atomic_write_bytes(path, text.encode("utf-8"), replaces=replaces)


def move_aside(path: str | os.PathLike[str], reason: str = "corrupt") -> Path:
    """Rename an unreadable file to ``<name>.<reason>-<timestamp>`` and return the new path.

    The bytes are kept, so nothing the user had is lost; the original name is
    then free for a fresh file.  A numeric suffix avoids clobbering an earlier
    file moved aside in the same second.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    reason : str
        A word for why, in the new name.

    Returns
    -------
    pathlib.Path
        The new path.
    """
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{reason}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{reason}-{stamp}-{n}")
    os.replace(path, target)
    return target


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable on POSIX; directories cannot be opened on Windows.
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
