"""What fastmine file a file is, by its first bytes -- wherever it lies, whatever its name.

The output guard (:func:`fastmine.files.owned.owner_of`) knows fastmine's
files by where they are; a records database copied elsewhere and used with
``--data-dir``, a saved game or a replay the player keeps in a folder of their
own, or one reached through a link are found by what they hold:
:func:`fastmine_kind` reads at most :data:`SNIFF_BYTES` bytes of the file
(never more, never from a FIFO or a device) and tells

* a records database: an SQLite file whose header carries fastmine's
  application id (:data:`RECORDS_APPLICATION_ID`, ``"FMRC"``);
* a saved game or a replay: JSON whose first key is ``"format"`` with
  ``"fastmine-game"`` or ``"fastmine-replay"`` (both writers put it first);
* the app's settings: an INI file with a ``[game]`` section and at least two
  of the app's own setting names.

No writer of fastmine replaces such a file unless it writes that very kind
(:func:`fastmine.files.writing.atomic_write_bytes`' ``replaces``).
"""

from __future__ import annotations

import os
import re
import stat

__all__ = ["KIND_WORDS", "RECORDS_APPLICATION_ID", "SNIFF_BYTES", "fastmine_kind", "kind_of_bytes"]

SNIFF_BYTES = 4096
"""The most bytes :func:`fastmine_kind` reads of a file: its header, never the whole file."""

RECORDS_APPLICATION_ID = 0x464D5243
"""fastmine's SQLite application id (``"FMRC"``; the same as
:data:`fastmine.records.APPLICATION_ID`, which the core cannot import)."""

KIND_WORDS: dict[str, str] = {
    "records": "a fastmine records database",
    "save": "a fastmine saved game",
    "settings": "fastmine's settings",
    "replay": "a fastmine replay",
}
"""Each kind :func:`fastmine_kind` tells, with words for a message."""

_SQLITE = b"SQLite format 3\x00"
_JSON = re.compile(rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"format"\s*:\s*"fastmine-(game|replay)"')
_SECTION = re.compile(rb"^[ \t]*\[game\][ \t]*\r?$", re.M)
# Setting names only the app uses (not "theme" or "sound", which anything might have).
_SETTING = re.compile(rb"^[ \t]*(first_click|question_marks|long_press_delay|double_tap_delay|"
                      rb"tap_number|custom_rows|custom_cols|custom_mines|cell_size)[ \t]*[=:]",
                      re.M)
_DB_PARTS = ("-wal", "-shm", "-journal")


def kind_of_bytes(head: bytes) -> str | None:
    """The kind of fastmine file whose first bytes are ``head``, or None.

    Parameters
    ----------
    head : bytes
        The file's first bytes (:data:`SNIFF_BYTES` are enough).

    Returns
    -------
    str or None
        A key of :data:`KIND_WORDS`, or None for anything else.

    Examples
    --------
    >>> kind_of_bytes(b'{"format":"fastmine-replay","version":2}')
    'replay'
    >>> kind_of_bytes(b"[game]\\nfirst_click = opening\\ncell_size = 40\\n")
    'settings'
    >>> kind_of_bytes(b'{"format":"fastmine-records"}') is None
    True
    """
    if head.startswith(_SQLITE):
        app_id = int.from_bytes(head[68:72], "big") if len(head) >= 72 else 0
        return "records" if app_id == RECORDS_APPLICATION_ID else None
    match = _JSON.match(head)
    if match:
        return "save" if match[1] == b"game" else "replay"
    if _SECTION.search(head) and len(set(_SETTING.findall(head))) >= 2:
        return "settings"
    return None


def _head(path: str | os.PathLike[str]) -> bytes | None:
    """The first :data:`SNIFF_BYTES` bytes of a regular file (links followed), or None."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks: list[bytes] = []
        left = SNIFF_BYTES
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def fastmine_kind(path: str | os.PathLike[str]) -> str | None:
    """What fastmine file ``path`` holds, by its first bytes, or None.

    Links are followed.  A records database's ``-wal``, ``-shm`` or
    ``-journal`` file counts as the database when the file beside it without
    that ending is one.  Nothing, or a file that cannot be read, is None.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    str or None
        A key of :data:`KIND_WORDS`, or None.
    """
    head = _head(path)
    if head is None:
        return None
    kind = kind_of_bytes(head)
    if kind is None:
        name = os.fspath(path)
        for part in _DB_PARTS:
            if name.endswith(part) and len(name) > len(part):
                beside = _head(name[:-len(part)])
                if beside is not None and kind_of_bytes(beside) == "records":
                    return "records"
    return kind
