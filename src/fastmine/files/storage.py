"""Where fastmine keeps user files, and how it writes them safely.

Every user file (saved game, records database, settings) lives in one data
directory.  It is chosen, first match wins, by:

1. an explicit path given by the caller (a ``--data-dir`` option, a test);
2. the ``FASTMINE_DATA_DIR`` environment variable;
3. ``platformdirs.user_data_dir("fastmine")`` (for example
   ``~/.local/share/fastmine`` on Linux).

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

ENV_DATA_DIR = "FASTMINE_DATA_DIR"
"""Environment variable that overrides the data directory."""

APP_NAME = "fastmine"


def data_dir(override: str | os.PathLike[str] | None = None, *, create: bool = False) -> Path:
    """The directory for fastmine's user files (see the module docstring for the order).

    ``create=True`` makes the directory (and its parents) if it does not exist.
    """
    if override is not None and str(override) != "":
        path = Path(override).expanduser()
    elif os.environ.get(ENV_DATA_DIR):
        path = Path(os.environ[ENV_DATA_DIR]).expanduser()
    else:
        import platformdirs  # only needed when nothing overrides it

        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    if create:
        path.mkdir(parents=True, exist_ok=True)
    return path


STALE_TEMP_SECONDS = 3600.0
"""A temporary file of an interrupted write older than this is removed by the next write."""


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    The parent directory is created if needed.  Returns the path written.
    A symbolic link is kept: its target is the file replaced (atomically, in
    the target's directory).  Anything at ``path`` that is not a regular file
    (a directory, a FIFO, a device) is refused with an OSError, untouched.
    Temporary files left by an earlier write that was killed (older than
    :data:`STALE_TEMP_SECONDS`) are removed on the way.
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
    remove_stale_temp_files(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes the file private (0600); give it what a plain open() would.
        with contextlib.suppress(OSError):
            os.chmod(tmp, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)
    return path


def remove_stale_temp_files(path: str | os.PathLike[str],
                            max_age: float = STALE_TEMP_SECONDS) -> list[Path]:
    """Remove temporary files an interrupted :func:`atomic_write_bytes` of ``path`` left.

    Only files that are certainly such leftovers go: named like the temporary
    files of this very file (``.<name>.XXXXXXXX.tmp``), regular files (never a
    link), owned by this user, and not modified for ``max_age`` seconds (so
    another process writing right now keeps its file).  Returns what was removed;
    a file that cannot be removed is left alone.
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
        if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < max_age:
            continue
        if uid is not None and st.st_uid != uid:
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(Path(entry.path))
    return removed


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Never blocks on a FIFO and never reads a device (``/dev/zero``) without
    bound: the file is opened without waiting for a writer and checked before
    reading.  Raises FileNotFoundError if there is nothing at ``path`` and
    OSError (with a message for the user) for anything else that is wrong.
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
    """Words for what a non-regular file is: a directory, a FIFO, a socket, a device."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device or special file"


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def move_aside(path: str | os.PathLike[str], reason: str = "corrupt") -> Path:
    """Rename an unreadable file to ``<name>.<reason>-<timestamp>`` and return the new path.

    The bytes are kept, so nothing the user had is lost; the original name is
    then free for a fresh file.  A numeric suffix avoids clobbering an earlier
    file moved aside in the same second.
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
