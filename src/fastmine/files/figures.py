"""Plots the command line writes on request (``--plot``): matplotlib figures drawn
to the format a path's suffix names, through :func:`fastmine.files.outputs.write_output`
(atomic, never over one of fastmine's own files).

Apart from :mod:`fastmine.files.outputs` because only the command line draws plots:
the app writes outputs too and must not reach matplotlib (a phone has none).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from .outputs import PathLike, write_output

__all__ = ["atomic_write_figure", "check_figure_path", "figure_bytes"]


def figure_bytes(path: PathLike, fig: Any) -> bytes:
    """A matplotlib figure drawn in the format ``path``'s suffix names.

    Check the suffix first with :func:`check_figure_path`.

    Parameters
    ----------
    path
        The file the figure is for (only its suffix is used).
    fig
        A ``matplotlib.figure.Figure``.

    Returns
    -------
    bytes
        The drawn file.
    """
    buf = io.BytesIO()
    fig.savefig(buf, format=Path(path).suffix.lower().lstrip("."))
    return buf.getvalue()


def atomic_write_figure(path: PathLike, fig: Any, what: str = "--plot",
                        data_dir: PathLike | None = None) -> Path:
    """Draw a matplotlib figure to ``path`` through :func:`write_output`.

    Parameters
    ----------
    path
        Where the figure goes (its suffix names the format).
    fig
        A ``matplotlib.figure.Figure``.
    what, data_dir
        As :func:`check_output`.

    Returns
    -------
    Path
        The file written.
    """
    return write_output(path, figure_bytes(path, fig), what, data_dir=data_dir)


def check_figure_path(path: str, what: str = "--plot") -> None:
    """Refuse a plot without matplotlib or with a format it cannot write.

    Parameters
    ----------
    path : str
        The plot's file; its suffix names the format (``.png``, ``.svg``, ...).
    what : str
        The option, for the message.

    Raises
    ------
    ValueError
        matplotlib is not installed, or it cannot write that format.
    """
    try:
        import matplotlib  # noqa: F401  (first: a submodule may be cached without it)
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        from ..extras import install_hint

        raise ValueError(f"{what} needs matplotlib: {install_hint('plot')}") from None
    kinds = FigureCanvasAgg(Figure()).get_supported_filetypes()
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in kinds:
        raise ValueError(f"{what} {path}: cannot draw a {suffix or 'suffix-less'} file; use "
                         f"one of {', '.join('.' + k for k in sorted(kinds))}")
