"""Where the app keeps its files, and its settings file read and written safely.

The app keeps its files where each platform keeps such files:

* the records database and the saved game (shared with the terminal game) and
  the generated sounds in the data folder (:func:`data_folder`);
* the settings (``fastmine.ini``) and the board views (``board_views.json``)
  in the configuration folder (:func:`config_folder`: for example
  ``~/.config/fastmine`` on Linux, ``$XDG_CONFIG_HOME`` honoured);
* the drawn tiles in the cache folder (:func:`cache_folder`: for example
  ``~/.cache/fastmine`` on Linux, ``$XDG_CACHE_HOME`` honoured).

The data folder is, first match wins:

1. the folder given to the app (``--data-dir``, the tests, the benchmark);
2. the ``FASTMINE_APP_DATA`` environment variable;
3. fastmine's shared data folder (:func:`fastmine.files.storage.data_dir`:
   ``FASTMINE_DATA_DIR``, else the platform's user data folder, for example
   ``~/.local/share/fastmine`` on Linux); on Android the app's private
   storage, ``/data/user/0/<package>/files/fastmine``, which no other app
   can read and which Android deletes with the app.

In the first two cases, with ``FASTMINE_DATA_DIR`` set, and on Android, the
settings and board views live in that one folder too, and the cache in its
``cache`` folder.

Earlier versions kept the settings and board views in the data folder, the
tiles in its ``cache`` folder, and before them the settings in Kivy's
``App.user_data_dir`` (``~/.config/fastmine`` on Linux): :func:`move_old_files`
moves them where they belong now, once, without losing a byte (see
:func:`move_file`).

Kivy writes its config file in place (``open(path, "w")``), so a full disk
or a crash leaves it cut mid-value.  :class:`SettingsConfig` writes it like
every other file the user owns: a temporary file in the same folder, fsync,
then ``os.replace`` (:func:`fastmine.files.storage.atomic_write_text`).  A
settings file that cannot be read is never overwritten: :func:`read_settings`
moves it aside and says so.
"""

from __future__ import annotations

import configparser
import contextlib
import errno
import io
import os
import stat
from collections.abc import Callable
from pathlib import Path

from kivy.config import ConfigParser
from kivy.logger import Logger

from fastmine.files import storage

from ..text.i18n import _

SETTINGS_FILE = "fastmine.ini"
"""The settings file's name in the configuration folder."""

VIEWS_FILE = "board_views.json"
"""The board views' file (zoom and position per board size) in the configuration folder."""

CACHE_FOLDER = "cache"
"""The cache's folder in a data folder that holds everything (and in earlier versions')."""

ENV_APP_DATA = "FASTMINE_APP_DATA"
"""Environment variable that puts all of the app's files in one given folder."""

APP_NAME = "fastmine"
"""The app's name as Kivy derives it from ``FastmineApp`` (its old settings folder)."""

MAX_SETTINGS_BYTES = 1 << 16
"""A settings file is a few hundred bytes; anything past this is not one."""


def _current_platform() -> str:
    from kivy.utils import platform

    name: str = platform  # Kivy's platform name: a str (Kivy has no type information)
    return name


def data_folder(override: str | os.PathLike[str] | None = None, *,
                platform: str | None = None) -> Path:
    """The one folder for the app's settings, records and saved game (not created).

    See the module docstring for the order.  ``platform`` is Kivy's name for
    the platform (``kivy.utils.platform`` when None).
    """
    return _one_folder(override, platform) or storage.data_dir()


def _one_folder(override: str | os.PathLike[str] | None, platform: str | None) -> Path | None:
    """The data folder when it holds the settings and the cache too, else None."""
    if override is not None and str(override) != "":
        return Path(override).expanduser()
    if os.environ.get(ENV_APP_DATA):
        return Path(os.environ[ENV_APP_DATA]).expanduser()
    if (platform or _current_platform()) == "android" and not os.environ.get(storage.ENV_DATA_DIR):
        return android_data_folder()
    return None


def config_folder(override: str | os.PathLike[str] | None = None, *,
                  platform: str | None = None) -> Path:
    """The folder of the settings and the board views (not created).

    The data folder when it is given (``override``), set (``FASTMINE_APP_DATA``,
    ``FASTMINE_DATA_DIR``) or on Android; else the platform's configuration
    folder (:func:`fastmine.files.storage.config_dir`).
    """
    one = _one_folder(override, platform)
    return one if one is not None else storage.config_dir()


def cache_folder(override: str | os.PathLike[str] | None = None, *,
                 platform: str | None = None) -> Path:
    """The folder of the drawn tiles (not created): as :func:`config_folder`, with
    the data folder's ``cache`` folder or the platform's cache folder
    (:func:`fastmine.files.storage.cache_dir`)."""
    one = _one_folder(override, platform)
    return one / CACHE_FOLDER if one is not None else storage.cache_dir()


