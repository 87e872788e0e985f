"""``fastmine analyze --summary``: a collection of games per player and level.

:func:`summarize` groups the games of ``fastmine analyze``'s JSON entries
(:meth:`fastmine.cli.analyze.Analysis.to_json`) by player and level and sums
each group up: games, wins, the best time, the best and median 3BV/s, the
median IOE, RQP and STNB, and the coach's counts.  The speed figures are
those of the won games, as the players' ranking lists count them (a lost
game's 3BV/s is over the part it solved); the coach's counts are over every
game.  :func:`table` is the terminal's view of it, :func:`to_csv` the
scripts', and :func:`plot` draws 3BV/s over the games' dates (matplotlib).
"""

from __future__ import annotations

import csv
import io
import statistics
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from .stdio import printable

__all__ = ["LEVELS", "plot", "summarize", "table", "to_csv"]

LEVELS = ("beginner", "intermediate", "expert", "custom")
"""The levels in the order the summary lists them."""

_FIGURES = ("games", "wins", "best_time", "best_bbbv_per_second", "median_bbbv_per_second",
            "median_ioe", "median_rqp", "median_stnb")


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarize(games: Iterable[Mapping[str, Any]],
              coach_keys: Sequence[str] = ()) -> list[dict[str, Any]]:
    """One row a player and level, in order of player then level.

    Parameters
    ----------
    games : iterable of mapping
        The games' entries of ``fastmine analyze --json`` (``player``,
        ``level``, ``outcome``, ``time``, ``bbbv_per_second``, ``ioe``,
        ``rqp``, ``stnb`` and the coach's counts).
    coach_keys : sequence of str
        The coach's counts to sum (empty: ``--no-coach``).

    Returns
    -------
    list of dict
        ``player`` (None where the files name none), ``level``, then
        ``games``, ``wins``, ``best_time``, ``best_bbbv_per_second``,
        ``median_bbbv_per_second``, ``median_ioe``, ``median_rqp``,
        ``median_stnb`` (None where no won game gives one) and each of
        ``coach_keys``.

    Examples
    --------
    >>> rows = summarize([{"player": "Tommy", "level": "beginner", "outcome": "won",
    ...                    "time": 5.41, "bbbv_per_second": 5.2, "ioe": 0.78, "rqp": 1.05,
    ...                    "stnb": 57.2}])
    >>> rows[0]["games"], rows[0]["best_time"], rows[0]["median_ioe"]
    (1, 5.41, 0.78)
    """
    groups: dict[tuple[str | None, str], list[Mapping[str, Any]]] = {}
    for g in games:
        groups.setdefault((g.get("player"), str(g.get("level"))), []).append(g)

    def order(key: tuple[str | None, str]) -> tuple[bool, str, str, int, str]:
        player, level = key
        rank = LEVELS.index(level) if level in LEVELS else len(LEVELS)
        return (player is None, (player or "").casefold(), player or "", rank, level)

    rows = []
    for key in sorted(groups, key=order):
        entries = groups[key]
        won = [g for g in entries if g.get("outcome") == "won"]

        def values(name: str, among: list[Mapping[str, Any]] = won) -> list[float]:
            return [float(g[name]) for g in among if g.get(name) is not None]

        speeds = values("bbbv_per_second")
        row: dict[str, Any] = {
            "player": key[0], "level": key[1], "games": len(entries), "wins": len(won),
            "best_time": min(values("time"), default=None),
            "best_bbbv_per_second": max(speeds, default=None),
            "median_bbbv_per_second": _median(speeds),
            "median_ioe": _median(values("ioe")),
            "median_rqp": _median(values("rqp")),
            "median_stnb": _median(values("stnb")),
        }
        for name in coach_keys:
            row[name] = sum(int(g.get(name) or 0) for g in entries)
        rows.append(row)
    return rows


_HEADS = {"player": "player", "level": "level", "games": "games", "wins": "wins",
          "best_time": "best time", "best_bbbv_per_second": "best 3BV/s",
          "median_bbbv_per_second": "median 3BV/s", "median_ioe": "IOE",
          "median_rqp": "RQP", "median_stnb": "STNB"}
_PLACES = {"best_time": 3, "best_bbbv_per_second": 3, "median_bbbv_per_second": 3,
           "median_ioe": 3, "median_rqp": 2, "median_stnb": 1}


