"""What fastmine owns in the user's folders, and the guard that keeps outputs off it.

:func:`owned_paths` lists every file and folder fastmine keeps for the player
(the records, the saved game, the app's settings, sounds and caches, in every
data folder in play); :func:`owner_of` tells whether a path is one of them --
by another name too (a link, a hard link, a bind mount) -- and
:func:`refuse_owned` refuses to write an output there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .folders import APP_NAME, ENV_APP_DATA, ENV_DATA_DIR
from .kinds import KIND_WORDS, fastmine_kind

__all__ = ["OWNED_FILES", "OWNED_FOLDERS", "RECORDS_FILE", "SAVE_FILE", "owned_paths",
           "owner_of", "refuse_owned"]

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

A file kept aside (``<name>.corrupt-<time>``, :func:`fastmine.files.writing.move_aside`) or half
written (``.<name>.XXXXXXXX.tmp``) is the player's too: :func:`owner_of`
counts it with its name."""

OWNED_FOLDERS: dict[str, str] = {
    "sounds": "the app's sounds",
    "cache": "the app's tile cache",
}
"""Folders of a data directory that are fastmine's as a whole."""

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
    A file anywhere else is fastmine's by what it holds: a records database,
    a saved game, settings or a replay (:func:`fastmine.files.kinds.fastmine_kind`,
    which reads at most its first :data:`fastmine.files.kinds.SNIFF_BYTES`).

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
        words = _hard_link_owner(target, data_dir)
        if words is not None:
            return words
    # Wherever it lies: a records database, saved game, settings or replay by
    # its first bytes (fastmine.files.kinds; at most SNIFF_BYTES read).
    kind = fastmine_kind(real) if target is not None else None
    return KIND_WORDS[kind] if kind is not None else None


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
