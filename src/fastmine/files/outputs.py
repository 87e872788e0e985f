"""Output files the command line writes on request (``--json``, ``--plot``, ...).

Every output option of every command goes through the one pair here:
:func:`check_output` before any work, so a bad path or a missing matplotlib is
refused at once instead of after the work (a plot's format and matplotlib:
:mod:`fastmine.files.figures`), and :func:`write_output` at the
end, which checks again and writes atomically like every file the user owns
(:mod:`fastmine.files.writing`).  Neither ever lets an output replace one of
fastmine's own files -- the records database (and its -wal, -shm and
-journal), the saved game, the app's settings and the rest of
:func:`fastmine.files.owned.owned_paths` -- whether named directly, through
a symbolic link, a hard link or a relative path
(:func:`fastmine.files.owned.owner_of`).  The plots are in
:mod:`fastmine.files.figures`: the app writes outputs too (its settings file) and
must not reach matplotlib.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from . import owned, writing

__all__ = ["check_output", "write_output"]

PathLike = str | os.PathLike[str]
Keep = tuple[tuple[PathLike, str], ...]


def write_output(path: PathLike, data: bytes | str, what: str, keep: Keep = (), *,
                 data_dir: PathLike | None = None) -> Path:
    """Write an output file atomically, after checking ``path`` again.

    The check of :func:`check_output` runs once more right before the write (a
    long run leaves time for the path to change), then ``data`` (text is
    written as UTF-8) goes to a temporary file that replaces ``path``.

    Parameters
    ----------
    path
        As :func:`check_output`.
    data
        The file's content.
    what, keep, data_dir
        As :func:`check_output`.

    Returns
    -------
    Path
        The file written (a symbolic link's target when ``path`` is a link).

    Raises
    ------
    ValueError
        ``path`` is one of fastmine's own files, or cannot be written.
    OSError
        The write itself failed (a full disk); the old file is then unchanged.
    """
    check_output(path, what, keep, data_dir=data_dir)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return writing.atomic_write_bytes(path, raw)


def check_output(path: PathLike, what: str, keep: Keep = (), *,
                 data_dir: PathLike | None = None) -> None:
    """Refuse (ValueError) an output path that cannot be written, before any work.

    Parameters
    ----------
    path
        Where the output would go.
    what
        The option, for the message (``"--json"``).
    keep
        ``(path, words)`` pairs of other files the output must not replace (the
        file being read), named by ``words`` in the message.
    data_dir
        The command's ``--data-dir``, if any: its files are fastmine's too.

    Raises
    ------
    ValueError
        ``path`` is one of fastmine's own files (:func:`fastmine.files.owned.owner_of`)
        or one of ``keep``, a folder or not a regular file, or its folder is
        missing or not writable.
    """
    p = Path(path)
    owned.refuse_owned(p, what, data_dir)
    for other, words in keep:
        with contextlib.suppress(OSError):     # absent: nothing to lose
            if os.path.samefile(p, other):
                raise ValueError(f"{what} {path} is {words}; writing there would replace it")
    try:
        _check_writable(p, path, what)
    except OSError as exc:      # a name too long, a loop of links, a folder we may not read
        shown = str(path) if len(str(path)) <= 200 else f"{str(path)[:200]}..."
        raise ValueError(f"{what} {shown}: {exc.strerror or exc}") from None


def _check_writable(p: Path, path: PathLike, what: str) -> None:
    """The checks of :func:`check_output` that ask the file system (OSError passes)."""
    # a link is written through: its target's folder is the one written in
    written = Path(os.path.realpath(p)) if p.is_symlink() else p
    folder = written.parent if str(written.parent) else Path(".")
    if p.is_dir():
        raise ValueError(f"{what} {path} is a folder; give a file name")
    if p.exists() and not p.is_file():
        raise ValueError(f"{what} {path} exists and is not a regular file")
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {path}: cannot write in the folder {folder}")
