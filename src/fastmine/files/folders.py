"""Where fastmine keeps the user's files: the data, settings and cache folders.

The user's records and saved game live in one data directory; the app's
settings in the platform's configuration folder (:func:`config_dir`) and what
can be made again in its cache folder (:func:`cache_dir`), both inside the data
directory when one is given or set.  The data directory is chosen, first match
wins, by:

1. an explicit path given by the caller (a ``--data-dir`` option, a test);
2. the ``FASTMINE_DATA_DIR`` environment variable;
3. ``platformdirs.user_data_dir("fastmine")`` (for example
   ``~/.local/share/fastmine`` on Linux).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> data_dir(d / "mine") == d / "mine"
True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["APP_NAME", "ENV_APP_DATA", "ENV_DATA_DIR", "cache_dir", "config_dir", "data_dir",
           "existing_data_dir"]

ENV_DATA_DIR = "FASTMINE_DATA_DIR"
"""Environment variable that overrides the data directory."""

APP_NAME = "fastmine"
"""fastmine's name in the platform's folders (``platformdirs``)."""

ENV_APP_DATA = "FASTMINE_APP_DATA"
"""Environment variable that puts all of the app's files in one folder."""


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
