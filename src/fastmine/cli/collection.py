"""The files a command line names: files, folders walked for videos, glob patterns.

``fastmine analyze FOLDER`` (and ``fastmine replay --import FOLDER``) read a
player's collection as it is kept: folders of videos, nested by year or
client.  :func:`expand` turns the command line's names into the files to
read, in a stable order:

- a file is taken as named (whatever its suffix: a renamed video still reads);
- a folder is walked, sub-folders included, for the suffixes in
  :data:`SUFFIXES` (any case); its files come sorted by path, a folder's own
  files before its sub-folders'.  Links to folders are not followed (a link
  loop cannot run the walk for ever), links to files are;
- a name that does not exist but holds ``*``, ``?`` or ``[`` is a glob pattern
  (the shells of Windows do not expand them), expanded in sorted order.

The walk is iterative (an explicit stack), so a deep tree cannot exhaust
Python's recursion limit.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["SUFFIXES", "Expanded", "expand"]

SUFFIXES = (".avf", ".rmv", ".mvf", ".evf", ".fmreplay")
"""What a folder's walk takes: the four video formats and fastmine's replays."""


@dataclass
class Expanded:
    """The files to read, and the names that gave none.

    Attributes
    ----------
    files : list of str
        Every file, in order: a file named twice is read twice, one found by a
        walk or a pattern once.  A folder with no video or a pattern that
        matches nothing stays in its place, for its line in order.
    empty : dict of str to str
        Why each of those gives no file: each is one line for the user.
    """

    files: list[str] = field(default_factory=list)
    empty: dict[str, str] = field(default_factory=dict)


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):      # missing, a loop of links, a NUL in the name
        return False


def _walk(top: str) -> list[str]:
    """The files under ``top`` whose suffix is in :data:`SUFFIXES`, sorted (see the module)."""
    found: list[str] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue               # unreadable: nothing found there
        subfolders = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    subfolders.append(entry.path)
                elif os.path.splitext(entry.name)[1].lower() in SUFFIXES and entry.is_file():
                    found.append(entry.path)
            except OSError:
                continue
        stack.extend(reversed(subfolders))      # popped in sorted order
    return found


def expand(names: Iterable[str]) -> Expanded:
    """The files named on a command line, folders walked and patterns expanded.

    Parameters
    ----------
    names : iterable of str
        As typed.  A name that is neither a folder nor a pattern is kept as it
        is, even if missing: the reader then says what is wrong with it.

    Returns
    -------
    Expanded

    Examples
    --------
    >>> expand(["no-such-file.avf"]).files
    ['no-such-file.avf']
    """
    out = Expanded()
    seen: set[str] = set()

    def add(path: str) -> None:
        if path not in seen:
            seen.add(path)
            out.files.append(path)

    def nothing(name: str, why: str) -> None:
        out.empty[name] = why
        out.files.append(name)

    for name in names:
        if _is_dir(name):
            found = _walk(name)
            if not found:
                nothing(name, f"a folder with no video ({', '.join(SUFFIXES)}) in it or below")
            for path in found:
                add(path)
        elif not os.path.lexists(name) and any(c in name for c in "*?["):
            import glob  # only for a pattern

            matches = sorted(glob.glob(name, recursive=True))
            if not matches:
                nothing(name, "no file matches this pattern")
            for path in matches:
                if _is_dir(path):
                    for found_path in _walk(path):
                        add(found_path)
                else:
                    add(path)
        else:
            seen.add(name)
            out.files.append(name)
    return out
