"""Where fastmine keeps user files, and how it writes them safely.

The user's records and saved game live in one data directory; the app's
settings in the platform's configuration folder (:func:`config_dir`) and what
can be made again in its cache folder (:func:`cache_dir`), both inside the data
directory when one is given or set.  The data directory is chosen, first match
wins, by:

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

__all__ = ["APP_NAME", "ENV_APP_DATA", "ENV_DATA_DIR", "OWNED_FILES", "OWNED_FOLDERS",
           "RECORDS_FILE", "SAVE_FILE", "STALE_TEMP_SECONDS", "atomic_write_bytes",
           "atomic_write_text", "cache_dir", "config_dir", "data_dir", "describe_kind",
           "existing_data_dir", "move_aside", "owned_paths", "owner_of", "read_regular_file",
           "refuse_owned", "remove_stale_temp_files"]

ENV_DATA_DIR = "FASTMINE_DATA_DIR"
"""Environment variable that overrides the data directory."""

APP_NAME = "fastmine"
"""fastmine's name in the platform's folders (``platformdirs``)."""


def data_dir(override: str | os.PathLike[str] | None = None, *, create: bool = False) -> Path:
    """The directory for fastmine's user files (see the module docstring for the order).

    Parameters
    ----------
    override : str or os.PathLike, optional
        A directory given by the caller (a ``--data-dir`` option).
    create : bool
        Make the directory (and its parents) if it does not exist.

    Returns
    -------
    pathlib.Path
        The directory.
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


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder of fastmine's settings (the app's ``fastmine.ini`` and board views).

    First match wins: ``override`` (a data directory given by the caller: the
    settings live in it); ``FASTMINE_DATA_DIR`` (the same: everything in one
    folder, as a test or a portable set-up wants); the platform's user
    configuration folder, ``platformdirs.user_config_dir("fastmine")``
    (``$XDG_CONFIG_HOME/fastmine``, by default ``~/.config/fastmine``, on Linux).

    Parameters
    ----------
    override : str or os.PathLike, optional
        A data directory given by the caller (a ``--data-dir`` option).

    Returns
    -------
    pathlib.Path
        The folder (not created).
    """
    if (override is not None and str(override) != "") or os.environ.get(ENV_DATA_DIR):
        return data_dir(override)
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def cache_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The folder of what fastmine can make again (the app's drawn tiles).

    ``<data directory>/cache`` when a data directory is given (``override``) or
    set (``FASTMINE_DATA_DIR``); otherwise the platform's user cache folder,
    ``platformdirs.user_cache_dir("fastmine")`` (``$XDG_CACHE_HOME/fastmine``,
    by default ``~/.cache/fastmine``, on Linux).

    Parameters
    ----------
    override : str or os.PathLike, optional
        A data directory given by the caller (a ``--data-dir`` option).

    Returns
    -------
    pathlib.Path
        The folder (not created).
    """
    if (override is not None and str(override) != "") or os.environ.get(ENV_DATA_DIR):
        return data_dir(override) / "cache"
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


# ------------------------------------------------------------------ what fastmine owns

RECORDS_FILE = "records.sqlite3"
"""The records database's name in the data directory."""

SAVE_FILE = "saved-game.json"
"""The saved game's name in the data directory."""

OWNED_FILES: dict[str, str] = {
    RECORDS_FILE: "your records database",
    f"{RECORDS_FILE}-wal": "part of your records database (its write-ahead log)",
    f"{RECORDS_FILE}-shm": "part of your records database (its shared-memory file)",
    f"{RECORDS_FILE}-journal": "part of your records database (its journal)",
    SAVE_FILE: "your saved game",
    "fastmine.ini": "your settings",
    "board_views.json": "the app's saved board views",
    "abandoned.json": "the app's abandoned-games file",
}
"""Every file fastmine keeps in a data directory, by name, with words for a message.

A file kept aside (``<name>.corrupt-<time>``, :func:`move_aside`) or half
written (``.<name>.XXXXXXXX.tmp``) is the player's too: :func:`owner_of`
counts it with its name."""