MAX_MOVED_BYTES = 1 << 26
"""The largest file :func:`move_file` carries over (a tile cache is a few MB)."""


def move_file(old: Path, new: Path) -> bool:
    """Move ``old`` to ``new`` so that no crash, at any point, loses either.

    The bytes are written to ``new`` atomically (a temporary file, fsync,
    rename: :func:`fastmine.files.storage.atomic_write_bytes`) and only then is
    ``old`` removed.  A move cut short between the two finds ``new`` there with
    the same bytes at the next start and finishes by removing ``old``; a
    ``new`` with other bytes wins and ``old`` is left where it is, untouched.
    Moving again does nothing: the move is idempotent.

    Links are resolved first: when ``new`` is ``old`` by another name (a
    symbolic link to it, or to its folder, or a hard link), its bytes are
    ``old``'s own, not a copy, so nothing moves and ``old`` is never removed
    (removing it would take the only copy, leaving ``new`` a dangling link).

    Parameters
    ----------
    old, new : pathlib.Path
        Where the file was and where it goes (their folders may be on
        different file systems).

    Returns
    -------
    bool
        True if ``old`` is gone now (moved, or finished moving).
    """
    try:
        if not old.is_file() or old.is_symlink():
            return False
        data = storage.read_regular_file(old, MAX_MOVED_BYTES)
        if os.path.lexists(new):
            if _same_file(old, new):
                return False                        # one file, two names: nothing to move
            if not new.is_file() or storage.read_regular_file(new, MAX_MOVED_BYTES) != data:
                return False                        # the new place has its own: keep both
        else:
            new.parent.mkdir(parents=True, exist_ok=True)
            storage.atomic_write_bytes(new, data)
        old.unlink()
    except OSError as exc:
        Logger.warning(f"fastmine: {old} not moved to {new}: {exc}")
        return False
    return True


def move_old_files(data: Path, config: Path, cache: Path,
                   kivy_folder: Path | None = None) -> list[Path]:
    """Move what earlier versions kept elsewhere into ``config`` and ``cache``, once.

    From the data folder: the settings and the board views into ``config``,
    the tiles of its ``cache`` folder into ``cache`` (the emptied folder is
    removed); from Kivy's old settings folder (``kivy_folder``): the settings,
    if the data folder had none.  Each file moves with :func:`move_file`, so a
    crash on the way loses nothing and the next start finishes the move.

    Parameters
    ----------
    data, config, cache : pathlib.Path
        The data, configuration and cache folders of this start.
    kivy_folder : pathlib.Path, optional
        Kivy's settings folder of the oldest versions
        (:func:`kivy_settings_folder`).

    Returns
    -------
    list of pathlib.Path
        The old paths moved.
    """
    moves: list[tuple[Path, Path]] = []
    for old_folder in (data, kivy_folder):
        if old_folder is not None and not _same(old_folder, config):
            moves += [(old_folder / name, config / name) for name in (SETTINGS_FILE, VIEWS_FILE)]
    old_cache = data / CACHE_FOLDER
    if not _same(old_cache, cache) and old_cache.is_dir() and not old_cache.is_symlink():
        with contextlib.suppress(OSError):
            moves += [(old_cache / p.name, cache / p.name) for p in sorted(old_cache.iterdir())]
    moved = [old for old, new in moves if move_file(old, new)]
    with contextlib.suppress(OSError):
        old_cache.rmdir()                           # only if it is empty now
    return moved


