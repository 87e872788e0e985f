"""Output files the command line writes on request (``--json``, ``--plot``).

Checked before a run starts, so a bad path or a missing matplotlib is refused
at once instead of after the work, and written atomically like every file the
user owns (:mod:`fastmine.files.storage`).  Kept apart from :mod:`fastmine.files.storage`
because only the command line draws plots: the app, which imports storage,
must not reach matplotlib.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path
from typing import Any

from . import storage

__all__ = ["atomic_write_figure", "check_figure_path", "check_output"]


def atomic_write_figure(path: str | os.PathLike[str], fig: Any) -> Path:
    """Draw a matplotlib figure to ``path`` atomically, in the format its suffix names.

    Check the suffix first with :func:`check_figure_path`.
    """
    buf = io.BytesIO()
    fig.savefig(buf, format=Path(path).suffix.lower().lstrip("."))
    return storage.atomic_write_bytes(path, buf.getvalue())


def check_output(path: str, what: str,
                 keep: tuple[tuple[str | os.PathLike[str], str], ...] = ()) -> None:
    """Refuse (ValueError) an output path that cannot be written, before any work.

    ``what`` names the option in the message (``"--json"``).  ``keep``:
    ``(path, words)`` pairs of files the output must not replace (the records
    database, the file being read), named by ``words`` in the message.
    """
    p = Path(path)
    for other, words in keep:
        with contextlib.suppress(OSError):     # absent: nothing to lose
            if os.path.samefile(p, other):
                raise ValueError(f"{what} {path} is {words}; writing there would replace it")
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise ValueError(f"{what} {path} is a folder; give a file name")
    if p.exists() and not p.is_file():
        raise ValueError(f"{what} {path} exists and is not a regular file")
    if not folder.is_dir():
        raise ValueError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ValueError(f"{what} {path}: cannot write in the folder {folder}")


def check_figure_path(path: str, what: str = "--plot") -> None:
    """Refuse (ValueError) a plot without matplotlib or with a format it cannot write."""
    try:
        import matplotlib  # noqa: F401  (first: a submodule may be cached without it)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise ValueError(f"{what} needs matplotlib: pip install 'fastmine[plot]'") from None
    kinds = FigureCanvasAgg(Figure()).get_supported_filetypes()
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in kinds:
        raise ValueError(f"{what} {path}: cannot draw a {suffix or 'suffix-less'} file; use "
                         f"one of {', '.join('.' + k for k in sorted(kinds))}")