OWNED_FOLDERS: dict[str, str] = {
    "sounds": "the app's sounds",
    "cache": "the app's tile cache",
}
"""Folders of a data directory that are fastmine's as a whole."""

ENV_APP_DATA = "FASTMINE_APP_DATA"
"""Environment variable that puts all of the app's files in one folder."""


def owned_paths(data_dir: str | os.PathLike[str] | None = None) -> list[tuple[Path, str]]:
    """Every file and folder fastmine owns, with words for each: the one list
    that an output must not replace (:func:`owner_of`).

    The files of :data:`OWNED_FILES` and folders of :data:`OWNED_FOLDERS` in
    every data directory in play (``data_dir`` if given, ``FASTMINE_DATA_DIR``,
    the platform's user data folder and the app's ``FASTMINE_APP_DATA``), and
    fastmine's own configuration and cache folders of the platform (which are
    fastmine's as a whole).  Paths are as configured (not resolved); nothing
    needs to exist.

    Parameters
    ----------
    data_dir
        A data directory given by the caller (a ``--data-dir`` option), if any.

    Returns
    -------
    list of (Path, str)
        Each path and what it is (``"your records database"``); folders end the
        list, each owned with everything in it.
    """
    files: list[tuple[Path, str]] = []
    for folder in _data_folders(data_dir):
        files += [(folder / name, words) for name, words in OWNED_FILES.items()]
    folders = [(folder / name, words) for folder in _data_folders(data_dir)
               for name, words in OWNED_FOLDERS.items()]
    return files + folders + _platform_folders()


def _data_folders(data_dir: str | os.PathLike[str] | None) -> list[Path]:
    """Every data directory in play (see :func:`owned_paths`), without repeats."""
    found = [data_dir_path for data_dir_path in (
        data_dir if data_dir is not None and str(data_dir) != "" else None,
        os.environ.get(ENV_DATA_DIR) or None,
        os.environ.get(ENV_APP_DATA) or None) if data_dir_path is not None]
    out = [Path(p).expanduser() for p in found]
    import platformdirs

    out.append(Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)))
    return list(dict.fromkeys(out))


def _platform_folders() -> list[tuple[Path, str]]:
    """fastmine's own configuration and cache folders (whatever the app keeps there)."""
    import platformdirs

    return [(Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
             "fastmine's settings folder"),
            (Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False)),
             "fastmine's cache folder")]


# What move_aside and atomic_write_bytes name a file kept aside or half written.
_ASIDE = re.compile(r"(?P<name>.+)\.[a-z]+-\d{8}-\d{6}(-\d+)?")
_TEMP = re.compile(r"\.(?P<name>.+)\.[A-Za-z0-9_]{8}\.tmp")


def _owned_name(name: str) -> str | None:
    """The owned file ``name`` is, itself, kept aside or half written: its words, or None.

    Names are compared without case (a case-insensitive disk has one file for both).
    """
    low, kind = name.lower(), "{}"
    for pattern, how in ((_ASIDE, "a copy of {} kept aside"), (_TEMP, "a half-written copy of {}")):
        match = pattern.fullmatch(low)
        if match:
            low, kind = match["name"], how
            break
    for owned, words in OWNED_FILES.items():
        if low == owned.lower():
            return kind.format(words)
    return None


def _stat(path: str | os.PathLike[str]) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def owner_of(path: str | os.PathLike[str],
             data_dir: str | os.PathLike[str] | None = None) -> str | None:
    """What of fastmine's ``path`` is, or None if it is none of its files.

    The one check behind every output option (:func:`fastmine.files.outputs.check_output`):
    ``path`` is followed through symbolic links (its own and its folders'),
    relative paths from the working folder, and compared by file identity
    (device and inode), so another name for the same file -- a hard link, a
    bind mount, another case on a case-insensitive disk -- is caught too.

    Parameters
    ----------
    path
        Where an output would be written.
    data_dir
        The data directory the command was given, if any (the usual ones are
        always checked: see :func:`owned_paths`).

    Returns
    -------
    str or None
        Words for what ``path`` is (``"your records database"``), or None.
    """
    real = Path(os.path.realpath(path))
    owned = owned_paths(data_dir)
    folder_stat = _stat(real.parent)
    words = _owned_name(real.name)
    target = _stat(real)
    for place, what in owned:
        if place.name in OWNED_FILES:
            # the file by another name: the same inode (a hard link, a bind mount)
            st = _stat(place) if target is not None else None
            if st is not None and target is not None and os.path.samestat(st, target):
                return what
            continue
        place_stat = _stat(place)
        if place_stat is None:
            continue
        for above in (real, *real.parents):
            st = _stat(above)
            if st is not None and os.path.samestat(st, place_stat):
                return what
    if words is not None and folder_stat is not None:
        for folder in _data_folders(data_dir):
            st = _stat(folder)
            if st is not None and os.path.samestat(st, folder_stat):
                return words
    if target is not None and target.st_nlink > 1:
        return _hard_link_owner(target, data_dir)
    return None