def _cell(name: str, value: Any) -> str:
    if value is None:
        return "-"
    if name in _PLACES:
        return f"{value:.{_PLACES[name]}f}"
    return printable(str(value))


def _width(text: str) -> int:
    """Columns ``text`` takes on a terminal (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table(rows: Sequence[Mapping[str, Any]], coach_keys: Sequence[str] = ()) -> str:
    """The summary as a table for a terminal: a header, a line a row; names
    escaped (:func:`fastmine.cli.stdio.printable`), numbers right-aligned.

    Returns
    -------
    str
        The lines, each ending in a newline ("" when there is no row).
    """
    if not rows:
        return ""
    names = ["player", "level", *_FIGURES, *coach_keys]
    heads = [_HEADS.get(n, n.replace("_", " ")) for n in names]
    cells = [[_cell(n, r.get(n)) for n in names] for r in rows]
    widths = [max(_width(x) for x in col) for col in zip(heads, *cells, strict=True)]

    def line(values: Sequence[str]) -> str:
        out = []
        for i, v in enumerate(values):
            pad = " " * (widths[i] - _width(v))
            out.append(v + pad if i < 2 else pad + v)
        return "  ".join(out).rstrip() + "\n"

    return "".join(line(v) for v in [heads, *cells])


def to_csv(rows: Sequence[Mapping[str, Any]], coach_keys: Sequence[str] = ()) -> str:
    """The summary as CSV for scripts: a header row of the keys of
    :func:`summarize`, then a row a player and level (empty where a figure is
    missing; numbers in full; names escaped as on a terminal)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    names = ["player", "level", *_FIGURES, *coach_keys]
    writer.writerow(names)
    for r in rows:
        writer.writerow(["" if r.get(n) is None else printable(str(r[n])) if
                         isinstance(r[n], str) else r[n] for n in names])
    return buf.getvalue()


def _when(text: object) -> datetime | None:
    """A game's date for the plot's axis (a zone's time as UTC), or None."""
    if not isinstance(text, str):
        return None
    try:
        d = datetime.fromisoformat(text)
    except ValueError:
        return None
    return d.astimezone(timezone.utc).replace(tzinfo=None) if d.tzinfo else d


def plot(games: Iterable[Mapping[str, Any]], path: str) -> int:
    """Draw the won games' 3BV/s over their dates, a series a player and level,
    and write it to ``path`` through the output guard
    (:func:`fastmine.files.figures.atomic_write_figure`).

    Returns
    -------
    int
        How many games the plot shows (0: nothing drawn, nothing written).

    Raises
    ------
    ValueError
        ``path`` cannot be written (see :func:`fastmine.files.outputs.write_output`).
    OSError
        The write failed.
    """
    series: dict[tuple[str, str], list[tuple[datetime, float]]] = {}
    for g in games:
        when = _when(g.get("date"))
        if g.get("outcome") != "won" or when is None or g.get("bbbv_per_second") is None:
            continue
        key = (printable(g.get("player") or "(no name)"), str(g.get("level")))
        series.setdefault(key, []).append((when, float(g["bbbv_per_second"])))
    shown = sum(len(v) for v in series.values())
    if not shown:
        return 0
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..files.figures import atomic_write_figure

    fig, ax = plt.subplots(figsize=(8.0, 4.5))
    try:
        with warnings.catch_warnings():
            # a name in a script the font lacks is drawn as boxes, not a warning a glyph
            warnings.simplefilter("ignore", UserWarning)
            for (player, level), points in sorted(series.items()):
                points.sort()
                dates: Any = [p[0] for p in points]      # matplotlib takes dates
                ax.plot(dates, [p[1] for p in points], marker="o",
                        markersize=3, linestyle="-" if len(points) > 1 else "",
                        linewidth=0.6, label=f"{player}, {level}")
            ax.set_ylabel("3BV/s (won games)")
            ax.set_title(f"fastmine analyze: 3BV/s over time, {shown} won games")
            if len(series) <= 12:
                ax.legend(fontsize=8)
            fig.autofmt_xdate()
            fig.tight_layout()
            atomic_write_figure(path, fig)
    finally:
        plt.close(fig)
    return shown
