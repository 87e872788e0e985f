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


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    The parent directory is created if needed.  Returns the path written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777      # a rewrite keeps the file's permissions
    except OSError:
        mode = _new_file_mode()
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