def _hard_link_owner(target: os.stat_result,
                     data_dir: str | os.PathLike[str] | None) -> str | None:
    """What owned file (kept-aside and folder contents included) shares ``target``'s inode."""
    for folder in _data_folders(data_dir):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            words = _owned_name(entry.name)
            st = _stat(entry.path) if words is not None else None
            if st is not None and os.path.samestat(st, target):
                return words
    for place, what in owned_paths(data_dir):
        if place.name in OWNED_FILES:
            continue
        for top, _dirs, names in os.walk(place):    # iterative, not recursive
            for name in names:
                st = _stat(os.path.join(top, name))
                if st is not None and os.path.samestat(st, target):
                    return what
    return None


def refuse_owned(path: str | os.PathLike[str], what: str = "the output",
                 data_dir: str | os.PathLike[str] | None = None) -> None:
    """Refuse ``path`` if it is one of fastmine's own files (:func:`owner_of`).

    Parameters
    ----------
    path
        Where an output would be written.
    what
        The output's name in the message (``"--json"``).
    data_dir
        The data directory the command was given, if any.

    Raises
    ------
    ValueError
        ``path`` is one of fastmine's files; the message says which.
    """
    owner = owner_of(path, data_dir)
    if owner is not None:
        raise ValueError(f"{what} {os.fspath(path)} is {owner}; fastmine does not write "
                         "an output over it")


def existing_data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory for a command that only reads it: nothing is made.

    A folder named by the caller (``--data-dir``) or by ``FASTMINE_DATA_DIR``
    must exist: a mistyped path would otherwise read as "no games yet" (and a
    command that opened the records there would make the folder and an empty
    database).  The platform's own folder may be missing (nothing saved yet).

    Parameters
    ----------
    override : str or os.PathLike, optional
        The folder the caller was given, as for :func:`data_dir`.

    Returns
    -------
    Path
        The data directory (it exists unless it is the platform's default).

    Raises
    ------
    ValueError
        A folder named by the caller or the environment does not exist, or is
        not a folder.
    """
    path = data_dir(override)
    named = (override is not None and str(override) != "") or bool(os.environ.get(ENV_DATA_DIR))
    if named and not path.is_dir():
        origin = ("--data-dir" if override is not None and str(override) != ""
                  else f"${ENV_DATA_DIR}")
        if path.exists() or path.is_symlink():
            raise ValueError(f"the data folder {path} ({origin}) is not a folder")
        raise ValueError(f"the data folder {path} ({origin}) does not exist")
    return path


STALE_TEMP_SECONDS = 3600.0
"""Where files cannot be locked (Windows), a temporary file of an interrupted write
older than this is removed by the next write; elsewhere the lock tells at once."""


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    The parent directory is created if needed.  Returns the path written.
    A symbolic link is kept: its target is the file replaced (atomically, in
    the target's directory).  Anything at ``path`` that is not a regular file
    (a directory, a FIFO, a device) is refused with an OSError, untouched.
    Temporary files left by an earlier write that was killed are removed on
    the way (:func:`remove_stale_temp_files`).

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

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
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


def _new_file_mode() -> int:
    """The mode ``open(path, "w")`` would give a new file under the current umask."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically; see :func:`atomic_write_bytes`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    text : str
        The whole new content.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    return atomic_write_bytes(path, text.encode("utf-8"))


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
