"""Save and resume a game in progress (shared by the terminal game and the app).

The saved game is ``saved-game.json`` in the data directory (see
:mod:`fastmine.files.storage`): the JSON of :meth:`fastmine.Game.to_dict`, written
atomically.  There is one slot; saving replaces the previous save.

A file that cannot be read is never overwritten: :func:`load_game` raises
:class:`fastmine.SaveFormatError` (or :class:`fastmine.FutureVersionError`
for a save from a newer fastmine) and :func:`save_game` refuses to replace
such a file.  The caller decides what to do, typically telling the user and
calling :func:`move_aside` (which keeps the bytes under a new name).

>>> import tempfile, fastmine
>>> d = tempfile.mkdtemp()
>>> g = fastmine.Game(9, 9, 10, seed=4)
>>> _ = g.reveal(0, 0)
>>> path = save_game(g, data_dir=d)
>>> load_game(data_dir=d).view.tolist() == g.view.tolist()
True
>>> delete_save(data_dir=d)
True
>>> load_game(data_dir=d) is None
True
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import FutureVersionError, SaveFormatError
from ..game import Game
from ..limits import MAX_CELLS
from .folders import data_dir as _data_dir
from .kinds import KIND_WORDS, fastmine_kind
from .reading import read_regular_file
from .writing import atomic_write_text, remove_stale_temp_files
from .writing import move_aside as _move_aside

__all__ = ["MAX_SAVE_BYTES", "SAVE_FILE", "default_path", "delete_save", "describe", "load_game",
           "move_aside", "read_save", "save_game"]

SAVE_FILE = "saved-game.json"
"""File name of the saved game inside the data directory."""

MAX_SAVE_BYTES = 4096 + 12 * MAX_CELLS
"""The largest save file read: the biggest board's cells (a letter each) and
mine list (up to 11 characters a mine), plus the other fields.  A bigger file
(or a link to ``/dev/zero``) is refused unread."""

PathLike = str | os.PathLike[str]


def default_path(data_dir: PathLike | None = None) -> Path:
    """Where the saved game lives.

    Parameters
    ----------
    data_dir : str or os.PathLike, optional
        The data folder; by default ``FASTMINE_DATA_DIR`` or the platform's
        (see :func:`fastmine.files.storage.data_dir`).

    Returns
    -------
    pathlib.Path
        ``<data folder>/saved-game.json`` (the folder is not created).
    """
    return _data_dir(data_dir) / SAVE_FILE


def _resolve(path: PathLike | None, data_dir: PathLike | None) -> Path:
    return Path(path) if path is not None else default_path(data_dir)


def read_save(path: PathLike | None = None, *, data_dir: PathLike | None = None
              ) -> dict[str, Any] | None:
    """The saved game's dict after checking it parses as JSON, or None if there is no save.

    The dict is not yet checked as a game; :func:`load_game` does that.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The save file; by default :func:`default_path` of ``data_dir``.
    data_dir : str or os.PathLike, optional
        The data folder (see :func:`fastmine.files.storage.data_dir`).

    Returns
    -------
    dict or None
        The parsed JSON object, or None if there is no file.

    Raises
    ------
    fastmine.SaveFormatError
        The file cannot be read, is too big, or is not a JSON object.
    """
    p = _resolve(path, data_dir)
    try:
        raw = read_regular_file(p, MAX_SAVE_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveFormatError(f"cannot read the saved game {p}: {exc}") from None
    try:
        d = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SaveFormatError(f"the saved game {p} is corrupt (not JSON: {exc})") from None
    except RecursionError:
        # json nests one Python call per level: a save is at most two levels deep.
        raise SaveFormatError(f"the saved game {p} is corrupt (nested too deeply)") from None
    if not isinstance(d, dict):
        raise SaveFormatError(f"the saved game {p} is not a fastmine save")
    return d


def load_game(path: PathLike | None = None, *, data_dir: PathLike | None = None,
              clock: Callable[[], float] = time.monotonic) -> Game | None:
    """The saved game, or None if there is none.

    Temporary files a killed save left beside it are removed on the way.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The save file; by default :func:`default_path` of ``data_dir``.
    data_dir : str or os.PathLike, optional
        The data folder (see :func:`fastmine.files.storage.data_dir`).
    clock : callable
        The resumed game's clock, returning seconds.

    Returns
    -------
    Game or None
        The game as it was saved, or None if there is no save.

    Raises
    ------
    fastmine.SaveFormatError
        A corrupt file (left as it is; the message names it).
    fastmine.FutureVersionError
        A save from a newer fastmine (left as it is).
    """
    p = _resolve(path, data_dir)
    # A start after a save was killed: its temporary file goes (only such a
    # leftover, which no live writer locks: see remove_stale_temp_files).
    remove_stale_temp_files(os.path.realpath(p))
    d = read_save(p)
    if d is None:
        return None
    try:
        return Game.from_dict(d, clock=clock)
    except FutureVersionError as exc:
        raise FutureVersionError(f"{p}: {exc}") from None
    except SaveFormatError as exc:
        raise SaveFormatError(f"the saved game {p} is corrupt: {exc}") from None


def save_game(game: Game, path: PathLike | None = None, *,
              data_dir: PathLike | None = None) -> Path:
    """Save ``game`` atomically and return the path written.

    A save that is a symbolic link stays one: the file it points to is
    replaced.  Refuses (raises :class:`SaveFormatError` / :class:`FutureVersionError`,
    file untouched) if the existing file is not a save this fastmine can read,
    so an unreadable save is never lost by accident; :func:`move_aside` it first.

    Parameters
    ----------
    game : Game
        The game to save, in any state.
    path : str or os.PathLike, optional
        The save file; by default :func:`default_path` of ``data_dir``.
    data_dir : str or os.PathLike, optional
        The data folder (see :func:`fastmine.files.storage.data_dir`).

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    TypeError
        ``game`` is not a :class:`fastmine.Game`.
    fastmine.SaveFormatError, fastmine.FutureVersionError
        The file there is not a save this fastmine can read (it is kept).
    OSError
        The file cannot be written (the old one is kept).
    """
    if not isinstance(game, Game):
        raise TypeError(f"save_game needs a fastmine.Game, got {type(game).__name__}")
    p = _resolve(path, data_dir)
    if p.exists() or p.is_symlink():
        try:
            load_game(p)
        except FutureVersionError as exc:
            raise FutureVersionError(f"not replacing a save from a newer fastmine: {exc}") from None
        except SaveFormatError as exc:
            raise SaveFormatError(f"not replacing an unreadable save: {exc}") from None
    text = json.dumps(game.to_dict(), separators=(",", ":"))
    return atomic_write_text(p, text + "\n", replaces="save")


def delete_save(path: PathLike | None = None, *, data_dir: PathLike | None = None) -> bool:
    """Remove the saved game.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The save file; by default :func:`default_path` of ``data_dir``.
    data_dir : str or os.PathLike, optional
        The data folder (see :func:`fastmine.files.storage.data_dir`).

    Returns
    -------
    bool
        True if there was one.

    Raises
    ------
    SaveFormatError
        The file there holds another of fastmine's files (a records database,
        settings, a replay: :func:`fastmine.files.kinds.fastmine_kind`); it is
        left as it is.
    """
    p = _resolve(path, data_dir)
    kind = None if p.is_symlink() else fastmine_kind(p)    # a link: only the link goes
    if kind not in (None, "save"):
        raise SaveFormatError(f"not removing {p}: it is {KIND_WORDS[kind]}, not a saved game")
    try:
        p.unlink()
    except FileNotFoundError:
        return False
    return True


def move_aside(path: PathLike | None = None, *, data_dir: PathLike | None = None) -> Path:
    """Rename an unreadable save to ``saved-game.json.corrupt-<time>``, keeping its bytes.

    Parameters
    ----------
    path : str or os.PathLike, optional
        The save file; by default :func:`default_path` of ``data_dir``.
    data_dir : str or os.PathLike, optional
        The data folder (see :func:`fastmine.files.storage.data_dir`).

    Returns
    -------
    pathlib.Path
        The new path.
    """
    return _move_aside(_resolve(path, data_dir))


def describe(game: Game) -> str:
    """A one-line description of a saved game for a resume prompt.

    Parameters
    ----------
    game : Game
        The saved game.

    Returns
    -------
    str
        Its size's name, size and time played.

    Examples
    --------
    >>> import fastmine
    >>> describe(fastmine.Game(9, 9, 10))
    'beginner 9x9/10, 0:00 played'
    """
    from ..difficulty import difficulty_name

    t = int(game.elapsed)
    name = difficulty_name(game.rows, game.cols, game.mine_count)
    return f"{name} {game.rows}x{game.cols}/{game.mine_count}, {t // 60}:{t % 60:02d} played"