def _same_file(a: Path, b: Path) -> bool:
    """True when ``a`` and ``b`` are one file (links followed), False when not or unknown."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def android_data_folder() -> Path:
    """``<the app's files folder>/fastmine``: private storage on Android.

    Asked of platformdirs' Android rules directly: its automatic choice
    falls back to the Unix rules when the process has a ``SHELL`` variable
    set, which would put the files outside the app's own storage.
    """
    from platformdirs.android import Android

    return Path(Android(APP_NAME, appauthor=False).user_data_dir)


def kivy_settings_folder(platform: str | None = None) -> Path | None:
    """Where Kivy's ``App.user_data_dir`` put the settings before (not created).

    The same rules as Kivy 2.3's ``App._get_user_data_dir``, without its
    side effect of creating the folder.  None where it cannot be known.
    """
    platform = platform or _current_platform()
    if platform == "android":
        return android_data_folder().parent  # Context.getFilesDir()
    if platform == "ios":
        return Path("~/Documents").expanduser() / APP_NAME
    if platform == "win":
        appdata = os.environ.get("APPDATA")
        return Path(appdata) / APP_NAME if appdata else None
    if platform == "macosx":
        return Path("~/Library/Application Support").expanduser() / APP_NAME
    return Path(os.environ.get("XDG_CONFIG_HOME", "~/.config")).expanduser() / APP_NAME


class SettingsConfig(ConfigParser):  # type: ignore[misc]  # Kivy has no type information
    """Kivy's ConfigParser, but its file is replaced atomically on every write.

    :meth:`write` keeps Kivy's contract (True on success, False on failure;
    Kivy's settings panel calls it after every change and ignores the
    result): a failure leaves the old file whole, is logged, is kept in
    :attr:`write_error` and is passed to :attr:`on_write_error`.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.write_error: OSError | None = None
        self.on_write_error: Callable[[OSError], None] | None = None

    def write(self) -> bool:
        """Write the settings to :attr:`filename` atomically; False if it failed."""
        if self.filename is None:
            return False
        buf = io.StringIO()
        configparser.RawConfigParser.write(self, buf)
        try:
            storage.atomic_write_text(self.filename, buf.getvalue(), replaces="settings")
        except OSError as exc:
            self.write_error = exc
            Logger.warning(f"fastmine: settings not saved to {self.filename}: {exc}")
            if self.on_write_error is not None:
                self.on_write_error(exc)
            return False
        self.write_error = None
        return True


def why_not_read(exc: OSError, path: str | os.PathLike[str], sentence: bool = False) -> str:
    """Why the file ``path`` could not be read, in the player's language.

    The system's own words (``exc.strerror``, :func:`fastmine.files.storage.read_regular_file`'s
    messages) are English: the caller logs them, the player reads these.

    Parameters
    ----------
    exc : OSError
        What reading it raised.
    path : str or os.PathLike
        The file.
    sentence : bool
        A sentence ("This is a folder, not a file.") rather than a clause to put
        after a colon ("it is a folder, not a file").

    Returns
    -------
    str
        A folder, a device or a pipe, too big, not allowed, or cannot be read.
    """
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISDIR(st.st_mode):
        return _("This is a folder, not a file.") if sentence else _("it is a folder, not a file")
    if st is not None and not stat.S_ISREG(st.st_mode):
        return _("This is not a file but a device or a pipe.") if sentence \
            else _("it is not a file but a device or a pipe")
    if exc.errno is None and st is not None:           # read_regular_file's size limit
        return _("The file is too big.") if sentence else _("it is too big")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return _("fastmine is not allowed to read this file.") if sentence \
            else _("fastmine is not allowed to read it")
    return _("The file cannot be read.") if sentence else _("it cannot be opened")


def _check_settings_text(path: Path) -> None:
    """Raise ValueError saying, in the player's language, why ``path`` is not a
    readable settings file (OSError from :func:`fastmine.files.storage.read_regular_file`
    if it is not a regular file of a settings file's size, or cannot be opened)."""
    data = storage.read_regular_file(path, MAX_SETTINGS_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(_("it is not text (UTF-8)")) from None
    try:
        configparser.RawConfigParser().read_string(text, source=str(path))
    except configparser.Error as exc:
        # configparser's own words are English: the line is what helps
        line = getattr(exc, "lineno", None)
        Logger.info(f"fastmine: settings file {path}: {str(exc).splitlines()[0]}")
        raise ValueError(_("it is not a settings file (line {line})").format(line=line) if line
                         else _("it is not a settings file")) from None


def read_settings(config: SettingsConfig, path: str | os.PathLike[str]) -> str | None:
    """Load ``path`` into ``config`` (defaults already set); a note for the player, or None.

    A missing file is created with the defaults.  A file that cannot be read
    is moved aside (kept as ``fastmine.ini.corrupt-<time>``) and the defaults
    are used; if it cannot even be moved, it is left as it is and nothing is
    written over it this run.  The note says which happened.
    """
    path = Path(path)
    if not os.path.lexists(path):
        config.filename = str(path)
        config.write()
        return None
    try:
        _check_settings_text(path)
    except ValueError as exc:
        why = str(exc)
    except OSError as exc:
        Logger.info(f"fastmine: settings file {path}: {exc}")
        why = why_not_read(exc, path)
    else:
        config.read(str(path))
        return None
    Logger.warning(f"fastmine: settings file {path} not used: {why}")
    try:
        kept = storage.move_aside(path)
    except OSError as exc:
        config.filename = None  # never write over a file the player may want back
        return _("The settings file {file} could not be read: {why}. It was left as it is (it "
                 "cannot be moved: {error}); the default settings are used and changes are not "
                 "saved until it is fixed or removed.").format(file=path, why=why,
                                                               error=exc.strerror or exc)
    config.filename = str(path)
    config.write()
    return _("The settings file could not be read: {why}. It was kept as {file} and the "
             "default settings are used.").format(why=why, file=kept.name)
