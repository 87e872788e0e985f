"""Progress over the last games: the series behind the records plots.

``fastmine records --plot`` (:mod:`fastmine.cli.records`, matplotlib) and the
app's Progress screen (Kivy graphics) draw the same thing: per board, the
time and the 3BV/s of each won game, oldest first, with a running median.
This module computes it from :class:`fastmine.records.GameRecord` lists and
imports nothing that draws, so the app (and its Android build, which has no
matplotlib) can use it.

>>> from fastmine.records import GameRecord
>>> games = [GameRecord.make(9, 9, 10, won=w, time=t, bbbv=b)
...          for w, t, b in ((True, 10.0, 20), (False, 3.0, 20), (True, 8.0, 24))]
>>> p = progress(games)
>>> p.played, p.won, p.time.values, p.rate.values
(3, 2, [10.0, 8.0], [2.0, 3.0])
>>> p.time.median, p.best_time, p.median_time
([10.0, 9.0], 8.0, 9.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .gamerecord import GameRecord

MEDIAN_WINDOW = 10
"""How many games (the one drawn and those before it) the running median takes."""

WHAT = ("time", "bbbv_per_second")
"""The figures a :class:`Series` can follow."""


def running_median(values: Sequence[float], window: int = MEDIAN_WINDOW) -> list[float]:
    """The median of each value and up to ``window - 1`` before it.

    >>> running_median([5.0, 1.0, 3.0, 2.0], 3)
    [5.0, 3.0, 3.0, 2.0]
    """
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ValueError(f"the median window must be a whole number of games, at least 1, "
                         f"got {window!r}")
    out = []
    for i in range(len(values)):
        w = sorted(values[max(0, i - window + 1):i + 1])
        k = len(w)
        out.append(w[k // 2] if k % 2 else (w[k // 2 - 1] + w[k // 2]) / 2)
    return out


@dataclass(frozen=True)
class Series:
    """One chart: a figure of each won game, in order, with its running median.

    ``x[i]`` is the position of the game among the won games it was taken
    from (1 the oldest); games without the figure (a 3BV/s of a game that
    took no time) have no point, so ``x`` may skip.  ``records[i]`` is the
    game of point ``i``.
    """

    what: str
    x: list[int]
    values: list[float]
    median: list[float]
    records: list[GameRecord]

    def __len__(self) -> int:
        return len(self.values)


def series(won: Sequence[GameRecord], what: str, window: int = MEDIAN_WINDOW) -> Series:
    """The points of ``what`` (``"time"`` or ``"bbbv_per_second"``) of ``won``
    games, oldest first, skipping games that lack a finite value."""
    if what not in WHAT:
        raise ValueError(f"a series follows one of {WHAT}, not {what!r}")
    x: list[int] = []
    values: list[float] = []
    recs: list[GameRecord] = []
    for i, r in enumerate(won, 1):
        v = getattr(r, what)
        if v is not None and math.isfinite(v):
            x.append(i)
            values.append(float(v))
            recs.append(r)
    return Series(what, x, values, running_median(values, window), recs)


def _median(values: Sequence[float]) -> float | None:
    return running_median(values, len(values))[-1] if values else None


@dataclass(frozen=True)
class Progress:
    """The last games of one board: how many were played and won, and the
    time and 3BV/s series of the won ones."""

    played: int
    won: int
    time: Series
    rate: Series

    @property
    def win_percent(self) -> float | None:
        """Wins as a percentage of the games played (None with no games)."""
        return 100.0 * self.won / self.played if self.played else None

    @property
    def best_time(self) -> float | None:
        """The fastest win (None without wins)."""
        return min(self.time.values) if self.time.values else None

    @property
    def median_time(self) -> float | None:
        """The median time of the wins (None without wins)."""
        return _median(self.time.values)

    @property
    def best_rate(self) -> float | None:
        """The highest 3BV/s of a win (None without one)."""
        return max(self.rate.values) if self.rate.values else None

    @property
    def median_rate(self) -> float | None:
        """The median 3BV/s of the wins (None without one)."""
        return _median(self.rate.values)


def progress(games: Sequence[GameRecord], last: int | None = None,
             window: int = MEDIAN_WINDOW) -> Progress:
    """The last ``last`` of ``games`` (one board's, oldest first; None: all).

    Losses count as played; only wins have a time worth drawing.
    """
    if last is not None:
        if isinstance(last, bool) or not isinstance(last, int) or last < 1:
            raise ValueError(f"the number of last games must be a whole number, at least 1, "
                             f"got {last!r}")
        games = games[-last:]
    won = [g for g in games if g.won]
    return Progress(len(games), len(won), series(won, "time", window),
                    series(won, "bbbv_per_second", window))


def last_won_by_board(records: Sequence[GameRecord], last: int,
                      include_assisted: bool = False) -> dict[str, list[GameRecord]]:
    """Board label -> its last ``last`` won games (oldest first), the boards in the
    order they were first played; losses are left out (their time measures nothing)."""
    by_board: dict[str, list[GameRecord]] = {}
    for r in records:
        if r.won and (include_assisted or not r.assisted):
            by_board.setdefault(r.board_label, []).append(r)
    return {label: games[-last:] for label, games in by_board.items()}
